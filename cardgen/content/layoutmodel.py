"""What a card layout file may say: ``templates/cards/*.yaml`` and a game's ``layout.yaml``.

The renderer (:mod:`cardgen.cards.layout`) reads layouts through these
models; they live with the content model because a layout is a source file
like ``cards.yaml``, and ``cardgen schema`` generates ``layout.schema.json``
from them for editors.  ``match``, ``when`` and the shapes of symbols are
typed dicts: they stay plain dicts for the renderer, but a misspelt key is an
error and editors complete the keys.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag
from typing_extensions import NotRequired, TypedDict

# Unions are written int | float (not float alone) so that pydantic keeps a 5 as 5:
# a coerced 5.0 could print differently.
Number = Union[int, float, str]
Num = Union[int, float]
BoxSpec = Union[list[Number], Literal["full", "trim", "safe"]]
MatchValue = Union[str, int, float, bool, None, list[Union[str, int, float, bool, None]]]
FONT_DESCRIPTION = ("regular, bold, condensed or condensed-bold (the built-in DejaVu faces), or a face of a font "
                    "family the game declares in game.yaml: NAME, NAME-bold, NAME-italic, NAME-bold-italic")


class Match(TypedDict, total=False):
    """Which cards an entry (``match``) or an element (``when``) applies to; all keys must hold."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]  # a misspelt key is an error
    group: Annotated[MatchValue, Field(description="Group id, or a list of ids.")]
    kind: Annotated[MatchValue, Field(description="Kind id, or a list of ids.")]
    card: Annotated[MatchValue, Field(description="Card id, or a list of ids.")]
    back: Annotated[MatchValue, Field(description="Back id, or a list of ids.")]
    attrs: Annotated[dict[str, MatchValue], Field(description="Attribute name -> value (or list of values).")]
    fields: Annotated[Union[str, list[str]], Field(description="Text fields the card must have.")]
    art: Annotated[bool, Field(description="True when the card (or back) has an art file.")]


