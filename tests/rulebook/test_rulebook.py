"""Rulebooks: text in the right language, counts from the deck, a fence around files;
head-game's answer key as a booklet of its own.

A few PDFs are rendered (klepka, German, A5 booklet; head-game's German answer key,
twice); the other checks work on the HTML, which is what WeasyPrint lays out.
"""

from __future__ import annotations

import gc
import hashlib
import io
import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.content import load_games
from cardgen.errors import RenderError
from cardgen.rulebook import PAPERS, build_answer_key, build_rulebook, components, render_html
from cardgen.i18n import Texts

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
TEMPLATES = ROOT / "templates" / "rulebook"


@pytest.fixture(scope="module")
def games():
    return {game.id: game for game in load_games(CONTENT)}


@pytest.fixture(scope="module")
def klepka_de_a5(games):
    return build_rulebook(games["klepka"], "de", "a5")


def _pdf_text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_pdf_is_in_its_language(klepka_de_a5, games):
    text = _pdf_text(klepka_de_a5.pdf)
    for words in ("SPIELREGELN", "Inhalt", "Spielmaterial", "Vorbereitung", "Kurzübersicht", "Preisplättchen"):
        assert words in text
    assert not re.search(r"[А-Яа-яЁё]", text), "Russian text in the German rulebook"
    assert klepka_de_a5.warnings == []


def test_the_quick_reference_is_the_last_page_alone(klepka_de_a5):
    pages = [page.extract_text() or "" for page in PdfReader(io.BytesIO(klepka_de_a5.pdf)).pages]
    assert "Kurzübersicht · Klepka" in pages[-1]
    assert not any("Kurzübersicht · Klepka" in text for text in pages[:-1])
    assert "Inhalt" in pages[1] and "Kurzübersicht" in pages[1]  # listed in the contents


def test_the_a5_booklet_has_a_multiple_of_four_pages_and_embedded_fonts(klepka_de_a5):
    reader = PdfReader(io.BytesIO(klepka_de_a5.pdf))
    assert len(reader.pages) % 4 == 0 == klepka_de_a5.pages % 4
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (148, 210)
    fonts = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, "font not embedded"
            fonts.add(str(font["/BaseFont"]).split("+")[-1])
    assert fonts <= {"CardgenSans", "CardgenSans-Bold", "CardgenCondensed", "CardgenCondensed-Bold"}


@pytest.mark.parametrize("language,words", [
    ("ru", ["Правила игры", "Подготовка", "Памятка"]),
    ("en", ["Rules of play", "Setup", "Quick reference"]),
    ("de", ["Spielregeln", "Vorbereitung", "Kurzübersicht"]),
])
def test_every_rulebook_is_written_in_its_language(games, language, words):
    for game in games.values():
        html, texts = render_html(game, language, "a4")
        assert f'<html lang="{language}">' in html
        for word in words:
            assert word in html, (game.id, language, word)
        assert texts.warnings == [], (game.id, language, texts.warnings[:3])
        if language != "ru":
            body = re.sub(r"<[^>]+>", " ", html)
            body = re.sub(r'lang="ru".*?</span>', "", body)
            cyrillic = re.findall(r"[А-Яа-яЁё]{4,}", body)
            allowed = {"Клепка"}  # the Russian word printed on the tiles' back
            assert set(cyrillic) <= allowed, (game.id, language, cyrillic[:5])


def test_the_counts_table_equals_the_deck(games):
    for game in games.values():
        deck_groups = Counter(p.card.group for p in game.physical_cards())
        deck_kinds = Counter((p.card.group, p.card.kind) for p in game.physical_cards())
        rows, total = components(game, Texts(game, "ru"))
        assert total == len(game.physical_cards())
        for row in rows:
            expected = deck_kinds[row.group, row.kind] if row.kind else deck_groups[row.group]
            assert row.cards == expected
        html, _ = render_html(game, "en", "a4")
        table = html[html.index('<table class="components">'):html.index("</table>")]
        found = re.findall(r'data-group="([^"]*)" data-kind="([^"]*)">.*?<td class="num">(\d+)</td>', table, re.S)
        assert {(g, k or None): int(n) for g, k, n in found} == {(r.group, r.kind): r.cards for r in rows}
        assert f'<td class="num">{total}</td></tr></tfoot>' in table


