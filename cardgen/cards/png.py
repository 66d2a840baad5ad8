"""Cards as pictures: planned cards on PDF pages sized for an exact pixel count, and those
pages as PNG (pdfium), the dpi written into the file.  Print-shop PNGs, previews, the
rulebook's card pictures and digital-table sheets are all drawn this way.
"""

from __future__ import annotations

import struct
import zlib

from cardgen.cards.card import CardPlan, CardRenderer
from cardgen.cards.pdf import finish, new_canvas
from cardgen.errors import RenderError

#: The bleed print shops ask for most (3 mm each side): the shop PDF's, and the preview's.
STANDARD_BLEED_MM = 3.0


def plans_pdf(renderer: CardRenderer, plans: list[CardPlan], width_px: int, height_px: int, dpi: int) -> bytes:
    """One page per plan, sized so that ``dpi`` gives exactly width_px x height_px."""
    w, h = width_px * 72.0 / dpi, height_px * 72.0 / dpi
    c = new_canvas((w, h), "cards")
    c.image_dpi = dpi
    for plan in plans:
        bx, by = (w - plan.width) / 2, (h - plan.height) / 2
        renderer.place(c, plan, bx, by)
        c.showPage()
    return finish(c)


def png_bytes(width: int, height: int, rows, dpi: int, level: int = 3, icc: bytes | None = None) -> bytes:
    """A minimal 8-bit RGB PNG (filter None, dpi in pHYs); rows yields width*3 bytes each;
    ``icc``: an ICC profile embedded as the iCCP chunk (named sRGB: the pixels are sRGB).

    Written here rather than with Pillow: flat card art compresses as well without PNG's
    row filters, and skipping them makes encoding about three times faster.
    """
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    if len(raw) != height * (1 + width * 3):
        raise RenderError(f"PNG rows do not make a {width} x {height} RGB image")
    ppm = round(dpi / 0.0254)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + (chunk(b"iCCP", b"sRGB\x00\x00" + zlib.compress(icc, 9)) if icc else b"")
            + chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
            + chunk(b"IDAT", zlib.compress(raw, level))
            + chunk(b"IEND", b""))


def rasterise(pdf: bytes, width_px: int, height_px: int, dpi: int, icc: bytes | None = None) -> list[bytes]:
    """PNG bytes of every page of ``pdf`` at exactly width_px x height_px, dpi recorded
    (and ``icc`` embedded, see :func:`png_bytes`)."""
    import pypdfium2 as pdfium

    out: list[bytes] = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for index in range(len(doc)):
            page = doc[index]
            pw, _ = page.get_size()
            scale = width_px / pw * (1 - 1e-9)
            bitmap = page.render(scale=scale, draw_annots=False, rev_byteorder=True)
            if bitmap.n_channels != 3 or bitmap.width < width_px or bitmap.height < height_px:
                raise RenderError(f"unexpected raster {bitmap.width} x {bitmap.height} x {bitmap.n_channels}")
            buffer = memoryview(bitmap.buffer)
            stride, line = bitmap.stride, width_px * 3
            rows = (buffer[y * stride:y * stride + line] for y in range(height_px))
            out.append(png_bytes(width_px, height_px, rows, dpi, icc=icc))
            bitmap.close()
            page.close()
    finally:
        doc.close()
    return out
