"""Card layouts as data: ``templates/cards/<game>.yaml`` (or ``<game folder>/layout.yaml``).

A layout file says, for each kind of card face and back, which elements to
draw: colour fills, rectangles, text fields (box, font, size and minimum
size), and named drawings (a symbol of the layout's shape language or a
drawing of :mod:`cardgen.cards.drawings`).  Boxes are ``[x, y, w, h]`` in
millimetres from the top-left corner of the trim (or percentages such as
``"50%"``), or one of ``full`` (trim plus bleed), ``trim`` and ``safe``.
Text, colours and drawing parameters are templates: ``{field.name}``,
``{attrs.value}``, ``{group.name}``, ``{group.color}``, ``{kind.name}``,
``{back.name}``, ``{game.title}``, ``{card.id}``, ``{text.NAME}`` (a word of the
layout's ``texts`` in the card's language), with filters
``|upper`` and ``|map:NAME`` (a per-language table of the layout's ``maps``).

The first entry of ``faces`` (or ``backs``) whose ``match`` fits a card is its
layout; ``match`` may name ``group``, ``kind``, ``card``, ``back`` and
``attrs`` (each a value or a list of values), ``fields`` (text fields the
card must have) and ``art`` (true when the card or back has an ``art:`` file;
draw it with ``draw: "{card.art}"`` or ``"{back.art}"``, an SVG or image file, or place an image with
``type: image``, see :mod:`cardgen.cards.raster`).  ``use`` draws named ``parts`` (shared element lists) first.  An element may carry its own
``when`` with the same keys.  Every text field of a card must be printed by
its layout or listed under ``omit``, so no text is dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from pydantic import ValidationError

from cardgen import resources
from cardgen.content.layoutmodel import Accessibility, Element, Entry, LayoutFile
from cardgen.errors import suggest, ContentError, Locator, RenderError
from cardgen.cards.shapes import Symbol, parse_symbol

if TYPE_CHECKING:
    from cardgen.content.yamlsource import YamlDocument

TEMPLATES_DIR = resources.CARD_TEMPLATES


def default_templates_dir(content_dir: Path) -> Path:
    """``templates/cards`` beside the content folder when there is one, else cardgen's own."""
    beside = content_dir.resolve().parent / "templates" / "cards"
    return beside if beside.is_dir() else TEMPLATES_DIR
LAYOUT_IN_GAME = "layout.yaml"
DEFAULT_LAYOUT = "default.yaml"

#: Sections whose names an included file may define (and the including file override).
NAMED_SECTIONS = ("colors", "maps", "texts", "symbols", "parts")


@dataclass
class Layout:
    path: Path
    safe_mm: float
    colors: dict[str, str]
    maps: dict[str, dict[str, dict[str, str]]]
    texts: dict[str, dict[str, str]]
    symbols: dict[str, Symbol]
    parts: dict[str, list[Element]]
    faces: list[Entry]
    backs: list[Entry]
    #: (section, name) -> the file that defines it, for names that come from an included file
    origins: dict[tuple[str, str], Path] = field(default_factory=dict)
    #: every file read, with the position of each value (error messages point at lines)
    documents: dict[Path, "YamlDocument"] = field(default_factory=dict, repr=False)
    #: the accessibility thresholds the layout file states (None: the defaults)
    accessibility: Accessibility | None = None

    @property
    def thresholds(self) -> Accessibility:
        return self.accessibility or Accessibility()

    def symbol(self, name: str) -> Symbol:
        try:
            return self.symbols[name]
        except KeyError:
            raise RenderError(f"no symbol named '{name}' in the layout{suggest(name, self.symbols)}",
                              Locator(file=self.path)) from None

    def own_symbols(self) -> list[str]:
        """Symbols the layout file defines itself (not those of its includes)."""
        return sorted(name for name in self.symbols if ("symbols", name) not in self.origins)

    def locate(self, where: tuple, *, key: bool = False) -> Locator:
        """File, line and column of ``where`` (a path such as ``("faces", 2, "elements", 0)``)."""
        path = self.path
        if len(where) > 1 and where[0] in NAMED_SECTIONS:
            path = self.origins.get((where[0], where[1]), self.path)
        doc = self.documents.get(path)
        if doc is None:
            return Locator(file=path)
        return doc.locate(where, key=key)


def unknown_drawing_message(name: str, layout: Layout, builtins: Iterable[str]) -> str:
    """The error for a ``draw:`` name that is no SVG file, symbol or built-in drawing."""
    builtins = sorted(builtins)
    own = layout.own_symbols()
    listed = f"symbols of {layout.path.name}: {', '.join(own) or 'none'}"
    included = sorted({path.name for (section, _), path in layout.origins.items() if section == "symbols"})
    if included:
        listed += f"; {len(layout.symbols) - len(own)} more from {', '.join(included)}"
    return (f"no symbol or drawing named '{name}'{suggest(name, [*layout.symbols, *builtins])} "
            f"(built-in drawings: {', '.join(builtins)}; {listed})")


