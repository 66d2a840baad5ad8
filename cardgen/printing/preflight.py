"""Preflight: read a print-shop PDF back and check it against a printer's record.

Checks, each failure a :class:`Finding` naming file, page, element and the
measured value against the limit:

* ``boxes``: TrimBox inside BleedBox inside MediaBox, bleed at least the printer's;
* ``size``: the trim one of the card sizes the printer's record lists (when it lists them);
* ``font``: every font embedded (pages and forms);
* ``color``: in a CMYK file no RGB colour and no spot colour in anything that paints: page and
  form content, Type3 glyph procedures, tiling and shading patterns, shadings, images, soft
  masks, transparency groups and the appearances of printable annotations inside the bleed;
  colour spaces judged by the PDF/X version (X-1a: device CMYK and grey only, no Lab or
  ICC-based colour; Indexed, Pattern, Separation and DeviceN by their base and alternate);
* ``transparency``: none in PDF/X-1a (soft masks, alpha below 1, blend modes, page and
  form transparency groups);
* ``annotation``: no printable annotation inside the bleed box (PDF/X);
* ``overprint``: text in 100 % K knocks out nothing (fill overprint on, mode 1);
* ``image``: every image at least the printer's resolution at its placed size;
* ``line``: no stroke thinner than the printer's minimum (width times the CTM scale);
* ``safe-zone``: no word outside the trim inset by the safe zone (word boxes from
  poppler's ``pdftotext -bbox``);
* ``ink``: total ink coverage at most the printer's limit over any area of about a
  millimetre square (3 x 3 pixels of a 72 dpi Ghostscript CMYK render, ``tiff32nc``,
  overprint simulated): 100 % K text overprinting a colour adds its ink to the colour's
  on strokes a fraction of a millimetre wide, which prepress accepts, while an area of
  too much ink is refused; the same render gives the average coverage per plate that
  Ghostscript's ``ink_cov`` device reports;
* ``pdfx``: encryption, PDF version and object streams, the output intent's profile and
  condition, the version keys of Info and XMP (:mod:`cardgen.printing.conformance`);
* ``pages``: an even page count (or the one expected) and, in a file of one deck,
  the same back on every back page of the printer's order (compared by what they
  draw: content and every resource it names, forms and fonts included).

A hostile or broken file is a finding too, never a traceback nor gigabytes of work
(:func:`_readable`, checked before anything is walked or rendered): an encrypted file, more
than :data:`MAX_PAGES` pages, a page box that is not four numbers, a page larger than
:data:`MAX_PAGE_PT` a side or pages that would render to more than
:data:`MAX_RENDER_PIXELS` in all, forms nested deeper than :data:`MAX_FORM_DEPTH`, and
anything else the walk cannot read (named with its page) end the checks of that file.
"""

from __future__ import annotations

import hashlib
import math
import re
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cardgen.errors import RenderError
from cardgen.printing.conformance import check_document
from cardgen.printing.printers import Printer
from cardgen.cards.text import PT_PER_MM

MAX_PDF_BYTES = 1 << 30
INK_DPI = 72  # resolution of the coverage render: a pixel is 0.35 mm, finer than any area that matters for ink
INK_AREA = 3  # pixels a side of the least area whose ink counts (1.06 mm at 72 dpi): thinner is a stroke
TOLERANCE_PT = 0.05
STROKES = {"S", "s", "b", "B", "b*", "B*"}
TEXT_SHOWS = {"Tj", "TJ", "'", '"'}
RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/RGB"}
SPOT_SPACES = {"/Separation", "/DeviceN"}
#: Pages of a file checked at most (a print-shop file is one deck, a few hundred pages).
MAX_PAGES = 5000
#: A page's largest side, in points (70 cm: a press sheet; a card file's pages are a card with bleed).
MAX_PAGE_PT = 2000.0
#: Pixels of every page together at :data:`INK_DPI`, what the ink render writes and reads (4 bytes each).
MAX_RENDER_PIXELS = 100_000_000
#: Forms placed inside forms, deepest (cardgen's files nest two or three).
MAX_FORM_DEPTH = 32
BOXES = ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox")
PROCESS_COLORANTS = {"/Cyan", "/Magenta", "/Yellow", "/Black", "/All", "/None"}
DEVICE_ONLY = {"/CalGray": "CIE-based grey (CalGray)", "/Lab": "Lab (device-independent)"}  # forbidden in X-1a
NORMAL_BLENDS = {"/Normal", "/Compatible"}
PRINT_FLAG, HIDDEN_FLAG = 4, 2  # annotation flags (PDF 1.7, 12.5.3)
BLACK_ONLY = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Finding:
    file: str
    page: int | None  # 1-based; None: the whole file
    check: str
    element: str
    measured: str
    limit: str = ""

    def __str__(self) -> str:
        where = f"page {self.page}" if self.page else "file"
        limit = f" (limit {self.limit})" if self.limit else ""
        return f"{self.file}: {where}: {self.check}: {self.element}: {self.measured}{limit}"


