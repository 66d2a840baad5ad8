"""The preflight's corpus of damaged print-shop PDFs, made from our own good files.

Each :class:`Damage` takes a good shop PDF of ``tests/data/decks/quiz`` (its DriveThruCards
PDF/X-1a file of the gold deck, or its PDF/X-4 file for the European printer), breaks one rule
the way a hand-edited or badly exported file would, and says what ``cardgen preflight`` must
answer: the check, the page (None: the file), a part of the element and of the measured value.
The classes are those of issue #27 (twelve the preflight once passed, and those it caught);
add one here when a new way of breaking a file turns up.

``python tests/damaged_pdfs.py [FOLDER]`` (or ``tools/make-damaged-pdfs``) writes the corpus
into ``tests/data/preflight/`` (not committed: the files are made again from the sources,
each holds a 130 kB ICC profile); the tests make it in a session fixture.
"""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "preflight"


@dataclass(frozen=True)
class Damage:
    name: str
    base: str  # "x-1a": DriveThruCards file (back, face, back, face ...); "x-4": eu-pdfx4 (face, back ...)
    printer: str  # the record it is checked against
    damage: Callable  # (pikepdf.Pdf) -> dict of save options, or None
    check: str
    page: int | None
    element: str
    measured: str


# --- helpers: draw onto a page of a good file ------------------------------------------------------

def _stream(pdf, data: bytes, **keys):
    import pikepdf

    stream = pikepdf.Stream(pdf, data)
    for key, value in keys.items():
        stream[f"/{key}"] = value
    return stream


def _resource(pdf, page_no: int, kind: str, name: str, value) -> None:
    """Name ``value`` in page ``page_no``'s resources (a copy of the kind's dictionary: reportlab
    shares some between pages)."""
    import pikepdf

    page = pdf.pages[page_no - 1].obj
    resources = page.get("/Resources")
    resources = pikepdf.Dictionary(dict(resources.items())) if resources is not None else pikepdf.Dictionary()
    kind_dict = resources.get(f"/{kind}")
    kind_dict = pikepdf.Dictionary(dict(kind_dict.items())) if kind_dict is not None else pikepdf.Dictionary()
    kind_dict[f"/{name}"] = value
    resources[f"/{kind}"] = kind_dict
    page["/Resources"] = resources


def _draw(pdf, page_no: int, code: bytes) -> None:
    pdf.pages[page_no - 1].contents_add(_stream(pdf, b"q\n" + code + b"\nQ\n"), prepend=False)


def _card_font(pdf):
    """An embedded font of the cards (from the first card form's resources)."""
    for page in pdf.pages:
        for xobject in page.obj.Resources.get("/XObject", {}).values():
            fonts = xobject.get("/Resources", {}).get("/Font", {})
            for font in fonts.values():
                return font
    raise AssertionError("the good file has no font")


def _cmyk_image(pdf, size: int, colour=(0, 200, 0, 0)):
    import pikepdf

    return _stream(pdf, bytes(colour) * size * size, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                   Width=size, Height=size, ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8)


# --- the damages --------------------------------------------------------------------------------

def type3_rgb_glyph(pdf):
    import pikepdf

    glyph = _stream(pdf, b"500 0 d0\n1 0 0 rg\n0 0 500 500 re f")
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3,
                              FontBBox=[0, 0, 500, 500], FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
                              CharProcs=pikepdf.Dictionary(square=glyph),
                              Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=[97, pikepdf.Name.square]),
                              FirstChar=97, LastChar=97, Widths=[500])
    _resource(pdf, 2, "Font", "T3", pdf.make_indirect(font))
    _draw(pdf, 2, b"0.2 0.2 0.2 0 k BT /T3 12 Tf 80 120 Td (a) Tj ET")


