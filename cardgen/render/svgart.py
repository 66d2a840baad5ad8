"""Card art from SVG files (``art:`` of a card or back), read into the shape language.

A deliberately small subset of SVG, enough for flat vector card art: ``svg``
(``viewBox`` or width/height), ``g`` with ``transform`` (translate, scale,
rotate), ``rect``, ``circle``, ``ellipse``, ``line``, ``polyline``,
``polygon`` and ``path`` (commands M L H V C Q Z), with ``fill``, ``stroke``,
``stroke-width`` given as attributes or in ``style``.  Anything else is an
error naming the file, so art never renders differently from what it says.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardgen.errors import Locator, RenderError
from cardgen.render.shapes import Symbol

NAMED = {
    "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
    "yellow": "#ffff00", "gray": "#808080", "grey": "#808080", "orange": "#ffa500", "purple": "#800080",
    "navy": "#000080", "gold": "#ffd700", "silver": "#c0c0c0", "brown": "#a52a2a",
}
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_UNSUPPORTED_PATH = re.compile(r"[SsTtAa]")


def _tag(element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _nums(text: str | None) -> list[float]:
    return [float(v) for v in _NUM.findall(text or "")]


def _color(value: str | None, path: Path) -> str | None:
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
    raise RenderError(f"unsupported colour '{value}' in SVG art", Locator(file=path))


def _style(element, inherited: dict[str, Any], path: Path) -> dict[str, Any]:
    style = dict(inherited)
    attrs = dict(element.attrib)
    for part in (attrs.pop("style", "") or "").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            attrs[key.strip()] = value.strip()
    if "fill" in attrs:
        style["fill"] = _color(attrs["fill"], path)
    if "stroke" in attrs:
        style["stroke"] = _color(attrs["stroke"], path)
    if "stroke-width" in attrs:
        style["width"] = _nums(attrs["stroke-width"])[0]
    return style


def _paint(style: dict[str, Any]) -> dict[str, Any]:
    out = {"fill": style.get("fill", "#000000") or "#000000"}
    if style.get("stroke") not in (None, "none"):
        out["stroke"] = style["stroke"]
        out["width"] = style.get("width", 1.0)
    return out


def _transform(text: str | None, path: Path) -> dict[str, Any]:
    if not text:
        return {}
    out: dict[str, Any] = {}
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text):
        values = _nums(args)
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
            raise RenderError(f"unsupported SVG transform '{name}(...)' (or order)", Locator(file=path))
    return out


def _shapes(element, style: dict[str, Any], path: Path) -> list[dict[str, Any]]:
    shapes: list[dict[str, Any]] = []
    for child in element:
        tag = _tag(child)
        if tag in ("title", "desc", "metadata", "defs"):
            continue
        own = _style(child, style, path)
        a = child.attrib
        num = lambda key, default=0.0: float(_nums(a.get(key))[0]) if a.get(key) else default  # noqa: E731
        if tag == "g":
            inner = _shapes(child, own, path)
            shapes.append({"group": inner, **_transform(a.get("transform"), path)})
            continue
        if "transform" in a:
            wrapped = _shapes(_wrap(child), style, path)
            shapes.append({"group": wrapped, **_transform(a.get("transform"), path)})
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
            shape = {"poly" if tag == "polygon" else "line": _nums(a.get("points"))}
            if tag == "polyline":
                own = dict(own, fill="none")
        elif tag == "path":
            d = a.get("d", "")
            if _UNSUPPORTED_PATH.search(d):
                raise RenderError("SVG path commands S, T and A are not supported; use C, Q and L",
                                  Locator(file=path))
            shape = {"path": d}
            if a.get("fill-rule") == "evenodd" or "evenodd" in a.get("style", ""):
                shape["evenodd"] = True
        else:
            raise RenderError(f"unsupported SVG element <{tag}>", Locator(file=path))
        shape.update(_paint(own))
        shapes.append(shape)
    return shapes


def _wrap(element):
    holder = ET.Element("g")
    clone = ET.Element(element.tag, {k: v for k, v in element.attrib.items() if k != "transform"})
    clone.extend(list(element))
    holder.append(clone)
    return holder


@lru_cache(maxsize=256)
def load_svg(path: Path) -> Symbol:
    """Read an SVG file into a :class:`Symbol` (view box from viewBox or width/height)."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise RenderError(f"cannot read SVG art: {exc}", Locator(file=path)) from None
    if _tag(root) != "svg":
        raise RenderError("not an SVG file (no <svg> root)", Locator(file=path))
    box = _nums(root.get("viewBox"))
    if len(box) == 4:
        min_x, min_y, width, height = box
    else:
        min_x = min_y = 0.0
        width, height = (_nums(root.get("width")) or [100.0])[0], (_nums(root.get("height")) or [100.0])[0]
    shapes = _shapes(root, {}, path)
    if min_x or min_y:
        shapes = [{"group": shapes, "translate": [-min_x, -min_y]}]
    return Symbol(path.name, (width, height), tuple(shapes))
