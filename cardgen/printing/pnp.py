"""Print-and-play sheets: cards edge to edge on A4 or Letter for a home printer.

Page 1 says how to print, with a 50 mm scale bar and the front half of a
duplex alignment test; page 2 (duplex layouts) carries the test's back half.
Then each sheet is a page of fronts followed by a page of backs placed so
that, printed double-sided, every back lands behind its front: long-edge
flip mirrors the columns, short-edge flip mirrors the rows.  Backs get a
bleed on the grid's outer edges to hide small duplex drift, and can be
shifted by a measured offset.  The fold-and-glue layout puts fronts and
backs side by side, mirrored across a fold line, on single-sided pages.
Cut marks sit only in the margins, never on the cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.errors import Locator, RenderError
from cardgen.cards import fonts
from cardgen.cards.card import CardRenderer
from cardgen.cards.layout import TEMPLATES_DIR
from cardgen.cards.pdf import finish, new_canvas
from cardgen.cards.text import PT_PER_MM, wrap
from cardgen.color.ink import DEFAULT_INK, check_ink
from cardgen.i18n.names import own_name

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
MIN_MARGIN_MM = 6.0  # home printers leave about 5 mm unprinted; marks need a little more
BACK_BLEED_MM = 3.0
MARK_GAP_MM = 1.0


@dataclass(frozen=True)
class PnpOptions:
    paper: str = "a4"
    duplex: str = "long"  # long | short
    fold: bool = False
    back_offset_mm: tuple[float, float] = (0.0, 0.0)  # as read on the test strip (x right, y up)
    ink: str = "full"  # full | ink-saver | greyscale (cardgen.color.ink)


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    rotate: int  # 0, or 90 when cards lie on their side
    cell_w: float  # mm, as placed
    cell_h: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def best_grid(card_w: float, card_h: float, paper_w: float, paper_h: float) -> Grid:
    """Most cards of the given size edge to edge inside the printable margins."""
    usable_w, usable_h = paper_w - 2 * MIN_MARGIN_MM, paper_h - 2 * MIN_MARGIN_MM
    best = None
    for rotate, (w, h) in ((0, (card_w, card_h)), (90, (card_h, card_w))):
        cols, rows = int(usable_w // w), int(usable_h // h)
        if cols * rows and (best is None or cols * rows > best.per_page):
            best = Grid(cols, rows, rotate, w, h)
    if best is None:
        raise RenderError(f"a {card_w:g} x {card_h:g} mm card does not fit on {paper_w:g} x {paper_h:g} mm paper")
    return best


def fold_grid(card_w: float, card_h: float, paper_w: float, paper_h: float) -> tuple[Grid, str]:
    """Grid of front/back pairs for fold-and-glue: (grid of one half, fold direction)."""
    usable_w, usable_h = paper_w - 2 * MIN_MARGIN_MM, paper_h - 2 * MIN_MARGIN_MM
    best = None
    for rotate, (w, h) in ((0, (card_w, card_h)), (90, (card_h, card_w))):
        # vertical fold line: fronts on the left half, backs on the right
        cols, rows = int(usable_w / 2 // w), int(usable_h // h)
        if cols * rows and (best is None or cols * rows > best[0].per_page):
            best = (Grid(cols, rows, rotate, w, h), "vertical")
        cols, rows = int(usable_w // w), int(usable_h / 2 // h)
        if cols * rows and (best is None or cols * rows > best[0].per_page):
            best = (Grid(cols, rows, rotate, w, h), "horizontal")
    if best is None:
        raise RenderError(f"a {card_w:g} x {card_h:g} mm card is too big for fold-and-glue on this paper")
    return best


def pnp_words(game, lang: str):
    """``word(key, **values)``: the words of the instruction page, the ``pnp.*`` messages of
    the shared strings (:mod:`cardgen.content.shared`) in ``lang``, falling back to the
    source text like every other message."""
    from cardgen.i18n import Texts

    texts = Texts(game, lang)

    def word(key: str, **values) -> str:
        return texts.plain(f"pnp.{key}", **values)

    return word


def render_pnp(game, lang: str, options: PnpOptions, templates_dir: Path | None = None) -> tuple[bytes, int, int]:
    """The print-and-play PDF of ``game`` in ``lang``: (bytes, pages, card faces)."""
    templates_dir = templates_dir or TEMPLATES_DIR
    if options.paper not in PAPERS:
        raise RenderError(f"unknown paper '{options.paper}'; expected one of: {', '.join(PAPERS)}")
    check_ink(options.ink)
    renderer = CardRenderer(game, lang, templates_dir)
    pw, ph = PAPERS[options.paper]
    page = (pw * PT_PER_MM, ph * PT_PER_MM)
    title = game.text(game.meta.title, lang)
    ink = "" if options.ink == DEFAULT_INK else f", {options.ink}"
    # the PDF's title in the language, naming it (not its code): "Klepka — Drukuj i graj (A4, Polski)"
    heading = pnp_words(game, lang)("heading")
    c = new_canvas(page, f"{title} — {heading} ({PAPER_NAMES[options.paper]}, {own_name(lang)}{ink})",
                   "print-and-play", ink=options.ink)
    cards = game.physical_cards()
    faces = [renderer.face(pc.card) for pc in cards]
    backs = [renderer.back(pc.card.back) for pc in cards]
    size = game.meta.card_size
    if options.fold:
        grid, direction = fold_grid(size.width_mm, size.height_mm, pw, ph)
    else:
        grid, direction = best_grid(size.width_mm, size.height_mm, pw, ph), ""
    sheets = math.ceil(len(cards) / grid.per_page)
    word = pnp_words(game, lang)
    top = _instructions(c, game, lang, options, word, len(cards), sheets, grid.per_page, pw, ph)
    _sample(c, renderer, faces[0], backs[0], word("front"), word("back"), top - 14)
    pages = 1
    if not options.fold:
        c.showPage()
        _instructions_back(c, options, word, pw, ph)
        pages += 1
    for sheet in range(sheets):
        chunk = range(sheet * grid.per_page, min(len(cards), (sheet + 1) * grid.per_page))
        c.showPage()
        pages += 1
        if options.fold:
            _fold_page(c, renderer, grid, direction, [faces[i] for i in chunk], [backs[i] for i in chunk], pw, ph)
            continue
        _fronts_page(c, renderer, grid, [faces[i] for i in chunk], pw, ph)
        c.showPage()
        pages += 1
        _backs_page(c, renderer, grid, [backs[i] for i in chunk], pw, ph, options)
    c.showPage()
    return finish(c), pages, len(cards)


def _origin(grid: Grid, pw: float, ph: float) -> tuple[float, float]:
    return (pw - grid.cols * grid.cell_w) / 2, (ph - grid.rows * grid.cell_h) / 2


def _cell(grid: Grid, index: int, pw: float, ph: float) -> tuple[int, int, float, float]:
    """(col, row, x, y) in mm of card ``index``; row 0 at the top, y from the page bottom."""
    x0, y0 = _origin(grid, pw, ph)
    col, row = index % grid.cols, index // grid.cols
    return col, row, x0 + col * grid.cell_w, y0 + (grid.rows - 1 - row) * grid.cell_h


def _fronts_page(c, renderer: CardRenderer, grid: Grid, plans, pw, ph) -> None:
    mm = PT_PER_MM
    for i, plan in enumerate(plans):
        _, _, x, y = _cell(grid, i, pw, ph)
        renderer.place(c, plan, x * mm, y * mm, clip=(0, 0, 0, 0), rotate=grid.rotate)
    _cut_marks(c, grid, pw, ph)


def _backs_page(c, renderer: CardRenderer, grid: Grid, plans, pw, ph, options: PnpOptions) -> None:
    mm = PT_PER_MM
    dx, dy = options.back_offset_mm
    # move the backs against the measured offset, in the coordinates of the back page
    shift_x, shift_y = (dx, -dy) if options.duplex == "long" else (-dx, dy)
    b = BACK_BLEED_MM * mm
    for i, plan in enumerate(plans):
        x, y, left, bottom, right, top = back_cell(grid, i, pw, ph, options.duplex, b)
        renderer.place(c, plan, (x + shift_x) * mm, (y + shift_y) * mm, clip=(left, bottom, right, top),
                       rotate=grid.rotate)


def back_cell(grid: Grid, index: int, pw: float, ph: float, duplex: str, bleed: float = 0.0):
    """Where the back of card ``index`` goes on the backs page: (x, y) in mm and the bleed
    (left, bottom, right, top, in the card's own axes) shown on the grid's outer edges."""
    col, row, x, y = _cell(grid, index, pw, ph)
    if duplex == "long":
        x = pw - x - grid.cell_w
        col = grid.cols - 1 - col
    elif duplex == "short":
        y = ph - y - grid.cell_h
        row = grid.rows - 1 - row
    else:
        raise RenderError(f"duplex must be 'long' or 'short', not '{duplex}'")
    left = bleed if col == 0 else 0
    right = bleed if col == grid.cols - 1 else 0
    top = bleed if row == 0 else 0
    bottom = bleed if row == grid.rows - 1 else 0
    if grid.rotate == 90:
        left, bottom, right, top = bottom, right, top, left
    return x, y, left, bottom, right, top


def cut_mark_lines(grid: Grid, pw: float, ph: float, x0: float | None = None, y0: float | None = None,
                   cols: int | None = None, rows: int | None = None, fold_col: int | None = None,
                   fold_row: int | None = None) -> list[tuple[float, float, float, float]]:
    """Cut marks as (x1, y1, x2, y2) in mm: each continues a cutting line into the margin only."""
    gx, gy = _origin(grid, pw, ph) if x0 is None else (x0, y0)
    cols = grid.cols if cols is None else cols
    rows = grid.rows if rows is None else rows
    gw, gh = cols * grid.cell_w, rows * grid.cell_h
    lines = []
    for i in range(cols + 1):
        if i == fold_col:
            continue  # the fold line gets its own dashed mark
        x = gx + i * grid.cell_w
        lines.append((x, gy + gh + MARK_GAP_MM, x, ph - 1.0))
        lines.append((x, gy - MARK_GAP_MM, x, 1.0))
    for j in range(rows + 1):
        if j == fold_row:
            continue
        y = gy + j * grid.cell_h
        lines.append((1.0, y, gx - MARK_GAP_MM, y))
        lines.append((gx + gw + MARK_GAP_MM, y, pw - 1.0, y))
    return lines


def _cut_marks(c, grid: Grid, pw, ph, x0=None, y0=None, cols=None, rows=None, fold_col=None, fold_row=None) -> None:
    mm = PT_PER_MM
    c.saveState()
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(0.3)
    for x1, y1, x2, y2 in cut_mark_lines(grid, pw, ph, x0, y0, cols, rows, fold_col, fold_row):
        c.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
    c.restoreState()


def _place_back_folded(c, renderer: CardRenderer, grid: Grid, plan, x: float, y: float, turn: bool) -> None:
    """A back beside its front; turned 180 degrees when the fold runs along the card's short edge,
    so that it reads upright when the card is turned over like a book page."""
    mm = PT_PER_MM
    if not turn:
        renderer.place(c, plan, x * mm, y * mm, clip=(0, 0, 0, 0), rotate=grid.rotate)
        return
    c.saveState()
    c.translate((x + grid.cell_w) * mm, (y + grid.cell_h) * mm)
    c.rotate(180)
    renderer.place(c, plan, 0, 0, clip=(0, 0, 0, 0), rotate=grid.rotate)
    c.restoreState()


def _fold_page(c, renderer: CardRenderer, grid: Grid, direction: str, faces, backs, pw, ph) -> None:
    mm = PT_PER_MM
    turn = (direction == "vertical") == (grid.rotate == 90)
    if direction == "vertical":
        half_w = grid.cols * grid.cell_w
        gx = pw / 2 - half_w
        gy = (ph - grid.rows * grid.cell_h) / 2
        for i, (face, back) in enumerate(zip(faces, backs)):
            col, row = i % grid.cols, i // grid.cols
            y = gy + (grid.rows - 1 - row) * grid.cell_h
            fx = pw / 2 - (col + 1) * grid.cell_w
            bx = pw / 2 + col * grid.cell_w
            renderer.place(c, face, fx * mm, y * mm, clip=(0, 0, 0, 0), rotate=grid.rotate)
            _place_back_folded(c, renderer, grid, back, bx, y, turn)
        _cut_marks(c, grid, pw, ph, gx, gy, grid.cols * 2, grid.rows, fold_col=grid.cols)
        fold = ("v", pw / 2)
    else:
        half_h = grid.rows * grid.cell_h
        gx = (pw - grid.cols * grid.cell_w) / 2
        gy = ph / 2 - half_h
        for i, (face, back) in enumerate(zip(faces, backs)):
            col, row = i % grid.cols, i // grid.cols
            x = gx + col * grid.cell_w
            fy = ph / 2 + row * grid.cell_h
            by = ph / 2 - (row + 1) * grid.cell_h
            renderer.place(c, face, x * mm, fy * mm, clip=(0, 0, 0, 0), rotate=grid.rotate)
            _place_back_folded(c, renderer, grid, back, x, by, turn)
        _cut_marks(c, grid, pw, ph, gx, gy, grid.cols, grid.rows * 2, fold_row=grid.rows)
        fold = ("h", ph / 2)
    c.saveState()
    c.setStrokeColor(HexColor("#607d8b"))
    c.setLineWidth(0.6)
    c.setDash([4, 3])
    if fold[0] == "v":
        c.line(fold[1] * mm, 1 * mm, fold[1] * mm, 5 * mm)
        c.line(fold[1] * mm, (ph - 5) * mm, fold[1] * mm, (ph - 1) * mm)
    else:
        c.line(1 * mm, fold[1] * mm, 5 * mm, fold[1] * mm)
        c.line((pw - 5) * mm, fold[1] * mm, (pw - 1) * mm, fold[1] * mm)
    c.restoreState()


# --- the instruction sheet ---------------------------------------------------------------------------

STRIP_X = 0.5  # test strip centre as a fraction of the page: x
STRIP_Y = 0.22  # and y (from the bottom)


def _paragraph(c, text: str, x: float, y: float, width: float, font: str, size: float, leading: float = 1.3) -> float:
    """Draw wrapped text with its first baseline at y (points); return the y below it."""
    lines, _ = wrap(text, font, size, width)
    c.setFont(font, size)
    for line in lines:
        c.drawString(x, y, line)
        y -= size * leading
    return y


def _instructions(c, game, lang, options, word, cards, sheets, per_page, pw, ph) -> float:
    mm = PT_PER_MM
    bold, regular = fonts.font_name("bold"), fonts.font_name("regular")
    left = 20 * mm
    width = (pw - 40) * mm
    y = (ph - 25) * mm
    c.setFillColor(HexColor("#263238"))
    c.setFont(bold, 22)
    title = game.text(game.meta.title, lang)
    for text in (title, word("heading"), word("summary", cards=cards, sheets=sheets, paper=PAPER_NAMES[options.paper],
                                               per_page=per_page)):  # the page's own words: no silent boxes
        fonts.check_text(text, regular, Locator(field="print-and-play instructions", language=lang))
    size = 22
    while stringWidth(title, bold, size) > width and size > 10:
        size -= 1
    c.setFont(bold, size)
    c.drawString(left, y, title)
    y -= 9 * mm
    c.setFont(regular, 13)
    c.drawString(left, y, f"{word('heading')} · {PAPER_NAMES[options.paper]} · {own_name(lang)}")
    y -= 11 * mm
    paper = PAPER_NAMES[options.paper]
    items = [word("summary", cards=cards, sheets=sheets, paper=paper, per_page=per_page)]
    if options.ink != DEFAULT_INK:  # say what this file is, and where the full colour is
        items.append(word(options.ink))
    items.append(word("scale"))
    if options.fold:
        items.append(word("fold"))
    else:
        items.append(word(f"duplex-{options.duplex}"))
    items.append(word("cut"))
    if not options.fold:
        items.append(word("offset"))
    for n, item in enumerate(items, 1):
        c.setFont(bold, 11)
        c.drawString(left, y, f"{n}.")
        y = _paragraph(c, item, left + 7 * mm, y, width - 7 * mm, regular, 11) - 3 * mm
    # 50 mm scale bar
    y -= 6 * mm
    _scale_bar(c, left, y, word("scale-label"))
    if not options.fold:
        _test_strip_front(c, pw, ph, word("offset-title"))
    return y / mm


def _sample(c, renderer: CardRenderer, face, back, front_label: str, back_label: str, top: float) -> None:
    """The first card's face and back, small, below ``top`` (mm), to show what the sheets hold."""
    mm = PT_PER_MM
    height = 45.0  # mm on the page
    scale = height * mm / face.height
    width = face.width * scale / mm
    y = top - height
    for i, (plan, label) in enumerate(((face, front_label), (back, back_label))):
        x = 20 + i * (width + 6)
        c.saveState()
        c.translate(x * mm, y * mm)
        c.scale(scale, scale)
        renderer.place(c, plan, 0, 0, clip=(0, 0, 0, 0))
        c.restoreState()
        c.saveState()
        c.setStrokeColor(HexColor("#b0bec5"))
        c.setLineWidth(0.3)
        c.rect(x * mm, y * mm, width * mm, height * mm, stroke=1, fill=0)
        c.setFillColor(HexColor("#607d8b"))
        c.setFont(fonts.font_name("regular"), 8)
        c.drawCentredString((x + width / 2) * mm, (y - 4) * mm, label)
        c.restoreState()


def _scale_bar(c, x: float, y: float, label: str) -> None:
    mm = PT_PER_MM
    c.saveState()
    c.setFillColor(HexColor("#263238"))
    c.setStrokeColor(HexColor("#263238"))
    for i in range(5):
        if i % 2 == 0:
            c.rect(x + i * 10 * mm, y, 10 * mm, 3 * mm, stroke=0, fill=1)
    c.setLineWidth(0.5)
    c.rect(x, y, 50 * mm, 3 * mm, stroke=1, fill=0)
    c.setLineWidth(0.3)
    c.setFont(fonts.font_name("regular"), 7)
    for i in range(6):
        c.line(x + i * 10 * mm, y - 1.5 * mm, x + i * 10 * mm, y)
        c.drawCentredString(x + i * 10 * mm, y - 4.5 * mm, str(i * 10))
    c.setFont(fonts.font_name("bold"), 10)
    c.drawString(x + 53 * mm, y + 0.5 * mm, label)
    c.restoreState()


def _test_strip_front(c, pw, ph, title: str = "") -> None:
    """Two millimetre scales (x above, y to the left) around a zero point, in a frame."""
    mm = PT_PER_MM
    cx, cy = pw * STRIP_X, ph * STRIP_Y
    c.saveState()
    c.setStrokeColor(HexColor("#90a4ae"))
    c.setLineWidth(0.5)
    c.roundRect((cx - 34) * mm, (cy - 12) * mm, 62 * mm, 40 * mm, 2 * mm, stroke=1, fill=0)
    c.setFillColor(HexColor("#263238"))
    if title:
        c.setFont(fonts.font_name("bold"), 8)
        c.drawString((cx - 32) * mm, (cy + 24) * mm, title)
    c.setStrokeColor(HexColor("#263238"))
    c.setFont(fonts.font_name("regular"), 7)
    for k in range(-6, 7):
        length = 5 if k % 5 == 0 else 3
        c.setLineWidth(0.7 if k == 0 else 0.25)
        # x scale: ticks hanging from a base line 14 mm above the zero point
        x = (cx + k) * mm
        c.line(x, (cy + 14) * mm, x, (cy + 14 - length) * mm)
        # y scale: ticks from a base line 14 mm left of the zero point
        y = (cy + k) * mm
        c.line((cx - 14) * mm, y, (cx - 14 + length) * mm, y)
        if k % 5 == 0:
            label = f"{k:+d}" if k else "0"
            c.drawCentredString(x, (cy + 15.5) * mm, label)
            c.drawRightString((cx - 15) * mm, y - 2.3, label)
    c.setLineWidth(0.4)
    c.line((cx - 6) * mm, (cy + 14) * mm, (cx + 6) * mm, (cy + 14) * mm)
    c.line((cx - 14) * mm, (cy - 6) * mm, (cx - 14) * mm, (cy + 6) * mm)
    c.restoreState()


def _instructions_back(c, options: PnpOptions, word, pw, ph) -> None:
    """The back half of the test: thick lines exactly behind the zeros of the front scales."""
    mm = PT_PER_MM
    cx, cy = pw * STRIP_X, ph * STRIP_Y
    if options.duplex == "long":
        bx, by = pw - cx, cy
    else:
        bx, by = cx, ph - cy
    dx, dy = options.back_offset_mm
    shift_x, shift_y = (dx, -dy) if options.duplex == "long" else (-dx, dy)
    bx, by = bx + shift_x, by + shift_y
    sign = 1 if options.duplex == "long" else -1  # long edge mirrors x, short edge mirrors y
    c.saveState()
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(1.6)
    # a vertical line behind the x scale, a horizontal line behind the y scale
    c.line(bx * mm, (by + sign * 9) * mm, bx * mm, (by + sign * 15) * mm)
    c.line((bx + sign * 9) * mm, by * mm, (bx + sign * 15) * mm, by * mm)
    c.setFillColor(HexColor("#607d8b"))
    _paragraph(c, word("back-page"), 20 * mm, (ph - 25) * mm, (pw - 40) * mm,
               fonts.font_name("regular"), 10)
    c.restoreState()