def read_layout_file(path: Path, display: Path | None = None) -> tuple["YamlDocument", LayoutFile | None, ValidationError | None]:
    """One layout file with the position of every value, and the model (None when it is invalid).

    Raises :class:`ContentError` when the file cannot be read as YAML at all.
    """
    from cardgen.content.yamlsource import read_yaml

    # positions, size cap, no tags or merge keys; a game's own layout never through a symlink out of it
    doc = read_yaml(path, display, root=path.parent if path.name == LAYOUT_IN_GAME else None)
    if not isinstance(doc.data, dict):
        raise ContentError("expected a mapping of keys at the top of the layout file", doc.locate(()))
    try:
        from cardgen.content import memo

        # kept between runs: pydantic builds the layout validator on first use, a tenth of a preview
        return doc, memo.cached("layout", [doc.digest], lambda: LayoutFile.model_validate(doc.data)), None
    except ValidationError as exc:
        return doc, None, exc


def _read(path: Path) -> tuple["YamlDocument", LayoutFile]:
    try:
        doc, model, invalid = read_layout_file(path)
    except ContentError as exc:
        raise RenderError(exc.message, exc.locator) from None
    if invalid is not None:
        from cardgen.cards.layoutschema import schema_errors

        errors = schema_errors(doc, invalid)
        more = f" (and {len(errors) - 1} more; 'cardgen validate' lists them all)" if len(errors) > 1 else ""
        raise RenderError(f"layout error: {errors[0].message}{more}", errors[0].locator)
    return doc, model


def layout_path(game_root: Path, game_id: str, templates_dir: Path | None = None) -> Path:
    """Where the layout of a game comes from: its folder, then templates, then the default."""
    from cardgen.content.safefile import inside

    templates_dir = templates_dir or TEMPLATES_DIR
    own = game_root / LAYOUT_IN_GAME
    if (own.is_file() or own.is_symlink()) and not inside(own, game_root):
        raise RenderError(f"{LAYOUT_IN_GAME} lies outside the game folder (through a symlink); a layout is "
                          "read from inside the game folder only", Locator(file=own))
    for candidate in (own, templates_dir / f"{game_id}.yaml", templates_dir / DEFAULT_LAYOUT):
        if candidate.is_file():
            return candidate
    raise RenderError(f"no layout for game '{game_id}' (looked in {game_root} and {templates_dir})")


def include_path(layout: Path, name: str, templates_dir: Path | None = None) -> Path | None:
    """The file ``include: [name]`` of ``layout`` reads: beside it, in the templates, in cardgen's own.

    Fenced like ``art:``: a name that leads out of the folder it is found in (an absolute
    path, '..', a symlink) is never read, so None (not found) for it.
    """
    from cardgen.content.safefile import UnsafeFile, check_name, inside

    try:
        check_name(name)
    except UnsafeFile:
        return None
    if Path(name).is_absolute():
        return None
    for folder in (layout.parent, templates_dir or TEMPLATES_DIR, TEMPLATES_DIR):
        candidate = folder / name
        if candidate.is_file() and inside(candidate, folder):
            return candidate
    return None


def assemble(path: Path, main: LayoutFile, includes: list[tuple[Path, LayoutFile]],
             documents: dict[Path, "YamlDocument"] | None = None) -> Layout:
    """A layout from its file and its included files (in order; the file itself wins)."""
    sections: dict[str, dict] = {name: {} for name in NAMED_SECTIONS}
    origins: dict[tuple[str, str], Path] = {}
    for inc_path, inc in includes:
        for section in NAMED_SECTIONS:
            for name, value in getattr(inc, section).items():
                sections[section][name] = value
                origins[(section, name)] = inc_path
    for section in NAMED_SECTIONS:
        for name, value in getattr(main, section).items():
            sections[section][name] = value
            origins.pop((section, name), None)
    symbols = {name: parse_symbol(name, data) for name, data in sections["symbols"].items()}
    return Layout(path, float(main.safe_mm), sections["colors"], sections["maps"], sections["texts"], symbols,
                  sections["parts"], list(main.faces), list(main.backs), origins, dict(documents or {}),
                  main.accessibility)


