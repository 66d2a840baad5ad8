"""Fonts of the cards: the vendored DejaVu faces and the families a game declares, with fallback.

Layouts name fonts by style (``regular``, ``bold``, ``condensed``, ``condensed-bold``:
the vendored DejaVu faces) or by a family of the game's own (``game.yaml``'s ``fonts:``):
``NAME``, ``NAME-bold``, ``NAME-italic``, ``NAME-bold-italic``.  Every PDF embeds a subset
of the files named, never a font found on the system.

A family has a fallback chain (``fallback:``, by default the built-in ``dejavu``): the
faces tried in order for a character the family's own face lacks.  What the renderer
passes around as a "font" is therefore a *chain*: the reportlab names of its faces
joined by ``|`` (a vendored style alone is one name, as it always was).  Text is drawn
in runs, each in the first face of the chain that has its characters
(:func:`runs`); widths are the sum of the runs' widths (:func:`text_width`), so wrapping
and fitting measure what is drawn.  A character no face of the chain has is found by
:func:`missing`: the caller warns, or fails under ``--strict``.

A game's face is registered with reportlab under a name made from the digest of its
bytes: two games may each call a family ``brand`` from different files without one
taking the other's place, and the name (and so the PDF) is the same on every run.
"""

from __future__ import annotations

import hashlib
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from cardgen import resources
from cardgen.errors import Locator, MissingGlyphError, RenderError, suggest

FONT_DIR = resources.FONTS

STYLES: dict[str, str] = {
    "regular": "DejaVuSans",
    "bold": "DejaVuSans-Bold",
    "condensed": "DejaVuSansCondensed",
    "condensed-bold": "DejaVuSansCondensed-Bold",
}
DEFAULT_FONT = STYLES["regular"]
#: The built-in families a fallback chain names (no italics are vendored: italic falls back upright).
BUILTIN_FAMILIES: dict[str, dict[str, str]] = {
    "dejavu": {"regular": "DejaVuSans", "bold": "DejaVuSans-Bold",
               "italic": "DejaVuSans", "bold_italic": "DejaVuSans-Bold"},
    "dejavu-condensed": {"regular": "DejaVuSansCondensed", "bold": "DejaVuSansCondensed-Bold",
                         "italic": "DejaVuSansCondensed", "bold_italic": "DejaVuSansCondensed-Bold"},
}
#: Suffix of a layout's font name -> the face of the family (longest first).
SUFFIXES = (("-bold-italic", "bold_italic"), ("-italic", "italic"), ("-bold", "bold"), ("", "regular"))
#: A fallback family without the face asked for lends the closest it has.
CLOSEST = {"regular": ("regular",), "bold": ("bold", "regular"), "italic": ("italic", "regular"),
           "bold_italic": ("bold_italic", "bold", "italic", "regular")}
SEPARATOR = "|"


@lru_cache(maxsize=None)
def register(name: str) -> str:
    """Register one vendored font with reportlab (once per process); return its name."""
    from reportlab.pdfbase import pdfmetrics

    from cardgen.cards.fontfile import parsed_font

    path = FONT_DIR / f"{name}.ttf"
    if not path.is_file():
        raise RenderError(f"vendored font file missing: {path}")
    pdfmetrics.registerFont(parsed_font(name, path))
    return name


_GAME_FACES: dict[str, str] = {}  # registered name -> the file it came from, for messages


def register_file(path: Path, root: Path, shown: str | None = None) -> str:
    """Register a game's font file (read fenced and capped, checked) and return its reportlab name."""
    from reportlab.pdfbase import pdfmetrics

    from cardgen.content.fontfiles import FontFileError, read_font, truetype
    from cardgen.cards.fontfile import parsed_font_bytes

    try:
        data = read_font(path, root)
    except FontFileError as exc:
        raise RenderError(f"font file {shown or path}: {exc}") from None
    name = "cg-" + hashlib.sha256(data).hexdigest()[:16]
    if name not in _GAME_FACES:  # once per file's bytes and process
        try:
            data = truetype(data)  # CFF outlines converted: reportlab embeds TrueType only
        except FontFileError as exc:
            raise RenderError(f"font file {shown or path}: {exc}") from None
        try:
            font = parsed_font_bytes(name, data)
        except Exception as exc:  # noqa: BLE001 - reportlab's parser raises anything on a font it cannot use
            raise RenderError(f"font file {shown or path}: reportlab cannot use it ({type(exc).__name__}: "
                              f"{str(exc)[:120]})") from None
        pdfmetrics.registerFont(font)
        _GAME_FACES[name] = shown or str(path)
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


