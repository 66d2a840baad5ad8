"""CMYK for print shops: every colour and image through an ICC transform, sRGB to the printer's condition.

The layouts and art are written in sRGB.  For a CMYK printer a :class:`CmykCanvas`
(an :class:`~cardgen.color.ink.InkCanvas`, so it sees each colour at the moment a
shape, line or string is painted) converts it with littleCMS (Pillow's
``ImageCms``, relative colorimetric with black point compensation) into the
bundled FOGRA39 profile, and writes DeviceCMYK only.  Two uses get a different
separation, as prepress does by hand:

* small near-black text and thin near-black lines print on the black plate alone
  (100 % K; dark greys as their tone of K), since four plates never register
  exactly and small type in rich black shows coloured fringes.  Near-black means
  dark *and* near-neutral: CIELAB lightness below the printer's ``black_lightness``
  and chroma below its ``black_chroma``, so a dark purple, blue or brown keeps its
  hue.  That 100 % K overprints (``/OP /op true /OPM 1``): it knocks no hole into
  the colours under it, so a misregistered plate shows no white halo; large
  black areas keep the profile's rich black and knock out as usual;
* no colour exceeds the printer's total ink coverage: the profile was made with
  that limit, and what gamut mapping leaves above it loses C, M and Y (not K).

Lines thinner than the printer's minimum are widened to it where they are
stroked.  The profiles live in ``cardgen/color/icc`` (how they were made:
``tools/make-icc-profiles``; why these: README, "Print shops").
"""

from __future__ import annotations

import io

import math
from functools import lru_cache
from pathlib import Path

from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from cardgen import resources
from cardgen.errors import RenderError
from cardgen.color.ink import RGB, InkCanvas, luma

ICC_DIR = resources.ICC_PROFILES
OUTPUT_CONDITION = "FOGRA39"  # the default characterisation (ISO 12647-2 offset, coated paper)
#: output condition (ICC registry name) -> {ink limit % -> profile file}; how each was made: tools/make-icc-profiles
PROFILES = {
    "FOGRA39": {300: "fogra39-tac300.icc", 240: "fogra39-tac240.icc"},
    "CGATS TR 005": {240: "swop5-tr005-tac240.icc"},  # SWOP, grade 5 coated (the US publication condition)
}
#: how a PDF/X output intent describes each condition (its OutputCondition)
CONDITION_NAMES = {
    "FOGRA39": "FOGRA39 (ISO 12647-2, coated paper)",
    "CGATS TR 005": "SWOP on grade 5 coated paper (CGATS TR 005)",
}
CMYK = tuple[float, float, float, float]

NEUTRAL_SPREAD = 0.04  # an RGB colour whose channels differ less than this is a grey
BLACK_CHROMA = 10.0  # CIELAB C*ab below which a dark colour is black (the layouts' #263238 is 6.4, purple #621982 65)
BLACK_LIGHTNESS = 27.0  # L* below which such a colour prints as 100 % K (#263238 is 20.0; grey 25 % luma is 27)
K_ONLY_LUMA = 0.5  # greys darker than this print on the black plate alone, as their tone of K
K100 = (0.0, 0.0, 0.0, 1.0)
THIN_LINE_PT = 1.0  # a line this thin or thinner counts as thin
SMALL_TEXT_PT = 14.0  # text this size or smaller counts as small; headlines keep a rich black


def profile_for(tac: int, condition: str = OUTPUT_CONDITION) -> Path:
    """The bundled CMYK profile of ``condition`` made with the highest ink limit not above ``tac``."""
    if condition not in PROFILES:
        raise RenderError(f"no CMYK profile for the output condition '{condition}'; "
                          f"bundled: {', '.join(PROFILES)}")
    limits = PROFILES[condition]
    fitting = [limit for limit in limits if limit <= tac]
    if not fitting:
        raise RenderError(f"no {condition} profile for a total ink limit of {tac} %; the lowest is {min(limits)} %")
    path = ICC_DIR / limits[max(fitting)]
    if not path.is_file():
        raise RenderError(f"the CMYK profile {path} is missing (tools/make-icc-profiles makes it)")
    return path


def lab(rgb: RGB) -> tuple[float, float, float]:
    """CIELAB (D65 white) of an sRGB colour: what :meth:`CmykConverter.black_only` judges neutrality by."""
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(min(1.0, max(0.0, v))) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def chroma(rgb: RGB) -> float:
    _, a, b = lab(rgb)
    return math.hypot(a, b)


INTENTS = {"relative": "RELATIVE_COLORIMETRIC", "perceptual": "PERCEPTUAL"}


