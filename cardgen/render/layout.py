"""Card layouts as data: ``templates/cards/<game>.yaml`` (or ``<game folder>/layout.yaml``).

A layout file says, for each kind of card face and back, which elements to
draw: colour fills, rectangles, text fields (box, font, size and minimum
size), and named drawings (a symbol of the layout's shape language or a
drawing of :mod:`cardgen.render.drawings`).  Boxes are ``[x, y, w, h]`` in
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
draw it with ``draw: "{card.art}"`` or ``"{back.art}"``, an SVG file).  ``use`` draws named ``parts`` (shared element lists) first.  An element may carry its own
``when`` with the same keys.  Every text field of a card must be printed by
its layout or listed under ``omit``, so no text is dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardgen.errors import Locator, RenderError
from cardgen.render.shapes import Symbol, parse_symbol

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates" / "cards"
LAYOUT_IN_GAME = "layout.yaml"
DEFAULT_LAYOUT = "default.yaml"

Number = float | int | str
BoxSpec = list[Number] | Literal["full", "trim", "safe"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Element(_Model):
    type: Literal["fill", "rect", "text", "draw", "line"]
    when: dict[str, Any] | None = None
    box: BoxSpec = "trim"
    # rect / fill / line
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3  # mm
    radius: float = 0.0  # mm
    dash: list[float] | None = None
    points: list[Number] | None = None  # line: x1, y1, x2, y2, ... in mm
    # text
    text: str | None = None
    font: str = "regular"
    size: float = 10.0
    min_size: float | None = None
    color: str = "#000000"
    align: Literal["left", "center", "right"] = "center"
    valign: Literal["top", "middle", "bottom"] = "middle"
    leading: float = 1.18
    max_lines: int = 0
    rotate: Literal[0, 90, 180, 270] = 0
    # draw
    draw: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    fit: Literal["contain", "cover", "stretch"] = "contain"


class Entry(_Model):
    match: dict[str, Any] = Field(default_factory=dict)
    omit: list[str] = Field(default_factory=list)
    use: list[str] = Field(default_factory=list, description="Names of 'parts' drawn before the elements.")
    elements: list[Element] = Field(default_factory=list)


class LayoutFile(_Model):
    include: list[str] = Field(default_factory=list)
    safe_mm: float = 3.0
    colors: dict[str, str] = Field(default_factory=dict)
    maps: dict[str, dict[str, dict[str, str]]] = Field(default_factory=dict)
    texts: dict[str, dict[str, str]] = Field(default_factory=dict, description="Layout words by language.")
    symbols: dict[str, Any] = Field(default_factory=dict)
    defs: Any = None  # free space for YAML anchors
    parts: dict[str, list[Element]] = Field(default_factory=dict)
    faces: list[Entry] = Field(default_factory=list)
    backs: list[Entry] = Field(default_factory=list)


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

    def symbol(self, name: str) -> Symbol:
        try:
            return self.symbols[name]
        except KeyError:
            raise RenderError(f"no symbol named '{name}' in the layout", Locator(file=self.path)) from None


def _read(path: Path) -> LayoutFile:
    try:
        # libyaml's C parser when present: layouts are read by every worker
        data = yaml.load(path.read_text("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError) as exc:
        raise RenderError(f"cannot read layout: {exc}", Locator(file=path)) from None
    try:
        return LayoutFile.model_validate(data or {})
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RenderError(f"layout error: {first['msg']}", Locator(file=path, field=where)) from None


def layout_path(game_root: Path, game_id: str, templates_dir: Path | None = None) -> Path:
    """Where the layout of a game comes from: its folder, then templates, then the default."""
    templates_dir = templates_dir or TEMPLATES_DIR
    for candidate in (game_root / LAYOUT_IN_GAME, templates_dir / f"{game_id}.yaml", templates_dir / DEFAULT_LAYOUT):
        if candidate.is_file():
            return candidate
    raise RenderError(f"no layout for game '{game_id}' (looked in {game_root} and {templates_dir})")


@lru_cache(maxsize=64)
def load_layout(path: Path, templates_dir: Path | None = None) -> Layout:
    templates_dir = templates_dir or TEMPLATES_DIR
    main = _read(path)
    colors: dict[str, str] = {}
    maps: dict[str, dict[str, dict[str, str]]] = {}
    texts: dict[str, dict[str, str]] = {}
    symbols: dict[str, Symbol] = {}
    parts: dict[str, list[Element]] = {}
    for name in main.include:
        inc_path = path.parent / name
        if not inc_path.is_file():
            inc_path = templates_dir / name
        if not inc_path.is_file():
            inc_path = TEMPLATES_DIR / name
        inc = _read(inc_path)
        colors.update(inc.colors)
        maps.update(inc.maps)
        texts.update(inc.texts)
        symbols.update({k: parse_symbol(k, v) for k, v in inc.symbols.items()})
        parts.update(inc.parts)
    parts.update(main.parts)
    colors.update(main.colors)
    maps.update(main.maps)
    texts.update(main.texts)
    symbols.update({k: parse_symbol(k, v) for k, v in main.symbols.items()})
    return Layout(path, main.safe_mm, colors, maps, texts, symbols, parts, list(main.faces), list(main.backs))


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


# --- templates -----------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


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
            field = name[6:]
            if field not in self.fields:
                raise RenderError(f"the layout prints field '{field}', which the card does not have",
                                  self.locator.with_(field=field, file=self.layout.path))
            self.used_fields.add(field)
            return self.fields[field]
        if name.startswith("text."):
            words = self.layout.texts.get(name[5:])
            if words is None:
                raise RenderError(f"no layout text named '{name[5:]}'", Locator(file=self.layout.path))
            return words.get(self.lang) or words.get("en") or next(iter(words.values()))
        if name not in self.values:
            raise RenderError(f"the layout asks for '{{{name}}}', which this card does not have",
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
                    raise RenderError(f"no map named '{flt[4:]}' in the layout", Locator(file=self.layout.path))
                row = table.get(self.lang) or table.get("*") or table.get("en") or {}
                value = row.get(str(value), value)
            else:
                raise RenderError(f"unknown filter '{flt}' in '{{{body}}}'", Locator(file=self.layout.path))
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
