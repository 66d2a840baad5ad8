"""Issue #28: what cardgen reads back from its own output, and every write that can fail.

Two fuzz classes (seeded, counted, printed with ``pytest -s``):

* manifest tampering (item 14): ``output/manifest.json`` damaged by hand -- fields of the
  wrong type, entries that are not objects, paths out of the folder, JSON that does not
  parse, a FIFO or a symlink to /dev/zero in its place.  Every later build must end with
  exit 0, write a manifest whose every entry is sound, and delete no file;
* sweep chunk tampering (item 18): ``chunks/*.json`` of an interrupted sweep damaged the
  same ways.  The resumed sweep must replay every bad chunk and give the very numbers of a
  sweep that was never interrupted.

And the disk filling up (item 15) at every write of a build's manifest and index page, of
``new``, ``preview --out`` and ``simulate --json``: a clean ``error:`` line naming what
failed, exit 1, and the output folder (the content folder for ``new``) unchanged.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import threading
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.build.run import MANIFEST, sound_entry
from cardgen.cli import cli
from cardgen.errors import CardgenError

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "data" / "mini"
BUILD = ["build", "mini", "--only", "cards", "--paper", "a4", "--lang", "ru", "-j", "1"]
SECONDS_PER_CASE = 60
MANIFEST_SEED = 28
MANIFEST_RANDOM_CASES = 24


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def _alarm(signum, frame):
    raise TimeoutError("a case ran past its time bound")


@pytest.fixture
def mini(tmp_path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(MINI, content / "mini")
    return content


@pytest.fixture
def built(tmp_path, mini, monkeypatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    out = tmp_path / "out"
    done = CliRunner().invoke(cli, ["--content", str(mini), *BUILD, "--out", str(out)])
    assert done.exit_code == 0, done.output
    return out


# --- manifest tampering (item 14) ---------------------------------------------------------------------

#: Values a tampered field gets: every JSON type, and edges of the right one.
WRONG = [["a"], "many", 7, -1, 1.5, None, True, {}, {"a": 1}, "", "../../etc/passwd", "/etc/passwd",
         "a" * 64, [1, 2, 3], [[]], 10 ** 30, "x\u0000y"]


def _fixed_cases(entries: list[dict]) -> list[tuple[str, object]]:
    """The issue's reproductions and the shapes of a whole manifest gone wrong: (name, JSON or raw bytes)."""
    first = entries[0]
    cases: list[tuple[str, object]] = [
        ("issue: path a list", {"files": [dict(first, path=["a"])] + entries[1:]}),
        ("issue: cards 'many'", {"files": [dict(e, cards="many") for e in entries]}),
        ("issue: pixels 7", {"files": [dict(e, pixels=7) for e in entries]}),
        ("fallback a word", {"files": [dict(e, fallback="x") for e in entries]}),
        ("glyphs a number", {"files": [dict(e, glyphs=3) for e in entries]}),
        ("game a list", {"files": [dict(e, game=["mini"]) for e in entries]}),
        ("lang a dict", {"files": [dict(e, lang={"ru": 1}) for e in entries]}),
        ("request a list", {"files": [dict(e, request=["x"]) for e in entries]}),
        ("sha256 a number", {"files": [dict(e, sha256=5) for e in entries]}),
        ("pages negative", {"files": [dict(e, pages=-3) for e in entries]}),
        ("cards a bool", {"files": [dict(e, cards=True) for e in entries]}),
        ("entries not objects", {"files": [1, "a", None, [], entries[0]]}),
        ("files an object", {"files": {"a": 1}}),
        ("a list at the top", [entries]),
        ("nested 100000 deep", "[" * 100_000 + "]" * 100_000),
        ("not JSON", b"{\"files\": [\xff\xfe"),
        ("truncated", None),  # the real manifest cut in half
        ("empty", b""),
        ("path out of the folder", {"files": [dict(first, path="../outside.txt")] + entries[1:]}),
        ("path absolute", {"files": [dict(first, path="/etc/hostname")] + entries[1:]}),
        # sound types, but one entry's hash edited: its job is skipped (its other files are intact),
        # and the edited entry's file must not be taken for one its request no longer makes
        ("one entry's inputs edited", {"files": [dict(entries[-1], inputs="0" * 64)] + entries[:-1]}),
    ]
    return cases


