"""Incremental `cardgen build`: a job whose inputs are unchanged is skipped, and what the build
asked for is byte for byte what a clean build of the same sources writes (files and manifest
entries); the output folder also keeps other requests' files, and `--clean` drops them."""

from __future__ import annotations

import builtins
import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.build import PRODUCERS, BuildOptions, Job, Producer, build
from cardgen.cli import cli
from cardgen.errors import RenderError
from cardgen.build.cache import Inputs
from cardgen.cards.layout import TEMPLATES_DIR

ROOT = Path(__file__).resolve().parents[2]
CARDS = ("cards",)


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A content folder with klepka (text, PO files, a layout in templates/) and the quiz deck
    (text files only, its layout in its folder), and templates/cards beside it."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    content = tmp_path / "content"
    content.mkdir()
    shutil.copytree(ROOT / "content" / "klepka", content / "klepka")
    shutil.copytree(ROOT / "content" / "schema", content / "schema")
    shutil.copytree(ROOT / "tests" / "data" / "decks" / "quiz", content / "quiz")
    shutil.copytree(ROOT / "templates" / "cards", tmp_path / "templates" / "cards")
    return content


def _options(content: Path, out: Path, **changes) -> BuildOptions:
    settings = dict(content_dir=content, out_dir=out, papers=("a4",), workers=2, producers=CARDS)
    settings.update(changes)
    return BuildOptions(**settings)


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), "utf-8")


def _entries(out: Path) -> dict[str, dict]:
    return {entry["path"]: entry for entry in json.loads((out / "manifest.json").read_text("utf-8"))["files"]}


def _same_as_clean(content: Path, out: Path, **changes) -> None:
    """A clean build (into an empty folder) of the last build's options writes what ``out`` holds
    for them, every file and manifest entry; every other entry of ``out`` is of another request."""
    clean = out.with_name(out.name + "-clean")
    result = build(_options(content, clean, **changes))
    assert result.unchanged == 0 and result.skipped == 0
    ours, theirs = _entries(clean), _entries(out)
    assert {path: theirs.get(path) for path in ours} == ours
    assert {path: data for path, data in _files(out).items() if path in ours} == \
        {path: data for path, data in _files(clean).items() if path in ours}
    requests = {entry["request"] for entry in ours.values()}
    assert all(entry["request"] not in requests for path, entry in theirs.items() if path not in ours)
    shutil.rmtree(clean)


def test_incremental_build_equals_a_clean_one_after_each_kind_of_change(project, tmp_path):
    out = tmp_path / "out"
    first = build(_options(project, out))
    assert first.unchanged == 0 and first.ran
    again = build(_options(project, out))
    assert again.ran == [] and again.skipped == len(first.ran)
    assert again.unchanged == len(first.artefacts)
    assert (out / "manifest.json").read_bytes() == _files(out)["manifest.json"]
    _same_as_clean(project, out)

    # one card's text in the source language: every language of that game (source and fallback)
    _edit(project / "klepka" / "text" / "ru.yaml", "Вратарь Стенкин", "Вратарь Стенкина")
    result = build(_options(project, out))
    assert result.ran and not any(label.startswith("quiz") for label in result.ran)
    assert {label.split()[1] for label in result.ran if "png" not in label} == {"ru", "en", "de", "pl"}
    _same_as_clean(project, out)

    # a PO entry: that language of that game only
    _edit(project / "klepka" / "locale" / "de.po", 'msgstr "Kapitän Nagel"', 'msgstr "Käpt\'n Nagel"')
    result = build(_options(project, out))
    assert result.ran == ["klepka de pnp a4", "klepka de shop-pdf",
                          "klepka shop-png tgc 1/2 (de only)", "klepka shop-png tgc 2/2 (de only)"]
    assert result.unchanged == len(result.artefacts) - sum(1 for a in result.artefacts if a.lang == "de"
                                                          and a.game == "klepka")
    _same_as_clean(project, out)

    # a layout: the games that use it
    _edit(project.parent / "templates" / "cards" / "klepka.yaml", 'color: "#fdd835"', 'color: "#fbc02d"')
    result = build(_options(project, out))
    assert result.ran and all(label.startswith("klepka") for label in result.ran)
    _same_as_clean(project, out)
    # another game's own layout feeds no job of these games
    _edit(project.parent / "templates" / "cards" / "himmel.yaml", "include:", "# touched\ninclude:")
    assert build(_options(project, out)).ran == []
    # a layout every game may include feeds them all
    _edit(project.parent / "templates" / "cards" / "common.yaml", "\n", "\n# touched\n")
    result = build(_options(project, out))
    assert {label.split()[0] for label in result.ran} == {"klepka", "quiz"}

    # a game.yaml setting
    _edit(project / "klepka" / "game.yaml", 'color: "#1565c0"', 'color: "#0d47a1"')
    result = build(_options(project, out))
    assert result.ran and all(label.startswith("klepka") for label in result.ran)
    _same_as_clean(project, out)

    # build options: the paper, the ink (the files of the other paper and ink stay: other requests)
    a4 = {path for path in _entries(out) if "-pnp-a4" in path}
    result = build(_options(project, out, papers=("letter",)))
    assert all(" pnp letter" in label for label in result.ran) and len(result.ran) == 6  # klepka ru, en, de, pl; quiz ru, en
    assert result.removed == [] and a4 <= set(_entries(out))
    _same_as_clean(project, out, papers=("letter",))
    result = build(_options(project, out, papers=("letter",), inks=("greyscale",)))
    assert all("greyscale" in label for label in result.ran) and len(result.ran) == 6
    _same_as_clean(project, out, papers=("letter",), inks=("greyscale",))
    # an option of the shop PNGs
    result = build(_options(project, out, papers=("letter",), inks=("greyscale",), profile="mpc"))
    assert any("png" in label for label in result.ran)
    _same_as_clean(project, out, papers=("letter",), inks=("greyscale",), profile="mpc")
    assert {path.split("/")[2] for path in _entries(out) if "/png-" in path} == {"png-tgc", "png-mpc"}
    # --clean: exactly what a clean build writes, manifest and page included
    result = build(_options(project, out, papers=("letter",), inks=("greyscale",), profile="mpc", clean=True))
    assert result.ran == [] and result.removed and all("--clean" in r.reason for r in result.removed)
    clean = tmp_path / "clean"
    build(_options(project, clean, papers=("letter",), inks=("greyscale",), profile="mpc"))
    assert _files(out) == _files(clean)


