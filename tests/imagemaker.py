"""Test images made by code (never copied): PNG, JPEG, TIFF and WebP files, ICC profiles.

Pillow writes most of them; what it cannot write is written here by hand: 16-bit RGB
PNG and TIFF files, a PNG header declaring any size (a decompression bomb), and ICC
v2 matrix/TRC profiles for an "Adobe RGB (1998)-compatible" and a "Display P3-compatible"
RGB space (public primaries adapted to D50, gamma 2.2 and the sRGB curve).
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
from PIL import Image, ImageCms

ROOT = Path(__file__).resolve().parents[1]
FOGRA39 = ROOT / "cardgen" / "color" / "icc" / "fogra39-tac300.icc"
FOGRA39_240 = ROOT / "cardgen" / "color" / "icc" / "fogra39-tac240.icc"

#: D50-adapted colorants (Bradford) of the RGB spaces, as their published ICC profiles carry them.
ADOBE_RGB = {"r": (0.60974, 0.31111, 0.01947), "g": (0.20528, 0.62567, 0.06087), "b": (0.14919, 0.06322, 0.74457)}
DISPLAY_P3 = {"r": (0.515102, 0.241182, -0.001050), "g": (0.291965, 0.692236, 0.041882),
              "b": (0.157153, 0.066582, 0.784378)}
SRGB_D50 = {"r": (0.436066, 0.222488, 0.013916), "g": (0.385147, 0.716873, 0.097076),
            "b": (0.143066, 0.060608, 0.714096)}
D50 = (0.9642, 1.0, 0.8249)


# --- pictures -------------------------------------------------------------------------------------

def picture(width: int, height: int, seed: int = 0, mode: str = "RGB") -> Image.Image:
    """A smooth picture (gradients and a disc) that differs with ``seed``; RGB, L or CMYK."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    u, v = x / max(1, width - 1), y / max(1, height - 1)
    phase = seed * 0.7
    r = 0.5 + 0.5 * np.sin(6 * u + phase)
    g = 0.5 + 0.5 * np.cos(5 * v + 2 * phase)
    b = np.clip(1.0 - np.hypot(u - 0.5, v - 0.5) * 1.8, 0, 1)
    rgb = (np.stack([r, g, b], axis=-1) * 255).round().astype(np.uint8)
    image = Image.fromarray(rgb, "RGB")
    if mode == "L":
        return image.convert("L")
    if mode == "CMYK":
        c, m, yy = 255 - rgb[..., 0], 255 - rgb[..., 1], 255 - rgb[..., 2]
        k = (np.minimum(np.minimum(c, m), yy) * 0.6).astype(np.uint8)
        return Image.fromarray(np.stack([c - k, m - k, yy - k, k], axis=-1).astype(np.uint8), "CMYK")
    return image


def encoded(image: Image.Image, fmt: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png16(values: np.ndarray) -> bytes:
    """A 16-bit RGB PNG of ``values`` (height x width x 3, uint16), written by hand."""
    height, width, _ = values.shape
    raw = b"".join(b"\x00" + values[row].astype(">u2").tobytes() for row in range(height))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(raw)) + _chunk(b"IEND", b""))


def png_declaring(width: int, height: int) -> bytes:
    """A tiny PNG whose header declares width x height pixels (a decompression bomb when large)."""
    row = b"\x00" + b"\x00" * 3 * min(width, 64)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(row * 4)) + _chunk(b"IEND", b""))


def png_with_phys(image: Image.Image, ppm: int) -> bytes:
    """A PNG of ``image`` whose pHYs chunk says ``ppm`` pixels per metre (any value, even absurd)."""
    data = encoded(image, "PNG")
    head, rest = data[:33], data[33:]  # signature and IHDR
    return head + _chunk(b"pHYs", struct.pack(">IIB", ppm & 0xFFFFFFFF, ppm & 0xFFFFFFFF, 1)) + rest


