"""cardgen.resources: every shipped file is found through one module, in a checkout as in an install."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from cardgen import resources

ROOT = Path(__file__).resolve().parents[1]


def test_every_shipped_folder_is_found_in_the_checkout():
    assert resources.in_checkout()
    assert resources.TEMPLATES == ROOT / "templates"
    assert resources.EXAMPLES == ROOT / "content"
    for path in (resources.PRINTERS, resources.CARD_TEMPLATES / "default.yaml",
                 resources.RULEBOOK_TEMPLATES / "rulebook.html.j2", resources.STUDIO_TEMPLATES / "studio.css",
                 resources.NEW_GAME_TEMPLATES / "game.yaml.j2", resources.FONTS / "DejaVuSans.ttf",
                 resources.ICC_PROFILES / "fogra39-tac300.icc", resources.SHARED_TEXT / "en.yaml",
                 resources.EXAMPLES / "schema" / "cards.schema.json"):
        assert path.is_file(), path


def test_shipped_files_are_the_tracked_data_files():
    """What a wheel must hold, by its path in the package: templates/, examples/ (content/), fonts,
    profiles, shared strings; each of them tracked by git and none missing."""
    tracked = subprocess.run(["git", "ls-files", "templates", "content", "cardgen/fonts", "cardgen/color/icc",
                              "cardgen/common/text"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    expected = set()
    for line in tracked.split():
        for prefix, mapped in (("templates/", "templates/"), ("content/", "examples/"), ("cardgen/", "")):
            if line.startswith(prefix):
                expected.add(mapped + line[len(prefix):])
                break
    shipped = set(resources.shipped_files())
    assert expected <= shipped, sorted(expected - shipped)
    assert "templates/cards/printers.yaml" in shipped and "examples/klepka/game.yaml" in shipped


def test_an_install_finds_the_mapped_folders_inside_the_package(tmp_path):
    """The same module copied into a package laid out as a wheel lays it out finds templates/ inside."""
    package = tmp_path / "cardgen"
    (package / "templates" / "cards").mkdir(parents=True)
    (package / "examples").mkdir()
    (package / "resources.py").write_text((ROOT / "cardgen" / "resources.py").read_text("utf-8"), "utf-8")
    found = {"__file__": str(package / "resources.py"), "__name__": "copied_resources"}
    exec(compile((package / "resources.py").read_text("utf-8"), str(package / "resources.py"), "exec"), found)
    assert found["TEMPLATES"] == package.resolve() / "templates"
    assert found["EXAMPLES"] == package.resolve() / "examples"
    assert found["PRINTERS"] == package.resolve() / "templates" / "cards" / "printers.yaml"
    assert not found["in_checkout"]()


def test_no_module_computes_shipped_paths_from_its_own_file():
    """Only cardgen.resources turns __file__ into folders (a second place would break in an install)."""
    pattern = re.compile(r"__file__\)?(\.resolve\(\))?\.(parents?\b|parent\b)")
    offenders = [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "cardgen").rglob("*.py"))
                 if path.name != "resources.py" and pattern.search(path.read_text("utf-8"))]
    assert offenders == []
    # and the check sees one
    assert pattern.search('TEMPLATES = Path(__file__).resolve().parents[2] / "templates"')


def test_the_code_fingerprint_leaves_out_the_data_an_install_maps_into_the_package(tmp_path, monkeypatch):
    """In a wheel, templates/ and examples/ sit inside the package: the build's code fingerprint
    must not change with them (they are inputs where a job reads them), so it is the same
    for the same cardgen whether installed or checked out."""
    from cardgen.build import cache as incremental

    package = tmp_path / "cardgen"
    (package / "templates").mkdir(parents=True)
    (package / "examples" / "game").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n", "utf-8")
    monkeypatch.setattr(incremental, "PACKAGE_DIR", package)
    before = incremental.code_fingerprint()
    (package / "examples" / "game" / "cards.yaml").write_text("cards: []\n", "utf-8")
    (package / "templates" / "extra.yaml").write_text("a: 1\n", "utf-8")
    assert incremental.code_fingerprint() == before
    (package / "a.py").write_text("x = 2\n", "utf-8")
    assert incremental.code_fingerprint() != before


def test_the_version_is_the_installed_one():
    from importlib import metadata

    from click.testing import CliRunner

    import cardgen
    from cardgen.cli import cli

    assert cardgen.__version__ == metadata.version("cardgen")
    result = CliRunner().invoke(cli, ["--version"], prog_name="cardgen")
    assert result.exit_code == 0 and result.output.strip() == f"cardgen, version {cardgen.__version__}"
