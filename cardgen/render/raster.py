"""Raster art: PNG, JPEG, TIFF and WebP files on cards, colour-managed for each output.

A layout places an image with an element ``type: image`` (or names one wherever
art is named: ``draw: "{card.art}"``, a back's ``art``).  This module knows the
files: it reads them, decodes them once per process, converts their colours for
what is being made, brings them down to the output's resolution and draws them
into a box.

Reading.  A file is read like every content file (:mod:`cardgen.content.safefile`):
a regular file inside the game folder, at most :data:`MAX_BYTES`.  Pillow opens
it by its content (PNG, JPEG, TIFF or WebP; a PNG named ``.jpg`` is read as the
PNG it is, and ``cardgen validate`` warns about the name); an image of more than
:data:`MAX_PIXELS` pixels is refused before it is decoded (a decompression bomb
is a few kilobytes that decode to gigabytes), and a truncated or damaged file,
an image of 0 pixels or an unreadable colour profile is a :class:`RenderError`
naming the file.  The DPI tag is not read: the layout's box sets the size, so an
absurd DPI tag changes nothing.  16-bit images are read at 8 bits per channel
(what PDF printing gets in the end), palette and greyscale images as what they
show, alpha kept apart.

Colour.  An embedded ICC profile is honoured through littleCMS (Pillow's
``ImageCms``; relative colorimetric with black point compensation, as the rest
of cardgen's CMYK).  RGB outputs (print-and-play, RGB shop PDFs, PNGs, tabletop
sheets) get sRGB pixels.  A CMYK printer file (:class:`cardgen.render.color.CmykCanvas`)
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
import os
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardgen.content.safefile import UnsafeFile, read_capped
from cardgen.errors import Locator, RenderError

#: File name endings read as raster images (case-insensitive).
RASTER_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp")
#: The formats Pillow may open: nothing else is tried, whatever the file says it is.
FORMATS = ("PNG", "JPEG", "TIFF", "WEBP")
SUFFIX_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF", ".webp": "WEBP"}
#: The largest file read: a 10,000-pixel CMYK TIFF without compression is about 400 MB; art is rarely
#: half of that, and a bigger file is a mistake or an attack.
MAX_BYTES = 256 * 1024 * 1024
#: The most pixels decoded (12,000 x 8,333): above it an image is refused before decoding.
MAX_PIXELS = 100_000_000
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


def is_raster_name(name: Any) -> bool:
    """Whether ``name`` (a ``draw:``, ``src:`` or ``art:`` value) names a raster image file."""
    return isinstance(name, str) and name.lower().endswith(RASTER_SUFFIXES)


def misnamed_format(name: str, fmt: str) -> str | None:
    """``fmt`` when the file name ``name`` says another format (a PNG named .jpg), else None."""
    named = SUFFIX_FORMATS.get(Path(name).suffix.lower())
    return fmt if named is not None and named != fmt else None


def raster_path(game_root: Path, name: str) -> Path:
    """The image file ``name`` names, relative to the game folder and fenced in it."""
    from cardgen.render.svgart import game_file

    return game_file(game_root, name, "image file")


# --- reading ------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Raster:
    """One decoded image file: pixels in L, RGB or CMYK, alpha apart (None when opaque)."""

    path: Path
    digest: str  # SHA-256 of the file's bytes
    format: str  # PNG, JPEG, TIFF, WEBP
    width: int
    height: int
    pixels: Any  # PIL image, mode L, RGB or CMYK
    alpha: Any  # PIL image, mode L, or None
    icc: bytes | None
    profile: str  # description of the embedded profile, or "" for none

    @property
    def mode(self) -> str:
        return self.pixels.mode

    def misnamed(self) -> str | None:
        """The format the file holds when its name says another one, else None."""
        return misnamed_format(self.path.name, self.format)


@dataclass(frozen=True)
class Probe:
    """What a file's header says (no pixels decoded): enough to plan a card."""

    digest: str
    format: str
    width: int
    height: int


class RasterError(RenderError):
    """An image file that cannot be placed; ``reason`` says why without naming the file."""

    def __init__(self, reason: str, path: Path):
        super().__init__(f"image '{path.name}': {reason}", Locator(file=path))
        self.reason = reason

    def named(self, name: str) -> RenderError:
        """The same error naming the file as the layout or the card names it."""
        return RenderError(f"image '{name}': {self.reason}")


def _error(path: Path, message: str) -> RasterError:
    return RasterError(message, path)


