"""Release checks: build the sdist and the wheel as a release would, look inside, install the wheel
into a fresh virtual environment outside the repository and use it from an empty folder as a new
user would (issue #22's "done when").

One module, so every test shares the built files and the one venv (module-scoped fixtures); the
steps that build on each other (a game made, then validated, built, previewed ...) are one
test each, in order.  ``python -m build`` runs with build isolation (it installs setuptools
into a throw-away environment from the package index, as a release build does); pip installs
the wheel's dependencies from its cache.  The venv is a real fresh one (no system site
packages): first with the core set only (``pip install cardgen-*.whl``), then with
``[all]`` for sweep and serve.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from cardgen import resources

ROOT = Path(__file__).resolve().parents[1]
VERSION = metadata.version("cardgen")
#: seconds: what the issue allows for the wheel's install into a fresh venv on a 2-core machine
INSTALL_BUDGET = 120
TIMINGS: dict[str, float] = {}


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 600, check: bool = True
        ) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))} exited {done.returncode}\n"
                             f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}")
    return done


def release_tree(into: Path) -> Path:
    """The files a clean clone (plus the working tree's edits and new files) holds: what a release builds
    from, without output/, .venv/ or anything else ignored."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("the release checks build from a git checkout")
    work = tmp_path_factory.mktemp("release")
    tree = release_tree(work / "tree")
    started = time.perf_counter()
    # sdist first, then the wheel from the unpacked sdist: proves the sdist is complete
    run([sys.executable, "-m", "build", "--outdir", str(work / "dist"), str(tree)], work, os.environ.copy())
    TIMINGS["build sdist and wheel"] = time.perf_counter() - started
    (sdist,) = (work / "dist").glob("cardgen-*.tar.gz")
    (wheel,) = (work / "dist").glob("cardgen-*.whl")
    return {"sdist": sdist, "wheel": wheel, "work": work}


@pytest.fixture(scope="module")
def venv(dist) -> dict:
    """A fresh venv with only the wheel (core set) installed, and the environment to run it in."""
    folder = dist["work"] / "venv"
    run([sys.executable, "-m", "venv", str(folder)], dist["work"], os.environ.copy())
    env = {key: value for key, value in os.environ.items()
           if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP"}}
    env["PATH"] = os.pathsep.join([str(folder / "bin"), env.get("PATH", "")])
    started = time.perf_counter()
    run([str(folder / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         str(dist["wheel"])], dist["work"], env)
    TIMINGS["install core"] = time.perf_counter() - started
    user = dist["work"] / "user"  # an empty folder outside the repository
    user.mkdir()
    return {"bin": folder / "bin", "env": env, "user": user, "wheel": dist["wheel"]}


def cardgen(venv: dict, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess:
    return run([str(venv["bin"] / "cardgen"), *args], venv["user"], venv["env"], timeout=timeout, check=check)


# -- what the files hold ------------------------------------------------------------------------

def test_the_wheel_holds_every_shipped_file_and_nothing_else(dist):
    names = set(zipfile.ZipFile(dist["wheel"]).namelist())
    outside = {name for name in names if not name.startswith(("cardgen/", f"cardgen-{VERSION}.dist-info/"))}
    assert outside == set(), sorted(outside)
    assert not any(part in {"tests", "output", "__pycache__", ".venv"} for name in names for part in name.split("/"))
    missing = {f"cardgen/{key}" for key in resources.shipped_files()} - names
    assert missing == set(), sorted(missing)
    modules = {f"cardgen/{path.relative_to(ROOT / 'cardgen').as_posix()}"
               for path in (ROOT / "cardgen").rglob("*.py") if "__pycache__" not in path.parts}
    assert modules - names == set(), sorted(modules - names)  # a sub-package left out of pyproject's list
    assert {"cardgen/templates/cards/printers.yaml", "cardgen/examples/klepka/game.yaml",
            "cardgen/templates/new-game/game.yaml.j2", "cardgen/fonts/DejaVuSans.ttf",
            "cardgen/color/icc/fogra39-tac300.icc", "cardgen/examples/schema/game.schema.json"} <= names
    entry_points = zipfile.ZipFile(dist["wheel"]).read(f"cardgen-{VERSION}.dist-info/entry_points.txt").decode()
    assert "cardgen = cardgen.cli:main" in entry_points
    requires = zipfile.ZipFile(dist["wheel"]).read(f"cardgen-{VERSION}.dist-info/METADATA").decode()
    assert re.search(r"^Requires-Dist: matplotlib.*extra == \"sweep\"", requires, re.M)
    assert re.search(r"^Provides-Extra: all$", requires, re.M)


def test_the_sdist_holds_the_sources_and_not_the_outputs(dist):
    with tarfile.open(dist["sdist"]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for name in ("pyproject.toml", "README.md", "LICENSE", "templates/cards/printers.yaml", "content/klepka/game.yaml",
                 "cardgen/resources.py", "cardgen/fonts/DejaVuSans.ttf"):
        assert name in names, name
    assert not any(name.startswith(("output/", ".venv/", "tests/data/broken")) for name in names)


# -- a new user, core install --------------------------------------------------------------------

def test_install_time_and_version(venv):
    assert TIMINGS["install core"] < INSTALL_BUDGET, TIMINGS
    assert cardgen(venv, "--version").stdout.strip() == f"cardgen, version {VERSION}"
    where = run([str(venv["bin"] / "python"), "-c", "import cardgen, cardgen.resources as r; "
                 "print(cardgen.__file__); print(r.in_checkout())"], venv["user"], venv["env"]).stdout.split()
    assert where[0].startswith(str(venv["bin"].parent)) and where[1] == "False"  # the install, not the checkout
    for module in ("dask", "matplotlib", "watchfiles", "pikepdf"):  # the core set brings no extra
        done = run([str(venv["bin"] / "python"), "-c", f"import {module}"], venv["user"], venv["env"], check=False)
        assert done.returncode == 1, module


def test_no_content_folder_says_what_to_do(venv):
    done = cardgen(venv, "validate", check=False)
    assert done.returncode == 2
    assert "no content folder here" in done.stderr and "cardgen examples copy klepka content" in done.stderr


def test_new_validate_build_preview_tabletop(venv):
    user = venv["user"]
    cardgen(venv, "new", "lights", "--content", "games", "--source-lang", "en", "--lang", "de")
    assert (user / "games" / "lights" / "layout.yaml").is_file()
    assert (user / "games" / "schema" / "game.schema.json").is_file()
    assert "1 game(s) valid" in cardgen(venv, "--content", "games", "validate").stdout
    cardgen(venv, "--content", "games", "build", "--out", "out")
    manifest = json.loads((user / "out" / "manifest.json").read_text("utf-8"))
    kinds = {entry["kind"] for entry in manifest["files"]}
    assert {"pnp", "shop-pdf", "shop-png", "rulebook"} <= kinds, kinds
    assert {entry["lang"] for entry in manifest["files"] if entry["kind"] == "rulebook"} == {"en", "de"}
    for entry in manifest["files"]:
        assert (user / "out" / entry["path"]).is_file(), entry["path"]
    from cardgen.content import load_game

    first = load_game(user / "games" / "lights", display_root=user).cards[0].id
    preview = cardgen(venv, "--content", "games", "preview", "lights", first, "--out", "card.png")
    assert (user / "card.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", preview.stdout
    cardgen(venv, "--content", "games", "build", "lights", "--tabletop", "tts", "--out", "out")
    manifest = json.loads((user / "out" / "manifest.json").read_text("utf-8"))
    assert any(entry["kind"] == "tabletop" for entry in manifest["files"])


def test_examples_copy_klepka_and_build_it(venv):
    listed = cardgen(venv, "examples").stdout
    assert "klepka" in listed and "head-game" in listed
    cardgen(venv, "examples", "copy", "klepka", "games")
    assert (venv["user"] / "games" / "klepka" / "layout.yaml").is_file()
    cardgen(venv, "--content", "games", "build", "klepka", "--out", "out")
    manifest = json.loads((venv["user"] / "out" / "manifest.json").read_text("utf-8"))
    assert any(entry["game"] == "klepka" and entry["kind"] == "rulebook" for entry in manifest["files"])
    again = cardgen(venv, "examples", "copy", "klepka", "games", check=False)
    assert again.returncode == 1 and "exists already" in again.stderr


def test_doctor_passes(venv):
    done = cardgen(venv, "doctor")
    assert "everything a build needs is here" in done.stdout
    assert re.search(r"missing\s+dask .*\n\s+pip install 'cardgen\[sweep\]'", done.stdout)


def test_a_missing_extra_names_its_install(venv):
    done = cardgen(venv, "--content", "games", "sweep", "klepka", "--games", "2", "--scheduler", "inline",
                   check=False)
    assert done.returncode == 1 and "pip install 'cardgen[sweep]'" in done.stderr
    assert "Traceback" not in done.stderr
    shop = next((venv["user"] / "out").rglob("*-shop*.pdf"))
    done = cardgen(venv, "preflight", str(shop), check=False)
    assert done.returncode == 1 and "pip install 'cardgen[print-shops]'" in done.stderr
    assert "Traceback" not in done.stderr


# -- with the extras ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def venv_all(venv) -> dict:
    started = time.perf_counter()
    run([str(venv["bin"] / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         f"{venv['wheel']}[all]"], venv["user"], venv["env"])
    TIMINGS["install extras"] = time.perf_counter() - started
    return venv


def test_preflight_a_shop_pdf(venv_all):
    manifest = json.loads((venv_all["user"] / "out" / "manifest.json").read_text("utf-8"))
    shop = next(entry["path"] for entry in manifest["files"] if entry["kind"] == "shop-pdf")
    checked = cardgen(venv_all, "preflight", str(venv_all["user"] / "out" / shop), "--json", check=False)
    assert checked.returncode in (0, 1), checked.stderr  # it ran: its verdict is the print tests' business
    (report,) = json.loads(checked.stdout)
    assert report


def test_sweep_inline(venv_all):
    cardgen(venv_all, "--content", "games", "sweep", "klepka", "--games", "4", "--players", "2",
            "--scheduler", "inline", "--out", "sweep")
    result = json.loads((venv_all["user"] / "sweep" / "sweep.json").read_text("utf-8"))
    assert result and (venv_all["user"] / "sweep" / "report.pdf").read_bytes()[:5] == b"%PDF-"


def test_serve_answers_one_request(venv_all):
    process = subprocess.Popen([str(venv_all["bin"] / "cardgen"), "--content", "games", "serve", "--port", "0"],
                               cwd=venv_all["user"], env=venv_all["env"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line + process.stderr.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{match.group(1)}/", timeout=60) as response:
            page = response.read().decode("utf-8")
            assert response.status == 200
        assert "lights" in page and "klepka" in page
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_timings_are_reported(venv_all):
    """Not a check: the figures of this run (shown with -s or on failure)."""
    print("release timings:", {name: round(seconds, 1) for name, seconds in TIMINGS.items()})
    assert TIMINGS["install core"] + TIMINGS.get("install extras", 0) < 2 * INSTALL_BUDGET
