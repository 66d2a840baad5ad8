"""Ink modes of the print-and-play sheets: full colour, ink-saver and greyscale.

Home printers pay for ink, so the print-and-play PDFs can be drawn in a mode that
spends less of it; the print-shop files always stay in full colour.

The modes work where the renderer sets colours, not in the layouts: an
:class:`InkCanvas` is a reportlab canvas that remembers the colour asked for
and, just before each shape, line or string is painted, sets the colour the
mode's :class:`InkPolicy` gives for that use:

* ``fill`` (an area; the policy sees its size in square points of the card or
  page, so a card background and a suit pip can be treated differently),
* ``stroke`` (a line), and
* ``text`` (a string).

Raster images are repainted by :meth:`InkPolicy.image` as they are drawn
(:mod:`cardgen.cards.raster`).  Every layout, drawing, symbol and art file therefore saves ink with no
change of its own, including the layouts of decks cardgen has never seen.

``ink-saver``: large areas fade to pale tints and keep a thin outline in their
own colour; small ones (pips, icons, flag details) keep more of their colour,
the smaller the more; backs are pale throughout; light text (white on a colour
band that is now pale) turns dark in its own hue, light lines turn grey.
``greyscale``: every colour becomes its luminance grey, and text darker still.
``full`` draws with reportlab's own canvas, so its files are exactly those of
a build without ink modes.
"""

from __future__ import annotations

import math
import re
from contextlib import contextmanager
from typing import Iterator

from reportlab.pdfgen.canvas import Canvas

from cardgen.errors import RenderError

INK_MODES = ("full", "ink-saver", "greyscale")
DEFAULT_INK = "full"

RGB = tuple[float, float, float]
MM2 = (72.0 / 25.4) ** 2  # square points in a square millimetre

# Areas in mm^2 between which the ink-saver fades a fill from its full colour to a pale tint;
# 120 mm^2 is a pip or corner icon, 900 mm^2 a flag, a pitch, a card background.
SMALL_AREA_MM2 = 120.0
LARGE_AREA_MM2 = 900.0
PALE_KEEP = 0.2  # share of a colour's ink that a large area keeps (0: white, 1: unchanged)
BACK_KEEP = 0.16  # the same for every area of a card back
OUTLINE_BELOW = 0.55  # a fill that keeps less than this gets an outline in its own colour
OUTLINE_PT = 0.45  # outline width in points of the page
OUTLINE_LUMA = 0.7  # only colours darker than this get an outline
LIGHT_LINE = 0.85  # a line this light (luma) was drawn on a colour that is now pale: make it grey
LINE_GREY = 0.6
BACK_LINE_GREY = 0.72  # the same on a back, where lines are pattern more than drawing
BACK_LINE_KEEP = 0.45  # other lines of a back: a pattern meant to be faint on a dark colour stays faint
LIGHT_TEXT = 0.5  # text lighter than this (luma) was on a colour that is now pale: make it dark
DARK_TEXT = 0.22


def check_ink(mode: str) -> str:
    """``mode`` when it is one of :data:`INK_MODES`, else a :class:`RenderError`."""
    if mode not in INK_MODES:
        raise RenderError(f"unknown ink mode '{mode}'; expected one of: {', '.join(INK_MODES)}")
    return mode


def ink_suffix(mode: str) -> str:
    """The file name suffix of an ink mode: none for full colour, ``-ink-saver``, ``-greyscale``."""
    return "" if check_ink(mode) == DEFAULT_INK else f"-{mode}"


def luma(rgb: RGB) -> float:
    """Luminance grey of an RGB colour (ITU-R BT.601 weights, as greyscale printing uses)."""
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


def _quantise(rgb: RGB) -> RGB:
    # whole steps of 1/255 keep the content streams short and the output stable
    return tuple(round(min(1.0, max(0.0, v)) * 255) / 255 for v in rgb)  # type: ignore[return-value]


def _towards_white(rgb: RGB, keep: float) -> RGB:
    return tuple(1.0 - (1.0 - v) * keep for v in rgb)  # type: ignore[return-value]


