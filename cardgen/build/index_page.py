"""``output/index.html``: a static page of everything in the output folder, written by every build.

The page is made from the manifest's entries alone (this build's files and those kept from
earlier builds), plus each game's composition table when its content can still be loaded, so
it describes exactly the files the manifest lists.  Per game and language it shows:

* a thumbnail of every card face and back: the shop PNGs of the build (one printer's when
  several printers' PNGs are there, the first by name), shown small by the browser
  (``width`` attribute, ``loading="lazy"``) rather than written again as thumbnails.
  Making thumbnails would mean decoding and re-encoding every PNG at commit time (hundreds
  per build, seconds in one process); the shop PNGs are already there, and a lazy image
  costs the browser nothing until it is scrolled into view.  Identical pictures (the copies
  of a card) are shown once, with their count;
* the composition (group, kind, declared, found) of the game;
* a link to every file of the manifest with its kind, variant (ink mode, printer, tabletop
  format), paper, pages and cards (the shop PNGs in a folded list per printer).

Builds add to the output folder (:mod:`cardgen.build.run`): a plain build, ``--printer``,
``--tabletop`` and ``--ink`` builds leave their files side by side, so the page opens with
a table of every kind of file present and its variants, the games and languages that have
it and how many files.

Everything is relative (``href="head-game/en/..."``), nothing comes from the network (no fonts,
scripts or style sheets from elsewhere: the style is inline), and the page holds no date, so
the same manifest gives the same bytes.  The build writes the page into its staging folder and
commits it with the other files (:func:`cardgen.build.build`), so a failed build leaves the old
page.  It is not listed in the manifest: like ``manifest.json`` itself it describes the output
folder rather than being one of a game's files, and every reader of the manifest (the build's
own stale-file and kept-entry logic, scripts grouping by game and language) expects entries of
a game.  The output folder thus holds the manifest's files plus ``manifest.json`` and ``index.html``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from html import escape
from pathlib import Path
from typing import Callable, Iterable

INDEX_PAGE = "index.html"
THUMBNAIL_WIDTH = 120  # CSS pixels; a poker card is then about 168 high

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { margin-top: 1.2em; }
table { border-collapse: collapse; margin: 0.5em 0; } td, th { border: 1px solid #ddd; padding: 2px 8px; text-align: left; }
td.n { text-align: right; } .bad { color: #b00; font-weight: bold; }
.cards { display: flex; flex-wrap: wrap; gap: 8px; }
figure { margin: 0; text-align: center; font-size: 0.75em; width: %dpx; }
figure img { border: 1px solid #ccc; display: block; width: %dpx; height: auto; }
.note { color: #666; }
""" % (THUMBNAIL_WIDTH, THUMBNAIL_WIDTH)

CompositionRows = list[tuple[str, str, int, int]]  # group, kind ("" for the group's own row), declared, found


def render_index(entries: list[dict], composition_of: Callable[[str], CompositionRows | None]) -> str:
    """The page's HTML for the manifest ``entries``; ``composition_of(game)`` gives the game's
    composition rows, or None when its content is not at hand (the page then says so)."""
    by_game: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for entry in entries:
        by_game[str(entry.get("game") or "")][str(entry.get("lang") or "")].append(entry)
    total = len(entries)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>cardgen output</title>",
        f"<style>{STYLE}</style></head><body><main>",
        "<h1>cardgen output</h1>",
        f'<p>{total} file(s) in <a href="manifest.json">manifest.json</a>, '
        f"{len(by_game)} game(s): {', '.join(_game_link(g) for g in sorted(by_game))}.</p>",
        *_overview(entries),
    ]
    for game in sorted(by_game):
        parts.append(f'<h2 id="{escape(game)}">{escape(game)}</h2>')
        parts.extend(_composition(game, composition_of(game)))
        for lang in sorted(by_game[game]):
            parts.extend(_language_section(game, lang, sorted(by_game[game][lang], key=lambda e: str(e.get("path")))))
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"


