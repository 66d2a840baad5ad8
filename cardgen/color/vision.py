"""How colours look to players with a colour-vision deficiency, and how far apart two colours are.

* :func:`simulate` -- a colour as a dichromat sees it: the Machado, Oliveira and Fernandes (2009)
  model at full severity (protanopia, deuteranopia, tritanopia), applied to linear sRGB;
* :func:`delta_e2000` -- the CIEDE2000 colour difference between two colours (CIE 142-2001, as in
  Sharma, Wu and Dalal 2005), through CIELAB under D65;
* :func:`contrast_ratio` -- the WCAG 2.x contrast ratio of two colours (1 to 21).

Colours are ``#rrggbb`` strings or ``(r, g, b)`` tuples of 0..255 integers.  Nothing here knows a
card: :mod:`cardgen.cards.access` applies it to a layout's plans.
"""

from __future__ import annotations

import math
from typing import Sequence, Union

Colour = Union[str, Sequence[float]]

#: Vision types a check looks at: normal and the three dichromacies.
DEFICIENCIES = ("protanopia", "deuteranopia", "tritanopia")
VISIONS = ("normal", *DEFICIENCIES)

#: Machado et al. 2009, table of simulation matrices at severity 1.0 (linear RGB to linear RGB).
MACHADO_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}

#: What WCAG 2.x asks of text: 4.5:1, or 3:1 for large text (18 pt, or 14 pt bold).
NORMAL_TEXT_RATIO = 4.5
LARGE_TEXT_RATIO = 3.0


def rgb255(colour: Colour) -> tuple[int, int, int]:
    """``#rrggbb`` (or a tuple) as three 0..255 integers."""
    if isinstance(colour, str):
        text = colour.strip().lstrip("#")
        if len(text) != 6:
            raise ValueError(f"expected a colour #rrggbb, found '{colour}'")
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    r, g, b = colour
    return int(round(r)), int(round(g)), int(round(b))


def hex_of(rgb: Sequence[float]) -> str:
    return "#" + "".join(f"{max(0, min(255, int(round(v)))):02x}" for v in rgb)


def _to_linear(channel: float) -> float:
    c = channel / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _from_linear(value: float) -> float:
    v = min(1.0, max(0.0, value))
    v = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return v * 255.0


def linear_rgb(colour: Colour) -> tuple[float, float, float]:
    r, g, b = rgb255(colour)
    return _to_linear(r), _to_linear(g), _to_linear(b)


def simulate(colour: Colour, vision: str) -> tuple[float, float, float]:
    """``colour`` as a player with ``vision`` sees it, as 0..255 sRGB floats (clipped to the gamut)."""
    if vision == "normal":
        return tuple(float(v) for v in rgb255(colour))  # type: ignore[return-value]
    try:
        matrix = MACHADO_MATRICES[vision]
    except KeyError:
        raise ValueError(f"unknown vision '{vision}' (one of {', '.join(VISIONS)})") from None
    lin = linear_rgb(colour)
    return tuple(_from_linear(sum(row[i] * lin[i] for i in range(3))) for row in matrix)  # type: ignore[return-value]


def simulate_pixels(pixels, vision: str):
    """A numpy array of 8-bit RGB pixels (..., 3) as ``vision`` sees them (same shape, uint8)."""
    import numpy as np

    if vision == "normal":
        return pixels
    matrix = np.array(MACHADO_MATRICES[vision], dtype=np.float64)
    c = pixels[..., :3].astype(np.float64) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    out = np.clip(lin @ matrix.T, 0.0, 1.0)
    srgb = np.where(out <= 0.0031308, out * 12.92, 1.055 * out ** (1 / 2.4) - 0.055)
    result = pixels.copy()
    result[..., :3] = np.round(srgb * 255.0).astype(np.uint8)
    return result


# --- CIELAB and CIEDE2000 -----------------------------------------------------------------------------

_D65 = (0.95047, 1.0, 1.08883)


def lab(colour: Colour) -> tuple[float, float, float]:
    """CIELAB (D65, 2 degree observer) of an sRGB colour (0..255 floats allowed)."""
    if isinstance(colour, str):
        r, g, b = linear_rgb(colour)
    else:
        r, g, b = (_to_linear(v) for v in colour)
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x / _D65[0]), f(y / _D65[1]), f(z / _D65[2])
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """ΔE00 between two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_mean = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_mean = (h1p + h2p + 360) / 2
    else:
        hp_mean = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp_mean - 30)) + 0.24 * math.cos(math.radians(2 * hp_mean))
         + 0.32 * math.cos(math.radians(3 * hp_mean + 6)) - 0.20 * math.cos(math.radians(4 * hp_mean - 63)))
    d_theta = 30 * math.exp(-(((hp_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2 + rt * (dc / sc) * (dH / sh))


def delta_e2000(first: Colour, second: Colour, vision: str = "normal") -> float:
    """ΔE00 between two sRGB colours as a player with ``vision`` sees them."""
    return ciede2000(lab(simulate(first, vision)), lab(simulate(second, vision)))


# --- WCAG contrast -------------------------------------------------------------------------------------

def relative_luminance(colour: Colour) -> float:
    """WCAG 2.x relative luminance (0 black to 1 white)."""
    r, g, b = linear_rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: Colour, second: Colour) -> float:
    """WCAG 2.x contrast ratio, from 1 (the same) to 21 (black on white)."""
    one, two = relative_luminance(first), relative_luminance(second)
    light, dark = max(one, two), min(one, two)
    return (light + 0.05) / (dark + 0.05)


def is_large_text(size_pt: float, bold: bool) -> bool:
    """WCAG's large text: at least 18 pt, or 14 pt bold."""
    return size_pt >= 18 or (bold and size_pt >= 14)


def required_ratio(size_pt: float, bold: bool) -> float:
    return LARGE_TEXT_RATIO if is_large_text(size_pt, bold) else NORMAL_TEXT_RATIO


__all__ = ["DEFICIENCIES", "MACHADO_MATRICES", "VISIONS", "ciede2000", "contrast_ratio", "delta_e2000", "hex_of",
           "is_large_text", "lab", "relative_luminance", "required_ratio", "rgb255", "simulate",
           "simulate_pixels"]
