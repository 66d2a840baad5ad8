"""The allowed range of every number a layout, a drawing or a symbol gives the renderer.

A number outside these ranges is never art, only a typo or an attack: a lattice step of
0 never finishes drawing, 10^8 stripes or star points take hours, a text size of 10^9
shrinks in 0.25 pt steps for ever, a dash of [0] makes reportlab raise.  The same
tables serve ``cardgen validate`` (:mod:`cardgen.cards.layoutcheck`, every problem at
its line) and the build (:func:`cardgen.cards.layout.load_layout` refuses the layout at
the line of its first problem; drawings check their parameters again as they draw, since
a parameter may be a placeholder filled in per card), so a build never hangs even when
validate was skipped.  Nothing here imports reportlab.
"""

from __future__ import annotations

import math
from typing import Any, Iterator, Mapping

from cardgen.errors import RenderError

#: (drawing, parameter) -> (lowest, highest); steps and sizes in mm, widths in pt.
DRAWING_RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("lattice", "step"): (0.2, 1000), ("lattice", "width"): (0, 100),
    ("scatter", "step"): (0.2, 1000), ("scatter", "size"): (0.01, 1000),
    ("seats", "rows"): (1, 500), ("stripes", "count"): (1, 1000),
    ("pips", "size"): (0.01, 1), ("pips", "ace_size"): (0.01, 1),
}

#: Element attribute -> (lowest, highest): text sizes in pt, widths, radii and the safe zone in mm.
ELEMENT_RANGES: dict[str, tuple[float, float]] = {
    "size": (0.5, 500), "min_size": (0.5, 500), "leading": (0.5, 5), "max_lines": (0, 1000),
    "width": (0, 50), "radius": (0, 1000),
}
SAFE_MM_RANGE = (0.0, 100.0)
TEXT_ALIGNS = ("left", "center", "right")
#: Pixels of a crop box: no image cardgen reads is wider (see cardgen.content.images.MAX_PIXELS).
MAX_IMAGE_SIDE = 100_000
MAX_DASH_ITEMS = 16
MAX_DASH = 1000.0
MAX_LINE_POINTS = 10_000
#: Numbers of a symbol's shapes (view-box units); bigger ones are typos and make PDFs absurd.
MAX_SHAPE_NUMBER = 1e6
STAR_POINTS = (2, 1000)
SHAPE_TEXT_SIZE = (0.01, 1e4)
SHAPE_WIDTH = (0.0, 1e4)


def out_of_range(value: Any, low: float, high: float) -> bool:
    """Whether ``value`` is no number from ``low`` to ``high`` (NaN, text and booleans are not)."""
    if isinstance(value, bool):
        return True
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return True
    return not low <= number <= high  # False for NaN too


