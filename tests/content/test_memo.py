"""cardgen.content.memo: what a run keeps of a file for the next run is exactly what a new
parse would give, misses when anything it depends on changes, and never keeps an error."""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

from cardgen.content import load_game, memo
from cardgen.errors import ContentErrors

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CARDGEN_CACHE_DIR", str(folder))
    monkeypatch.delenv("CARDGEN_CACHE", raising=False)
    memo._folder.cache_clear()
    yield folder
    memo._folder.cache_clear()


class Counter:
    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self):
        self.calls += 1
        return self.value


def entries(base: Path, kind: str) -> list[Path]:
    """The entries of one kind in this version's folder under ``base``."""
    folder = memo._folder()
    assert folder is not None and folder.parent == base
    found = folder / kind
    return sorted(p for p in found.iterdir() if not p.name.startswith(".")) if found.is_dir() else []


def test_a_result_is_computed_once_and_read_back(cache):
    compute = Counter({"answer": [42]})
    assert memo.cached("test", [b"bytes", "name"], compute) == {"answer": [42]}
    assert memo.cached("test", [b"bytes", "name"], compute) == {"answer": [42]}
    assert compute.calls == 1
    assert len(entries(cache, "test")) == 1
    assert os.stat(cache).st_mode & 0o777 == 0o700
    assert os.stat(memo._folder()).st_mode & 0o777 == 0o700


def test_any_part_of_the_key_changing_misses(cache):
    compute = Counter("x")
    for parts in ([b"a", "n"], [b"b", "n"], [b"a", "m"], [b"an", ""], [b"a", "n"]):
        memo.cached("test", parts, compute)
    assert compute.calls == 4  # the last one is the first again; b"an"+"" is not b"a"+"n"


def test_a_result_with_errors_is_not_kept(cache):
    compute = Counter(None)
    for _ in range(2):
        memo.cached("test", [b"x"], compute, keep=lambda value: value is not None)
    assert compute.calls == 2
    assert entries(cache, "test") == []


def test_an_exception_keeps_nothing(cache):
    def broken():
        raise ValueError("bad input")

    with pytest.raises(ValueError):
        memo.cached("test", [b"x"], broken)
    assert entries(cache, "test") == []


def test_a_torn_or_foreign_entry_is_computed_again(cache):
    compute = Counter([1, 2])
    memo.cached("test", [b"x"], compute)
    (entry,) = entries(cache, "test")
    entry.write_bytes(pickle.dumps([1, 2])[:5])  # cut short, as by a crash mid-write elsewhere
    assert memo.cached("test", [b"x"], compute) == [1, 2]
    assert compute.calls == 2
    assert pickle.loads(entry.read_bytes()) == [1, 2]  # and written whole again


