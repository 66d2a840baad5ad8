"""Builds add, they don't take away: a plain build, then ``--printer``, ``--tabletop`` and ``--ink``
builds into one output folder leave every kind of file there and in the manifest; a file goes
only when the request that made it runs again and no longer makes it (a card or a language
dropped), or with ``--clean``; a file the manifest does not list is never touched."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.build import BuildOptions, build
from cardgen.cli import cli
from cardgen.build.index_page import INDEX_PAGE

ROOT = Path(__file__).resolve().parents[2]
# the four requests of the issue, one after the other into one folder
SEQUENCE = ({}, {"printers": ("eu-pdfx4",)}, {"tabletop": ("tts",)}, {"inks": ("greyscale",)})
EXTRA_CARD = """  - id: extra
    group: numbers
    back: main
    attrs: {value: 5}
"""


@pytest.fixture
def content(tmp_path, monkeypatch) -> Path:
    """The mini game with one more card at the end of its deck (so that dropping it renames no other)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    folder = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "data" / "mini", folder / "mini")
    cards = folder / "mini" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8") + EXTRA_CARD, "utf-8")
    _edit(folder / "mini" / "game.yaml", ("total_cards: 6", "total_cards: 7"), ("    cards: 4\n", "    cards: 5\n"))
    return folder


def _edit(path: Path, *changes: tuple[str, str]) -> None:
    text = path.read_text("utf-8")
    for old, new in changes:
        assert old in text, (path, old)
        text = text.replace(old, new, 1)
    path.write_text(text, "utf-8")


def _drop_extra_card(content: Path) -> None:
    cards = content / "mini" / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace(EXTRA_CARD, ""), "utf-8")
    _edit(content / "mini" / "game.yaml", ("total_cards: 7", "total_cards: 6"), ("    cards: 5\n", "    cards: 4\n"))


def _options(content: Path, out: Path, **changes) -> BuildOptions:
    settings = dict(content_dir=content, out_dir=out, workers=2)
    settings.update(changes)
    return BuildOptions(**settings)


