"""The extras: a command whose extra is missing names the install line; the core path imports none
(the missing packages simulated by :func:`missing_modules.without`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.extras import COMMANDS, EXTRAS, MissingExtra, extra_of, install_command, missing
from missing_modules import without

ROOT = Path(__file__).resolve().parents[1]


def cardgen(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgen", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


ALL_EXTRA_MODULES = sorted({module for modules in EXTRAS.values() for module in modules})


@pytest.mark.parametrize("command, extra, args", [
    ("sweep", "sweep", ["sweep", "klepka", "--games", "2", "--scheduler", "inline"]),
    ("serve", "studio", ["serve", "--port", "0"]),
    ("preflight", "print-shops", ["preflight", "shop.pdf"]),
    ("build --printer", "print-shops", ["build", "klepka", "--printer", "eu-pdfx4", "--out", "out"]),
])
def test_a_missing_extra_names_its_install_line(tmp_path, command, extra, args):
    env = without(tmp_path, list(EXTRAS[extra]))
    (tmp_path / "shop.pdf").write_bytes(b"%PDF-1.4\n")
    done = cardgen(["--content", str(ROOT / "content"), *args], env, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"pip install 'cardgen[{extra}]'" in done.stderr
    assert f"'cardgen {command}' needs" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert not (tmp_path / "sweeps").exists() and not (tmp_path / "out").exists()  # refused before any work


def test_the_core_commands_import_no_extra(tmp_path):
    """validate, build (also for a printer of PNGs), simulate, new, preview run with every extra's module refused."""
    env = without(tmp_path, ALL_EXTRA_MODULES)
    data = ROOT / "tests" / "data"
    runs = [
        ["--content", str(data), "validate", "mini"],
        ["--content", str(data), "build", "mini", "--out", str(tmp_path / "out")],
        ["--content", str(data), "build", "mini", "--printer", "tgc", "--only", "cards", "--out", str(tmp_path / "tgc")],
        ["--content", str(ROOT / "content"), "simulate", "klepka", "--games", "2", "--seed", "1"],
        ["new", "lights", "--content", str(tmp_path / "games")],
        ["--content", str(data), "preview", "mini", next(iter(_card_ids(data)))],
        ["doctor"],
    ]
    for args in runs:
        done = cardgen(args, env, tmp_path)
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    assert (tmp_path / "out" / "manifest.json").is_file()
    doctor = cardgen(["doctor"], env, tmp_path).stdout
    assert "missing  dask" in doctor and "pip install 'cardgen[sweep]'" in doctor


def test_the_blocker_really_blocks(tmp_path):
    env = without(tmp_path, ["watchfiles"])
    done = subprocess.run([sys.executable, "-c", "import watchfiles"], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and "ModuleNotFoundError" in done.stderr


def _card_ids(data: Path) -> list[str]:
    from cardgen.content import load_game

    return [card.id for card in load_game(data / "mini", display_root=data.parent).cards]


def test_missing_and_its_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # what a failed import leaves
    assert missing("studio") == ["watchfiles"]
    error = MissingExtra("studio", ["watchfiles"], "serve")
    assert str(error) == ("'cardgen serve' needs watchfiles, which comes with cardgen's 'studio' extra; "
                          "install it with: pip install 'cardgen[studio]'")
    assert install_command("sweep") == "pip install 'cardgen[sweep]'"
    assert extra_of("matplotlib.pyplot") == "sweep" and extra_of("pikepdf") == "print-shops" and extra_of("numpy") is None and extra_of("yaml") is None
    assert set(COMMANDS.values()) <= set(EXTRAS)


def test_pyproject_extras_bring_the_modules_named_here():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    extras = project["optional-dependencies"]
    for extra, modules in EXTRAS.items():
        names = {requirement.split("[")[0].split(">")[0].strip().lower() for requirement in extras[extra]}
        assert set(modules) - {"distributed"} <= names, (extra, names)  # distributed comes with dask[distributed]
    core = {requirement.split("[")[0].split(">")[0].strip().lower() for requirement in project["dependencies"]}
    assert not core & set(ALL_EXTRA_MODULES)
    (everything,) = extras["all"]
    assert set(everything.split("[")[1].rstrip("]").split(",")) == set(EXTRAS)


def test_an_extra_missing_on_a_path_not_checked_first_still_names_its_install(tmp_path, monkeypatch):
    """The command line's last line of defence: an extra's module failing to import inside any command."""
    from click.testing import CliRunner

    from cardgen.cli import COMMANDS, cli

    (tmp_path / "plot_command.py").write_text(
        "import click\n\n@click.command()\ndef plot():\n    import matplotlib.pyplot\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(COMMANDS, "plot", "plot_command:plot")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = CliRunner().invoke(cli, ["plot"])
    assert result.exit_code == 1
    assert "'cardgen plot' needs matplotlib" in result.output and "pip install 'cardgen[sweep]'" in result.output
    debug = CliRunner().invoke(cli, ["--debug", "plot"])
    assert isinstance(debug.exception, ModuleNotFoundError)


def top_level_imports(source: str) -> list[str]:
    """Modules imported outside any function (at module level, in classes, under if/try)."""
    import ast

    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return found


def test_no_module_imports_an_extra_at_its_top():
    """Every import of an extra's module sits inside the function that needs it, so importing any
    cardgen module works without the extras (the runtime check above covers the commands' paths)."""
    extras = set(ALL_EXTRA_MODULES)
    found = [f"{path.relative_to(ROOT)}: {name}" for path in sorted((ROOT / "cardgen").rglob("*.py"))
             for name in top_level_imports(path.read_text("utf-8")) if name.split(".")[0] in extras]
    assert found == []
    assert top_level_imports("import numpy as np\ntry:\n    from dask import delayed\nexcept ImportError:\n"
                             "    pass\ndef f():\n    import matplotlib\n") == ["numpy", "dask"]
