"""reportlab's parse of a TrueType file (vendored, or a game's own), kept between runs.

Parsing DejaVuSans takes reportlab about as long as drawing a card (it reads every
glyph's metrics in Python), and a card preview uses two or three fonts, so the parsed
font is kept in cardgen's cache (:mod:`cardgen.content.memo`) keyed by the file's
bytes and reportlab's version.  A ``TTFont`` does not pickle as it is: it holds an
empty per-document state in a weak dictionary and a lambda for its unit scale;
:class:`VendoredFont` leaves the first out and rebuilds the second.
"""

from __future__ import annotations

from pathlib import Path
from weakref import WeakKeyDictionary

import reportlab
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.content import memo


def parsed_font(name: str, path: Path) -> TTFont:
    """The font of ``path`` registered as ``name``, parsed once per file and reportlab version."""
    raw = path.read_bytes()  # cardgen's own file (cardgen/fonts), not a user's
    return memo.cached("font", [name, raw, reportlab.Version], lambda: VendoredFont(name, str(path)))


class VendoredFont(TTFont):
    """A ``TTFont`` that pickles (see the module's docstring)."""

    def __getstate__(self) -> dict:
        state = {key: value for key, value in self.__dict__.items() if key not in ("state", "face")}
        face = {key: value for key, value in self.face.__dict__.items() if key != "_pdfScale"}
        return {**state, "face": (type(self.face), face)}

    def __setstate__(self, state: dict) -> None:
        face_type, face_state = state.pop("face")
        face = face_type.__new__(face_type)
        face.__dict__.update(face_state)
        face._pdfScale = UnitScale(face.unitsPerEm)
        # no document has used the font yet: its subsets start empty, as after a parse
        self.__dict__.update(state, face=face, state=WeakKeyDictionary())


class UnitScale:
    """Font units to thousandths of the size, the same numbers as reportlab's own scale."""

    def __init__(self, units_per_em: int):
        self.factor = None if units_per_em == 1000 else 1000 / units_per_em

    def __call__(self, value: float) -> float:
        return value if self.factor is None else value * self.factor


def parsed_font_bytes(name: str, data: bytes) -> TTFont:
    """A game's font file (its bytes, already read and checked) registered as ``name``, parsed
    once per file and reportlab version.  The name is made from the bytes, so it is part of the key."""
    import io

    return memo.cached("font", [name, data, reportlab.Version], lambda: VendoredFont(name, io.BytesIO(data)))
