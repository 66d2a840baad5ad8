"""Check a game's card layout at validate time, without drawing anything.

:func:`check_layout` reads the layout file of a game (and the files it
includes) with the position of every value, checks it against the layout
model, then resolves every face and back of every card in every language of
the game the way :class:`~cardgen.cards.card.CardRenderer` plans them: which
entry matches, the ``use:`` parts, every ``{placeholder}`` and filter, every
``draw:`` name (SVG file, image file, layout symbol or built-in drawing, with the
symbols' own ``$param`` colours and ``use:`` references), every image (the file
exists in the game folder and decodes, its crop fits; a warning when it is placed
under the printers' resolution or its name says another format), colours, fonts, the safe zone
of text boxes, and whether every text field of a card is printed or omitted.

Every problem is reported once, with the file, line and column of the layout
value that causes it, a "did you mean" where a name is close to a known one,
and how many cards it touches (naming the first).  Text overflow is left to
the build: measuring text needs the fonts' metrics, and validate stays light
(this module imports neither reportlab nor the drawings).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from cardgen.content.yamlsource import YamlDocument
from cardgen.cards.layoutschema import schema_errors, short_value
from cardgen.errors import ContentError, Locator, RenderError, shown_path
from cardgen.cards.fonts import STYLES, SUFFIXES, GameFonts
from cardgen.cards.ranges import DRAWING_RANGES, layout_problems
from cardgen.content.images import RasterError, is_raster_name, misnamed_format, verify
from cardgen.cards.raster import ALIGNMENTS, Placement, check_crop, effective_ppi, raster_path
from cardgen.cards.layout import (
    TEMPLATES_DIR, Element, Entry, Layout, LayoutFile, Resolver, assemble, back_context, box_mm, card_context, hex_color,
    include_path, layout_path, matches, outside_safe_zone, read_layout_file, suggest, unknown_drawing_message,
)

__all__ = ["builtin_drawings", "check_layout", "schema_errors"]

#: Parameters of the built-in drawings that are colour expressions (``colors`` is a list of them).
COLOUR_PARAMS = {"color", "paper", "accent", "grass", "stripe", "background", "shirt"}
#: Parameters of the built-in drawings that name a symbol of the layout.
SYMBOL_PARAMS = {"symbol"}
#: Sane ranges of numeric parameters (one table with the renderer's draw-time checks).
NUMBER_RANGES = DRAWING_RANGES
PIP_RANKS = {"ace", "a", *map(str, range(1, 11))}
COURT_FIGURES = ("plain", "footballer")  # as cardgen.cards.drawings (not imported: it loads reportlab)
#: Yes-or-no parameters of the built-in drawings (true or false; text filled in per card too).
FLAG_PARAMS = {("portrait", "stadium")}
ART_BLEED_MM = 4.0  # as cardgen.cards.card (not imported: it loads reportlab)
_SHAPE_ARITY = {"rect": 4, "circle": 3, "ellipse": 4, "star": 5, "wedge": 5, "arc": 5, "at": 2, "box": 4,
                "translate": 2, "origin": 2}
_SHAPE_KINDS = ("group", "use", "text", "rect", "circle", "ellipse", "poly", "line", "path", "star", "wedge", "arc")


def check_layout(game, templates_dir: Path | None = None, warnings: list[ContentError] | None = None,
                 print_dpi: int | None = None) -> list[ContentError]:
    """Every problem of ``game``'s card layout, as content errors (empty when it will render).

    ``warnings``, when given, receives what builds but may print badly: an image under
    ``print_dpi`` at its placed size (the printers' highest resolution, which the caller
    reads from the printer records: :func:`cardgen.printing.printers.highest_dpi`; None:
    :data:`cardgen.cards.raster.DEFAULT_DPI`), an image file whose name says another format.
    """
    display_root = getattr(game, "display_root", None)
    display_root = display_root.resolve() if display_root is not None else None
    try:
        path = layout_path(game.root, game.id, templates_dir)
    except RenderError as exc:
        return [ContentError(exc.message, Locator(file=shown_path(game.root, display_root)))]
    layout, errors = _read_layout(path, templates_dir, display_root)
    if layout is None:
        return errors
    checker = _Checker(game, layout, print_dpi or _default_dpi())
    checker.run()
    if warnings is not None:
        warnings += checker.errors(checker.warned)
    return errors + checker.errors()


def _default_dpi() -> int:
    from cardgen.cards.raster import DEFAULT_DPI

    return DEFAULT_DPI


# --- reading ---------------------------------------------------------------------------------------

def _read_layout(path: Path, templates_dir: Path | None, display_root: Path | None
                 ) -> tuple[Layout | None, list[ContentError]]:
    """The layout and its includes, or None and every schema error of every file."""
    errors: list[ContentError] = []
    documents: dict[Path, YamlDocument] = {}
    models: list[tuple[Path, LayoutFile]] = []
    queue = [path]
    for file in queue:
        try:
            doc, model, invalid = _read_file(file, shown_path(file.resolve(), display_root))
        except ContentError as exc:
            errors.append(exc)
            continue
        documents[file] = doc
        if invalid is not None:
            errors += schema_errors(doc, invalid)
            continue
        models.append((file, model))
        if file == path:  # only the layout's own includes count (as load_layout reads them)
            for index, name in enumerate(model.include):
                found = include_path(path, name, templates_dir)
                if found is None:
                    folders = (path.parent, templates_dir or TEMPLATES_DIR)
                    known = [p.name for folder in folders for p in folder.glob("*.yaml")]
                    errors.append(ContentError(f"included layout file '{name[:200]}' not found{suggest(name, known)} "
                                               "(a file beside the layout or in the templates folder)",
                                               doc.locate(("include", index))))
                else:
                    queue.append(found)
    if errors or not models:
        return None, errors
    main = models[0][1]
    try:
        return assemble(path, main, models[1:], documents), []
    except RenderError as exc:  # a symbol that is neither a list nor {viewbox, shapes}
        return None, [ContentError(exc.message, documents[path].locate(()))]


def _read_file(path: Path, display: Path):
    """:func:`read_layout_file`, once per file and version in a run (every game includes common.yaml)."""
    stat = path.stat()
    return _read_cached(path, display, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _read_cached(path: Path, display: Path, mtime_ns: int, size: int):
    return read_layout_file(path, display)


@lru_cache(maxsize=1)
def builtin_drawings() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Built-in drawing -> (parameters it reads, parameters it needs).

    Read from the source of :mod:`cardgen.cards.drawings` (``@drawing("name")``,
    ``params.get("x")``, ``_param(params, "x")``, ``_flag(params, "x", ...)``) rather than imported, since
    importing it loads reportlab; a test keeps the two in step.
    """
    source = Path(__file__).with_name("drawings.py").read_text("utf-8")
    found: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        names = [d.args[0].value for d in node.decorator_list
                 if isinstance(d, ast.Call) and getattr(d.func, "id", None) == "drawing"
                 and d.args and isinstance(d.args[0], ast.Constant)]
        if not names:
            continue
        reads, needs = set(), set()
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            func, args = call.func, call.args
            if (isinstance(func, ast.Attribute) and func.attr == "get" and getattr(func.value, "id", None) == "params"
                    and args and isinstance(args[0], ast.Constant)):
                reads.add(call.args[0].value)
            elif (getattr(func, "id", None) == "_param" and len(args) >= 2 and isinstance(args[1], ast.Constant)):
                reads.add(call.args[1].value)
                if len(call.args) == 2:
                    needs.add(call.args[1].value)
            elif getattr(func, "id", None) == "_flag" and len(args) >= 2 and isinstance(args[1], ast.Constant):
                reads.add(call.args[1].value)
        for name in names:
            found[name] = (frozenset(reads), frozenset(needs))
    return found


