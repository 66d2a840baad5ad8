"""The library of named vector drawings that layouts select by name.

``draw: NAME`` in a layout first looks for a symbol of the layout's shape
language (:mod:`cardgen.cards.shapes`), then for a drawing registered here
with :func:`drawing`.  A drawing is a function ``(ctx, x, y, w, h, params)``
that paints into the box (points, bottom-left origin); parameters come from
the layout, already filled in for the card (colours as colour expressions).
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any, Callable

from reportlab.lib.colors import HexColor

from cardgen.errors import Locator, RenderError
from cardgen.cards.ranges import drawing_number

Drawing = Callable[["DrawContext", float, float, float, float, dict[str, Any]], None]
DRAWINGS: dict[str, Drawing] = {}


def drawing(name: str):
    def register(fn: Drawing) -> Drawing:
        DRAWINGS[name] = fn
        return fn
    return register


class DrawContext:
    def __init__(self, canvas, painter, renderer, plan):
        self.c = canvas
        self.painter = painter
        self.renderer = renderer
        self.plan = plan

    def color(self, text: Any):
        from cardgen.cards.layout import hex_color

        value = hex_color(str(text), self.renderer.layout.colors, Locator(file=self.renderer.layout.path))
        return HexColor(value) if value else None

    def symbol(self, name: str, x: float, y: float, w: float, h: float, params: dict | None = None,
               fit: str = "contain") -> None:
        self.painter.draw_symbol(self.renderer.layout.symbol(name), x, y, w, h, params or {}, fit)

    def has_symbol(self, name: str) -> bool:
        return name in self.renderer.layout.symbols

    def mark(self, name: str, x: float, y: float, w: float, h: float, color: Any) -> None:
        """Draw the ``symbol`` a drawing was given (a pip, a suit beside a court figure) into a box.

        Through :meth:`draw`, so a layout symbol, the game's own art file and a built-in
        drawing all serve, and whatever :meth:`draw` learns to place serves as well.
        """
        self.draw(str(name), x, y, w, h, {"color": color})

    def draw(self, name: str, x: float, y: float, w: float, h: float, params: dict, fit: str = "contain") -> None:
        if name.lower().endswith(".svg"):  # a card's or back's own art file, relative to the game folder
            from cardgen.cards.svgart import art_path, load_svg

            try:
                path = art_path(self.renderer.game.root, name)
            except RenderError as exc:
                exc.locator = Locator(file=self.renderer.layout.path, card=self.plan.label)
                raise
            self.painter.draw_symbol(load_svg(path), x, y, w, h, params, fit)
            return
        from cardgen.content.images import is_raster_name
        from cardgen.cards.raster import draw_raster, raster_path

        if is_raster_name(name):  # a PNG, JPEG, TIFF or WebP file of the game folder, as SVG art is drawn
            try:
                draw_raster(self.c, raster_path(self.renderer.game.root, name), x, y, w, h, fit)
            except RenderError as exc:
                exc.locator = exc.locator.with_(file=exc.locator.file or self.renderer.layout.path,
                                                card=self.plan.label)
                raise
            return
        if name in self.renderer.layout.symbols:
            self.symbol(name, x, y, w, h, params, fit)
            return
        fn = DRAWINGS.get(name)
        if fn is None:
            raise RenderError(
                f"no symbol or drawing named '{name}' (drawings: {', '.join(sorted(DRAWINGS))})",
                Locator(file=self.renderer.layout.path, card=self.plan.label),
            )
        self.c.saveState()
        try:
            fn(self, x, y, w, h, params)
        except RenderError as exc:
            if exc.locator.file is None:  # a parameter filled in for this card: name the layout and card
                exc.locator = Locator(file=self.renderer.layout.path, card=self.plan.label)
            raise
        self.c.restoreState()


def _rng(seed: Any) -> random.Random:
    return random.Random(int(hashlib.sha256(str(seed).encode("utf-8")).hexdigest()[:16], 16))


def _param(params: dict, name: str, default: Any = None) -> Any:
    value = params.get(name, default)
    if value is None:
        raise RenderError(f"drawing parameter '{name}' is missing")
    return value


def _flag(params: dict, name: str, drawing: str) -> bool:
    """A yes-or-no parameter (false when not given): true or false, also as text filled in for a card."""
    value = params.get(name, False)
    if isinstance(value, bool):
        return value
    if str(value).strip().lower() in ("true", "false"):
        return str(value).strip().lower() == "true"
    raise RenderError(f"{drawing}: '{name}' is true or false, found {str(value)[:40]!r}")


# --- playing cards -----------------------------------------------------------------------------

PIP_LAYOUTS: dict[str, list[tuple[float, float]]] = {
    # (column 0..1, row 0..1 from the top)
    "2": [(0.5, 0), (0.5, 1)],
    "3": [(0.5, 0), (0.5, 0.5), (0.5, 1)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "10": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6),
           (0, 1), (1, 1)],
}


@drawing("pips")
def pips(ctx: DrawContext, x, y, w, h, params):
    """Suit pips of a number card laid out as on real cards (lower half upside down).

    params: symbol (a symbol of the layout, or an art file of the game such as art/suit.svg),
    rank, color, size (pip height / box height).
    """
    symbol = str(_param(params, "symbol"))
    rank = str(_param(params, "rank"))
    color = _param(params, "color", "#000000")
    if rank in ("ace", "1", "a"):
        s = min(w, h) * drawing_number("pips", "ace_size", params.get("ace_size", 0.55))
        ctx.mark(symbol, x + (w - s) / 2, y + (h - s) / 2, s, s, color)
        return
    spots = PIP_LAYOUTS.get(rank)
    if spots is None:
        raise RenderError(f"pips: no pip layout for rank '{rank}'")
    s = h * drawing_number("pips", "size", params.get("size", 0.2))
    for col, row in spots:
        cx = x + s / 2 + col * (w - s)
        cy = y + h - s / 2 - row * (h - s)
        c = ctx.c
        c.saveState()
        c.translate(cx, cy)
        if row > 0.5:  # pips of the lower half stand upside down, as on real cards
            c.rotate(180)
        ctx.mark(symbol, -s / 2, -s / 2, s, s, color)
        c.restoreState()


#: What a court card's figure wears: ``plain`` (the default) is a courtier of no sport in particular.
COURT_FIGURES = ("plain", "footballer")


@drawing("court")
def court(ctx: DrawContext, x, y, w, h, params):
    """A double-headed court card: a figure in the suit colour, mirrored at the middle.

    params: rank (jack, queen, king), color, symbol (the suit: a symbol of the layout or an
    art file of the game), paper, accent, label (printed on the chest), figure: ``plain``
    (default: a crown, a tiara or a cap) or ``footballer`` (a striped jersey, the jack a
    captain's armband and a ball under his arm).
    """
    c = ctx.c
    rank = str(_param(params, "rank"))
    figure = str(params.get("figure", "plain"))
    if figure not in COURT_FIGURES:
        raise RenderError(f"court: figure '{figure}' is not one of {', '.join(COURT_FIGURES)}")
    footballer = figure == "footballer"
    color = ctx.color(_param(params, "color", "#000000"))
    paper = ctx.color(params.get("paper", "#ffffff"))
    trim = ctx.color(params.get("accent", "#f2c230"))
    symbol = params.get("symbol")
    c.setStrokeColor(color)
    c.setLineWidth(1.2)
    c.setFillColor(paper)
    c.rect(x, y, w, h, stroke=1, fill=1)
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    for flip in (False, True):
        c.saveState()
        c.translate(x + w / 2, y + h / 2)
        if flip:
            c.rotate(180)
        # everything in the upper half: (0, 0) is the card's centre
        u = min(w, h * 0.9) / 10
        # shirt / shoulders
        c.setFillColor(color)
        p = c.beginPath()
        p.moveTo(-4.2 * u, 0.5 * u)
        p.curveTo(-4.2 * u, 2.8 * u, -3.4 * u, 3.6 * u, -1.3 * u, 3.9 * u)
        p.lineTo(1.3 * u, 3.9 * u)
        p.curveTo(3.4 * u, 3.6 * u, 4.2 * u, 2.8 * u, 4.2 * u, 0.5 * u)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        label = params.get("label")
        if label:
            from cardgen.cards.fonts import font_name

            c.setFillColor(paper)
            c.setFont(font_name("bold"), 1.9 * u)
            c.drawCentredString(0, 1.0 * u, str(label))
        # collar
        c.setFillColor(paper)
        p = c.beginPath()
        p.moveTo(-1.3 * u, 3.9 * u)
        p.lineTo(0, 2.6 * u)
        p.lineTo(1.3 * u, 3.9 * u)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        if footballer:
            # stripes on the sleeves
            c.setStrokeColor(paper)
            c.setLineWidth(0.6 * u)
            c.line(-3.6 * u, 0.9 * u, -3.1 * u, 2.6 * u)
            c.line(3.6 * u, 0.9 * u, 3.1 * u, 2.6 * u)
        # a footballer jack wears the captain's armband
        c.setFillColor(trim)
        if rank == "jack" and footballer:
            c.rect(-4.2 * u, 1.6 * u, 1.3 * u, 0.8 * u, stroke=0, fill=1)
        # head
        skin = HexColor("#f1c27d")
        c.setFillColor(skin)
        c.setStrokeColor(color)
        c.setLineWidth(0.5)
        c.circle(0, 5.7 * u, 1.75 * u, stroke=1, fill=1)
        c.setFillColor(HexColor("#3b2a1a"))
        p = c.beginPath()
        p.moveTo(-1.8 * u, 6.0 * u)
        p.curveTo(-1.7 * u, 7.9 * u, 1.7 * u, 7.9 * u, 1.8 * u, 6.0 * u)
        p.curveTo(1.0 * u, 6.8 * u, -1.0 * u, 6.8 * u, -1.8 * u, 6.0 * u)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        c.setFillColor(HexColor("#222222"))
        c.circle(-0.6 * u, 5.8 * u, 0.18 * u, stroke=0, fill=1)
        c.circle(0.6 * u, 5.8 * u, 0.18 * u, stroke=0, fill=1)
        c.setStrokeColor(HexColor("#7a3b2e"))
        c.setLineWidth(0.5)
        c.arc(-0.7 * u, 4.6 * u, 0.7 * u, 5.4 * u, 200, 140)
        c.setFillColor(trim)
        c.setStrokeColor(HexColor("#8a6a00"))
        c.setLineWidth(0.4)
        if rank == "king":  # crown
            p = c.beginPath()
            p.moveTo(-1.6 * u, 7.2 * u)
            for dx, dy in [(-1.6, 8.9), (-0.8, 7.9), (0, 9.2), (0.8, 7.9), (1.6, 8.9), (1.6, 7.2)]:
                p.lineTo(dx * u, dy * u)
            p.close()
            c.drawPath(p, stroke=1, fill=1)
        elif rank == "queen":  # tiara with a star
            c.rect(-1.5 * u, 7.25 * u, 3.0 * u, 0.45 * u, stroke=1, fill=1)
            _star(c, 0, 8.2 * u, 0.7 * u, 0.3 * u)
        elif footballer:  # jack: a ball under the arm
            c.setFillColor(HexColor("#ffffff"))
            c.setStrokeColor(HexColor("#222222"))
            c.circle(2.9 * u, 4.9 * u, 0.9 * u, stroke=1, fill=1)
            c.setFillColor(HexColor("#222222"))
            _star(c, 2.9 * u, 4.9 * u, 0.4 * u, 0.4 * u, points=5, polygon=True)
        else:  # jack: a flat cap with a feather
            p = c.beginPath()
            p.moveTo(-2.1 * u, 7.0 * u)
            p.curveTo(-2.0 * u, 8.6 * u, 2.0 * u, 8.6 * u, 2.3 * u, 7.3 * u)
            p.close()
            c.drawPath(p, stroke=1, fill=1)
            c.setStrokeColor(color)
            c.setLineWidth(0.35 * u)
            c.setLineCap(1)
            c.line(1.2 * u, 8.0 * u, 2.6 * u, 9.2 * u)
        # the suit beside the head
        if symbol:
            s = 1.8 * u
            ctx.mark(symbol, -4.3 * u, 5.0 * u, s, s, params.get("color", "#000000"))
        c.restoreState()
    # a thin band across the middle
    c.setStrokeColor(color)
    c.setLineWidth(0.8)
    c.line(x, y + h / 2, x + w, y + h / 2)


def _star(c, cx, cy, ro, ri, points=5, polygon=False):
    p = c.beginPath()
    n = points if polygon else 2 * points
    for i in range(n):
        r = ro if polygon or i % 2 == 0 else ri
        a = math.pi / 2 + i * 2 * math.pi / n
        (p.moveTo if i == 0 else p.lineTo)(cx + r * math.cos(a), cy + r * math.sin(a))
    p.close()
    c.drawPath(p, stroke=0, fill=1)


# --- football things ---------------------------------------------------------------------------

@drawing("ball")
def ball(ctx: DrawContext, x, y, w, h, params):
    """A classic black-and-white football. params: color (patches), paper."""
    c = ctx.c
    r = min(w, h) / 2
    cx, cy = x + w / 2, y + h / 2
    dark = ctx.color(params.get("color", "#222222"))
    c.setFillColor(ctx.color(params.get("paper", "#ffffff")))
    c.setStrokeColor(dark)
    c.setLineWidth(max(0.4, r * 0.06))
    c.circle(cx, cy, r, stroke=0, fill=1)
    c.saveState()
    p = c.beginPath()
    p.circle(cx, cy, r)
    c.clipPath(p, stroke=0, fill=0)
    c.setFillColor(dark)
    _star(c, cx, cy, r * 0.36, 0, points=5, polygon=True)
    for i in range(5):
        a = math.pi / 2 + i * 2 * math.pi / 5
        ix, iy = cx + r * 0.36 * math.cos(a), cy + r * 0.36 * math.sin(a)
        ox, oy = cx + r * 0.72 * math.cos(a), cy + r * 0.72 * math.sin(a)
        c.line(ix, iy, ox, oy)
        px, py = cx + r * 1.02 * math.cos(a + math.pi / 5), cy + r * 1.02 * math.sin(a + math.pi / 5)
        _star(c, px, py, r * 0.34, 0, points=5, polygon=True)
        qx, qy = cx + r * 0.72 * math.cos(a), cy + r * 0.72 * math.sin(a)
        for side in (-1, 1):
            b = a + side * math.pi / 5
            c.line(qx, qy, cx + r * 0.83 * math.cos(b), cy + r * 0.83 * math.sin(b))
    c.restoreState()
    c.circle(cx, cy, r, stroke=1, fill=0)


@drawing("pitch")
def pitch(ctx: DrawContext, x, y, w, h, params):
    """A football pitch seen from above, our goal at the bottom, one line of a 4-3-3 highlighted.

    params: highlight (goalkeeper, defender, midfielder, forward), accent, grass, stripe.
    """
    c = ctx.c
    ratio = 1.45
    ph = min(h, w * ratio)
    pw = ph / ratio
    px, py = x + (w - pw) / 2, y + (h - ph) / 2
    grass = ctx.color(params.get("grass", "#2e8b3e"))
    stripe = ctx.color(params.get("stripe", "#34994a"))
    accent = ctx.color(params.get("accent", "#ffd600"))
    line = ctx.color("#ffffff")
    c.setFillColor(grass)
    c.roundRect(px, py, pw, ph, pw * 0.03, stroke=0, fill=1)
    c.setFillColor(stripe)
    for i in range(0, 10, 2):
        c.rect(px, py + ph * i / 10, pw, ph / 10, stroke=0, fill=1)
    m = pw * 0.06
    fx, fy, fw, fh = px + m, py + m, pw - 2 * m, ph - 2 * m
    rows = {"goalkeeper": 0.06, "defender": 0.26, "midfielder": 0.5, "forward": 0.76}
    highlight = str(params.get("highlight", ""))
    if highlight in rows:
        band = fh * 0.16
        c.setFillColor(accent)
        c.setFillAlpha(1)
        yb = fy + fh * rows[highlight] - band / 2
        c.setStrokeColor(accent)
        c.setLineWidth(0.8)
        c.setDash([2, 1.5])
        c.rect(fx, max(fy, yb), fw, band, stroke=1, fill=0)
        c.setDash([])
    c.setStrokeColor(line)
    c.setLineWidth(max(0.5, pw * 0.012))
    c.rect(fx, fy, fw, fh, stroke=1, fill=0)
    c.line(fx, fy + fh / 2, fx + fw, fy + fh / 2)
    c.circle(fx + fw / 2, fy + fh / 2, fw * 0.16, stroke=1, fill=0)
    for end in (0, 1):
        bw, bh = fw * 0.56, fh * 0.15
        sw, sh = fw * 0.26, fh * 0.055
        yy = fy if end == 0 else fy + fh - bh
        c.rect(fx + (fw - bw) / 2, yy, bw, bh, stroke=1, fill=0)
        yy = fy if end == 0 else fy + fh - sh
        c.rect(fx + (fw - sw) / 2, yy, sw, sh, stroke=1, fill=0)
        gw = fw * 0.14
        c.rect(fx + (fw - gw) / 2, fy - m * 0.5 if end == 0 else fy + fh, gw, m * 0.5, stroke=1, fill=0)
    formation = {"goalkeeper": [0.5], "defender": [0.14, 0.38, 0.62, 0.86], "midfielder": [0.22, 0.5, 0.78],
                 "forward": [0.2, 0.5, 0.8]}
    r = fw * 0.05
    for role, xs in formation.items():
        on = role == highlight
        for fxr in xs:
            cx, cy = fx + fw * fxr, fy + fh * rows[role]
            if on:
                c.setFillColor(accent)
                c.setStrokeColor(HexColor("#1a1a1a"))
                c.setLineWidth(0.8)
                c.circle(cx, cy, r * 1.5, stroke=1, fill=1)
            else:
                c.setFillColor(HexColor("#ffffff"))
                c.setStrokeColor(HexColor("#1b5e20"))
                c.setLineWidth(0.4)
                c.circle(cx, cy, r * 0.8, stroke=1, fill=1)


@drawing("portrait")
def portrait(ctx: DrawContext, x, y, w, h, params):
    """A drawn portrait of a player in a shirt, the same for the same seed.

    params: seed (e.g. the card id), shirt (colour), background, number (on the shirt),
    stadium (true: a row of floodlights behind the head; default false).
    """
    c = ctx.c
    rnd = _rng(_param(params, "seed"))
    s = min(w, h)
    cx, base = x + w / 2, y + (h - s) / 2
    u = s / 20
    bg = ctx.color(params.get("background", "#e3f2fd"))
    shirt = ctx.color(params.get("shirt", "#1565c0"))
    skins = ["#f6d5b8", "#eec39a", "#d9a066", "#b97a4e", "#8d5524", "#5c3a21"]
    hairs = ["#1c1c1c", "#3b2a1a", "#6b4226", "#a56b2a", "#d8b15a", "#b0b0b0", "#7a1f1f"]
    skin = HexColor(rnd.choice(skins))
    hair = HexColor(rnd.choice(hairs))
    style = rnd.choice(["short", "short", "curly", "long", "bald", "mohawk", "bun"])
    beard = rnd.random() < 0.3
    moustache = not beard and rnd.random() < 0.2
    c.saveState()
    p = c.beginPath()
    p.circle(cx, base + s / 2, s / 2)
    c.clipPath(p, stroke=0, fill=0)
    c.setFillColor(bg)
    c.rect(x, y, w, h, stroke=0, fill=1)
    if _flag(params, "stadium", "portrait"):  # stadium lights behind
        c.setFillColor(HexColor("#ffffff"))
        for i in range(6):
            c.circle(cx - 8 * u + i * 3.2 * u, base + 17.5 * u, 0.5 * u, stroke=0, fill=1)
    # shoulders and shirt
    c.setFillColor(shirt)
    p = c.beginPath()
    p.moveTo(cx - 10 * u, base)
    p.curveTo(cx - 10 * u, base + 4.5 * u, cx - 7 * u, base + 6 * u, cx - 2.5 * u, base + 6.8 * u)
    p.lineTo(cx + 2.5 * u, base + 6.8 * u)
    p.curveTo(cx + 7 * u, base + 6 * u, cx + 10 * u, base + 4.5 * u, cx + 10 * u, base)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    # neck
    c.setFillColor(skin)
    c.rect(cx - 1.6 * u, base + 5.5 * u, 3.2 * u, 2.5 * u, stroke=0, fill=1)
    # v collar
    c.setFillColor(HexColor("#ffffff"))
    p = c.beginPath()
    p.moveTo(cx - 2.6 * u, base + 6.8 * u)
    p.lineTo(cx, base + 4.4 * u)
    p.lineTo(cx + 2.6 * u, base + 6.8 * u)
    p.lineTo(cx + 1.8 * u, base + 6.8 * u)
    p.lineTo(cx, base + 5.3 * u)
    p.lineTo(cx - 1.8 * u, base + 6.8 * u)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    number = params.get("number")
    if number not in (None, ""):
        from cardgen.cards.fonts import font_name

        c.setFont(font_name("bold"), 3.2 * u)
        c.drawCentredString(cx + 5.5 * u, base + 1.5 * u, str(number))
    head_y = base + 11 * u
    if style == "long":
        c.setFillColor(hair)
        c.roundRect(cx - 4.4 * u, head_y - 4.5 * u, 8.8 * u, 8 * u, 2.5 * u, stroke=0, fill=1)
    if style == "bun":
        c.setFillColor(hair)
        c.circle(cx, head_y + 5.4 * u, 1.5 * u, stroke=0, fill=1)
    # ears and head
    c.setFillColor(skin)
    c.circle(cx - 3.8 * u, head_y, 0.9 * u, stroke=0, fill=1)
    c.circle(cx + 3.8 * u, head_y, 0.9 * u, stroke=0, fill=1)
    c.ellipse(cx - 3.8 * u, head_y - 4.6 * u, cx + 3.8 * u, head_y + 4.4 * u, stroke=0, fill=1)
    # hair
    c.setFillColor(hair)
    if style in ("short", "long", "bun"):
        p = c.beginPath()
        p.moveTo(cx - 3.9 * u, head_y + 0.8 * u)
        p.curveTo(cx - 4.2 * u, head_y + 5.4 * u, cx + 4.2 * u, head_y + 5.4 * u, cx + 3.9 * u, head_y + 0.8 * u)
        p.curveTo(cx + 2.5 * u, head_y + 3.0 * u, cx - 1.5 * u, head_y + 2.6 * u, cx - 3.9 * u, head_y + 0.8 * u)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
    elif style == "curly":
        for i in range(9):
            a = math.pi * (0.05 + 0.9 * i / 8)
            c.circle(cx + 3.4 * u * math.cos(a), head_y + 1.6 * u + 2.8 * u * math.sin(a), 1.25 * u, stroke=0, fill=1)
    elif style == "mohawk":
        c.roundRect(cx - 0.9 * u, head_y + 2.4 * u, 1.8 * u, 3.0 * u, 0.8 * u, stroke=0, fill=1)
    # eyes, brows, nose, mouth
    ink = HexColor("#222222")
    c.setFillColor(HexColor("#ffffff"))
    for side in (-1, 1):
        c.ellipse(cx + side * 1.5 * u - 0.75 * u, head_y - 0.05 * u - 0.5 * u,
                  cx + side * 1.5 * u + 0.75 * u, head_y - 0.05 * u + 0.5 * u, stroke=0, fill=1)
    c.setFillColor(ink)
    for side in (-1, 1):
        c.circle(cx + side * 1.5 * u, head_y - 0.05 * u, 0.36 * u, stroke=0, fill=1)
    c.setStrokeColor(hair if style != "bald" else ink)
    c.setLineWidth(0.45 * u)
    c.setLineCap(1)
    tilt = rnd.choice([-0.3, 0, 0.3])
    for side in (-1, 1):
        c.line(cx + side * 0.8 * u, head_y + 1.1 * u + tilt * u, cx + side * 2.3 * u, head_y + 1.2 * u)
    c.setStrokeColor(shade_of(skin))
    c.setLineWidth(0.35 * u)
    c.line(cx, head_y - 0.6 * u, cx - 0.4 * u, head_y - 1.8 * u)
    c.line(cx - 0.4 * u, head_y - 1.8 * u, cx + 0.3 * u, head_y - 1.9 * u)
    if beard:
        c.setFillColor(hair)
        p = c.beginPath()
        p.moveTo(cx - 3.7 * u, head_y - 0.8 * u)
        p.curveTo(cx - 3.4 * u, head_y - 5.8 * u, cx + 3.4 * u, head_y - 5.8 * u, cx + 3.7 * u, head_y - 0.8 * u)
        p.curveTo(cx + 2.5 * u, head_y - 3.2 * u, cx - 2.5 * u, head_y - 3.2 * u, cx - 3.7 * u, head_y - 0.8 * u)
        p.close()
        c.drawPath(p, stroke=0, fill=1)
    if moustache:
        c.setFillColor(hair)
        c.roundRect(cx - 1.5 * u, head_y - 2.55 * u, 3 * u, 0.6 * u, 0.3 * u, stroke=0, fill=1)
    c.setStrokeColor(HexColor("#8e3b2f"))
    c.setLineWidth(0.4 * u)
    c.arc(cx - 1.3 * u, head_y - 3.6 * u, cx + 1.3 * u, head_y - 2.0 * u, 200, 140)
    c.restoreState()
    c.setStrokeColor(shirt)
    c.setLineWidth(max(0.8, 0.35 * u))
    c.circle(cx, base + s / 2, s / 2, stroke=1, fill=0)


def shade_of(color: HexColor, t: float = 0.3) -> HexColor:
    from reportlab.lib.colors import Color

    return Color(color.red * (1 - t), color.green * (1 - t), color.blue * (1 - t))


@drawing("seats")
def seats(ctx: DrawContext, x, y, w, h, params):
    """Rows of stadium seats filling the box. params: colors (list), rows, background."""
    c = ctx.c
    colors = [ctx.color(v) for v in params.get("colors", ["#c62828", "#ffffff"])]
    c.setFillColor(ctx.color(params.get("background", "#37474f")))
    c.rect(x, y, w, h, stroke=0, fill=1)
    rows = int(drawing_number("seats", "rows", params.get("rows", 10)))
    rh = h / rows
    sw = rh * 0.95
    n = int(w / sw) + 2
    for r in range(rows):
        ry = y + r * rh
        offset = (sw / 2) if r % 2 else 0
        # the concrete step
        c.setFillColor(HexColor("#263238"))
        c.rect(x, ry, w, rh * 0.16, stroke=0, fill=1)
        for i in range(-1, n):
            sx = x + i * sw + offset
            col = colors[(i + r) % len(colors)] if params.get("pattern") == "checker" else colors[r % len(colors)]
            c.setFillColor(col)
            c.roundRect(sx + sw * 0.1, ry + rh * 0.45, sw * 0.8, rh * 0.48, rh * 0.12, stroke=0, fill=1)
            c.setFillColor(shade_of(col, 0.25))
            c.roundRect(sx + sw * 0.06, ry + rh * 0.2, sw * 0.88, rh * 0.3, rh * 0.1, stroke=0, fill=1)


@drawing("lattice")
def lattice(ctx: DrawContext, x, y, w, h, params):
    """A diagonal lattice of thin lines. params: color, step (mm), width (pt)."""
    c = ctx.c
    step = drawing_number("lattice", "step", params.get("step", 5)) * 72 / 25.4
    c.setStrokeColor(ctx.color(params.get("color", "#ffffff")))
    c.setLineWidth(drawing_number("lattice", "width", params.get("width", 0.6)))
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    k = -h
    while k < w + h:
        c.line(x + k, y, x + k + h, y + h)
        c.line(x + k + h, y, x + k, y + h)
        k += step


@drawing("stripes")
def stripes(ctx: DrawContext, x, y, w, h, params):
    """Mown-grass stripes across the box. params: color, count, direction (horizontal, vertical)."""
    c = ctx.c
    n = int(drawing_number("stripes", "count", params.get("count", 8)))
    c.setFillColor(ctx.color(params.get("color", "#ffffff")))
    if params.get("direction", "horizontal") == "vertical":
        for i in range(0, n, 2):
            c.rect(x + w * i / n, y, w / n, h, stroke=0, fill=1)
    else:
        for i in range(0, n, 2):
            c.rect(x, y + h * i / n, w, h / n, stroke=0, fill=1)


@drawing("scatter")
def scatter(ctx: DrawContext, x, y, w, h, params):
    """A symbol (or art file) scattered in a regular staggered grid. params: symbol, color, size (mm), step (mm)."""
    size = drawing_number("scatter", "size", params.get("size", 6)) * 72 / 25.4
    step = drawing_number("scatter", "step", params.get("step", 12)) * 72 / 25.4
    symbol = str(_param(params, "symbol"))
    rows = int(h / step) + 2
    cols = int(w / step) + 2
    c = ctx.c
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    for r in range(rows):
        for k in range(cols):
            cx = x + k * step + (step / 2 if r % 2 else 0)
            cy = y + r * step
            ctx.mark(symbol, cx - size / 2, cy - size / 2, size, size, params.get("color", "#ffffff"))