def test_the_pdf_counts_table_shows_the_deck_total(klepka_de_a5, games):
    text = _pdf_text(klepka_de_a5.pdf)
    assert f"Gesamt {len(games['klepka'].physical_cards())}" in text


def test_head_game_answer_key_is_a_booklet_of_its_own_with_real_players(games):
    html, _ = render_html(games["head-game"], "en", "a4", part="answer-key")
    assert "<h1>Answer key</h1>" in html
    assert "Zinedine Zidane" in html
    assert html.count('<div class="answers-block">') == 13
    # clarification 'age-date': the key prints the one day ages are counted on
    assert "Reference base as of 30 June 2025; ages are counted on 30 June 2025, as on the cards." in html


@pytest.mark.parametrize("paper", PAPERS)
def test_the_head_game_rulebook_says_where_the_answer_key_is(games, paper):
    html, _ = render_html(games["head-game"], "de", paper)
    assert "answers-block" not in html and "Zinedine" not in html
    assert '<a href="#answers">Lösungsschlüssel</a>' in html  # listed in the contents
    section = html[html.index('<section id="answers"'):]
    assert '(Datei <span class="file">head-game-de-answers-a4.pdf</span>)' in section[:section.index("</section>")]
    assert "832 Kombinationen" in section


def test_other_games_have_no_answer_key(games):
    html, _ = render_html(games["klepka"], "en", "a4")
    assert 'id="answers"' not in html
    with pytest.raises(RenderError, match="no answer key"):
        build_answer_key(games["klepka"], "en")


def test_the_answer_key_booklet_is_written_with_its_manifest_entry_deterministic_and_complete(
        games, monkeypatch, tmp_path):
    from cardgen.build import BuildOptions
    from cardgen.build.rulebooks import answer_key_job

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    game = games["head-game"]
    (entry,) = answer_key_job(BuildOptions(content_dir=CONTENT, out_dir=tmp_path), "head-game", ("de",))
    assert (entry.game, entry.kind, entry.lang, entry.paper) == ("head-game", "answer-key", "de", "a4")
    assert entry.path == "head-game/de/head-game-de-answers-a4.pdf"
    pdf = (tmp_path / entry.path).read_bytes()
    assert entry.sha256 == hashlib.sha256(pdf).hexdigest()
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == entry.pages >= 10
    assert round(float(reader.pages[0].mediabox.width) / 72 * 25.4) == 210
    text = _pdf_text(pdf)
    assert "Lösungsschlüssel" in text and "Zinedine Zidane" in text
    geo_names = [Texts(game, "de").plain(card.text["name"]) for card in game.cards if card.attrs.get("country")
                 or card.attrs.get("continent")]
    assert len(geo_names) == 13 and all(name in text for name in geo_names)
    assert gc.isenabled()  # the collector paused for the layout runs again
    again = build_answer_key(game, "de")
    assert (again.part, again.paper, again.pdf) == ("answer-key", "a4", pdf)


def test_the_build_plans_one_rulebook_job_per_language_and_one_answer_key_job(games, tmp_path):
    """The rulebooks of a language share their card pictures, the answer keys their
    reference base: each group is one job, so no other worker draws or reads them again."""
    from cardgen.build import BuildOptions
    from cardgen.build.rulebooks import plan

    options = BuildOptions(content_dir=CONTENT, out_dir=tmp_path)
    head = plan(options, games["head-game"], ["ru", "en", "de"])
    books = [job for job in head if job.func.__name__ == "rulebook_job"]
    assert [dict(job.args)["lang"] for job in books] == ["ru", "en", "de"]
    (keys,) = [job for job in head if job.func.__name__ == "answer_key_job"]
    assert dict(keys.args)["langs"] == ("ru", "en", "de")
    assert keys.targets == (("head-game", "ru"), ("head-game", "en"), ("head-game", "de"))
    assert keys.cost > max(job.cost for job in books)  # started first
    klepka = plan(options, games["klepka"], ["en"])
    assert [job.func.__name__ for job in klepka] == ["rulebook_job"]
    assert klepka[0].cost < books[0].cost  # fewer cards explained with pictures


