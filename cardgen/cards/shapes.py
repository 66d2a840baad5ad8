"""Vector symbols described as data: a tiny shape language drawn with reportlab.

A symbol is a list of shapes in a view box (default 100 x 100, y pointing
down as in SVG), or a mapping ``{viewbox: [w, h], shapes: [...]}``.  Shapes:

``rect: [x, y, w, h]`` (``r`` rounds the corners), ``circle: [cx, cy, r]``,
``ellipse: [cx, cy, rx, ry]``, ``poly: [x1, y1, x2, y2, ...]`` (closed),
``line: [x1, y1, ...]`` (open), ``path: "M 10 10 L 20 20 C ... Q ... Z"``
(SVG path commands M L H V C Q Z, absolute or relative), ``star: [cx, cy,
r_out, r_in, points]``, ``wedge: [cx, cy, r, start_deg, extent_deg]``,
``arc: [cx, cy, r, start_deg, extent_deg]``, ``text: "…"`` with ``at: [x, y]``,
``size``, ``font`` and ``anchor`` (start, middle, end), ``use: SYMBOL`` with
``box: [x, y, w, h]``, ``group: [shapes]`` with ``translate``, ``rotate``
(degrees, about ``origin``) and ``scale``.

Every shape takes ``fill`` and ``stroke`` (a colour, ``none``, or ``$name`` for
a parameter passed by the layout) and ``width`` (stroke width in view-box
units).  Angles are in degrees, counter-clockwise as seen on the card.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from cardgen.errors import RenderError
from cardgen.cards.ranges import STAR_POINTS, dash_problem, out_of_range

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TOKEN = re.compile(r"[MmLlHhVvCcQqZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
MAX_COORDINATE = 1e6
MAX_PATH_CHARS = 200_000


@dataclass(frozen=True)
class Symbol:
    name: str
    viewbox: tuple[float, float]
    shapes: tuple[Mapping[str, Any], ...]


def parse_symbol(name: str, data: Any) -> Symbol:
    if isinstance(data, list):
        return Symbol(name, (100.0, 100.0), tuple(data))
    if isinstance(data, dict) and "shapes" in data:
        vb = data.get("viewbox", [100, 100])
        if not (isinstance(vb, list) and len(vb) == 2):
            raise RenderError(f"symbol '{name}': viewbox must be [width, height]")
        return Symbol(name, (float(vb[0]), float(vb[1])), tuple(data["shapes"]))
    raise RenderError(f"symbol '{name}' must be a list of shapes or {{viewbox, shapes}}")


ColorResolver = Callable[[str], Any]  # a colour text -> reportlab colour (or None for none)
SymbolLookup = Callable[[str], Symbol]


class ShapePainter:
    """Draws symbols on a canvas; knows colours, fonts and other symbols."""

    def __init__(self, canvas, colors: ColorResolver, symbols: SymbolLookup, font: Callable[[str], str],
                 check_glyphs: Callable[[str, str, str], None] | None = None):
        self.c = canvas
        self.colors = colors
        self.symbols = symbols
        self.font = font  # a layout's font name -> a chain of faces (cardgen.cards.fonts)
        self.check_glyphs = check_glyphs  # (text, chain, where): warns on characters no face has

    # --- placing a symbol in a box -------------------------------------------------
    def draw_symbol(self, symbol: Symbol, x: float, y: float, w: float, h: float,
                    params: Mapping[str, Any], fit: str = "contain", depth: int = 0) -> None:
        """Draw ``symbol`` into the box (x, y, w, h) in points, bottom-left origin."""
        if depth > 8:
            raise RenderError(f"symbol '{symbol.name}': 'use' nested too deep (a loop?)")
        vw, vh = symbol.viewbox
        if fit == "stretch":
            sx, sy = w / vw, h / vh
        else:
            s = min(w / vw, h / vh) if fit == "contain" else max(w / vw, h / vh)
            sx = sy = s
        c = self.c
        c.saveState()
        # centre, then flip y so that the view box reads y-down like SVG
        c.translate(x + (w - vw * sx) / 2, y + (h + vh * sy) / 2)
        c.scale(sx, -sy)
        for shape in symbol.shapes:
            self._shape(shape, params, symbol, depth, scale=min(sx, sy))
        c.restoreState()

    # --- one shape ----------------------------------------------------------------------
    def _paint(self, shape: Mapping[str, Any], params: Mapping[str, Any], default_fill: str = "#000000"):
        fill = self._color(shape.get("fill", default_fill if "stroke" not in shape else "none"), params)
        stroke = self._color(shape.get("stroke", "none"), params)
        c = self.c
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(float(shape.get("width", 1)))
            c.setLineJoin(1)
            c.setLineCap(1 if shape.get("cap", "round") == "round" else 0)
            dash = shape.get("dash")
            if dash:
                problem = dash_problem(dash)
                if problem is not None:
                    raise RenderError(problem)
                c.setDash([float(d) for d in dash])
        return int(fill is not None), int(stroke is not None)

    def _color(self, value: Any, params: Mapping[str, Any]):
        if value is None:
            return None
        text = str(value)
        if text.startswith("$"):
            key = text[1:]
            if key not in params:
                raise RenderError(f"shape colour '{text}' names a parameter the layout does not pass")
            text = str(params[key])
        if text == "none":
            return None
        return self.colors(text)

    def _shape(self, shape: Mapping[str, Any], params: Mapping[str, Any], symbol: Symbol, depth: int, scale: float) -> None:
        c = self.c
        try:
            if "group" in shape:
                c.saveState()
                if "translate" in shape:
                    tx, ty = shape["translate"]
                    c.translate(tx, ty)
                if "rotate" in shape:
                    ox, oy = shape.get("origin", [0, 0])
                    c.translate(ox, oy)
                    c.rotate(-float(shape["rotate"]))  # y is flipped: negate to keep ccw on the card
                    c.translate(-ox, -oy)
                if "scale" in shape:
                    s = shape["scale"]
                    sx, sy = (s, s) if not isinstance(s, list) else s
                    c.scale(sx, sy)
                for inner in shape["group"]:
                    self._shape(inner, params, symbol, depth, scale)
                c.restoreState()
                return
            if "use" in shape:
                name = str(shape["use"])
                for key, val in params.items():
                    name = name.replace("{" + key + "}", str(val))
                inner = self.symbols(name)
                bx, by, bw, bh = (float(v) for v in shape.get("box", [0, 0, *symbol.viewbox]))
                c.saveState()
                # box is y-down in this view box: flip back for draw_symbol's own flip
                c.translate(0, by + bh)
                c.scale(1, -1)
                inner_params = dict(params)
                inner_params.update(shape.get("params", {}))
                self.draw_symbol(inner, bx, 0, bw, bh, inner_params, depth=depth + 1)
                c.restoreState()
                return
            c.saveState()
            if "text" in shape:
                self._text(shape, params, symbol)
                c.restoreState()
                return
            fill, stroke = self._paint(shape, params)
            if "rect" in shape:
                x, y, w, h = (float(v) for v in shape["rect"])
                r = float(shape.get("r", 0))
                if r:
                    c.roundRect(x, y, w, h, r, stroke=stroke, fill=fill)
                else:
                    c.rect(x, y, w, h, stroke=stroke, fill=fill)
            elif "circle" in shape:
                cx, cy, r = (float(v) for v in shape["circle"])
                c.circle(cx, cy, r, stroke=stroke, fill=fill)
            elif "ellipse" in shape:
                cx, cy, rx, ry = (float(v) for v in shape["ellipse"])
                c.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=stroke, fill=fill)
            elif "poly" in shape or "line" in shape:
                closed = "poly" in shape
                pts = [float(v) for v in shape["poly" if closed else "line"]]
                p = c.beginPath()
                p.moveTo(pts[0], pts[1])
                for i in range(2, len(pts) - 1, 2):
                    p.lineTo(pts[i], pts[i + 1])
                if closed:
                    p.close()
                c.drawPath(p, stroke=stroke, fill=fill if closed else 0)
            elif "path" in shape:
                p = c.beginPath()
                svg_path(p, str(shape["path"]))
                c.drawPath(p, stroke=stroke, fill=fill, fillMode=0 if shape.get("evenodd") else 1)
            elif "star" in shape:
                cx, cy, ro, ri, n = shape["star"]
                if out_of_range(n, *STAR_POINTS):  # 10**8 points would take hours
                    raise RenderError(f"a star has {STAR_POINTS[0]} to {STAR_POINTS[1]} points, found {n}")
                p = c.beginPath()
                n = int(n)
                for i in range(2 * n):
                    r = ro if i % 2 == 0 else ri
                    a = -math.pi / 2 + i * math.pi / n
                    (p.moveTo if i == 0 else p.lineTo)(cx + r * math.cos(a), cy + r * math.sin(a))
                p.close()
                c.drawPath(p, stroke=stroke, fill=fill)
            elif "wedge" in shape or "arc" in shape:
                key = "wedge" if "wedge" in shape else "arc"
                cx, cy, r, start, extent = (float(v) for v in shape[key])
                p = c.beginPath()
                # view box is y-down: negate angles to keep counter-clockwise on the card
                if key == "wedge":
                    p.moveTo(cx, cy)
                    p.arcTo(cx - r, cy - r, cx + r, cy + r, -start, -extent)
                    p.close()
                    c.drawPath(p, stroke=stroke, fill=fill)
                else:
                    p.arc(cx - r, cy - r, cx + r, cy + r, -start, -extent)
                    c.drawPath(p, stroke=stroke, fill=0)
            else:
                raise RenderError(f"unknown shape {sorted(shape)}")
            c.restoreState()
        except RenderError as exc:
            if not exc.message.startswith("symbol '"):
                exc.message = f"symbol '{symbol.name}': {exc.message}"
                exc.args = (exc.message,)
            raise
        except (TypeError, ValueError, KeyError, IndexError, OverflowError) as exc:
            raise RenderError(f"symbol '{symbol.name}': bad shape {str(dict(shape))[:200]}: {exc}") from None

    def _text(self, shape: Mapping[str, Any], params: Mapping[str, Any], symbol: Symbol) -> None:
        from cardgen.cards.fonts import draw_runs, faces, metrics, text_width

        c = self.c
        text = str(shape["text"])
        for key, val in params.items():
            text = text.replace("{" + key + "}", str(val))
        font = self.font(shape.get("font", "bold"))
        size = float(shape.get("size", 20))
        x, y = (float(v) for v in shape.get("at", [50, 50]))
        anchor = shape.get("anchor", "middle")
        fill = self._color(shape.get("fill", "#000000"), params)
        if fill is not None:
            c.setFillColor(fill)
        if self.check_glyphs is not None:
            self.check_glyphs(text, font, f"symbol {symbol.name}")
        width = text_width(text, font, size)
        if anchor == "middle":
            x -= width / 2
        elif anchor == "end":
            x -= width
        cap = metrics(font)[2]
        c.translate(x, y)
        c.scale(1, -1)  # text upright in the y-down view box; y is the vertical centre
        c.setFont(faces(font)[0], size)
        draw_runs(c, 0, -cap * size / 2, text, font, size)


class _NoPath:
    """A path that records nothing: :func:`check_path_data` runs the parser against it."""

    def __getattr__(self, name: str):
        return lambda *args: None


def check_path_data(data: str, max_coordinate: float = MAX_COORDINATE) -> None:
    """Raise RenderError if ``data`` is not path data :func:`svg_path` draws."""
    svg_path(_NoPath(), data, max_coordinate)


def svg_path(p, data: str, max_coordinate: float = MAX_COORDINATE) -> None:
    """Append the SVG path ``data`` (M L H V C Q Z, absolute or relative) to ``p``."""
    if len(data) > MAX_PATH_CHARS:
        raise RenderError(f"path data of {len(data):,} characters (at most {MAX_PATH_CHARS:,})")
    leftover = _TOKEN.sub("", data).replace(",", "").strip()
    if leftover:
        raise RenderError(f"path data holds {leftover[:20]!r}, which is no number or command M L H V C Q Z")
    tokens = _TOKEN.findall(data)
    i = 0
    cmd = None
    x = y = sx = sy = 0.0

    def num() -> float:
        nonlocal i
        if i >= len(tokens) or tokens[i].isalpha():
            raise RenderError(f"path command '{cmd}' is missing numbers in {data[:40]!r}")
        value = float(tokens[i])
        if not math.isfinite(value) or abs(value) > max_coordinate:
            raise RenderError(f"path number {tokens[i][:20]} is out of range (at most {max_coordinate:g} "
                              f"either way) in {data[:40]!r}")
        i += 1
        return value

    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd in "Zz":
                p.close()
                x, y = sx, sy
                continue
        elif cmd is None:
            raise RenderError(f"path data must start with a command: {data[:40]!r}")
        rel = cmd.islower()
        op = cmd.upper()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        if op == "M":
            x, y = ox + num(), oy + num()
            p.moveTo(x, y)
            sx, sy = x, y
            cmd = "l" if rel else "L"  # further pairs are line-tos
        elif op == "L":
            x, y = ox + num(), oy + num()
            p.lineTo(x, y)
        elif op == "H":
            x = ox + num()
            p.lineTo(x, y)
        elif op == "V":
            y = (y if rel else 0.0) + num()
            p.lineTo(x, y)
        elif op == "C":
            x1, y1, x2, y2, x3, y3 = (num() for _ in range(6))
            p.curveTo(ox + x1, oy + y1, ox + x2, oy + y2, ox + x3, oy + y3)
            x, y = ox + x3, oy + y3
        elif op == "Q":
            qx, qy, x3, y3 = (num() for _ in range(4))
            qx, qy, x3, y3 = ox + qx, oy + qy, ox + x3, oy + y3
            p.curveTo(x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                      x3 + 2 / 3 * (qx - x3), y3 + 2 / 3 * (qy - y3), x3, y3)
            x, y = x3, y3
        else:
            raise RenderError(f"unsupported path command '{cmd}' in {data[:40]!r}")