def test_changed_or_missing_outputs_and_force_rerun(project, tmp_path):
    out = tmp_path / "out"
    build(_options(project, out, langs=("en",)))
    pdf = out / "quiz" / "en" / "quiz-en-shop.pdf"
    pdf.write_bytes(pdf.read_bytes() + b"\n% edited by hand\n")
    (out / "klepka" / "en" / "klepka-en-pnp-a4.pdf").unlink()
    result = build(_options(project, out, langs=("en",)))
    assert result.ran == ["klepka en pnp a4", "quiz en shop-pdf"]
    forced = build(_options(project, out, langs=("en",), force=True))
    assert forced.skipped == 0 and forced.unchanged == 0 and len(forced.ran) == result.skipped + len(result.ran)


def plan_failing(options, game, langs):
    return [Job("failing", f"{game.id} failing", failing_job, (("game_id", game.id),), cost=-1.0)]


def failing_job(options, game_id: str):
    raise RenderError("deliberate failure")


def test_a_failed_incremental_build_leaves_the_output_as_it_was(project, tmp_path, monkeypatch):
    out = tmp_path / "out"
    build(_options(project, out, games=("quiz",)))
    before = _files(out)
    _edit(project / "quiz" / "text" / "en.yaml", "\n", "\n# touched\n")
    monkeypatch.setitem(PRODUCERS, "failing", Producer(plan_failing))
    progress = []
    with pytest.raises(RenderError, match="deliberate failure"):
        build(_options(project, out, games=("quiz",), workers=1, producers=("cards", "failing")),
              lambda done, total, label: progress.append(label))
    assert any(" en " in label for label in progress)  # the changed language's jobs had run
    assert _files(out) == before
    monkeypatch.delitem(PRODUCERS, "failing")
    assert build(_options(project, out, games=("quiz",))).ran  # and still run next time


def plan_weighed(options, game, langs):
    """A job of every language that costs more than a job of one language, until it is narrowed."""
    return [Job("weighed", f"{game.id} all languages", weighed_job,
                (("game_id", game.id), ("langs", tuple(langs))), cost=1.5 * len(langs),
                targets=tuple((game.id, lang) for lang in langs)),
            *(Job("weighed", f"{game.id} {lang} one", weighed_job,
                  (("game_id", game.id), ("langs", (lang,))), cost=2.0, targets=((game.id, lang),))
              for lang in langs)]


def weighed_job(options, game_id: str, langs: tuple[str, ...]):
    from cardgen.build import write_artefact

    suffix = "all" if len(langs) > 1 else "one"
    return [write_artefact(options, f"{game_id}/{lang}/{suffix}.json", f"[\"{lang}\"]".encode(), game=game_id,
                           kind="report", lang=lang) for lang in langs]