def _short(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def drawing_number(drawing: str, key: str, value: Any) -> float:
    """``value`` of parameter ``key`` of built-in drawing ``drawing`` as a float, checked at draw time."""
    problem = drawing_param_problem(drawing, key, value)
    if problem is not None:
        raise RenderError(problem)
    return float(value)


def drawing_param_problem(drawing: str, key: str, value: Any) -> str | None:
    limits = DRAWING_RANGES.get((drawing, key))
    if limits is None or not out_of_range(value, *limits):
        return None
    low, high = limits
    return f"drawing '{drawing}': '{key}' must be a number from {low:g} to {high:g}, found {_short(value)}"


def dash_problem(dash: Any) -> str | None:
    """What is wrong with a dash pattern (a list of lengths, not all zero), or None."""
    if dash is None or dash == []:
        return None
    if not isinstance(dash, list) or len(dash) > MAX_DASH_ITEMS:
        return f"dash is a list of at most {MAX_DASH_ITEMS} lengths, found {_short(dash)}"
    if any(out_of_range(v, 0, MAX_DASH) for v in dash):
        return f"dash lengths are numbers from 0 to {MAX_DASH:g}, found {_short(dash)}"
    if sum(float(v) for v in dash) <= 0:
        return f"a dash pattern needs a length greater than 0, found {_short(dash)}"
    return None


def element_problems(el, *, params: bool = True) -> Iterator[tuple[tuple, str]]:
    """(attribute path, message) for each number of layout element ``el`` out of its range.

    ``params``: also the drawing parameters written as plain numbers (validate checks them
    card by card instead, with placeholders filled in).
    """
    for name, (low, high) in ELEMENT_RANGES.items():
        value = getattr(el, name, None)
        if value is None or (name in ("size", "min_size", "leading", "max_lines") and el.type != "text"):
            continue
        if out_of_range(value, low, high):
            unit = "pt" if name in ("size", "min_size") else "" if name in ("leading", "max_lines") else "mm"
            yield (name,), f"'{name}' must be a number from {low:g} to {high:g}{' ' + unit if unit else ''}, " \
                           f"found {_short(value)}"
    if el.type == "text" and el.min_size is not None and not out_of_range(el.min_size, *ELEMENT_RANGES["min_size"]) \
            and not out_of_range(el.size, *ELEMENT_RANGES["size"]) and el.min_size > el.size:
        yield ("min_size",), f"'min_size' {el.min_size:g} pt is larger than 'size' {el.size:g} pt"
    problem = dash_problem(el.dash)
    if problem is not None:
        yield ("dash",), problem
    yield from image_problems(el)
    if el.points is not None and len(el.points) > MAX_LINE_POINTS:
        yield ("points",), f"a line has at most {MAX_LINE_POINTS:,} numbers, found {len(el.points):,}"
    for key, value in el.params.items() if params else ():
        if el.draw is not None and "{" not in str(value):
            problem = drawing_param_problem(el.draw, key, value)
            if problem is not None:
                yield ("params", key), problem


def image_problems(el) -> Iterator[tuple[tuple, str]]:
    """(attribute path, message) for what an image element (or a text's alignment) cannot mean."""
    if el.type == "text" and el.align not in TEXT_ALIGNS:
        yield ("align",), f"text is aligned {', '.join(TEXT_ALIGNS)}, found '{el.align}' (that is for images)"
    if el.type != "image":
        for name in ("src", "focus", "crop", "bleed"):
            if name in el.model_fields_set:
                yield (name,), f"'{name}' is for image elements (type: image), not {el.type}"
        return
    if el.focus is not None and any(out_of_range(v, 0, 1) for v in el.focus):
        yield ("focus",), f"'focus' is [x, y], each a number from 0 to 1, found {_short(el.focus)}"
    if el.crop is not None:
        x, y, w, h = el.crop
        if any(out_of_range(v, 0, MAX_IMAGE_SIDE) for v in el.crop) or w < 1 or h < 1:
            yield ("crop",), (f"'crop' is [x, y, width, height] in pixels (0 to {MAX_IMAGE_SIDE:,}, width and "
                              f"height at least 1), found {_short(el.crop)}")
    if el.bleed and "box" in el.model_fields_set:
        yield ("box",), "an image with 'bleed: true' fills the card to its bleed: give no 'box'"
    if el.focus is not None and el.fit not in (None, "cover"):
        yield ("focus",), f"'focus' chooses what a cover image shows; this image is fit '{el.fit}' (use 'align')"


def shape_problems(shape: Mapping[str, Any]) -> Iterator[tuple[tuple, str]]:
    """(key, message) for each number of one symbol shape out of its range (not its children)."""
    for key, value in shape.items():
        if key in ("group", "params", "text", "use", "font", "anchor", "cap", "fill", "stroke", "path", "evenodd",
                   "dash"):
            continue
        values = value if isinstance(value, list) else [value]
        if any(not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v)
               or abs(v) > MAX_SHAPE_NUMBER for v in values):
            yield (key,), f"'{key}' takes numbers from -{MAX_SHAPE_NUMBER:g} to {MAX_SHAPE_NUMBER:g}, " \
                          f"found {_short(value)}"
    star = shape.get("star")
    if isinstance(star, list) and len(star) == 5 and out_of_range(star[4], *STAR_POINTS):
        yield ("star",), f"a star has {STAR_POINTS[0]} to {STAR_POINTS[1]} points, found {_short(star[4])}"
    if "width" in shape and out_of_range(shape["width"], *SHAPE_WIDTH):
        yield ("width",), f"'width' must be a number from {SHAPE_WIDTH[0]:g} to {SHAPE_WIDTH[1]:g}, " \
                          f"found {_short(shape['width'])}"
    if "text" in shape and "size" in shape and out_of_range(shape["size"], *SHAPE_TEXT_SIZE):
        yield ("size",), f"text 'size' must be a number from {SHAPE_TEXT_SIZE[0]:g} to {SHAPE_TEXT_SIZE[1]:g}, " \
                         f"found {_short(shape['size'])}"
    problem = dash_problem(shape.get("dash"))
    if problem is not None:
        yield ("dash",), problem


def layout_problems(layout, *, params: bool = True) -> Iterator[tuple[tuple, str]]:
    """(path in the layout, message) for every number of ``layout`` out of range."""
    if out_of_range(layout.safe_mm, *SAFE_MM_RANGE):
        yield ("safe_mm",), f"'safe_mm' must be a number from {SAFE_MM_RANGE[0]:g} to {SAFE_MM_RANGE[1]:g}, " \
                            f"found {_short(layout.safe_mm)}"
    for side in ("faces", "backs"):
        for index, entry in enumerate(getattr(layout, side)):
            for j, element in enumerate(entry.elements):
                for where, message in element_problems(element, params=params):
                    yield (side, index, "elements", j) + where, message
    for name, elements in layout.parts.items():
        for j, element in enumerate(elements):
            for where, message in element_problems(element, params=params):
                yield ("parts", name, j) + where, message
    for name, symbol in layout.symbols.items():
        base = symbol_base(layout, name)
        if out_of_range(symbol.viewbox[0], 1e-6, MAX_SHAPE_NUMBER) or \
                out_of_range(symbol.viewbox[1], 1e-6, MAX_SHAPE_NUMBER):
            yield ("symbols", name), f"symbol '{name}': the viewbox must be greater than 0 (at most " \
                                     f"{MAX_SHAPE_NUMBER:g}), found {list(symbol.viewbox)}"
        for where, shape in shapes_with_paths(symbol.shapes, base):
            for key, message in shape_problems(shape):
                yield where + key, f"symbol '{name}': {message}"
    from cardgen.content import budgets

    yield from budgets.layout_problems(layout)  # the products of 'use:' fan-outs: counted, never drawn


def symbol_base(layout, name: str) -> tuple:
    """Where the shapes of symbol ``name`` are: its list, or the ``shapes`` of its {viewbox, shapes}."""
    where = ("symbols", name)
    doc = layout.documents.get(layout.origins.get(where, layout.path))
    data = (doc.data.get("symbols") or {}).get(name) if doc is not None and isinstance(doc.data, dict) else None
    return where if isinstance(data, list) or data is None else where + ("shapes",)


def shapes_with_paths(shapes, where: tuple) -> Iterator[tuple[tuple, Mapping[str, Any]]]:
    for index, shape in enumerate(shapes):
        yield where + (index,), shape
        if isinstance(shape, Mapping) and isinstance(shape.get("group"), list):
            yield from shapes_with_paths(shape["group"], where + (index, "group"))
