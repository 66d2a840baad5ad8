"""Card art from SVG files (``art:`` of a card or back), read into the shape language.

A deliberately small subset of SVG, enough for flat vector card art: ``svg``
(``viewBox`` or width/height), ``g`` with ``transform`` (translate, scale,
rotate), ``rect``, ``circle``, ``ellipse``, ``line``, ``polyline``,
``polygon`` and ``path`` (commands M L H V C Q Z), with ``fill``, ``stroke``,
``stroke-width`` given as attributes or in ``style``.  Anything else is an
error naming the file, so art never renders differently from what it says.

The file is hostile until read: a regular file of at most 2 MiB inside the game
folder, no DOCTYPE (so no entity expansion, no external entity), at most
:data:`MAX_DEPTH` nested elements and :data:`MAX_ELEMENTS` in all, every number a
finite number of sane size, and every error names the file and the line.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.parsers import expat

from cardgen.content.safefile import UnsafeFile, check_name, inside, read_capped
from cardgen.errors import Locator, RenderError
from cardgen.cards.shapes import Symbol, check_path_data

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 32
MAX_ELEMENTS = 20_000
#: Coordinates beyond this are a typo, not art (and keep reportlab's numbers finite).
MAX_COORDINATE = 1e6
#: The smallest width or height of a view box: drawn into a card box it is scaled up by the box
#: over it, and a factor beyond 1e20 is a number no PDF writes (reportlab fails in the build).
MIN_VIEW_SIZE = 1e-6

NAMED = {
    "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
    "yellow": "#ffff00", "gray": "#808080", "grey": "#808080", "orange": "#ffa500", "purple": "#800080",
    "navy": "#000080", "gold": "#ffd700", "silver": "#c0c0c0", "brown": "#a52a2a",
}
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_UNSUPPORTED_PATH = re.compile(r"[SsTtAa]")



@dataclass
class _Node:
    """One element of the SVG file, with the line it starts on."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list["_Node"] = field(default_factory=list)


class _Art:
    """The file being read: where errors point."""

    def __init__(self, path: Path):
        self.path = path

    def error(self, message: str, node: _Node | None = None) -> RenderError:
        return RenderError(message, Locator(file=self.path, line=node.line if node else None))


def _parse(data: bytes, art: _Art) -> _Node:
    """The element tree of ``data``, built without recursion and with caps."""
    parser = expat.ParserCreate(namespace_separator="}")
    stack: list[_Node] = []
    roots: list[_Node] = []
    count = 0

    def start(tag: str, attrib: dict[str, str]) -> None:
        nonlocal count
        count += 1
        node = _Node(tag.rsplit("}", 1)[-1], {k.rsplit("}", 1)[-1]: v for k, v in attrib.items()},
                     parser.CurrentLineNumber)
        if len(stack) >= MAX_DEPTH:
            raise art.error(f"elements nested more than {MAX_DEPTH} deep", node)
        if count > MAX_ELEMENTS:
            raise art.error(f"more than {MAX_ELEMENTS:,} elements", node)
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def doctype(*args) -> None:
        raise RenderError("a DOCTYPE is not allowed in SVG art (no entities; write the SVG out)",
                          Locator(file=art.path, line=parser.CurrentLineNumber))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise RenderError(f"cannot read SVG art: {expat.errors.messages[exc.code]}",
                          Locator(file=art.path, line=exc.lineno, column=exc.offset + 1)) from None
    except (LookupError, ValueError) as exc:  # the XML declaration names an encoding Python has no codec for
        raise RenderError(f"cannot read SVG art: {exc}; write the file in UTF-8",
                          Locator(file=art.path, line=parser.CurrentLineNumber or 1)) from None
    if not roots:
        raise art.error("not an SVG file (no element)")
    return roots[0]


def _nums(text: str | None) -> list[float]:
    return [float(v) for v in _NUM.findall(text or "")]


def _number(text: str | None, what: str, art: _Art, node: _Node, *, positive: bool = False) -> float:
    """The single number ``text`` holds (units such as px are ignored), finite and of sane size."""
    values = _NUM.findall(text or "")
    if not values:
        raise art.error(f"{what} must be a number, found {str(text)[:40]!r}", node)
    return _checked(float(values[0]), what, art, node, positive=positive)


