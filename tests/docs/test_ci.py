"""docs/ci.md and docs/ci.sh: a publisher's CI, run.

The script runs with ``CARDGEN`` set to the cardgen of this test environment (installing it again
would only repeat tests/test_release.py, which installs the built wheel into a fresh venv), on a
content folder holding the small test game, in a git repository like a publisher's.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "ci.sh"
GUIDE = ROOT / "docs" / "ci.md"
CARDGEN = Path(sys.executable).with_name("cardgen")


def publisher_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "tests" / "data" / "mini", repo / "content" / "mini")
    shutil.copy(SCRIPT, repo / "ci.sh")
    env = {**os.environ, "GIT_AUTHOR_NAME": "p", "GIT_AUTHOR_EMAIL": "p@example.org", "GIT_COMMITTER_NAME": "p",
           "GIT_COMMITTER_EMAIL": "p@example.org", "GIT_AUTHOR_DATE": "2024-03-01T12:00:00Z",
           "GIT_COMMITTER_DATE": "2024-03-01T12:00:00Z"}
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "games"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    return repo


def run_script(repo: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CARDGEN": str(CARDGEN)}
    env.pop("SOURCE_DATE_EPOCH", None)
    return subprocess.run(["bash", "ci.sh"], cwd=repo, env=env, capture_output=True, text=True, timeout=900)


def test_the_script_checks_builds_and_keeps_the_print_files(tmp_path):
    repo = publisher_repo(tmp_path)
    done = run_script(repo)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "everything a build needs is here" in done.stdout and "1 game(s) valid" in done.stdout
    with tarfile.open(repo / "print-files.tar.gz") as archive:
        names = archive.getnames()
    assert "./manifest.json" in names and "./index.html" in names
    assert any(name.endswith("-pnp-a4.pdf") for name in names) and any("-rules-" in name for name in names)
    # the dates in the PDFs come from the last commit (SOURCE_DATE_EPOCH), not the clock
    pdf = next((repo / "print-files").rglob("*-pnp-a4.pdf")).read_bytes()
    assert b"D:20240301120000" in pdf


def test_a_content_mistake_stops_it_before_the_build(tmp_path):
    repo = publisher_repo(tmp_path)
    cards = repo / "content" / "mini" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("copies: ", "copies: many ", 1), "utf-8")
    done = run_script(repo)
    assert done.returncode == 1
    assert "cards.yaml:" in done.stderr  # the mistake, with its file and line
    assert not (repo / "print-files").exists() and not (repo / "print-files.tar.gz").exists()


def test_the_workflow_runs_the_same_steps_as_the_script():
    text = GUIDE.read_text("utf-8")
    (block,) = re.findall(r"```yaml\n(.*?)```", text, re.S)
    workflow = yaml.safe_load(block)
    steps = workflow["jobs"]["build"]["steps"]
    commands = "\n".join(step.get("run", "") for step in steps)
    script = SCRIPT.read_text("utf-8")
    for step in (r"pip install .*cardgen", r"cardgen doctor", r"cardgen --content content validate",
                 r"cardgen --content content build --out print-files", r"SOURCE_DATE_EPOCH=\$\(git log -1"):
        assert re.search(step, commands), step
    for step in (r"pip install .*CARDGEN_SPEC", r'"\$CARDGEN" doctor', r'"\$CARDGEN" --content "\$CONTENT" validate',
                 r'"\$CARDGEN" --content "\$CONTENT" build --out "\$OUT"', r"SOURCE_DATE_EPOCH=.*git log -1"):
        assert re.search(step, script), step
    assert any(step.get("uses", "").startswith("actions/upload-artifact") for step in steps)
    apt = re.search(r"apt-get install[^\n]*\n[^\n]*", commands).group(0)
    for package in ("libpango-1.0-0", "libpangoft2-1.0-0", "libharfbuzz0b", "ghostscript", "poppler-utils"):
        assert package in apt and package in script