def lab_fill(pdf):
    import pikepdf

    _resource(pdf, 2, "ColorSpace", "CSLab", pikepdf.Array([pikepdf.Name.Lab, pikepdf.Dictionary(
        WhitePoint=[0.9505, 1, 1.089], Range=[-100, 100, -100, 100])]))
    _draw(pdf, 2, b"/CSLab cs 50 20 30 sc 40 60 30 30 re f")


def icc_cmyk_space(pdf):
    import pikepdf

    profile = pdf.Root.OutputIntents[0].DestOutputProfile
    _resource(pdf, 2, "ColorSpace", "CSicc", pikepdf.Array([pikepdf.Name.ICCBased, profile]))
    _draw(pdf, 2, b"/CSicc cs 0.1 0.5 0.8 0 sc 40 60 30 30 re f")


def multiply_group(pdf):
    import pikepdf

    pdf.pages[1].obj["/Group"] = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceCMYK)
    _resource(pdf, 2, "ExtGState", "GSm", pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, BM=pikepdf.Name.Multiply))
    _draw(pdf, 2, b"/GSm gs 0 0.6 0.6 0 k 40 60 60 60 re f")


def aes_encrypted(pdf):
    import pikepdf

    return {"encryption": pikepdf.Encryption(owner="prepress", user="", aes=True, R=6)}


def srgb_output_profile(pdf):
    from PIL import ImageCms

    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    pdf.Root.OutputIntents[0].DestOutputProfile.write(srgb)  # /N 4 left as it was


def garbage_output_profile(pdf):
    pdf.Root.OutputIntents[0].DestOutputProfile.write(bytes(range(256)) * 40)


def pdf17_object_streams(pdf):
    import pikepdf

    return {"object_stream_mode": pikepdf.ObjectStreamMode.generate, "force_version": "1.7"}


def rgb_annotation(pdf):
    import pikepdf

    appearance = _stream(pdf, b"0 0 1 rg 0 0 40 40 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                         BBox=[0, 0, 40, 40])
    annot = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Square, Rect=[60, 80, 100, 120],
                               F=4, AP=pikepdf.Dictionary(N=appearance))
    pdf.pages[1].obj["/Annots"] = pikepdf.Array([pdf.make_indirect(annot)])


def rgb_shading_pattern(pdf):
    import pikepdf

    shading = pikepdf.Dictionary(ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[0, 0, 100, 0],
                                 Function=pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 0, 0],
                                                             C1=[0, 0, 1], N=1))
    pattern = pikepdf.Dictionary(Type=pikepdf.Name.Pattern, PatternType=2, Shading=shading)
    _resource(pdf, 2, "Pattern", "P0", pdf.make_indirect(pattern))
    _draw(pdf, 2, b"/Pattern cs /P0 scn 40 60 60 60 re f")


def rgb_image_in_tiling_pattern(pdf):
    import pikepdf

    image = _stream(pdf, bytes((20, 200, 60)) * 60 * 60, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                    Width=60, Height=60, ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)
    cell = _stream(pdf, b"q 10 0 0 10 0 0 cm /Im0 Do Q", Type=pikepdf.Name.Pattern, PatternType=1, PaintType=1,
                   TilingType=1, BBox=[0, 0, 10, 10], XStep=10, YStep=10,
                   Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image)))
    _resource(pdf, 2, "Pattern", "P1", cell)
    _draw(pdf, 2, b"/Pattern cs /P1 scn 40 60 60 60 re f")


def back_rebound_to_face(pdf):
    """Page 7 (a back) keeps its content bytes; its form name now points at a face's form."""
    import pikepdf

    back, face = pdf.pages[6].obj, pdf.pages[7].obj
    (name,) = list(back.Resources.XObject.keys())
    (face_form,) = list(face.Resources.XObject.values())
    resources = pikepdf.Dictionary(dict(back.Resources.items()))
    resources["/XObject"] = pikepdf.Dictionary({name: face_form})
    back["/Resources"] = resources


