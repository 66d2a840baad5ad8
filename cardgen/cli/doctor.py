"""``cardgen doctor``: what cardgen uses, found or missing, and how to install what is missing."""

from __future__ import annotations

import json
import sys

import click


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
def doctor(as_json: bool) -> None:
    """One line per dependency: Python packages, the libraries WeasyPrint loads (Pango, HarfBuzz),
    Ghostscript, poppler, qpdf, Chromium and the cache folder; each missing one with the command
    that installs it. Exit 1 when something a plain 'cardgen build' needs is missing."""
    from cardgen.project.doctor import PLATFORMS, checks, exit_code

    found = checks()
    code = exit_code(found)
    if as_json:
        click.echo(json.dumps({"ok": code == 0, "checks": [check.as_dict() for check in found]}, indent=2))
        sys.exit(code)
    width = max(len(check.name) for check in found)
    for check in found:
        colour = "green" if check.ok else ("red" if check.required else "yellow")
        line = f"{click.style(f'{check.status:8}', fg=colour)} {check.name:{width}}  {check.version or '-':14} " \
               f"{check.needed_for}"
        shown = check.detail and (not check.ok or check.kind in {"program", "folder"})
        click.echo(line + (f"  ({check.detail})" if shown else ""))
        for platform in ("pip", "all", *PLATFORMS):
            if platform in check.install:
                label = "" if platform in {"pip", "all"} else f"{platform + ':':15}"
                click.echo(f"{'':{width + 10}}{label}{check.install[platform]}")
    if code:
        missing = ", ".join(check.name for check in found if check.required and not check.ok)
        click.secho(f"cardgen build cannot run here: {missing} missing (install commands above)", fg="red", bold=True)
    else:
        optional = [check.name for check in found if not check.ok]
        rest = f"; missing for other commands: {', '.join(optional)}" if optional else ""
        click.secho(f"everything a build needs is here{rest}", fg="green", bold=True)
    sys.exit(code)
