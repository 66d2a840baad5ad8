"""Reading raster image files (PNG, JPEG, TIFF, WebP): the art a game's folder holds.

A file is read like every content file (:mod:`cardgen.content.safefile`): a regular file
inside the game folder, at most :data:`MAX_BYTES`.  Pillow opens it by its content (PNG,
JPEG, TIFF or WebP; a PNG named ``.jpg`` is read as the PNG it is, and ``cardgen validate``
warns about the name); an image of more than :data:`MAX_PIXELS` pixels is refused before it
is decoded (a decompression bomb is a few kilobytes that decode to gigabytes), and a
truncated or damaged file, an image of 0 pixels or an unreadable colour profile is a
:class:`RasterError` naming the file.  The DPI tag is not read: the layout's box sets the
size, so an absurd DPI tag changes nothing.  16-bit images are read at 8 bits per channel
(what PDF printing gets in the end), palette and greyscale images as what they show, alpha
kept apart.  Each file is decoded once per process (within :data:`DECODED_BUDGET`), and that a
file decodes is remembered on disk by its bytes (:mod:`cardgen.content.memo`), so loading a
game checks its art without decoding it again.

What is done with the pixels (colour for each output, placing, storing in a PDF) is the
renderer's: :mod:`cardgen.cards.raster`.
"""

from __future__ import annotations

import hashlib
import io
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


def is_raster_name(name: Any) -> bool:
    """Whether ``name`` (a ``draw:``, ``src:`` or ``art:`` value) names a raster image file."""
    return isinstance(name, str) and name.lower().endswith(RASTER_SUFFIXES)


def misnamed_format(name: str, fmt: str) -> str | None:
    """``fmt`` when the file name ``name`` says another format (a PNG named .jpg), else None."""
    named = SUFFIX_FORMATS.get(Path(name).suffix.lower())
    return fmt if named is not None and named != fmt else None



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


def image_digest(path: Path) -> str:
    """The digest of an image file's bytes (for a card's plan: a changed file is a changed card)."""
    return probe(path).digest
