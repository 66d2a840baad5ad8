"""CMYK for print shops: every colour and image through an ICC transform, sRGB to FOGRA39.

The layouts and art are written in sRGB.  For a CMYK printer a :class:`CmykCanvas`
(an :class:`~cardgen.color.ink.InkCanvas`, so it sees each colour at the moment a
shape, line or string is painted) converts it with littleCMS (Pillow's
``ImageCms``, relative colorimetric with black point compensation) into the
bundled FOGRA39 profile, and writes DeviceCMYK only.  Two uses get a different
separation, as prepress does by hand:

* small near-black text and thin near-black lines print on the black plate alone
  (100 % K; dark greys as their tone of K), since four plates never register
  exactly and small type in rich black shows coloured fringes;
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
PROFILES = {300: "fogra39-tac300.icc", 240: "fogra39-tac240.icc"}  # ink limit % -> file
OUTPUT_CONDITION = "FOGRA39"  # the characterisation the profiles reproduce (ISO 12647-2, coated paper)
CMYK = tuple[float, float, float, float]

NEUTRAL_SPREAD = 0.04  # an RGB colour whose channels differ less than this is a grey
NEAR_BLACK_LUMA = 0.25  # darker than this is black whatever its tint (the layouts' #263238 text is 0.19)
K_ONLY_LUMA = 0.5  # greys darker than this print on the black plate alone, as their tone of K
THIN_LINE_PT = 1.0  # a line this thin or thinner counts as thin
SMALL_TEXT_PT = 14.0  # text this size or smaller counts as small; headlines keep a rich black


def profile_for(tac: int) -> Path:
    """The bundled CMYK profile made with the highest ink limit not above ``tac``."""
    fitting = [limit for limit in PROFILES if limit <= tac]
    if not fitting:
        raise RenderError(f"no CMYK profile for a total ink limit of {tac} %; the lowest is {min(PROFILES)} %")
    path = ICC_DIR / PROFILES[max(fitting)]
    if not path.is_file():
        raise RenderError(f"the CMYK profile {path} is missing (tools/make-icc-profiles makes it)")
    return path


@lru_cache(maxsize=4)
def _transform(profile: Path):
    from PIL import ImageCms

    try:
        # from memory, not from the file: littleCMS reads a file's tags when they are first asked
        # for, and build workers forked after this share the file's offset (two of them reading at
        # once made 'Could not determine profile size' when a transform wrote its output profile)
        cmyk = ImageCms.ImageCmsProfile(io.BytesIO(profile.read_bytes()))
    except (OSError, ImageCms.PyCMSError) as exc:
        raise RenderError(f"cannot read the ICC profile {profile}: {exc}") from None
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), cmyk, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


class CmykConverter:
    """sRGB colours and images to CMYK within an ink limit (fractions 0..1 per plate)."""

    def __init__(self, tac: int):
        self.tac = tac
        self.profile = profile_for(tac)
        self._cache: dict[tuple[int, int, int], CMYK] = {}

    def area(self, rgb: RGB) -> CMYK:
        """The separation of a colour as the profile gives it, within the ink limit."""
        from PIL import Image, ImageCms

        key = tuple(round(min(1.0, max(0.0, v)) * 255) for v in rgb)
        if key not in self._cache:
            pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), key), _transform(self.profile))
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
        """K alone for near-black (100 %) and dark greys (their tone), None for other colours."""
        if luma(rgb) < NEAR_BLACK_LUMA:
            return (0.0, 0.0, 0.0, 1.0)
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
        out = ImageCms.applyTransform(image, _transform(self.profile))
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


def cmyk_canvas_class(tac: int, min_line_pt: float):
    """A canvas class drawing in CMYK within ``tac`` % and no line thinner than ``min_line_pt``."""
    return type(f"CmykCanvas_{tac}", (CmykCanvas,), {"converter": CmykConverter(tac), "min_line_pt": min_line_pt})


class CmykCanvas(InkCanvas):
    """Paints DeviceCMYK only; see the module's description for the separations it chooses."""

    converter: CmykConverter
    min_line_pt: float = 0.0

    def _scale(self) -> float:
        a, b, c, d, _, _ = self._currentMatrix
        return math.sqrt(abs(a * d - b * c)) or 1.0

    def _write(self, setter, cmyk: CMYK, attribute: str) -> None:
        if cmyk != getattr(self, attribute):
            setter(self, CMYKColor(*cmyk))
            setattr(self, attribute, cmyk)

    def _set_fill(self, rgb: RGB) -> None:
        self._write(Canvas.setFillColor, self.converter.area(rgb), "_ink_fill_set")

    def _set_stroke(self, rgb: RGB) -> None:
        scale = self._scale()
        width = self._lineWidth * scale
        if width < self.min_line_pt:
            Canvas.setLineWidth(self, self.min_line_pt / scale)
            width = self.min_line_pt
        cmyk = (self.converter.black_only(rgb) if width <= THIN_LINE_PT else None) or self.converter.area(rgb)
        self._write(Canvas.setStrokeColor, cmyk, "_ink_stroke_set")

    def drawText(self, aTextObject):
        rgb = self.policy.text(self._ink_fill, self._ink_back)
        small = getattr(aTextObject, "_fontsize", self._fontsize) * self._scale() <= SMALL_TEXT_PT
        cmyk = (self.converter.black_only(rgb) if small else None) or self.converter.area(rgb)
        self._write(Canvas.setFillColor, cmyk, "_ink_fill_set")
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