def _checked(value: float, what: str, art: _Art, node: _Node, *, positive: bool = False) -> float:
    if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
        raise art.error(f"{what} {value:g} is out of range (at most {MAX_COORDINATE:g} either way)", node)
    if positive and value <= 0:
        raise art.error(f"{what} must be greater than 0, found {value:g}", node)
    return value


def _numbers(text: str | None, what: str, art: _Art, node: _Node) -> list[float]:
    return [_checked(v, what, art, node) for v in _nums(text)]


def _color(value: str | None, art: _Art, node: _Node) -> str | None:
    if value is None:
        return None
    value = value.strip().lower()
    if value == "none":
        return "none"
    if re.fullmatch(r"#[0-9a-f]{6}", value):
        return value
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        return "#" + "".join(ch * 2 for ch in value[1:])
    if value in NAMED:
        return NAMED[value]
    raise art.error(f"unsupported colour '{value[:40]}' in SVG art", node)


def _style(node: _Node, inherited: dict[str, Any], art: _Art) -> dict[str, Any]:
    style = dict(inherited)
    attrs = dict(node.attrib)
    for part in (attrs.pop("style", "") or "").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            attrs[key.strip()] = value.strip()
    if "fill" in attrs:
        style["fill"] = _color(attrs["fill"], art, node)
    if "stroke" in attrs:
        style["stroke"] = _color(attrs["stroke"], art, node)
    if "stroke-width" in attrs:
        width = _number(attrs["stroke-width"], "stroke-width", art, node)
        if width < 0:
            raise art.error(f"stroke-width must not be negative, found {width:g}", node)
        style["width"] = width
    return style


def _paint(style: dict[str, Any]) -> dict[str, Any]:
    out = {"fill": style.get("fill", "#000000") or "#000000"}
    if style.get("stroke") not in (None, "none"):
        out["stroke"] = style["stroke"]
        out["width"] = style.get("width", 1.0)
    return out


#: How many numbers each transform takes.
_TRANSFORM_ARITY = {"translate": (1, 2), "scale": (1, 2), "rotate": (1, 3)}


def _transform(text: str | None, art: _Art, node: _Node) -> dict[str, Any]:
    if not text or not text.strip():
        return {}
    out: dict[str, Any] = {}
    calls = re.findall(r"(\w+)\s*\(([^)]*)\)", text)
    if not calls or re.sub(r"(\w+)\s*\(([^)]*)\)|[\s,]", "", text):
        raise art.error(f"transform '{text[:40]}' is not a list of translate(), scale() and rotate()", node)
    for name, args in calls:
        values = _numbers(args, f"{name}()", art, node)
        counts = _TRANSFORM_ARITY.get(name)
        if counts is not None and len(values) not in counts:
            raise art.error(f"{name}() takes {' or '.join(map(str, counts))} numbers, found {len(values)}", node)
        if name == "translate" and "translate" not in out and "scale" not in out and "rotate" not in out:
            out["translate"] = [values[0], values[1] if len(values) > 1 else 0.0]
        elif name == "scale" and "scale" not in out and "rotate" not in out:
            out["scale"] = values[0] if len(values) == 1 else values[:2]
        elif name == "rotate" and "rotate" not in out:
            # SVG rotates clockwise on screen; the shape language counts counter-clockwise
            out["rotate"] = -values[0]
            if len(values) == 3:
                out["origin"] = values[1:3]
        else:
            raise art.error(f"unsupported SVG transform '{name}(...)' (or order)", node)
    return out


