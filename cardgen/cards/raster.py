"""Raster art: PNG, JPEG, TIFF and WebP files on cards, colour-managed for each output.

A layout places an image with an element ``type: image`` (or names one wherever
art is named: ``draw: "{card.art}"``, a back's ``art``).  This module converts a
decoded file's colours for what is being made, brings it down to the output's
resolution and draws it into a box.

Reading.  The files are read and decoded by :mod:`cardgen.content.images` (size caps, decompression
bombs, damaged files, 16-bit and palette images, alpha kept apart), once per process.

Colour.  An embedded ICC profile is honoured through littleCMS (Pillow's
``ImageCms``; relative colorimetric with black point compensation, as the rest
of cardgen's CMYK).  RGB outputs (print-and-play, RGB shop PDFs, PNGs, tabletop
sheets) get sRGB pixels.  A CMYK printer file (:class:`cardgen.color.cmyk.CmykCanvas`)
gets the printer's CMYK: RGB images go through its output profile in one step,
with the total ink limited as for every colour; a CMYK image already in the
printer's condition (its profile is the printer's profile or names its condition,
FOGRA39, or it has none) and within its ink limit is placed exactly as decoded;
another CMYK profile (or more ink than the printer takes) converts CMYK to CMYK.  Images
without a profile are sRGB (RGB) or the printer's condition (CMYK; FOGRA39 for
RGB outputs).  Greyscale images print on the black plate alone.

Storing.  A JPEG file's pixels are stored as a JPEG again (quality :data:`JPEG_QUALITY`): they
were lossy already, and Flate holds a photograph at about five times the size; every other
image is stored losslessly (Flate), and so is a CMYK image placed exactly as decoded.

Resolution and sharing.  An image placed at more than :data:`DOWNSAMPLE_ABOVE`
times the output's resolution is resampled to that resolution (Lanczos), so a
sheet of 8,000-pixel art stays a sensible size.  The pixels prepared for an
output are cached, and reportlab stores identical image data once per PDF, so
a back drawn on every card is one image object referenced by each.
"""

from __future__ import annotations

import hashlib
import io
import math
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardgen.errors import RenderError
# the file side of raster art (reading, decoding, caches) is content's
from cardgen.content.images import Raster, _error, _footprint, _profile, _trim, read_raster

#: Bytes of pixels prepared for an output (cropped, resampled, converted) kept in a process.
PREPARED_BUDGET = 512 * 1024 * 1024

#: Resampled when placed at more than this many times the output's resolution.
DOWNSAMPLE_ABOVE = 1.5
#: The resolution of what is made when the canvas does not say (print-and-play; every printer asks 300).
DEFAULT_DPI = 300
#: Alignments of a picture in its box: (fraction from the left, fraction from the top).
ALIGNMENTS = {
    "center": (0.5, 0.5), "top": (0.5, 0.0), "bottom": (0.5, 1.0), "left": (0.0, 0.5), "right": (1.0, 0.5),
    "top-left": (0.0, 0.0), "top-right": (1.0, 0.0), "bottom-left": (0.0, 1.0), "bottom-right": (1.0, 1.0),
}
FITS = ("contain", "cover", "stretch")
#: Quality of a JPEG file's pixels stored again as a JPEG (after cropping, resampling, colour conversion).
JPEG_QUALITY = 92
#: Profile of untagged CMYK images in RGB outputs (the printer condition cardgen's CMYK files use).
DEFAULT_CMYK_PROFILE = "fogra39-tac300.icc"




def raster_path(game_root: Path, name: str) -> Path:
    """The image file ``name`` names, relative to the game folder and fenced in it."""
    from cardgen.cards.svgart import game_file

    return game_file(game_root, name, "image file")


# --- reading ------------------------------------------------------------------------------------------



# --- placing ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Placement:
    """How a picture goes into a box: all a plan needs to say (hashable)."""

    fit: str = "contain"
    anchor: tuple[float, float] = (0.5, 0.5)  # fractions from the left and the top (alignment)
    focus: tuple[float, float] | None = None  # cover: the point kept nearest the box's centre
    crop: tuple[int, int, int, int] | None = None  # x, y, w, h in source pixels
    rotate: int = 0  # quarter turns, counter-clockwise degrees