def _random_cases(rng: random.Random, entries: list[dict], count: int) -> list[tuple[str, object]]:
    cases = []
    for _ in range(count):
        damaged = [dict(e) for e in entries]
        changes = []
        for _ in range(rng.choice([1, 1, 2, 4])):
            entry = rng.choice(damaged)
            name = rng.choice(sorted(entry) + ["pixels", "fallback", "glyphs", "warnings", "dpi"])
            entry[name] = rng.choice(WRONG)
            changes.append(f"{name}={entry[name]!r}"[:40])
        cases.append(("random: " + ", ".join(changes), {"files": damaged}))
    return cases


def _stale_by_edit(data: object, entries: list[dict]) -> set[str]:
    """The files a sound tampered manifest lists with a hash other than the one their job wrote."""
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        return set()
    if not all(sound_entry(entry) for entry in data["files"]):
        return set()  # an unsound manifest is an unknown earlier build: nothing is removed
    wrote = {entry["path"]: entry.get("inputs") for entry in entries}
    return {entry["path"] for entry in data["files"]
            if entry["path"] in wrote and entry.get("inputs") != wrote[entry["path"]]}


def _write_case(out: Path, data: object, real: bytes) -> None:
    path = out / MANIFEST
    path.unlink()
    if data is None:
        path.write_bytes(real[: len(real) // 2])
    elif isinstance(data, bytes):
        path.write_bytes(data)
    elif isinstance(data, str):
        path.write_text(data, "utf-8")
    else:
        path.write_text(json.dumps(data), "utf-8")


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the time bound per case needs SIGALRM")
def test_hostile_output_tampered_manifests_never_break_a_later_build(tmp_path, mini, built):
    """Item 14: a damaged manifest made every later build a traceback until deleted by hand."""
    real = (built / MANIFEST).read_bytes()
    entries = json.loads(real)["files"]
    assert entries and all(sound_entry(entry) for entry in entries)
    (tmp_path / "outside.txt").write_text("not ours", "utf-8")
    cases = _fixed_cases(entries) + _random_cases(random.Random(MANIFEST_SEED), entries, MANIFEST_RANDOM_CASES)
    cases += [("a FIFO", "fifo"), ("a symlink to /dev/zero", "zero")]
    runner = CliRunner()
    totals: Counter = Counter()
    bad: list[str] = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for number, (name, data) in enumerate(cases):
            out = tmp_path / f"case-{number}"
            shutil.copytree(built, out)
            if data == "fifo":
                (out / MANIFEST).unlink()
                os.mkfifo(out / MANIFEST)
            elif data == "zero":
                (out / MANIFEST).unlink()
                (out / MANIFEST).symlink_to("/dev/zero")
            else:
                _write_case(out, data, real)
            before = set(_tree(out))
            signal.alarm(SECONDS_PER_CASE)
            try:
                done = runner.invoke(cli, ["--content", str(mini), *BUILD, "--out", str(out)])
                again = runner.invoke(cli, ["--content", str(mini), *BUILD, "--out", str(out)])
            except TimeoutError:
                bad.append(f"{name}: hung")
                continue
            finally:
                signal.alarm(0)
            problems = []
            for result in (done, again):
                if result.exit_code != 0 or result.exception is not None or "Traceback" in result.output:
                    problems.append(f"exit {result.exit_code}: {result.output[-300:]} {result.exception!r}")
            after = _tree(out)
            written = json.loads((out / MANIFEST).read_text("utf-8"))["files"] if not problems else []
            if not all(sound_entry(entry) for entry in written):
                problems.append("the new manifest holds an unsound entry")
            # a sound manifest whose entry carries another hash than its job's now reads as a file
            # an earlier version of that job made (a card since dropped): the build removes it as
            # stale, the one deletion a tampered manifest can cause (by the rule the build's own
            # tests hold, tests/build/test_build_atomic.py)
            stale = _stale_by_edit(data, entries)
            listed = {e["path"] for e in written}
            if not problems and listed != {e["path"] for e in entries} - stale:
                problems.append(f"the new manifest does not list this build's files: "
                                f"{sorted(listed ^ {e['path'] for e in entries})}")
            missing = sorted(before - set(after) - {MANIFEST} - stale)
            if missing:
                problems.append(f"deleted {missing}")
            outcome = "ok, removed as stale" if stale else "ok"
            if (tmp_path / "outside.txt").read_text("utf-8") != "not ours":
                problems.append("changed a file outside the output folder")
            totals[outcome if not problems else "BAD"] += 1
            if problems:
                bad.append(f"{name}: {'; '.join(problems)}")
            shutil.rmtree(out)
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"\nmanifest tampering: {len(cases)} cases: {dict(totals)}")
    assert not bad, "\n".join(bad)
    assert sum(totals.values()) == len(cases)


def test_hostile_output_a_damaged_entry_is_never_reused_nor_its_file_deleted(tmp_path, mini, built):
    """An entry with a wrong type is as if an unknown build had made its file: the job runs
    again and writes it anew, and a file named only by a damaged entry stays where it is."""
    entries = json.loads((built / MANIFEST).read_text("utf-8"))["files"]
    (built / "mine.txt").write_text("keep me", "utf-8")
    damaged = [dict(entries[0], cards="many")] + entries[1:]
    damaged.append(dict(entries[0], path="mine.txt", sha256=hashlib.sha256(b"keep me").hexdigest(), pages="x",
                        request="nothing-asks-for-this"))
    (built / MANIFEST).write_text(json.dumps({"files": damaged}), "utf-8")
    done = CliRunner().invoke(cli, ["--content", str(mini), *BUILD, "--out", str(built), "--clean"])
    assert done.exit_code == 0, done.output
    assert (built / "mine.txt").read_text("utf-8") == "keep me"
    written = json.loads((built / MANIFEST).read_text("utf-8"))["files"]
    assert [e["path"] for e in written] == [e["path"] for e in entries]
    assert written == entries  # the job ran again and wrote what a clean build writes


# --- a full disk (item 15) ------------------------------------------------------------------------------

class FullDisk:
    """Make the ``fail_at``-th write of a file (counted from 1) raise ENOSPC, as a full disk does
    mid-file: the bytes before it are written, the rest is not."""

    def __init__(self, fail_at: int):
        self.fail_at, self.count = fail_at, 0
        self.lock = threading.Lock()

    def hit(self) -> bool:
        with self.lock:
            self.count += 1
            return self.count == self.fail_at

    def install(self, monkeypatch) -> None:
        import builtins
        import pathlib

        import cardgen.fileio as fileio

        real_open = builtins.open
        disk = self

        class Handle:
            def __init__(self, handle):
                self._handle = handle

            def write(self, data):
                if disk.hit():
                    self._handle.write(data[: len(data) // 2])
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                return self._handle.write(data)

            def __getattr__(self, name):
                return getattr(self._handle, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self._handle.close()

        def opened(file, mode="r", *args, **kwargs):
            handle = real_open(file, mode, *args, **kwargs)
            return Handle(handle) if any(c in mode for c in "wax+") else handle

        real_path_open = pathlib.Path.open

        def path_open(self, mode="r", *args, **kwargs):
            handle = real_path_open(self, mode, *args, **kwargs)
            return Handle(handle) if any(c in mode for c in "wax+") else handle

        monkeypatch.setattr(fileio, "open", opened, raising=False)
        monkeypatch.setattr(pathlib.Path, "open", path_open)


def _clean_failure(result) -> str | None:
    """None when a run ended with exit 1 and one clean ``error:`` line; else what was wrong."""
    if result.exit_code != 1 or not isinstance(result.exception, SystemExit):
        return f"exit {result.exit_code}, {result.exception!r}: {result.output[-400:]}"
    if "Traceback" in result.output or "error:" not in result.output:
        return f"no clean error: {result.output[-400:]}"
    if "No space left on device" not in result.output:
        return f"the cause is not named: {result.output[-400:]}"
    return None


def test_hostile_output_a_full_disk_while_the_manifest_or_index_is_written(tmp_path, mini, built, monkeypatch):
    """Item 15: a full disk at each write of a build that has only the manifest and the index page
    to write (its card files are unchanged): a clean error, and the output folder unchanged."""
    from cardgen.build import run as build_run

    manifest = built / MANIFEST
    data = json.loads(manifest.read_text("utf-8"))
    manifest.write_text(json.dumps(data, indent=4), "utf-8")  # the same entries written otherwise: rewritten
    (built / "index.html").write_text("old page", "utf-8")
    before = _tree(built)
    runner = CliRunner()
    args = ["--content", str(mini), *BUILD, "--out", str(built)]
    staged = []
    monkeypatch.setattr(build_run, "_stage", lambda staging, name, text, real=build_run._stage:
                        (staged.append(name), real(staging, name, text))[1])
    failures = []
    for fail_at in range(1, 6):
        disk = FullDisk(fail_at)
        with monkeypatch.context() as patch:
            disk.install(patch)
            result = runner.invoke(cli, args)
        if disk.count < fail_at:  # every write done before this level: the build went through
            assert result.exit_code == 0, result.output
            break
        problem = _clean_failure(result)
        if problem:
            failures.append(f"write {fail_at}: {problem}")
        if _tree(built) != before:
            failures.append(f"write {fail_at}: the output folder changed")
    assert not failures, "\n".join(failures)
    assert {"index.html", MANIFEST} <= set(staged)
    assert fail_at >= 3  # the index page, the manifest and the journal each failed once


def test_hostile_output_a_full_disk_during_new_preview_and_simulate(tmp_path, mini, monkeypatch):
    """Item 15: ``new``, ``preview --out`` and ``simulate --json`` on a full disk at each of their writes."""
    runner = CliRunner()
    klepka = tmp_path / "klepka-content"
    shutil.copytree(ROOT / "content" / "klepka", klepka / "klepka")
    preview_out = tmp_path / "card.png"
    json_out = tmp_path / "summary.json"
    commands = {
        "new": ["new", "lights", "--content", str(mini), "--lang", "de"],
        "preview": ["--content", str(mini), "preview", "mini", "one", "--dpi", "36", "--out", str(preview_out)],
        "simulate": ["--content", str(klepka), "simulate", "klepka", "--games", "2", "--seed", "1",
                     "--json", str(json_out)],
    }
    outcomes: Counter = Counter()
    failures = []
    for name, args in commands.items():
        watched = {"new": mini, "preview": tmp_path, "simulate": tmp_path}[name]
        for fail_at in range(1, 40):
            before = _tree(watched)
            disk = FullDisk(fail_at)
            with monkeypatch.context() as patch:
                disk.install(patch)
                result = runner.invoke(cli, args)
            if disk.count < fail_at:  # no write failed: the command went through; undo it for the next level
                assert result.exit_code == 0, f"{name}: {result.output}"
                outcomes[(name, "ok")] += 1
                break
            problem = _clean_failure(result)
            outcomes[(name, "clean error" if problem is None else "BAD")] += 1
            if problem:
                failures.append(f"{name}, write {fail_at}: {problem}")
            if _tree(watched) != before:
                changed = sorted(set(_tree(watched).items()) ^ set(before.items()))[:3]
                outcomes[(name, "content changed")] += 1
                if name != "new":  # new may leave the content folder's shared files, each whole
                    failures.append(f"{name}, write {fail_at}: a file was left or changed: {changed}")
            if name == "new" and (mini / "lights").exists():
                failures.append(f"new, write {fail_at}: a half-made game folder was left")
            shutil.rmtree(mini / "lights", ignore_errors=True)
    print(f"\nfull disk: {dict(outcomes)}")
    assert not failures, "\n".join(failures)
    assert all(outcomes[(name, "ok")] == 1 for name in commands)
    assert all(outcomes[(name, "clean error")] >= 1 for name in commands)


# --- sweep chunk tampering (item 18) -------------------------------------------------------------------

CHUNK_SEED = 18
CHUNK_RANDOM_CASES = 30


def _sweep_plan():
    from cardgen.simulation.sweep import SweepPlan

    return SweepPlan(game_dir=ROOT / "content" / "himmel", engine="cardgen.engines.himmel:HimmelEngine",
                     players=(3,), options=(), bots=("random",), games=40, seed=5, chunk_games=20)


def _sweep_text(plan, store: Path, execute=None) -> tuple[str, object]:
    from cardgen.content import load_game
    from cardgen.engines import engine_for
    from cardgen.simulation.sweep import content_fingerprint, document_text, run_inline, run_sweep, sweep_document

    game = load_game(plan.game_dir)
    engine = engine_for(game)
    content = content_fingerprint(plan.game_dir, type(engine))
    result = run_sweep(plan, store, content, execute or run_inline)
    return document_text(sweep_document(result, game, engine.id, content, engine.options)), result


def _forged(content: object, plan) -> bool:
    """Whether ``content`` is a chunk of sound records with a matching digest (only a forger makes one)."""
    from cardgen.simulation.sweep import CHUNK_FORMAT, _records_digest, _sound_record

    if not isinstance(content, dict) or content.get("format") != CHUNK_FORMAT:
        return False
    records = content.get("records")
    return (content.get("task") == "cell000-0000000-0000020" and isinstance(records, list)
            and len(records) == plan.chunk_games == content.get("games")
            and content.get("sha256") == _records_digest(content["task"], records)
            and all(_sound_record(r, i, 3) for i, r in enumerate(records)))


def _rehash(data: dict) -> dict:
    """What a careful forger does: the digest made again over the edited records."""
    from cardgen.simulation.sweep import _records_digest

    return dict(data, sha256=_records_digest(data["task"], data["records"]))


def _chunk_cases(rng: random.Random, data: dict) -> list[tuple[str, object]]:
    """(name, new chunk file: a dict to write as JSON, bytes, or a special marker)."""
    records = data["records"]
    first = records[0]

    def with_record(i: int, value, rehash: bool = False) -> dict:
        changed = [list(r) for r in records]
        changed[0][i] = value
        out = dict(data, records=changed)
        return _rehash(out) if rehash else out

    cases: list[tuple[str, object]] = [
        ("issue: a field written as text", with_record(1, str(first[1]))),
        ("issue: a field written as text, digest made again", with_record(1, str(first[1]), rehash=True)),
        ("issue: a FIFO", "fifo"),
        ("issue: a symlink to /dev/zero", "zero"),
        ("issue: made-up counts", dict(data, records=[[r[0], 1, None, [0], [99.0, 0, 0], False, [["x", 10 ** 6]]]
                                                     for r in records])),
        ("made-up counts, digest made again", _rehash(dict(data, records=[[r[0], 1, None, [0], [99.0, 0, 0], False, []]
                                                                           for r in records]))),
        ("a winner no seat has, digest made again", with_record(3, [7], rehash=True)),
        ("a negative turn count, digest made again", with_record(1, -5, rehash=True)),
        ("a NaN score", b'{"format": 2, "task": "%s", "games": 20, "records": [[0, 1, null, [0], [NaN], false, []]]}'
         % data["task"].encode()),
        ("one record fewer", dict(data, records=records[1:], games=len(records) - 1)),
        ("one record fewer, digest made again", _rehash(dict(data, records=records[1:], games=len(records) - 1))),
        ("games count wrong", dict(data, games=999)),
        ("another task's name", _rehash(dict(data, task="cell000-0000020-0000040"))),
        ("an earlier format", {"task": data["task"], "records": records}),
        ("torn", b'{"format": 2, "task": "cell000-00'),
        ("empty", b""),
        ("not UTF-8", b"\xff\xfe{"),
        ("a list", [records]),
        ("nested 100000 deep", b"[" * 100_000 + b"]" * 100_000),
        ("a folder", "folder"),
        ("a symlink to a good chunk elsewhere", "link"),
    ]
    for _ in range(CHUNK_RANDOM_CASES):
        index = rng.randrange(7)
        value = rng.choice(WRONG + [[["x", -1]], [[1, 2]], [0, 0], [[]]])
        rehash = rng.random() < 0.5
        cases.append((f"random: field {index} = {value!r}"[:60] + (", rehashed" if rehash else ""),
                      with_record(index, value, rehash)))
    return cases


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the time bound per case needs SIGALRM")
def test_hostile_output_tampered_sweep_chunks_are_played_again(tmp_path):
    """Item 18: a resumed sweep trusted its chunk files (a traceback on a field written as text,
    a hang on a FIFO or /dev/zero, made-up counts reported as results).  Every damaged chunk is
    now played again and the sweep's numbers are those of a sweep never interrupted -- unless
    the edit is one a played game could have given and its digest was made again (a forger
    with the file in hand), which a digest cannot tell and is counted apart."""
    plan = _sweep_plan()
    reference, _ = _sweep_text(plan, tmp_path / "reference")
    store = tmp_path / "store"
    _sweep_text(plan, store)
    (chunk,) = [p for p in sorted(store.glob("*/*.json")) if p.name.startswith("cell000-0000000")]
    good = chunk.read_bytes()
    data = json.loads(good)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(good)
    cases = _chunk_cases(random.Random(CHUNK_SEED), data)
    totals: Counter = Counter()
    bad: list[str] = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for name, content in cases:
            if chunk.is_dir() and not chunk.is_symlink():
                chunk.rmdir()
            else:
                chunk.unlink(missing_ok=True)
            if content == "fifo":
                os.mkfifo(chunk)
            elif content == "zero":
                chunk.symlink_to("/dev/zero")
            elif content == "folder":
                chunk.mkdir()
            elif content == "link":
                chunk.symlink_to(elsewhere)
            elif isinstance(content, bytes):
                chunk.write_bytes(content)
            else:
                chunk.write_text(json.dumps(content), "utf-8")
            signal.alarm(SECONDS_PER_CASE)
            try:
                text, result = _sweep_text(plan, store)
            except TimeoutError:
                bad.append(f"{name}: hung")
                continue
            except CardgenError as error:
                # a folder in a chunk's place is not removed: the new chunk cannot be written, said cleanly
                totals["clean error" if content == "folder" else "BAD"] += 1
                if content != "folder":
                    bad.append(f"{name}: {error}")
                continue
            except Exception as error:  # noqa: BLE001 - the outcome counted
                totals["BAD"] += 1
                bad.append(f"{name}: {type(error).__name__}: {error}")
                continue
            finally:
                signal.alarm(0)
            if _forged(content, plan):
                # every record one a played game could give, and the digest made again over them:
                # a digest cannot tell this from a played chunk (see the report's "what is left")
                totals["forged with its digest: read"] += 1
                if result.chunks_run != 0:
                    bad.append(f"{name}: a sound chunk was played again")
                continue
            outcome = "replayed" if result.chunks_run == 1 and text == reference else "BAD"
            totals[outcome] += 1
            if outcome == "BAD":
                bad.append(f"{name}: chunks run {result.chunks_run}, same numbers: {text == reference}")
            if chunk.read_bytes() != good or chunk.is_symlink():
                bad.append(f"{name}: the chunk was not written anew")
            if elsewhere.read_bytes() != good:
                bad.append(f"{name}: a file outside the chunk folder changed")
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"\nchunk tampering: {len(cases)} cases: {dict(totals)}")
    assert not bad, "\n".join(bad)


# --- a real full disk: a small tmpfs (root only) --------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    """A 3 MiB tmpfs, mounted for the test (skipped where mounting is not allowed)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()[:120]}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def _fill(disk: Path, leave: int) -> None:
    """Take the disk's free space down to about ``leave`` bytes."""
    filler = disk / "filler"
    filler.unlink(missing_ok=True)
    free = shutil.disk_usage(disk).free
    with open(filler, "wb") as out:
        remaining = max(0, free - leave)
        while remaining > 0:
            step = min(remaining, 1 << 16)
            try:
                out.write(b"\0" * step)
                out.flush()
            except OSError:
                break
            remaining -= step


@pytest.mark.skipif(not hasattr(os, "statvfs"), reason="a tmpfs needs Linux")
def test_hostile_output_a_build_on_a_disk_filling_up_at_every_level(tmp_path, mini, small_disk, monkeypatch):
    """Item 15 end to end: a forced build on a tmpfs left with less and less free space, from
    enough for every file down to nothing.  Each ends with exit 0 or one clean ``error:`` line
    (no traceback), and a failed build leaves the output folder as it was."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    runner = CliRunner()
    out = small_disk / "out"
    first = runner.invoke(cli, ["--content", str(mini), *BUILD, "--out", str(out)])
    assert first.exit_code == 0, first.output
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    levels = sorted({int(size * fraction) for fraction in
                     [0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98,
                      0.99, 0.995, 1.0, 1.01, 1.05, 1.2, 1.5]})
    outcomes: Counter = Counter()
    bad = []
    for leave in levels:
        _fill(small_disk, leave)
        before = _tree(out)
        result = runner.invoke(cli, ["--content", str(mini), *BUILD, "--out", str(out), "--force"])
        if result.exit_code == 0:
            outcomes["ok"] += 1
        elif (result.exit_code == 1 and isinstance(result.exception, SystemExit) and "Traceback" not in result.output
              and "error:" in result.output):
            outcomes["clean error"] += 1
            if _tree(out) != before:
                bad.append(f"{leave} bytes free: a failed build changed the output folder")
        else:
            outcomes["BAD"] += 1
            bad.append(f"{leave} bytes free: exit {result.exit_code} {result.exception!r}: {result.output[-300:]}")
    (small_disk / "filler").unlink(missing_ok=True)
    print(f"\nfull disk (tmpfs, {size} bytes of output): {len(levels)} levels: {dict(outcomes)}")
    assert not bad, "\n".join(bad)
    assert outcomes["clean error"] >= 5
