"""All-or-nothing builds: a build that fails, is interrupted or is killed leaves the output
folder byte-identical; a commit killed half-way is rolled forward by the next build."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardgen.build import PRODUCERS, BuildOptions, Job, Producer, build, write_artefact
from cardgen.errors import RenderError
from cardgen.fileio import JOURNAL, CommitPlan, StagedUpdate, _apply, recover, staging_folders

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "tests" / "data" / "decks"
SMALL = dict(langs=("ru",), papers=("a4",), producers=("cards",))


@pytest.fixture
def decks(tmp_path) -> Path:
    target = tmp_path / "decks"
    shutil.copytree(DECKS, target)
    return target


@pytest.fixture(autouse=True)
def fixed_dates(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


# --- a producer that fails on purpose, in several ways; its job sorts last (lowest cost) ---

class LibraryAbort(BaseException):
    """Like the BaseException subclasses some libraries raise."""


def _failing(game, mode: str) -> list[Job]:
    return [Job("failing", f"{game.id} failing {mode}", failing_job,
                (("game_id", game.id), ("mode", mode), ("parent", os.getpid())), cost=-1.0)]


def plan_error(options, game, langs):
    return _failing(game, "error")


def plan_base_exception(options, game, langs):
    return _failing(game, "base-exception")


def plan_worker_death(options, game, langs):
    return _failing(game, "worker-death")


def plan_interrupt(options, game, langs):
    return _failing(game, "interrupt")


def plan_sleep(options, game, langs):
    return _failing(game, "sleep")


def failing_job(options, game_id: str, mode: str, parent: int):
    # a file is staged first, so the failure comes after writing
    write_artefact(options, f"{game_id}/{mode}.json", b"{}\n", game=game_id, kind="report", lang=None)
    if mode == "error":
        record = os.environ.get("CARDGEN_TEST_STAGED")
        if record:  # fail only once another job has staged files, and say which
            Path(record).write_text("\n".join(_staged_by_others(options, f"{game_id}/{mode}.json")), "utf-8")
        raise RenderError("deliberate failure")
    if mode == "base-exception":
        raise LibraryAbort("a library gave up")
    if mode == "worker-death" and os.getpid() != parent:
        os._exit(3)
    if mode == "interrupt":
        raise KeyboardInterrupt
    if mode == "sleep":
        time.sleep(60)
    raise AssertionError(f"mode {mode} in pid {os.getpid()}")


def _staged_by_others(options, own: str, seconds: float = 60.0) -> list[str]:
    """Files other jobs have staged, waiting for the first (with two workers the failing job
    may otherwise end before any other)."""
    deadline = time.monotonic() + seconds
    while True:
        staged = sorted(p.relative_to(options.staging_dir).as_posix() for p in options.staging_dir.rglob("*")
                        if p.is_file() and not p.name.endswith(".tmp"))
        others = [name for name in staged if name != own]
        if others or time.monotonic() > deadline:
            return others
        time.sleep(0.05)


def _snapshot(folder: Path) -> dict[str, str] | None:
    """Every file (hidden ones too) and folder below ``folder``: path -> SHA-256 or '<dir>'."""
    if not folder.exists():
        return None
    return {p.relative_to(folder).as_posix(): "<dir>" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*"))}


def _leftovers(root: Path) -> list[str]:
    """Staging folders, journals and temporary files anywhere below ``root``."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if "cardgen-staging" in p.name or p.name == JOURNAL or p.name.endswith(".tmp"))


def _previous_build(decks: Path, out: Path) -> None:
    build(BuildOptions(content_dir=decks, out_dir=out, workers=1, **SMALL))
    (out / ".hidden-note").write_text("kept\n", "utf-8")
    _list_a_stale_png(out, "quiz/ru/png-tgc/999-stale.png")  # would be removed by a commit