def _with_luma(rgb: RGB, target: float) -> RGB:
    """The same hue darkened (or lightened) to luminance ``target``."""
    current = luma(rgb)
    if current <= 1e-6:
        return (target, target, target)
    scale = target / current
    scaled = tuple(v * scale for v in rgb)
    if max(scaled) > 1.0:  # a saturated colour cannot be lightened by scaling alone
        return (target, target, target)
    return scaled  # type: ignore[return-value]


class InkPolicy:
    """The colour actually painted for a colour asked for, by use; full colour changes nothing."""

    mode = DEFAULT_INK

    def fill(self, rgb: RGB, area_mm2: float, back: bool) -> tuple[RGB, RGB | None]:
        """(fill colour, outline colour or None) of an area of ``area_mm2``."""
        return rgb, None

    def stroke(self, rgb: RGB, back: bool) -> RGB:
        return rgb

    def text(self, rgb: RGB, back: bool) -> RGB:
        return rgb

    def image(self, pixels, area_mm2: float, back: bool):
        """A raster image's pixels (a PIL image in RGB or L) as the mode paints them."""
        return pixels


class InkSaver(InkPolicy):
    mode = "ink-saver"

    @staticmethod
    def keep(area_mm2: float, back: bool) -> float:
        """Share of a fill's ink kept: all of it for small areas, PALE_KEEP for large ones
        (linear in the logarithm of the area between them), BACK_KEEP on backs."""
        if back:
            return BACK_KEEP
        if area_mm2 <= SMALL_AREA_MM2:
            return 1.0
        if area_mm2 >= LARGE_AREA_MM2:
            return PALE_KEEP
        t = math.log(area_mm2 / SMALL_AREA_MM2) / math.log(LARGE_AREA_MM2 / SMALL_AREA_MM2)
        return 1.0 - (1.0 - PALE_KEEP) * t

    def fill(self, rgb: RGB, area_mm2: float, back: bool) -> tuple[RGB, RGB | None]:
        keep = self.keep(area_mm2, back)
        if keep >= 1.0:
            return rgb, None
        outline = None
        # a faded area keeps its shape as a thin line in its own colour; a light colour needs
        # none (its tint still shows, and the seams of a shape built from several would show
        # too), and on backs only large areas get one (a pattern of outlines is ink again)
        if keep < OUTLINE_BELOW and luma(rgb) < OUTLINE_LUMA and (not back or area_mm2 >= LARGE_AREA_MM2):
            outline = rgb
        return _towards_white(rgb, keep), outline

    def stroke(self, rgb: RGB, back: bool) -> RGB:
        if luma(rgb) > LIGHT_LINE:
            return _with_luma(rgb, BACK_LINE_GREY if back else LINE_GREY)
        return _towards_white(rgb, BACK_LINE_KEEP) if back else rgb

    def text(self, rgb: RGB, back: bool) -> RGB:
        return _with_luma(rgb, DARK_TEXT) if luma(rgb) > LIGHT_TEXT else rgb

    def image(self, pixels, area_mm2: float, back: bool):
        """Faded towards white as a fill of the same size: a card's illustration keeps a pale
        picture, an icon its colour (no outline: a picture has no one shape to outline)."""
        keep = self.keep(area_mm2, back)
        if keep >= 1.0:
            return pixels
        table = [round(255 - (255 - v) * keep) for v in range(256)]
        return pixels.point(table * len(pixels.getbands()))


class Greyscale(InkPolicy):
    mode = "greyscale"

    def fill(self, rgb: RGB, area_mm2: float, back: bool) -> tuple[RGB, RGB | None]:
        grey = luma(rgb)
        return (grey, grey, grey), None

    def stroke(self, rgb: RGB, back: bool) -> RGB:
        grey = luma(rgb)
        return (grey, grey, grey)

    def text(self, rgb: RGB, back: bool) -> RGB:
        grey = luma(rgb)
        if grey < LIGHT_TEXT:  # dark text a little darker still; light text on dark stays light
            grey *= 0.6
        return (grey, grey, grey)

    def image(self, pixels, area_mm2: float, back: bool):
        """Grey pixels: Pillow's L is the same ITU-R BT.601 luminance as :func:`luma`."""
        return pixels.convert("L") if pixels.mode != "L" else pixels