@dataclass
class Report:
    file: str
    printer: str
    pages: int = 0
    findings: list[Finding] = field(default_factory=list)
    ink: list[list[float]] = field(default_factory=list)  # per page: average C, M, Y, K coverage in %
    max_tac: list[float] = field(default_factory=list)  # per page: highest total coverage held over INK_AREA, %

    @property
    def ok(self) -> bool:
        return not self.findings

    def as_dict(self) -> dict:
        data = asdict(self)
        data["ok"] = self.ok
        return data


def preflight(path: Path, shop: Printer, expected_pages: int | None = None, deck: bool | None = None,
              name: str | None = None) -> Report:
    """Check the PDF at ``path`` against ``shop``; ``deck``: the file holds one deck (default:
    the printer makes one PDF per deck)."""
    import pikepdf

    label = name or str(path)
    report = Report(label, shop.id)
    if not path.exists():
        raise RenderError(f"{path} does not exist")
    if not path.is_file():
        raise RenderError(f"{path} is not a regular file (a folder, FIFO or device is never read)")
    if path.stat().st_size > MAX_PDF_BYTES:
        raise RenderError(f"{path} is larger than {MAX_PDF_BYTES} bytes")
    try:
        pdf = pikepdf.open(path)
    except pikepdf.PasswordError:
        report.findings.append(Finding(label, None, "pdfx", "encryption", "encrypted (it needs a password to open)",
                                       "no encryption"))
        return report
    except (pikepdf.PdfError, RecursionError, ValueError) as exc:
        report.findings.append(Finding(label, None, "pdf", "file", f"cannot be read: {exc}"))
        return report
    with pdf:
        if not _readable(pdf, label, report):
            return report
        checker = _Checker(label, shop, report.findings)
        try:
            checker.document(pdf)
            backs: list[str] = []  # digest of each page where the printer's order puts a back
            digests: dict = {}
            for number, page in enumerate(pdf.pages, 1):
                checker.page(number, page)
                if (number % 2 == 1) == (shop.order == "back-face"):
                    backs.append(_drawing_digest(page.obj, digests))
        except Exception as exc:  # noqa: BLE001 - a structure no printer could read either: named with its page
            report.findings.append(Finding(label, checker.page_no or None, "pdf", "structure",
                                           f"cannot be read: {type(exc).__name__}: {str(exc)[:200]}"))
            return report
        _pages(label, shop, report.pages, expected_pages, backs,
               shop.files == "pdf-per-deck" if deck is None else deck, report.findings)
        rgb_file = shop.cmyk and not _has_output_intent(pdf)
    if rgb_file and any(f.check == "color" for f in report.findings):
        first = next(f for f in report.findings if f.check == "color")
        report.findings[:] = [Finding(label, None, "color", "an RGB file (no PDF/X output intent)",
                                      f"{first.element} {first.measured} on page {first.page}",
                                      f"CMYK for {shop.id}; check it against an RGB printer's rules "
                                      "(--printer tgc) or build it with --printer " + shop.id)]
        return report
    _safe_zone(path, label, shop, report.findings)
    if shop.cmyk:
        _ink(path, label, shop, report)
    return report


def _readable(pdf, label: str, report: Report) -> bool:
    """Whether the file can be checked within bounds (see the module's docstring); the reasons
    it cannot are added to ``report`` as findings naming the file and page."""
    out = report.findings
    if pdf.is_encrypted:  # a PDF/X rule as well as a bound: nothing in it is read further
        method = str(pdf.encryption.stream_method).rsplit(".", 1)[-1]
        out.append(Finding(label, None, "pdfx", "encryption", f"encrypted ({method}, {pdf.encryption.bits} bit)",
                           "no encryption"))
        return False
    try:
        report.pages = len(pdf.pages)
    except Exception as exc:  # noqa: BLE001 - a page tree that does not read
        out.append(Finding(label, None, "pdf", "page tree", f"cannot be read: {type(exc).__name__}: {exc}"))
        return False
    if report.pages > MAX_PAGES:
        out.append(Finding(label, None, "pages", "page count", f"{report.pages} pages", f"at most {MAX_PAGES}"))
        return False
    pixels = 0.0
    for number, page in enumerate(pdf.pages, 1):
        try:
            boxes = {name: _rectangle(page.obj.get(name)) for name in BOXES if name in page.obj}
            media = _rectangle(page.mediabox) if "/MediaBox" not in boxes else boxes["/MediaBox"]
        except Exception as exc:  # noqa: BLE001
            out.append(Finding(label, number, "pdf", "page", f"cannot be read: {type(exc).__name__}: {exc}"))
            return False
        bad = [name[1:] for name, box in boxes.items() if box is None]
        if media is None and "MediaBox" not in bad:
            bad.insert(0, "MediaBox")
        if bad:
            out.append(Finding(label, number, "boxes", ", ".join(bad), "not a rectangle of four numbers",
                               "[x0 y0 x1 y1]"))
            return False
        width, height = media[2] - media[0], media[3] - media[1]
        if max(width, height) > MAX_PAGE_PT:
            out.append(Finding(label, number, "pages", "page size", f"{width:g} x {height:g} pt",
                               f"at most {MAX_PAGE_PT:g} pt a side"))
            return False
        pixels += (width / 72 * INK_DPI + 1) * (height / 72 * INK_DPI + 1)
    if pixels > MAX_RENDER_PIXELS:
        out.append(Finding(label, None, "pages", "pages together", f"{pixels / 1e6:.0f} million pixels to render "
                           f"at {INK_DPI} dpi", f"at most {MAX_RENDER_PIXELS / 1e6:g} million"))
        return False
    return True