def _shapes(node: _Node, style: dict[str, Any], art: _Art) -> list[dict[str, Any]]:
    shapes: list[dict[str, Any]] = []
    for child in node.children:
        tag = child.tag
        if tag in ("title", "desc", "metadata", "defs"):
            continue
        own = _style(child, style, art)
        a = child.attrib

        def num(key: str, default: float = 0.0, positive: bool = False) -> float:
            return _number(a[key], f"attribute '{key}' of <{tag}>", art, child, positive=positive) \
                if a.get(key) else default

        if tag == "g":
            inner = _shapes(child, own, art)
            shapes.append({"group": inner, **_transform(a.get("transform"), art, child)})
            continue
        if "transform" in a:
            wrapped = _shapes(_wrap(child), style, art)
            shapes.append({"group": wrapped, **_transform(a.get("transform"), art, child)})
            continue
        if tag == "rect":
            shape = {"rect": [num("x"), num("y"), num("width"), num("height")]}
            if a.get("rx") or a.get("ry"):
                shape["r"] = num("rx") or num("ry")
        elif tag == "circle":
            shape = {"circle": [num("cx"), num("cy"), num("r")]}
        elif tag == "ellipse":
            shape = {"ellipse": [num("cx"), num("cy"), num("rx"), num("ry")]}
        elif tag == "line":
            shape = {"line": [num("x1"), num("y1"), num("x2"), num("y2")]}
            own = dict(own, fill="none")
        elif tag in ("polyline", "polygon"):
            points = _numbers(a.get("points"), f"points of <{tag}>", art, child)
            if len(points) < 4 or len(points) % 2:
                raise art.error(f"<{tag}> needs points as pairs of numbers, at least two pairs", child)
            shape = {"poly" if tag == "polygon" else "line": points}
            if tag == "polyline":
                own = dict(own, fill="none")
        elif tag == "path":
            d = a.get("d", "")
            if _UNSUPPORTED_PATH.search(d):
                raise art.error("SVG path commands S, T and A are not supported; use C, Q and L", child)
            try:
                check_path_data(d, MAX_COORDINATE)
            except RenderError as exc:
                raise art.error(exc.message, child) from None
            shape = {"path": d}
            if a.get("fill-rule") == "evenodd" or "evenodd" in a.get("style", ""):
                shape["evenodd"] = True
        else:
            raise art.error(f"unsupported SVG element <{tag[:40]}>", child)
        shape.update(_paint(own))
        shapes.append(shape)
    return shapes


def _wrap(node: _Node) -> _Node:
    """``node`` without its transform, inside a group (the group takes the transform)."""
    clone = _Node(node.tag, {k: v for k, v in node.attrib.items() if k != "transform"}, node.line, node.children)
    return _Node("g", {}, node.line, [clone])


def art_path(game_root: Path, name: str) -> Path:
    """The SVG file ``name`` (a card's, a back's or a layout's ``draw:``) names, fenced in the game folder."""
    return game_file(game_root, name, "SVG file")


def game_file(game_root: Path, name: str, what: str) -> Path:
    """The file ``name`` names, fenced in the game folder (``what`` it is, for messages).

    As for ``art:`` in content: relative to the game folder, never outside it (no
    absolute path, no '..', no symlink leading out), no NUL byte, not absurdly long.
    """
    try:
        check_name(name)
    except UnsafeFile as exc:
        raise RenderError(f"{what} '{name[:60]}': {exc}") from None
    if Path(name).is_absolute():
        raise RenderError(f"{what} '{name}' is an absolute path; give it relative to the game folder")
    path = game_root / name
    if not inside(path, game_root):
        raise RenderError(f"{what} '{name}' lies outside the game folder")
    return path.resolve()


@lru_cache(maxsize=256)
def load_svg(path: Path) -> Symbol:
    """Read an SVG file into a :class:`Symbol` (view box from viewBox or width/height)."""
    art = _Art(path)
    try:
        data = read_capped(path, MAX_BYTES)
    except UnsafeFile as exc:
        raise RenderError(f"cannot read SVG art: {exc}", Locator(file=path)) from None
    root = _parse(data, art)
    if root.tag != "svg":
        raise art.error("not an SVG file (no <svg> root)", root)
    box = _numbers(root.attrib.get("viewBox"), "viewBox", art, root)
    if root.attrib.get("viewBox") is not None and len(box) != 4:
        raise art.error(f"viewBox takes 4 numbers (min-x min-y width height), found {len(box)}", root)
    if len(box) == 4:
        min_x, min_y, width, height = box
        what = "viewBox width and height"
    else:
        min_x = min_y = 0.0
        width = _number(root.attrib["width"], "width", art, root) if root.attrib.get("width") else 100.0
        height = _number(root.attrib["height"], "height", art, root) if root.attrib.get("height") else 100.0
        what = "width and height of <svg>"
    if width <= 0 or height <= 0:
        raise art.error(f"{what} must be greater than 0, found {width:g} x {height:g}", root)
    if width < MIN_VIEW_SIZE or height < MIN_VIEW_SIZE:
        raise art.error(f"{what} must be at least {MIN_VIEW_SIZE:g}, found {width:g} x {height:g}", root)
    shapes = _shapes(root, {}, art)
    if min_x or min_y:
        shapes = [{"group": shapes, "translate": [-min_x, -min_y]}]
    return Symbol(path.name, (width, height), tuple(shapes))
