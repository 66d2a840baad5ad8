"""A game's own font files, read and checked like any other content file.

A face named in ``game.yaml`` (``fonts:``) is read through :func:`~cardgen.content.safefile.read_capped`
(a regular file inside the game folder, at most :data:`MAX_FONT_BYTES`) and parsed with fontTools
before anything is drawn with it, so a PNG renamed ``.ttf``, a truncated file or a font whose
outlines reportlab cannot embed is a content error at the line that names it, not a traceback
while a PDF is written.

reportlab embeds TrueType outlines (``glyf``) only.  An OpenType font with PostScript (CFF)
outlines is converted once (:func:`truetype`, kept in cardgen's cache): each cubic curve becomes
quadratic ones within 1 font unit (fontTools' cu2qu, as its ``otf2ttf`` does), hinting is dropped
(the cards are print, not screen text).  The rulebook uses the file as it is (WeasyPrint reads CFF).
A variable CFF2 font, a web font (WOFF) or a collection (.ttc) is refused with a sentence saying so.
"""

from __future__ import annotations

import hashlib
import io
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.content.safefile import UnsafeFile, check_name, inside, read_capped
from cardgen.errors import ContentError, shown_path

#: A family of four faces of a large CJK font stays under this; a font is embedded subset.
MAX_FONT_BYTES = 32 * 1024 * 1024
#: The tables a face must have for reportlab to measure and embed it.
REQUIRED_TABLES = ("head", "hhea", "hmtx", "maxp", "cmap", "name", "post", "loca", "glyf")


class FontFileError(Exception):
    """A font file that cannot be used; ``str()`` says why, for a content or render error."""


def read_font(path: Path, root: Path) -> bytes:
    """The bytes of a font file of the game folder ``root`` (regular, capped, fenced)."""
    try:
        return read_capped(path, MAX_FONT_BYTES, root=root)
    except UnsafeFile as exc:
        raise FontFileError(str(exc)) from None


_KEPT: dict[tuple[str, str], object] = {}  # (kind, SHA-256 of the bytes) -> result, for this process


def _once(kind: str, data: bytes, compute):
    """``compute()`` once per process and file's bytes, and kept between runs (cardgen's cache):
    every process of a build loads its games, and each load checks their fonts."""
    from cardgen.content import memo

    key = (kind, hashlib.sha256(data).hexdigest())
    if key not in _KEPT:
        _KEPT[key] = memo.cached(kind, [data], compute)
    return _KEPT[key]


def font_coverage(data: bytes) -> frozenset[int]:
    """:func:`check_font`, once per file's bytes."""
    return _once("font-check", data, lambda: check_font(data))


def truetype(data: bytes) -> bytes:
    """The font reportlab embeds: ``data`` itself, or its CFF outlines converted to TrueType
    (once per file's bytes); :class:`FontFileError` when it is no usable font."""
    font_coverage(data)
    if data[:4] != b"OTTO":
        return data
    return _once("font-truetype", data, lambda: _converted(data))


def check_font(data: bytes) -> frozenset[int]:
    """The code points ``data`` (a font file's bytes) has glyphs for; :class:`FontFileError`
    when it is no font reportlab can embed (after converting CFF outlines)."""
    if data[:4] == b"wOFF" or data[:4] == b"wOF2":
        raise FontFileError("a web font (WOFF); give the .ttf or .otf file it was made from")
    if data[:4] == b"ttcf":
        raise FontFileError("a font collection (.ttc); give one font of it as a .ttf file")
    if data[:4] not in (b"\x00\x01\x00\x00", b"true", b"OTTO"):
        raise FontFileError("not a TrueType or OpenType font file (it does not start as one)")
    return _checked(_converted(data) if data[:4] == b"OTTO" else data)


@contextmanager
def _font_errors():
    """Whatever fontTools raises on a damaged or unusable file, as a :class:`FontFileError`."""
    from fontTools.ttLib import TTLibError

    try:
        yield
    except FontFileError:
        raise
    except TTLibError as exc:
        raise FontFileError(f"not a usable font: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - fontTools raises anything on a damaged file
        raise FontFileError(f"a damaged font file ({type(exc).__name__}: {str(exc)[:120]})") from None


def _checked(data: bytes) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with _font_errors():
        font = TTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False)
        missing = [tag for tag in REQUIRED_TABLES if tag not in font]
        if missing:
            raise FontFileError(f"the font has no {', '.join(missing)} table(s)")
        cmap = font["cmap"].getBestCmap()
        if not cmap:
            raise FontFileError("the font maps no Unicode character to a glyph (no Unicode cmap)")
        glyf = font["glyf"]
        for name in sorted(set(cmap.values())):  # every glyph text is drawn with decodes
            glyf[name].getCoordinates(glyf)
        return frozenset(cmap)