def test_jobs_narrowed_to_the_changed_language_run_in_order_of_their_narrowed_cost(project, tmp_path, monkeypatch):
    """The biggest job starts first by what it has left to do: a job of four languages
    narrowed to one costs a quarter, less than a job of that language alone."""
    monkeypatch.setitem(PRODUCERS, "weighed", Producer(plan_weighed))
    out = tmp_path / "out"
    options = _options(project, out, games=("klepka",), producers=("weighed",), workers=1)
    started: list[str] = []
    build(options, lambda done, total, label: started.append(label))
    assert started[1:] == ["klepka all languages", "klepka de one", "klepka en one", "klepka pl one", "klepka ru one"]
    _edit(project / "klepka" / "locale" / "de.po", 'msgstr "Kapitän Nagel"', 'msgstr "Käpt\'n Nagel"')
    started.clear()
    result = build(options, lambda done, total, label: started.append(label))
    assert started[1:] == ["klepka de one", "klepka all languages (de only)"]
    assert result.skipped == 3  # the other languages alone


def test_cardgen_itself_is_an_input(project, tmp_path, monkeypatch):
    out = tmp_path / "out"
    build(_options(project, out, games=("quiz",)))
    monkeypatch.setattr("cardgen.build.cache.code_fingerprint", lambda: "another cardgen")
    assert build(_options(project, out, games=("quiz",))).skipped == 0


def test_every_file_of_a_game_feeds_a_job_and_language_files_only_their_language(project, tmp_path):
    """A content or layout file the rules leave out would leave a stale file behind: touch each in turn.
    Of the layout folder's layouts only common.yaml, which the quiz's own layout includes, feeds it."""
    out = tmp_path / "out"
    options = _options(project, out, games=("quiz",))
    build(options)
    game = project / "quiz"
    touched = [*sorted(p for p in game.rglob("*") if p.is_file()), project / "schema" / "cards.schema.json",
               *sorted((project.parent / "templates" / "cards").glob("*"))]
    for path in touched:
        with path.open("a", encoding="utf-8") as handle:
            handle.write("\n" if path.suffix == ".json" else "\n# touched\n")
        ran = build(options).ran
        unused_layout = path.parent.name == "cards" and path.suffix == ".yaml" and \
            path.name not in ("common.yaml", "printers.yaml")
        assert bool(ran) != unused_layout, (path, ran)
        if path.name == "en.yaml":  # not the source language
            assert {label.split()[1] for label in ran if "png" not in label} == {"en"}


def test_files_a_build_reads_are_all_hashed(project, tmp_path, monkeypatch):
    """Every file of the content and layout folders that a build opens (in this process, every
    cache emptied) is among the inputs hashed for its game."""
    opened: set[Path] = set()
    real_open, real_os_open = builtins.open, os.open

    def recording_open(file, *args, **kwargs):
        if isinstance(file, (str, Path)):
            opened.add(Path(file).resolve())
        return real_open(file, *args, **kwargs)

    def recording_os_open(path, *args, **kwargs):
        opened.add(Path(path).resolve())
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", recording_open)
    monkeypatch.setattr(io, "open", recording_open)
    monkeypatch.setattr(os, "open", recording_os_open)
    build(_options(project, tmp_path / "out", games=("klepka",), langs=("en",), workers=1,
                   producers=("cards", "rulebook")))
    build(_options(project, tmp_path / "out", games=("quiz",), langs=("en",), workers=1))  # no rulebook text
    monkeypatch.undo()
    from cardgen.build import load_game_cached

    templates = project.parent / "templates" / "cards"
    read = {p for p in opened if p.is_file() and (p.is_relative_to(project.resolve())
                                                 or p.is_relative_to(templates.resolve()))}
    assert any(p.suffix == ".po" for p in read) and any(p.parent == templates.resolve() for p in read)
    games = {g: load_game_cached(project, g) for g in ("klepka", "quiz")}
    inputs = Inputs(BuildOptions(content_dir=project, out_dir=tmp_path / "out", templates_dir=templates), games)
    roots = {"content": project, "templates": templates, "cardgen-templates": TEMPLATES_DIR}
    hashed = {(roots[where] / path).resolve() for game in inputs.games.values()
              for where, path, _ in game.for_languages(None)}
    assert read <= hashed, sorted(read - hashed)


def test_cli_reports_files_written_and_unchanged(project, tmp_path):
    out = tmp_path / "out"
    args = ["--content", str(project), "build", "quiz", "--paper", "a4", "--only", "cards", "--out", str(out)]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    total = len(json.loads((out / "manifest.json").read_text("utf-8"))["files"])
    assert re.search(rf"{total} files written, 0 unchanged", first.output)
    _edit(project / "quiz" / "text" / "en.yaml", "\n", "\n# touched\n")
    second = CliRunner().invoke(cli, args)
    en = sum(1 for entry in json.loads((out / "manifest.json").read_text("utf-8"))["files"] if entry["lang"] == "en")
    assert re.search(rf"{en} files written, {total - en} unchanged .*skipped\)", second.output), second.output
    forced = CliRunner().invoke(cli, [*args, "--force"])
    assert re.search(rf"{total} files written, 0 unchanged", forced.output), forced.output
