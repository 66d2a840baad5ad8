"""What PDF/X asks of a file as a whole, read back for the preflight.

The file-level rules of PDF/X-1a:2003 and PDF/X-4 that a print shop's prepress checks
before looking at a page: no encryption; the PDF version each allows (1.4 for X-1a, 1.6
for X-4) and, for X-1a, none of PDF 1.5's object or cross-reference streams; one
``GTS_PDFX`` output intent whose embedded profile is a CMYK output profile with a
description, under a condition identifier the ICC registry knows (and the printer's own);
the version keys in Info and XMP, Title, dates, Trapped and the trailer ID.  Each rule
broken is one call of ``fail(element, measured, limit)``, naming what is wrong.
"""

from __future__ import annotations

import io
import re
from typing import Callable

PDFX_VERSIONS = {"x-1a": "PDF/X-1:2003", "x-4": "PDF/X-4"}
PDFX_CONFORMANCE = {"x-1a": "PDF/X-1a:2003"}
HIGHEST_PDF = {"x-1a": "1.4", "x-4": "1.6"}
REGISTRY = "http://www.color.org"
#: Characterisations of the ICC registry (www.color.org) a card printer may name.
REGISTERED_CONDITIONS = {f"FOGRA{n}" for n in range(27, 60)} | {
    "CGATS TR 001", "CGATS TR 003", "CGATS TR 005", "CGATS TR 006", "CGATS TR 011", "CGATS TR 012",
    "CGATS TR 013", "CGATS TR 014", "CGATS TR 015", "CGATS TR 016",
    *(f"CGATS21-2-CRPC{n}" for n in range(1, 8)), "JC200103", "JCN2002", "Japan Color 2011 Coated", "IFRA26",
    "IFRA30", "GRACoL2006_Coated1v2", "SWOP2006_Coated3v2", "SWOP2006_Coated5v2"}
_CONDITION_WORDS = re.compile(r"FOGRA\d\d|GRACoL|SWOP|CGATS[ .]?TR[ .]?\d{3}|CRPC\d|Japan Color|IFRA\d\d", re.I)

Fail = Callable[[str, str, str], None]


def check_document(pdf, pdfx: str, condition: str, fail: Fail) -> None:
    """Every file-level rule of ``pdfx`` (x-1a or x-4) for ``pdf`` (an open pikepdf.Pdf)."""
    if pdf.is_encrypted:
        method = str(pdf.encryption.stream_method).rsplit(".", 1)[-1]
        fail("encryption", f"encrypted ({method}, {pdf.encryption.bits} bit)", "no encryption in PDF/X")
    highest = HIGHEST_PDF[pdfx]
    if _version(pdf.pdf_version) > _version(highest):
        fail("PDF version", pdf.pdf_version, f"at most {highest}")
    if pdfx == "x-1a":
        streams = _object_streams(pdf)
        if streams:
            fail("object streams", f"{streams} object or cross-reference stream(s) (PDF 1.5 structure)",
                 "none in PDF/X-1a (PDF 1.4 structure)")
    _keys(pdf, pdfx, fail)
    _output_intent(pdf, condition, fail)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2]) or (0,)