def faces(chain: str) -> list[str]:
    """The reportlab names of a chain's faces, first the font's own."""
    return chain.split(SEPARATOR)


def _face(name: str):
    from reportlab.pdfbase import pdfmetrics

    if name in STYLES.values():
        register(name)
    return pdfmetrics.getFont(name).face


@lru_cache(maxsize=None)
def metrics(name: str) -> tuple[float, float, float]:
    """(ascent, descent, cap height) of a registered font (a chain: its first face), as fractions of the size."""
    first = faces(name)[0]
    face = _face(first if first in STYLES.values() or first in _GAME_FACES else font_name(first))
    cap = getattr(face, "capHeight", 0) or 0.73 * face.ascent
    return face.ascent / 1000.0, face.descent / 1000.0, cap / 1000.0


# --- runs of a chain ------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _coverage(name: str) -> dict[int, int]:
    return _face(name).charToGlyph


def _blank(char: str) -> bool:
    """Spaces and invisible controls: never worth a warning, drawn in the run they stand in."""
    return char.isspace() or unicodedata.category(char) == "Cc"


@lru_cache(maxsize=65536)
def runs(text: str, chain: str) -> tuple[tuple[str, str], ...]:
    """``text`` cut into (face, part) runs: each character in the first face of ``chain`` that has it
    (a character none has stays in the run before it, or the first face's)."""
    names = faces(chain)
    if len(names) == 1:
        return ((chain, text),) if text else ()
    maps = [_coverage(name) for name in names]
    found: list[list] = []
    for char in text:
        code = ord(char)
        face = next((name for name, cmap in zip(names, maps) if code in cmap), None)
        if face is None or (_blank(char) and found):
            face = found[-1][0] if found else names[0]
        if found and found[-1][0] == face:
            found[-1][1].append(char)
        else:
            found.append([face, [char]])
    return tuple((face, "".join(chars)) for face, chars in found)


def text_width(text: str, chain: str, size: float) -> float:
    """The width of ``text`` drawn in ``chain`` at ``size`` points: the sum of its runs."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if SEPARATOR not in chain:
        return stringWidth(text, chain, size)
    return sum(stringWidth(part, face, size) for face, part in runs(text, chain))


@lru_cache(maxsize=65536)
def missing(text: str, chain: str) -> tuple[str, ...]:
    """The characters of ``text`` that no face of ``chain`` has (in order of first use)."""
    maps = [_coverage(name) for name in faces(chain)]
    lacking = dict.fromkeys(char for char in text if not _blank(char)
                            and not any(ord(char) in cmap for cmap in maps))
    return tuple(lacking)


def describe(char: str) -> str:
    """``U+65E5 CJK UNIFIED IDEOGRAPH-65E5 '日'``: a character as an error names it."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')} {char!r}"


def face_names(chain: str) -> str:
    """The faces of a chain as a person knows them (file or vendored name), for messages."""
    return ", ".join(_GAME_FACES.get(name, name) for name in faces(chain))