@lru_cache(maxsize=64)
def load_layout(path: Path, templates_dir: Path | None = None) -> Layout:
    doc, main = _read(path)
    documents = {path: doc}
    includes = []
    for index, name in enumerate(main.include):
        inc_path = include_path(path, name, templates_dir)
        if inc_path is None:
            raise RenderError(f"included layout file '{name}' not found (looked beside the layout and in "
                              f"{templates_dir or TEMPLATES_DIR})", doc.locate(("include", index)))
        inc_doc, inc = _read(inc_path)
        documents[inc_path] = inc_doc
        includes.append((inc_path, inc))
    layout = assemble(path, main, includes, documents)
    # a number out of range would hang or break the drawing: refuse it here, at its line,
    # so a build never depends on 'cardgen validate' having been run
    from cardgen.cards.ranges import layout_problems

    for where, message in layout_problems(layout):
        raise RenderError(f"layout error: {message}", layout.locate(where))
    return layout


# --- matching ------------------------------------------------------------------------------------

def matches(match: dict[str, Any] | None, facts: dict[str, Any]) -> bool:
    """Whether a card's facts (group, kind, card, back, attrs) satisfy ``match``."""
    if not match:
        return True
    for key, wanted in match.items():
        if key == "fields":
            have = set(facts.get("fields", ()))
            if not set(wanted if isinstance(wanted, list) else [wanted]) <= have:
                return False
            continue
        if key == "attrs":
            attrs = facts.get("attrs", {})
            for name, value in (wanted or {}).items():
                options = value if isinstance(value, list) else [value]
                if attrs.get(name) not in options and str(attrs.get(name)) not in map(str, options):
                    return False
            continue
        options = wanted if isinstance(wanted, list) else [wanted]
        if facts.get(key) not in options:
            return False
    return True


# --- what a card offers to its layout -----------------------------------------------------------

def card_context(game, card, lang: str) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """(values for ``{...}``, text fields in ``lang``, facts for ``match``) of a card's face."""
    group = next(g for g in game.meta.groups if g.id == card.group)
    kind = next((k for k in group.kinds if k.id == card.kind), None)
    back = next(b for b in game.meta.backs if b.id == card.back)
    from cardgen.i18n.labels import card_label, game_lookup  # the label the rulebook prints too

    values = _common_values(game, lang)
    values.update({
        "card.id": card.id, "card.copies": card.copies, "card.label": card_label(game, card, game_lookup(game, lang)).text,
        "group.id": group.id, "group.name": game.text(group.name, lang), "group.color": group.color,
        "kind.id": card.kind or "", "kind.name": game.text(kind.name, lang) if kind else "",
        "back.id": back.id, "back.color": back.color, "back.name": game.text(back.name, lang),
        "card.art": card.art or "", "back.art": back.art or "",
    })
    for name, value in card.attrs.items():
        values[f"attrs.{name}"] = value
    fields = {name: game.text(key, lang) for name, key in card.text.items()}
    facts = {"group": card.group, "kind": card.kind, "card": card.id, "back": card.back, "attrs": card.attrs,
             "fields": sorted(card.text), "art": card.art is not None}
    return values, fields, facts