@lru_cache(maxsize=8)
def _transform(profile: Path, intent: str = "relative", bpc: bool = True):
    from PIL import ImageCms

    try:
        # from memory, not from the file: littleCMS reads a file's tags when they are first asked
        # for, and build workers forked after this share the file's offset (two of them reading at
        # once made 'Could not determine profile size' when a transform wrote its output profile)
        cmyk = ImageCms.ImageCmsProfile(io.BytesIO(profile.read_bytes()))
    except (OSError, ImageCms.PyCMSError) as exc:
        raise RenderError(f"cannot read the ICC profile {profile}: {exc}") from None
    flags = ImageCms.Flags.BLACKPOINTCOMPENSATION if bpc else ImageCms.Flags.NONE
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), cmyk, "RGB", "CMYK",
                                   renderingIntent=getattr(ImageCms.Intent, INTENTS[intent]), flags=flags)


class CmykConverter:
    """sRGB colours and images to CMYK within an ink limit (fractions 0..1 per plate)."""

    def __init__(self, tac: int, intent: str = "relative", bpc: bool = True, black_chroma: float = BLACK_CHROMA,
                 black_lightness: float = BLACK_LIGHTNESS, condition: str = OUTPUT_CONDITION):
        if intent not in INTENTS:
            raise RenderError(f"unknown rendering intent '{intent}'; expected one of: {', '.join(INTENTS)}")
        self.tac, self.intent, self.bpc = tac, intent, bpc
        self.black_chroma, self.black_lightness = black_chroma, black_lightness
        self.condition = condition
        self.profile = profile_for(tac, condition)
        self._cache: dict[tuple[int, int, int], CMYK] = {}

    def area(self, rgb: RGB) -> CMYK:
        """The separation of a colour as the profile gives it, within the ink limit."""
        from PIL import Image, ImageCms

        key = tuple(round(min(1.0, max(0.0, v)) * 255) for v in rgb)
        if key not in self._cache:
            pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), key), _transform(self.profile, self.intent, self.bpc))
            self._cache[key] = self.limit(tuple(v / 255 for v in pixel.getpixel((0, 0))))
        return self._cache[key]

    def limit(self, cmyk: CMYK) -> CMYK:
        c, m, y, k = cmyk
        budget = self.tac / 100 - k
        if c + m + y > budget:
            scale = max(0.0, budget) / (c + m + y)
            c, m, y = c * scale, m * scale, y * scale
        # thousandths: short content streams; floor keeps the sum under the limit
        return tuple(math.floor(v * 1000) / 1000 for v in (c, m, y, k))  # type: ignore[return-value]

    def black_only(self, rgb: RGB) -> CMYK | None:
        """K alone for near-black (100 %) and dark greys (their tone), None for other colours.

        Near-black is dark and near-neutral (L* and C*ab below the printer's limits): a dark
        purple, navy or brown is a colour, and keeps its separation."""
        lightness, a, b = lab(rgb)
        if lightness < self.black_lightness and math.hypot(a, b) < self.black_chroma:
            return K100
        if max(rgb) - min(rgb) >= NEUTRAL_SPREAD or luma(rgb) >= K_ONLY_LUMA:
            return None
        return (0.0, 0.0, 0.0, round(1.0 - luma(rgb), 3))

    def image(self, image):
        """A PIL image in CMYK (transparency flattened on white: PDF/X-1a has none)."""
        from PIL import Image, ImageCms

        if image.mode == "CMYK":
            return image
        if image.mode in ("RGBA", "LA", "P", "PA"):
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            image = flat
        elif image.mode != "RGB":
            image = image.convert("RGB")
        out = ImageCms.applyTransform(image, _transform(self.profile, self.intent, self.bpc))
        if self.tac < 400:
            out = Image.merge("CMYK", _limit_bands(out, self.tac))
        return out


def _limit_bands(image, tac: int):
    """Bands of a CMYK image whose C, M and Y are scaled down where the sum exceeds ``tac`` %."""
    import numpy as np
    from PIL import Image

    data = np.asarray(image, dtype=np.float64)
    cmy, k = data[..., :3], data[..., 3]
    budget = np.maximum(0.0, tac / 100 * 255 - k)
    total = cmy.sum(axis=2)
    scale = np.where(total > budget, budget / np.maximum(total, 1e-9), 1.0)
    data[..., :3] = np.floor(cmy * scale[..., None])
    return [Image.fromarray(data[..., i].astype(np.uint8), "L") for i in range(4)]


def cmyk_canvas_class(tac: int, min_line_pt: float, intent: str = "relative", bpc: bool = True,
                      black_chroma: float = BLACK_CHROMA, black_lightness: float = BLACK_LIGHTNESS,
                      condition: str = OUTPUT_CONDITION):
    """A canvas class drawing in CMYK within ``tac`` % and no line thinner than ``min_line_pt``."""
    converter = CmykConverter(tac, intent, bpc, black_chroma, black_lightness, condition)
    return type(f"CmykCanvas_{tac}", (CmykCanvas,), {"converter": converter, "min_line_pt": min_line_pt})