def _list_a_stale_png(out: Path, path: str) -> None:
    """A shop PNG in the manifest, as an earlier version of the PNG job wrote it (a card since dropped)."""
    manifest = out / "manifest.json"
    data = json.loads(manifest.read_text("utf-8"))
    png = next(entry for entry in data["files"] if entry["kind"] == "shop-png")
    data["files"].append(dict(png, path=path, sha256=hashlib.sha256(b"stale").hexdigest(), inputs="0" * 64))
    (out / path).write_bytes(b"stale")
    manifest.write_text(json.dumps(data, indent=1) + "\n", "utf-8")


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("state", ["missing", "empty", "previous"])
def test_a_build_failing_after_jobs_finished_leaves_the_output_identical(decks, tmp_path, monkeypatch, state,
                                                                          workers):
    out = tmp_path / "nested" / "out" if state == "missing" else tmp_path / "out"
    if state == "empty":
        out.mkdir()
    if state == "previous":
        _previous_build(decks, out)
    before = _snapshot(out)
    monkeypatch.setitem(PRODUCERS, "failing", Producer(plan_error))
    staged = tmp_path / "staged-before-the-failure.txt"
    monkeypatch.setenv("CARDGEN_TEST_STAGED", str(staged))
    done = []
    options = BuildOptions(content_dir=decks, out_dir=out, workers=workers, langs=("ru",), papers=("a4",),
                           producers=("cards", "failing"), force=True)  # the previous build's jobs run again
    with pytest.raises(RenderError, match="deliberate failure"):
        build(options, lambda finished, total, label: done.append(finished))
    assert staged.read_text("utf-8").strip()  # other jobs had written their files when it failed
    if workers == 1:
        assert max(done) >= 1  # one worker runs the failing job last, after the others finished
    assert _snapshot(out) == before
    if state == "missing":
        assert not (tmp_path / "nested").exists()  # not even the parent the staging folder needed
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("workers", [1, 2])
def test_a_base_exception_in_a_job_is_a_render_error_naming_the_job(decks, tmp_path, monkeypatch, workers):
    out = tmp_path / "out"
    _previous_build(decks, out)
    before = _snapshot(out)
    monkeypatch.setitem(PRODUCERS, "failing", Producer(plan_base_exception))
    with pytest.raises(RenderError) as caught:
        build(BuildOptions(content_dir=decks, out_dir=out, workers=workers, langs=("ru",), papers=("a4",),
                           producers=("cards", "failing")))
    assert str(caught.value) == "quiz failing base-exception: LibraryAbort: a library gave up"
    assert _snapshot(out) == before
    assert _leftovers(tmp_path) == []