def check_crop(crop, width: int, height: int) -> str | None:
    """What is wrong with ``crop`` for an image of width x height pixels, or None."""
    if crop is None:
        return None
    x, y, w, h = crop
    if w < 1 or h < 1 or x < 0 or y < 0 or x + w > width or y + h > height:
        return (f"crop [{x}, {y}, {w}, {h}] does not lie inside the image ({width} x {height} pixels); "
                "give x, y, width and height in pixels")
    return None


def visible(width: int, height: int, box_w: float, box_h: float, place: Placement
            ) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
    """(source window x0, y0, x1, y1 in the cropped and turned picture's pixels, picture rectangle
    x, y, w, h within the box, y from the box's bottom) for a picture of width x height."""
    if place.crop is not None:
        width, height = place.crop[2], place.crop[3]
    if place.rotate in (90, 270):
        width, height = height, width
    ax, ay = place.anchor
    if place.fit == "stretch":
        return (0, 0, width, height), (0.0, 0.0, box_w, box_h)
    if place.fit == "contain":
        scale = min(box_w / width, box_h / height)
        w, h = width * scale, height * scale
        return (0, 0, width, height), ((box_w - w) * ax, (box_h - h) * (1 - ay), w, h)
    # cover: the window of the picture with the box's proportions
    scale = max(box_w / width, box_h / height)
    win_w, win_h = min(width, box_w / scale), min(height, box_h / scale)
    if place.focus is not None:
        x0 = min(max(place.focus[0] * width - win_w / 2, 0.0), width - win_w)
        y0 = min(max(place.focus[1] * height - win_h / 2, 0.0), height - win_h)
    else:
        x0, y0 = (width - win_w) * ax, (height - win_h) * ay
    return (x0, y0, x0 + win_w, y0 + win_h), (0.0, 0.0, box_w, box_h)


def effective_ppi(width: int, height: int, box_w_mm: float, box_h_mm: float, place: Placement) -> tuple[float, float, float]:
    """(ppi, placed width mm, placed height mm) of a picture in a box of box_w_mm x box_h_mm."""
    (x0, y0, x1, y1), (_, _, w, h) = visible(width, height, box_w_mm, box_h_mm, place)
    if w <= 0 or h <= 0:
        return 0.0, w, h
    return min((x1 - x0) / (w / 25.4), (y1 - y0) / (h / 25.4)), w, h


# --- colour ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _srgb():
    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


@lru_cache(maxsize=8)
def _file_profile(path: Path):
    from PIL import ImageCms

    try:  # from memory: see cardgen.color.cmyk._transform (a file's offset is shared by forked workers)
        return _profile(_profile_bytes(path))
    except (OSError, ImageCms.PyCMSError) as exc:
        raise RenderError(f"cannot read the ICC profile {path}: {exc}") from None


def _default_cmyk_profile() -> Path:
    from cardgen.color.cmyk import ICC_DIR

    return ICC_DIR / DEFAULT_CMYK_PROFILE


