"""A translation that drops or adds a reference of its source is a validate error at its PO line."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.i18n.placeholders import difference
from cardgen.i18n.status import status

ROOT = Path(__file__).resolve().parents[2]


def test_difference_names_what_is_dropped_and_added():
    assert difference("Take {card:prize-var} and {setting:columns}", "Weź {card:prize-var|acc} i {setting:columns}") is None
    assert "drops {card:prize-var}" in difference("Take {card:prize-var}", "Weź kartę")
    assert "adds {group:prize}" in difference("Take it", "Weź {group:prize}")
    # a reference the source repeats may stand once in the translation
    assert difference("{card:a} beats {card:b}; {card:a} wins", "{card:a} bije {card:b} i wygrywa") is None


def _polish_with(content: Path, key: str, translate) -> tuple[Path, int]:
    """klepka's German file as Polish, with ``key``'s translation changed by ``translate``; the
    path and the line of its msgid."""
    po = content / "klepka" / "locale" / "pl.po"
    shutil.copy(ROOT / "content/klepka/locale/de.po", po)
    lines = po.read_text("utf-8").splitlines()
    at = lines.index(f'msgctxt "{key}"')
    end = at + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    entry = "\n".join(lines[at:end])
    msgstr = entry.index("msgstr ")
    lines[at:end] = [*entry[:msgstr].splitlines(), f"msgstr {translate(entry[msgstr + 7:])}"]
    po.write_text("\n".join(lines) + "\n", "utf-8")
    game_yaml = content / "klepka" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text("utf-8").replace("languages: [ru, en, de]", "languages: [ru, en, de, pl]"),
                         "utf-8")
    return po, at + 2


def test_a_translation_that_drops_a_card_reference_fails_validate_at_its_line(content):
    key = "rules.quick.5"
    source = (ROOT / "content/klepka/text/ru.yaml").read_text("utf-8")
    assert "{card:" in next(line for line in source.splitlines() if line.strip().startswith(key + ":"))
    po, line = _polish_with(content, key, lambda _: '"Zbierz pary; nagroda VAR zmienia wynik."')
    result = CliRunner().invoke(cli, ["--content", str(content), "validate", "klepka"])
    assert result.exit_code == 1, result.output
    error = next(l for l in result.output.splitlines() if "drops {card:" in l)
    assert error.startswith(f"error: content/klepka/locale/pl.po:{line} (field {key}, language pl): "
                            f"translation of '{key}' drops {{card:"), error
    row = next(r for r in status(content, ["pl"], ["klepka"]) if r.domain == "klepka")
    assert any(kind == "broken" and k == key for kind, k, _ in row.problems)


def test_a_translation_that_adds_a_reference_fails_validate(content):
    key = "group.prize"
    po, line = _polish_with(content, key, lambda _: '"Płytki {setting:columns}"')
    result = CliRunner().invoke(cli, ["--content", str(content), "validate", "klepka"])
    assert result.exit_code == 1
    assert f"pl.po:{line} (field {key}, language pl): translation of '{key}' adds {{setting:columns}}" in result.output


def test_a_changed_form_is_not_a_dropped_reference(content):
    key = "rules.quick.5"
    po, _ = _polish_with(content, key, lambda text: text.replace("}", "|acc}", 1) if "{card:" in text else text)
    result = CliRunner().invoke(cli, ["--content", str(content), "validate", "klepka"])
    assert "drops" not in result.output