class Shape(TypedDict, total=False):
    """One shape of a symbol, in view-box units (see cardgen/cards/shapes.py)."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    rect: Annotated[list[Num], Field(description="[x, y, w, h]")]
    r: Annotated[Num, Field(description="Corner radius of a rect.")]
    circle: Annotated[list[Num], Field(description="[cx, cy, r]")]
    ellipse: Annotated[list[Num], Field(description="[cx, cy, rx, ry]")]
    poly: Annotated[list[Num], Field(description="[x1, y1, x2, y2, ...], closed")]
    line: Annotated[list[Num], Field(description="[x1, y1, x2, y2, ...], open")]
    path: Annotated[str, Field(description="SVG path data: M L H V C Q Z")]
    evenodd: bool
    star: Annotated[list[Num], Field(description="[cx, cy, r_out, r_in, points]")]
    wedge: Annotated[list[Num], Field(description="[cx, cy, r, start_deg, extent_deg]")]
    arc: Annotated[list[Num], Field(description="[cx, cy, r, start_deg, extent_deg]")]
    text: Annotated[Union[str, int, float], Field(description="Text; {param} is replaced by a parameter.")]
    at: Annotated[list[Num], Field(description="[x, y] of a text")]
    size: Num
    font: Annotated[str, Field(description=FONT_DESCRIPTION)]
    anchor: Literal["start", "middle", "end"]
    use: Annotated[str, Field(description="Another symbol; {param} is replaced by a parameter.")]
    box: Annotated[list[Num], Field(description="[x, y, w, h] of a used symbol")]
    params: dict[str, Any]
    group: list[Shape]
    translate: Annotated[list[Num], Field(description="[dx, dy] of a group")]
    rotate: Annotated[Num, Field(description="Degrees, about origin")]
    origin: list[Num]
    scale: Union[Num, list[Num]]
    fill: Annotated[str, Field(description="#rrggbb, a named colour, none, or $param")]
    stroke: Annotated[str, Field(description="#rrggbb, a named colour, none, or $param")]
    width: Num
    cap: str
    dash: list[Num]


class SymbolBox(TypedDict):
    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]
    viewbox: NotRequired[Annotated[list[Num], Field(min_length=2, max_length=2, description="[width, height]")]]
    shapes: list[Shape]


SymbolSpec = Annotated[
    Union[Annotated[list[Shape], Tag("shape-list")], Annotated[SymbolBox, Tag("viewbox-form")]],
    # one error for the form the author wrote, not one for each form it might have been
    Discriminator(lambda value: "shape-list" if isinstance(value, list) else "viewbox-form"),
]


class _Model(BaseModel):
    # defer_build: a validator is built when first used, so a run whose files all come from
    # the cache (cardgen.content.memo) never builds one
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Element(_Model):
    type: Literal["fill", "rect", "text", "draw", "line", "image"]
    when: Match | None = Field(default=None, description="Draw the element only for cards that match.")
    box: BoxSpec = Field(default="trim", description="[x, y, w, h] in mm (or '50%'), full, trim or safe.")
    # rect / fill / line
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.3  # mm
    radius: float = 0.0  # mm
    dash: list[float] | None = None
    points: list[Number] | None = Field(default=None, description="line: x1, y1, x2, y2, ... in mm")
    # text
    text: str | None = Field(default=None, description="Template such as '{field.name}'.")
    font: str = Field(default="regular", description=FONT_DESCRIPTION)
    size: float = 10.0
    min_size: float | None = None
    color: str = "#000000"
    align: Literal["left", "center", "right", "top", "bottom", "top-left", "top-right", "bottom-left",
                   "bottom-right"] = Field(default="center", description=(
        "text: left, center or right; image: where the picture sits in its box (contain) or which part "
        "of it shows (cover)"))
    valign: Literal["top", "middle", "bottom"] = "middle"
    leading: float = 1.18
    max_lines: int = 0
    rotate: Literal[0, 90, 180, 270] = 0
    # draw
    draw: str | None = Field(default=None, description="An SVG or image file, a symbol or a built-in drawing.")
    params: dict[str, Any] = Field(default_factory=dict)
    fit: Literal["contain", "cover", "stretch"] | None = Field(
        default=None, description="draw: contain (default); image: cover (default), contain or stretch")
    # image
    src: str | None = Field(default=None, description="image: a PNG, JPEG, TIFF or WebP file of the game folder, "
                            "or a template such as '{card.art}'")
    focus: list[Num] | None = Field(default=None, min_length=2, max_length=2, description=(
        "image, cover: [x, y] from 0 to 1, the point of the picture kept nearest the box's centre"))
    crop: list[int] | None = Field(default=None, min_length=4, max_length=4, description=(
        "image: [x, y, width, height] in pixels of the file, the part of it placed"))
    bleed: bool = Field(default=False, description=(
        "image: fill the card to its bleed (the box is 'full'), whatever bleed is being made"))


class Entry(_Model):
    match: Match = Field(default_factory=dict, description="The first entry that matches a card is its layout.")
    omit: list[str] = Field(default_factory=list, description="Text fields deliberately not printed.")
    use: list[str] = Field(default_factory=list, description="Names of 'parts' drawn before the elements.")
    elements: list[Element] = Field(default_factory=list)


class Accessibility(_Model):
    """What ``cardgen validate`` holds a layout to, where the defaults do not fit (cardgen.cards.access)."""

    color_difference: float = Field(default=10.0, ge=1, le=50, description=(
        "Smallest CIEDE2000 difference, under normal vision and simulated protanopia, deuteranopia and "
        "tritanopia, between the colours of things a player must tell apart that carry no other printed cue."))
    smallest_text_pt: float = Field(default=6.0, ge=3, le=24, description=(
        "No text shrinks under this size (pt): say so here to let a text's min_size go lower."))
    body_text_pt: float = Field(default=8.0, ge=3, le=24, description=(
        "Body text (a card's field printed on several lines) is never fitted under this size (pt)."))


class LayoutFile(_Model):
    include: list[str] = Field(default_factory=list, description="Other layout files (common.yaml).")
    safe_mm: float = 3.0
    accessibility: Accessibility | None = Field(default=None, description=(
        "Thresholds of the colour-vision, contrast and text-size checks (defaults: 10, 6 pt, 8 pt)."))
    colors: dict[str, str] = Field(default_factory=dict, description="Named colours.")
    maps: dict[str, dict[str, dict[str, str]]] = Field(
        default_factory=dict, description="Per-language lookup tables: {NAME: {lang or '*': {value: text}}}.")
    texts: dict[str, dict[str, str]] = Field(default_factory=dict, description="Layout words by language.")
    symbols: dict[str, SymbolSpec] = Field(default_factory=dict, description="Vector drawings in the shape language.")
    defs: Any = None  # free space for YAML anchors
    parts: dict[str, list[Element]] = Field(default_factory=dict, description="Element lists shared by entries.")
    faces: list[Entry] = Field(default_factory=list)
    backs: list[Entry] = Field(default_factory=list)