POLICIES: dict[str, type[InkPolicy]] = {"full": InkPolicy, "ink-saver": InkSaver, "greyscale": Greyscale}


def policy(mode: str) -> InkPolicy:
    return POLICIES[check_ink(mode)]()


# --- the size of what is painted ------------------------------------------------------------------

_PATH_TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[A-Za-z*]+")


def path_bbox_area(code: str) -> float:
    """Area of the bounding box of PDF path construction code (``m l c v y re h``), in
    the path's own units; painting operators and anything else are ignored."""
    xs: list[float] = []
    ys: list[float] = []
    numbers: list[float] = []
    for token in _PATH_TOKEN.findall(code):
        if token[0].isalpha() or token == "*":
            if token == "re" and len(numbers) >= 4:
                x, y, w, h = numbers[-4:]
                xs += [x, x + w]
                ys += [y, y + h]
            elif token in ("m", "l", "c", "v", "y"):
                xs += numbers[0::2]
                ys += numbers[1::2]
            numbers = []
        else:
            numbers.append(float(token))
    if not xs:
        return 0.0
    return (max(xs) - min(xs)) * (max(ys) - min(ys))


def _as_rgb(color) -> RGB:
    from reportlab.lib.colors import Color, toColor

    if isinstance(color, (tuple, list)) and len(color) == 3:
        return (float(color[0]), float(color[1]), float(color[2]))
    if not isinstance(color, Color):
        color = toColor(color)
    return (float(color.red), float(color.green), float(color.blue))


# --- the canvas -----------------------------------------------------------------------------------

_CANVAS_CLASSES: dict[str, type] = {}


def canvas_class(mode: str):
    """The reportlab canvas class that draws in ``mode``: reportlab's own for full colour."""
    if check_ink(mode) == DEFAULT_INK:
        return Canvas
    if mode not in _CANVAS_CLASSES:
        _CANVAS_CLASSES[mode] = type(f"InkCanvas_{mode.replace('-', '_')}", (InkCanvas,), {"policy": policy(mode)})
    return _CANVAS_CLASSES[mode]


