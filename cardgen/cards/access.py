"""Can every player read the cards and tell them apart?  Three checks on a game's card plans.

The plans are what :class:`~cardgen.cards.card.CardRenderer` draws (colours resolved, text fitted),
so the checks see what prints, in every language:

* **colour vision** (:func:`vision_pairs`) -- for every pair of things a player must tell apart
  (groups, the kinds of a group, backs, and the values of an attribute a layout maps to colours,
  such as a suit or a position), the colours printed at the same place on both (a frame, a band, a
  text) compared by CIEDE2000 under normal vision and simulated protanopia, deuteranopia and
  tritanopia (:mod:`cardgen.color.vision`).  A pair whose best difference is under the layout's
  ``accessibility.color_difference`` (10) is a warning, unless the plans print a non-colour cue:
  a text or drawing every card of one side carries and no card of the other does (a group's
  label, a symbol).  A pair printed in the very same colours is told apart by other means
  (or not meant to be): colour is not its cue, so it is not measured.
* **contrast** (:func:`contrast_findings`) -- every text, and every text inside a symbol of the
  layout, against each colour behind its centre: the topmost fill or filled rectangle, and above
  it any drawing with a colour parameter (a cloud, stripes) and any picture (its darkest and
  lightest tenth where the text sits); the WCAG 2.x ratio under 4.5:1, or 3:1 for large text
  (18 pt, 14 pt bold), is a warning.
* **text size** (:func:`size_findings`) -- a text element whose ``min_size`` lets it shrink under
  ``accessibility.smallest_text_pt`` (6), and any text fitted under it, or body text (a card's field
  on several lines) fitted under ``accessibility.body_text_pt`` (8).

:func:`access_warnings` runs the three for ``cardgen validate``; each warning names the layout line,
the card, the language and the figure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Iterator

from cardgen.color.vision import VISIONS, contrast_ratio, delta_e2000, hex_of, required_ratio
from cardgen.errors import CardgenError, ContentError, Locator, RenderError
from cardgen.cards.layout import hex_color

#: Drawing parameters whose colour covers the drawing's box (what is behind a text drawn over it).
BACKGROUND_PARAMS = ("background", "paper", "color", "colors")
#: Drawing parameters that are colours (as cardgen.cards.layoutcheck knows them).
COLOUR_PARAMS = ("color", "colors", "paper", "accent", "grass", "stripe", "background", "shirt")
_HEX = re.compile(r"#[0-9a-f]{6}")


@dataclass
class Side:
    """One planned face or back in one language, with the layout element of each op."""

    label: str  # card id, or "back <id>"
    lang: str
    ops: tuple
    sources: tuple  # (where, Element) per op
    card: Any = None  # the content card of a face
    back: str | None = None


def planned_sides(game, templates_dir=None) -> Iterator[Side]:
    """Every face and back of ``game`` in every language, as the renderer plans them.

    A card whose plan fails (an overflowing text, a missing glyph ...) is left out: the layout
    check and the build report those.
    """
    from cardgen.cards.card import CardRenderer

    for lang in game.meta.languages:
        try:
            renderer = CardRenderer(game, lang, templates_dir, strict=False)
        except CardgenError:
            return
        for card in game.cards:
            try:
                plan = renderer.face(card)
            except CardgenError:
                continue
            yield Side(card.id, lang, plan.ops, renderer.op_sources[plan.label], card=card)
        for back in game.meta.backs:
            try:
                plan = renderer.back(back.id)
            except CardgenError:
                continue
            yield Side(f"back {back.id}", lang, plan.ops, renderer.op_sources[plan.label], back=back.id)


# --- what a side prints: colours by place, and the marks that are not colour ---------------------------

def _colour(value: Any, named: dict) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        found = hex_color(value, named)
    except RenderError:
        return None
    return found if found and _HEX.fullmatch(found) else None


def colour_roles(side: Side, named: dict) -> dict[tuple, str]:
    """Place on the card -> colour printed there (a fill, a rectangle's fill or stroke, a text ...)."""
    roles: dict[tuple, str] = {}
    for op in side.ops:
        kind = op[0]
        if kind == "fill":
            roles[("fill",)] = op[1]
        elif kind == "rect":
            if op[2]:
                roles[("rect", op[1], "fill")] = op[2]
            if op[3]:
                roles[("rect", op[1], "stroke")] = op[3]
        elif kind == "line":
            roles[("line", op[1])] = op[2]
        elif kind == "text":
            roles[("text", op[1])] = op[6]
        elif kind == "draw":
            for key, value in op[3]:
                for k, item in enumerate(value if isinstance(value, list) else [value]):
                    colour = _colour(item, named)
                    if colour is not None:
                        roles[("draw", op[2], key, k)] = colour
    return roles


def marks(side: Side) -> set[tuple]:
    """What a side prints that is not a colour: its texts, the drawings and pictures it names."""
    found = set()
    for op in side.ops:
        if op[0] == "text":
            found.add(("text", " ".join(op[2])))
        elif op[0] == "draw":
            found.add(("draw", op[1]))
        elif op[0] == "image":
            found.add(("image", op[1]))
    return found


# --- colour vision --------------------------------------------------------------------------------------

@dataclass
class VisionPair:
    """Two things a player must tell apart, and how far apart their colours look."""

    what: str  # "group", "kind of group X", "back", "attribute position"
    first: str
    second: str
    figures: dict[str, float]  # vision -> best ΔE00 over the places printed in different colours
    colours: dict[str, tuple[str, str]]  # vision -> the two colours (normal vision) giving that figure
    cue: str | None  # a non-colour mark telling them apart in every language, or None
    languages_without_cue: list[str] = field(default_factory=list)

    @property
    def worst(self) -> tuple[str, float]:
        vision = min(self.figures, key=lambda v: (self.figures[v], VISIONS.index(v)))
        return vision, self.figures[vision]


def _classes(game, layout, faces: list[Side], backs: list[Side]) -> Iterator[tuple[str, dict[str, list[Side]]]]:
    """(what, value -> sides) for every set of things a player must tell apart."""
    by_group: dict[str, list[Side]] = {}
    for side in faces:
        by_group.setdefault(side.card.group, []).append(side)
    yield "group", by_group
    for group in game.meta.groups:
        if len(group.kinds) > 1:
            kinds: dict[str, list[Side]] = {}
            for side in by_group.get(group.id, []):
                if side.card.kind:
                    kinds.setdefault(side.card.kind, []).append(side)
            yield f"kind of group {group.id}", kinds
    by_back: dict[str, list[Side]] = {}
    for side in backs:
        by_back.setdefault(side.back, []).append(side)
    yield "back", by_back
    for attr in sorted(mapped_attributes(layout)):
        values: dict[str, list[Side]] = {}
        for side in faces:
            if attr in side.card.attrs:
                values.setdefault(str(side.card.attrs[attr]), []).append(side)
        yield f"attribute {attr}", values


def mapped_attributes(layout) -> set[str]:
    """Attributes a layout turns into colours through a map (``"{attrs.suit|map:suit_color}"``)."""
    found: set[str] = set()
    elements = [el for part in layout.parts.values() for el in part]
    elements += [el for entry in [*layout.faces, *layout.backs] for el in entry.elements]
    for el in elements:
        texts = [el.fill, el.stroke, el.color if el.type == "text" else None]
        for key, value in el.params.items():
            if key in COLOUR_PARAMS:
                texts += value if isinstance(value, list) else [value]
        for text in texts:
            if isinstance(text, str):
                found.update(re.findall(r"\{\s*attrs\.([\w-]+)\s*\|[^}]*map:", text))
    return found


def _constant(values: list) -> Any:
    return values[0] if values and all(v == values[0] for v in values) else None


def vision_pairs(game, layout, sides: list[Side]) -> list[VisionPair]:
    """Every pair of things to tell apart whose printed colours differ, with its figures."""
    named = layout.colors
    faces = [s for s in sides if s.card is not None]
    backs = [s for s in sides if s.back is not None]
    roles_of = {id(s): colour_roles(s, named) for s in sides}
    marks_of = {id(s): marks(s) for s in sides}
    pairs = []
    for what, classes in _classes(game, layout, faces, backs):
        for first, second in combinations(sorted(classes), 2):
            a, b = classes[first], classes[second]
            differing = _differing_colours(a, b, roles_of)
            if not differing:
                continue
            figures, which = {}, {}
            for vision in VISIONS:
                best = max(differing, key=lambda pair: delta_e2000(*pair, vision))
                figures[vision] = round(delta_e2000(*best, vision), 1)
                which[vision] = best
            cue, missing = _cue(a, b, marks_of, game.meta.languages)
            pairs.append(VisionPair(what, first, second, figures, which, cue, missing))
    return pairs


def _differing_colours(a: list[Side], b: list[Side], roles_of: dict) -> list[tuple[str, str]]:
    """(colour on a, colour on b) of each place every card of a and of b prints in one colour each."""
    shared = set.intersection(*(set(roles_of[id(s)]) for s in a + b))
    found = []
    for role in sorted(shared, key=repr):
        ca = _constant([roles_of[id(s)][role] for s in a])
        cb = _constant([roles_of[id(s)][role] for s in b])
        if ca is not None and cb is not None and ca != cb:
            found.append((ca, cb))
    return found


def _cue(a: list[Side], b: list[Side], marks_of: dict, languages) -> tuple[str | None, list[str]]:
    """A mark on every card of one side and on none of the other, in every language."""
    cue, missing = None, []
    for lang in languages:
        sa = [marks_of[id(s)] for s in a if s.lang == lang]
        sb = [marks_of[id(s)] for s in b if s.lang == lang]
        if not sa or not sb:
            continue
        found = None
        for mine, theirs in ((sa, sb), (sb, sa)):
            only = set.intersection(*mine) - set.union(*theirs)
            if only:
                found = sorted(only)[0]
                break
        if found is None:
            missing.append(lang)
        elif cue is None:
            cue = f"{found[0]} '{found[1]}'"
    return (None if missing else cue), missing


def vision_warnings(pairs: list[VisionPair], threshold: float, game, layout) -> list[ContentError]:
    warnings = []
    for pair in pairs:
        if pair.what.startswith("attribute"):  # the colours come from a map of the layout
            locator = Locator(file=layout.path, field="maps")
        else:
            locator = Locator(file=game.root / "game.yaml", field="backs" if pair.what == "back" else "groups")
        vision, figure = pair.worst
        if figure >= threshold or pair.cue is not None:
            continue
        ca, cb = pair.colours[vision]
        under = ", ".join(f"{v} {pair.figures[v]:g}" for v in VISIONS if pair.figures[v] < threshold)
        langs = f" (no other printed cue in {', '.join(pair.languages_without_cue)})"
        warnings.append(ContentError(
            f"colour vision: {pair.what} '{pair.first}' and '{pair.second}' differ only by colour, {ca} and {cb}: "
            f"ΔE00 {figure:g} under {vision} (under {threshold:g}: {under}){langs}; use colours further apart or "
            "print a label, symbol or pattern that differs", locator))
    return warnings


# --- contrast -----------------------------------------------------------------------------------------

@dataclass
class ContrastFinding:
    side: Side
    index: int  # of the op in the plan
    text: str
    colour: str
    background: str
    behind: str  # what the background is: "fill", "rect", "drawing cloud", "picture art/x.png"
    ratio: float
    required: float
    size: float
    inner: str | None = None  # the symbol holding the text, when it is a symbol's text


def _centre(box) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2


def _inside(point, box) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def backgrounds(side: Side, index: int, point, named: dict, game=None) -> list[tuple[str, str]]:
    """(colour, what) of everything behind ``point`` under op ``index``, topmost first, down to a solid."""
    found = []
    for op in reversed(side.ops[:index]):
        kind = op[0]
        if kind == "fill":
            found.append((op[1], "fill"))
            break
        if kind == "rect" and op[2] and _inside(point, op[1]):
            found.append((op[2], "rect"))
            break
        if kind == "draw" and _inside(point, op[2]):
            for key, value in op[3]:
                if key in BACKGROUND_PARAMS:
                    for item in value if isinstance(value, list) else [value]:
                        colour = _colour(item, named)
                        if colour is not None:
                            found.append((colour, f"drawing {op[1]}"))
        if kind == "image" and game is not None and _inside(point, op[3]):
            found += [(colour, f"picture {op[1]}") for colour in _picture_colours(game, op, point)]
    return found or [("#ffffff", "paper")]


def _picture_colours(game, op, point) -> list[str]:
    """The darkest and lightest tenth (mean colours) of a picture around ``point`` (the paper's
    white shows where the picture is transparent).  The picture is mapped onto its whole box,
    which is exact for ``stretch`` and close for ``cover`` and ``contain``."""
    import numpy as np

    from cardgen.cards.raster import raster_path
    from cardgen.content.images import RasterError, read_raster

    try:
        raster = read_raster(raster_path(game.root, op[1]))
    except (RasterError, RenderError):
        return []
    picture = raster.pixels.convert("RGB")
    if raster.alpha is not None:
        from PIL import Image

        paper = Image.new("RGB", picture.size, (255, 255, 255))
        picture = Image.composite(picture, paper, raster.alpha)
    x, y, w, h = op[3]
    u, v = (point[0] - x) / w, 1 - (point[1] - y) / h
    width, height = picture.size
    half = max(2, int(min(width, height) * 0.1))
    cx, cy = int(u * (width - 1)), int(v * (height - 1))
    window = picture.crop((max(0, cx - half), max(0, cy - half), min(width, cx + half), min(height, cy + half)))
    pixels = np.asarray(window, dtype=np.float64).reshape(-1, 3)
    if not len(pixels):
        return []
    luminance = pixels @ np.array([0.2126, 0.7152, 0.0722])
    order = np.argsort(luminance)
    tenth = max(1, len(order) // 10)
    return [hex_of(pixels[order[:tenth]].mean(axis=0)), hex_of(pixels[order[-tenth:]].mean(axis=0))]


def contrast_findings(side: Side, layout, game=None) -> list[ContrastFinding]:
    """Every text of a side (its own, and those inside the layout's symbols) against what is behind it."""
    found = []
    for index, op in enumerate(side.ops):
        try:
            found += _op_findings(side, index, op, layout, game)
        except (ArithmeticError, ValueError, TypeError, KeyError):
            continue  # a degenerate box or symbol (zero size): nothing readable to judge
    return found


def _op_findings(side: Side, index: int, op: tuple, layout, game) -> list[ContrastFinding]:
    named = layout.colors
    found: list[ContrastFinding] = []
    if op[0] == "text":
        text, box, font, size, colour = " ".join(op[2]), op[1], op[3], op[4], op[6]
        bold = "Bold" in str(font)
        found += _judge(side, index, text, colour, size, bold, _centre(box), named, game, None)
    elif op[0] == "draw" and op[1] in layout.symbols:
        for text, colour, size, bold, point, behind in _symbol_texts(layout, op):
            inner = _judge(side, index, text, colour, size, bold, point, named, game, op[1])
            for finding in inner:
                if behind is not None:  # a shape of the symbol under the text is its background
                    finding.background, finding.behind = behind, f"symbol {op[1]}"
                    finding.ratio = round(contrast_ratio(colour, behind), 2)
            found += inner
    return found


def _judge(side, index, text, colour, size, bold, point, named, game, inner) -> list[ContrastFinding]:
    required = required_ratio(size, bold)
    worst = None
    for background, behind in backgrounds(side, index, point, named, game):
        ratio = round(contrast_ratio(colour, background), 2)
        if worst is None or ratio < worst.ratio:
            worst = ContrastFinding(side, index, text, colour, background, behind, ratio, required, size, inner)
    return [worst] if worst is not None else []


def _symbol_texts(layout, op) -> Iterator[tuple[str, str, float, bool, tuple[float, float], str | None]]:
    """(text, colour, size in pt, bold, point on the card, colour of the symbol's shape behind it)."""
    symbol = layout.symbols[op[1]]
    params = dict(op[3])
    x, y, w, h = op[2]
    vw, vh = symbol.viewbox
    scale = min(w / vw, h / vh)  # contain, as the renderer places a symbol
    left, top = x + (w - vw * scale) / 2, y + (h + vh * scale) / 2

    def paint(value) -> str | None:
        text = str(value)
        if text.startswith("$"):
            text = str(params.get(text[1:], "none"))
        return _colour(text, layout.colors)

    shapes = list(symbol.shapes)
    for k, shape in enumerate(shapes):
        if "text" not in shape or "at" not in shape:
            continue
        colour = paint(shape.get("fill", "#000000"))
        if colour is None:
            continue
        ax, ay = (float(v) for v in shape["at"])
        behind = None
        for under in reversed(shapes[:k]):
            fill = paint(under["fill"]) if "fill" in under else None
            if fill is not None and _shape_holds(under, ax, ay):
                behind = fill
                break
        text = str(shape["text"])
        for key, value in params.items():
            text = text.replace("{" + key + "}", str(value))
        size = float(shape.get("size", 10)) * scale
        bold = "bold" in str(shape.get("font", "bold"))
        yield text, colour, size, bold, (left + ax * scale, top - ay * scale), behind


def _shape_holds(shape, x: float, y: float) -> bool:
    if "rect" in shape:
        rx, ry, rw, rh = (float(v) for v in shape["rect"])
        return rx <= x <= rx + rw and ry <= y <= ry + rh
    if "circle" in shape:
        cx, cy, r = (float(v) for v in shape["circle"])
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    if "ellipse" in shape:
        cx, cy, rx, ry = (float(v) for v in shape["ellipse"])
        return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1
    points = None
    if "poly" in shape:
        points = [float(v) for v in shape["poly"]]
    elif "path" in shape and re.fullmatch(r"[\sMLQCZ0-9.,-]*", str(shape["path"])):  # absolute pairs only
        points = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", str(shape["path"]))]
    if points and len(points) % 2 == 0:  # within the outline's bounding box: close enough for a badge
        xs, ys = points[0::2], points[1::2]
        return min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
    return False


def _field_name(template: str | None) -> str:
    found = re.findall(r"\{\s*(field\.[\w-]+|[\w.-]+)", template or "")
    return found[0] if found else (template or "text")


def contrast_warnings(findings: list[ContrastFinding], layout) -> list[ContentError]:
    """One warning per layout element and language: the worst ratio, the card showing it, how many more."""
    worst: dict[tuple, tuple[ContrastFinding, set[str], set[str]]] = {}
    for f in findings:
        if f.ratio >= f.required:
            continue
        where = f.side.sources[f.index][0]
        key = (where, f.inner)
        held = worst.get(key)
        cards, langs = (held[1], held[2]) if held else (set(), set())
        cards.add(f.side.label)
        langs.add(f.side.lang)
        worst[key] = (f if held is None or f.ratio < held[0].ratio else held[0], cards, langs)
    warnings = []
    for (where, inner), (f, cards, langs) in worst.items():
        count, lang = len(cards), ", ".join(sorted(langs))
        element = f.side.sources[f.index][1]
        name = f"text '{f.text[:40]}' of symbol {inner}" if inner else _field_name(element.text)
        more = f" (and {count - 1} more card{'s' if count > 2 else ''})" if count > 1 else ""
        kind = "large text" if f.required < 4.5 else "text"
        warnings.append(ContentError(
            f"contrast: {name} {f.colour} on {f.background} ({f.behind}) is {f.ratio:.2f}:1 at {f.size:.3g} pt, "
            f"under the {f.required:g}:1 WCAG asks of {kind}{more}",
            layout.locate(where).with_(card=f.side.label, language=lang, field=name)))
    return warnings


# --- text size -----------------------------------------------------------------------------------------

def is_body_text(element) -> bool:
    """A card's text field printed on more than one line (a rule, a story): what players read at length."""
    return "{field." in (element.text or "") and element.max_lines != 1


def size_warnings(sides: list[Side], layout) -> list[ContentError]:
    limits = layout.thresholds
    warnings: dict[tuple, ContentError] = {}
    elements = [(("parts", name, j), el) for name, part in layout.parts.items() for j, el in enumerate(part)]
    for side_name in ("faces", "backs"):
        for i, entry in enumerate(getattr(layout, side_name)):
            elements += [((side_name, i, "elements", j), el) for j, el in enumerate(entry.elements)]
    for where, el in elements:
        if el.type != "text":
            continue
        least = el.min_size if el.min_size is not None else el.size
        if least < limits.smallest_text_pt:
            warnings[(where, None)] = ContentError(
                f"text size: {_field_name(el.text)} may shrink to {least:g} pt, under the {limits.smallest_text_pt:g} pt "
                "floor (raise min_size, or state a lower floor as accessibility: {smallest_text_pt: N})",
                layout.locate(where + ("min_size",) if el.min_size is not None else where))
    for side in sides:
        for op, (where, el) in zip(side.ops, side.sources):
            if op[0] != "text":
                continue
            floor = limits.body_text_pt if is_body_text(el) else limits.smallest_text_pt
            if op[4] < floor - 1e-6 and (where, side.lang) not in warnings:
                what = "body text" if is_body_text(el) else "text"
                warnings[(where, side.lang)] = ContentError(
                    f"text size: {_field_name(el.text)} is fitted at {op[4]:g} pt, under the {floor:g} pt floor for "
                    f"{what}{_in_characters(op, el, floor)}; shorten it or give it a larger box",
                    layout.locate(where).with_(card=side.label, language=side.lang, field=_field_name(el.text)))
    return list(warnings.values())


def text_box(op: tuple, element) -> tuple[float, float]:
    """Width and height in points of a planned text op's box, as its lines run (a turned text's
    lines run along the box's height)."""
    width, height = op[1][2], op[1][3]
    return (height, width) if element.rotate in (90, 270) else (width, height)


def _in_characters(op: tuple, element, size: float) -> str:
    """": 330 characters, the box holds about 320 at 8 pt": the text against its box, in characters."""
    from cardgen.cards.text import chars_that_fit

    text = " ".join(op[2])
    width, height = text_box(op, element)
    holds = chars_that_fit(text, op[3], width, height, size, element.leading, element.max_lines)
    return f": {len(text)} characters, the box holds about {holds} at {size:g} pt"


def smallest_fitted(sides: list[Side]) -> dict[str, tuple[float, str]]:
    """Language -> (smallest fitted text size in pt, the card showing it)."""
    found: dict[str, tuple[float, str]] = {}
    for side in sides:
        for op in side.ops:
            if op[0] == "text" and (side.lang not in found or op[4] < found[side.lang][0]):
                found[side.lang] = (op[4], side.label)
    return found


# --- all three --------------------------------------------------------------------------------------------

def access_warnings(game, templates_dir=None) -> list[ContentError]:
    """The colour-vision, contrast and text-size warnings of a game's cards (empty when all hold)."""
    from cardgen.cards.layout import layout_path, load_layout

    try:
        layout = load_layout(layout_path(game.root, game.id, templates_dir), templates_dir)
    except RenderError:
        return []  # the layout check reports it
    sides = list(planned_sides(game, templates_dir))
    pairs = vision_pairs(game, layout, sides)
    warnings = vision_warnings(pairs, layout.thresholds.color_difference, game, layout)
    findings = [f for side in sides for f in contrast_findings(side, layout, game)]
    warnings += contrast_warnings(findings, layout)
    warnings += size_warnings(sides, layout)
    return warnings


__all__ = ["ContrastFinding", "Side", "VisionPair", "access_warnings", "backgrounds", "contrast_findings",
           "contrast_warnings", "is_body_text", "text_box", "mapped_attributes", "planned_sides", "size_warnings",
           "smallest_fitted", "vision_pairs", "vision_warnings"]
