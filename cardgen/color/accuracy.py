"""How closely a CMYK file prints the sRGB colours it was made from: CIEDE2000 per colour.

A colour goes the way a print-shop file takes it (:class:`~cardgen.color.cmyk.CmykConverter`:
sRGB to CMYK through the printer's profile, rendering intent and black point compensation,
then within the ink limit), and back from those CMYK values to CIELAB through the same
profile's colorimetric table (relative colorimetric: paper white is L* 100, what a proof
shows).  The difference from the colour's own CIELAB (sRGB, relative to its white, D50 like
the ICC connection space) is the error the print carries; :func:`delta_e00` is CIEDE2000
(Sharma, Wu and Dalal 2005).  The figures chose each printer's intent and black point
compensation (docs/print-shops.md gives them).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cardgen.color.cmyk import OUTPUT_CONDITION, CmykConverter
from cardgen.color.ink import RGB
from cardgen.color.vision import ciede2000 as delta_e00  # CIEDE2000, one implementation for both rooms' measures

LAB = tuple[float, float, float]


# littleCMS pixel formats (lcms2.h): FLOAT_SH(1) | COLORSPACE_SH(space) | CHANNELS_SH(n) | BYTES_SH(0)
_TYPE_RGB_DBL = (1 << 22) | (4 << 16) | (3 << 3)
_TYPE_CMYK_DBL = (1 << 22) | (6 << 16) | (4 << 3)
_TYPE_LAB_DBL = (1 << 22) | (10 << 16) | (3 << 3)
_RELATIVE = 1


@lru_cache(maxsize=1)
def _lcms():
    """The system's littleCMS 2 (ctypes), for CIELAB in doubles: Pillow's 8-bit LAB steps a* and
    b* by whole units, too coarse for errors of a few tenths.  None when it is not installed."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("lcms2")
    if not name:
        return None
    lib = ctypes.CDLL(name)
    lib.cmsOpenProfileFromMem.restype = ctypes.c_void_p
    lib.cmsOpenProfileFromMem.argtypes = [ctypes.c_char_p, ctypes.c_uint32]
    lib.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
    lib.cmsCreateLab4Profile.restype = ctypes.c_void_p
    lib.cmsCreateLab4Profile.argtypes = [ctypes.c_void_p]
    lib.cmsCreateTransform.restype = ctypes.c_void_p
    lib.cmsCreateTransform.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32,
                                       ctypes.c_uint32, ctypes.c_uint32]
    lib.cmsDoTransform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
    return lib


@lru_cache(maxsize=4)
def _to_lab(source: Path | None):
    """(transform, kind) to CIELAB D50 from sRGB (None) or the CMYK profile at ``source``."""
    lib = _lcms()
    if lib is not None:
        lab = lib.cmsCreateLab4Profile(None)
        if source is None:
            handle = lib.cmsCreate_sRGBProfile()
            form = _TYPE_RGB_DBL
        else:
            data = source.read_bytes()
            handle = lib.cmsOpenProfileFromMem(data, len(data))
            form = _TYPE_CMYK_DBL
        return lib.cmsCreateTransform(handle, form, lab, _TYPE_LAB_DBL, _RELATIVE, 0), "lcms"
    from PIL import ImageCms

    lab = ImageCms.createProfile("LAB", 5000)
    if source is None:
        return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), lab, "RGB", "LAB",
                                       renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC), "pillow"
    cmyk = ImageCms.ImageCmsProfile(io.BytesIO(source.read_bytes()))
    return ImageCms.buildTransform(cmyk, lab, "CMYK", "LAB",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC), "pillow"


def _lab_of(values: tuple[float, ...], source: Path | None) -> LAB:
    """CIELAB of ``values`` (sRGB 0..1 or CMYK 0..1)."""
    transform, kind = _to_lab(source)
    if kind == "lcms":
        import ctypes

        scale = 1.0 if source is None else 100.0  # lcms' CMYK doubles are percentages
        pixel = (ctypes.c_double * len(values))(*(v * scale for v in values))
        out = (ctypes.c_double * 3)()
        _lcms().cmsDoTransform(transform, pixel, out, 1)
        return out[0], out[1], out[2]
    from PIL import Image, ImageCms

    mode = "RGB" if source is None else "CMYK"
    lab = ImageCms.applyTransform(Image.new(mode, (1, 1), tuple(round(v * 255) for v in values)),
                                  transform).getpixel((0, 0))
    return lab[0] * 100 / 255, lab[1] - 128, lab[2] - 128  # Pillow's LAB: L 0..255, a* and b* offset by 128


def srgb_lab(rgb: RGB) -> LAB:
    return _lab_of(tuple(rgb), None)


def printed_lab(cmyk: tuple[float, float, float, float], profile: Path) -> LAB:
    return _lab_of(tuple(cmyk), profile)


@dataclass(frozen=True)
class Measure:
    colour: str  # #rrggbb
    cmyk: tuple[float, float, float, float]
    wanted: LAB
    printed: LAB

    @property
    def delta_e(self) -> float:
        return delta_e00(self.wanted, self.printed)


def measure(colours: list[str], tac: int, intent: str = "relative", bpc: bool = True,
            condition: str = OUTPUT_CONDITION) -> list[Measure]:
    """Each ``#rrggbb`` colour through the printer's conversion and back (see the module)."""
    converter = CmykConverter(tac, intent, bpc, condition=condition)
    out = []
    for colour in colours:
        rgb = tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
        cmyk = converter.area(rgb)  # type: ignore[arg-type]
        out.append(Measure(colour, cmyk, srgb_lab(rgb), printed_lab(cmyk, converter.profile)))  # type: ignore[arg-type]
    return out