def pdfx_keys_removed(pdf):
    del pdf.docinfo["/GTS_PDFXConformance"]
    del pdf.docinfo["/Title"]


def rgb_fill(pdf):
    _draw(pdf, 1, b"0.9 0.1 0.1 rg 40 60 30 30 re f")


def rgb_image(pdf):
    import pikepdf

    image = _stream(pdf, bytes((20, 200, 60)) * 400 * 400, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                    Width=400, Height=400, ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)
    _resource(pdf, 1, "XObject", "ImRGB", image)
    _draw(pdf, 1, b"72 0 0 72 40 60 cm /ImRGB Do")


def low_resolution_image(pdf):
    _resource(pdf, 1, "XObject", "ImLow", _cmyk_image(pdf, 20))
    _draw(pdf, 1, b"72 0 0 72 40 60 cm /ImLow Do")


def unembedded_font(pdf):
    import pikepdf

    helvetica = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                   BaseFont=pikepdf.Name.Helvetica)
    _resource(pdf, 1, "Font", "FH", pdf.make_indirect(helvetica))
    _draw(pdf, 1, b"/GSop gs 0 0 0 1 k BT /FH 9 Tf 60 120 Td (Helvetica) Tj ET")
    _overprint_state(pdf, 1)


def _overprint_state(pdf, page_no: int) -> None:
    import pikepdf

    _resource(pdf, page_no, "ExtGState", "GSop", pikepdf.Dictionary(OP=True, op=True, OPM=1))


def short_bleed(pdf):
    for page in pdf.pages[:1]:
        trim = [float(v) for v in page.obj.TrimBox]
        box = [trim[0] - 2.835, trim[1] - 2.835, trim[2] + 2.835, trim[3] + 2.835]
        page.obj["/BleedBox"] = box
        page.obj["/MediaBox"] = box


def hairline(pdf):
    _draw(pdf, 1, b"0 0 0 1 K 0.1 w 40 100 m 140 100 l S")


def text_in_bleed(pdf):
    _resource(pdf, 1, "Font", "FB", _card_font(pdf))
    _overprint_state(pdf, 1)
    _draw(pdf, 1, b"/GSop gs 0 0 0 1 k BT /FB 8 Tf 1 120 Td (Bleedword) Tj ET")


def ink_over_limit(pdf):
    _draw(pdf, 1, b"1 1 1 1 k 40 60 60 60 re f")


def see_through(pdf):
    import pikepdf

    _resource(pdf, 2, "ExtGState", "GSa", pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0.5))
    _draw(pdf, 2, b"/GSa gs 0 1 0 0 k 40 60 30 30 re f")


def spot_colour(pdf):
    import pikepdf

    tint = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0, 0.8, 0.9, 0], N=1)
    _resource(pdf, 1, "ColorSpace", "CSspot", pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name("/PANTONE 185 C"),
                                                             pikepdf.Name.DeviceCMYK, tint]))
    _draw(pdf, 1, b"/CSspot cs 1 sc 40 60 30 30 re f")


def rgb_alternate_of_spot(pdf):
    import pikepdf

    tint = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 1, 1], C1=[1, 0, 0], N=1)
    _resource(pdf, 1, "ColorSpace", "CSspot", pikepdf.Array([pikepdf.Name.Separation, pikepdf.Name.Red,
                                                             pikepdf.Name.DeviceRGB, tint]))
    _draw(pdf, 1, b"/CSspot cs 1 sc 40 60 30 30 re f")


def rgb_soft_mask(pdf):
    import pikepdf

    group = _stream(pdf, b"0 1 0 rg 0 0 300 300 re f", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                    BBox=[0, 0, 300, 300], Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency,
                                                                    CS=pikepdf.Name.DeviceGray))
    state = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState,
                               SMask=pikepdf.Dictionary(Type=pikepdf.Name.Mask, S=pikepdf.Name.Luminosity, G=group))
    _resource(pdf, 1, "ExtGState", "GSmask", state)
    _draw(pdf, 1, b"/GSmask gs 0 1 0 0 k 40 60 30 30 re f")


