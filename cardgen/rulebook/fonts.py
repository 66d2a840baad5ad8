"""The rulebook's fonts: cardgen's DejaVu faces, and the game's own families when it names them.

``game.yaml``'s ``rulebook: {fonts: {body: FAMILY, headings: FAMILY}}`` sets the rulebook in
families the game declares under ``fonts:`` (the same files its cards print with).  Each face
becomes an ``@font-face`` rule whose ``src`` is the file in the game folder, loaded through the
fenced URL fetcher (:mod:`cardgen.rulebook.fetcher`); the text's ``font-family`` lists the
family, then its fallback chain (``dejavu`` is cardgen's ``CardgenSans``), then ``CardgenSans``,
so a character the family lacks is set in the next face that has it, as on the cards.

A game that names no rulebook family gets exactly the rules it always had (nothing is added).

A character that none of the rulebook's faces has would be set by Pango in whatever system font
has it, or as an empty box: :func:`glyph_problem` finds such characters in the rulebook's text
before it is laid out, for a warning (an error under ``--strict``), as on the cards.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import TYPE_CHECKING

from markupsafe import Markup

from cardgen.errors import Locator, MissingGlyphError
from cardgen.cards.fonts import BUILTIN_FAMILIES, FONT_DIR

if TYPE_CHECKING:
    from cardgen.content.loader import Game

#: cardgen's own faces: (family, weight, style) -> file in FONT_DIR
FONT_FILES = {
    ("CardgenSans", "normal", "normal"): "DejaVuSans.ttf",
    ("CardgenSans", "bold", "normal"): "DejaVuSans-Bold.ttf",
    ("CardgenCondensed", "normal", "normal"): "DejaVuSansCondensed.ttf",
    ("CardgenCondensed", "bold", "normal"): "DejaVuSansCondensed-Bold.ttf",
}
#: The built-in families of a fallback chain, by their CSS names.
BUILTIN_CSS = {"dejavu": "CardgenSans", "dejavu-condensed": "CardgenCondensed"}
#: A face of a family -> (font-weight, font-style) of its @font-face rule.
FACE_CSS = {"regular": ("normal", "normal"), "bold": ("bold", "normal"),
            "italic": ("normal", "italic"), "bold_italic": ("bold", "italic")}
#: The margin boxes the paper stylesheets fill (running heads, page numbers).
MARGIN_BOXES = ("top-left", "top-right", "bottom-left", "bottom-center", "bottom-right")


def css_family(name: str) -> str:
    """The CSS family name of a game's family (a prefix keeps it apart from any system font)."""
    return BUILTIN_CSS.get(name) or f'"cardgen-game-{name}"'


def font_faces(game: "Game | None" = None) -> Markup:
    """``@font-face`` rules: cardgen's faces, and every face of the families the rulebook uses."""
    rules = []
    for (family, weight, style), name in FONT_FILES.items():
        path = FONT_DIR / name
        if path.is_file():
            rules.append(
                f"@font-face {{ font-family: {family}; font-weight: {weight}; font-style: {style}; "
                f"src: url({path.resolve().as_uri()}); }}"
            )
    if game is not None:
        families = game.font_families()
        for family in _used_families(game):
            declared = families[family]
            for face, (weight, style) in FACE_CSS.items():
                relative = getattr(declared.spec, face)
                if relative is not None:
                    url = (declared.root / relative).resolve().as_uri()
                    rules.append(f"@font-face {{ font-family: {css_family(family)}; font-weight: {weight}; "
                                 f"font-style: {style}; src: url({url}); }}")
    return Markup("\n".join(rules))