@lru_cache(maxsize=32)
def _transform(source: bytes | str, target: str, in_mode: str, out_mode: str):
    """A littleCMS transform; profiles are ICC bytes or "srgb" or a profile file's path."""
    from PIL import ImageCms

    def load(which):
        if which == "srgb":
            return _srgb()
        if isinstance(which, bytes):
            return _profile(which)
        return _file_profile(Path(which))

    return ImageCms.buildTransform(load(source), load(target), in_mode, out_mode,
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def _is_srgb(raster: Raster) -> bool:
    return raster.icc is None or raster.profile.lower().startswith("srgb")


@lru_cache(maxsize=8)
def _profile_bytes(path: Path) -> bytes:
    return path.read_bytes()


def same_profile(icc: bytes | None, printer_profile: Path) -> bool:
    """Whether an image's CMYK profile is the printer's (none counts as the printer's condition)."""
    if icc is None:
        return True
    if icc == _profile_bytes(printer_profile):
        return True
    from PIL import ImageCms

    try:
        return (ImageCms.getProfileDescription(_profile(icc)).strip()
                == ImageCms.getProfileDescription(_file_profile(printer_profile)).strip())
    except (OSError, ImageCms.PyCMSError):
        return False


def same_condition(icc: bytes | None, printer_profile: Path) -> bool:
    """Whether a CMYK image is made for the printer's output condition: no profile (read as the
    printer's), the printer's own profile, or a profile naming its condition (FOGRA39, or the
    condition of :data:`cardgen.color.cmyk.PROFILES` whose file the printer uses)."""
    from PIL import ImageCms

    from cardgen.color.cmyk import OUTPUT_CONDITION, PROFILES

    if same_profile(icc, printer_profile):
        return True
    condition = next((name for name, files in PROFILES.items() if printer_profile.name in files.values()),
                     OUTPUT_CONDITION)
    try:
        return condition.lower() in ImageCms.getProfileDescription(_profile(icc)).lower()
    except (OSError, ImageCms.PyCMSError):
        return False


def passes_through(raster: Raster, pixels, printer_profile: Path, tac: int) -> bool:
    """A CMYK image in the printer's condition and within its ink limit: placed exactly as decoded."""
    import numpy as np

    if pixels.mode != "CMYK" or not same_condition(raster.icc, printer_profile):
        return False
    return int(np.asarray(pixels, dtype=np.uint16).sum(axis=2).max(initial=0)) <= tac * 255 / 100 + 0.5


def to_srgb(raster: Raster, pixels):
    """``pixels`` (a part of ``raster``) in sRGB, or grey."""
    from PIL import ImageCms

    if pixels.mode == "L":
        return pixels
    if pixels.mode == "CMYK":
        source = raster.icc if raster.icc is not None else str(_default_cmyk_profile())
        return ImageCms.applyTransform(pixels, _transform(source, "srgb", "CMYK", "RGB"))
    if _is_srgb(raster):
        return pixels
    return ImageCms.applyTransform(pixels, _transform(raster.icc, "srgb", "RGB", "RGB"))


def to_cmyk(raster: Raster, pixels, profile: Path, tac: int):
    """``pixels`` in the printer's CMYK (``profile``, total ink ``tac`` %): see the module's description."""
    from PIL import Image, ImageCms

    from cardgen.color.cmyk import _limit_bands

    if pixels.mode == "L":  # the black plate alone, in the grey's tone
        k = pixels.point(lambda v: 255 - v)
        blank = Image.new("L", pixels.size, 0)
        return Image.merge("CMYK", (blank, blank, blank, k))
    if pixels.mode == "CMYK":
        if passes_through(raster, pixels, profile, tac):
            return pixels  # already in the printer's condition: placed exactly as decoded
        # another condition, or more ink than the printer takes: CMYK to CMYK (untagged: as FOGRA39)
        source = raster.icc if raster.icc is not None else str(_default_cmyk_profile())
        out = ImageCms.applyTransform(pixels, _transform(source, str(profile), "CMYK", "CMYK"))
    else:
        source = "srgb" if _is_srgb(raster) else raster.icc
        out = ImageCms.applyTransform(pixels, _transform(source, str(profile), "RGB", "CMYK"))
    return Image.merge("CMYK", _limit_bands(out, tac)) if tac < 400 else out


# --- drawing --------------------------------------------------------------------------------------------

_PREPARED: OrderedDict[tuple, Any] = OrderedDict()


def _output(canvas) -> tuple:
    """What the canvas makes, as a cache key: ("cmyk", profile, tac), ("ink", mode) or ("rgb",)."""
    converter = getattr(canvas, "converter", None)
    if converter is not None and hasattr(converter, "profile"):
        return ("cmyk", str(converter.profile), converter.tac)
    policy = getattr(canvas, "policy", None)
    if policy is not None and policy.mode != "full":
        return ("ink", policy.mode)
    return ("rgb",)


def output_dpi(canvas) -> int:
    """The resolution images are prepared for on ``canvas`` (``canvas.image_dpi`` when it says)."""
    return int(getattr(canvas, "image_dpi", None) or DEFAULT_DPI)


def prepared(raster: Raster, box_w_pt: float, box_h_pt: float, place: Placement, output: tuple, dpi: int,
             area_mm2: float = 0.0, back: bool = False):
    """(pixels, alpha or None, picture rectangle in the box, whether the pixels are the file's own
    CMYK placed as decoded) ready for ``output``; cached."""
    from PIL import Image

    key = (raster.digest, round(box_w_pt, 3), round(box_h_pt, 3), place, output, dpi,
           round(area_mm2) if output[0] == "ink" else 0, back if output[0] == "ink" else False)
    found = _PREPARED.get(key)
    if found is not None:
        _PREPARED.move_to_end(key)
        return found
    pixels, alpha = raster.pixels, raster.alpha
    if place.crop is not None:
        x, y, w, h = place.crop
        pixels = pixels.crop((x, y, x + w, y + h))
        alpha = alpha.crop((x, y, x + w, y + h)) if alpha is not None else None
    if place.rotate:
        turn = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180,
                270: Image.Transpose.ROTATE_270}[place.rotate]
        pixels = pixels.transpose(turn)
        alpha = alpha.transpose(turn) if alpha is not None else None
    (x0, y0, x1, y1), rect = visible(raster.width, raster.height, box_w_pt, box_h_pt, place)
    window = (round(x0), round(y0), max(round(x0) + 1, round(x1)), max(round(y0) + 1, round(y1)))
    if window != (0, 0) + pixels.size:
        pixels = pixels.crop(window)
        alpha = alpha.crop(window) if alpha is not None else None
    # far above the output's resolution: resampled to it
    wanted = (max(1, math.ceil(rect[2] / 72 * dpi)), max(1, math.ceil(rect[3] / 72 * dpi)))
    if pixels.size[0] > wanted[0] * DOWNSAMPLE_ABOVE or pixels.size[1] > wanted[1] * DOWNSAMPLE_ABOVE:
        size = (min(pixels.size[0], wanted[0]), min(pixels.size[1], wanted[1]))
        pixels = pixels.resize(size, Image.Resampling.LANCZOS)
        alpha = alpha.resize(size, Image.Resampling.LANCZOS) if alpha is not None else None
    exact = False
    if output[0] == "cmyk":
        exact = passes_through(raster, pixels, Path(output[1]), output[2])
        pixels = to_cmyk(raster, pixels, Path(output[1]), output[2])
    else:
        pixels = to_srgb(raster, pixels)
        if output[0] == "ink":
            from cardgen.color.ink import policy

            pixels = policy(output[1]).image(pixels, area_mm2, back)
    result = (pixels, alpha, rect, exact)
    _PREPARED[key] = result
    _trim(_PREPARED, PREPARED_BUDGET, lambda entry: _footprint(entry[0], entry[1]))
    return result


