"""The lazily parsed hyphenation dictionaries give exactly pyphen's patterns and points."""

from __future__ import annotations

import pyphen
import pytest

from cardgen.rulebook import hyphenation
from cardgen.rulebook.hyphenation import LazyHyphDict


def _same_patterns(lazy: LazyHyphDict, eager: pyphen.HyphDict) -> None:
    parsed = lazy.patterns.materialised()
    assert parsed == eager.patterns
    assert lazy.maxlen == eager.maxlen
    data = {key: [getattr(value, "data", None) for value in values] for key, (_, values) in eager.patterns.items()}
    assert {key: [getattr(value, "data", None) for value in values] for key, (_, values) in parsed.items()} == data


def test_pyphen_s_dictionaries_parse_to_its_patterns():
    """German (the largest), and every dictionary under 200 kB: all the kinds of line pyphen
    ships (those of ca, eo and sq_AL take the line-by-line path). Not hu_HU (1 MB, line by
    line) nor the copies of German: seconds of parsing that test nothing more."""
    paths = {path for path in pyphen.LANGUAGES.values() if path.stat().st_size < 200_000}
    for path in sorted(paths | {pyphen.LANGUAGES["de_DE"]}):
        _same_patterns(LazyHyphDict(path), pyphen.HyphDict(path))


@pytest.mark.parametrize("body", [
    # pyphen's special lines: hex escapes, nonstandard alternatives, other digits, lines to strip,
    # comments and settings, a line of zeros after a pattern of the same key (ignored)
    "  .ab1c \n%x1y\n#a1b\nLEFTHYPHENMIN 2\nab1c\na0b0c\nf^^e41g\nc1k/k=k,1,1\nd\u06f1e\n\r\nx1y\r\n",
    "a1b\nb2c\na3b\n",  # a later line of a key wins
])
def test_unusual_lines_parse_as_pyphen_parses_them(tmp_path, body):
    path = tmp_path / "hyph_xx.dic"
    path.write_text("UTF-8\n" + body, "utf-8")
    _same_patterns(LazyHyphDict(path), pyphen.HyphDict(path))


def test_hyphenation_points_are_pyphen_s_and_weasyprint_finds_the_prepared_dictionary(monkeypatch):
    monkeypatch.setattr(pyphen, "hdcache", {})
    words = ["Silbentrennungsmuster", "Kapitän", "Spielkartenstapel", "Wörterbuch", "Schifffahrt", "Torwart"]
    hyphenation.prepare(["de", "xx-unknown"])
    lazy = pyphen.Pyphen(lang="de")  # as WeasyPrint asks for it: from pyphen's cache
    assert isinstance(lazy.hd, LazyHyphDict)
    eager = pyphen.Pyphen(lang="de")
    eager.hd = pyphen.HyphDict(pyphen.LANGUAGES["de"])
    assert [lazy.positions(word) for word in words] == [eager.positions(word) for word in words]
    assert [lazy.inserted(word) for word in words] == [eager.inserted(word) for word in words]
