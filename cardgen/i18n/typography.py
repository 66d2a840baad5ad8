"""Typesetting rules of a language that the text itself must carry (the rulebook's HTML).

* Polish, Czech and Slovak typesetting keeps a one-letter word (w, z, i, a, o, u; Czech and
  Slovak also k, s, v) off the end of a line; Russian does the same with its one-letter
  prepositions and conjunctions (в, к, с, у, о, и, а, я).  A no-break space after the word
  binds it to the next one.
* French puts a narrow no-break space (U+202F) before ``: ; ! ?`` and inside guillemets
  (« … »), whatever space (or none) the translator typed there.

* German sets quotations in „…“, and a quotation inside one in ‚…‘ (:func:`quotes`): a text
  that quotes with straight quotes ("…", '…' inside), guillemets (« », ‹ › as the Russian
  source does) or English curly quotes prints German ones.  An apostrophe (``Ballon d'Or``,
  ``geht's``) stays.  Swiss and Liechtenstein German keep their guillemets.

Names of people and cards are never hyphenated: that is the stylesheet's work
(``hyphens: manual`` on references and card names, ``templates/rulebook/rulebook.css``).
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


#: language -> (outer opening, outer closing, inner opening, inner closing) quotation marks
QUOTES = {
    "de": ("\u201e", "\u201c", "\u201a", "\u2018"),  # „…“ and ‚…‘
}
#: regions of a language that quote otherwise (Swiss German: « » and ‹ ›, left as written)
_QUOTE_EXCEPTIONS = {("de", "CH"), ("de", "LI")}
_DOUBLE = '"\u201c\u201d'  # straight, English opening and closing: which one, the context tells
_OPENERS = {"\u00ab": 2, "\u201e": 2, "\u2039": 1, "\u201a": 1}  # « „ ‹ ‚ always open
_CLOSERS = {"\u00bb": 2, "\u203a": 1}  # » › always close
_BEFORE_OPENING = " \t\n\u00a0\u202f([{/\u2013\u2014-" + "".join(_OPENERS)


def quotes(text: str, language: str) -> str:
    """``text`` with ``language``'s quotation marks (:data:`QUOTES`); the same ``text`` for a
    language that has none listed.  One character for one, so pieces of a text keep their length."""
    parts = language.replace("_", "-").split("-")
    marks = QUOTES.get(parts[0].lower())
    if marks is None or (parts[0].lower(), parts[-1].upper()) in _QUOTE_EXCEPTIONS:
        return text
    out = list(text)
    stack: list[int] = []  # the kinds open: 2 double, 1 single (which marks depend on the depth)

    def opening(kind: int, index: int) -> None:
        out[index] = marks[0] if len(stack) % 2 == 0 else marks[2]
        stack.append(kind)

    def closing(kind: int, index: int) -> None:
        if kind in stack:
            while stack[-1] != kind:  # a quotation left open inside this one ends with it
                stack.pop()
            stack.pop()
            out[index] = marks[1] if len(stack) % 2 == 0 else marks[3]

    for index, char in enumerate(text):
        before = text[index - 1] if index else " "
        after = text[index + 1] if index + 1 < len(text) else " "
        if char in _OPENERS:
            opening(_OPENERS[char], index)
        elif char in _CLOSERS:
            closing(_CLOSERS[char], index)
        elif char in _DOUBLE:
            if char != "\u201d" and before in _BEFORE_OPENING and not after.isspace():
                opening(2, index)
            else:
                closing(2, index)
        elif char in "'\u2018\u2019":
            # a single quote only at a word's edge inside a quotation; else an apostrophe
            if char != "\u2019" and before in _BEFORE_OPENING and after.isalnum() and stack:
                opening(1, index)
            elif not after.isalnum() and 1 in stack and not before.isspace():
                closing(1, index)
    return "".join(out)


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


__all__ = ["NARROW_NBSP", "NBSP", "ONE_LETTER_WORDS", "QUOTES", "one_letter_rule", "quotes", "tidy"]
