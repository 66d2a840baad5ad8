"""One card face or back: resolve its layout into a plan, draw the plan as a PDF form.

A :class:`CardPlan` is the fully resolved drawing of one face or back in one
language (texts fitted, colours and parameters filled in).  Equal plans draw
equal pictures, so each distinct plan becomes one Form XObject per PDF and is
placed wherever the card appears (copies, sheets, shop pages).
"""

from __future__ import annotations

import hashlib
import re
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from cardgen.content.yamlsource import format_path
from cardgen.errors import Locator, MissingGlyphError, RenderError, TextOverflowError
from cardgen.cards import fonts
from cardgen.cards.layout import (Element, Entry, Layout, Resolver, back_context, box_mm, card_context,
                                   hex_color, layout_path, load_layout, matches, outside_safe_zone,
                                   suggest, unknown_drawing_message)
from cardgen.cards.ranges import drawing_param_problem
from cardgen.content.images import image_digest, is_raster_name
from cardgen.cards.raster import raster_path
from cardgen.cards.shapes import ShapePainter
from cardgen.cards.text import PT_PER_MM, fit_text

ART_BLEED_MM = 4.0  # art is drawn this far past the trim; shops get 3 mm (or the profile's bleed)



_FIELD_REF = re.compile(r"\{field\.([^}|]+)")


def element_field(template: str | None) -> str | None:
    """The card text field a text element prints: the first ``{field.X}`` of its template, if any."""
    found = _FIELD_REF.search(template or "")
    return found.group(1) if found else None


@dataclass(frozen=True)
class CardPlan:
    """Everything needed to draw one face or back; hashable, equal plans look equal."""

    width: float  # trim, points
    height: float
    ops: tuple
    label: str  # card id or "back:<id>", for messages

    @property
    def side(self) -> str:
        """"back" for a card back, "face" for a face."""
        return "back" if self.label.startswith("back:") else "face"

    @property
    def key(self) -> str:
        digest = hashlib.sha1(repr((self.width, self.height, self.ops)).encode("utf-8")).hexdigest()
        return "F" + digest[:16]


