"""A rulebook for one game in one language (and head-game's answer key, a booklet of its
own): data from the content, HTML from jinja2 templates, PDF from WeasyPrint.

Nothing a player could check against the box is typed into the templates:
the components table is counted from the deck, the rule options and the
clarifications come from game.yaml, card pictures from the card renderer,
names of cards from the same catalogue the cards print from.

Templates run in jinja2's :class:`SandboxedEnvironment` with autoescaping;
every file WeasyPrint loads goes through :class:`FencedFetcher`.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import os
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import FileSystemLoader, StrictUndefined, TemplateError, select_autoescape
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from weasyprint.urls import FatalURLFetchingError

from cardgen import resources
from cardgen.errors import CardgenError, RenderError
from cardgen.i18n import labels
from cardgen.rulebook.tagging import PDF_VARIANT, running_heads_as_artifacts
from cardgen.i18n.texts import Texts, Warning_
from cardgen.cards.fonts import FONT_DIR, report_glyphs
from cardgen.rulebook import answers, fonts, hyphenation, images
from cardgen.rulebook.fetcher import CARD_SCHEME, FencedFetcher
from cardgen.rulebook import PAPERS

if TYPE_CHECKING:
    from cardgen.content.loader import Game

#: The documents rendered from templates/rulebook/: the template names to try, in order.
PARTS = {"rulebook": ("{game}.html.j2", "rulebook.html.j2"), "answer-key": ("answer-key.html.j2",)}
#: Widths (mm) of card pictures: on the cover, beside a rule, in a row of samples.
SLOT_MM = {"a4": {"cover": 30, "explained": 22, "sample": 26, "columns": 2},
           "a5": {"cover": 21, "explained": 17, "sample": 20, "columns": 1}}
#: Cards shown per group when its designs carry no rule text of their own.
SAMPLES = 4
#: The description (alt text) of the cover picture game.yaml names.
COVER_ALT = "rules.cover.alt"


@dataclass
class Rulebook:
    """A rendered rulebook."""

    game: str
    language: str
    paper: str
    pdf: bytes
    pages: int
    warnings: list[Warning_] = field(default_factory=list)
    seconds: float = 0.0
    part: str = "rulebook"  # or "answer-key" (head-game's answer key booklet)


# --- the data the templates see -----------------------------------------------------------


@dataclass
class ComponentRow:
    group: str
    kind: str | None
    name: Markup
    cards: int
    color: str


@dataclass
class CardShow:
    id: str
    name: Markup
    copies: int
    rule: Markup | None
    detail: Markup | None
    image: str | None  # URL for <img>, None for an empty slot
    color: str
    alt: str = ""  # the picture's text alternative: the card's name and rule, plain text


@dataclass
class KindShow:
    id: str
    name: Markup
    cards: int
    text: Markup | None
    examples: list[CardShow]
    more: int = 0


@dataclass
class GroupShow:
    id: str
    name: Markup
    cards: int
    color: str
    text: Markup | None
    kinds: list[KindShow]


def components(game: "Game", texts: Texts) -> tuple[list[ComponentRow], int]:
    """Rows of the components table, counted from the physical deck."""
    by_group: Counter[str] = Counter()
    by_kind: Counter[tuple[str, str | None]] = Counter()
    for physical in game.physical_cards():
        by_group[physical.card.group] += 1
        by_kind[physical.card.group, physical.card.kind] += 1
    rows: list[ComponentRow] = []
    for group in game.meta.groups:
        rows.append(ComponentRow(group.id, None, texts.markup(group.name), by_group[group.id], group.color))
        for kind in group.kinds:
            rows.append(
                ComponentRow(group.id, kind.id, texts.markup(kind.name), by_kind[group.id, kind.id], group.color)
            )
    return rows, sum(by_group.values())


def _card_show(game: "Game", texts: Texts, card, image_url) -> CardShow:
    color = next(g.color for g in game.meta.groups if g.id == card.group)
    name_key = card.text.get("name")
    rule_key = card.text.get("rule")
    detail_key = f"rules.card.{card.id}"
    name = texts.markup(name_key) if name_key else _label(game, texts, card)
    rule = texts.markup(rule_key) if rule_key else None
    return CardShow(
        id=card.id,
        name=name,
        copies=card.copies,
        rule=rule,
        detail=texts.markup(detail_key) if texts.has(detail_key) else None,
        image=image_url(card.id),
        color=color,
        alt=name.striptags() + (f": {rule.striptags()}" if rule else ""),
    )


def _label(game: "Game", texts: Texts, card) -> Markup:
    """The label of a card without a name (never its id), marked with its language when
    it fell back to the source, as :meth:`Texts.markup` marks fallback text."""
    label = labels.card_label(game, card, labels.texts_lookup(texts))
    if label.language != texts.language:
        return Markup('<span lang="{}">{}</span>').format(label.language, label.text)
    return Markup("{}").format(label.text)


def card_groups(game: "Game", texts: Texts, image_url) -> list[GroupShow]:
    """Every group and kind of card, with example cards (all of them when each has a rule)."""
    shows: list[GroupShow] = []
    for group in game.meta.groups:
        cards = [c for c in game.cards if c.group == group.id]
        kinds: list[KindShow] = []
        parts = [(k.id, k.name, [c for c in cards if c.kind == k.id]) for k in group.kinds] or [
            (None, None, cards)
        ]
        for kind_id, kind_name, members in parts:
            with_rules = [c for c in members if "rule" in c.text]
            chosen = with_rules if with_rules else members[:SAMPLES]
            text_key = f"rules.cards.{group.id}.{kind_id}" if kind_id else None
            kinds.append(
                KindShow(
                    id=kind_id or group.id,
                    name=texts.markup(kind_name) if kind_name else Markup(""),
                    cards=sum(c.copies for c in members),
                    text=texts.markup(text_key) if text_key and texts.has(text_key) else None,
                    examples=[_card_show(game, texts, c, image_url) for c in chosen],
                    more=len(members) - len(chosen),
                )
            )
        text_key = f"rules.cards.{group.id}"
        shows.append(
            GroupShow(
                id=group.id,
                name=texts.markup(group.name),
                cards=sum(c.copies for c in cards),
                color=group.color,
                text=texts.markup(text_key) if texts.has(text_key) else None,
                kinds=kinds,
            )
        )
    return shows


def rule_options(game: "Game", texts: Texts) -> list[dict[str, Any]]:
    result = []
    for option in game.meta.rule_options:
        choices = []
        for choice in option.choices:
            label = str(choice).lower()
            key = f"rules.options.{option.id}.{label}"
            choices.append(
                {
                    "label": texts.markup(key) if texts.has(key) else escape(label),  # user text: never raw HTML
                    "id": label,
                    "default": choice == option.default,
                }
            )
        result.append({"id": option.id, "name": texts.markup(option.name), "choices": choices})
    return result


def clarifications(game: "Game", texts: Texts) -> list[dict[str, Any]]:
    options = {o.id: o for o in game.meta.rule_options}
    result = []
    for clar in game.meta.clarifications:
        option = options.get(clar.option) if clar.option else None
        result.append(
            {
                "id": clar.id,
                "question": texts.markup(clar.question),
                "decision": texts.markup(clar.decision),
                "rationale": texts.markup(clar.rationale),
                "option": texts.markup("rulebook.clar.option", option=texts.plain(option.name))
                if option
                else None,
            }
        )
    return result


def cover_image(game: "Game", texts: Texts) -> dict[str, str] | None:
    """The cover picture ``game.yaml`` names (``rulebook: {cover: ...}``): its URL and description."""
    from cardgen.content.figures import ImageProblem, art_url, checked_image

    settings = game.meta.rulebook
    if settings is None or settings.cover is None:
        return None
    where = _game_yaml_locator(game, ("rulebook", "cover"))
    try:
        path = checked_image(game.root, settings.cover)
    except ImageProblem as problem:
        raise RenderError(f"rulebook cover: {problem}", where) from None
    if not texts.has(COVER_ALT):
        raise RenderError(f"the rulebook cover '{settings.cover}' has no description: write it as "
                          f"'{COVER_ALT}' in text/{game.meta.source_language}.yaml", where)
    return {"src": art_url(game.root, path), "alt": texts.plain(COVER_ALT)}


def _game_yaml_locator(game: "Game", where: tuple):
    from cardgen.errors import Locator

    doc = game.documents.get("game.yaml")
    return doc.locate(where) if doc is not None else Locator(file=game.root / "game.yaml")


# --- rendering -----------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _environment(templates_dir: Path) -> SandboxedEnvironment:
    """One environment per template folder and process: it keeps the compiled templates
    (compiling the rulebook template took ~0.12 s, paid twice per A5 booklet), and its
    loader still recompiles a template whose file changed (jinja2's auto_reload)."""
    env = SandboxedEnvironment(
        loader=FileSystemLoader(str(templates_dir)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env


def _date() -> str | None:
    """The PDF dates: SOURCE_DATE_EPOCH when set, else none at all (never the clock)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return None
    try:
        moment = datetime.fromtimestamp(int(epoch), tz=timezone.utc)
    except ValueError:
        raise RenderError(f"SOURCE_DATE_EPOCH must be a whole number of seconds, found {epoch!r}") from None
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def render_html(
    game: "Game",
    language: str,
    paper: str = "a4",
    *,
    content_dir: Path | None = None,
    templates_dir: Path | None = None,
    strict: bool = False,
    blank_pages: int = 0,
    toc_pages: dict[str, int] | None = None,
    part: str = "rulebook",
    web: Any = None,
) -> tuple[str, Texts]:
    """The rulebook (or, with ``part="answer-key"``, head-game's answer key) as HTML,
    and the text lookup (holding its warnings).

    ``web`` (a :class:`cardgen.rulebook.web.WebPlace`: where the stylesheet and each card's
    picture are) makes the page for a screen instead of for WeasyPrint: its stylesheet,
    landmarks, the card pictures as files beside it."""
    if paper not in PAPERS:
        raise RenderError(f"unknown paper '{paper}'; expected one of: {', '.join(PAPERS)}")
    if part not in PARTS:
        raise RenderError(f"unknown rulebook part '{part}'; expected one of: {', '.join(PARTS)}")
    templates_dir = templates_dir or resources.RULEBOOK_TEMPLATES
    texts = Texts(game, language, content_dir, strict=strict)

    def image_url(card_id: str) -> str | None:
        if images.renderer() is None:
            return None
        if web is not None:
            return web.picture(card_id)
        return f"{CARD_SCHEME}:{game.id}/{card_id}?lang={language}"

    meta = game.meta
    rows, total = components(game, texts)
    stamp = _date()
    context = {
        "game": {"id": game.id, "title": texts.markup(meta.title), "title_plain": texts.plain(meta.title)},
        "lang": language,
        "paper": paper,
        "t": texts.markup,
        "plain": texts.plain,
        "has": texts.has,
        "keys": texts.keys,
        "subsections": texts.subsections,
        "players": {"min": meta.players.min, "max": meta.players.max},
        "card_size": {"width": f"{meta.card_size.width_mm:g}", "height": f"{meta.card_size.height_mm:g}"},
        "ratio": meta.card_size.height_mm / meta.card_size.width_mm,
        "sizes": SLOT_MM[paper],
        "components": rows,
        "total_cards": total,
        "backs": [{"name": texts.markup(b.name), "color": b.color} for b in meta.backs],
        "groups": card_groups(game, texts, image_url),
        "options": rule_options(game, texts),
        "clarifications": clarifications(game, texts),
        # the rulebook says where the answer key is; the answer key booklet holds the tables
        "answers": answers.answer_key(game, texts) if part == "answer-key" else answers.pointer(game, language),
        "cover": cover_image(game, texts) if part == "rulebook" else None,
        "font_faces": fonts.font_faces(game),
        "font_css": fonts.font_css(game),
        "created": stamp,
        "blank_pages": blank_pages,
        # set: only a first page to drop, the contents with these page numbers, the blank
        # pages and the quick reference (see _pad_booklet)
        "toc_pages": toc_pages,
        "web": web is not None,
        "web_css": web.stylesheet if web is not None else "",
    }
    env = _environment(templates_dir)
    names = [name.format(game=game.id) for name in PARTS[part]]
    try:
        template = env.select_template(names)
        html = template.render(**context)
    except CardgenError:
        raise
    except TemplateError as error:
        raise RenderError(f"rulebook template: {error}") from None
    return html, texts


def build_rulebook(
    game: "Game",
    language: str,
    paper: str = "a4",
    *,
    content_dir: Path | None = None,
    templates_dir: Path | None = None,
    strict: bool = False,
) -> Rulebook:
    """Render the rulebook of ``game`` in ``language`` on ``paper`` ("a4" or "a5").

    The A5 edition is a booklet: its page count is padded with blank pages to
    a multiple of 4, before the quick reference, which stays on the back.
    """
    return _build(game, language, paper, "rulebook", content_dir=content_dir, templates_dir=templates_dir,
                  strict=strict)


def build_answer_key(
    game: "Game",
    language: str,
    *,
    content_dir: Path | None = None,
    templates_dir: Path | None = None,
    strict: bool = False,
) -> Rulebook:
    """Render head-game's answer key in ``language``: a booklet of its own (A4), which
    the rulebook names (see :mod:`cardgen.rulebook.answers`)."""
    if not answers.applies(game):
        raise RenderError(f"game '{game.id}' has no answer key")
    return _build(game, language, answers.PAPER, "answer-key", content_dir=content_dir,
                  templates_dir=templates_dir, strict=strict)


def _build(game: "Game", language: str, paper: str, part: str, *, content_dir: Path | None,
           templates_dir: Path | None, strict: bool) -> Rulebook:
    from weasyprint import HTML

    started = time.perf_counter()
    content_dir = content_dir or game.root.parent
    templates_dir = templates_dir or resources.RULEBOOK_TEMPLATES
    picture_errors: list[CardgenError] = []

    def card_image(ref: str) -> bytes | None:
        # WeasyPrint turns any error of a fetch into its own FatalURLFetchingError, which
        # loses the file and line of, say, a name too long for its card: keep ours
        try:
            return _card_image(game, ref)
        except CardgenError as error:
            picture_errors.append(error)
            raise

    # the game's own pictures (cover, diagrams) come as cardgen-art: URLs from its folder
    fetcher = FencedFetcher([content_dir, templates_dir.parent, FONT_DIR], card_image=card_image, art_root=game.root)

    def render(blank: int, toc_pages: dict[str, int] | None = None):
        html, texts = render_html(
            game, language, paper, content_dir=content_dir, templates_dir=templates_dir,
            strict=strict, blank_pages=blank, toc_pages=toc_pages, part=part,
        )
        if toc_pages is None and not blank:  # the first layout's text holds every word the book prints
            missing = fonts.glyph_problem(game, html, language)
            if missing is not None:
                report_glyphs(missing, strict or None)
        try:
            document = HTML(
                string=html, base_url=templates_dir.resolve().as_uri() + "/", url_fetcher=fetcher
            ).render()
        except FatalURLFetchingError:
            if picture_errors:
                first = picture_errors[0]
                raise RenderError(f"a card picture of the rulebook: {first.message}", first.locator) from None
            fetcher.check()
            raise
        fetcher.check()
        return document, texts

    hyphenation.prepare([language])  # before WeasyPrint loads pyphen's slower dictionary
    with _collector_paused():
        document, texts = render(0)
        if part == "rulebook" and paper == "a5" and len(document.pages) % 4:
            document = _pad_booklet(document, render) or render(4 - len(document.pages) % 4)[0]
        name = f"{game.id}/{language}/{paper}" if part == "rulebook" else f"{game.id}/{language}/{part}/{paper}"
        identifier = hashlib.sha256(f"{name}/{len(document.pages)}".encode()).hexdigest()[:32].encode()
        # tagged PDF/UA-1: structure tree, title shown, XMP; running heads as artifacts (cardgen.rulebook.tagging)
        with _deflate_level(6), running_heads_as_artifacts(document):
            pdf = document.write_pdf(pdf_identifier=identifier, pdf_variant=PDF_VARIANT)
        pages = len(document.pages)
        del document
    fetcher.check()
    return Rulebook(
        game=game.id,
        language=language,
        paper=paper,
        pdf=pdf,
        pages=pages,
        warnings=list(texts.warnings),
        seconds=time.perf_counter() - started,
        part=part,
    )


def _pad_booklet(document, render):
    """The A5 booklet padded to a multiple of 4 pages without laying it all out again.

    Blank pages go before the quick reference (the back cover), which moves the quick
    reference and changes its number in the contents. Only those pages change, so they
    are laid out in a small document of their own: a page to drop, the contents with
    the page numbers now known, the blank pages and the quick reference, which lands on
    its final page number and side. Its pages replace the contents and the quick
    reference of the first layout; without a quick reference the blank pages of such a
    document simply follow the first layout's pages. None when the first layout is not as
    expected (the contents on page 2 alone, the quick reference alone on the last page):
    then the caller lays the booklet out again.
    """
    pages = document.pages
    total = len(pages) + (4 - len(pages) % 4)
    starts: dict[str, int] = {}
    for number, page in enumerate(pages, 1):
        for name in page.anchors:
            starts.setdefault(name, number)
    # the contents' own anchors (its heading, named for the navigation landmark) are not the body
    body = [n for name, n in starts.items() if not name.startswith(("contents", "quick"))]
    if starts.get("contents") != 2 or min(body, default=0) != 3:
        return None
    if "quick" not in starts:
        # a game without a quick reference: the blank pages go last and no page number in the
        # contents changes; the patch's last pages are the blank ones, at their final numbers
        patch, _ = render(total - 2, dict(starts))
        if len(patch.pages) != total:
            return None
        return document.copy([*pages, *patch.pages[len(pages):]])
    if starts["quick"] != len(pages):
        return None
    toc_pages = dict(starts, quick=total)
    patch, _ = render(total - 3, toc_pages)
    if len(patch.pages) != total:
        return None
    blanks = patch.pages[len(pages) - 1:total - 1]
    return document.copy([pages[0], patch.pages[1], *pages[2:-1], *blanks, patch.pages[-1]])


@contextlib.contextmanager
def _collector_paused():
    """No cyclic garbage collection while WeasyPrint lays out and writes a document; one
    collection of the young objects afterwards.

    A layout allocates hundreds of thousands of boxes, styles and text runs, which keep
    triggering collections that scan them all again while nearly all are still alive:
    about a fifth of a rulebook's CPU time (measured). Paused, the young generation holds
    everything the render allocated, so one collection of it frees the render's cycles;
    the peak memory of a render grew by about 2 MB.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        gc.collect(0)


class _Deflate:
    """pydyf's view of :mod:`zlib`, with another compression level for its streams."""

    def __init__(self, level: int):
        self.level = level

    def compressobj(self, level: int = -1, *args, **kwargs):
        return zlib.compressobj(self.level, *args, **kwargs)

    def compress(self, data, level: int = -1, **kwargs):
        return zlib.compress(data, self.level, **kwargs)

    def __getattr__(self, name: str):
        return getattr(zlib, name)


@contextlib.contextmanager
def _deflate_level(level: int):
    """Let pydyf deflate at ``level`` while WeasyPrint writes a PDF.

    pydyf compresses every content, font and object stream at level 9; level 6 gives
    files within a few hundred bytes of that in about 70 % of the time (measured on the
    rulebooks: the text-heavy page streams gain nothing from 9). Deterministic either way.
    """
    import pydyf

    saved = pydyf.zlib
    pydyf.zlib = _Deflate(level)
    try:
        yield
    finally:
        pydyf.zlib = saved


def _card_image(game: "Game", ref: str) -> bytes | None:
    path, _, query = ref.partition("?")
    game_id, _, card_id = path.partition("/")
    language = query.partition("lang=")[2] or game.meta.source_language
    if game_id != game.id:
        return None
    return images.card_png(game, card_id, language)