class InkCanvas(Canvas):
    """A reportlab canvas that paints each fill, line and string in the colour its
    :attr:`policy` gives for that use (see the module's description).

    Colours asked for are remembered (``_ink_fill``, ``_ink_stroke``); the colour last
    written into the content stream (``_ink_fill_set``, ``_ink_stroke_set``) is part of
    the graphics state, saved and restored with it, and unknown (None) at the start of a
    page or form, since a form inherits the colours of wherever it is placed.
    """

    policy: InkPolicy = InkPolicy()
    STATE_ATTRIBUTES = Canvas.STATE_ATTRIBUTES + ["_ink_fill", "_ink_stroke", "_ink_fill_set",
                                               "_ink_stroke_set"]

    def init_graphics_state(self):
        super().init_graphics_state()
        self._ink_fill = self._ink_stroke = (0.0, 0.0, 0.0)
        self._ink_fill_set = self._ink_stroke_set = None
        if not hasattr(self, "_ink_back"):
            self._ink_back = False

    @contextmanager
    def ink_surface(self, side: str) -> Iterator[None]:
        """Draw a card ``side`` ("face" or "back"): backs fade as a whole."""
        before = self._ink_back
        self._ink_back = side == "back"
        try:
            yield
        finally:
            self._ink_back = before

    # colours asked for: remembered, written when something is painted
    def setFillColor(self, aColor, alpha=None):
        self._ink_fill = _as_rgb(aColor)
        if alpha is not None:
            self.setFillAlpha(alpha)

    def setStrokeColor(self, aColor, alpha=None):
        self._ink_stroke = _as_rgb(aColor)
        if alpha is not None:
            self.setStrokeAlpha(alpha)

    def _set_fill(self, rgb: RGB) -> None:
        rgb = _quantise(rgb)
        if rgb != self._ink_fill_set:
            super().setFillColor(rgb)
            self._ink_fill_set = rgb

    def _set_stroke(self, rgb: RGB) -> None:
        rgb = _quantise(rgb)
        if rgb != self._ink_stroke_set:
            super().setStrokeColor(rgb)
            self._ink_stroke_set = rgb

    def _area_mm2(self, area: float) -> float:
        a, b, c, d, _, _ = self._currentMatrix
        return abs(area * (a * d - b * c)) / MM2

    def _prepare(self, stroke, fill, area: float) -> RGB | None:
        """Write the colours of a shape about to be painted; return its outline colour, if any."""
        outline = None
        if fill:
            rgb, outline = self.policy.fill(self._ink_fill, self._area_mm2(area), self._ink_back)
            self._set_fill(rgb)
        if stroke:
            self._set_stroke(self.policy.stroke(self._ink_stroke, self._ink_back))
            outline = None  # the shape has its own outline
        return outline

    def _shape(self, paint, stroke, fill, area: float) -> None:
        """Paint a shape; a faded fill without a stroke of its own also gets a thin outline."""
        outline = self._prepare(stroke, fill, area)
        if outline is None:
            paint(stroke, fill)
            return
        self.saveState()
        self._set_stroke(outline)
        a, b, c, d, _, _ = self._currentMatrix
        scale = math.sqrt(abs(a * d - b * c)) or 1.0
        self.setLineWidth(OUTLINE_PT / scale)
        self.setDash([])
        self.setLineJoin(1)
        paint(1, fill)
        self.restoreState()

    # shapes
    def rect(self, x, y, width, height, stroke=1, fill=0):
        self._shape(lambda s, f: super(InkCanvas, self).rect(x, y, width, height, s, f), stroke, fill,
                    width * height)

    def roundRect(self, x, y, width, height, radius, stroke=1, fill=0):
        self._shape(lambda s, f: super(InkCanvas, self).roundRect(x, y, width, height, radius, s, f), stroke, fill,
                    width * height)

    def ellipse(self, x1, y1, x2, y2, stroke=1, fill=0):  # circle() draws through ellipse()
        self._shape(lambda s, f: super(InkCanvas, self).ellipse(x1, y1, x2, y2, s, f), stroke, fill,
                    math.pi / 4 * (x2 - x1) * (y2 - y1))

    def wedge(self, x1, y1, x2, y2, startAng, extent, stroke=1, fill=0):
        self._shape(lambda s, f: super(InkCanvas, self).wedge(x1, y1, x2, y2, startAng, extent, s, f), stroke, fill,
                    math.pi / 4 * (x2 - x1) * (y2 - y1) * min(1.0, abs(extent) / 360))

    def drawPath(self, aPath, stroke=1, fill=0, fillMode=None):
        area = path_bbox_area(aPath.getCode()) if fill else 0.0
        self._shape(lambda s, f: super(InkCanvas, self).drawPath(aPath, s, f, fillMode), stroke, fill, area)

    def clipPath(self, aPath, stroke=1, fill=0, fillMode=None):
        if stroke or fill:
            self._prepare(stroke, fill, path_bbox_area(aPath.getCode()) if fill else 0.0)
        super().clipPath(aPath, stroke, fill, fillMode)

    # lines
    def _line_colour(self) -> None:
        self._set_stroke(self.policy.stroke(self._ink_stroke, self._ink_back))

    def line(self, x1, y1, x2, y2):
        self._line_colour()
        super().line(x1, y1, x2, y2)

    def lines(self, linelist):
        self._line_colour()
        super().lines(linelist)

    def bezier(self, x1, y1, x2, y2, x3, y3, x4, y4):
        self._line_colour()
        super().bezier(x1, y1, x2, y2, x3, y3, x4, y4)

    def arc(self, x1, y1, x2, y2, startAng=0, extent=90):
        self._line_colour()
        super().arc(x1, y1, x2, y2, startAng, extent)

    # text: drawString, drawCentredString and drawRightString all end here
    def drawText(self, aTextObject):
        self._set_fill(self.policy.text(self._ink_fill, self._ink_back))
        super().drawText(aTextObject)