# --- resolving every card ----------------------------------------------------------------------------

class _Resolver(Resolver):
    """The renderer's resolver, remembering the ``{field.X}`` it could not find."""

    misspelt_fields = False

    def lookup(self, name: str) -> Any:
        try:
            return super().lookup(name)
        except RenderError:
            self.misspelt_fields = self.misspelt_fields or name.startswith("field.")
            raise


@dataclass
class _Problem:
    locator: Locator
    message: str
    cards: list[str] = field(default_factory=list)
    languages: set[str] = field(default_factory=set)


class _Checker:
    """Walks every face and back of one game through its layout and collects the problems."""

    def __init__(self, game, layout: Layout, dpi: int = 300):
        self.game = game
        self.layout = layout
        self.dpi = dpi
        self.warned: dict[tuple, _Problem] = {}
        self._images: dict[str, Any] = {}  # file name -> decoded image, or why it cannot be read
        self.languages = list(game.meta.languages)
        self.problems: dict[tuple, _Problem] = {}
        self.builtins = builtin_drawings()
        self._drawn: dict[str, list[tuple[tuple, str]]] = {}  # problems of a drawing with these parameters
        size = game.meta.card_size
        self.width, self.height = size.width_mm, size.height_mm

    # --- recording ---
    def report(self, where: tuple, message: str, *, key: bool = False, card: str | None = None,
               lang: str | None = None, warning: bool = False) -> None:
        locator = self.layout.locate(where, key=key)
        ident = (str(locator.file), locator.line, locator.column, locator.field, message)
        problem = (self.warned if warning else self.problems).setdefault(ident, _Problem(locator, message))
        if card and card not in problem.cards:
            problem.cards.append(card)
        if lang:
            problem.languages.add(lang)

    def errors(self, problems: dict[tuple, _Problem] | None = None) -> list[ContentError]:
        errors = []
        for problem in (self.problems if problems is None else problems).values():
            message, locator = problem.message, problem.locator
            if problem.cards:
                locator = locator.with_(card=problem.cards[0])
                more = len(problem.cards) - 1
                if more:
                    message += f" (and {more} more card{'s' if more > 1 else ''})"
            if problem.languages and problem.languages != set(self.languages):
                locator = locator.with_(language=", ".join(sorted(problem.languages)))
            errors.append(ContentError(message, locator))
        return errors

    # --- the walk ---
    def run(self) -> None:
        self.check_static()
        from cardgen.content import budgets

        if any(budgets.layout_problems(self.layout)):  # reported by check_static; each card would take as long
            return
        for lang in self.languages:
            for card in self.game.cards:
                try:
                    values, fields, facts = card_context(self.game, card, lang)
                except (KeyError, StopIteration):
                    continue  # a broken reference in the content: the content checks report it
                self.check_side("faces", facts, _Resolver(self.layout, values, fields, lang, Locator()),
                                card.id, lang, f"group '{card.group}'" + (f", kind '{card.kind}'" if card.kind else ""))
            for back in self.game.meta.backs:
                try:
                    values, facts = back_context(self.game, back.id, lang)
                except (KeyError, StopIteration):
                    continue
                self.check_side("backs", facts, _Resolver(self.layout, values, {}, lang, Locator()),
                                f"back {back.id}", lang, f"back '{back.id}'")

    def check_side(self, side: str, facts: dict, resolver: _Resolver, label: str, lang: str, what: str) -> None:
        found = next(((i, e) for i, e in enumerate(getattr(self.layout, side)) if matches(e.match, facts)), None)
        if found is None:
            self.report((side,), f"no entry of '{side}' matches {what}", key=True, card=label, lang=lang)
            return
        index, entry = found
        for at, element in self.elements((side, index), entry):
            if element.when is None or matches(element.when, facts):
                self.check_element(at, element, resolver, label, lang)
        if side == "faces":
            missing = sorted(set(resolver.fields) - resolver.used_fields - set(entry.omit))
            if missing and not resolver.misspelt_fields:  # a misspelt {field.X} is reported already
                self.report((side, index), f"the layout prints no text for field(s) {', '.join(missing)}; "
                            "print them or list them under 'omit'", card=label, lang=lang)

    def elements(self, where: tuple, entry: Entry) -> Iterator[tuple[tuple, Element]]:
        for name in entry.use:
            for j, element in enumerate(self.layout.parts.get(name, ())):  # unknown parts: check_static
                yield ("parts", name, j), element
        for j, element in enumerate(entry.elements):
            yield where + ("elements", j), element

    def check_element(self, at: tuple, el: Element, resolver: Resolver, label: str, lang: str) -> None:
        def attempt(attr: tuple, action, *args):
            try:
                return action(*args)
            except RenderError as exc:
                self.report(at + attr, exc.message, card=label, lang=lang)
                return None

        def colour(attr: str, template: str | None) -> None:
            if template is not None:
                text = attempt((attr,), resolver.text, template)
                if text is not None:
                    attempt((attr,), hex_color, text, self.layout.colors)

        if el.type == "fill":
            colour("fill", el.fill)
        elif el.type in ("rect", "line"):
            colour("fill", el.fill)
            colour("stroke", el.stroke)
        elif el.type == "text" and el.text is not None:
            attempt(("text",), resolver.text, el.text)
            colour("color", el.color)
        box = None
        if el.type in ("rect", "text", "draw", "image"):
            spec = "full" if el.type == "image" and el.bleed else el.box
            box = attempt(("box",), box_mm, spec, self.width, self.height, self.layout.safe_mm, ART_BLEED_MM,
                          resolver.text)
            if box is not None and el.type == "text" and outside_safe_zone(box, self.width, self.height,
                                                                           self.layout.safe_mm):
                x, y, w, h = box
                self.report(at + ("box",), f"text box [{x:g}, {y:g}, {w:g}, {h:g}] mm leaves the "
                            f"{self.layout.safe_mm:g} mm safe zone of a {self.width:g} x {self.height:g} mm card",
                            card=label, lang=lang)
        if el.type == "draw" and el.draw:
            name = attempt(("draw",), resolver.text, el.draw)
            params = {}
            for key, value in el.params.items():
                resolved = attempt(("params", key), resolver.value, value)
                if resolved is not None:
                    params[key] = resolved
            if name is not None and is_raster_name(name):
                self.check_image(at, ("draw",), name, box, Placement(el.fit or "contain"), label, lang)
            elif name is not None:
                for where, message in self.check_drawing(name, params):
                    self.report(at + where, message, card=label, lang=lang)
        if el.type == "image" and el.src:
            name = attempt(("src",), resolver.text, el.src)
            if name is not None:
                place = Placement(el.fit or "cover", ALIGNMENTS.get(el.align, (0.5, 0.5)),
                                  tuple(el.focus) if el.focus else None, tuple(el.crop) if el.crop else None,
                                  el.rotate)
                self.check_image(at, ("src",), name, box, place, label, lang)

    # --- images ---
    def check_image(self, at: tuple, attr: tuple, name: str, box, place: Placement, label: str, lang: str) -> None:
        """The file (exists, inside the game folder, decodes), its crop, and its resolution at ``box`` mm."""
        if not is_raster_name(name):
            self.report(at + attr, f"'{name[:80]}' is not an image file (PNG, JPEG, TIFF or WebP: .png, .jpg, "
                        ".jpeg, .tif, .tiff, .webp)", card=label, lang=lang)
            return
        found = self._image(name)
        if isinstance(found, str):
            self.report(at + attr, found, card=label, lang=lang)
            return
        problem = check_crop(place.crop, found.width, found.height)
        if problem is not None:
            self.report(at + ("crop",), f"image '{name}': {problem}", card=label, lang=lang)
            return
        misnamed = misnamed_format(name, found.format)
        if misnamed:
            self.report(at + attr, f"image '{name}' is a {misnamed} file; its name says "
                        f"{Path(name).suffix.lower()} (it is read as the {misnamed} it is; rename it)",
                        card=label, lang=lang, warning=True)
        if box is None or box[2] <= 0 or box[3] <= 0:
            return
        ppi, w_mm, h_mm = effective_ppi(found.width, found.height, box[2], box[3], place)
        if ppi < self.dpi * 0.98:
            self.report(at + attr, f"image '{name}' ({found.width} x {found.height} px) is placed at {w_mm:.1f} x "
                        f"{h_mm:.1f} mm: {ppi:.0f} ppi, under the {self.dpi} ppi printers ask for",
                        card=label, lang=lang, warning=True)

    def _image(self, name: str):
        """The decoded image ``name`` of the game folder, or the message saying why there is none."""
        if name in self._images:
            return self._images[name]
        try:
            path = raster_path(self.game.root, name)
            if not path.is_file():
                found: Any = f"no image file '{name}' in the game folder"
            else:
                found = verify(path)
        except RasterError as exc:
            found = exc.named(name).message
        except RenderError as exc:
            found = exc.message
        self._images[name] = found
        return found

    # --- drawings ---
    def check_drawing(self, name: str, params: dict) -> list[tuple[tuple, str]]:
        """Problems (attribute of the element, message) of drawing ``name`` with ``params``."""
        memo = repr((name, sorted(params.items())))
        if memo in self._drawn:
            return self._drawn[memo]
        problems: list[tuple[tuple, str]] = []
        if name.lower().endswith(".svg"):
            problems += self.check_svg(name)
        elif is_raster_name(name):  # an image file as a drawing's symbol (a draw: of one is checked as an image)
            found = self._image(name)
            if isinstance(found, str):
                problems.append((("draw",), found))
        elif name in self.layout.symbols:
            problems += self.check_symbol(name, params, ())
        elif name in self.builtins:
            problems += self.check_builtin(name, params)
        else:
            problems.append((("draw",), unknown_drawing_message(name, self.layout, self.builtins)))
        self._drawn[memo] = problems
        return problems

    def check_svg(self, name: str) -> list[tuple[tuple, str]]:
        from cardgen.cards.svgart import art_path, load_svg

        try:
            path = art_path(self.game.root, name)
        except RenderError as exc:
            return [(("draw",), exc.message)]
        if not path.is_file():
            return [(("draw",), f"no SVG file '{name}' in the game folder")]
        try:
            load_svg(path)
        except RenderError as exc:
            line = f" line {exc.locator.line}" if exc.locator.line else ""
            return [(("draw",), f"SVG file '{name}'{line}: {exc.message}")]
        return []

    def check_symbol(self, name: str, params: dict, chain: tuple) -> list[tuple[tuple, str]]:
        """What drawing symbol ``name`` with ``params`` would fail on (``$param`` colours, ``use:``)."""
        if name in chain or len(chain) > 8:
            return [(("draw",), f"symbol '{name}' uses itself (through {' -> '.join(chain)})")]
        problems = []
        for shape in _shapes(self.layout.symbols[name].shapes):
            for key in ("fill", "stroke"):
                value = shape.get(key)
                if isinstance(value, str) and value.startswith("$"):
                    if value[1:] not in params:
                        problems.append((("params",), f"symbol '{name}' colours a shape with '{value}'; pass "
                                         f"'{value[1:]}' under params"))
                    else:
                        problems += self._colour_problem(str(params[value[1:]]), ("params", value[1:]))
            if "use" in shape:
                inner = str(shape["use"])
                for key, value in params.items():
                    inner = inner.replace("{" + key + "}", str(value))
                if inner not in self.layout.symbols:
                    problems.append((("params",), f"symbol '{name}' uses symbol '{inner}', which the layout does "
                                     f"not have{suggest(inner, self.layout.symbols)}"))
                else:
                    problems += self.check_symbol(inner, {**params, **shape.get("params", {})}, chain + (name,))
        return list(dict.fromkeys(problems))

    def check_builtin(self, name: str, params: dict) -> list[tuple[tuple, str]]:
        reads, needs = self.builtins[name]
        problems = []
        for key in sorted(needs - set(params)):
            problems.append((("params",), f"drawing '{name}' needs parameter '{key}'"))
        for key, value in params.items():
            where = ("params", key)
            if key not in reads:
                problems.append((where, f"drawing '{name}' takes no parameter '{key}'{suggest(key, reads)} "
                                 f"(it takes: {', '.join(sorted(reads)) or 'none'})"))
            elif key in COLOUR_PARAMS:
                problems += self._colour_problem(str(value), where)
            elif key == "colors":
                for item in value if isinstance(value, list) else [value]:
                    problems += self._colour_problem(str(item), where)
            elif key in SYMBOL_PARAMS:
                problems += self.check_symbol_param(name, str(value), params.get("color", "#000000"), where)
            elif (name, key) in FLAG_PARAMS:
                if not isinstance(value, bool) and str(value).strip().lower() not in ("true", "false"):
                    problems.append((where, f"drawing '{name}': '{key}' is true or false, found {short_value(value)}"))
            elif (name, key) in NUMBER_RANGES:
                low, high = NUMBER_RANGES[(name, key)]
                try:
                    number = float(value)
                except (TypeError, ValueError):
                    number = None
                if number is None or not low <= number <= high:
                    problems.append((where, f"drawing '{name}': '{key}' must be a number from {low:g} to "
                                     f"{high:g}, found {short_value(value)}"))
        if name == "pips" and "rank" in params and str(params["rank"]) not in PIP_RANKS:
            problems.append((("params", "rank"), f"drawing 'pips' has no pip layout for rank '{params['rank']}' "
                             "(ace or 1 to 10)"))
        if name == "court" and "figure" in params and str(params["figure"]) not in COURT_FIGURES:
            problems.append((("params", "figure"), f"drawing 'court' has no figure '{params['figure']}'"
                             f"{suggest(str(params['figure']), COURT_FIGURES)} (figures: {', '.join(COURT_FIGURES)})"))
        return problems

    def check_symbol_param(self, name: str, value: str, color: Any, where: tuple) -> list[tuple[tuple, str]]:
        """What drawing ``value`` as the ``symbol`` of built-in drawing ``name`` would fail on.

        The drawing hands its symbol to the renderer's one dispatcher (``DrawContext.draw``),
        so anything ``draw:`` takes serves: a symbol of the layout, an art file of the game,
        a built-in drawing (given the colour alone).  It is checked here as ``draw:`` is, by
        :meth:`check_drawing`, and a name it does not know keeps the error about symbols.
        """
        if value in self.layout.symbols:
            return self.check_symbol(value, {"color": color}, ())
        inner = {"color": color} if value in self.builtins and "color" in self.builtins[value][0] else {}
        found = self.check_drawing(value, inner)
        if found == [(("draw",), unknown_drawing_message(value, self.layout, self.builtins))]:
            return [(where, f"drawing '{name}' draws symbol '{value}', which the layout does not "
                     f"have{suggest(value, self.layout.symbols)} (a symbol, an art file such as art/suit.svg or "
                     "art/suit.png, or a built-in drawing)")]
        if value in self.builtins:
            return [(where, f"drawing '{name}' draws '{value}' as its symbol: {message}") for _, message in found]
        return [(where, message) for _, message in found]

    def _colour_problem(self, text: str, where: tuple) -> list[tuple[tuple, str]]:
        try:
            hex_color(text, self.layout.colors)
        except RenderError as exc:
            return [(where, exc.message)]
        return []

    # --- what needs no card ---
    def check_static(self) -> None:
        """Names and values that are wrong whatever card is drawn: parts, fonts, match ids, colours, symbols."""
        for name in self.layout.colors:
            try:
                hex_color(name, self.layout.colors)
            except RenderError as exc:
                self.report(("colors", name), exc.message)
        known = {
            "group": {g.id for g in self.game.meta.groups},
            "kind": {k.id for g in self.game.meta.groups for k in g.kinds},
            "back": {b.id for b in self.game.meta.backs},
            "card": {c.id for c in self.game.cards},
        }
        for side in ("faces", "backs"):
            for index, entry in enumerate(getattr(self.layout, side)):
                where = (side, index)
                self.check_match(where + ("match",), entry.match, known)
                for k, name in enumerate(entry.use):
                    if name not in self.layout.parts:
                        self.report(where + ("use", k), f"no part named '{name}' in the layout"
                                    f"{suggest(name, self.layout.parts)}")
                if not entry.use and not entry.elements:
                    self.report(where, "a layout entry draws nothing (no 'use' and no 'elements')")
                for j, element in enumerate(entry.elements):
                    self.check_element_static(where + ("elements", j), element, known)
        for name, elements in self.layout.parts.items():
            for j, element in enumerate(elements):
                self.check_element_static(("parts", name, j), element, known)
        for name, symbol in self.layout.symbols.items():
            self.check_symbol_static(name, symbol)
        for where, message in layout_problems(self.layout, params=False):
            self.report(where, message)

    def check_match(self, where: tuple, match: dict | None, known: dict[str, set]) -> None:
        for key, wanted in (match or {}).items():
            if key not in known:
                continue
            for k, value in enumerate(wanted if isinstance(wanted, list) else [wanted]):
                if value is not None and str(value) not in known[key]:
                    at = where + (key, k) if isinstance(wanted, list) else where + (key,)
                    self.report(at, f"{key} '{value}' is not in game '{self.game.id}'"
                                f"{suggest(str(value), known[key])}")

    def check_element_static(self, at: tuple, el: Element, known: dict[str, set]) -> None:
        self.check_match(at + ("when",), el.when, known)
        if el.type == "text":
            if el.text is None:
                self.report(at, "a text element needs 'text'")
            problem = self.font_problem(el.font)
            if problem is not None:
                self.report(at + ("font",), problem)
        if el.type == "draw" and not el.draw:
            self.report(at, "a draw element needs 'draw' (an SVG file, a symbol or a built-in drawing)")
        if el.type == "image" and not el.src:
            self.report(at, "an image element needs 'src' (a PNG, JPEG, TIFF or WebP file, or '{card.art}')")
        if el.type == "line":
            points = el.points or []
            numbers = [v for v in points if _is_number(v)]
            if len(points) < 4 or len(points) % 2 or len(numbers) != len(points):
                self.report(at + ("points",), "a line needs 'points': x1, y1, x2, y2, ... as numbers of mm")

    def font_problem(self, name: str) -> str | None:
        """Why a layout's font name names no face (a built-in style, or a face the game declares)."""
        if name in STYLES or name in STYLES.values():
            return None
        fonts = GameFonts.of(self.game)
        found = fonts.split(name)
        if found is None:
            names = fonts.names()
            return f"unknown font '{name}'{suggest(name, names)} (fonts: {', '.join(names)})"
        family, face = found
        spec = fonts.spec(family)
        if getattr(spec, face) is None:
            have = [f"{family}{suffix}" for suffix, f in reversed(SUFFIXES) if getattr(spec, f) is not None]
            return (f"font family '{family}' has no {face.replace('_', ' ')} face "
                    f"(it has: {', '.join(have)})")
        return None

    def check_symbol_static(self, name: str, symbol) -> None:
        base = ("symbols", name) if isinstance(self._symbol_data(name), list) else ("symbols", name, "shapes")
        for where, shape in _shapes_with_paths(symbol.shapes, base):
            kinds = [k for k in _SHAPE_KINDS if k in shape]
            if not kinds:
                self.report(where, f"symbol '{name}': a shape needs one of {', '.join(_SHAPE_KINDS)}")
            for key, count in _SHAPE_ARITY.items():
                if key in shape and len(shape[key]) != count:
                    self.report(where + (key,), f"symbol '{name}': '{key}' takes {count} numbers, "
                                f"found {len(shape[key])}")
            for key in ("poly", "line"):
                if key in shape and (len(shape[key]) < 4 or len(shape[key]) % 2):
                    self.report(where + (key,), f"symbol '{name}': '{key}' takes pairs of numbers, at least two")
            if "path" in shape and not re.match(r"\s*[Mm]", str(shape["path"])):
                self.report(where + ("path",), f"symbol '{name}': path data must start with M")
            for key in ("fill", "stroke"):
                value = shape.get(key)
                if isinstance(value, str) and not value.startswith("$"):
                    try:
                        hex_color(value, self.layout.colors)
                    except RenderError as exc:
                        self.report(where + (key,), f"symbol '{name}': {exc.message}")
            font = shape.get("font")
            problem = self.font_problem(str(font)) if "text" in shape and font is not None else None
            if problem is not None:
                self.report(where + ("font",), f"symbol '{name}': {problem}")
            use = shape.get("use")
            if use is not None and "{" not in use and use not in self.layout.symbols:
                self.report(where + ("use",), f"symbol '{name}' uses symbol '{use}', which the layout does not "
                            f"have{suggest(use, self.layout.symbols)}")

    def _symbol_data(self, name: str) -> Any:
        where = ("symbols", name)
        doc = self.layout.documents.get(self.layout.origins.get(where, self.layout.path))
        return (doc.data.get("symbols") or {}).get(name) if doc is not None else None


def _is_number(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


def _shapes(shapes) -> Iterator[dict]:
    for shape in shapes:
        yield shape
        if "group" in shape:
            yield from _shapes(shape["group"])


def _shapes_with_paths(shapes, where: tuple) -> Iterator[tuple[tuple, dict]]:
    for index, shape in enumerate(shapes):
        yield where + (index,), shape
        if "group" in shape:
            yield from _shapes_with_paths(shape["group"], where + (index, "group"))