def _rectangle(box) -> list[float] | None:
    """A page box as four finite numbers, lower left first; None when it is not one."""
    import pikepdf

    if not isinstance(box, pikepdf.Array) or len(box) != 4:
        return None
    values = []
    for value in box:
        if isinstance(value, (bool, str, bytes, pikepdf.Name, pikepdf.String)):
            return None
        try:
            number = float(value)
        except Exception:  # noqa: BLE001 - an array, a dictionary, a null
            return None
        if not math.isfinite(number):
            return None
        values.append(number)
    x0, y0, x1, y1 = values
    return [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]


def _has_output_intent(pdf) -> bool:
    return any(str(i.get("/S")) == "/GTS_PDFX" for i in pdf.Root.get("/OutputIntents", []))


DIGEST_KEYS = ("/Contents", "/Resources", "/Group", "/Annots")


def _drawing_digest(obj, memo: dict, depth: int = 0) -> str:
    """What ``obj`` (a page, form or any object it names) draws, as a digest of its content bytes
    and, through its resources, of every form, image, font and state it names: two pages that
    place different forms under one name differ.  Shared objects are digested once (``memo``)."""
    import pikepdf

    key = obj.objgen if isinstance(obj, pikepdf.Object) and obj.is_indirect else None
    if key is not None and key in memo:
        return memo[key]
    if key is not None:
        memo[key] = f"cycle {key}"  # an object that names itself (an annotation's /P) is digested once
    digest = hashlib.sha256()
    if depth > 32:  # deeper nesting than any drawing needs: the depth itself is what is compared
        digest.update(b"deep")
    elif isinstance(obj, pikepdf.Stream):
        digest.update(b"stream")
        try:
            digest.update(obj.read_bytes())
        except pikepdf.PdfError:
            digest.update(obj.read_raw_bytes())
        for name, value in sorted(obj.items()):
            if name not in ("/Length", "/Filter", "/DecodeParms", "/Parent"):
                digest.update(name.encode() + _drawing_digest(value, memo, depth + 1).encode())
    elif isinstance(obj, pikepdf.Dictionary):
        page = obj.get("/Type") == "/Page"
        digest.update(b"dict")
        for name, value in sorted(obj.items()):
            if name == "/Parent" or (page and name not in DIGEST_KEYS):
                continue
            digest.update(name.encode() + _drawing_digest(value, memo, depth + 1).encode())
    elif isinstance(obj, pikepdf.Array):
        digest.update(b"array")
        for value in obj:
            digest.update(_drawing_digest(value, memo, depth + 1).encode())
    else:
        digest.update(repr(obj).encode())
    text = digest.hexdigest()
    if key is not None:
        memo[key] = text
    return text


def preflight_bytes(data: bytes, shop: Printer, name: str, expected_pages: int | None = None,
                    deck: bool | None = None) -> Report:
    with tempfile.TemporaryDirectory(prefix="cardgen-preflight-") as tmp:
        path = Path(tmp) / "file.pdf"
        path.write_bytes(data)
        return preflight(path, shop, expected_pages, deck, name=name)


def _pages(label: str, shop: Printer, pages: int, expected: int | None, backs: list[str], deck: bool,
           out: list[Finding]) -> None:
    if expected is not None and pages != expected:
        out.append(Finding(label, None, "pages", "page count", f"{pages} pages", f"{expected}"))
    elif pages % 2:
        out.append(Finding(label, None, "pages", "page count", f"{pages} pages", "an even number (face and back)"))
    if deck and len(set(backs)) > 1:
        first = "odd" if shop.order == "back-face" else "even"
        offset = 1 if shop.order == "back-face" else 2
        common = max(set(backs), key=backs.count)  # the deck's back: what most back pages draw
        odd_ones = [offset + 2 * i for i, digest in enumerate(backs) if digest != common]
        shown = ", ".join(str(n) for n in odd_ones[:5]) + (" ..." if len(odd_ones) > 5 else "")
        out.append(Finding(label, odd_ones[0], "pages", "page order",
                           f"{len(set(backs))} different pages where the {first} pages should all be the deck's back"
                           f" (page{'s' if len(odd_ones) > 1 else ''} {shown} unlike the other {backs.count(common)})",
                           shop.order))


def _tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if not found:
        raise RenderError(f"preflight needs '{name}' ({package}); install it with apt-get install {package}")
    return found


