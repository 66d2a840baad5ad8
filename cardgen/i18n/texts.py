"""Looking text up for one game in one language, with fallback and warnings.

:class:`Texts` is what the rulebook (and anything else that prints text)
uses: ``plain(key)`` gives the text with references resolved, ``markup(key)``
the same as escaped HTML (card names marked, fallback text tagged with its
own ``lang`` so that hyphenation follows the language actually printed).

A message the language lacks falls back along the language's chain
(:mod:`cardgen.content.fallbacks`: ``pl -> en -> source`` by default) to the
first language that has it, and is recorded in :attr:`Texts.warnings` with the
language printed; a fuzzy translation is not used (as with gettext) and is
recorded too.  With ``strict`` any of these raises
:class:`I18nError` instead, and so does an overflowing card text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from cardgen.content.fallbacks import game_chain
from cardgen.errors import I18nError, Locator, shown_path
from cardgen.i18n import plurals, refs, typography
from cardgen.i18n.catalog import COMMON, Domain, common_domain, game_domain
from cardgen.content.translations import Entry
from cardgen.i18n.names import language_name

if TYPE_CHECKING:
    from cardgen.content.loader import Game

_BOLD = re.compile(r"\*\*(.+?)\*\*")
#: Only rulebook texts place pictures (``![alt](art/file.png)``, :mod:`cardgen.content.figures`).
RULEBOOK_PREFIX = "rules."


@dataclass
class Warning_:
    domain: str
    language: str
    kind: str  # "missing", "fuzzy", "form", "overflow"
    key: str
    message: str
    used: str | None = None  # the language printed instead (missing, fuzzy)

    def __str__(self) -> str:
        return f"{self.domain} [{self.language}] {self.key}: {self.message}"


@dataclass
class Catalogue:
    """Source text and the entries of one language, for one domain."""

    domain: Domain
    language: str
    entries: dict[str, Entry] = field(default_factory=dict)

    @classmethod
    def load(cls, domain: Domain, language: str) -> "Catalogue":
        return cls(domain, language, domain.entries(language))


class Texts:
    """Messages of ``game`` (and of the common strings) in ``language``."""

    def __init__(self, game: "Game", language: str, content_dir: Path | None = None,
                 *, strict: bool = False):
        self.game = game
        self.language = language
        self.strict = strict
        self.source_language = game.meta.source_language
        self.warnings: list[Warning_] = []
        self._warned: set[tuple[str, str, str]] = set()
        content_dir = content_dir or game.root.parent
        self.chain = game_chain(game, language)
        self.game_catalogue = Catalogue.load(game_domain(game, content_dir.parent), language)
        common = common_domain(content_dir, content_dir.parent, self.source_language)
        self.common_catalogue = Catalogue.load(common, language)
        #: (domain id, language) -> the catalogue of a fallback language, read when first needed
        self._fallbacks: dict[tuple[str, str], Catalogue] = {}

    # -- lookup --------------------------------------------------------------------------
    def _catalogue_of(self, key: str) -> Catalogue:
        if key in self.game_catalogue.domain.messages:
            return self.game_catalogue
        if key in self.common_catalogue.domain.messages:
            return self.common_catalogue
        raise I18nError(
            f"unknown message key '{key}': not in text/{self.source_language}.yaml of "
            f"'{self.game.id}' nor of '{COMMON}'",
            Locator(field=key, language=self.language),
        )

    def has(self, key: str) -> bool:
        return key in self.game_catalogue.domain.messages or key in self.common_catalogue.domain.messages

    def raw(self, key: str) -> tuple[str, str]:
        """(text, language of the text) for ``key``: the translation, else the first
        language of the fallback chain that has a current one, else the source."""
        catalogue = self._catalogue_of(key)
        source = catalogue.domain.messages[key]
        if self.language == catalogue.domain.source_language:
            return source, self.language
        entry = catalogue.entries.get(key)
        if entry is not None and entry.translated and entry.source == source:
            return entry.text, self.language
        shared = self._shared_instead(catalogue, key)
        if shared is not None:  # a game's own wording of a shared string, not yet translated
            kind = "fuzzy" if entry is not None and entry.text else "missing"
            self._warn(catalogue, kind, key, "the game's own text has no current translation; the shared "
                       f"string in {language_name(self.language)} is used", self.language)
            return shared, self.language
        text, used = self._fallback(catalogue, key, source)
        shown = f"the {language_name(used)} text ({used}) is used"
        if entry is not None and entry.translated:
            # the PO was not updated after the source changed: stale, like fuzzy
            self._warn(catalogue, "fuzzy", key, "the source text changed since translation "
                       f"(run 'cardgen i18n update'); {shown}", used)
        elif entry is not None and entry.fuzzy and entry.text:
            self._warn(catalogue, "fuzzy", key, f"translation is fuzzy; {shown}", used)
        else:
            self._warn(catalogue, "missing", key, f"no translation; {shown}", used)
        return text, used

    def _shared_instead(self, catalogue: Catalogue, key: str) -> str | None:
        """The shared string ``key`` in this language when the game overrides it in its source text
        and the override is not translated: the generic wording in the right language beats the
        game's own in another."""
        if catalogue is not self.game_catalogue or key not in self.common_catalogue.domain.messages:
            return None
        entry = self.common_catalogue.entries.get(key)
        common_source = self.common_catalogue.domain.messages[key]
        if entry is not None and entry.translated and entry.source == common_source:
            return entry.text
        return None

    def _fallback(self, catalogue: Catalogue, key: str, source: str) -> tuple[str, str]:
        """(text, language) of ``key`` in the first language after this one in the chain
        that has a current translation; the source text at the latest."""
        domain = catalogue.domain
        for language in self.chain[1:]:
            if language == domain.source_language:
                break
            entry = self._catalogue_in(domain, language).entries.get(key)
            if entry is not None and entry.translated and entry.source == source:
                return entry.text, language
        return source, domain.source_language

    def _catalogue_in(self, domain: Domain, language: str) -> Catalogue:
        found = self._fallbacks.get((domain.id, language))
        if found is None:
            found = self._fallbacks[(domain.id, language)] = Catalogue.load(domain, language)
        return found

    def used_language(self, key: str) -> str:
        """The language the text printed for ``key`` is in (this one, or a fallback)."""
        return self.raw(key)[1]

    def origin(self, key: str) -> Locator:
        """Where the text printed for ``key`` in this language stands: its translation (the
        language's own shared strings, or a PO entry) when that is used (in this language or
        the fallback it prints), else the source text."""
        catalogue = self._catalogue_of(key)
        domain = catalogue.domain
        where: tuple[str, int | None] = domain.source_location(key)
        used = self.language
        if self.language != domain.source_language:
            before, warned = len(self.warnings), set(self._warned)
            try:
                used = self.raw(key)[1]
            except I18nError:  # strict: the origin of a text a strict build refuses is its source
                used = domain.source_language
            del self.warnings[before:]  # asking where is not printing
            self._warned = warned
        if used != domain.source_language:
            entry = self._catalogue_in(domain, used).entries.get(key) if used != self.language else \
                catalogue.entries.get(key)
            line = entry.line if entry is not None else None
            if domain.shared is not None and domain.shared.has_text(used):
                where = domain.shared.lines.get(used, {}).get(key, where)
            elif domain.shared is not None:
                where = (shown_path(domain.shared.po_path(used), domain.display_root).as_posix(), line)
            else:
                where = (domain.display(domain.po_path(used)), line)
        file, line = where
        return Locator(file=Path(file), line=line or None, field=key, language=self.language)

    def _lookup(self, key: str) -> tuple[str | None, str]:
        if not self.has(key):
            return None, self.language
        return self.raw(key)

    def _warn(self, catalogue: Catalogue, kind: str, key: str, message: str, used: str | None = None) -> None:
        warning = Warning_(catalogue.domain.id, self.language, kind, key, message, used)
        marker = (catalogue.domain.id, kind, key)
        if self.strict:
            raise I18nError(f"{kind}: {message}", Locator(field=key, language=self.language,
                                                          file=Path(catalogue.domain.display(
                                                              catalogue.domain.po_path(self.language)))))
        if marker not in self._warned:
            self._warned.add(marker)
            self.warnings.append(warning)

    def _form_warning(self, key: str):
        def warn(message: str) -> None:
            catalogue = self._catalogue_of(key)
            self._warn(catalogue, "form", key, message)
        return warn

    def pieces(self, key: str, args: dict | None = None) -> tuple[list[refs.Resolved], str]:
        text, text_language = self.raw(key)
        text = plurals.expand(text, text_language, self.game.meta.settings, args or {})
        try:
            text = refs.fill(text, args or {})
        except I18nError as error:
            raise I18nError(error.message, self.origin(key)) from None
        pieces = refs.resolve(
            text, self.game, text_language, self._lookup, key=key,
            warn=self._form_warning(key), strict=self.strict,
        )
        return _quoted(pieces, text_language), text_language

    # -- output --------------------------------------------------------------------------
    def plain(self, key: str, **args) -> str:
        """The text with references resolved, ``**`` emphasis removed and a rulebook picture as its alt text."""
        pieces, _ = self.pieces(key, args)
        text = _BOLD.sub(r"\1", "".join(p.text for p in pieces))
        if key.startswith(RULEBOOK_PREFIX) and "![" in text:
            from cardgen.content.figures import without_images

            text = without_images(text)
        return text

    def markup(self, key: str, **args) -> Markup:
        """Escaped HTML: card names in ``<span class="ref">``, ``**x**`` bold,
        fallback text inside ``<span lang="ru">``, a rulebook text's ``![alt](art/x.png)`` as ``<img>``."""
        pieces, text_language = self.pieces(key, args)
        html = Markup("")
        for piece in pieces:
            if piece.reference is None or piece.reference.type == "setting":
                # the language's no-break spaces (typography.tidy): the rulebook's line breaking
                html += escape(typography.tidy(piece.text, text_language))
            else:
                lang = (
                    Markup(f' lang="{escape(piece.language)}"')
                    if piece.language and piece.language != text_language
                    else Markup("")
                )
                html += Markup('<span class="ref ref-{}"{}>{}</span>').format(
                    piece.reference.type, lang, typography.tidy(piece.text, piece.language or text_language)
                )
        html = Markup(_BOLD.sub(r"<strong>\1</strong>", str(html)))
        if key.startswith(RULEBOOK_PREFIX) and "![" in html:
            html = self._images(key, html)
        if text_language != self.language:
            html = Markup('<span lang="{}">{}</span>').format(text_language, html)
        return html

    def _images(self, key: str, html: Markup) -> Markup:
        """Each ``![alt](path)`` of a rulebook text as an ``<img>`` of the game's own file (checked
        as validate checks it: a build never prints what validate would refuse)."""
        from html import unescape

        from cardgen.content.figures import MARKDOWN_IMAGE, ImageProblem, art_url, checked_image

        def image(match: re.Match) -> str:
            name = unescape(match["path"]).strip()
            alt = re.sub(r"<[^>]*>", "", match["alt"]).strip()  # already escaped; no markup in an attribute
            try:
                path = checked_image(self.game.root, name)
            except ImageProblem as problem:
                raise I18nError(f"picture in '{key}': {problem}", self.origin(key)) from None
            if not alt:
                raise I18nError(f"picture '{name}' in '{key}' has no description: write one between the "
                                f"brackets, ![what it shows]({name})", self.origin(key))
            url = art_url(self.game.root, path)
            return str(Markup('<img class="figure" src="{}" alt="{}">').format(url, Markup(alt)))

        return Markup(MARKDOWN_IMAGE.sub(image, str(html)))

    def keys(self, prefix: str) -> list[str]:
        """Keys ``prefix`` and ``prefix.N`` (N a number) in natural order."""
        found = []
        for messages in (self.game_catalogue.domain.messages,
                         self.common_catalogue.domain.messages):
            for key in messages:
                rest = key[len(prefix) + 1:] if key.startswith(prefix + ".") else None
                if key == prefix or (rest is not None and rest.isdigit()):
                    found.append(key)
        return sorted(found, key=_natural)


    def subsections(self, prefix: str, exclude: tuple[str, ...] = ()) -> list[str]:
        """Ids ``x`` having a ``prefix.x.title`` key, in source order (``exclude`` left out)."""
        found: list[str] = []
        for key in self.game_catalogue.domain.messages:
            if key.startswith(prefix + ".") and key.endswith(".title"):
                middle = key[len(prefix) + 1 : -len(".title")]
                if middle and "." not in middle and middle not in exclude and middle not in found:
                    found.append(middle)
        return found


def _quoted(pieces: list[refs.Resolved], language: str) -> list[refs.Resolved]:
    """``pieces`` with ``language``'s quotation marks (:func:`typography.quotes`), judged over the
    whole sentence: a quotation may open in one piece and close after a card's name."""
    whole = "".join(piece.text for piece in pieces)
    quoted = typography.quotes(whole, language)
    if quoted == whole:
        return pieces
    result, start = [], 0
    for piece in pieces:
        end = start + len(piece.text)
        result.append(replace(piece, text=quoted[start:end]))
        start = end
    return result


def _natural(key: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", key)]


def card_text(game: "Game", card_id: str, field_name: str, language: str) -> str:
    """The text of a card's field in ``language``, references resolved, for card faces.

    Falls back to the source language silently; use :class:`Texts` to collect warnings.
    """
    card = game.card(card_id)
    key = card.text[field_name]
    return Texts(game, language).plain(key)