def test_a_dead_worker_fails_the_build_and_leaves_the_output_identical(decks, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _previous_build(decks, out)
    before = _snapshot(out)
    monkeypatch.setitem(PRODUCERS, "failing", Producer(plan_worker_death))
    with pytest.raises(RenderError, match=r"a worker process died .* job\(s\) unfinished: .*quiz failing"):
        build(BuildOptions(content_dir=decks, out_dir=out, workers=2, langs=("ru",), papers=("a4",),
                           producers=("cards", "failing"), force=True))
    assert _snapshot(out) == before
    assert _leftovers(tmp_path) == []


def test_keyboard_interrupt_stops_the_build_and_leaves_the_output_identical(decks, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _previous_build(decks, out)
    before = _snapshot(out)
    monkeypatch.setitem(PRODUCERS, "failing", Producer(plan_interrupt))
    with pytest.raises(KeyboardInterrupt):
        build(BuildOptions(content_dir=decks, out_dir=out, workers=1, langs=("ru",), papers=("a4",),
                           producers=("cards", "failing")))
    assert _snapshot(out) == before
    assert _leftovers(tmp_path) == []


def test_a_failure_before_any_job_creates_nothing(decks, tmp_path):
    out = tmp_path / "out"
    with pytest.raises(RenderError, match="unknown game"):
        build(BuildOptions(content_dir=decks, out_dir=out, games=("nope",), workers=1, **SMALL))
    assert list(tmp_path.iterdir()) == [decks]


def test_a_successful_build_leaves_no_staging_folder_nor_temporary_file(decks, tmp_path):
    out = tmp_path / "out"
    _previous_build(decks, out)
    result = build(BuildOptions(content_dir=decks, out_dir=out, workers=2, producers=("cards",)))
    assert _leftovers(tmp_path) == []
    assert [r.path for r in result.removed] == ["quiz/ru/png-tgc/999-stale.png"] and result.recovered == []
    listed = {entry["path"] for entry in json.loads((out / "manifest.json").read_text("utf-8"))["files"]}
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert on_disk == listed | {"manifest.json", "index.html", ".hidden-note"}


# --- killed builds: a subprocess running the CLI (what `python -m cardgen` runs), optionally with
# the failing producer registered or the commit made to die half-way ---

DRIVER = """
import os, signal, sys
sys.path.insert(0, {tests!r})
import cardgen.build, cardgen.fileio
mode, args = sys.argv[1], sys.argv[2:]
if mode == "sleep":
    import test_build_atomic
    cardgen.build.PRODUCERS["failing"] = cardgen.build.Producer(test_build_atomic.plan_sleep)
if mode == "die-in-commit":
    real_apply = cardgen.fileio._apply
    def dying_apply(target, staging, plan):
        real_apply(target, staging, cardgen.fileio.CommitPlan(plan.moves[:len(plan.moves) // 2]))
        os.kill(os.getpid(), signal.SIGKILL)
    cardgen.fileio._apply = dying_apply
from cardgen.cli import main
main(args)
"""


def _cli(tmp_path: Path, mode: str, decks: Path, out: Path, *options: str) -> subprocess.Popen:
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER.format(tests=str(Path(__file__).resolve().parent)), "utf-8")
    command = [sys.executable, str(driver), mode, "--content", str(decks), "build", "--out", str(out), *options]
    return subprocess.Popen(command, cwd=tmp_path, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=dict(os.environ, SOURCE_DATE_EPOCH="1700000000"))


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux; none found elsewhere)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found.extend(int(child) for child in task.read_text().split())
    return found