def back_context(game, back_id: str, lang: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(values for ``{...}``, facts for ``match``) of a card back."""
    back = next(b for b in game.meta.backs if b.id == back_id)
    values = _common_values(game, lang)
    values.update({"back.id": back.id, "back.color": back.color, "back.name": game.text(back.name, lang),
                   "card.id": f"back-{back.id}", "back.art": back.art or ""})
    facts = {"back": back.id, "card": None, "group": None, "kind": None, "attrs": {}, "art": back.art is not None}
    return values, facts


def _common_values(game, lang: str) -> dict[str, Any]:
    return {"game.title": game.text(game.meta.title, lang), "game.id": game.id, "lang": lang}


# --- templates -----------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
FILTERS = ("upper", "lower", "map:NAME")


class Resolver:
    """Fills ``{...}`` placeholders for one card (or back) in one language."""

    def __init__(self, layout: Layout, values: dict[str, Any], fields: dict[str, str], lang: str,
                 locator: Locator):
        self.layout = layout
        self.values = values  # dotted name -> value (attrs.x, group.name, ...)
        self.fields = fields  # field -> text in the language
        self.lang = lang
        self.locator = locator
        self.used_fields: set[str] = set()

    def lookup(self, name: str) -> Any:
        if name.startswith("field."):
            field_name = name[6:]
            if field_name not in self.fields:
                hint = suggest(field_name, self.fields)
                raise RenderError(f"the layout prints field '{field_name}', which the card does not have{hint}",
                                  self.locator.with_(field=field_name, file=self.layout.path))
            self.used_fields.add(field_name)
            return self.fields[field_name]
        if name.startswith("text."):
            words = self.layout.texts.get(name[5:])
            if words is None:
                raise RenderError(f"no layout text named '{name[5:]}'{suggest(name[5:], self.layout.texts)}",
                                  Locator(file=self.layout.path))
            return words.get(self.lang) or words.get("en") or next(iter(words.values()))
        if name not in self.values:
            known = [*self.values, *(f"field.{f}" for f in self.fields), *(f"text.{t}" for t in self.layout.texts)]
            raise RenderError(f"the layout asks for '{{{name}}}', which this card does not have{suggest(name, known)}",
                              self.locator.with_(file=self.layout.path))
        return self.values[name]

    def expr(self, body: str) -> Any:
        name, *filters = [part.strip() for part in body.split("|")]
        value = self.lookup(name)
        for flt in filters:
            if flt == "upper":
                value = str(value).upper()
            elif flt == "lower":
                value = str(value).lower()
            elif flt.startswith("map:"):
                table = self.layout.maps.get(flt[4:])
                if table is None:
                    raise RenderError(f"no map named '{flt[4:]}' in the layout{suggest(flt[4:], self.layout.maps)}",
                                      Locator(file=self.layout.path))
                row = table.get(self.lang) or table.get("*") or table.get("en") or {}
                value = row.get(str(value), value)
            else:
                raise RenderError(f"unknown filter '{flt}' in '{{{body}}}'{suggest(flt, ('upper', 'lower', 'map'))} "
                                  f"(filters: {', '.join(FILTERS)})", Locator(file=self.layout.path))
        return value

    def text(self, template: str) -> str:
        return _PLACEHOLDER.sub(lambda m: str(self.expr(m.group(1))), template)

    def value(self, template: Any) -> Any:
        """A parameter: a whole-placeholder template keeps its type (numbers stay numbers)."""
        if not isinstance(template, str):
            return template
        whole = _PLACEHOLDER.fullmatch(template)
        if whole:
            return self.expr(whole.group(1))
        return self.text(template)


# --- colours and boxes ---------------------------------------------------------------------------

_FUNC = re.compile(r"^(tint|shade)\((.+),\s*([0-9.]+)\)$")


def hex_color(text: str, named: dict[str, str], locator: Locator | None = None, depth: int = 0) -> str | None:
    """Resolve a colour expression to ``#rrggbb`` (None for ``none``)."""
    text = text.strip()
    if text == "none":
        return None
    if depth > 10:
        raise RenderError(f"colour '{text}' refers to itself", locator)
    if re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return text.lower()
    if text in named:
        return hex_color(named[text], named, locator, depth + 1)
    m = _FUNC.match(text)
    if m:
        base = hex_color(m.group(2), named, locator, depth + 1) or "#000000"
        try:
            t = float(m.group(3))
        except ValueError:  # "0.5.1" passes the pattern
            raise RenderError(f"colour '{text}': '{m.group(3)}' is not a number", locator) from None
        r, g, b = (int(base[i:i + 2], 16) for i in (1, 3, 5))
        target = 255 if m.group(1) == "tint" else 0
        r, g, b = (round(v + (target - v) * t) for v in (r, g, b))
        return f"#{r:02x}{g:02x}{b:02x}"
    raise RenderError(f"unknown colour '{text}'{suggest(text, named)} (use #rrggbb, a named colour, "
                      "tint(C, t) or shade(C, t))", locator)


def box_mm(spec, width: float, height: float, safe_mm: float, bleed_mm: float,
           text: Callable[[str], str] = str) -> tuple[float, float, float, float]:
    """A box spec -> (x, y, w, h) in mm from the trim's top-left corner; ``text`` fills templates."""
    if spec == "full":
        return -bleed_mm, -bleed_mm, width + 2 * bleed_mm, height + 2 * bleed_mm
    if spec == "trim":
        return 0.0, 0.0, width, height
    if spec == "safe":
        return safe_mm, safe_mm, width - 2 * safe_mm, height - 2 * safe_mm
    if len(spec) != 4:
        raise RenderError(f"box must be [x, y, w, h], found {spec}")
    vals = []
    for i, v in enumerate(spec):
        total = width if i % 2 == 0 else height
        if isinstance(v, str):
            v = text(v).strip()
            try:
                v = float(v[:-1]) * total / 100 if v.endswith("%") else float(v)
            except ValueError:
                raise RenderError(f"box value '{v}' is neither a number of mm nor a percentage") from None
        vals.append(float(v))
    x, y, w, h = vals
    return x, y, w, h


def outside_safe_zone(box: tuple[float, float, float, float], width: float, height: float, safe_mm: float) -> bool:
    x, y, w, h = box
    s = safe_mm - 1e-6
    return x < s or y < s or x + w > width - s or y + h > height - s