def draw_runs(canvas, x: float, y: float, text: str, chain: str, size: float) -> None:
    """Draw ``text`` at (x, y) in the runs of ``chain`` (the canvas's font is the chain's first face)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if SEPARATOR not in chain:
        canvas.drawString(x, y, text)
        return
    for face, part in runs(text, chain):
        if canvas._fontname != face:
            canvas.setFont(face, size)
        canvas.drawString(x, y, part)
        x += stringWidth(part, face, size)


# --- characters no face has: a warning, or an error under --strict --------------------------------

@dataclass
class GlyphLog:
    """What a build job (or a check) collects: the missing-glyph warnings, or strictness."""

    strict: bool = False
    warnings: list[MissingGlyphError] = field(default_factory=list)

    def messages(self) -> list[str]:
        return list(dict.fromkeys(str(warning) for warning in self.warnings))


_LOG: ContextVar[GlyphLog | None] = ContextVar("cardgen_glyph_log", default=None)


@contextmanager
def glyph_log(strict: bool = False):
    """Collect the missing glyphs of what is drawn inside (``strict``: raise on the first)."""
    log = GlyphLog(strict)
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


def glyph_problem(text: str, chain: str, locator: Locator | None = None) -> MissingGlyphError | None:
    """The error for the characters of ``text`` no face of ``chain`` has, or None."""
    lacking = missing(text, chain)
    if not lacking:
        return None
    shown = ", ".join(describe(char) for char in lacking[:4]) + (f" and {len(lacking) - 4} more" if len(lacking) > 4 else "")
    short = text if len(text) <= 60 else text[:57] + "..."
    return MissingGlyphError(f"text {short!r}: no face of its font ({face_names(chain)}) has {shown}; it would "
                             "print as empty boxes: declare a font family with these characters (game.yaml "
                             "'fonts:', or a family's 'fallback:') and use it in the layout", locator)


def report_glyphs(problem: MissingGlyphError, strict: bool | None = None) -> None:
    """Raise ``problem`` when strict (the caller's word, else the active log's), else log it."""
    log = _LOG.get()
    if strict if strict is not None else (log is not None and log.strict):
        raise problem
    if log is not None:
        log.warnings.append(problem)


def check_text(text: str, chain: str, locator: Locator) -> None:
    """Warn (or, strict, fail) on characters of ``text`` no face of ``chain`` has: for text drawn
    outside a card layout (the print-and-play page)."""
    problem = glyph_problem(text, chain, locator)
    if problem is not None:
        report_glyphs(problem)


# --- the fonts of one game ------------------------------------------------------------------------

@dataclass
class GameFonts:
    """The font names a game's layouts may use, resolved to registered chains."""

    families: dict  # family name -> cardgen.content.fontfiles.Family (its spec and its folder)
    file: Path | None = None  # game.yaml as messages show it
    resolved: dict[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, game) -> "GameFonts":
        """The families of ``game``: its content folder's (common/fonts.yaml) and its own."""
        doc = game.documents.get("game.yaml") if getattr(game, "documents", None) else None
        declared = getattr(game, "font_families", None)  # a stand-in for a game (tests) may have none
        return cls(declared() if declared is not None else {}, doc.display_path if doc is not None else None)

    def spec(self, family: str):
        return self.families[family].spec

    def names(self) -> list[str]:
        """Every font name a layout may write."""
        own = [f"{family}{suffix}" for family in self.families
               for suffix, face in reversed(SUFFIXES) if getattr(self.spec(family), face) is not None]
        return [*STYLES, *own]

    def split(self, name: str) -> tuple[str, str] | None:
        """(family, face) of a name of a declared family; None for any other name."""
        for suffix, face in SUFFIXES:
            family = name[: len(name) - len(suffix)] if suffix else name
            if (not suffix or name.endswith(suffix)) and family in self.families:
                return family, face
        return None

    def chain(self, name: str) -> str:
        """The registered chain a layout's font ``name`` draws with."""
        if name in STYLES or name in STYLES.values():
            return font_name(name)
        if name not in self.resolved:
            self.resolved[name] = self._chain(name)
        return self.resolved[name]

    def _chain(self, name: str) -> str:
        found = self.split(name)
        if found is None:
            names = self.names()
            raise RenderError(f"unknown font '{name}'{suggest(name, names)}; expected one of: {', '.join(names)}")
        family, face = found
        spec = self.spec(family)
        if getattr(spec, face) is None:
            raise RenderError(f"font family '{family}' has no {face.replace('_', ' ')} face (it has "
                              f"{', '.join(f for f in CLOSEST if getattr(spec, f) is not None)})",
                              Locator(file=self.file))
        chain = [self._register(family, face)]
        for other in spec.fallback:
            if other in BUILTIN_FAMILIES:
                chain.append(register(BUILTIN_FAMILIES[other][face]))
            elif other in self.families:
                lent = next(f for f in CLOSEST[face] if getattr(self.spec(other), f) is not None)
                chain.append(self._register(other, lent))
        return SEPARATOR.join(dict.fromkeys(chain))

    def _register(self, family: str, face: str) -> str:
        declared = self.families[family]
        relative = getattr(declared.spec, face)
        return register_file(declared.root / relative, declared.root, declared.shown(relative))
