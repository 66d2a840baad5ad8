"""Printers as data: what each print shop asks for, read from the layouts' ``printers.yaml``.

A printer record says how its files are made (one PDF, one PDF per deck, one PNG
per card), at which bleed, safe zone and resolution, in which colour (sRGB or
CMYK through :mod:`cardgen.color.cmyk`), as which PDF/X version, in which page
order, and what its preflight (:mod:`cardgen.printing.preflight`) holds the files
to: total ink coverage, the thinnest line and the card sizes it makes.  A CMYK
record also names its output condition (the characterisation its profile
reproduces), the rendering intent and black point compensation of the
conversion, and which dark colours print on the black plate alone (those whose
CIELAB chroma is below ``black_chroma`` and lightness below ``black_lightness``).
The fields after ``min_line_pt`` are optional: a publisher's own record written
before them keeps its meaning.  ``cardgen build --printer NAME``
writes what the record asks; the older ``--profile`` names the same records.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardgen.content.safefile import UnsafeFile, read_capped
from cardgen.errors import Locator, RenderError
from cardgen.cards.layout import TEMPLATES_DIR

FILE_KINDS = ("pdf", "pdf-per-deck", "png-per-card")
COLORS = ("rgb", "cmyk")
PDFX = ("none", "x-1a", "x-4")
ORDERS = ("face-back", "back-face")
MAX_PRINTERS_BYTES = 256 * 1024

# field -> (type, low, high) for numbers, or the allowed words
_NUMBERS: dict[str, tuple[type, float, float]] = {
    "dpi": (int, 150, 1200),
    "bleed_mm": (float, 0.0, 10.0),
    "safe_mm": (float, 0.0, 15.0),
    "tac": (int, 150, 400),
    "min_line_pt": (float, 0.0, 2.0),
}
_WORDS: dict[str, tuple[str, ...]] = {"files": FILE_KINDS, "color": COLORS, "pdfx": PDFX, "order": ORDERS}
INTENTS = ("relative", "perceptual")
# optional fields: field -> (type, low, high, default) for numbers
_OPTIONAL_NUMBERS: dict[str, tuple[type, float, float, float]] = {
    "black_chroma": (float, 0.0, 30.0, 10.0),  # CIELAB C*ab below which a dark colour counts as neutral
    "black_lightness": (float, 0.0, 60.0, 27.0),  # L* below which a neutral colour prints as 100 % K
}
_OPTIONAL_WORDS: dict[str, tuple[tuple[str, ...], str]] = {"intent": (INTENTS, "relative")}
DEFAULT_CONDITION = "FOGRA39"


@dataclass(frozen=True)
class Printer:
    id: str
    name: str
    files: str  # one of FILE_KINDS
    dpi: int  # raster resolution of PNGs; the least image resolution a PDF may hold
    bleed_mm: float  # on every side of the trim
    safe_mm: float  # text and icons stay this far inside the trim
    color: str  # rgb | cmyk
    pdfx: str  # none | x-1a | x-4
    order: str  # face-back: face 1, back 1, face 2 ...; back-face: back 1, face 1, back 2 ...
    tac: int  # most total ink coverage, % (CMYK files)
    min_line_pt: float  # thinnest line the printer holds, in points
    expect: dict[str, tuple[int, int]]  # card shape -> pixel size the shop's template asks for (PNG printers)
    sizes: dict[str, tuple[float, float]] = None  # type: ignore[assignment]  # card shape -> trim mm; None: any
    condition: str = DEFAULT_CONDITION  # output condition identifier of a CMYK file (ICC registry name)
    intent: str = "relative"  # rendering intent sRGB -> CMYK: relative (colorimetric) | perceptual
    bpc: bool = True  # black point compensation in that conversion
    black_chroma: float = 10.0
    black_lightness: float = 27.0

    @property
    def bleed_in(self) -> float:
        return self.bleed_mm / 25.4

    @property
    def cmyk(self) -> bool:
        return self.color == "cmyk"

    def pixels(self, width_mm: float, height_mm: float) -> tuple[int, int]:
        w = round((width_mm / 25.4 + 2 * self.bleed_in) * self.dpi)
        h = round((height_mm / 25.4 + 2 * self.bleed_in) * self.dpi)
        return w, h


def _field(pid: str, data: dict[str, Any], key: str, path: Path, rule: Any = None) -> Any:
    where = Locator(file=path, field=f"printers.{pid}.{key}")
    if key not in data:
        raise RenderError(f"printer '{pid}' has no '{key}'", where)
    value = data[key]
    rule = rule or _NUMBERS.get(key) or _WORDS[key]
    if isinstance(rule[0], type):
        kind, low, high = rule
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and value != int(value)):
            raise RenderError(f"printer '{pid}': '{key}' must be a number, got {value!r}", where)
        if not low <= value <= high:
            raise RenderError(f"printer '{pid}': '{key}' is {value}; expected {low:g} to {high:g}", where)
        return kind(value)
    if value not in rule:
        raise RenderError(f"printer '{pid}': '{key}' is {value!r}; expected one of: {', '.join(rule)}", where)
    return value


def _printer(pid: str, data: Any, path: Path) -> Printer:
    if not isinstance(data, dict):
        raise RenderError(f"printer '{pid}' must be a mapping of its fields", Locator(file=path, field=f"printers.{pid}"))
    fields = {key: _field(pid, data, key, path) for key in (*_NUMBERS, *_WORDS)}
    if fields["pdfx"] != "none" and fields["color"] != "cmyk":
        raise RenderError(f"printer '{pid}': PDF/X files here are CMYK; set color: cmyk",
                          Locator(file=path, field=f"printers.{pid}"))
    expect = {str(k): (int(v[0]), int(v[1])) for k, v in (data.get("expect") or {}).items()}
    for key, (kind, low, high, default) in _OPTIONAL_NUMBERS.items():
        fields[key] = _field(pid, data, key, path, (kind, low, high)) if key in data else default
    for key, (words, default) in _OPTIONAL_WORDS.items():
        fields[key] = _field(pid, data, key, path, words) if key in data else default
    bpc = data.get("bpc", True)
    if not isinstance(bpc, bool):
        raise RenderError(f"printer '{pid}': 'bpc' must be true or false, got {bpc!r}",
                          Locator(file=path, field=f"printers.{pid}.bpc"))
    condition = data.get("condition", DEFAULT_CONDITION)
    if not isinstance(condition, str) or not condition.strip() or len(condition) > 64:
        raise RenderError(f"printer '{pid}': 'condition' must be the name of an output condition (as FOGRA39), "
                          f"got {condition!r}", Locator(file=path, field=f"printers.{pid}.condition"))
    return Printer(pid, str(data.get("name") or pid), expect=expect, sizes=_sizes(pid, data.get("sizes"), path),
                   condition=condition.strip(), bpc=bpc, **fields)


def _sizes(pid: str, data: Any, path: Path) -> dict[str, tuple[float, float]] | None:
    """``sizes: {poker: [63.5, 88.9], ...}``: the card sizes (trim, mm) the printer makes."""
    if data is None:
        return None
    where = Locator(file=path, field=f"printers.{pid}.sizes")
    if not isinstance(data, dict) or not data:
        raise RenderError(f"printer '{pid}': 'sizes' must map a card shape to [width, height] in mm", where)
    out = {}
    for name, value in data.items():
        if (not isinstance(value, (list, tuple)) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 20 <= v <= 300 for v in value)):
            raise RenderError(f"printer '{pid}': size '{name}' must be [width, height] in mm, 20 to 300; "
                              f"got {value!r}", where)
        out[str(name)] = (float(value[0]), float(value[1]))
    return out


@lru_cache(maxsize=4)
def printers(templates_dir: Path | None = None) -> dict[str, Printer]:
    """Every printer of ``templates_dir/printers.yaml`` (the bundled file when there is none)."""
    path = (templates_dir or TEMPLATES_DIR) / "printers.yaml"
    if not path.is_file():
        path = TEMPLATES_DIR / "printers.yaml"
    try:
        import yaml  # here, not at the top: a card preview never reads printers.yaml

        data = yaml.safe_load(read_capped(path, MAX_PRINTERS_BYTES).decode("utf-8"))
    except UnsafeFile as exc:
        raise RenderError(f"{path}: {exc}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise RenderError(f"{path} is not valid YAML: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("printers"), dict):
        raise RenderError(f"{path} must have a 'printers' mapping")
    return {str(pid): _printer(str(pid), p, path) for pid, p in data["printers"].items()}


def printer(name: str, templates_dir: Path | None = None) -> Printer:
    found = printers(templates_dir)
    if name not in found:
        raise RenderError(f"unknown printer '{name}'; expected one of: {', '.join(found)}")
    return found[name]


def highest_dpi(templates_dir: Path | None = None) -> int | None:
    """The highest resolution a printer of the templates asks for (card art is checked against
    it); None when the records cannot be read (a broken printers.yaml is the build's error)."""
    try:
        return max((p.dpi for p in printers(templates_dir).values()), default=None)
    except RenderError:
        return None