def _alive(pid: int) -> bool:
    """A process that runs (a zombie waiting for a parent to reap it does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def test_a_build_killed_mid_way_leaves_the_output_identical_and_the_next_build_cleans_up(decks, tmp_path):
    out = tmp_path / "out"
    _previous_build(decks, out)
    before = _snapshot(out)
    process = _cli(tmp_path, "sleep", decks, out, "--lang", "ru", "--paper", "a4", "-j", "2",
                   "--only", "cards", "--only", "failing", "--force")
    try:
        deadline = time.monotonic() + 60
        staged: list[Path] = []
        while not any(p.name == "sleep.json" for p in staged):  # the last job runs: the others' files are staged
            assert process.poll() is None, process.stdout.read().decode()
            assert time.monotonic() < deadline, "the build never reached its last job"
            time.sleep(0.02)
            staged = [p for folder in staging_folders(out) for p in folder.rglob("*") if p.is_file()]
        assert any(p.suffix == ".pdf" for p in staged)
        workers = _children(process.pid)
        os.kill(process.pid, signal.SIGKILL)  # the build process alone: its workers must notice and go
        assert process.wait(timeout=10) == -signal.SIGKILL
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "the workers of the killed build are still running"
            time.sleep(0.1)
        assert _snapshot(out) == before
        (stale,) = staging_folders(out)
        assert stale.parent == tmp_path  # beside the output folder, not in it
        deadline = time.monotonic() + 10
        while not recover(out):  # the lock is free once the build process is gone
            assert time.monotonic() < deadline, "the killed build's staging folder stayed locked"
            time.sleep(0.1)
        assert not stale.exists()
    finally:
        _kill_group(process)
    # and with a stale staging folder of a killed build lying about, the next build cleans it
    (tmp_path / ".out.cardgen-staging-dead").mkdir()
    (tmp_path / ".out.cardgen-staging-dead" / "half.pdf").write_bytes(b"%PDF-")
    result = build(BuildOptions(content_dir=decks, out_dir=out, workers=1, **SMALL))
    assert result.recovered == ["removed .out.cardgen-staging-dead, left by an interrupted build"]
    assert _leftovers(tmp_path) == []


def test_a_commit_killed_half_way_is_rolled_forward_by_the_next_build(decks, tmp_path, monkeypatch):
    out, reference = tmp_path / "out", tmp_path / "reference"
    _previous_build(decks, out)
    shutil.copytree(out, reference)
    wider = ["--paper", "a4", "--paper", "letter", "-j", "1", "--only", "cards"]
    build(BuildOptions(content_dir=decks, out_dir=reference, workers=1, producers=("cards",)))
    manifest = (out / "manifest.json").read_bytes()
    process = _cli(tmp_path, "die-in-commit", decks, out, *wider)
    try:
        assert process.wait(timeout=120) == -signal.SIGKILL, process.stdout.read().decode()
    finally:
        _kill_group(process)
    (staging,) = staging_folders(out)
    assert (staging / JOURNAL).is_file()
    assert (out / "manifest.json").read_bytes() == manifest  # the manifest goes last
    assert (out / "quiz" / "en").is_dir()  # half of the new files are in place
    # the next build finishes that commit before it runs (and here fails: the rolled-forward state stays)
    monkeypatch.setitem(PRODUCERS, "failing", Producer(plan_error))
    with pytest.raises(RenderError, match="deliberate failure"):
        build(BuildOptions(content_dir=decks, out_dir=out, workers=1, langs=("ru",), papers=("a4",),
                           producers=("failing",)))
    assert _snapshot(out) == _snapshot(reference)
    assert _leftovers(tmp_path) == []


def test_recovery_leaves_the_staging_folder_of_a_running_build_alone(tmp_path):
    out = tmp_path / "out"
    with StagedUpdate(out) as running:
        (running.path / "a.pdf").write_bytes(b"%PDF-")
        (tmp_path / ".out.cardgen-staging-dead").mkdir()
        assert recover(out) == ["removed .out.cardgen-staging-dead, left by an interrupted build"]
        assert staging_folders(out) == [running.path]
    assert staging_folders(out) == [] and not out.exists()


def test_an_unreadable_journal_stops_the_build_before_it_runs(decks, tmp_path):
    out = tmp_path / "out"
    _previous_build(decks, out)
    before = _snapshot(out)
    broken = tmp_path / ".out.cardgen-staging-broken"
    broken.mkdir()
    (broken / JOURNAL).write_text('{"moves": ["../../etc/passwd"], "remove": [], "last": null}', "utf-8")
    with pytest.raises(RenderError, match="commit journal of an interrupted build is unreadable") as caught:
        build(BuildOptions(content_dir=decks, out_dir=out, workers=1, **SMALL))
    assert caught.value.locator.file == broken / JOURNAL
    assert _snapshot(out) == before and broken.is_dir()


def test_a_folder_in_the_way_is_refused_before_anything_moves(decks, tmp_path):
    out = tmp_path / "out"
    _previous_build(decks, out)
    pdf = out / "quiz" / "ru" / "quiz-ru-pnp-a4.pdf"
    pdf.unlink()
    (pdf / "inside").mkdir(parents=True)
    before = _snapshot(out)
    with pytest.raises(RenderError, match="nothing was changed: quiz/ru/quiz-ru-pnp-a4.pdf: a folder is in the way"):
        build(BuildOptions(content_dir=decks, out_dir=out, workers=1, **SMALL))
    assert _snapshot(out) == before
    assert _leftovers(tmp_path) == []


def test_staging_inside_the_output_folder_when_the_sibling_is_on_another_filesystem(decks, tmp_path, monkeypatch):
    import cardgen.fileio

    out = tmp_path / "out"
    _previous_build(decks, out)
    monkeypatch.setattr(cardgen.fileio, "_same_filesystem", lambda one, other: one.parent == other)
    seen: list[list[Path]] = []
    build(BuildOptions(content_dir=decks, out_dir=out, workers=1, **SMALL),
          lambda done, total, label: seen.append(staging_folders(out)))
    assert {folder.parent for folders in seen for folder in folders} == {out}
    assert _leftovers(tmp_path) == []
    before = _snapshot(out)
    monkeypatch.setitem(PRODUCERS, "failing", Producer(plan_error))
    with pytest.raises(RenderError, match="deliberate failure"):
        build(BuildOptions(content_dir=decks, out_dir=out, workers=1, langs=("ru",), papers=("a4",),
                           producers=("cards", "failing")))
    assert _snapshot(out) == before


def test_write_artefact_keeps_paths_inside_the_output_folder(tmp_path):
    options = BuildOptions(content_dir=tmp_path, out_dir=tmp_path / "out")
    for bad in ("../escape.pdf", "/abs.pdf", "a//b.pdf", "a/./b.pdf"):
        with pytest.raises(RenderError, match="must be relative and stay inside the output folder"):
            write_artefact(options, bad, b"x", game="g", kind="pnp", lang="ru")
    assert not (tmp_path / "out").exists()


def test_signals_wait_for_the_end_of_a_commit():
    from cardgen.fileio import _signals_held_back

    reached = []
    # Python's own Ctrl-C handler, even where the test runner was started with SIGINT
    # ignored (a shell's background job)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with _signals_held_back():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # a handler would have run by now
                reached.append("end of the commit")
        assert reached == ["end of the commit"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)


def test_cli_says_what_it_cleaned_up(decks, tmp_path):
    from click.testing import CliRunner

    from cardgen.cli import cli

    out = tmp_path / "out"
    (tmp_path / ".out.cardgen-staging-dead").mkdir()
    result = CliRunner().invoke(cli, ["--content", str(decks), "build", "--out", str(out), "--lang", "ru",
                                      "--paper", "a4", "-j", "1", "--only", "cards"])
    assert result.exit_code == 0, result.output
    assert "note: removed .out.cardgen-staging-dead, left by an interrupted build" in result.output
    assert _leftovers(tmp_path) == []


def _manifest_matches_the_files(out: Path) -> list[str]:
    """What differs between the manifest and the files it lists (empty: they agree)."""
    listed = {entry["path"]: entry["sha256"] for entry in json.loads((out / "manifest.json").read_text("utf-8"))["files"]}
    problems = [f"{path}: missing" for path in listed if not (out / path).is_file()]
    problems += [f"{path}: SHA-256 differs" for path, digest in listed.items()
                 if (out / path).is_file() and hashlib.sha256((out / path).read_bytes()).hexdigest() != digest]
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and not p.name.startswith(".")}
    problems += [f"{path}: not in the manifest" for path in sorted(on_disk - set(listed) - {"manifest.json", "index.html"})]
    return problems


def test_builds_killed_at_random_moments_leave_a_manifest_that_matches_the_files(decks, tmp_path):
    """The main process, or its whole group, killed at a seeded random moment of a build (a
    commit included); after the recovery any next build runs first, the manifest and the files
    agree, and the next build succeeds."""
    import random

    out = tmp_path / "out"
    build(BuildOptions(content_dir=decks, out_dir=out, workers=1, **SMALL))
    assert _manifest_matches_the_files(out) == []
    wider = ("--lang", "ru", "--paper", "a4", "--paper", "letter", "-j", "2", "--only", "cards")
    started = time.monotonic()
    timed = _cli(tmp_path, "plain", decks, tmp_path / "timed", *wider)
    assert timed.wait(timeout=120) == 0, timed.stdout.read().decode()
    duration = time.monotonic() - started
    rng = random.Random(7)
    outcomes = []
    for attempt in range(6):
        process = _cli(tmp_path, "plain", decks, out, *wider)
        try:
            time.sleep(rng.uniform(0.1, duration * 1.1))
            if attempt % 2:
                _kill_group(process)
            else:
                os.kill(process.pid, signal.SIGKILL)
            outcomes.append(process.wait(timeout=30))
        finally:
            _kill_group(process)
        deadline = time.monotonic() + 10
        while staging_folders(out) and not recover(out):  # a worker may hold the lock a moment longer
            assert time.monotonic() < deadline, "a killed build's staging folder stayed locked"
            time.sleep(0.1)
        assert _manifest_matches_the_files(out) == [], f"attempt {attempt}"
    assert -signal.SIGKILL in outcomes  # at least one kill landed before the build ended
    result = build(BuildOptions(content_dir=decks, out_dir=out, workers=1, langs=("ru",), papers=("a4", "letter"),
                                producers=("cards",)))
    assert result.artefacts and _manifest_matches_the_files(out) == []
    assert _leftovers(tmp_path) == []


def test_a_read_only_output_folder_is_named_and_nothing_changes(decks, tmp_path, monkeypatch):
    """As root every folder is writable, so the refusal of the file system is played by os.access."""
    import cardgen.fileio as fileio
    from click.testing import CliRunner

    from cardgen.cli import cli

    out = tmp_path / "out"
    build(BuildOptions(content_dir=decks, out_dir=out, workers=1, **SMALL))
    before = _snapshot(out)
    real_access = os.access
    monkeypatch.setattr(fileio.os, "access",
                        lambda path, mode: not (Path(path) == out and mode & os.W_OK) and real_access(path, mode))
    result = CliRunner().invoke(cli, ["--content", str(decks), "build", "--out", str(out), "-j", "1", "--lang", "ru",
                                      "--paper", "a4", "--paper", "letter", "--only", "cards"])
    assert result.exit_code == 1, result.output
    assert f"error: {out}: cannot put the built files in place, nothing was changed: {out}: not writable" \
        in result.output
    assert "Traceback" not in result.output
    assert _snapshot(out) == before and _leftovers(tmp_path) == []


def test_two_builds_into_one_folder_at_once_take_turns(decks, tmp_path):
    """A4 and Letter built into one folder at the same time: each commit holds the folder's lock,
    so both end well and the folder is one consistent set (the manifest matches the files)."""
    out = tmp_path / "out"
    build(BuildOptions(content_dir=decks, out_dir=out, workers=1, **SMALL))
    common = ("--lang", "ru", "-j", "1", "--only", "cards")
    first = _cli(tmp_path, "plain", decks, out, "--paper", "a4", *common)
    second = _cli(tmp_path, "plain", decks, out, "--paper", "letter", *common)
    try:
        for process in (first, second):
            assert process.wait(timeout=120) == 0, process.stdout.read().decode()
    finally:
        _kill_group(first)
        _kill_group(second)
    assert _manifest_matches_the_files(out) == []
    assert _leftovers(tmp_path) == []


def test_a_commit_removes_the_folders_its_deletions_empty_and_can_be_repeated(tmp_path):
    out = tmp_path / "out"
    for rel in ("g/en/png-mpc/1.png", "g/en/png-mpc/2.png", "g/en/keep.pdf", "g/de/png-mpc/1.png"):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(b"x")
    remove = ("g/en/png-mpc/1.png", "g/en/png-mpc/2.png", "g/de/png-mpc/1.png")
    with StagedUpdate(out) as staged:
        (staged.path / "manifest.json").write_text("{}", "utf-8")
        plan = staged.commit(lambda: CommitPlan((), remove, "manifest.json"))
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["g", "g/en", "g/en/keep.pdf",
                                                                            "manifest.json"]
    # rolled forward a second time: nothing left to do, nothing fails, nothing said to be done
    assert _apply(out, tmp_path / "gone", plan) == (0, 0)
    assert (out / "g" / "en" / "keep.pdf").is_file()
