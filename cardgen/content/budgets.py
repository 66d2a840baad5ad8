"""Budgets: how much work a few lines of content may ask for, known before any of it is done.

Every number a user writes has a range, but ranges multiply.  A generator of 9,900 cards with
``copies: 1000`` is inside both of its caps and asks for ten million cards; nine symbols each
using the next ten times, inside the nesting depth, are a 6 KB layout of 10⁸ shapes.  Neither
is a mistake any single value shows, so neither range catches it; what catches it is the
product, counted from the content before a card is checked or drawn:

* a deck's **card faces**: physical cards (designs × copies) × languages, for one game;
* a symbol's **shapes**: its own shapes plus, for each ``use:``, every shape of the symbol it
  uses, all the way down; and a layout entry's: every shape its elements draw on one card.

Each has one cap here, far above what a real game needs (the bundled games print 90-100
cards in three languages, their biggest symbol is a few dozen shapes), and an error that
names the line and the figure.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

#: Physical cards × languages of one game: 50,000 faces is a 5,000-card game in ten languages.
MAX_CARD_FACES = 50_000
#: Shapes one symbol draws, ``use:`` expanded; a card's whole layout is a few hundred.
MAX_SYMBOL_SHAPES = 20_000
#: Shapes one layout entry draws on each card (its parts' elements and its own, symbols expanded).
MAX_FACE_SHAPES = 100_000
#: As deep as the renderer follows ``use:`` (cardgen.cards.shapes): deeper is its own error.
MAX_USE_DEPTH = 8


def card_faces(copies_by_entry: Iterable[tuple[Any, int]], languages: int) -> tuple[int, Any, int] | None:
    """``(faces, entry, its cards)`` when a deck is over budget, else None.

    ``copies_by_entry``: each card's entry of cards.yaml (whatever names it: an index) and its
    copies.  ``entry`` is the one that prints most, the line to show.
    """
    by_entry: dict[Any, int] = {}
    for entry, copies in copies_by_entry:
        by_entry[entry] = by_entry.get(entry, 0) + max(int(copies), 0)
    faces = sum(by_entry.values()) * max(languages, 1)
    if faces <= MAX_CARD_FACES:
        return None
    biggest = max(by_entry, key=lambda entry: by_entry[entry])
    return faces, biggest, by_entry[biggest]


def symbol_shapes(symbols: Mapping[str, Any]) -> dict[str, int]:
    """How many shapes drawing each symbol draws, every ``use:`` expanded (memoised: linear in
    the layout's size, however wide the fan-out).  ``symbols``: name -> its list of shapes (or
    an object with ``.shapes``).  A ``use:`` whose name takes a parameter (``suit-{suit}``)
    counts as the biggest symbol its name can be; one nested deeper than the renderer follows,
    or in a loop, counts nothing here (the layout checks report those)."""
    shapes = {name: getattr(symbol, "shapes", symbol) for name, symbol in symbols.items()}
    sizes: dict[tuple[str, int], int] = {}

    def size(name: str, depth: int) -> int:
        if depth > MAX_USE_DEPTH or name not in shapes:
            return 0
        key = (name, depth)
        if key not in sizes:
            sizes[key] = 0  # a loop meanwhile counts nothing
            sizes[key] = min(_count(shapes[name], depth), MAX_SYMBOL_SHAPES * 1000)
        return sizes[key]

    def used(name: str, depth: int) -> int:
        return max((size(other, depth) for other in _named(name, shapes)), default=0)

    def _count(items: Any, depth: int) -> int:
        total = 0
        for shape in items if isinstance(items, (list, tuple)) else ():
            total += 1
            if not isinstance(shape, Mapping):
                continue
            if isinstance(shape.get("group"), (list, tuple)):
                total += _count(shape["group"], depth)
            if "use" in shape:
                total += used(str(shape["use"]), depth + 1)
        return total

    return {name: size(name, 0) for name in shapes}


def _named(name: str, symbols: Mapping[str, Any]) -> list[str]:
    """The symbols a name may mean: itself, or with ``{param}`` in it, every symbol it can become."""
    if "{" not in name:
        return [name] if name in symbols else []
    pattern = re.compile(re.sub(r"\\\{[^}]*\\\}", ".*", re.escape(name)))
    return [other for other in symbols if pattern.fullmatch(other)]


def _shown(count: int) -> str:
    return f"{count:,}" if count < MAX_SYMBOL_SHAPES * 1000 else f"more than {MAX_SYMBOL_SHAPES * 1000:,}"


def layout_problems(layout: Any) -> Iterable[tuple[tuple, str]]:
    """(path in the layout, message) for each symbol over :data:`MAX_SYMBOL_SHAPES` and each entry
    of ``faces``/``backs`` over :data:`MAX_FACE_SHAPES`.  ``layout``: a loaded layout (its
    ``symbols``, ``parts``, ``faces`` and ``backs``)."""
    sizes = symbol_shapes(layout.symbols)
    for name, count in sizes.items():
        if count > MAX_SYMBOL_SHAPES:
            yield ("symbols", name), (f"symbol '{name}' draws {_shown(count)} shapes with its 'use:' expanded (at "
                                      f"most {MAX_SYMBOL_SHAPES:,}): symbols that each use the next several times "
                                      "multiply")
    if any(count > MAX_SYMBOL_SHAPES for count in sizes.values()):
        return  # the entries drawing them say nothing more

    def drawn(element: Any) -> int:
        names = [getattr(element, "draw", None), (getattr(element, "params", None) or {}).get("symbol")]
        found = [sizes[name] for value in names if isinstance(value, str) for name in _named(value, sizes)]
        return max(found, default=1)

    for side in ("faces", "backs"):
        for index, entry in enumerate(getattr(layout, side)):
            elements = [el for part in entry.use for el in layout.parts.get(part, ())] + list(entry.elements)
            total = sum(drawn(element) for element in elements)
            if total > MAX_FACE_SHAPES:
                yield (side, index), (f"this entry draws {_shown(total)} shapes on each card, symbols expanded (at "
                                      f"most {MAX_FACE_SHAPES:,}): draw the big symbols fewer times")


__all__ = ["MAX_CARD_FACES", "MAX_FACE_SHAPES", "MAX_SYMBOL_SHAPES", "card_faces", "layout_problems",
           "symbol_shapes"]
