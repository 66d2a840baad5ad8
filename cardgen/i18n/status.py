"""How complete each translation is, and the check behind ``build --strict``.

For every domain (game or common strings) and language: how many messages
are translated, fuzzy (a translation exists but its source changed; shown
apart because it is stale), missing, too long for their card box (it does not
fit, or fits only under the layout's body size: "shrunk"), and broken (a reference to an unknown card, or a malformed one).  Fuzzy entries
are not counted as translated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardgen.content.arguments import arguments
from cardgen.content.fallbacks import DEFAULT_FALLBACK, game_chain
from cardgen.content.shared import argument_errors
from cardgen.content.translations import Entry
from cardgen.errors import ContentError, I18nError, Locator
from cardgen.i18n import fit, plurals, refs
from cardgen.i18n.catalog import COMMON, Domain, domains
from cardgen.i18n.names import language_name
from cardgen.i18n.placeholders import difference


@dataclass
class StatusRow:
    domain: str
    language: str
    total: int
    translated: int = 0
    fuzzy: int = 0
    missing: int = 0
    too_long: int = 0
    broken: int = 0
    problems: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, key, detail)
    file: str | None = None
    methods: set[str] = field(default_factory=set)  # how "too long" was measured
    fallback: tuple[str, ...] = ()  # the languages a missing or fuzzy entry prints instead, in order

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0

    @property
    def complete(self) -> bool:
        return self.translated == self.total and not (self.too_long or self.broken)


def domain_status(domain: Domain, language: str, measure: fit.Measure | None = fit.budget_fits) -> StatusRow:
    """Figures for one domain and one language (the source language included); ``measure``
    None leaves out whether card texts fit (:mod:`cardgen.i18n.fit`)."""
    sources = domain.source_messages()
    row = StatusRow(domain.id, language, len(sources))
    # shared strings a content folder added in a language cardgen lacks may still be the
    # English copy 'cardgen new' wrote: those count as missing, in the source language too
    copies = domain.shared.copies(language) if domain.shared is not None else set()
    is_source = language == domain.source_language and not copies
    entries = domain.entries(language)
    if language == domain.source_language and copies:
        entries = {key: Entry(key, text, text, False) for key, text in domain.messages.items()}
    if not domain.has_own_text(language):
        row.file = domain.display(domain.po_path(language))
    forms = _forms(domain, entries, is_source)
    card_texts: dict[str, dict[str, tuple[str, str]]] = {}
    instead = _Fallback(domain, language)
    row.fallback = tuple(instead.chain[1:])
    for source in sources:
        if is_source:
            text = source.text
            row.translated += 1
        elif source.key in copies:
            row.missing += 1
            row.problems.append(("missing", source.key, "the text is cardgen's own in another language, "
                                 f"copied, not translated ({domain.source_location(source.key)[0]})"))
            continue
        else:
            entry = entries.get(source.key)
            if entry is None or not entry.text:
                row.missing += 1
                row.problems.append(("missing", source.key, f"no translation; {instead.prints(source)}"))
                continue
            text = entry.text
            if entry.fuzzy or entry.source != source.text:
                row.fuzzy += 1
                detail = "marked fuzzy" if entry.fuzzy else "source changed; run 'cardgen i18n update'"
                row.problems.append(("fuzzy", source.key, f"{detail}; {instead.prints(source)}"))
            else:
                row.translated += 1
        if source.card is not None and domain.game is not None:
            card_texts.setdefault(source.card, {})[source.field] = (source.key, text)
        problem = _reference_problem(domain, text, source.key, language, source.text, forms)
        if not problem and not is_source:
            problem = difference(source.text, text)
        if problem:
            row.broken += 1
            row.problems.append(("broken", source.key, problem))
    for card_id, fields in card_texts.items() if measure is not None else ():
        card = domain.game.card(card_id)
        fits = measure(domain.game, card, {f: text for f, (_, text) in fields.items()}, language)
        for field_name, measured in fits.items():
            row.methods.add(measured.method)
            if not measured.fits:
                row.too_long += 1
                limit = f" > {measured.limit}" if measured.limit is not None else ""
                why = measured.detail or f"{measured.length} characters{limit}"
                row.problems.append(("too long", fields[field_name][0], f"{why} ({measured.method})"))
            elif measured.shrunk:
                row.too_long += 1
                row.problems.append(("shrunk", fields[field_name][0], f"{measured.detail} ({measured.method})"))
    return row


class _Fallback:
    """Which language prints instead of a missing or fuzzy entry: the first of the language's
    fallback chain (:mod:`cardgen.content.fallbacks`) with a current translation."""

    def __init__(self, domain: Domain, language: str):
        self.domain = domain
        if domain.game is not None:
            self.chain = game_chain(domain.game, language)
        else:  # the shared strings: English where cardgen or the folder has it, then the source
            english = DEFAULT_FALLBACK if domain.has_own_text(DEFAULT_FALLBACK) else None
            self.chain = list(dict.fromkeys(l for l in (language, english, domain.source_language) if l))
        self._entries: dict[str, dict] = {}

    def language(self, source) -> str:
        for language in self.chain[1:]:
            if language == self.domain.source_language:
                break
            if language not in self._entries:
                try:
                    self._entries[language] = self.domain.entries(language)
                except I18nError:
                    self._entries[language] = {}
            entry = self._entries[language].get(source.key)
            if entry is not None and entry.translated and entry.source == source.text:
                return language
        return self.domain.source_language

    def prints(self, source) -> str:
        used = self.language(source)
        return f"prints {language_name(used)} ({used})"


def _forms(domain: Domain, entries: dict, is_source: bool) -> dict[str, set[str]]:
    """Cases available per name key in this language (translated forms, else the source's)."""
    result: dict[str, set[str]] = {}
    for key, text in domain.messages.items():
        if not key.endswith(refs.FORMS_SUFFIX):
            continue
        entry = entries.get(key)
        if not is_source and entry is not None and entry.text:
            text = entry.text
        try:
            result[key[: -len(refs.FORMS_SUFFIX)]] = set(refs.parse_forms(text))
        except ValueError:
            result[key[: -len(refs.FORMS_SUFFIX)]] = set()
    return result


def _reference_problem(domain: Domain, text: str, key: str, language: str,
                       source: str | None = None, forms: dict | None = None) -> str | None:
    bad = refs.malformed_braces(text)
    if bad:
        return f"malformed reference {bad[0]!r}"
    wrong = plurals.problems(text, language, domain.game.meta.settings if domain.game is not None else None)
    if wrong:
        return wrong[0]
    if source is not None and arguments(text) != arguments(source):
        wanted = ", ".join(sorted("{%s}" % a for a in arguments(source))) or "none"
        return f"arguments differ from the source (expected: {wanted})"
    if domain.game is None:
        found = refs.find_references(text)
        return f"reference {found[0].source} in a common string" if found else None
    for ref in refs.find_references(text):
        if ref.type == "setting":
            if ref.id not in domain.game.meta.settings:
                return f"reference {ref.source}: unknown setting"
            continue
        try:
            name = refs.name_key(domain.game, ref)
        except I18nError as error:
            return error.message
        if ref.form and forms is not None and ref.form not in forms.get(name, set()):
            return (f"reference {ref.source}: no '{ref.form}' form in {name}{refs.FORMS_SUFFIX} "
                    f"of this language")
    if key.endswith(refs.FORMS_SUFFIX):
        try:
            refs.parse_forms(text)
        except ValueError as error:
            return str(error)
    return None


def reference_errors(game) -> list[ContentError]:
    """Broken references and placeholders in every message of ``game`` that is not rulebook
    text (card names and rules, group and kind names, labels, clarifications...), in the source
    text and in each translation: what would print raw (``{card:nosuch}``) or fail the build.

    Rulebook text (``rules.*``) is checked by :mod:`cardgen.rulebook.sections`.  A missing
    inflected form in a translation is left out: the build prints the plain name and warns.
    """
    from cardgen.i18n.catalog import game_domain

    domain = game_domain(game, game.display_root)
    source_doc = game.documents.get(f"text/{domain.source_language}.yaml")
    source_forms = _forms(domain, {}, True)
    errors: list[ContentError] = []
    for key, text in domain.messages.items():
        if key.startswith("rules."):
            continue
        problem = _reference_problem(domain, text, key, domain.source_language, None, source_forms)
        if problem and source_doc is not None:
            errors.append(ContentError(problem, source_doc.locate(("messages", key), key=True)))
        if source_doc is not None:  # a game's own wording of a shared string takes its placeholders
            errors += argument_errors(key, text, source_doc.locate(("messages", key)).with_(
                language=domain.source_language))
    for language, entry in domain.translated(_languages(domain)[1:]):
        key = entry.key
        if key.startswith("rules."):
            continue
        problem = _reference_problem(domain, entry.text, key, language, domain.messages[key], None)
        if problem:
            where = Locator(file=Path(domain.display(domain.po_path(language))), line=entry.line, field=key,
                            language=language)
            errors.append(ContentError(f"translation of '{key}': {problem}", where))
    return errors


def status(content_dir: Path, languages: list[str] | None = None,
           game_ids: list[str] | None = None, measure: fit.Measure = fit.budget_fits) -> list[StatusRow]:
    """Rows per language and domain; languages default to every language found.  Whether a
    card text fits is ``measure``'s answer (:mod:`cardgen.i18n.fit`: the length budget unless
    the caller hands in the card drawing's :func:`cardgen.cards.textfit.card_fits`)."""
    rows = []
    for domain in domains(content_dir, game_ids):
        wanted = languages or _languages(domain)
        for language in wanted:
            rows.append(domain_status(domain, language, measure))
    return rows


def coverage(content_dir: Path, game_ids: list[str]) -> dict[str, list[tuple[str, StatusRow, StatusRow]]]:
    """game -> [(language, the game's row, the shared strings' row)] for every language the game
    builds in but its source: what ``cardgen validate`` prints, shared strings counted like the
    game's own (texts not measured against their boxes: 'cardgen i18n status' does that)."""
    found = domains(content_dir, [COMMON, *game_ids])
    common = next(d for d in found if d.game is None)
    result: dict[str, list[tuple[str, StatusRow, StatusRow]]] = {}
    shared_rows: dict[str, StatusRow] = {}
    for domain in found:
        if domain.game is None:
            continue
        rows = []
        for language in _languages(domain)[1:]:
            if language not in shared_rows:
                shared_rows[language] = domain_status(common, language, measure=None)
            rows.append((language, domain_status(domain, language, measure=None), shared_rows[language]))
        result[domain.id] = rows
    return result


def _languages(domain: Domain) -> list[str]:
    found = set(domain.languages())
    if domain.game is not None:
        found |= set(domain.game.meta.languages)
    found |= set(domain.build_languages)  # the shared strings: every language a game builds in
    found.discard(domain.source_language)
    return [domain.source_language, *sorted(found)]


def build_languages(game, content_dir: Path | None = None) -> list[str]:
    """Languages a game builds in: game.yaml's list plus every ``locale/*.po``
    (so a language added with ``cardgen i18n add`` builds at once), source first."""
    from cardgen.i18n.catalog import game_domain

    return _languages(game_domain(game))


def check_strict(content_dir: Path, game_ids: list[str] | None = None,
                 languages: list[str] | None = None, measure: fit.Measure = fit.budget_fits) -> None:
    """For ``cardgen build --strict``: raise :class:`I18nError` listing every missing,
    fuzzy, overflowing or broken message of the games (and common strings) built."""
    problems: list[str] = []
    for row in status(content_dir, languages, game_ids, measure):
        for kind, key, detail in row.problems:
            problems.append(f"{row.domain} [{row.language}] {kind}: {key}: {detail}")
    if problems:
        shown = "\n  ".join(problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        raise I18nError(
            f"{len(problems)} translation problem(s) (strict build):\n  {shown}{more}",
            Locator(),
        )
