"""``cardgen preflight``: check print-shop PDFs against a printer's rules."""

from __future__ import annotations

import json
from pathlib import Path

import click

from cardgen.cli import Settings

DEFAULT_PRINTER = "eu-pdfx4"


def rules(shop) -> str:
    """One line of what a printer's record checks."""
    colour = (f"CMYK {shop.condition}, ink at most {shop.tac} %" if shop.cmyk else "RGB")
    pdfx = {"none": "no PDF/X", "x-1a": "PDF/X-1a:2003", "x-4": "PDF/X-4"}[shop.pdfx]
    return (f"{shop.id} ({shop.name}: {pdfx}, {colour}, bleed {shop.bleed_mm:g} mm, safe zone {shop.safe_mm:g} mm, "
            f"images {shop.dpi} ppi, lines {shop.min_line_pt:g} pt)")


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--printer", "printer_id", default=None, metavar="NAME",
              help="The printer whose rules apply (see templates/cards/printers.yaml); without it, "
                   "eu-pdfx4, and the first line says so.")
@click.option("--pages", type=click.IntRange(min=1, max=100000), default=None,
              help="The page count the file must have (default: any even count).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON report per file instead of text.")
@click.pass_obj
def preflight(settings: Settings, files: tuple[Path, ...], printer_id: str, pages: int | None, as_json: bool) -> None:
    """Check each PDF FILE as the print shop would: boxes, bleed and card size, embedded fonts,
    colour in everything that paints (pages, forms, Type3 glyphs, patterns, shadings, soft
    masks, printable annotations) by the printer's PDF/X version, transparency, overprint of
    black text, image resolution, text inside the safe zone, line weight, total ink coverage
    (Ghostscript render), the PDF/X rules of the file (encryption, version, object streams,
    output intent and its profile, Info and XMP keys), page count and order.  Each failure
    names the file, page, element and measured value.

    Exit code 0 when every file passes, 1 when any check fails.
    """
    from cardgen.extras import require
    from cardgen.printing.preflight import preflight as run
    from cardgen.printing.printers import printer

    require("preflight")  # pikepdf: cardgen[print-shops]

    shop = printer(printer_id or DEFAULT_PRINTER)
    if printer_id is None and not as_json:  # say whose rules a bare `cardgen preflight` applies (JSON names it)
        click.echo(f"no --printer: checking against {rules(shop)}")
    reports = [run(path, shop, expected_pages=pages) for path in files]
    if as_json:
        click.echo(json.dumps([r.as_dict() for r in reports], indent=1, ensure_ascii=False))
    else:
        for report in reports:
            for finding in report.findings:
                click.echo(str(finding))
            peak = f", highest ink {max(report.max_tac):.0f} %" if report.max_tac else ""
            state = "ok" if report.ok else f"{len(report.findings)} failure(s)"
            click.secho(f"{report.file}: {report.pages} pages for {shop.id}{peak}: {state}",
                        fg="green" if report.ok else "red")
    if not all(r.ok for r in reports):
        raise SystemExit(1)