class _Checker:
    """Walks a document's structure and content streams."""

    def __init__(self, label: str, shop: Printer, out: list[Finding]):
        self.label, self.shop, self.out = label, shop, out
        self.page_no = 0
        self._seen_fonts: set = set()
        self._reported: set = set()
        self._walked: set = set()
        self._sizes_reported: set[str] = set()
        self._inside: list[str] = []  # what paints the content being read, when it is not the page or a form

    def fail(self, check: str, element: str, measured: str, limit: str = "", page: int | None = -1) -> None:
        key = (self.page_no if page == -1 else page, check, element)
        if key in self._reported:  # the first of a kind on a page names it; thousands would hide the rest
            return
        self._reported.add(key)
        if self._inside and page == -1:
            element = f"{element} (in {self._inside[-1]})"
        self.out.append(Finding(self.label, self.page_no if page == -1 else page, check, element, measured, limit))

    # --- document level ------------------------------------------------------------------------
    def document(self, pdf) -> None:
        if self.shop.pdfx == "none":
            return
        check_document(pdf, self.shop.pdfx, self.shop.condition,
                       lambda element, measured, limit: self.fail("pdfx", element, measured, limit, None))

    # --- page level ----------------------------------------------------------------------------
    def page(self, number: int, page) -> None:
        self.page_no = number
        self._boxes(page)
        self.thinnest: tuple[float, int] = (math.inf, 0)
        group = page.obj.get("/Group")
        if group is not None:
            self._group(group, "page", page.obj.get("/Resources"))
        self._content(page, page.obj.get("/Resources"), (1, 0, 0, 1, 0, 0), set(), _State())
        self._annotations(page)
        width, count = self.thinnest
        if count:
            self.fail("line", f"{count} stroke(s) thinner than the minimum, thinnest",
                      f"{width:.3f} pt", f"{self.shop.min_line_pt:g} pt")

    def _annotations(self, page) -> None:
        """Printable annotations inside the bleed box: PDF/X allows none, and what their appearance
        paints is checked like the page (Ghostscript and a RIP print it)."""
        import pikepdf

        bleed = [float(v) for v in page.obj.get("/BleedBox", page.obj.get("/MediaBox", page.mediabox))]
        for annot in page.obj.get("/Annots", []):
            if not isinstance(annot, pikepdf.Dictionary):
                continue
            subtype = str(annot.get("/Subtype", "/?"))[1:]
            flags = int(annot.get("/F", 0)) if isinstance(annot.get("/F", 0), int) else 0
            rect = [float(v) for v in annot.get("/Rect", [0, 0, 0, 0])][:4]
            if len(rect) < 4 or subtype in ("Link", "Popup") or not flags & PRINT_FLAG or flags & HIDDEN_FLAG:
                continue
            x0, y0, x1, y1 = min(rect[0], rect[2]), min(rect[1], rect[3]), max(rect[0], rect[2]), max(rect[1], rect[3])
            if x1 <= bleed[0] or x0 >= bleed[2] or y1 <= bleed[1] or y0 >= bleed[3]:
                continue
            if self.shop.pdfx != "none" and subtype not in ("PrinterMark", "TrapNet"):
                self.fail("annotation", f"printable {subtype} annotation",
                          f"at {x0:.0f},{y0:.0f}-{x1:.0f},{y1:.0f} pt, inside the bleed box", "none in PDF/X")
            appearance = annot.get("/AP", {}).get("/N") if isinstance(annot.get("/AP"), pikepdf.Dictionary) else None
            states = [appearance] if isinstance(appearance, pikepdf.Stream) else (
                list(appearance.values()) if isinstance(appearance, pikepdf.Dictionary) else [])
            for stream in states:
                if isinstance(stream, pikepdf.Stream):
                    self._inside.append(f"{subtype} annotation appearance")
                    self._form(f"{subtype} annotation appearance", stream, page.obj.get("/Resources"),
                               _placement(stream, (x0, y0, x1, y1)), set(), _State())
                    self._inside.pop()

    def _boxes(self, page) -> None:
        obj = page.obj
        media = [float(v) for v in obj.get("/MediaBox", page.mediabox)]
        boxes = {}
        for name in ("/TrimBox", "/BleedBox"):
            if name not in obj:
                self.fail("boxes", name[1:], "missing", "present")
                return
            boxes[name] = [float(v) for v in obj[name]]
        trim, bleed = boxes["/TrimBox"], boxes["/BleedBox"]
        if not _inside(trim, bleed) or not _inside(bleed, media):
            self.fail("boxes", "TrimBox in BleedBox in MediaBox", f"trim {trim}, bleed {bleed}, media {media}",
                      "nested")
            return
        margin = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        need = self.shop.bleed_mm * PT_PER_MM
        if margin < need - TOLERANCE_PT:
            self.fail("boxes", "bleed", f"{margin / PT_PER_MM:.2f} mm", f"at least {self.shop.bleed_mm:g} mm")
        self._size(trim)

    def _size(self, trim: list[float]) -> None:
        """The trim is one of the card sizes the printer makes (its record's ``sizes``; any when none)."""
        if not self.shop.sizes:
            return
        w, h = (trim[2] - trim[0]) / PT_PER_MM, (trim[3] - trim[1]) / PT_PER_MM
        for _, (sw, sh) in self.shop.sizes.items():
            if (abs(w - sw) <= 0.5 and abs(h - sh) <= 0.5) or (abs(w - sh) <= 0.5 and abs(h - sw) <= 0.5):
                return
        measured = f"{w:.1f} x {h:.1f} mm"
        if measured in self._sizes_reported:  # named on the first page of that size
            return
        self._sizes_reported.add(measured)
        names = ", ".join(f"{name} {sw:g} x {sh:g}" for name, (sw, sh) in self.shop.sizes.items())
        self.fail("size", f"card size (trim), not one {self.shop.name} makes", measured, f"one of {names} mm")

    def _resources(self, resources, kind: str) -> dict:
        import pikepdf

        if not isinstance(resources, pikepdf.Dictionary) or not isinstance(resources.get(kind), pikepdf.Dictionary):
            return {}
        return dict(resources[kind].items())

    def _content(self, holder, resources, ctm, visiting: set, state: "_State") -> None:
        import pikepdf

        self._fonts(resources, visiting)
        self._graphic_states(resources)
        try:
            instructions = pikepdf.parse_content_stream(holder)
        except pikepdf.PdfError as exc:
            self.fail("pdf", "content stream", f"cannot be parsed: {exc}")
            return
        base = ctm
        stack: list[tuple] = []
        width = 1.0
        for item in instructions:
            if isinstance(item, pikepdf.ContentStreamInlineImage):
                self._inline_image(item, ctm)
                continue
            operands, op = item.operands, str(item.operator)
            if op == "q":
                stack.append((ctm, width, state.copy()))
            elif op == "Q" and stack:
                ctm, width, state = stack.pop()
            elif op == "cm" and len(operands) == 6:
                ctm = _multiply([float(v) for v in operands], ctm)
            elif op == "w" and operands:
                width = float(operands[0])
            elif op in STROKES:
                actual = width * _scale(ctm)
                if actual < self.shop.min_line_pt - 1e-6:
                    self.thinnest = (min(self.thinnest[0], actual), self.thinnest[1] + 1)
            elif op in ("rg", "RG"):
                if op == "rg":
                    state.fill = None
                if self.shop.cmyk:
                    self.fail("color", f"RGB {'fill' if op == 'rg' else 'stroke'} colour",
                              " ".join(f"{float(v):g}" for v in operands), "CMYK only")
            elif op == "k":
                state.fill = tuple(round(float(v), 4) for v in operands)
            elif op in ("g", "sc", "scn"):
                state.fill = None
                if op == "scn" and operands and isinstance(operands[-1], pikepdf.Name):
                    self._pattern(str(operands[-1]), resources, base, visiting)
            elif op == "SCN" and operands and isinstance(operands[-1], pikepdf.Name):
                self._pattern(str(operands[-1]), resources, base, visiting)
            elif op in ("cs", "CS") and operands:
                if op == "cs":
                    state.fill = None
                self._color_space(operands[0], resources, "colour space")
            elif op == "gs" and operands:
                self._use_state(str(operands[0]), resources, ctm, visiting, state)
            elif op == "Tr" and operands:
                state.text_mode = int(operands[0])
            elif op in TEXT_SHOWS:
                self._text_overprint(state)
            elif op == "sh" and operands:
                shading = self._resources(resources, "/Shading").get(str(operands[0]))
                if shading is not None:
                    self._color_space(shading.get("/ColorSpace"), resources, f"shading {operands[0]}")
            elif op == "Do" and operands:
                self._xobject(str(operands[0]), resources, ctm, visiting, state)

    def _text_overprint(self, state: "_State") -> None:
        """Black-only text (0 0 0 1 k) with fill overprint off knocks out the colours under it:
        on a press that misregisters it shows a white halo."""
        if not self.shop.cmyk or state.fill != BLACK_ONLY or state.text_mode in (1, 3, 5, 7):
            return
        if not state.fill_overprint or state.overprint_mode != 1:
            what = "fill overprint off" if not state.fill_overprint else "overprint mode 0"
            self.fail("overprint", "black-only text (0 0 0 1 k)", f"knocks out ({what})",
                      "overprint on (/op true, /OPM 1)")

    def _use_state(self, name: str, resources, ctm, visiting: set, state: "_State") -> None:
        import pikepdf

        graphics = self._resources(resources, "/ExtGState").get(name)
        if not isinstance(graphics, pikepdf.Dictionary):
            return
        if "/OP" in graphics:
            state.stroke_overprint = state.fill_overprint = bool(graphics["/OP"])
        if "/op" in graphics:
            state.fill_overprint = bool(graphics["/op"])
        if "/OPM" in graphics:
            state.overprint_mode = int(graphics["/OPM"])
        mask = graphics.get("/SMask")
        if isinstance(mask, pikepdf.Dictionary) and isinstance(mask.get("/G"), pikepdf.Stream):
            self._inside.append(f"soft mask of graphics state {name}")
            self._form(f"soft mask of graphics state {name}", mask["/G"], resources, ctm, visiting, _State())
            self._inside.pop()

    def _pattern(self, name: str, resources, base, visiting: set) -> None:
        """What a pattern paints: a tiling pattern's cell like a form, a shading pattern's colour space."""
        import pikepdf

        pattern = self._resources(resources, "/Pattern").get(name)
        if not isinstance(pattern, pikepdf.Object):
            return
        matrix = [float(v) for v in pattern.get("/Matrix", [1, 0, 0, 1, 0, 0])]
        if int(pattern.get("/PatternType", 0)) == 1 and isinstance(pattern, pikepdf.Stream):
            key = pattern.objgen
            if key in visiting or (key, "pattern") in self._walked:
                return
            self._walked.add((key, "pattern"))
            self._inside.append(f"tiling pattern {name}")
            self._content(pattern, pattern.get("/Resources", resources), _multiply(matrix, base),
                          visiting | {key}, _State())
            self._inside.pop()
        elif int(pattern.get("/PatternType", 0)) == 2 and isinstance(pattern.get("/Shading"), pikepdf.Dictionary):
            self._color_space(pattern.Shading.get("/ColorSpace"), resources, f"shading pattern {name}")

    def _group(self, group, where: str, resources) -> None:
        import pikepdf

        if not isinstance(group, pikepdf.Dictionary) or str(group.get("/S")) != "/Transparency":
            return
        if self.shop.pdfx == "x-1a":
            self.fail("transparency", where, "transparency group", "none in PDF/X-1a")
        if "/CS" in group:
            self._color_space(group["/CS"], resources, f"{where} transparency group colour space")

    def _xobject(self, name: str, resources, ctm, visiting: set, state: "_State") -> None:
        xobject = self._resources(resources, "/XObject").get(name)
        if xobject is None:
            return
        subtype = str(xobject.get("/Subtype"))
        if subtype == "/Image":
            self._image(name, xobject, ctm)
        elif subtype == "/Form":
            self._form(f"form {name}", xobject, resources, ctm, visiting, state)

    def _form(self, element: str, xobject, resources, ctm, visiting: set, state: "_State") -> None:
        key = xobject.objgen
        placed = (key, tuple(round(v, 3) for v in ctm), state.key())
        if key in visiting or placed in self._walked:  # a form placed alike again holds nothing new
            return
        if len(visiting) >= MAX_FORM_DEPTH:
            self.fail("pdf", element, f"forms nested deeper than {MAX_FORM_DEPTH}", f"at most {MAX_FORM_DEPTH}")
            return
        self._walked.add(placed)
        self._group(xobject.get("/Group"), element, resources)
        matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
        self._content(xobject, xobject.get("/Resources", resources), _multiply(matrix, ctm), visiting | {key},
                      state.copy())

    def _image(self, name: str, image, ctm) -> None:
        self._color_space(image.get("/ColorSpace"), None, f"image {name}")
        if "/SMask" in image and self.shop.pdfx == "x-1a":
            self.fail("transparency", f"image {name}", "soft mask", "none in PDF/X-1a")
        self._resolution(f"image {name}", int(image.get("/Width", 0)), int(image.get("/Height", 0)), ctm)

    def _inline_image(self, item, ctm) -> None:
        info = item.iimage
        self._color_space(info.obj.get("/CS", info.obj.get("/ColorSpace")), None, "inline image")
        self._resolution("inline image", int(info.width), int(info.height), ctm)

    def _resolution(self, element: str, width_px: int, height_px: int, ctm) -> None:
        a, b, c, d = ctm[:4]
        width_in, height_in = math.hypot(a, b) / 72, math.hypot(c, d) / 72
        if width_in <= 0 or height_in <= 0:
            return
        ppi = min(width_px / width_in, height_px / height_in)
        if ppi < self.shop.dpi * 0.98:
            self.fail("image", element, f"{ppi:.0f} ppi at {width_in * 25.4:.1f} x {height_in * 25.4:.1f} mm",
                      f"at least {self.shop.dpi} ppi")

    def _color_space(self, space, resources, element: str, depth: int = 0) -> None:
        """A colour space judged by the printer: no RGB and no spot colour in a CMYK file; in
        PDF/X-1a device colour only (no Lab, CalGray or ICC-based space); Indexed and Pattern
        by their base, Separation and DeviceN by their alternate."""
        import pikepdf

        if space is None or not self.shop.cmyk or depth > 8:
            return
        if isinstance(space, pikepdf.Name) and resources is not None:
            named = self._resources(resources, "/ColorSpace").get(str(space))
            if named is not None:
                space = named
        is_array = isinstance(space, pikepdf.Array)
        family = str(space[0]) if is_array and len(space) else str(space)
        x1a = self.shop.pdfx == "x-1a"
        if family in RGB_SPACES:
            self.fail("color", element, family[1:], "CMYK only")
        elif family in DEVICE_ONLY and x1a:
            self.fail("color", element, DEVICE_ONLY[family], "device CMYK or grey only in PDF/X-1a")
        elif family == "/ICCBased" and is_array and len(space) > 1 and isinstance(space[1], pikepdf.Stream):
            components = int(space[1].get("/N", 0))
            if components == 3:
                self.fail("color", element, "ICC-based RGB", "CMYK only")
            elif x1a:
                kind = {4: "CMYK", 1: "grey"}.get(components, f"{components}-component")
                self.fail("color", element, f"ICC-based {kind}", "device CMYK or grey only in PDF/X-1a")
        elif family in SPOT_SPACES and is_array and len(space) > 2:
            names = list(space[1]) if isinstance(space[1], pikepdf.Array) else [space[1]]
            spots = [str(n)[1:] for n in names if str(n) not in PROCESS_COLORANTS]
            if spots:
                self.fail("color", element, f"spot colour ({family[1:]} {', '.join(spots)})", "CMYK only")
            self._color_space(space[2], resources, f"{element} (alternate of {family[1:]})", depth + 1)
        elif family == "/Indexed" and is_array and len(space) > 1:
            self._color_space(space[1], resources, f"{element} (palette)", depth + 1)
        elif family == "/Pattern" and is_array and len(space) > 1:
            self._color_space(space[1], resources, f"{element} (pattern base)", depth + 1)

    def _fonts(self, resources, visiting: set) -> None:
        for name, font in self._resources(resources, "/Font").items():
            if font.objgen in self._seen_fonts and font.objgen != (0, 0):
                continue
            self._seen_fonts.add(font.objgen)
            subtype = str(font.get("/Subtype"))
            if subtype == "/Type3":
                self._glyphs(name, font, resources, visiting)
                continue
            described = font.DescendantFonts[0] if subtype == "/Type0" else font
            descriptor = described.get("/FontDescriptor")
            if descriptor is None or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                self.fail("font", f"font {name} ({str(font.get('/BaseFont', '?'))[1:]})", "not embedded",
                          "every font embedded")

    def _glyphs(self, name: str, font, resources, visiting: set) -> None:
        """A Type3 font's glyph procedures paint like forms (in glyph space, scaled by FontMatrix)."""
        import pikepdf

        procs = font.get("/CharProcs")
        if not isinstance(procs, pikepdf.Dictionary):
            return
        matrix = [float(v) for v in font.get("/FontMatrix", [0.001, 0, 0, 0.001, 0, 0])]
        own = font.get("/Resources", resources)
        for glyph, proc in procs.items():
            if isinstance(proc, pikepdf.Stream) and proc.objgen not in visiting:
                self._inside.append(f"Type3 font {name} glyph {glyph[1:]}")
                self._content(proc, own, tuple(matrix), visiting | {proc.objgen}, _State())
                self._inside.pop()

    def _graphic_states(self, resources) -> None:
        import pikepdf

        if self.shop.pdfx != "x-1a":
            return
        for name, state in self._resources(resources, "/ExtGState").items():
            for key in ("/CA", "/ca"):
                if key in state and float(state[key]) < 1:
                    self.fail("transparency", f"graphics state {name}", f"{key[1:]} {float(state[key]):g}",
                              "none in PDF/X-1a")
            if "/SMask" in state and str(state["/SMask"]) != "/None":
                self.fail("transparency", f"graphics state {name}", "soft mask", "none in PDF/X-1a")
            blend = state.get("/BM")
            blends = [str(b) for b in blend] if isinstance(blend, pikepdf.Array) else (
                [str(blend)] if blend is not None else [])
            if blends and blends[0] not in NORMAL_BLENDS:
                self.fail("transparency", f"graphics state {name}", f"blend mode {blends[0][1:]}",
                          "Normal only in PDF/X-1a")


