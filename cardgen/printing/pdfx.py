"""PDF/X-1a:2003 and PDF/X-4 from a CMYK reportlab PDF, with pikepdf.

reportlab writes DeviceCMYK content with TrimBox and BleedBox but knows
nothing of PDF/X; this adds what the standards ask beyond that: the output
intent (``/S /GTS_PDFX`` with the embedded ICC profile), ``GTS_PDFXVersion``
(and ``GTS_PDFXConformance`` for X-1a) in Info, ``Trapped`` False, XMP
metadata (for X-4 with ``pdfxid:GTS_PDFXVersion``), a trailer ``/ID``, and
the PDF version each allows (1.4 for X-1a:2003, 1.6 for X-4).  The ID is
qpdf's digest of the content and the XMP dates from the Info dates reportlab
took from SOURCE_DATE_EPOCH, so rebuilds stay byte-identical.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from xml.sax.saxutils import escape

from cardgen.errors import RenderError

VERSIONS = {"x-1a": "PDF/X-1:2003", "x-4": "PDF/X-4"}
CONFORMANCE = {"x-1a": "PDF/X-1a:2003"}
PDF_VERSIONS = {"x-1a": "1.4", "x-4": "1.6"}
PRODUCER = "cardgen (reportlab, pikepdf)"


def _iso_date(pdf_date: str) -> str:
    """``D:20000101000000+00'00'`` -> ``2000-01-01T00:00:00+00:00``."""
    m = re.match(r"D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(?:([+-])(\d\d)'?(\d\d)'?|Z)?", pdf_date)
    if not m:
        raise RenderError(f"unexpected PDF date {pdf_date!r}")
    y, mo, d, h, mi, s, sign, tzh, tzm = m.groups()
    zone = f"{sign}{tzh}:{tzm}" if sign else "Z"
    return f"{y}-{mo}-{d}T{h}:{mi}:{s}{zone}"


def _xmp(version: str, info: dict[str, str], created: str, modified: str, doc_id: str,
         conformance: str | None) -> bytes:
    """The XMP packet, saying what Info says (PDF/X wants the two to agree)."""
    conformance_line = (f"\n   <pdfxid:GTS_PDFXConformance>{conformance}</pdfxid:GTS_PDFXConformance>"
                        if conformance else "")
    title = info.get("/Title", "cards")
    author_line = (f"\n   <dc:creator><rdf:Seq><rdf:li>{escape(info['/Author'])}</rdf:li></rdf:Seq></dc:creator>"
                   if "/Author" in info else "")
    subject_line = (f"\n   <dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">{escape(info['/Subject'])}"
                    "</rdf:li></rdf:Alt></dc:description>" if "/Subject" in info else "")
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>{author_line}{subject_line}
   <xmp:CreateDate>{created}</xmp:CreateDate>
   <xmp:ModifyDate>{modified}</xmp:ModifyDate>
   <xmp:MetadataDate>{modified}</xmp:MetadataDate>
   <xmp:CreatorTool>{escape(info.get("/Creator", "cardgen"))}</xmp:CreatorTool>
   <pdf:Producer>{escape(info["/Producer"])}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>uuid:{doc_id}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{doc_id}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>{conformance_line}
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>""".encode("utf-8")


