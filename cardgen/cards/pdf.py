"""A reportlab canvas set up the cardgen way: deterministic, compressed, no unembedded font."""

from __future__ import annotations

import io

from cardgen.cards import fonts


def new_canvas(pagesize: tuple[float, float], title: str, subject: str = "", ink: str = "full", canvas_cls=None):
    """A canvas writing into memory; call :func:`finish` for the bytes.

    ``ink`` is an ink mode of :mod:`cardgen.color.ink`; full colour (the default)
    is reportlab's own canvas, the others repaint the colours as they are used.
    ``canvas_cls`` replaces the ink mode's canvas (the CMYK canvas of
    :mod:`cardgen.color.cmyk`, which also makes reportlab refuse any RGB colour).

    Invariant mode (fixed ids; dates from SOURCE_DATE_EPOCH, else 2000-01-01)
    makes rebuilds byte-identical; the initial font is the vendored DejaVu Sans so
    Helvetica never appears in the resources; streams are Flate-compressed and
    not ASCII85-wrapped.
    """
    from reportlab import rl_config
    from cardgen.color.ink import canvas_class

    fonts.register_fonts()
    rl_config.useA85 = 0
    buffer = io.BytesIO()
    extra = {"enforceColorSpace": "cmyk"} if canvas_cls is not None else {}
    c = (canvas_cls or canvas_class(ink))(buffer, pagesize=pagesize, invariant=1, pageCompression=1,
                                          initialFontName=fonts.DEFAULT_FONT, initialFontSize=10, **extra)
    c.setTitle(title)
    c.setAuthor("cardgen")
    c.setCreator("cardgen")
    c.setProducer("cardgen (reportlab)")
    if subject:
        c.setSubject(subject)
    c.__dict__["_cardgen_buffer"] = buffer
    return c


def finish(c) -> bytes:
    c.save()
    return c.__dict__["_cardgen_buffer"].getvalue()