@dataclass
class _State:
    """The part of the graphics state the checks follow through q/Q and into forms."""

    fill: tuple | None = None  # DeviceCMYK fill set by k; None: another colour or not known
    fill_overprint: bool = False
    stroke_overprint: bool = False
    overprint_mode: int = 0
    text_mode: int = 0

    def copy(self) -> "_State":
        return _State(self.fill, self.fill_overprint, self.stroke_overprint, self.overprint_mode, self.text_mode)

    def key(self) -> tuple:
        return (self.fill, self.fill_overprint, self.overprint_mode, self.text_mode)


def _placement(stream, rect: tuple[float, float, float, float]) -> tuple:
    """The matrix that puts an annotation's appearance (its BBox through its Matrix) on its Rect."""
    bbox = [float(v) for v in stream.get("/BBox", [0, 0, 1, 1])][:4]
    matrix = [float(v) for v in stream.get("/Matrix", [1, 0, 0, 1, 0, 0])]
    corners = [(bbox[0], bbox[1]), (bbox[2], bbox[1]), (bbox[0], bbox[3]), (bbox[2], bbox[3])]
    xs = [matrix[0] * x + matrix[2] * y + matrix[4] for x, y in corners]
    ys = [matrix[1] * x + matrix[3] * y + matrix[5] for x, y in corners]
    width, height = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    sx, sy = (rect[2] - rect[0]) / width, (rect[3] - rect[1]) / height
    return (sx, 0.0, 0.0, sy, rect[0] - min(xs) * sx, rect[1] - min(ys) * sy)