def missing_trim_box(pdf):
    del pdf.pages[1].obj["/TrimBox"]


def missing_output_intent(pdf):
    del pdf.Root["/OutputIntents"]


def other_condition(pdf):
    import pikepdf

    pdf.Root.OutputIntents[0]["/OutputConditionIdentifier"] = pikepdf.String("CGATS TR 001")


def odd_page_count(pdf):
    del pdf.pages[-1]


def black_text_knocks_out(pdf):
    _resource(pdf, 2, "Font", "FB", _card_font(pdf))
    _draw(pdf, 2, b"0 0 0 1 k BT /FB 9 Tf 60 120 Td (Knockout) Tj ET")


def nothing(pdf):
    """The good X-1a file, checked against the X-4 printer's rules."""


CORPUS_CLASSES: tuple[Damage, ...] = (
    # the twelve classes the preflight passed before issue #27
    Damage("type3-rgb-glyph", "x-1a", "drivethrucards", type3_rgb_glyph, "color", 2, "RGB fill colour (in Type3 font /T3 glyph square)", "1 0 0"),
    Damage("lab-fill-x1a", "x-1a", "drivethrucards", lab_fill, "color", 2, "colour space", "Lab"),
    Damage("iccbased-cmyk-x1a", "x-1a", "drivethrucards", icc_cmyk_space, "color", 2, "colour space",
           "ICC-based CMYK"),
    Damage("multiply-group-x1a", "x-1a", "drivethrucards", multiply_group, "transparency", 2, "page",
           "transparency group"),
    Damage("aes-encrypted", "x-1a", "drivethrucards", aes_encrypted, "pdfx", None, "encryption", "aesv3, 256 bit"),
    Damage("srgb-output-profile", "x-1a", "drivethrucards", srgb_output_profile, "pdfx", None, "output profile",
           "RGB display profile"),
    Damage("garbage-output-profile", "x-1a", "drivethrucards", garbage_output_profile, "pdfx", None,
           "output profile", "not an ICC profile"),
    Damage("pdf17-object-streams", "x-1a", "drivethrucards", pdf17_object_streams, "pdfx", None, "object streams",
           "object or cross-reference stream"),
    Damage("rgb-annotation-appearance", "x-1a", "drivethrucards", rgb_annotation, "color", 2,
           "RGB fill colour (in Square annotation appearance)", "0 0 1"),
    Damage("rgb-shading-pattern", "x-1a", "drivethrucards", rgb_shading_pattern, "color", 2, "shading pattern /P0",
           "DeviceRGB"),
    Damage("rgb-image-in-tiling-pattern", "x-1a", "drivethrucards", rgb_image_in_tiling_pattern, "color", 2,
           "image /Im0 (in tiling pattern /P1)", "DeviceRGB"),
    Damage("back-rebound-to-face-form", "x-1a", "drivethrucards", back_rebound_to_face, "pages", 7, "page order",
           "2 different pages where the odd pages should all be the deck's back (page 7 unlike the other 3)"),
    Damage("pdfx-conformance-and-title-removed", "x-1a", "drivethrucards", pdfx_keys_removed, "pdfx", None,
           "Info GTS_PDFXConformance", "missing"),
    # the wrong message of #27: an X-1a file checked as X-4 is told the version it has
    Damage("x1a-checked-as-x4", "x-1a", "eu-pdfx4", nothing, "pdfx", None, "XMP pdfxid:GTS_PDFXVersion",
           "'PDF/X-1:2003'"),
    # classes caught before, kept so that they stay caught
    Damage("rgb-fill", "x-4", "eu-pdfx4", rgb_fill, "color", 1, "RGB fill colour", "0.9 0.1 0.1"),
    Damage("rgb-image", "x-4", "eu-pdfx4", rgb_image, "color", 1, "image /ImRGB", "DeviceRGB"),
    Damage("low-resolution-image", "x-4", "eu-pdfx4", low_resolution_image, "image", 1, "image /ImLow", "20 ppi"),
    Damage("unembedded-font", "x-4", "eu-pdfx4", unembedded_font, "font", 1, "Helvetica", "not embedded"),
    Damage("short-bleed", "x-4", "eu-pdfx4", short_bleed, "boxes", 1, "bleed", "1.00 mm"),
    Damage("hairline", "x-4", "eu-pdfx4", hairline, "line", 1, "thinnest", "0.100 pt"),
    Damage("text-in-bleed", "x-4", "eu-pdfx4", text_in_bleed, "safe-zone", 1, "text 'Bleedword'", "in the bleed"),
    Damage("ink-over-limit", "x-4", "eu-pdfx4", ink_over_limit, "ink", 1, "total ink coverage", "400 %"),
    Damage("alpha-x1a", "x-1a", "drivethrucards", see_through, "transparency", 2, "graphics state /GSa", "ca 0.5"),
    Damage("spot-colour", "x-4", "eu-pdfx4", spot_colour, "color", 1, "colour space", "spot colour (Separation"),
    Damage("rgb-alternate-of-spot", "x-4", "eu-pdfx4", rgb_alternate_of_spot, "color", 1, "alternate of Separation",
           "DeviceRGB"),
    Damage("rgb-soft-mask", "x-4", "eu-pdfx4", rgb_soft_mask, "color", 1,
           "RGB fill colour (in soft mask of graphics state /GSmask)", "0 1 0"),
    Damage("missing-trim-box", "x-4", "eu-pdfx4", missing_trim_box, "boxes", 2, "TrimBox", "missing"),
    Damage("missing-output-intent", "x-4", "eu-pdfx4", missing_output_intent, "pdfx", None, "OutputIntents",
           "0 GTS_PDFX output intents"),
    Damage("other-output-condition", "x-4", "eu-pdfx4", other_condition, "pdfx", None, "OutputConditionIdentifier",
           "'CGATS TR 001'"),
    Damage("odd-page-count", "x-4", "eu-pdfx4", odd_page_count, "pages", None, "page count", "27 pages"),
    Damage("black-text-knocks-out", "x-4", "eu-pdfx4", black_text_knocks_out, "overprint", 2,
           "black-only text", "knocks out"),
)


