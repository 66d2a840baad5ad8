"""Typesetting rules of a language that the text itself must carry (the rulebook's HTML).

* Polish, Czech and Slovak typesetting keeps a one-letter word (w, z, i, a, o, u; Czech and
  Slovak also k, s, v) off the end of a line; Russian does the same with its one-letter
  prepositions and conjunctions (в, к, с, у, о, и, а, я).  A no-break space after the word
  binds it to the next one.
* French puts a narrow no-break space (U+202F) before ``: ; ! ?`` and inside guillemets
  (« … »), whatever space (or none) the translator typed there.

Names of people and cards are never hyphenated: that is the stylesheet's work
(``hyphens: manual`` on references and card names, ``templates/rulebook/rulebook.css``).
German quotation marks are the translator's: „…“ is what the bundled translations write, and
replacing straight quotes would guess wrong inside a name.
"""

from __future__ import annotations

import re

NBSP = "\u00a0"
NARROW_NBSP = "\u202f"

#: language -> the one-letter words that must not end a line
ONE_LETTER_WORDS = {
    "pl": "wzioauWZIOAU",
    "cs": "ksvzouaiKSVZOUAI",
    "sk": "ksvzouaiKSVZOUAI",
    "ru": "вксуоиаяВКСУОИАЯ",
}


def _base(language: str) -> str:
    return language.replace("_", "-").split("-", 1)[0].lower()


def one_letter_rule(language: str) -> re.Pattern | None:
    letters = ONE_LETTER_WORDS.get(_base(language))
    if letters is None:
        return None
    # a word of one letter: not preceded by a letter, a digit or a hyphen (so "u-bahn" and
    # "x-ray" stay), followed by ordinary spaces
    return re.compile(rf"(?<![\w\-\u00ad])([{letters}]) +")


_FRENCH_BEFORE = re.compile(r"[ \u00a0\u202f]*([:;!?»])")
_FRENCH_AFTER = re.compile(r"(«)[ \u00a0\u202f]*")


def tidy(text: str, language: str) -> str:
    """``text`` with ``language``'s no-break spaces put in (plain text, before escaping)."""
    rule = one_letter_rule(language)
    if rule is not None:
        # twice: "i w domu" has two one-letter words in a row and the first match eats the space
        text = rule.sub(rf"\1{NBSP}", rule.sub(rf"\1{NBSP}", text))
    if _base(language) == "fr":
        text = _FRENCH_BEFORE.sub(lambda m: _french_before(m, text), text)
        text = _FRENCH_AFTER.sub(rf"\1{NARROW_NBSP}", text)
    return text


def _french_before(match: re.Match, text: str) -> str:
    mark = match[1]
    start = match.start()
    if start == 0 or text[start - 1] in " \n":
        return match[0]  # the text starts with the mark (a continued piece): nothing to bind
    if mark == ":" and (start + 1 < len(text) and text[start + 1].isdigit()) and text[start - 1].isdigit():
        return match[0]  # a time or a score, 2:1
    if mark in "!?" and match[0] == mark and text[start - 1] in "!?":
        return match[0]  # "?!" stays together
    return f"{NARROW_NBSP}{mark}"


__all__ = ["NARROW_NBSP", "NBSP", "ONE_LETTER_WORDS", "one_letter_rule", "tidy"]