def font_css(game: "Game") -> Markup:
    """The rules that set the text and the headings in the game's families (empty: cardgen's)."""
    chosen = game.meta.rulebook.fonts if game.meta.rulebook is not None else None
    if chosen is None or (chosen.body is None and chosen.headings is None):
        return Markup("")
    rules = []
    if chosen.body is not None:
        body = _stack(game, chosen.body)
        rules.append(f"html {{ font-family: {body}; }}")
        boxes = " ".join(f"@{box} {{ font-family: {body}; }}" for box in MARGIN_BOXES)
        rules += [f"@page :left {{ {boxes} }}", f"@page :right {{ {boxes} }}"]
    headings = chosen.headings or chosen.body
    rules.append(f"h1, h2, h3, h4, .cover .title {{ font-family: {_stack(game, headings)}; }}")
    return Markup("\n".join(rules))


def _stack(game: "Game", family: str) -> str:
    """``font-family`` for a family: itself, its fallback chain, then cardgen's DejaVu."""
    names = [family]
    declared = game.font_families().get(family)
    if declared is not None:
        names += declared.spec.fallback
    return ", ".join(dict.fromkeys([*map(css_family, names), "CardgenSans"]))


def _used_families(game: "Game", builtin: bool = False) -> list[str]:
    """The game's families the rulebook sets text in, with those of their fallback chains
    (``builtin``: the built-in families named too)."""
    chosen = game.meta.rulebook.fonts if game.meta.rulebook is not None else None
    if chosen is None:
        return []
    found: list[str] = []
    families = game.font_families()
    for family in (chosen.body, chosen.headings):
        if family is None:
            continue
        declared = families.get(family)
        for name in [family, *(declared.spec.fallback if declared is not None else ())]:
            if (name in families or (builtin and name in BUILTIN_FAMILIES)) and name not in found:
                found.append(name)
    return found


# --- characters no face of the rulebook has -------------------------------------------------------

class _Text(HTMLParser):
    """The text a reader sees: every text node but those of <style>, <script> and <title>."""

    HIDDEN = {"style", "script", "title"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in self.HIDDEN

    def handle_endtag(self, tag):
        self.hidden -= tag in self.HIDDEN and self.hidden > 0

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def glyph_problem(game: "Game", html: str, language: str) -> MissingGlyphError | None:
    """The characters of the rulebook's text that no face of its fonts has (None: every one has a face)."""
    from cardgen.content.fontfiles import FontFileError, font_coverage, read_font
    from cardgen.cards import fonts

    reader = _Text()
    reader.feed(html)
    text = " ".join(reader.parts)
    covered: set[int] = set()
    names: list[str] = []
    builtin = ["DejaVuSans", "DejaVuSans-Bold"]  # CardgenSans: the stylesheets' own text
    for family in _used_families(game, builtin=True):
        if family in BUILTIN_FAMILIES:
            builtin += [BUILTIN_FAMILIES[family]["regular"], BUILTIN_FAMILIES[family]["bold"]]
    for face in dict.fromkeys(builtin):
        covered |= set(fonts._coverage(fonts.register(face)))
        names.append(face)
    families = game.font_families()
    for family in _used_families(game):
        declared = families[family]
        for face in FACE_CSS:
            relative = getattr(declared.spec, face)
            if relative is None:
                continue
            try:
                covered |= font_coverage(read_font(declared.root / relative, declared.root))
            except FontFileError:
                continue  # the fetcher refuses the file with its reason
            names.append(declared.shown(relative))
    lacking = list(dict.fromkeys(ch for ch in text if ord(ch) not in covered and not fonts._blank(ch)))
    if not lacking:
        return None
    at = text.index(lacking[0])
    context = " ".join(text[max(0, at - 30):at + 30].split())
    shown = ", ".join(fonts.describe(ch) for ch in lacking[:4]) + (f" and {len(lacking) - 4} more"
                                                                   if len(lacking) > 4 else "")
    return MissingGlyphError(
        f"the rulebook of '{game.id}', text ...{context}...: no face of the rulebook's fonts ({', '.join(names)}) has {shown}; it would "
        "print in some system font or as empty boxes: declare a font family with these characters in game.yaml "
        "and name it in 'rulebook: {fonts: ...}' (or a family's 'fallback:')", Locator(language=language))