def _entries(out: Path) -> dict[str, dict]:
    return {entry["path"]: entry for entry in json.loads((out / "manifest.json").read_text("utf-8"))["files"]}


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _stamps(out: Path) -> dict[str, tuple[int, int]]:
    """Each file's inode and modification time: a file written again (renamed over) changes them."""
    return {p.relative_to(out).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*")}


def _kinds(entries: dict[str, dict]) -> set[tuple[str, str | None]]:
    """(kind, ink / printer / format) of every entry."""
    return {(e["kind"], e.get("ink") or e.get("printer") or e.get("format")) for e in entries.values()}


def _listed_files_are_on_disk(out: Path) -> None:
    entries = _entries(out)
    for path, entry in entries.items():
        assert hashlib.sha256((out / path).read_bytes()).hexdigest() == entry["sha256"], path
    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert on_disk == set(entries) | {"manifest.json", INDEX_PAGE}


def test_a_plain_printer_tabletop_and_ink_build_into_one_folder_leave_all_four_kinds(content, tmp_path):
    out = tmp_path / "out"
    started = time.perf_counter()
    results = [build(_options(content, out, **changes)) for changes in SEQUENCE]
    seconds = time.perf_counter() - started
    assert [r.removed for r in results] == [[], [], [], []] and [r.left for r in results] == [[], [], [], []]
    entries = _entries(out)
    kinds = _kinds(entries)
    assert {("pnp", "full"), ("shop-pdf", None), ("shop-png", "tgc"), ("rulebook", None), ("rulebook-html", None),  # plain
            ("shop-pdf", "eu-pdfx4"),  # --printer eu-pdfx4
            ("tabletop", "tts"),  # --tabletop tts
            ("pnp", "greyscale")} == kinds  # --ink greyscale
    for lang in ("ru", "en"):  # both languages of every kind
        assert {(kind, variant) for (kind, variant) in _kinds({p: e for p, e in entries.items()
                                                               if e["lang"] == lang})} == kinds
    _listed_files_are_on_disk(out)
    # each later build kept (skipped) the unchanged jobs it shares with the plain build
    assert results[1].ran == ["mini en shop-pdf eu-pdfx4", "mini ru shop-pdf eu-pdfx4"]
    assert all(label.startswith("mini") and "tabletop" in label for label in results[2].ran)
    assert all("greyscale" in label for label in results[3].ran)
    assert seconds < 120  # measured ~6 s on two cores; the bound only catches a build that reruns everything

    # the page shows every kind present and links every file
    page = (out / INDEX_PAGE).read_text("utf-8")
    for row in ("<td>pnp</td><td>full</td>", "<td>pnp</td><td>greyscale</td>", "<td>shop-pdf</td><td>RGB</td>",
                "<td>shop-pdf</td><td>eu-pdfx4</td>", "<td>shop-png</td><td>tgc</td>", "<td>tabletop</td><td>tts</td>",
                "<td>rulebook</td><td></td>"):
        assert row in page, row
    assert all(f'href="{path}"' in page for path in entries)

    # no change: a rebuild of any of the four requests runs nothing, removes nothing, writes nothing
    before, stamps = _files(out), _stamps(out)
    for changes in (*SEQUENCE, {}):
        again = build(_options(content, out, **changes))
        assert again.ran == [] and again.removed == [], changes
        assert _stamps(out) == stamps, changes  # not even the manifest and the page
    assert _files(out) == before

    # incremental equals forced: the same four builds with every job run write the same folder, byte for byte
    # (into the same place: the Tabletop Simulator save names its images by file:// path)
    out.rename(tmp_path / "incremental")
    for changes in SEQUENCE:
        build(_options(content, out, force=True, **changes))
    assert _files(out) == before


def test_dropping_a_card_removes_its_files_only(content, tmp_path):
    out = tmp_path / "out"
    for changes in ({}, {"inks": ("greyscale",)}):
        build(_options(content, out, producers=("cards",), papers=("a4",), **changes))
    before = _entries(out)
    extra = {path for path in before if path.endswith("-extra.png")}
    assert extra == {"mini/ru/png-tgc/007-extra.png", "mini/en/png-tgc/007-extra.png"}
    _drop_extra_card(content)
    result = build(_options(content, out, producers=("cards",), papers=("a4",)))
    assert sorted(r.path for r in result.removed) == sorted(extra)
    assert {r.reason for r in result.removed} == {"cards/png printer_id=tgc: not made any more for mini"}
    assert not any((out / path).exists() for path in extra)
    after = _entries(out)
    assert set(after) == set(before) - extra  # the greyscale PDFs of the other request stay, as they were
    assert all(after[p] == before[p] for p in after if "greyscale" in p)
    _listed_files_are_on_disk(out)


def test_dropping_a_language_removes_its_files_of_every_request(content, tmp_path):
    out = tmp_path / "out"
    for changes in ({}, {"inks": ("greyscale",)}):
        build(_options(content, out, producers=("cards",), papers=("a4",), **changes))
    ru = {path: data for path, data in _files(out).items() if path.startswith("mini/ru/")}
    english = {path for path, entry in _entries(out).items() if entry["lang"] == "en"}
    _edit(content / "mini" / "game.yaml", ("languages: [ru, en]", "languages: [ru]"))
    result = build(_options(content, out, producers=("cards",), papers=("a4",)))
    # the greyscale PDF too: no request makes English files of a game without English
    assert sorted(r.path for r in result.removed) == sorted(english)
    assert {r.reason for r in result.removed} == {"mini has no language en any more"}
    assert set(_entries(out)) == set(ru) and not (out / "mini" / "en").exists()  # its emptied folders go too
    assert {path: data for path, data in _files(out).items() if path.startswith("mini/ru/")} == ru


def test_clean_removes_the_listed_files_this_build_does_not_make_and_nothing_else(content, tmp_path):
    out = tmp_path / "out"
    for changes in ({}, {"inks": ("greyscale",)}, {"profile": "mpc"}):
        build(_options(content, out, producers=("cards",), papers=("a4",), **changes))
    assert {kind for kind in _kinds(_entries(out))} >= {("pnp", "greyscale"), ("shop-png", "mpc")}
    # files cardgen did not write: beside its own, in its folders, under a listed name
    foreign = {"notes.txt": b"mine", "mini/ru/png-tgc/999-mine.png": b"mine", "mini/en/mine.pdf": b"%PDF-"}
    for path, data in foreign.items():
        (out / path).write_bytes(data)
    greyscale = out / "mini" / "ru" / "mini-ru-pnp-a4-greyscale.pdf"
    greyscale.write_bytes(greyscale.read_bytes() + b"% annotated by hand\n")
    # a build with the plain options keeps the other requests' files ...
    assert build(_options(content, out, producers=("cards",), papers=("a4",))).removed == []
    # ... --clean removes them: what the manifest lists and this build does not make
    result = build(_options(content, out, producers=("cards",), papers=("a4",), clean=True))
    assert result.ran == []
    removed = {r.path for r in result.removed}
    assert removed and all("greyscale" in path or "png-mpc" in path for path in removed)
    assert {r.reason for r in result.removed} == {"--clean: not made by this build"}
    # the hand-annotated file is left in place, no longer listed, and said so
    assert [r.path for r in result.left] == ["mini/ru/mini-ru-pnp-a4-greyscale.pdf"] and greyscale.is_file()
    assert all((out / path).read_bytes() == data for path, data in foreign.items())
    assert not (out / "mini" / "ru" / "png-mpc").exists()
    # the folder is then what a build into an empty folder writes, plus the files that are not cardgen's
    fresh = tmp_path / "fresh"
    build(_options(content, fresh, producers=("cards",), papers=("a4",)))
    kept_by_hand = {*foreign, greyscale.relative_to(out).as_posix()}
    assert {path: data for path, data in _files(out).items() if path not in kept_by_hand} == _files(fresh)


def test_a_file_the_manifest_does_not_list_is_never_removed(content, tmp_path):
    out = tmp_path / "out"
    build(_options(content, out, producers=("cards",), papers=("a4",)))
    # in the folder of the dropped card's PNGs, named as a PNG of this game would be
    mine = out / "mini" / "ru" / "png-tgc" / "008-mine.png"
    mine.write_bytes(b"mine")
    _drop_extra_card(content)
    result = build(_options(content, out, producers=("cards",), papers=("a4",)))
    assert {Path(r.path).name for r in result.removed} == {"007-extra.png"}
    assert mine.read_bytes() == b"mine"
    _edit(content / "mini" / "game.yaml", ("languages: [ru, en]", "languages: [ru, de]"))
    build(_options(content, out, producers=("cards",), papers=("a4",), clean=True, langs=("de",)))
    assert mine.read_bytes() == b"mine"
    assert not (out / "mini" / "en").exists() and (out / "mini" / "ru" / "png-tgc").is_dir()


def test_entries_of_an_earlier_cardgen_without_requests_stay_until_clean(content, tmp_path):
    """A manifest written before requests were recorded: its files are kept (and listed) by builds
    of other requests, and removed by --clean like any listed file."""
    out = tmp_path / "out"
    build(_options(content, out, producers=("cards",), papers=("a4",), inks=("greyscale",)))
    manifest = out / "manifest.json"
    data = json.loads(manifest.read_text("utf-8"))
    for entry in data["files"]:
        del entry["request"]
    manifest.write_text(json.dumps(data), "utf-8")
    build(_options(content, out, producers=("cards",), papers=("a4",)))
    assert any("greyscale" in path for path in _entries(out))
    result = build(_options(content, out, producers=("cards",), papers=("a4",), clean=True))
    assert {r.path for r in result.removed} == {"mini/ru/mini-ru-pnp-a4-greyscale.pdf",
                                                "mini/en/mini-en-pnp-a4-greyscale.pdf"}


def test_cli_says_what_it_removed_and_why_and_only_when_it_did(content, tmp_path):
    out = tmp_path / "out"
    args = ["--content", str(content), "build", "--only", "cards", "--paper", "a4", "--out", str(out), "-j", "2"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    second = CliRunner().invoke(cli, [*args, "--ink", "greyscale"])
    assert second.exit_code == 0 and not re.search("^removed", second.output, re.M), second.output
    assert "of earlier builds' other requests" in second.output
    _drop_extra_card(content)
    third = CliRunner().invoke(cli, args)
    assert third.exit_code == 0, third.output
    assert ("removed 2 stale file(s):\n  cards/png printer_id=tgc: not made any more for mini:\n"
            "    mini/en/png-tgc/007-extra.png\n    mini/ru/png-tgc/007-extra.png\n") in third.output
    clean = CliRunner().invoke(cli, [*args, "--clean"])
    assert clean.exit_code == 0, clean.output
    assert "removed 2 file(s):\n  --clean: not made by this build:\n" in clean.output
    assert "mini/ru/mini-ru-pnp-a4-greyscale.pdf" in clean.output
    again = CliRunner().invoke(cli, [*args, "--clean"])
    assert again.exit_code == 0 and not re.search("^removed", again.output, re.M), again.output


def test_a_damaged_manifest_never_removes_a_file_outside_the_output_folder(content, tmp_path):
    """Entries naming paths out of the folder, or a symlink out of it, under a request this build
    runs: the files they point at stay."""
    out = tmp_path / "out"
    options = _options(content, out, producers=("cards",), papers=("a4",), langs=("ru",))
    build(options)
    victim = tmp_path / "victim.png"
    victim.write_bytes(b"victim")
    (out / "mini" / "ru" / "png-tgc" / "009-link.png").symlink_to(victim)
    manifest = out / "manifest.json"
    data = json.loads(manifest.read_text("utf-8"))
    png = next(entry for entry in data["files"] if entry["kind"] == "shop-png")
    digest = hashlib.sha256(b"victim").hexdigest()
    for path in ("../victim.png", str(victim), "mini/ru/png-tgc/009-link.png", "mini/ru/../../../victim.png"):
        data["files"].append(dict(png, path=path, sha256=digest, inputs="0" * 64))
    manifest.write_text(json.dumps(data), "utf-8")
    for clean in (False, True):
        result = build(_options(content, out, producers=("cards",), papers=("a4",), langs=("ru",), clean=clean))
        assert result.removed == [] and victim.read_bytes() == b"victim"
    assert not any(path.startswith(("/", "..")) or "/../" in path for path in _entries(out))