def _reader(pixels, alpha, lossy: bool = False):
    """A reportlab image of ``pixels`` with ``alpha`` as its soft mask (any of L, RGB and CMYK).

    ``lossy``: stored as a JPEG (DCT, quality :data:`JPEG_QUALITY`, no chroma subsampling) rather
    than Flate, which holds a photograph at about five times the size.
    """
    from reportlab.lib.utils import ImageReader

    if lossy and alpha is None:
        buffer = io.BytesIO()
        # Pillow writes CMYK as Adobe does (inverted, APP14); reportlab's DCT images say /Decode [1 0 ...]
        pixels.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0)
        buffer.seek(0)
        return ImageReader(buffer)

    class _Pixels(ImageReader):
        def getRGBData(self):
            if self._data is None:
                self.mode = self._image.mode
                self._data = self._image.tobytes()
            self._dataA = _Pixels(alpha) if alpha is not None else None
            return self._data

    return _Pixels(pixels)


def draw_raster(canvas, path: Path, x: float, y: float, w: float, h: float, fit: str = "contain",
                anchor: tuple[float, float] = (0.5, 0.5), focus: tuple[float, float] | None = None,
                crop: tuple[int, int, int, int] | None = None, rotate: int = 0) -> None:
    """Draw the image file ``path`` into the box x, y, w, h (points, bottom-left origin)."""
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.color.ink import MM2

    raster = read_raster(path)
    problem = check_crop(crop, raster.width, raster.height)
    if problem is not None:
        raise _error(path, problem)
    if w <= 0 or h <= 0:
        return
    place = Placement(fit, tuple(anchor), tuple(focus) if focus is not None else None,
                      tuple(crop) if crop is not None else None, rotate)
    a, b, c, d, _, _ = getattr(canvas, "_currentMatrix", (1, 0, 0, 1, 0, 0))
    scale = math.sqrt(abs(a * d - b * c)) or 1.0
    output = _output(canvas)
    pixels, alpha, (px, py, pw, ph), exact = prepared(raster, w * scale, h * scale, place, output, output_dpi(canvas),
                                               w * h * scale * scale / MM2, getattr(canvas, "_ink_back", False))
    # the rectangle was found for the box as placed on the page: back to the box's own units
    px, py, pw, ph = px / scale, py / scale, pw / scale, ph / scale
    # a JPEG's pixels are lossy already: stored as a JPEG again, unless they must reach the file exactly
    # (a CMYK image in the printer's condition, placed as decoded)
    lossy = raster.format == "JPEG" and not exact
    if lossy and alpha is None:
        # reportlab's own drawImage: the CMYK canvas would convert the pixels a second time
        Canvas.drawImage(canvas, _reader(pixels, None, True), x + px, y + py, pw, ph)
    else:
        _draw_lossless(canvas, pixels, alpha, x + px, y + py, pw, ph)


