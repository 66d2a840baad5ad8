"""``cardgen build`` on a game set in its own typeface: a character no face has fails --strict
(naming it, the card and the language, nothing written) and is a warning without it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fontmaker import make_game  # noqa: E402


def build(content: Path, out: Path, *extra: str):
    return CliRunner().invoke(cli, ["--content", str(content), "build", "mini", "--only", "cards", "--lang", "ru",
                                    "--paper", "a4", "--out", str(out), "--jobs", "1", *extra])


def test_a_japanese_card_name_fails_strict_and_warns_without(tmp_path):
    content = make_game(tmp_path, {"card.one.name": "日本 One", "card.swap.name": "Swap 東"})
    out = tmp_path / "out"
    strict = build(content, out, "--strict")
    assert strict.exit_code == 1, strict.output
    assert "U+65E5 CJK UNIFIED IDEOGRAPH-65E5" in strict.output
    assert "card one" in strict.output and "language ru" in strict.output
    assert "card swap" in strict.output and "U+6771" in strict.output  # every such text of the job, in one run
    assert "Boxer-Bold.ttf" in strict.output and "DejaVuSans-Bold" in strict.output  # the faces tried
    assert not (out / "manifest.json").exists()

    lenient = build(content, out)
    assert lenient.exit_code == 0, lenient.output
    assert "warning: 2 text(s) hold characters no face of their font has" in lenient.output
    assert "U+672C" in lenient.output
    entries = json.loads((out / "manifest.json").read_text("utf-8"))["files"]
    noted = [e for e in entries if e.get("glyphs")]
    assert noted and all("U+65E5" in e["glyphs"][0] for e in noted)


def test_a_game_whose_every_character_has_a_face_builds_strict_without_warnings(tmp_path):
    content = make_game(tmp_path)  # Latin in Boxer, Cyrillic in DejaVu
    result = build(content, tmp_path / "out", "--strict")
    assert result.exit_code == 0, result.output
    assert "no face of their font" not in result.output