class CardRenderer:
    """Plans and draws the cards of one game in one language."""

    def __init__(self, game, lang: str, templates_dir: Path | None = None, bleed_mm: float | None = None, *,
                 strict: bool | None = None):
        """``bleed_mm``: the bleed of what is being made, when a printer's is larger than the art bleed
        every card is drawn with (:data:`ART_BLEED_MM`); ``full`` boxes and fills then reach it."""
        fonts.register_fonts()
        self.bleed_mm = max(ART_BLEED_MM, float(bleed_mm or 0.0))
        self.game = game
        self.lang = lang
        self.fonts = fonts.GameFonts.of(game)
        #: a character no face of a text's font has: an error when strict, else a warning kept here
        #: (and in the active fonts.glyph_log); None: as the active log says
        self.strict = strict
        self.glyph_warnings: list[MissingGlyphError] = []
        self._where: tuple = ()
        self.templates_dir = templates_dir
        self.layout: Layout = load_layout(layout_path(game.root, game.id, templates_dir), templates_dir)
        size = game.meta.card_size
        self.width_mm, self.height_mm = size.width_mm, size.height_mm
        self.width, self.height = size.width_mm * PT_PER_MM, size.height_mm * PT_PER_MM
        self._face_cache: dict[str, CardPlan] = {}
        self._back_cache: dict[str, CardPlan] = {}
        #: plan label -> (where in the layout, element) of each op, for checks that name an element
        self.op_sources: dict[str, tuple[tuple[tuple, Element], ...]] = {}
        self._sources: list[tuple[tuple, Element]] = []

    # --- planning --------------------------------------------------------------------------------
    def face(self, card) -> CardPlan:
        """The plan of a card's face (``card`` is a content Card)."""
        if card.id in self._face_cache:
            return self._face_cache[card.id]
        values, fields, facts = card_context(self.game, card, self.lang)
        locator = Locator(card=card.id, language=self.lang)
        index, entry = self._entry("faces", facts, f"card '{card.id}' (group {card.group}, kind {card.kind})")
        resolver = Resolver(self.layout, values, fields, self.lang, locator)
        ops = self._plan(("faces", index), entry, facts, resolver)
        missing = sorted(set(fields) - resolver.used_fields - set(entry.omit))
        if missing:
            raise RenderError(
                f"the layout prints no text for field(s) {', '.join(missing)}; print them or list them under 'omit'",
                self.layout.locate(("faces", index)).with_(card=card.id, language=self.lang, field=missing[0]),
            )
        plan = CardPlan(self.width, self.height, ops, card.id)
        self.op_sources[plan.label] = tuple(self._sources)
        self._face_cache[card.id] = plan
        return plan

    def back(self, back_id: str) -> CardPlan:
        if back_id in self._back_cache:
            return self._back_cache[back_id]
        values, facts = back_context(self.game, back_id, self.lang)
        index, entry = self._entry("backs", facts, f"back '{back_id}'")
        resolver = Resolver(self.layout, values, {}, self.lang, Locator(card=f"back {back_id}", language=self.lang))
        plan = CardPlan(self.width, self.height, self._plan(("backs", index), entry, facts, resolver),
                        f"back:{back_id}")
        self.op_sources[plan.label] = tuple(self._sources)
        self._back_cache[back_id] = plan
        return plan

    def _entry(self, side: str, facts: dict, what: str) -> tuple[int, Entry]:
        for index, entry in enumerate(getattr(self.layout, side)):
            if matches(entry.match, facts):
                return index, entry
        raise RenderError(f"no entry of '{side}' matches {what}", self.layout.locate((side,), key=True))

    def color(self, text: str, resolver: Resolver | None = None) -> str | None:
        if resolver is not None:
            text = resolver.text(text)
        return hex_color(text, self.layout.colors, Locator(file=self.layout.path))

    def _box(self, spec, resolver: Resolver, safe_check: bool = False, what: str = "") -> tuple[float, float, float, float]:
        """A box spec -> (x, y, w, h) in points, bottom-left origin at the trim corner."""
        W, H = self.width_mm, self.height_mm
        x, y, w, h = box_mm(spec, W, H, self.layout.safe_mm, self.bleed_mm, resolver.text)
        if safe_check and outside_safe_zone((x, y, w, h), W, H, self.layout.safe_mm):
            raise RenderError(
                f"{what} box [{x:g}, {y:g}, {w:g}, {h:g}] mm leaves the {self.layout.safe_mm:g} mm safe zone "
                f"of a {W:g} x {H:g} mm card", resolver.locator.with_(file=self.layout.path))
        # to points, y from the bottom
        return (round(x * PT_PER_MM, 3), round((H - y - h) * PT_PER_MM, 3),
                round(w * PT_PER_MM, 3), round(h * PT_PER_MM, 3))

    def _plan(self, where: tuple, entry: Entry, facts: dict, resolver: Resolver) -> tuple:
        ops: list[tuple] = []
        self._sources = []
        elements: list[tuple[tuple, Element]] = []  # with where each element is written, for errors
        for k, name in enumerate(entry.use):
            if name not in self.layout.parts:
                raise RenderError(f"no part named '{name}' in the layout{suggest(name, self.layout.parts)}",
                                  self.layout.locate(where + ("use", k)))
            elements.extend((("parts", name, j), el) for j, el in enumerate(self.layout.parts[name]))
        elements.extend((where + ("elements", j), el) for j, el in enumerate(entry.elements))
        if not elements:
            raise RenderError("a layout entry draws nothing (no 'use' and no 'elements')", self.layout.locate(where))
        for index, (at, el) in enumerate(elements):
            if el.when is not None and not matches(el.when, facts):
                continue
            self._where = at
            try:
                ops.append(self._op(el, index, resolver))
                self._sources.append((at, el))
            except RenderError as error:
                raise self._located(error, at, resolver.locator) from None
        return tuple(ops)

    def _located(self, error: RenderError, where: tuple, card: Locator) -> RenderError:
        """``error`` pointing at the line of the layout element that raised it (type and card kept)."""
        old = error.locator
        error.locator = self.layout.locate(where).with_(
            field=old.field or format_path(where), card=old.card or card.card, language=old.language or card.language)
        return error

    def _op(self, el: Element, index: int, resolver: Resolver) -> tuple:
        mm = PT_PER_MM
        if el.type == "fill":
            return ("fill", self.color(el.fill or "#ffffff", resolver), self.bleed_mm * mm)
        if el.type == "rect":
            return ("rect", self._box(el.box, resolver),
                    self.color(el.fill, resolver) if el.fill else None,
                    self.color(el.stroke, resolver) if el.stroke else None,
                    round(el.width * mm, 3), round(el.radius * mm, 3), tuple(el.dash or ()))
        if el.type == "line":
            pts = el.points or []
            H = self.height_mm
            coords = tuple(round((float(v) if i % 2 == 0 else H - float(v)) * mm, 3) for i, v in enumerate(pts))
            return ("line", coords, self.color(el.stroke or "#000000", resolver), round(el.width * mm, 3),
                    tuple(el.dash or ()))
        if el.type == "text":
            if el.text is None:
                raise RenderError(f"text element {index} has no 'text'", Locator(file=self.layout.path))
            content = resolver.text(el.text)
            box = self._box(el.box, resolver, safe_check=True, what=f"text element {index} ({el.text})")
            font = self.fonts.chain(el.font)
            w, h = box[2], box[3]
            if el.rotate in (90, 270):
                w, h = h, w
            field = element_field(el.text) or el.text
            try:
                fitted = fit_text(content, font, w, h, size=el.size, min_size=el.min_size or el.size,
                                  leading=el.leading, max_lines=el.max_lines,
                                  locator=resolver.locator.with_(field=field))
            except TextOverflowError as error:
                if field in resolver.fields:  # a card's text: say where it is written, to shorten it there
                    error.message += f"; the text is {self._written_at(resolver.locator.card, field)}"
                raise
            self._check_glyphs(content, font, resolver.locator.with_(field=field), self._where,
                               field if field in resolver.fields else None)
            return ("text", box, fitted.lines, font, fitted.size, fitted.leading, self.color(el.color, resolver),
                    el.align, el.valign, el.rotate)
        if el.type == "image":
            if not el.src:
                raise RenderError(f"image element {index} names no file ('src')", Locator(file=self.layout.path))
            box = self._box("full" if el.bleed else el.box, resolver)
            return self._image_op(resolver.text(el.src), box, el.fit or "cover", el.align, el.focus, el.crop,
                                  el.rotate)
        if el.type == "draw":
            if not el.draw:
                raise RenderError(f"draw element {index} names no drawing", Locator(file=self.layout.path))
            name = resolver.text(el.draw)
            if is_raster_name(name):  # art named where SVG art may be: placed as an image, contained
                return self._image_op(name, self._box(el.box, resolver), el.fit or "contain", "center", None, None,
                                      0, turn=el.rotate)
            self._check_drawing(name)
            params = tuple(sorted((k, resolver.value(v)) for k, v in el.params.items()))
            for key, value in params:  # a value filled in for this card: refused here, where the line is known
                problem = drawing_param_problem(name, key, value)
                if problem is not None:
                    raise RenderError(problem)
            op = ("draw", name, self._box(el.box, resolver), params, el.fit or "contain", el.rotate)
            # image files a drawing draws (a symbol parameter): their contents are part of the plan
            digests = tuple(image_digest(raster_path(self.game.root, str(v))) for _, v in params if is_raster_name(v))
            return op + (digests,) if digests else op
        raise RenderError(f"unknown element type {el.type}")

    def _check_glyphs(self, text: str, chain: str, locator: Locator, where: tuple = (),
                      card_field: str | None = None) -> None:
        """Warn (or, strict, fail) on characters of ``text`` that no face of ``chain`` has; ``where``
        is the layout element drawing it, ``card_field`` the card's text field it prints."""
        problem = fonts.glyph_problem(text, chain, locator)
        if problem is None:
            return
        if card_field:
            problem.message += f"; the text is {self._written_at(locator.card, card_field)}"
        if where:
            problem = self._located(problem, where, locator)
        problem.args = (problem.message,)
        if str(problem) not in {str(w) for w in self.glyph_warnings}:
            self.glyph_warnings.append(problem)
        fonts.report_glyphs(problem, self.strict)

    def _image_op(self, name: str, box: tuple, fit: str, align: str, focus, crop, rotate: int, turn: int = 0) -> tuple:
        """The op of an image: its file's digest is in it, so a changed file is a changed card."""
        from cardgen.content.images import RasterError, read_raster
        from cardgen.cards.raster import ALIGNMENTS, check_crop

        if not is_raster_name(name):
            raise RenderError(f"'{name[:80]}' is not an image file (PNG, JPEG, TIFF or WebP: .png, .jpg, .jpeg, "
                              ".tif, .tiff, .webp)")
        path = raster_path(self.game.root, name)
        try:  # decoded here, where the element's line is known: a damaged file is refused at it
            found = read_raster(path)
        except RasterError as exc:
            raise exc.named(name) from None
        problem = check_crop(crop, found.width, found.height)
        if problem is not None:
            raise RenderError(f"image '{name}': {problem}")
        if align not in ALIGNMENTS:
            raise RenderError(f"an image is aligned {', '.join(ALIGNMENTS)}; found '{align}'")
        return ("image", name, found.digest, box, fit, ALIGNMENTS[align],
                tuple(float(v) for v in focus) if focus else None, tuple(crop) if crop else None, rotate, turn)

    def _written_at(self, card_id: str, field: str) -> str:
        key = self.game.card(card_id).text[field]
        origin = self.game.text_origin(key, self.lang)
        where = f" at {origin.file}:{origin.line}" if origin.file and origin.line else ""
        return f"'{key}' ({origin.language}){where}"

    def _check_drawing(self, name: str) -> None:
        """Refuse an unknown drawing while planning, where the element's line is known."""
        from cardgen.cards.drawings import DRAWINGS

        if not name.lower().endswith(".svg") and not is_raster_name(name) and name not in self.layout.symbols \
                and name not in DRAWINGS:
            raise RenderError(unknown_drawing_message(name, self.layout, DRAWINGS))

    # --- drawing ---------------------------------------------------------------------------------
    def form(self, canvas, plan: CardPlan) -> str:
        """Define ``plan`` as a form on ``canvas`` (once) and return its name."""
        defined = canvas.__dict__.setdefault("_cardgen_forms", set())
        name = plan.key
        if name not in defined:
            b = self.bleed_mm * PT_PER_MM
            canvas.beginForm(name, -b, -b, plan.width + b, plan.height + b)
            surface = getattr(canvas, "ink_surface", None)  # ink-saving canvases fade backs as a whole
            with surface(plan.side) if surface else nullcontext():
                self.draw(canvas, plan)
            canvas.endForm()
            defined.add(name)
        return name

    def place(self, canvas, plan: CardPlan, x: float, y: float, clip: tuple[float, float, float, float] | None = None,
              rotate: int = 0) -> None:
        """Draw ``plan`` with its trim's bottom-left corner at (x, y) points.

        ``clip`` is (left, bottom, right, top) extra margins around the trim
        that may show (0 = cut at the trim); None shows the whole art bleed.
        """
        name = self.form(canvas, plan)
        canvas.saveState()
        canvas.translate(x, y)
        if rotate == 90:  # the card's bottom edge runs up the page
            canvas.translate(plan.height, 0)
            canvas.rotate(90)
        elif rotate:
            raise RenderError(f"cards can be placed at 0 or 90 degrees, not {rotate}")
        if clip is not None:
            left, bottom, right, top = clip
            p = canvas.beginPath()
            p.rect(-left, -bottom, plan.width + left + right, plan.height + bottom + top)
            canvas.clipPath(p, stroke=0, fill=0)
        canvas.doForm(name)
        canvas.restoreState()

    def draw(self, canvas, plan: CardPlan) -> None:
        from reportlab.lib.colors import HexColor

        from cardgen.cards import drawings

        locator = Locator(file=self.layout.path, card=plan.label, language=self.lang)
        painter = ShapePainter(canvas, lambda t: HexColor(hex_color(t, self.layout.colors, Locator(file=self.layout.path))),
                               self.layout.symbol, self.fonts.chain,
                               lambda text, chain, where: self._check_glyphs(text, chain, locator.with_(field=where)))
        ctx = drawings.DrawContext(canvas, painter, self, plan)
        for op in plan.ops:
            kind = op[0]
            canvas.saveState()
            if kind == "fill":
                _, color, b = op
                canvas.setFillColor(HexColor(color))
                canvas.rect(-b, -b, plan.width + 2 * b, plan.height + 2 * b, stroke=0, fill=1)
            elif kind == "rect":
                _, (x, y, w, h), fill, stroke, width, radius, dash = op
                if fill:
                    canvas.setFillColor(HexColor(fill))
                if stroke:
                    canvas.setStrokeColor(HexColor(stroke))
                    canvas.setLineWidth(width)
                    if dash:
                        canvas.setDash(list(dash))
                if radius:
                    canvas.roundRect(x, y, w, h, radius, stroke=int(bool(stroke)), fill=int(bool(fill)))
                else:
                    canvas.rect(x, y, w, h, stroke=int(bool(stroke)), fill=int(bool(fill)))
            elif kind == "line":
                _, coords, stroke, width, dash = op
                canvas.setStrokeColor(HexColor(stroke))
                canvas.setLineWidth(width)
                canvas.setLineCap(1)
                if dash:
                    canvas.setDash(list(dash))
                p = canvas.beginPath()
                p.moveTo(coords[0], coords[1])
                for i in range(2, len(coords) - 1, 2):
                    p.lineTo(coords[i], coords[i + 1])
                canvas.drawPath(p, stroke=1, fill=0)
            elif kind == "text":
                self._draw_text(canvas, op)
            elif kind == "image":
                self._draw_image(canvas, op, plan.label)
            elif kind == "draw":
                _, name, (x, y, w, h), params, fit, rotate = op[:6]
                if rotate:
                    canvas.translate(x + w / 2, y + h / 2)
                    canvas.rotate(rotate)
                    if rotate in (90, 270):
                        w, h = h, w
                    x, y = -w / 2, -h / 2
                ctx.draw(name, x, y, w, h, dict(params), fit)
            canvas.restoreState()

    def _draw_image(self, canvas, op, label: str) -> None:
        from cardgen.cards.raster import draw_raster

        _, name, _, (x, y, w, h), fit, anchor, focus, crop, rotate, turn = op
        if turn:  # a draw element's rotate turns its box, as for drawings
            canvas.translate(x + w / 2, y + h / 2)
            canvas.rotate(turn)
            if turn in (90, 270):
                w, h = h, w
            x, y = -w / 2, -h / 2
        try:
            draw_raster(canvas, raster_path(self.game.root, name), x, y, w, h, fit, anchor, focus, crop, rotate)
        except RenderError as exc:
            exc.locator = exc.locator.with_(card=exc.locator.card or label)
            raise

    def _draw_text(self, canvas, op) -> None:
        from reportlab.lib.colors import HexColor

        _, (x, y, w, h), lines, font, size, leading, color, align, valign, rotate = op
        ascent, descent, cap = fonts.metrics(font)  # a chain of faces: the first face's
        canvas.translate(x + w / 2, y + h / 2)
        if rotate:
            canvas.rotate(rotate)
            if rotate in (90, 270):
                w, h = h, w
        canvas.setFillColor(HexColor(color))
        canvas.setFont(fonts.faces(font)[0], size)
        n = len(lines)
        # block from the first line's cap top to the last line's baseline
        block = cap * size + (n - 1) * leading
        if valign == "top":
            top = h / 2 - (ascent - cap) * size * 0.5
            first = top - cap * size
        elif valign == "bottom":
            first = -h / 2 - descent * size * 0.5 + (n - 1) * leading
        else:
            first = block / 2 - cap * size
        for i, line in enumerate(lines):
            baseline = first - i * leading
            lw = fonts.text_width(line, font, size)
            if align == "left":
                lx = -w / 2
            elif align == "right":
                lx = w / 2 - lw
            else:
                lx = -lw / 2
            fonts.draw_runs(canvas, lx, baseline, line, font, size)