# --- lossless image objects ------------------------------------------------------------------------------

_SPACES = {"L": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK"}


def png_predicted(pixels) -> bytes:
    """Flate data of ``pixels`` (L, RGB or CMYK) with PNG's Paeth predictor on every row.

    reportlab compresses raw samples; a painted or photographed picture then stays about
    as large as it is raw, and with the predictor (PDF's /Predictor 15) it is about half that.
    """
    import zlib

    import numpy as np

    data = np.asarray(pixels, dtype=np.int16)
    if data.ndim == 2:
        data = data[..., None]
    left = np.zeros_like(data)
    left[:, 1:] = data[:, :-1]
    up = np.zeros_like(data)
    up[1:] = data[:-1]
    corner = np.zeros_like(data)
    corner[1:, 1:] = data[:-1, :-1]
    estimate = left + up - corner
    pa, pb, pc = np.abs(estimate - left), np.abs(estimate - up), np.abs(estimate - corner)
    predictor = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, corner))
    rows = ((data - predictor) % 256).astype(np.uint8).reshape(data.shape[0], -1)
    filtered = np.concatenate([np.full((rows.shape[0], 1), 4, dtype=np.uint8), rows], axis=1)
    return zlib.compress(filtered.tobytes(), 6)


def _image_object(name: str, pixels, smask=None):
    """A reportlab image XObject of ``pixels`` stored with :func:`png_predicted`."""
    from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFImageXObject, PDFName, PDFStream

    class _Predicted(PDFImageXObject):
        def format(self, document):
            stream = PDFStream(content=self.streamContent)
            entries = stream.dictionary
            entries["Type"] = PDFName("XObject")
            entries["Subtype"] = PDFName("Image")
            entries["Width"] = self.width
            entries["Height"] = self.height
            entries["BitsPerComponent"] = 8
            entries["ColorSpace"] = PDFName(self.colorSpace)
            # one filter, one dictionary of parameters (an array of filters wants an array of them:
            # pdfium and poppler ignore a lone dictionary beside an array, qpdf does not)
            entries["Filter"] = PDFName("FlateDecode")
            entries["DecodeParms"] = PDFDictionary({"Predictor": 15, "Colors": len(pixels.getbands()),
                                                    "BitsPerComponent": 8, "Columns": self.width})
            if getattr(self, "smask", None):
                entries["SMask"] = self.smask
            return stream.format(document)

    found = _Predicted(name)
    found.width, found.height = pixels.size
    found.colorSpace = _SPACES[pixels.mode]
    found.streamContent = png_predicted(pixels)
    found.mask = None
    return found


def _draw_lossless(canvas, pixels, alpha, x: float, y: float, w: float, h: float) -> None:
    """Place ``pixels`` (soft mask ``alpha``) as one image object per PDF, however often drawn.

    As reportlab's ``drawImage`` does (an XObject named by a digest of the data, registered
    once in the document), with the data stored by :func:`png_predicted`.
    """
    image = _image_object("", pixels)
    mask = _image_object("", alpha) if alpha is not None else None
    digest = hashlib.sha256(image.streamContent + (mask.streamContent if mask is not None else b"")).hexdigest()
    name = f"Raster{digest[:24]}"
    doc = canvas._doc
    registered = doc.getXObjectName(name)
    if doc.idToObject.get(registered) is None:
        image.name = name
        if mask is not None:
            mask.name = name + "A"
            image.smask = doc.Reference(mask, doc.getXObjectName(mask.name))
        doc.Reference(image, registered)
        doc.addForm(name, image)
    canvas._currentPageHasImages = 1
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w, h)
    canvas._code.append(f"/{registered} Do")
    canvas.restoreState()
    canvas._formsinuse.append(name)