def variant(entry: dict) -> str:
    """Which of a kind's files an entry is: the ink of a print-and-play PDF, the printer of a
    shop file (``RGB`` for the default shop PDF), the format of a tabletop file; else ""."""
    kind = entry.get("kind")
    if kind == "pnp":
        return str(entry.get("ink") or "full")
    if kind == "shop-pdf":
        return str(entry.get("printer") or "RGB")
    if kind == "shop-png":
        return str(entry.get("printer") or entry.get("profile") or "")
    if kind == "tabletop":
        return str(entry.get("format") or "")
    return ""


def _kind_order(kind_and_variant: tuple[str, str]) -> tuple:
    from cardgen.build.jobs import KINDS

    kind, shown = kind_and_variant
    return (KINDS.index(kind) if kind in KINDS else len(KINDS), kind, shown != "full" and shown != "RGB", shown)


def _kind_label(kind: str, shown: str) -> str:
    return f"{kind} ({shown})" if shown else kind


def _overview(entries: list[dict]) -> list[str]:
    """One row per kind and variant of file present: the games and languages that have it, how many files."""
    rows: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for entry in entries:
        rows[(str(entry.get("kind")), variant(entry))].append(entry)
    if not rows:
        return []
    out = ['<table class="kinds"><tr><th>kind</th><th>variant</th><th>games</th><th>languages</th>'
           "<th>files</th></tr>"]
    for key in sorted(rows, key=_kind_order):
        found = rows[key]
        games = sorted({str(e.get("game") or "") for e in found})
        langs = sorted({str(e.get("lang")) for e in found if e.get("lang")})
        out.append(f"<tr><td>{escape(key[0])}</td><td>{escape(key[1])}</td>"
                   f"<td>{', '.join(_game_link(g) for g in games)}</td><td>{escape(', '.join(langs))}</td>"
                   f'<td class="n">{len(found)}</td></tr>')
    out.append("</table>")
    return out


def _game_link(game: str) -> str:
    return f'<a href="#{escape(game)}">{escape(game)}</a>'


def _composition(game: str, rows: CompositionRows | None) -> list[str]:
    if rows is None:
        return [f'<p class="note">The content of {escape(game)} is not in this build\'s content folder '
                "(or does not load now): no composition table.</p>"]
    out = ["<table><tr><th>group</th><th>kind</th><th>declared</th><th>found</th></tr>"]
    for group, kind, declared, found in rows:
        mark = "" if declared == found else ' class="bad"'
        out.append(f"<tr><td>{escape(group)}</td><td>{escape(kind)}</td><td class=\"n\">{declared}</td>"
                   f"<td class=\"n\"{mark}>{found}</td></tr>")
    out.append("</table>")
    return out


def _language_section(game: str, lang: str, entries: list[dict]) -> list[str]:
    anchor = f"{game}-{lang or 'all'}"
    out = [f'<h3 id="{escape(anchor)}">{escape(game)} · {escape(lang or "all languages")}</h3>']
    images = [e for e in entries if e.get("kind") == "shop-png"]
    others = [e for e in entries if e.get("kind") != "shop-png"]
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for entry in entries:
        counts[(str(entry.get("kind")), variant(entry))] += 1
    shown = [f"{counts[key]} {escape(_kind_label(*key))}" for key in sorted(counts, key=_kind_order)]
    out.append("<p>" + ", ".join(shown) + "</p>")
    by_printer: dict[str, list[dict]] = defaultdict(list)
    for entry in images:
        by_printer[variant(entry)].append(entry)
    if images:
        # every printer's PNGs show the same cards: one printer's are the thumbnails
        out.extend(_thumbnails(by_printer[min(by_printer)]))
    elif lang:
        out.append('<p class="note">No card images in the manifest for this language '
                   "(the shop PNGs come with the cards producer).</p>")
    if others:
        out.append("<table><tr><th>file</th><th>kind</th><th>variant</th><th>paper</th><th>pages</th>"
                   "<th>cards</th></tr>")
        for entry in sorted(others, key=lambda e: (_kind_order((str(e.get("kind")), variant(e))), str(e.get("path")))):
            out.append(f"<tr><td>{_link(entry)}</td><td>{_cell(entry.get('kind'))}</td>"
                       f"<td>{_cell(variant(entry))}</td><td>{_cell(entry.get('paper'))}</td>"
                       f"<td class=\"n\">{_cell(entry.get('pages'))}</td><td class=\"n\">{_cell(entry.get('cards'))}</td></tr>")
        out.append("</table>")
    for printer in sorted(by_printer):
        pngs = by_printer[printer]
        out.append(f"<details><summary>{len(pngs)} shop PNG file(s) for {escape(printer or 'no printer')}"
                   "</summary><ul>")
        out.extend(f"<li>{_link(entry)} ({_cell(entry.get('profile'))}, "
                   f"{'x'.join(str(p) for p in entry.get('pixels') or [])} px, {_cell(entry.get('dpi'))} dpi)</li>"
                   for entry in pngs)
        out.append("</ul></details>")
    return out


