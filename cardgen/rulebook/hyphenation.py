"""Hyphenation dictionaries that parse a pattern when a word needs it, not all at load.

WeasyPrint hyphenates with :mod:`pyphen`, whose ``HyphDict`` parses every pattern of a
dictionary when it loads: 0.8 s of one core for German (66,000 patterns), paid again by
every worker process that lays out a German rulebook -- a third of an incremental build
after one German text changed.  A rulebook looks up a few thousand of those patterns.

:class:`LazyHyphDict` reads the file once and files each pattern under its key (the
pattern without its digits, a C-speed ``translate``); the digits are parsed the first
time a word looks the key up, by pyphen's own code for one line.  Lines that pyphen
treats specially (``^^hh`` escapes, nonstandard ``/`` alternatives, digits other than
ASCII ones) are parsed at once the same way, so the patterns, the longest key and hence
every hyphenation point are exactly pyphen's (``tests/test_rulebook_hyphenation.py``
compares every dictionary pyphen ships).
"""

from __future__ import annotations

import re
from pathlib import Path

import pyphen

_ASCII_DIGITS = str.maketrans("", "", "0123456789")
_NONZERO = re.compile(r"[1-9]").search
_SPECIAL = re.compile(r"\^\^|/|(?![0-9])\d").search  # what pyphen parses in a way of its own
_OTHER_DIGIT = re.compile(r"(?![0-9])\d").search
_NONZERO_LINES = re.compile(r"^[^\n]*[1-9][^\n]*$", re.M).findall  # the lines that can hold a pattern


def _parse_line(pattern: str):
    """pyphen's parse of one stripped pattern line: (key, (start, values)), or None for a
    line of zeros only (``pyphen.HyphDict.__init__``, one iteration of its loop)."""
    pattern = pyphen.parse_hex(lambda match: chr(int(match.group(1), 16)), pattern)
    if "/" in pattern and "=" in pattern:
        pattern, alternative = pattern.split("/", 1)
        factory = pyphen.AlternativeParser(pattern, alternative)
    else:
        factory = int
    tags, values = zip(*[(string, factory(i or "0")) for i, string in pyphen.parse(pattern)])
    if max(values) == 0:
        return None
    start, end = 0, len(values)
    while not values[start]:
        start += 1
    while not values[end - 1]:
        end -= 1
    return "".join(tags), (start, values[start:end])


class _LazyPatterns(dict):
    """key -> (start, values), holding the raw line of a key until it is first looked up."""

    def get(self, key, default=None):
        found = dict.get(self, key, default)
        if isinstance(found, str):
            found = _parse_line(found)[1]
            self[key] = found
        return found

    def __getitem__(self, key):
        return self.get(key) if key in self else dict.__getitem__(self, key)

    def materialised(self) -> dict:
        """Every pattern parsed (for comparison with pyphen's)."""
        return {key: self.get(key) for key in list(self)}


class LazyHyphDict(pyphen.HyphDict):
    """A ``pyphen.HyphDict`` (same ``positions``) whose patterns are parsed on first use."""

    def __init__(self, path: Path):
        path = Path(path)
        with path.open("rb") as handle:
            encoding = handle.readline().decode()
        if encoding.lower() == "microsoft-cp1251":
            encoding = "cp1251"
        body = path.read_text(encoding).partition("\n")[2]
        self.patterns = _plain_patterns(body)
        if self.patterns is None:
            self.patterns = _patterns(body.split("\n"))
        self.cache = {}
        self.maxlen = max(len(key) for key in self.patterns)


def _plain_patterns(body: str) -> _LazyPatterns | None:
    """The patterns of a dictionary whose pattern lines are plain (ASCII digits, nothing
    that pyphen decodes), found with whole-text operations; None for any other dictionary."""
    if _OTHER_DIGIT(body):  # a line with only such digits is a pattern too
        return None
    lines = [line for line in (line.strip() for line in _NONZERO_LINES(body)) if not line.startswith(pyphen.ignored)]
    joined = "\n".join(lines)
    if _SPECIAL(joined):
        return None
    # ASCII digits are single bytes in UTF-8, deleted there at C speed (str.translate is not)
    keys = joined.encode("utf-8").translate(None, b"0123456789").decode("utf-8").split("\n")
    return _LazyPatterns(zip(keys, lines))  # in file order: a later line of a key wins, as in pyphen


def _patterns(lines: list[str]) -> _LazyPatterns:
    """The patterns of any dictionary, line by line as pyphen reads them."""
    patterns = _LazyPatterns()
    for line in lines:
        line = line.strip()
        if not line or line.startswith(pyphen.ignored):
            continue
        if _SPECIAL(line):
            parsed = _parse_line(line)
            if parsed is not None:
                patterns[parsed[0]] = parsed[1]
        elif _NONZERO(line):  # a line of zeros adds no pattern
            patterns[line.translate(_ASCII_DIGITS)] = line
    return patterns


def prepare(languages) -> None:
    """Put a lazily parsed dictionary of each language (HTML ``lang`` codes) in pyphen's
    cache of loaded dictionaries, where WeasyPrint's ``pyphen.Pyphen(lang=...)`` finds it;
    a language already loaded, or without a dictionary, is left alone."""
    for language in languages:
        name = pyphen.language_fallback(language)
        if name is None:
            continue
        path = pyphen.LANGUAGES[name]
        if path not in pyphen.hdcache:
            pyphen.hdcache[path] = LazyHyphDict(path)
