"""Preflight: read a print-shop PDF back and check it against a printer's record.

Checks, each failure a :class:`Finding` naming file, page, element and the
measured value against the limit:

* ``boxes``: TrimBox inside BleedBox inside MediaBox, bleed at least the printer's;
* ``font``: every font embedded (pages and forms);
* ``color``: in a CMYK file no RGB colour, image or shading and no spot colour;
* ``transparency``: none in PDF/X-1a (soft masks, alpha below 1, transparency groups);
* ``image``: every image at least the printer's resolution at its placed size;
* ``line``: no stroke thinner than the printer's minimum (width times the CTM scale);
* ``safe-zone``: no word outside the trim inset by the safe zone (word boxes from
  poppler's ``pdftotext -bbox``);
* ``ink``: total ink coverage of every pixel at most the printer's limit, from a
  Ghostscript CMYK render (``tiff32nc``); the same render gives the average
  coverage per plate that Ghostscript's ``ink_cov`` device reports;
* ``pdfx``: output intent with a CMYK profile, GTS_PDFXVersion, Trapped, ID, XMP;
* ``pages``: an even page count (or the one expected) and, in a file of one deck,
  the same back on every back page of the printer's order.

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
from cardgen.printing.printers import Printer
from cardgen.cards.text import PT_PER_MM

MAX_PDF_BYTES = 1 << 30
INK_DPI = 72  # resolution of the coverage render: a pixel is 0.35 mm, finer than any area that matters for ink
TOLERANCE_PT = 0.05
STROKES = {"S", "s", "b", "B", "b*", "B*"}
RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/RGB"}
SPOT_SPACES = {"/Separation", "/DeviceN"}
PDFX_VERSIONS = {"x-1a": "PDF/X-1:2003", "x-4": "PDF/X-4"}
#: Pages of a file checked at most (a print-shop file is one deck, a few hundred pages).
MAX_PAGES = 5000
#: A page's largest side, in points (70 cm: a press sheet; a card file's pages are a card with bleed).
MAX_PAGE_PT = 2000.0
#: Pixels of every page together at :data:`INK_DPI`, what the ink render writes and reads (4 bytes each).
MAX_RENDER_PIXELS = 100_000_000
#: Forms placed inside forms, deepest (cardgen's files nest two or three).
MAX_FORM_DEPTH = 32
BOXES = ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox")


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
    max_tac: list[float] = field(default_factory=list)  # per page: highest total coverage of a pixel, %

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
        report.findings.append(Finding(label, None, "pdf", "file", "encrypted (it needs a password to open)",
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
            for number, page in enumerate(pdf.pages, 1):
                checker.page(number, page)
                if (number % 2 == 1) == (shop.order == "back-face"):
                    backs.append(_content_digest(page))
        except Exception as exc:  # noqa: BLE001 - a structure no printer could read either: named with its page
            report.findings.append(Finding(label, checker.page_no or None, "pdf", "structure",
                                           f"cannot be read: {type(exc).__name__}: {str(exc)[:200]}"))
            return report
        _pages(label, shop, report.pages, expected_pages, backs,
               shop.files == "pdf-per-deck" if deck is None else deck, report.findings)
    _safe_zone(path, label, shop, report.findings)
    if shop.cmyk:
        _ink(path, label, shop, report)
    return report


def _readable(pdf, label: str, report: Report) -> bool:
    """Whether the file can be checked within bounds (see the module's docstring); the reasons
    it cannot are added to ``report`` as findings naming the file and page."""
    out = report.findings
    if pdf.is_encrypted:
        out.append(Finding(label, None, "pdf", "file", "encrypted", "no encryption"))
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


def _content_digest(page) -> str:
    """What a page draws, as a digest: equal for pages that place the same forms the same way."""
    import pikepdf

    contents = page.obj.get("/Contents")
    streams = [contents] if isinstance(contents, pikepdf.Stream) else list(contents or [])
    return hashlib.sha256(b"".join(stream.read_bytes() for stream in streams)).hexdigest()


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
        out.append(Finding(label, None, "pages", "page order",
                           f"{len(set(backs))} different pages where the {first} pages should all be the deck's back",
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

    def fail(self, check: str, element: str, measured: str, limit: str = "", page: int | None = -1) -> None:
        key = (self.page_no if page == -1 else page, check, element)
        if key in self._reported:  # the first of a kind on a page names it; thousands would hide the rest
            return
        self._reported.add(key)
        self.out.append(Finding(self.label, self.page_no if page == -1 else page, check, element, measured, limit))

    # --- document level ------------------------------------------------------------------------
    def document(self, pdf) -> None:
        if self.shop.pdfx == "none":
            return
        want = PDFX_VERSIONS[self.shop.pdfx]
        info = pdf.docinfo
        if str(info.get("/GTS_PDFXVersion", "")) != want:
            self.fail("pdfx", "Info GTS_PDFXVersion", repr(str(info.get("/GTS_PDFXVersion", ""))) or "none", want, None)
        if str(info.get("/Trapped", "")) not in ("/True", "/False"):
            self.fail("pdfx", "Info Trapped", str(info.get("/Trapped", "missing")), "/True or /False", None)
        if "/ID" not in pdf.trailer:
            self.fail("pdfx", "trailer ID", "missing", "present", None)
        intents = [i for i in pdf.Root.get("/OutputIntents", []) if str(i.get("/S")) == "/GTS_PDFX"]
        if len(intents) != 1:
            self.fail("pdfx", "OutputIntents", f"{len(intents)} GTS_PDFX output intents", "1", None)
        elif "/DestOutputProfile" not in intents[0] or int(intents[0].DestOutputProfile.get("/N", 0)) != 4:
            self.fail("pdfx", "OutputIntents", "no embedded CMYK profile", "DestOutputProfile with N 4", None)
        if self.shop.pdfx == "x-4":
            xmp = pdf.Root.get("/Metadata")
            text = xmp.read_bytes().decode("utf-8", "replace") if xmp is not None else ""
            if f"<pdfxid:GTS_PDFXVersion>{want}<" not in text:
                self.fail("pdfx", "XMP pdfxid:GTS_PDFXVersion", "missing", want, None)

    # --- page level ----------------------------------------------------------------------------
    def page(self, number: int, page) -> None:
        self.page_no = number
        self._boxes(page)
        self.thinnest: tuple[float, int] = (math.inf, 0)
        self._content(page, page.obj.get("/Resources"), (1, 0, 0, 1, 0, 0), set())
        width, count = self.thinnest
        if count:
            self.fail("line", f"{count} stroke(s) thinner than the minimum, thinnest",
                      f"{width:.3f} pt", f"{self.shop.min_line_pt:g} pt")

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

    def _resources(self, resources, kind: str) -> dict:
        if resources is None or kind not in resources:
            return {}
        return dict(resources[kind].items())

    def _content(self, holder, resources, ctm, visiting: set) -> None:
        import pikepdf

        self._fonts(resources)
        self._graphic_states(resources)
        try:
            instructions = pikepdf.parse_content_stream(holder)
        except pikepdf.PdfError as exc:
            self.fail("pdf", "content stream", f"cannot be parsed: {exc}")
            return
        stack: list[tuple] = []
        width = 1.0
        for item in instructions:
            if isinstance(item, pikepdf.ContentStreamInlineImage):
                self._inline_image(item, ctm)
                continue
            operands, op = item.operands, str(item.operator)
            if op == "q":
                stack.append((ctm, width))
            elif op == "Q" and stack:
                ctm, width = stack.pop()
            elif op == "cm" and len(operands) == 6:
                ctm = _multiply([float(v) for v in operands], ctm)
            elif op == "w" and operands:
                width = float(operands[0])
            elif op in STROKES:
                actual = width * _scale(ctm)
                if actual < self.shop.min_line_pt - 1e-6:
                    self.thinnest = (min(self.thinnest[0], actual), self.thinnest[1] + 1)
            elif op in ("rg", "RG") and self.shop.cmyk:
                self.fail("color", f"RGB {'fill' if op == 'rg' else 'stroke'} colour",
                          " ".join(f"{float(v):g}" for v in operands), "CMYK only")
            elif op in ("cs", "CS") and operands:
                self._color_space(operands[0], resources, "colour space")
            elif op == "sh" and operands:
                shading = self._resources(resources, "/Shading").get(str(operands[0]))
                if shading is not None:
                    self._color_space(shading.get("/ColorSpace"), resources, f"shading {operands[0]}")
            elif op == "Do" and operands:
                self._xobject(str(operands[0]), resources, ctm, visiting)

    def _xobject(self, name: str, resources, ctm, visiting: set) -> None:
        xobject = self._resources(resources, "/XObject").get(name)
        if xobject is None:
            return
        subtype = str(xobject.get("/Subtype"))
        if subtype == "/Image":
            self._image(name, xobject, ctm)
        elif subtype == "/Form":
            key = xobject.objgen
            placed = (key, tuple(round(v, 3) for v in ctm))
            if key in visiting or placed in self._walked:  # a form placed alike again holds nothing new
                return
            if len(visiting) >= MAX_FORM_DEPTH:
                self.fail("pdf", f"form {name}", f"forms nested deeper than {MAX_FORM_DEPTH}",
                          f"at most {MAX_FORM_DEPTH}")
                return
            self._walked.add(placed)
            group = xobject.get("/Group")
            if group is not None and str(group.get("/S")) == "/Transparency" and self.shop.pdfx == "x-1a":
                self.fail("transparency", f"form {name}", "transparency group", "none in PDF/X-1a")
            matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
            self._content(xobject, xobject.get("/Resources", resources), _multiply(matrix, ctm), visiting | {key})

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

    def _color_space(self, space, resources, element: str) -> None:
        import pikepdf

        if space is None or not self.shop.cmyk:
            return
        if isinstance(space, pikepdf.Name) and resources is not None:
            named = self._resources(resources, "/ColorSpace").get(str(space))
            if named is not None:
                space = named
        family = str(space[0]) if isinstance(space, pikepdf.Array) and len(space) else str(space)
        if family in RGB_SPACES:
            self.fail("color", element, family[1:], "CMYK only")
        elif family in SPOT_SPACES:
            self.fail("color", element, f"spot colour ({family[1:]})", "CMYK only")
        elif family == "/ICCBased" and int(space[1].get("/N", 0)) == 3:
            self.fail("color", element, "ICC-based RGB", "CMYK only")
        elif family == "/Indexed" and len(space) > 1:
            self._color_space(space[1], resources, f"{element} (palette)")

    def _fonts(self, resources) -> None:
        for name, font in self._resources(resources, "/Font").items():
            if font.objgen in self._seen_fonts and font.objgen != (0, 0):
                continue
            self._seen_fonts.add(font.objgen)
            subtype = str(font.get("/Subtype"))
            if subtype == "/Type3":
                continue
            described = font.DescendantFonts[0] if subtype == "/Type0" else font
            descriptor = described.get("/FontDescriptor")
            if descriptor is None or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                self.fail("font", f"font {name} ({str(font.get('/BaseFont', '?'))[1:]})", "not embedded",
                          "every font embedded")

    def _graphic_states(self, resources) -> None:
        if self.shop.pdfx != "x-1a":
            return
        for name, state in self._resources(resources, "/ExtGState").items():
            for key in ("/CA", "/ca"):
                if key in state and float(state[key]) < 1:
                    self.fail("transparency", f"graphics state {name}", f"{key[1:]} {float(state[key]):g}",
                              "none in PDF/X-1a")
            if "/SMask" in state and str(state["/SMask"]) != "/None":
                self.fail("transparency", f"graphics state {name}", "soft mask", "none in PDF/X-1a")


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
            total = data.sum(axis=2)
            peak = float(total.max())
            report.max_tac.append(round(peak, 1))
            if peak > shop.tac + 1.0:  # one step of 8-bit rounding per plate
                over = float((total > shop.tac + 1.0).mean() * 100)
                report.findings.append(Finding(label, number, "ink", "total ink coverage",
                                               f"{peak:.0f} % (on {over:.1f} % of the page)", f"{shop.tac} %"))
