"""The vendored fonts (``cardgen/fonts/``), registered with reportlab once per process.

Layouts name fonts by style (``regular``, ``bold``, ``condensed``,
``condensed-bold``); every PDF embeds a subset of the files shipped in the
package, never a font found on the system.
"""

from __future__ import annotations

from functools import lru_cache

from cardgen import resources
from cardgen.errors import RenderError

FONT_DIR = resources.FONTS

STYLES: dict[str, str] = {
    "regular": "DejaVuSans",
    "bold": "DejaVuSans-Bold",
    "condensed": "DejaVuSansCondensed",
    "condensed-bold": "DejaVuSansCondensed-Bold",
}
DEFAULT_FONT = STYLES["regular"]


@lru_cache(maxsize=None)
def register(name: str) -> str:
    """Register one vendored font with reportlab (once per process); return its name."""
    from reportlab.pdfbase import pdfmetrics

    from cardgen.render.fontfile import parsed_font

    path = FONT_DIR / f"{name}.ttf"
    if not path.is_file():
        raise RenderError(f"vendored font file missing: {path}")
    pdfmetrics.registerFont(parsed_font(name, path))
    return name


def register_fonts() -> tuple[str, ...]:
    """Register the default font now; the others are registered when first named."""
    register(DEFAULT_FONT)
    return tuple(STYLES.values())


def font_name(style: str) -> str:
    """The reportlab font name of a style (or of a vendored font name), registered."""
    if style in STYLES:
        return register(STYLES[style])
    if style in STYLES.values():
        return register(style)
    raise RenderError(f"unknown font style '{style}'; expected one of: {', '.join(STYLES)}")


@lru_cache(maxsize=None)
def metrics(name: str) -> tuple[float, float, float]:
    """(ascent, descent, cap height) of a registered font, as fractions of the size."""
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(font_name(name)).face
    cap = getattr(face, "capHeight", 0) or 0.73 * face.ascent
    return face.ascent / 1000.0, face.descent / 1000.0, cap / 1000.0