def _thumbnails(images: list[dict]) -> list[str]:
    """One figure per distinct picture (faces in deck order, then backs), with its copies."""
    distinct: dict[str, list[dict]] = {}
    for entry in images:
        distinct.setdefault(str(entry.get("sha256") or entry.get("path")), []).append(entry)
    ordered = sorted(distinct.values(), key=lambda group: (_is_back(group[0]), str(group[0].get("path"))))
    out = ['<div class="cards">']
    for group in ordered:
        first = group[0]
        caption = f"back: {_stem(first)[5:]}" if _is_back(first) else _card_name(group)
        name = first.get("name")  # the card's name in that language (builds before 0.1 did not say)
        if name and not _is_back(first):
            caption = f"{name} ({caption})"
        copies = sum(int(e.get("cards") or 0) for e in group)
        if copies > 1:
            caption += f" ×{copies}"
        pixels = first.get("pixels") or []
        height = (f' height="{round(THUMBNAIL_WIDTH * pixels[1] / pixels[0])}"'
                  if len(pixels) == 2 and pixels[0] else "")
        out.append(f'<figure><a href="{_href(first)}"><img src="{_href(first)}" width="{THUMBNAIL_WIDTH}"{height} '
                   f'loading="lazy" alt="{escape(caption)}"></a><figcaption>{escape(caption)}</figcaption></figure>')
    out.append("</div>")
    return out


def _card_name(group: list[dict]) -> str:
    """The card id behind shop PNG names ``NNN-<id>`` (one copy) or ``NNN-<id>-<copy>``."""
    stems = [re.sub(r"^\d+-", "", _stem(entry)) for entry in group]
    if len(stems) > 1 and stems[0].endswith("-1") and stems[1] == stems[0][:-2] + "-2":
        return stems[0][:-2]
    return stems[0]


def _is_back(entry: dict) -> bool:
    return _stem(entry).startswith("back-")


def _stem(entry: dict) -> str:
    return Path(str(entry.get("path"))).stem


def _href(entry: dict) -> str:
    # manifest paths are relative POSIX paths inside the output folder, as the page is
    return escape("/".join(_quote(part) for part in str(entry.get("path")).split("/")))


def _quote(part: str) -> str:
    from urllib.parse import quote

    return quote(part, safe="-_.~+")


def _link(entry: dict) -> str:
    return f'<a href="{_href(entry)}">{escape(str(entry.get("path")))}</a>'


def _cell(value) -> str:
    return "" if value is None else escape(str(value))


def compositions_from(content_dir: Path, games: Iterable[str]) -> dict[str, CompositionRows | None]:
    """Each game's composition rows from ``content_dir`` (None for a game not there or not
    loading now: an earlier build's game whose content has since changed or gone)."""
    from cardgen.build.jobs import load_game_cached
    from cardgen.content import composition, discover_games
    from cardgen.errors import CardgenError

    available = set(discover_games(content_dir)) if content_dir.is_dir() else set()
    found: dict[str, CompositionRows | None] = {}
    for game_id in sorted(set(games)):
        if game_id not in available:
            found[game_id] = None
            continue
        try:
            game = load_game_cached(content_dir, game_id)
        except CardgenError:
            found[game_id] = None
            continue
        found[game_id] = [(row.group, row.kind or "", row.declared, row.found) for row in composition(game)]
    return found


def index_html(entries: list[dict], content_dir: Path) -> str:
    """The page for the manifest ``entries`` of a build from ``content_dir``."""
    rows = compositions_from(content_dir, {str(e.get("game")) for e in entries if e.get("game")})
    return render_index(entries, lambda game: rows.get(game))
