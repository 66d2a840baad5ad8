"""The shared strings: cardgen's own in en, ru and de; a content folder's common/ over them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.content.shared import BUILTIN_DIR, load_shared
from cardgen.errors import ContentErrors
from cardgen.i18n import Texts


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def games(tmp_path) -> Path:
    folder = tmp_path / "games"
    assert run("new", "lights", "--content", str(folder), "--lang", "de").exit_code == 0
    return folder


def test_cardgen_ships_the_same_keys_in_every_language():
    shared = load_shared(Path("/nonexistent"))
    assert shared.languages() == ["de", "en", "pl", "ru"]
    keys = {language: set(shared.texts[language]) for language in shared.languages()}
    assert keys["en"] == keys["de"] == keys["ru"] == keys["pl"] and len(keys["en"]) > 50
    assert shared.texts["en"]["rulebook.section.setup"] == "Setup"
    assert shared.texts["de"]["rulebook.section.setup"] == "Vorbereitung"


def test_a_folder_overrides_key_by_key(games):
    from cardgen.content import load_games

    (games / "common" / "text").mkdir(parents=True)
    (games / "common" / "text" / "en.yaml").write_text(
        'language: en\nmessages:\n  rulebook.section.setup: "Getting ready"\n', "utf-8")
    game = load_games(games, ["lights"])[0]
    texts = Texts(game, "en")
    assert texts.plain("rulebook.section.setup") == "Getting ready"
    assert texts.plain("rulebook.section.goal") == "Goal of the game"  # the rest stays cardgen's
    assert Texts(game, "de").plain("rulebook.section.setup") == "Vorbereitung"
    assert not texts.warnings


def test_a_broken_override_is_a_content_error_with_its_line(games):
    (games / "common" / "text").mkdir(parents=True)
    (games / "common" / "text" / "en.yaml").write_text(
        "language: en\nmessages:\n  rulebook.section.setup: [not, text]\n", "utf-8")
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1
    assert "games/common/text/en.yaml:3:27 (field messages.rulebook.section.setup): expected text" in result.output
    with pytest.raises(ContentErrors):
        load_shared(games)


def test_i18n_add_on_an_english_game_writes_english_msgids(games):
    result = run("--content", str(games), "i18n", "add", "fr")
    assert result.exit_code == 0, result.output
    game_po = (games / "lights" / "locale" / "fr.po").read_text("utf-8")
    common_po = (games / "common" / "locale" / "fr.po").read_text("utf-8")
    assert 'msgid "Number cards"' in game_po
    assert 'msgid "Setup"' in common_po and 'msgid "Подготовка"' not in common_po
    assert "cardgen's shared strings in 'de' are ready" in run("--content", str(games), "i18n", "add", "de").output


def test_a_common_translation_made_from_english_serves_a_russian_game_too(games, tmp_path):
    """A PO entry stays current while the source text it was made from is unchanged."""
    from cardgen.content import load_games

    assert run("--content", str(games), "i18n", "add", "fr").exit_code == 0
    po = games / "common" / "locale" / "fr.po"
    po.write_text(po.read_text("utf-8").replace('msgid "Setup"\nmsgstr ""', 'msgid "Setup"\nmsgstr "Mise en place"'),
                  "utf-8")
    assert run("new", "nuit", "--content", str(games), "--source-lang", "ru", "--lang", "fr").exit_code == 0
    for game_id in ("lights", "nuit"):
        game = load_games(games, [game_id])[0]
        assert Texts(game, "fr").plain("rulebook.section.setup") == "Mise en place"


def test_a_source_language_without_shared_strings_is_reported_at_its_line(games):
    game_yaml = games / "lights" / "game.yaml"
    text = game_yaml.read_text("utf-8").replace("source_language: en", "source_language: cs")
    game_yaml.write_text(text.replace("languages: [en, de]", "languages: [cs, de]"), "utf-8")
    (games / "lights" / "text" / "en.yaml").rename(games / "lights" / "text" / "cs.yaml")
    path = games / "lights" / "text" / "cs.yaml"
    path.write_text(path.read_text("utf-8").replace("language: en", "language: cs"), "utf-8")
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("source_language"))
    assert f"games/lights/game.yaml:{line}:" in result.output
    assert "no shared strings" in result.output and "common/text/cs.yaml" in result.output


def test_builtin_texts_are_package_data():
    assert (BUILTIN_DIR / "text" / "en.yaml").is_file()
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8")
    assert '"common/text/*.yaml"' in pyproject


def test_a_text_names_where_it_stands_in_the_language_printed(games):
    """Texts.origin: the translation in force (shared text of the language, a PO entry), else the
    source; files shown as content errors show them (relative to the content folder's parent)."""
    from cardgen.content import load_games

    def line_at(locator):
        return (games.parent / locator.file).read_text("utf-8").splitlines()[locator.line - 1]

    (games / "common" / "text").mkdir(parents=True)
    (games / "common" / "text" / "en.yaml").write_text(
        'language: en\nmessages:\n  rulebook.date-format: "y-MM-dd"\n', "utf-8")
    game = load_games(games, ["lights"])[0]
    english, german = Texts(game, "en"), Texts(game, "de")
    assert str(english.origin("rulebook.date-format")) == (
        "games/common/text/en.yaml:3 (field rulebook.date-format, language en)")
    builtin = german.origin("rulebook.date-format")
    assert builtin.file == BUILTIN_DIR / "text" / "de.yaml" and "rulebook.date-format:" in line_at(builtin)
    source = english.origin("rules.tagline")
    assert source.file == Path("games/lights/text/en.yaml") and "rules.tagline:" in line_at(source)
    # untranslated in de.po: the English source is printed, and named
    assert german.origin("rules.tagline").file == source.file
    po = games / "lights" / "locale" / "de.po"
    text = po.read_text("utf-8")
    start = text.index('msgctxt "rules.tagline"')
    end = text.index('msgstr ""', start)
    po.write_text(text[:end] + 'msgstr "Ein Spiel"' + text[end + len('msgstr ""'):], "utf-8")
    translated = Texts(load_games(games, ["lights"])[0], "de").origin("rules.tagline")
    assert translated.file == Path("games/lights/locale/de.po") and translated.language == "de"
    assert line_at(translated).startswith("msgid")


def test_a_placeholder_cardgen_never_fills_is_a_content_error_at_its_line(games):
    """In the folder's own shared strings and their PO translations, and in a game's label
    translation: each names its file and line (the build would stop on it, without them)."""
    (games / "common" / "text").mkdir(parents=True)
    (games / "common" / "text" / "en.yaml").write_text(
        'language: en\nmessages:\n  rulebook.cards-total: "Cards in the box: {totl}"\n'
        '  rulebook.players: "Players: {min} to {max}"\n', "utf-8")
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1
    assert ("games/common/text/en.yaml:3:25 (field messages.rulebook.cards-total, language en): placeholder "
            "{totl} is never filled in for 'rulebook.cards-total' (it takes {total})") in result.output
    assert "rulebook.players" not in result.output and "1 content error" in result.output
    (games / "common" / "text" / "en.yaml").unlink()
    assert run("--content", str(games), "i18n", "add", "fr").exit_code == 0
    po = games / "common" / "locale" / "fr.po"
    text = po.read_text("utf-8")
    po.write_text(text.replace('msgid "Players: {min}–{max}"\nmsgstr ""',
                               'msgid "Players: {min}–{max}"\nmsgstr "Joueurs : {min} à {maxi}"'), "utf-8")
    line = po.read_text("utf-8").splitlines().index('msgid "Players: {min}–{max}"') + 1
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1
    assert (f"games/common/locale/fr.po:{line} (field rulebook.players, language fr): placeholder {{maxi}} is "
            "never filled in for 'rulebook.players' (it takes {max}, {min})") in result.output


def test_a_label_translation_needing_an_argument_not_given_names_its_po_line(games):
    po = games / "lights" / "locale" / "de.po"
    text = po.read_text("utf-8")
    start = text.index('msgctxt "kind.red.label"')
    end = text.index('msgstr ""', start)
    po.write_text(text[:end] + 'msgstr "Rot {zahl}"' + text[end + len('msgstr ""'):], "utf-8")
    line = po.read_text("utf-8").splitlines().index('msgctxt "kind.red.label"') + 2
    result = run("--content", str(games), "validate")
    assert result.exit_code == 1
    assert (f"games/lights/locale/de.po:{line} (field kind.red.label, card red-1, language de): text needs the "
            "argument {zahl}, which is not given") in result.output