def _inside(inner: list[float], outer: list[float]) -> bool:
    return (inner[0] >= outer[0] - TOLERANCE_PT and inner[1] >= outer[1] - TOLERANCE_PT
            and inner[2] <= outer[2] + TOLERANCE_PT and inner[3] <= outer[3] + TOLERANCE_PT)


def _multiply(m: list[float], n) -> tuple:
    """m x n for PDF matrices [a b c d e f] (m applied first)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _scale(ctm) -> float:
    a, b, c, d = ctm[:4]
    return math.sqrt(abs(a * d - b * c))


_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')
_WORD = re.compile(r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*?)</word>')


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    """A checking tool's run; one that does not end in time is a failed run (a hostile PDF
    can keep a renderer busy), reported like any other failure of the tool."""
    try:
        return subprocess.run(args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, 1, b"", f"no end within {timeout:g} s".encode())


def _safe_zone(path: Path, label: str, shop: Printer, out: list[Finding]) -> None:
    """Every word inside the trim inset by the safe zone (pdftotext measures in points from the
    top left of the crop box, which is the media box here)."""
    import html

    import pikepdf

    tool = _tool("pdftotext", "poppler-utils")
    result = _run([tool, "-bbox", "-q", str(path), "-"], timeout=600)
    if result.returncode != 0:
        out.append(Finding(label, None, "safe-zone", "pdftotext", f"failed: {result.stderr.decode()[:200]}"))
        return
    text = result.stdout.decode("utf-8", "replace")
    with pikepdf.open(path) as pdf:
        trims = []
        for page in pdf.pages:
            media = [float(v) for v in page.mediabox]
            trim = [float(v) for v in page.obj.get("/TrimBox", page.mediabox)]
            trims.append((trim[0] - media[0], media[3] - trim[3], trim[2] - media[0], media[3] - trim[1]))
    inset = shop.safe_mm * PT_PER_MM - TOLERANCE_PT
    for number, chunk in enumerate(text.split("</page>")[:len(trims)], 1):
        x0, top, x1, bottom = trims[number - 1]
        for match in _WORD.finditer(chunk):
            wx0, wy0, wx1, wy1 = (float(v) for v in match.groups()[:4])
            distance = min(wx0 - x0, wy0 - top, x1 - wx1, bottom - wy1)
            if distance < inset:
                where = "in the bleed" if distance < -TOLERANCE_PT else "inside the trim"
                out.append(Finding(label, number, "safe-zone", f"text '{html.unescape(match.group(5))}'",
                                   f"{distance / PT_PER_MM:.2f} mm from the trim ({where})",
                                   f"at least {shop.safe_mm:g} mm inside"))


def _held(total, size: int):
    """The coverage each ``size`` x ``size`` square of pixels holds everywhere (its least pixel)."""
    import numpy as np

    if total.shape[0] < size or total.shape[1] < size:
        return total
    rows, cols = total.shape[0] - size + 1, total.shape[1] - size + 1
    held = np.full((rows, cols), np.inf)
    for dy in range(size):
        for dx in range(size):
            held = np.minimum(held, total[dy:dy + rows, dx:dx + cols])
    return held


def _ink(path: Path, label: str, shop: Printer, report: Report) -> None:
    """Per-pixel total coverage and per-plate averages from a Ghostscript CMYK render."""
    import numpy as np
    from PIL import Image

    gs = _tool("gs", "ghostscript")
    with tempfile.TemporaryDirectory(prefix="cardgen-ink-") as tmp:
        result = _run([gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc",
                       f"-r{INK_DPI}", "-dUseTrimBox=false", f"-sOutputFile={tmp}/p%05d.tif", str(path)],
                      timeout=1800)
        if result.returncode != 0:
            report.findings.append(Finding(label, None, "ink", "Ghostscript render",
                                           f"failed: {result.stderr.decode()[:200]}"))
            return
        for number, tif in enumerate(sorted(Path(tmp).glob("p*.tif")), 1):
            with Image.open(tif) as image:
                data = np.asarray(image.convert("CMYK"), dtype=np.float64) / 255 * 100
            report.ink.append([round(float(v), 2) for v in data.mean(axis=(0, 1))])
            total = _held(data.sum(axis=2), INK_AREA)
            peak = float(total.max())
            report.max_tac.append(round(peak, 1))
            if peak > shop.tac + 1.0:  # one step of 8-bit rounding per plate
                over = float((total > shop.tac + 1.0).mean() * 100)
                report.findings.append(Finding(label, number, "ink", "total ink coverage",
                                               f"{peak:.0f} % (on {over:.1f} % of the page)", f"{shop.tac} %"))
