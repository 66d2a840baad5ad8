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
    again = Counter("not called")
    assert memo.cached("test", [b"x"], again) == [1, 2] and again.calls == 0  # and written whole again


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
    kept = sorted(p.name for p in cache.iterdir() if p.is_dir())
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
            (version,) = [p for p in (tmp_path / "cache").iterdir() if p.is_dir()]
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


# --- issue #28, item 4: an entry is trusted only when nobody else could have written it ---

class Planted:
    """A pickle that, once loaded, leaves a file behind: what another user would plant."""

    def __init__(self, witness: Path):
        self.witness = witness

    def __reduce__(self):
        return (Path.write_text, (self.witness, "ran"))


def entry_path(kind: str, parts) -> Path:
    return memo._folder() / kind / memo._key(kind, parts)


def test_hostile_cache_a_pickle_planted_in_a_subfolder_others_may_write_never_runs(cache, tmp_path):
    """The top folder 0700 but a kind's folder 0777: its entries are not read, nor written."""
    memo.cached("test", [b"x"], Counter(1))
    folder = entry_path("test", [b"x"]).parent
    os.chmod(folder, 0o777)
    witness = tmp_path / "witness"
    entry_path("test", [b"x"]).write_bytes(pickle.dumps(Planted(witness)))
    compute = Counter(1)
    assert memo.cached("test", [b"x"], compute) == 1
    assert memo.cached("test", [b"x"], compute) == 1
    assert compute.calls == 2 and not witness.exists()
    os.chmod(memo._folder(), 0o777)  # the version's folder likewise
    memo._folder.cache_clear()
    assert memo._folder() is None


def test_hostile_cache_an_unsigned_pickle_in_a_private_folder_never_runs(cache, tmp_path):
    """Even in a folder of the user's own, an entry without this cache's signature is not unpickled."""
    memo.cached("test", [b"x"], Counter(1))
    witness = tmp_path / "witness"
    data = pickle.dumps(Planted(witness))
    for planted in (data, memo.MAGIC + bytes(32) + b"builtins.int\n" + data):
        entry_path("test", [b"x"]).write_bytes(planted)
        compute = Counter(1)
        assert memo.cached("test", [b"x"], compute) == 1 and compute.calls == 1
        assert not witness.exists()


def test_hostile_cache_a_valid_pickle_of_another_type_is_a_miss(cache):
    memo.cached("test", [b"x"], Counter({"a": 1}))
    entry = entry_path("test", [b"x"])
    entry.write_bytes(pickle.dumps(42))  # no signature
    assert memo.cached("test", [b"x"], Counter({"a": 1})) == {"a": 1}
    # signed with the user's own key, but not the type it was written with
    key = (cache / memo.KEY_FILE).read_bytes()
    body = b"builtins.dict\n" + pickle.dumps(42)
    entry.write_bytes(memo.MAGIC + memo._signature(key, entry.name, body) + body)
    compute = Counter({"a": 1})
    assert memo.cached("test", [b"x"], compute) == {"a": 1} and compute.calls == 1
    # an entry copied under another key is not that key's entry
    other = entry_path("test", [b"y"])
    other.write_bytes(entry.read_bytes())
    compute = Counter("y")
    assert memo.cached("test", [b"y"], compute) == "y" and compute.calls == 1


@pytest.mark.parametrize("cut", [0, 5, len(memo.MAGIC) + 10, -1])
def test_hostile_cache_a_torn_entry_is_a_miss(cache, cut):
    memo.cached("test", [b"x"], Counter(list(range(50))))
    entry = entry_path("test", [b"x"])
    entry.write_bytes(entry.read_bytes()[:cut])
    compute = Counter(list(range(50)))
    assert memo.cached("test", [b"x"], compute) == list(range(50)) and compute.calls == 1


def test_hostile_cache_a_fifo_or_symlink_entry_never_hangs_and_is_a_miss(cache, tmp_path):
    import threading

    memo.cached("test", [b"x"], Counter(1))
    memo.cached("test", [b"y"], Counter(2))
    fifo = entry_path("test", [b"x"])
    fifo.unlink()
    os.mkfifo(fifo)
    link = entry_path("test", [b"y"])
    target = tmp_path / "elsewhere"
    target.write_bytes(link.read_bytes())  # a good entry, but reached through a symlink
    link.unlink()
    link.symlink_to(target)
    results = []
    worker = threading.Thread(target=lambda: results.append(
        (memo.cached("test", [b"x"], Counter(1)), memo.cached("test", [b"y"], Counter("fresh")))), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "reading a FIFO entry hung"
    assert results == [(1, "fresh")]
    assert target.read_bytes() != b"" and not link.is_symlink()  # replaced, the outside file untouched


def test_hostile_cache_a_kind_folder_that_is_a_symlink_is_not_used(cache, tmp_path):
    memo.cached("other", [b"x"], Counter(1))
    outside = tmp_path / "outside"
    outside.mkdir(mode=0o700)
    (memo._folder() / "test").symlink_to(outside)
    compute = Counter(3)
    assert memo.cached("test", [b"x"], compute) == 3
    assert memo.cached("test", [b"x"], compute) == 3
    assert compute.calls == 2 and list(outside.iterdir()) == []


def test_hostile_cache_a_key_others_may_read_is_not_used(cache):
    memo.cached("test", [b"x"], Counter(1))
    os.chmod(cache / memo.KEY_FILE, 0o644)
    memo._SECRETS.clear()  # a new process: the key is read again
    compute = Counter(1)
    memo.cached("test", [b"x"], compute)
    memo.cached("test", [b"x"], compute)
    assert compute.calls == 2