def test_off_means_no_folder_and_no_reuse(cache, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", "off")
    memo._folder.cache_clear()
    compute = Counter(7)
    memo.cached("test", [b"x"], compute)
    memo.cached("test", [b"x"], compute)
    assert compute.calls == 2
    assert not cache.exists()


def test_a_folder_others_may_write_to_is_not_used(cache):
    cache.mkdir(mode=0o777)
    os.chmod(cache, 0o777)  # past the umask
    compute = Counter(7)
    memo.cached("test", [b"x"], compute)
    memo.cached("test", [b"x"], compute)
    assert compute.calls == 2
    assert list(cache.iterdir()) == []


def test_a_cache_path_that_is_a_file_is_not_used(cache):
    cache.write_text("not a folder")
    compute = Counter(7)
    assert memo.cached("test", [b"x"], compute) == 7
    assert memo.cached("test", [b"x"], compute) == 7
    assert compute.calls == 2


def test_each_kind_keeps_its_most_recently_used_entries(cache, monkeypatch):
    monkeypatch.setattr(memo, "MAX_ENTRIES", 8)
    for number in range(8):
        memo.cached("test", [str(number)], Counter(number))
    first = entries(cache, "test")
    memo.cached("test", ["0"], Counter("unused"))  # read: now the most recently used
    memo.cached("test", ["8"], Counter(8))  # the ninth: prunes to three quarters
    kept = entries(cache, "test")
    assert len(kept) == 6
    compute = Counter(0)
    assert memo.cached("test", ["0"], compute) == 0 and compute.calls == 0
    assert len(first) == 8


def fresh_process() -> None:
    """What a new process would not have: the parses kept in memory by this one."""
    from cardgen.content.translations import _parsed

    _parsed.cache_clear()
    memo._folder.cache_clear()


def test_only_the_last_few_versions_of_cardgen_keep_a_folder(cache):
    cache.mkdir(mode=0o700)
    for number in range(memo.KEEP_VERSIONS + 2):
        old = cache / f"{number:016x}"
        (old / "yaml").mkdir(parents=True)
        os.utime(old, (1_600_000_000 + number, 1_600_000_000 + number))
    memo.cached("test", [b"x"], Counter(1))
    kept = sorted(p.name for p in cache.iterdir())
    assert len(kept) == memo.KEEP_VERSIONS
    assert memo._folder().name in kept
    assert f"{memo.KEEP_VERSIONS + 1:016x}" in kept and f"{0:016x}" not in kept


def game_view(game) -> tuple:
    return ([card.model_dump() for card in game.cards], game.meta.model_dump(), game.messages,
            {name: (doc.data, doc.value_marks, doc.key_marks) for name, doc in game.documents.items()},
            game.translation_origins)


@pytest.mark.parametrize("game_id", ["klepka", "head-game"])
def test_a_game_from_the_cache_is_the_game_parsed(cache, tmp_path, monkeypatch, game_id):
    folder = tmp_path / game_id
    shutil.copytree(ROOT / "content" / game_id, folder)
    monkeypatch.setenv("CARDGEN_CACHE", "off")
    fresh_process()
    parsed = game_view(load_game(folder, display_root=tmp_path))
    monkeypatch.delenv("CARDGEN_CACHE")
    fresh_process()
    cold = game_view(load_game(folder, display_root=tmp_path))
    assert {p.name for p in memo._folder().iterdir()} == {"yaml", "model", "deck", "po"}
    fresh_process()
    warm = game_view(load_game(folder, display_root=tmp_path))
    assert cold == parsed
    assert warm == parsed


def test_an_error_is_found_again_after_a_good_run(cache, tmp_path):
    folder = tmp_path / "klepka"
    shutil.copytree(ROOT / "content" / "klepka", folder)
    load_game(folder, display_root=tmp_path)  # every file kept
    cards = folder / "cards.yaml"
    good = cards.read_text(encoding="utf-8")
    cards.write_text(good.replace("      copies: 2", "      copiez: 2", 1), encoding="utf-8")
    for _ in range(2):  # the broken file is never kept, so the second run finds the error too
        with pytest.raises(ContentErrors) as caught:
            load_game(folder, display_root=tmp_path)
        assert "unknown key 'copiez'" in str(caught.value)
        assert "klepka/cards.yaml:" in str(caught.value)
    cards.write_text(good, encoding="utf-8")
    assert load_game(folder, display_root=tmp_path).cards


def test_a_moved_game_names_its_new_place(cache, tmp_path):
    """Positions and paths in messages come from the key, not from the folder the entry was made in."""
    first = tmp_path / "one" / "klepka"
    shutil.copytree(ROOT / "content" / "klepka", first)
    load_game(first, display_root=tmp_path / "one")
    second = tmp_path / "two" / "klepka"
    shutil.copytree(first, second)
    game = load_game(second, display_root=tmp_path / "two")
    assert all(second in doc.path.parents for doc in game.documents.values())


def test_a_build_from_the_cache_writes_the_same_bytes(tmp_path):
    """Three processes build the same cards and rulebook: without the cache, filling it and
    reading it (parsed YAML and PO, models, the deck, the layouts, the fonts' tables)."""
    import subprocess
    import sys

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content" / "klepka", content / "klepka")
    shutil.copytree(ROOT / "content" / "schema", content / "schema")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", "CARDGEN_CACHE_DIR": str(tmp_path / "cache")}
    runs = {"off": {"CARDGEN_CACHE": "off"}, "cold": {}, "warm": {}}
    outputs = {}
    for name, extra in runs.items():
        out = tmp_path / name
        done = subprocess.run([sys.executable, "-m", "cardgen", "--content", str(content), "build", "klepka",
                               "--lang", "de", "--paper", "a4", "--only", "cards", "--out", str(out)],
                              cwd=ROOT, env={**env, **extra}, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        outputs[name] = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
        if name == "cold":
            (version,) = (tmp_path / "cache").iterdir()
            assert {p.name for p in version.iterdir()} >= {"yaml", "model", "deck", "po", "layout", "font"}
    assert any(path.suffix == ".pdf" for path in outputs["off"])
    assert outputs["cold"] == outputs["off"]
    assert outputs["warm"] == outputs["off"]


def test_a_cache_folder_deleted_while_a_process_runs_is_made_again(cache):
    """`cardgen serve` runs for hours; deleting ~/.cache/cardgen meanwhile must not end its caching."""
    import shutil as shell

    memo.cached("test", [b"x"], Counter(1))
    shell.rmtree(cache)
    compute = Counter(2)
    assert memo.cached("test", [b"y"], compute) == 2
    assert memo.cached("test", [b"y"], compute) == 2 and compute.calls == 1