def tiff16(values: np.ndarray, deflate: bool = False, resolution: tuple[int, int] = (300, 1)) -> bytes:
    """A 16-bit RGB (3 channels) or CMYK (4 channels) TIFF, little-endian, one strip, by hand."""
    height, width, channels = values.shape
    strip = values.astype("<u2").tobytes()
    if deflate:
        strip = zlib.compress(strip)
    count = 13
    bits_offset = 8 + 2 + count * 12 + 4
    res_offset = bits_offset + 2 * channels
    strip_offset = res_offset + 16
    entries = [  # (tag, type: 3 short / 4 long / 5 rational, count, value or offset)
        (256, 4, 1, width), (257, 4, 1, height), (258, 3, channels, bits_offset),
        (259, 3, 1, 8 if deflate else 1), (262, 3, 1, 5 if channels == 4 else 2),
        (273, 4, 1, strip_offset), (277, 3, 1, channels), (278, 4, 1, height), (279, 4, 1, len(strip)),
        (282, 5, 1, res_offset), (283, 5, 1, res_offset + 8), (284, 3, 1, 1), (296, 3, 1, 2),
    ]
    out = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", count)
    for tag, kind, number, value in entries:
        if kind == 3 and number == 1:
            out += struct.pack("<HHIHH", tag, kind, number, value, 0)
        else:
            out += struct.pack("<HHII", tag, kind, number, value)
    out += struct.pack("<I", 0)
    out += struct.pack("<" + "H" * channels, *([16] * channels))
    out += struct.pack("<IIII", resolution[0], resolution[1], resolution[0], resolution[1]) + strip
    assert len(out) - len(strip) == strip_offset
    return out


# --- ICC profiles ---------------------------------------------------------------------------------

def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _xyz(values: tuple[float, float, float]) -> bytes:
    return b"XYZ \x00\x00\x00\x00" + b"".join(_s15(v) for v in values)


def _curve(gamma: float | None) -> bytes:
    if gamma is not None:
        return b"curv\x00\x00\x00\x00" + struct.pack(">IH", 1, round(gamma * 256)) + b"\x00\x00"
    x = np.linspace(0, 1, 1024)
    y = np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)
    return b"curv\x00\x00\x00\x00" + struct.pack(">I", 1024) + (np.round(y * 65535).astype(">u2")).tobytes()


def _desc(text: str) -> bytes:
    ascii_text = text.encode("ascii") + b"\x00"
    body = b"desc\x00\x00\x00\x00" + struct.pack(">I", len(ascii_text)) + ascii_text
    body += struct.pack(">II", 0, 0) + struct.pack(">HB", 0, 0) + b"\x00" * 67
    return body


def matrix_profile(description: str, colorants: dict, gamma: float | None) -> bytes:
    """An ICC v2 RGB display profile: colorants (D50 XYZ), one tone curve (gamma, or sRGB's if None)."""
    trc = _curve(gamma)
    tags = [(b"desc", _desc(description)), (b"wtpt", _xyz(D50)), (b"rXYZ", _xyz(colorants["r"])),
            (b"gXYZ", _xyz(colorants["g"])), (b"bXYZ", _xyz(colorants["b"])), (b"rTRC", trc), (b"gTRC", trc),
            (b"bTRC", trc), (b"cprt", b"text\x00\x00\x00\x00" + b"made by cardgen's tests\x00")]
    offset = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for signature, body in tags:
        while (offset + len(data)) % 4:
            data += b"\x00"
        table += signature + struct.pack(">II", offset + len(data), len(body))
        data += body
    payload = struct.pack(">I", len(tags)) + table + data
    size = 128 + len(payload)
    header = (struct.pack(">I", size) + b"lcms" + bytes([2, 0x10, 0, 0]) + b"mntr" + b"RGB " + b"XYZ "
              + b"\x00" * 12 + b"acsp" + b"APPL" + b"\x00" * 4 + b"\x00" * 4 + b"\x00" * 4 + b"\x00" * 8
              + b"\x00" * 4 + _s15(D50[0]) + _s15(D50[1]) + _s15(D50[2]) + b"lcms" + b"\x00" * 16 + b"\x00" * 28)
    assert len(header) == 128, len(header)
    return header + payload


def adobe_rgb() -> bytes:
    return matrix_profile("Adobe RGB (1998)-compatible (cardgen tests)", ADOBE_RGB, 563 / 256)


def display_p3() -> bytes:
    return matrix_profile("Display P3-compatible (cardgen tests)", DISPLAY_P3, None)


def srgb() -> bytes:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def expected_srgb(rgb: tuple[int, int, int], colorants: dict, gamma: float | None) -> tuple[float, float, float]:
    """What an RGB value of a matrix space is in sRGB, computed with numpy (to check littleCMS)."""
    v = np.array(rgb, dtype=np.float64) / 255
    linear = v ** gamma if gamma is not None else np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
    source = np.array([colorants["r"], colorants["g"], colorants["b"]]).T
    target = np.array([SRGB_D50["r"], SRGB_D50["g"], SRGB_D50["b"]]).T
    out = np.clip(np.linalg.solve(target, source @ linear), 0, 1)
    encoded_ = np.where(out <= 0.0031308, out * 12.92, 1.055 * out ** (1 / 2.4) - 0.055)
    return tuple(encoded_ * 255)
