"""Reading PDFs back: fonts, boxes, text."""

from __future__ import annotations

import io

from pypdf import PdfReader


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def fonts_of(pdf: PdfReader) -> list[tuple[str, bool]]:
    """(base font name, embedded?) of every font in every page and form."""
    found: list[tuple[str, bool]] = []
    seen: set = set()

    def walk(resources) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            font = ref.get_object()
            if id(font) in seen:
                continue
            seen.add(id(font))
            desc = font.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in font:
                desc = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            embedded = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found.append((str(font.get("/BaseFont")), embedded))
        for xobj in (resources.get("/XObject") or {}).values():
            xobj = xobj.get_object()
            key = ("x", id(xobj))
            if key in seen:
                continue
            seen.add(key)
            walk(xobj.get("/Resources"))

    for page in pdf.pages:
        walk(page.get("/Resources"))
    return found


def box(page, name: str) -> tuple[float, ...]:
    value = page.get(name)
    assert value is not None, f"page has no {name}"
    numbers = tuple(float(v) for v in value.get_object())
    assert len(numbers) == 4, f"{name} must have 4 numbers, has {numbers}"
    return numbers


def inside(inner, outer, tolerance: float = 0.01) -> bool:
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance)