def test_a_date_pattern_babel_cannot_use_is_a_clear_error():
    from datetime import date

    from cardgen.errors import RenderError
    from cardgen.rulebook.answers import _printed_date

    class Texts:
        language = "en"

        def __init__(self, pattern):
            self.pattern = pattern

        def plain(self, key):
            assert key == "rulebook.date-format"
            return self.pattern

        def origin(self, key):
            from cardgen.errors import Locator

            return Locator(file=Path("games/common/text/en.yaml"), line=3, field=key, language="en")

    assert _printed_date(date(2025, 6, 30), Texts("d MMMM y")) == "30 June 2025"
    for pattern in ("zzzz", "d" * 50):  # a time-zone field of a day; a field longer than CLDR allows
        with pytest.raises(RenderError, match=r"'rulebook.date-format' \(en\) is .*not a date pattern") as failed:
            _printed_date(date(2025, 6, 30), Texts(pattern))
        assert str(failed.value).startswith("games/common/text/en.yaml:3 (field rulebook.date-format, language en)")


# --- sections a game does not write ------------------------------------------------------


def _mini_without(tmp_path: Path, left_out: tuple[str, ...]):
    """tests/data/mini (format 2) without the rulebook keys ``left_out``."""
    import shutil

    from cardgen.content import load_game

    game_dir = Path(shutil.copytree(ROOT / "tests" / "data" / "mini", tmp_path / "content" / "mini"))
    text = game_dir / "text" / "ru.yaml"
    lines = text.read_text("utf-8").splitlines(keepends=True)
    text.write_text("".join(line for line in lines if not line.strip().startswith(left_out)), "utf-8")
    game = load_game(game_dir, display_root=tmp_path)
    assert game.format == 2 and game.warnings == []
    return game


def test_a_rulebook_leaves_out_the_tagline_and_quick_reference_a_game_does_not_write(tmp_path):
    game = _mini_without(tmp_path, ("rules.tagline", "rules.quick"))
    for paper in ("a4", "a5"):
        book = build_rulebook(game, "ru", paper)
        pages = [page.extract_text() or "" for page in PdfReader(io.BytesIO(book.pdf)).pages]
        text = "\n".join(pages)
        assert "Памятка" not in text  # no quick-reference page, no line for it in the contents
        assert "Маленькая игра для проверок." not in text  # the tagline
        assert "Содержание" in pages[1] and "Подготовка" in pages[1]  # the contents, with the rest
        assert "Сыграй или возьми." not in text and "Сбросить все карты." in text
        assert pages[-1].strip() == "" or paper == "a4"  # a booklet's padding: blank pages at the back
        assert book.warnings == []
        if paper == "a5":
            assert len(pages) % 4 == 0


def test_a_rulebook_prints_the_tagline_and_quick_reference_a_game_writes(tmp_path):
    game = _mini_without(tmp_path, ())
    pages = [page.extract_text() or "" for page in PdfReader(io.BytesIO(build_rulebook(game, "ru", "a4").pdf)).pages]
    assert "Маленькая игра для проверок." in pages[0]
    assert "Памятка" in pages[1]  # in the contents
    assert "Памятка" in pages[-1] and "Сыграй или возьми." in pages[-1]


def test_a_booklet_without_quick_reference_is_padded_as_a_whole_new_layout_would_be(tmp_path, monkeypatch):
    """The padding pages of a booklet without a quick reference come from a small patch
    document; laid out whole again, the booklet reads the same, page by page."""
    import cardgen.rulebook.book as book

    game = _mini_without(tmp_path, ("rules.tagline", "rules.quick"))
    padded = []
    real = book._pad_booklet
    monkeypatch.setattr(book, "_pad_booklet", lambda document, render: padded.append(real(document, render))
                        or padded[-1])
    patched = build_rulebook(game, "ru", "a5")
    assert padded and padded[0] is not None  # the patch was used, not a second whole layout
    monkeypatch.setattr(book, "_pad_booklet", lambda document, render: None)
    whole = build_rulebook(game, "ru", "a5")

    def texts(pdf):
        return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]

    assert patched.pages == whole.pages and patched.pages % 4 == 0 and patched.pages > 4
    assert texts(patched.pdf) == texts(whole.pdf)