def make_pdfx(data: bytes, pdfx: str, profile: Path, condition: str) -> bytes:
    """``data`` (a CMYK PDF with trim and bleed boxes) made PDF/X ``pdfx`` (x-1a or x-4)."""
    import hashlib
    import uuid

    import pikepdf

    from cardgen.color.cmyk import CONDITION_NAMES

    if pdfx not in VERSIONS:
        raise RenderError(f"unknown PDF/X version '{pdfx}'; expected one of: {', '.join(VERSIONS)}")
    icc = profile.read_bytes()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        info = pdf.docinfo
        info["/Producer"] = pikepdf.String(PRODUCER)
        if "/Keywords" in info and not str(info["/Keywords"]):
            del info["/Keywords"]  # reportlab's empty keywords: nothing for the XMP to repeat
        created = str(info.get("/CreationDate", "D:20000101000000+00'00'"))
        modified = str(info.get("/ModDate", created))
        info["/ModDate"] = pikepdf.String(modified)
        info["/GTS_PDFXVersion"] = pikepdf.String(VERSIONS[pdfx])
        if pdfx in CONFORMANCE:
            info["/GTS_PDFXConformance"] = pikepdf.String(CONFORMANCE[pdfx])
        info["/Trapped"] = pikepdf.Name("/False")
        profile_stream = pikepdf.Stream(pdf, icc)
        profile_stream["/N"] = 4
        pdf.Root["/OutputIntents"] = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(condition),
            OutputCondition=pikepdf.String(CONDITION_NAMES.get(condition, condition)),
            RegistryName=pikepdf.String("http://www.color.org"),
            Info=pikepdf.String(f"{condition}; profile {profile.name}"),
            DestOutputProfile=profile_stream)])
        if pdfx == "x-1a":
            _hard_masks(pdf)
        for page in pdf.pages:
            if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj:
                raise RenderError("a PDF/X page needs a TrimBox and a BleedBox")
        # one ID for the document and the XMP, from what the file holds
        digest = hashlib.sha256(data + icc + pdfx.encode()).digest()
        doc_id = str(uuid.UUID(bytes=digest[:16]))
        texts = {str(k): str(v) for k, v in info.items() if isinstance(v, pikepdf.String)}
        xmp = pikepdf.Stream(pdf, _xmp(VERSIONS[pdfx], texts, _iso_date(created), _iso_date(modified), doc_id,
                                       CONFORMANCE.get(pdfx)))
        xmp["/Type"] = pikepdf.Name.Metadata
        xmp["/Subtype"] = pikepdf.Name.XML
        pdf.Root["/Metadata"] = xmp
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, fix_metadata_version=False, force_version=PDF_VERSIONS[pdfx],
                 object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 compress_streams=True, stream_decode_level=pikepdf.StreamDecodeLevel.none)
    return out.getvalue()


#: Alpha at or above this (of 255) is opaque in a hard mask.
MASK_THRESHOLD = 128


def _hard_masks(pdf) -> None:
    """Every soft mask (SMask) of an image made a hard one (/Mask, a 1-bit stencil).

    PDF/X-1a allows no transparency, so an image's alpha cannot blend; an explicit
    mask can still cut it out: a pixel at least half opaque is painted, the others
    leave what lies under the image.  Soft edges become hard, which on a card is a
    shape cut from its background, as intended.
    """
    import numpy as np
    import pikepdf

    for obj in list(pdf.objects):
        if not isinstance(obj, pikepdf.Stream) or obj.get("/Subtype") != "/Image" or "/SMask" not in obj:
            continue
        smask = obj["/SMask"]
        width, height = int(smask["/Width"]), int(smask["/Height"])
        if int(smask.get("/BitsPerComponent", 8)) != 8:
            raise RenderError("an image's soft mask is not 8-bit; it cannot be made a hard mask for PDF/X-1a")
        alpha = np.frombuffer(smask.read_bytes(), dtype=np.uint8)[:width * height].reshape(height, width)
        # in a stencil mask a 1 bit leaves the page unpainted (Decode [0 1])
        bits = np.packbits(alpha < MASK_THRESHOLD, axis=1)
        mask = pikepdf.Stream(pdf, bits.tobytes())
        mask["/Type"] = pikepdf.Name.XObject
        mask["/Subtype"] = pikepdf.Name.Image
        mask["/ImageMask"] = True
        mask["/Width"] = width
        mask["/Height"] = height
        mask["/BitsPerComponent"] = 1
        obj["/Mask"] = mask
        del obj["/SMask"]
