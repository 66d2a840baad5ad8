"""Changing a PO file in a test: one helper for the tests that need a translation set or dropped."""

from __future__ import annotations

from pathlib import Path


def set_translations(po_path: Path, translations: dict[str, str]) -> None:
    """Write ``translations`` (key -> text; "" drops a translation) into the PO file at ``po_path``."""
    from cardgen.i18n.po import read_catalog, render

    catalog = read_catalog(po_path)
    for message in catalog:
        if message.context in translations:
            message.string = translations[message.context]
    po_path.write_bytes(render(catalog))