def good_files() -> dict[str, bytes]:
    """The good files the damages start from: quiz's gold deck for DriveThruCards (8 pages, back
    first) and quiz for the European printer (8 pages, face first)."""
    from cardgen.content import load_games
    from cardgen.printing.printers import printer
    from cardgen.printing.shop import render_printer_pdfs

    quiz = load_games(ROOT / "tests" / "data" / "decks", ["quiz"])[0]
    dtc = {deck: data for deck, data, _, _ in render_printer_pdfs(quiz, "en", printer("drivethrucards"))}
    (_, eu, _, _), = render_printer_pdfs(quiz, "en", printer("eu-pdfx4"))
    return {"x-1a": dtc["gold"], "x-4": eu}


def make(damage: Damage, good: dict[str, bytes]) -> bytes:
    """``damage`` done to its good file."""
    import pikepdf

    with pikepdf.open(io.BytesIO(good[damage.base])) as pdf:
        options = damage.damage(pdf) or {}
        out = io.BytesIO()
        pdf.save(out, **{"deterministic_id": "encryption" not in options, **options})
    return out.getvalue()


def write_corpus(folder: Path = CORPUS) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    good = good_files()
    written = []
    for damage in CORPUS_CLASSES:
        path = folder / f"{damage.name}.pdf"
        path.write_bytes(make(damage, good))
        written.append(path)
    return written


if __name__ == "__main__":
    for written in write_corpus(Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS):
        print(written)