def _object_streams(pdf) -> int:
    import pikepdf

    count = sum(1 for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Type") == "/ObjStm")
    return count + (1 if pdf.trailer.get("/Type") == "/XRef" else 0)


def _xmp_value(text: str, key: str) -> str | None:
    """The value of ``key`` (``pdfxid:GTS_PDFXVersion``) in an XMP packet, element or attribute form."""
    found = (re.search(rf"<{key}>([^<]*)</{key}>", text) or re.search(rf'{key}="([^"]*)"', text))
    return found.group(1).strip() if found else None


def _keys(pdf, pdfx: str, fail: Fail) -> None:
    """The PDF/X keys of Info and XMP, each by name: missing, or the value found against the one wanted."""
    want = PDFX_VERSIONS[pdfx]
    info = pdf.docinfo
    xmp_stream = pdf.Root.get("/Metadata")
    try:
        xmp = xmp_stream.read_bytes().decode("utf-8", "replace") if xmp_stream is not None else None
    except Exception:  # noqa: BLE001 - an unreadable packet is reported as one
        xmp = ""
    info_version = str(info["/GTS_PDFXVersion"]) if "/GTS_PDFXVersion" in info else None
    xmp_version = _xmp_value(xmp, "pdfxid:GTS_PDFXVersion") if xmp else None
    if pdfx == "x-1a" or info_version is not None:
        if info_version is None:
            fail("Info GTS_PDFXVersion", "missing", want)
        elif info_version != want:
            fail("Info GTS_PDFXVersion", repr(info_version), want)
    if pdfx == "x-4" or xmp_version is not None:
        if xmp is None:
            fail("XMP metadata", "missing", f"a packet with pdfxid:GTS_PDFXVersion {want}")
        elif xmp_version is None:
            fail("XMP pdfxid:GTS_PDFXVersion", "missing", want)
        elif xmp_version != want:
            fail("XMP pdfxid:GTS_PDFXVersion", repr(xmp_version), want)
    if pdfx in PDFX_CONFORMANCE:
        conformance = PDFX_CONFORMANCE[pdfx]
        found = str(info["/GTS_PDFXConformance"]) if "/GTS_PDFXConformance" in info else None
        if found != conformance:
            fail("Info GTS_PDFXConformance", "missing" if found is None else repr(found), conformance)
    if not str(info.get("/Title", "")).strip():
        fail("Info Title", "missing" if "/Title" not in info else "empty", "the document's title")
    for key in ("/CreationDate", "/ModDate"):
        if not re.match(r"D:\d{4}", str(info.get(key, ""))):
            fail(f"Info {key[1:]}", repr(str(info[key])) if key in info else "missing", "a PDF date")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        fail("Info Trapped", str(info.get("/Trapped", "missing")), "/True or /False")
    if "/ID" not in pdf.trailer:
        fail("trailer ID", "missing", "present")


def _output_intent(pdf, condition: str, fail: Fail) -> None:
    """One GTS_PDFX intent, its profile a parseable CMYK output profile, its identifier registered."""
    intents = [i for i in pdf.Root.get("/OutputIntents", []) if str(i.get("/S")) == "/GTS_PDFX"]
    if len(intents) != 1:
        fail("OutputIntents", f"{len(intents)} GTS_PDFX output intents", "1")
        return
    intent = intents[0]
    identifier = str(intent.get("/OutputConditionIdentifier", "")).strip()
    registry = str(intent.get("/RegistryName", "")).strip().rstrip("/")
    if not identifier:
        fail("OutputConditionIdentifier", "missing", condition)
    elif identifier != condition:
        fail("OutputConditionIdentifier", repr(identifier), f"{condition} (this printer's condition)")
    elif registry == REGISTRY and identifier not in REGISTERED_CONDITIONS:
        fail("OutputConditionIdentifier", f"{identifier!r} is not a name of the ICC registry", REGISTRY)
    if "/DestOutputProfile" not in intent:
        if registry != REGISTRY or identifier not in REGISTERED_CONDITIONS:
            fail("OutputIntents", "no embedded profile", "DestOutputProfile (CMYK)")
        return
    stream = intent.DestOutputProfile
    try:
        data = stream.read_bytes()
    except Exception as exc:  # noqa: BLE001 - an undecodable stream is a broken profile
        fail("output profile", f"cannot be read: {exc}", "an ICC output profile")
        return
    problem, description, space, device = _icc(data)
    if problem:
        fail("output profile", problem, "an ICC output profile (CMYK)")
        return
    if space != "CMYK" or device != "prtr":
        fail("output profile", f"'{description}': {space.strip()} {_DEVICES.get(device, device)} profile",
             "a CMYK output (printer) profile")
        return
    if int(stream.get("/N", 0)) != 4:
        fail("output profile", f"/N {stream.get('/N')}", "/N 4")
    named = {m.upper().replace(" ", "").replace(".", "") for m in _CONDITION_WORDS.findall(description)}
    wanted = condition.upper().replace(" ", "").replace(".", "")
    if not description:
        fail("output profile", "no description", "a description naming its condition")
    elif named and not any(n in wanted or wanted in n for n in named):
        fail("output profile", f"description '{description}' names another condition", condition)


_DEVICES = {"mntr": "display", "scnr": "input", "prtr": "output", "spac": "colour space", "link": "device link",
            "abst": "abstract", "nmcl": "named colour"}


def _icc(data: bytes) -> tuple[str, str, str, str]:
    """(problem or "", description, colour space, device class) of an ICC profile's bytes."""
    if len(data) < 132 or data[36:40] != b"acsp":
        return f"not an ICC profile ({len(data)} bytes, no 'acsp' signature)", "", "", ""
    declared = int.from_bytes(data[:4], "big")
    if declared != len(data):
        return f"ICC header says {declared} bytes, the stream holds {len(data)}", "", "", ""
    space = data[16:20].decode("latin-1")
    device = data[12:16].decode("latin-1")
    from PIL import ImageCms

    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
        description = (profile.profile.profile_description or "").strip()
    except (OSError, ImageCms.PyCMSError) as exc:
        return f"not a readable ICC profile: {exc}", "", space, device
    return "", description, space, device