def _converted(data: bytes) -> bytes:
    """An OpenType font with CFF outlines as a TrueType font (quadratic outlines, no hinting)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    with _font_errors():
        font = TTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False)
        if "CFF2" in font:
            raise FontFileError("a variable OpenType font (CFF2 outlines); give a static instance of it "
                                "as a .ttf file")
        if "CFF " not in font:
            raise FontFileError("an OpenType font without outlines (no CFF or glyf table)")
        order = font.getGlyphOrder()
        glyphs = font.getGlyphSet()
        glyf = newTable("glyf")
        glyf.glyphOrder = order
        glyf.glyphs = {}
        for name in order:
            pen = TTGlyphPen(glyphs)
            glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
            glyf.glyphs[name] = pen.glyph()
        for tag in ("CFF ", "VORG"):
            if tag in font:
                del font[tag]
        font["glyf"] = glyf
        font["loca"] = newTable("loca")
        maxp = font["maxp"]
        maxp.tableVersion = 0x00010000
        for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                      "maxStackElements", "maxSizeOfInstructions", "maxComponentElements", "maxComponentDepth"):
            setattr(maxp, field, 1 if field == "maxZones" else 0)
        font["head"].glyphDataFormat = 0
        post = font["post"]
        post.formatType, post.extraNames, post.mapping = 2.0, [], {}
        post.glyphOrder = order
        font.sfntVersion = "\x00\x01\x00\x00"
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()


# --- families: a game's own (game.yaml) and its content folder's (common/fonts.yaml) -----------------

SHARED_FONTS = "fonts.yaml"  # in the content folder's common/


@dataclass(frozen=True)
class Family:
    """A declared font family and the folder its files are relative to (and fenced in)."""

    name: str
    spec: Any  # cardgen.content.model.FontFamily
    root: Path  # the game folder, or the content folder's common/
    display_root: Path | None = None

    def shown(self, relative: str) -> str:
        return shown_path(self.root / relative, self.display_root).as_posix()


def face_problem(relative: str, root: Path) -> str | None:
    """Why ``relative`` (a face of a family) names no usable font file inside ``root``; None if it does."""
    try:
        check_name(relative)
    except UnsafeFile as exc:
        return f"path {relative[:60]!r} cannot name a file: {exc}"
    if Path(relative).is_absolute():
        return f"path '{relative}' is absolute; give it relative to the folder {root.name}/"
    path = root / relative
    if not inside(path, root):
        return f"path '{relative}' leads outside the folder {root.name}/"
    if not path.exists():
        return f"file not found: '{relative}' (looked in {root.name}/)"
    try:
        font_coverage(read_font(path, root))
    except FontFileError as exc:
        return f"font file '{relative}': {exc}"
    return None


def shared_fonts(content_dir: Path, display_root: Path | None = None, *, check: bool = True
                 ) -> tuple[dict[str, Family], list[ContentError]]:
    """The families of ``<content_dir>/common/fonts.yaml`` (none when there is no such file) and
    every problem of that file: its schema and (``check``) its names and font files."""
    from cardgen.content.modelcheck import validate_document
    from cardgen.content.model import FontsFile
    from cardgen.content.yamlsource import read_yaml

    folder = content_dir / "common"
    path = folder / SHARED_FONTS
    if not path.is_file():
        return {}, []
    errors: list[ContentError] = []
    try:
        doc = read_yaml(path, shown_path(path, display_root), root=folder)
    except ContentError as exc:
        return {}, [exc]
    parsed = validate_document(doc, FontsFile, errors)
    if parsed is None:
        return {}, errors
    families = {name: Family(name, spec, folder, display_root) for name, spec in parsed.fonts.items()}
    if check:
        errors += family_errors(families, lambda *where, key=False: doc.locate(("fonts", *where), key=key), shared=True)
    return families, errors


def family_errors(families: dict[str, Family], locate, shared: bool = False,
                  known: dict[str, Family] | None = None) -> list[ContentError]:
    """Problems of declared families: names taken by built-in fonts or faces, unknown fallback
    families, font files that are missing, outside their folder or no usable font.  ``locate``
    gives the locator of a path under ``fonts`` (key=True: of the key itself); ``known``: the
    other families their fallbacks may name."""
    from cardgen.content.model import BUILTIN_FONT_FAMILIES, BUILTIN_FONT_NAMES, FONT_FACES

    errors: list[ContentError] = []
    names = [*(known or {}), *families, *BUILTIN_FONT_FAMILIES]
    for name, family in families.items():
        suffix = next((end for end in FONT_FACES.values() if end and name.endswith(end)), None)
        if name in BUILTIN_FONT_NAMES or name in BUILTIN_FONT_FAMILIES:
            errors.append(ContentError(f"font family '{name}': the name is taken by a built-in font; choose another",
                                       locate(name, key=True)))
        elif suffix:
            errors.append(ContentError(
                f"font family '{name}': layouts would read the name as the{suffix.replace('-', ' ')} face of a "
                f"family '{name[:-len(suffix)]}'; choose a name that does not end in {suffix}", locate(name, key=True)))
        for face in FONT_FACES:
            relative = getattr(family.spec, face)
            if relative is not None:
                problem = face_problem(relative, family.root)
                if problem is not None:
                    errors.append(ContentError(f"family '{name}' ({face.replace('_', ' ')}): {problem}",
                                               locate(name, face)))
        for i, other in enumerate(family.spec.fallback):
            if other == name:
                errors.append(ContentError(f"font family '{name}' names itself as its fallback",
                                           locate(name, "fallback", i)))
            elif other not in names:
                where = " (a family of game.yaml is not known in common/fonts.yaml)" if shared else ""
                errors.append(ContentError(f"unknown font family '{other}' in the fallback of '{name}'; expected one "
                                           f"of: {', '.join(dict.fromkeys(names))}{where}", locate(name, "fallback", i)))
    return errors


__all__ = ["MAX_FONT_BYTES", "FontFileError", "check_font", "font_coverage", "read_font", "truetype",
           "Family", "face_problem", "family_errors", "shared_fonts"]