class CmykCanvas(InkCanvas):
    """Paints DeviceCMYK only; see the module's description for the separations it chooses."""

    converter: CmykConverter
    min_line_pt: float = 0.0
    STATE_ATTRIBUTES = InkCanvas.STATE_ATTRIBUTES + ["_overprint_set"]

    def init_graphics_state(self):
        super().init_graphics_state()
        self._overprint_set = (False, False, 0)  # (OP, op, OPM) in force: a page or form starts without

    def _overprint(self) -> None:
        """Overprint exactly the 100 % K in force: the stroke when it is K100 (a thin line), the
        fill when it is K100 (small text); anything else knocks out as usual.  Each ExtGState
        written names one key; OP is written before op, since a state with OP alone sets op too."""
        stroke, fill = self._ink_stroke_set == K100, self._ink_fill_set == K100
        was_stroke, was_fill, mode = self._overprint_set
        if (stroke, fill) == (was_stroke, was_fill):
            return
        if (stroke or fill) and mode != 1:
            self._graphics_state("OPM", 1)
            mode = 1
        if stroke != was_stroke:
            self._graphics_state("OP", stroke)
            was_fill = stroke
        if fill != was_fill:
            self._graphics_state("op", fill)
        self._overprint_set = (stroke, fill, mode)

    def _setXObjects(self, thing):
        """reportlab writes a form's resources without its ExtGState (PDFFormXObject.format builds
        them from fonts and XObjects only): a form that sets overprint gets resources naming both."""
        super()._setXObjects(thing)
        from reportlab.pdfbase import pdfdoc

        states = getattr(thing, "ExtGState", None)
        if isinstance(thing, pdfdoc.PDFFormXObject) and states and not thing.Resources:
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            resources.basicProcs()
            if thing.XObjects:
                resources.XObject = thing.XObjects
            resources.ExtGState = states
            thing.Resources = resources

    def _graphics_state(self, key: str, value) -> None:
        """``/gRLsN gs`` for the one-key ExtGState {key: value}, through reportlab's own table of
        them (so the page's or form's resources name it), whatever reportlab believes is in force."""
        states = self._extgstate
        entry = (key, str(value).lower() if isinstance(value, bool) else value)
        if entry not in states._c:
            states._c[entry] = f"gRLs{len(states._c)}"
        states._d[key] = value
        self._code.append(f"/{states._c[entry]} gs")

    def _scale(self) -> float:
        a, b, c, d, _, _ = self._currentMatrix
        return math.sqrt(abs(a * d - b * c)) or 1.0

    def _write(self, setter, cmyk: CMYK, attribute: str) -> None:
        if cmyk != getattr(self, attribute):
            setter(self, CMYKColor(*cmyk))
            setattr(self, attribute, cmyk)

    def _set_fill(self, rgb: RGB) -> None:
        self._write(Canvas.setFillColor, self.converter.area(rgb), "_ink_fill_set")
        self._overprint()

    def _set_stroke(self, rgb: RGB) -> None:
        scale = self._scale()
        width = self._lineWidth * scale
        if width < self.min_line_pt:
            Canvas.setLineWidth(self, self.min_line_pt / scale)
            width = self.min_line_pt
        cmyk = (self.converter.black_only(rgb) if width <= THIN_LINE_PT else None) or self.converter.area(rgb)
        self._write(Canvas.setStrokeColor, cmyk, "_ink_stroke_set")
        self._overprint()

    def drawText(self, aTextObject):
        rgb = self.policy.text(self._ink_fill, self._ink_back)
        small = getattr(aTextObject, "_fontsize", self._fontsize) * self._scale() <= SMALL_TEXT_PT
        cmyk = (self.converter.black_only(rgb) if small else None) or self.converter.area(rgb)
        self._write(Canvas.setFillColor, cmyk, "_ink_fill_set")
        self._overprint()
        Canvas.drawText(self, aTextObject)

    def drawImage(self, image, x, y, width=None, height=None, mask=None, preserveAspectRatio=False,
                  anchor="c", anchorAtXY=False, showBoundary=False, extraReturn=None):
        return Canvas.drawImage(self, self._cmyk_image(image), x, y, width, height, None, preserveAspectRatio,
                                anchor, anchorAtXY, showBoundary, extraReturn)

    def drawInlineImage(self, image, x, y, width=None, height=None, preserveAspectRatio=False, anchor="c",
                        anchorAtXY=False, showBoundary=False, extraReturn=None):
        return Canvas.drawInlineImage(self, self._cmyk_image(image), x, y, width, height, preserveAspectRatio,
                                      anchor, anchorAtXY, showBoundary, extraReturn)

    def _cmyk_image(self, image):
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        if isinstance(image, ImageReader):
            image = image._image
        elif isinstance(image, (str, Path)):
            with Image.open(image) as opened:
                image = opened.copy()
        return ImageReader(self.converter.image(image))