def _read_bytes(path: Path) -> bytes:
    try:
        return read_capped(path, MAX_BYTES)
    except UnsafeFile as exc:
        raise _error(path, f"cannot read: {exc}") from None


def _stat_key(path: Path) -> tuple:
    try:
        info = os.stat(path)
    except OSError as exc:
        raise _error(path, f"cannot read: {exc.strerror or exc}") from None
    return (str(path), info.st_mtime_ns, info.st_size, info.st_ino)


def _open(data: bytes, path: Path):
    """The Pillow image of ``data`` (header read, pixels not yet), checked for size."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            # Pillow warns from 89 million pixels: the cap below is cardgen's own
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            warnings.simplefilter("ignore", UserWarning)  # Pillow's notes on damaged tags: errors follow, or none
            image = Image.open(io.BytesIO(data), formats=FORMATS)
    except UnidentifiedImageError:
        raise _error(path, "not a PNG, JPEG, TIFF or WebP image (or a damaged one)") from None
    except Image.DecompressionBombError:
        raise _error(path, f"the image declares more than {MAX_PIXELS:,} pixels (a decompression bomb?)") from None
    except (OSError, SyntaxError, ValueError, EOFError, KeyError, IndexError, TypeError, MemoryError) as exc:
        raise _error(path, f"cannot read the image: {_reason(exc)}") from None
    width, height = image.size
    if width < 1 or height < 1:
        raise _error(path, f"the image is {width} x {height} pixels; an image needs at least one")
    if width * height > MAX_PIXELS:
        raise _error(path, f"the image is {width:,} x {height:,} pixels, more than {MAX_PIXELS:,} "
                           "(a decompression bomb?, or art far larger than print needs)")
    return image


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


_PROBES: OrderedDict[tuple, Probe] = OrderedDict()
_RASTERS: OrderedDict[str, Raster] = OrderedDict()
#: Bytes of decoded pixels kept in a process, the least recently used dropped first (the last one
#: is always kept): a game of small art is decoded once, a game of 8,000-pixel art as it is drawn.
DECODED_BUDGET = 768 * 1024 * 1024
#: The same for pixels prepared for an output (cropped, resampled, converted).
PREPARED_BUDGET = 512 * 1024 * 1024


def _footprint(*images) -> int:
    return sum(image.size[0] * image.size[1] * len(image.getbands()) for image in images if image is not None)


def _trim(cache: OrderedDict, budget: int, size) -> None:
    """Drop the least recently used entries of ``cache`` until what it holds fits ``budget``."""
    total = sum(size(value) for value in cache.values())
    while total > budget and len(cache) > 1:
        _, value = cache.popitem(last=False)
        total -= size(value)


def _remember(raster: Raster) -> Raster:
    _RASTERS[raster.digest] = raster
    _trim(_RASTERS, DECODED_BUDGET, lambda r: _footprint(r.pixels, r.alpha))
    return raster


def probe(path: Path) -> Probe:
    """Digest, format and size of an image file, once per file version in a process."""
    key = _stat_key(path)
    found = _PROBES.get(key)
    if found is None:
        data = _read_bytes(path)
        image = _open(data, path)
        found = Probe(hashlib.sha256(data).hexdigest(), image.format, image.size[0], image.size[1])
        image.close()
        _PROBES[key] = found
        while len(_PROBES) > 1024:
            _PROBES.popitem(last=False)
    return found


def read_raster(path: Path) -> Raster:
    """The decoded image of ``path``: once per file contents in a process (keyed by its digest)."""
    key = _stat_key(path)
    known = _PROBES.get(key)
    if known is not None and known.digest in _RASTERS:
        _RASTERS.move_to_end(known.digest)
        return _RASTERS[known.digest]
    data = _read_bytes(path)
    digest = hashlib.sha256(data).hexdigest()
    raster = _RASTERS.get(digest)
    if raster is None:
        raster = _remember(_decode(data, path, digest))
    _PROBES[key] = Probe(digest, raster.format, raster.width, raster.height)
    return raster


def verify(path: Path) -> Probe:
    """Digest, format and size of an image file that decodes (else a :class:`RasterError`).

    That a file's bytes decode is remembered between runs (:mod:`cardgen.content.memo`,
    keyed by the bytes' digest), so loading a game checks its art without decoding it again.
    """
    from cardgen.content import memo

    key = _stat_key(path)
    known = _PROBES.get(key)
    if known is not None and known.digest in _RASTERS:
        return known
    data = _read_bytes(path)
    digest = hashlib.sha256(data).hexdigest()

    def decode() -> Probe:
        raster = _RASTERS.get(digest) or _remember(_decode(data, path, digest))
        return Probe(digest, raster.format, raster.width, raster.height)

    found = memo.cached("raster", [digest], decode)
    _PROBES[key] = found
    return found


def _decode(data: bytes, path: Path, digest: str) -> Raster:
    from PIL import Image, ImageFile

    image = _open(data, path)
    fmt = image.format
    icc = image.info.get("icc_profile") or None
    # WeasyPrint (the rulebook) sets Pillow's LOAD_TRUNCATED_IMAGES for the whole process when it is
    # imported: a truncated card image would then print grey where its pixels are missing
    lenient = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's notes on odd but readable files
            image.load()
    except (OSError, SyntaxError, ValueError, EOFError, KeyError, IndexError, TypeError, MemoryError,
            Image.DecompressionBombError) as exc:
        raise _error(path, f"cannot decode the image (truncated or damaged?): {_reason(exc)}") from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = lenient
    pixels, alpha = _normalise(image, path)
    profile = ""
    if icc is not None:
        profile = _check_profile(icc, pixels.mode, path)
        if pixels.mode == "L":
            icc, profile = None, ""  # a grey profile: greys print as greys, on the black plate in CMYK
    return Raster(path, digest, fmt, pixels.size[0], pixels.size[1], pixels, alpha, icc, profile)


def _normalise(image, path: Path):
    """(pixels in L, RGB or CMYK; alpha in L or None) of any mode Pillow decodes."""
    import numpy as np
    from PIL import Image

    mode = image.mode
    alpha = None
    if mode == "P" or mode == "PA":
        image = image.convert("RGBA")
        mode = "RGBA"
    if mode in ("RGBA", "RGBa", "LA", "La"):
        alpha = image.getchannel("A")
        image = image.convert("RGB" if mode.startswith("RGB") else "L")
    elif mode in ("RGB", "L", "CMYK"):
        pass
    elif mode == "1":
        image = image.convert("L")
    elif mode.startswith("I;16") or mode in ("I", "F"):
        # 16-bit (or wider) grey: the top 8 bits of a 16-bit scale, not Pillow's clipping
        values = np.asarray(image, dtype=np.float64)
        top = 65535.0 if mode.startswith("I;16") or values.max(initial=0) > 255 else 255.0
        image = Image.fromarray(np.clip(np.round(values / top * 255), 0, 255).astype(np.uint8), "L")
    elif mode in ("RGBX", "YCbCr"):
        image = image.convert("RGB")
    else:
        raise _error(path, f"unsupported colour mode {mode} (use RGB, CMYK, greyscale or a palette)")
    if alpha is not None and alpha.getextrema() == (255, 255):
        alpha = None  # an alpha channel that hides nothing: no soft mask for it
    return image, alpha


@lru_cache(maxsize=32)
def _profile(icc: bytes):
    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(io.BytesIO(icc))


def _check_profile(icc: bytes, mode: str, path: Path) -> str:
    from PIL import ImageCms

    try:
        profile = _profile(icc)
        description = (ImageCms.getProfileDescription(profile) or "").strip()
    except (OSError, ImageCms.PyCMSError, ValueError, TypeError) as exc:
        raise _error(path, f"the embedded colour profile cannot be read: {_reason(exc)}") from None
    space = profile.profile.xcolor_space.strip()
    wanted = {"RGB": "RGB", "CMYK": "CMYK", "L": "GRAY"}[mode]
    if space != wanted:
        raise _error(path, f"the embedded colour profile '{description[:60]}' is for {space} images, "
                           f"but the image is {'greyscale' if mode == 'L' else mode}")
    return description or "unnamed profile"


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

    try:
        return ImageCms.ImageCmsProfile(str(path))
    except (OSError, ImageCms.PyCMSError) as exc:
        raise RenderError(f"cannot read the ICC profile {path}: {exc}") from None


def _default_cmyk_profile() -> Path:
    from cardgen.render.color import ICC_DIR

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
    printer's), the printer's own profile, or a profile naming its condition (FOGRA39)."""
    from PIL import ImageCms

    from cardgen.render.color import OUTPUT_CONDITION

    if same_profile(icc, printer_profile):
        return True
    try:
        return OUTPUT_CONDITION.lower() in ImageCms.getProfileDescription(_profile(icc)).lower()
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

    from cardgen.render.color import _limit_bands

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
            from cardgen.render.ink import policy

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

    from cardgen.render.ink import MM2

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


def image_digest(path: Path) -> str:
    """The digest of an image file's bytes (for a card's plan: a changed file is a changed card)."""
    return probe(path).digest
