"""PO files: write the template, merge translations by key, read them back.

Each message is one PO entry whose ``msgctxt`` is its stable key (the key
names the card and the field, e.g. ``card.action-block.rule``; the file names
the game).  ``msgid`` is the source-language text.  Translators get ``#.``
comments (where the text appears, its length budget) and Weblate flags
(``max-length:N``, ``placeholders:...``).

Merging is done here by key, not by Babel's fuzzy matcher (which ignores
``msgctxt``): a key whose source text changed keeps its translation, marked
``fuzzy``, with the previous source shown as ``#| msgid``.  A key that left
the source is kept as an obsolete ``#~`` entry so that no translation is lost.

The header is the game's and then the translator's (:mod:`cardgen.i18n.header`): filled
from ``game.yaml`` when the file is made, kept as a translator or their tool wrote it on every
update but for the fields that come from the source.  Output is deterministic: ``#:``
references are relative to the content folder (cardgen's package for its shared strings), the
dates come from ``SOURCE_DATE_EPOCH`` (else now), and a file whose entries did not change is
not rewritten at all.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import denormalize, normalize, read_po, write_po

from cardgen.errors import I18nError, Locator
from cardgen.fileio import write_bytes_atomic
from cardgen.content.safefile import read_capped
from cardgen.content.translations import Entry, po_syntax_problem, previous_ids, read_entries
from cardgen.content.yamlsource import MAX_FILE_BYTES
from cardgen.i18n.catalog import Domain, SourceMessage
from cardgen.i18n.header import Header, Origin, build_date, merged_header, new_header, read_header

PROJECT = "cardgen"
FUZZY = "fuzzy"
_AUTO_FLAGS = {"python-format", "python-brace-format"}
#: No wrapping: one line per string (split only after an embedded newline), as ``msgmerge
#: --no-wrap`` and Weblate's "no wrapping" write, so the tools' files and ours compare line by line.
WIDTH = 0


def _locale(language: str | None) -> str | None:
    return language.replace("-", "_") if language else None


def _catalog(domain: Domain, language: str | None) -> Catalog:
    """An empty catalogue; its header is written by :mod:`cardgen.i18n.header`, not Babel."""
    return Catalog(locale=_locale(language), domain=domain.id, project=f"{PROJECT} {domain.id}",
                   charset="utf-8", fuzzy=False)


def origin(domain: Domain) -> Origin:
    """What the headers of ``domain``'s files say about it: the game's title (source text),
    version, contact and teams from ``game.yaml``; cardgen's own for the shared strings."""
    if domain.game is None:
        return Origin(project="cardgen shared strings", title="cardgen's shared strings",
                      source_language=domain.source_language)
    meta = domain.game.meta
    title = domain.messages.get(meta.title, domain.id)
    settings = meta.translation
    version = settings.version if settings is not None else None
    return Origin(
        project=f"{title} {version}" if version else title,
        title=title,
        contact=(settings.contact or "") if settings is not None else "",
        teams=dict(settings.teams) if settings is not None else {},
        source_language=domain.source_language,
    )


def _message(source: SourceMessage, string: str = "", *, fuzzy: bool = False,
             previous: str | None = None, user_comments: list[str] | None = None) -> Message:
    flags = list(source.flags)
    if fuzzy:
        flags.append(FUZZY)
    message = Message(
        source.text,
        string,
        locations=[(file, line) for file, line in source.locations],
        flags=flags,
        auto_comments=list(source.comments),
        user_comments=user_comments or [],
        previous_id=[previous] if previous else [],
        context=source.key,
    )
    message.flags -= _AUTO_FLAGS
    return message


def render(catalog: Catalog, header: Header | None = None) -> bytes:
    """The PO text of ``catalog``; with ``header``, that header instead of Babel's."""
    for message in catalog:
        message.flags -= _AUTO_FLAGS
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, include_previous=False, sort_output=False,
             omit_header=header is not None)
    text = _with_previous_ids(buffer.getvalue().decode("utf-8"), catalog)
    if header is not None:
        text = header.render() + "\n" + text.lstrip("\n")
    return (text.rstrip("\n") + "\n").encode("utf-8")  # one newline at the end, as gettext writes


def body(data: bytes) -> bytes:
    """A PO file's text after its header entry: what changes only when the entries do."""
    text = data.decode("utf-8", errors="replace")
    if read_header(text) is None:
        return data
    _, _, rest = text.partition("\n\n")
    return rest.lstrip("\n").encode("utf-8")


def _with_previous_ids(text: str, catalog: Catalog) -> str:
    """Add the ``#| msgid`` lines of fuzzy entries.

    Babel wraps the previous msgid as prose, cutting through its quoted
    strings, so a multi-line previous source would not read back; we write
    those lines ourselves, quoted like any msgid, just before the entry's
    msgctxt, with the previous msgctxt as msgmerge writes it.
    """
    previous = {
        message.context: message.previous_id[0]
        for message in catalog
        if message.context and message.fuzzy and message.previous_id
    }
    if not previous:
        return text
    lines: list[str] = []
    for line in text.split("\n"):
        if line.startswith("msgctxt "):
            key = denormalize(line[len("msgctxt "):])
            if key in previous:
                # as msgmerge --previous writes it: the previous context (the same key) and source
                lines.append(f"#| msgctxt {normalize(key, width=WIDTH)}")
                first, *rest = normalize(previous[key], width=WIDTH).split("\n")
                lines.append(f"#| msgid {first}")
                lines.extend(f"#| {part}" for part in rest)
        lines.append(line)
    return "\n".join(lines)


def template(domain: Domain) -> Catalog:
    catalog = _catalog(domain, None)
    for source in domain.source_messages():
        message = _message(source)
        catalog[message.id] = message
    return catalog


def write_template(domain: Domain) -> Path:
    """Write ``locale/<domain>.pot``; an existing template with the same entries is left as it is
    (so its creation date stays)."""
    path = domain.pot_path
    entries = render(template(domain), Header())
    if path.is_file() and body(read_capped(path, MAX_FILE_BYTES, root=domain.root)) == body(entries):
        return path
    header = new_header(origin(domain), None, build_date())
    write_bytes_atomic(path, render(template(domain), header), inside=domain.root.parent)  # never through a symlink
    return path


def read_catalog(path: Path, root: Path | None = None) -> Catalog:
    """A PO file as babel's catalogue: a regular file under the size cap (inside ``root``, no
    symlink out of it), its lines well formed."""
    data = read_capped(path, MAX_FILE_BYTES, root=root)  # UnsafeFile: the caller's 'not a valid PO file'
    problem = po_syntax_problem(data)
    if problem is not None:
        raise I18nError(f"line {problem[0]}: {problem[1]}")
    return previous_ids(read_po(io.BytesIO(data)))


def merge(domain: Domain, language: str, existing: Catalog | None) -> tuple[Catalog, "MergeReport"]:
    """The catalogue of ``language`` for the current source, keeping what ``existing`` has."""
    old_by_key: dict[str, Message] = {}
    live = {id(message) for message in existing} if existing is not None else set()
    if existing is not None:
        for message in existing:
            if message.id and message.context:
                old_by_key[message.context] = message
        # a translation msgmerge made obsolete (without fuzzy matching, a changed source leaves
        # its old entry as #~) or one whose key comes back: found again by its key
        for message in existing.obsolete.values():
            current = old_by_key.get(message.context or "")
            if message.context and message.string and (current is None or not current.string):
                old_by_key[message.context] = message
    catalog = _catalog(domain, language)
    report = MergeReport(domain.id, language)
    seen: set[str] = set()
    for source in domain.source_messages():
        seen.add(source.key)
        old = old_by_key.get(source.key)
        string, fuzzy, previous, comments = "", False, None, []
        if old is not None:
            comments = list(old.user_comments)
            old_string = old.string if isinstance(old.string, str) else (old.string or [""])[0]
            if old_string:
                string = old_string
                if old.id != source.text:
                    fuzzy = True
                    previous = old.previous_id[0] if (old.fuzzy and old.previous_id) else old.id
                    report.fuzzied.append(source.key)
                elif old.fuzzy:
                    fuzzy = True
                    previous = old.previous_id[0] if old.previous_id else None
        else:
            report.added.append(source.key)
        message = _message(source, string, fuzzy=fuzzy, previous=previous, user_comments=comments)
        catalog[message.id] = message
    for key, old in old_by_key.items():
        if key not in seen and old.string and id(old) in live:
            old.flags -= _AUTO_FLAGS
            catalog.obsolete[catalog._key_for(old.id, key)] = old
            report.obsoleted.append(key)
    if existing is not None:
        for key, old in existing.obsolete.items():
            context = old.context
            if context and context not in seen and key not in catalog.obsolete:
                catalog.obsolete[key] = old
    return catalog, report


@dataclass
class MergeReport:
    domain: str
    language: str
    added: list[str] = None  # type: ignore[assignment]
    fuzzied: list[str] = None  # type: ignore[assignment]
    obsoleted: list[str] = None  # type: ignore[assignment]
    path: Path | None = None
    created: bool = False

    def __post_init__(self):
        self.added = self.added or []
        self.fuzzied = self.fuzzied or []
        self.obsoleted = self.obsoleted or []


def update(domain: Domain, language: str, *, create: bool = False) -> MergeReport:
    """Merge ``locale/<language>.po`` with the current source text (by key)."""
    path = domain.po_path(language)
    existing = None
    if path.is_file():
        try:
            existing = read_catalog(path, domain.root)
        except Exception as error:
            raise I18nError(f"not a valid PO file: {error}", Locator(file=Path(domain.display(path))))
    elif not create:
        raise I18nError(
            f"no translation file for '{language}'; add the language with 'cardgen i18n add {language}'",
            Locator(file=Path(domain.display(path))),
        )
    catalog, report = merge(domain, language, existing)
    report.path = path
    report.created = existing is None
    old = read_capped(path, MAX_FILE_BYTES, root=domain.root) if existing is not None else None
    old_header = read_header(old.decode("utf-8")) if old is not None else None
    header = merged_header(old_header, origin(domain), language, build_date())
    data = render(catalog, header)
    if old is not None:
        data = kept_wrapping(data, old)
    if old is not None and body(old) == body(data) and old_header is not None and \
            old_header.fields == merged_header(old_header, origin(domain), language, _date_of(old_header)).fields:
        return report  # nothing changed but the date it would stamp: the file stays as it is
    write_bytes_atomic(path, data, inside=domain.root.parent)  # never through a symlink
    return report


def kept_wrapping(data: bytes, old: bytes) -> bytes:
    """``data`` (a PO file as cardgen writes it, one line per string) with each entry whose key,
    source and translation are those of ``old`` written with ``old``'s lines for them: a file
    Poedit or msgcat wrapped at 79 columns keeps its wrapping where the update changed nothing, so
    an update changes only the lines of what it changed.  Comments and flags are cardgen's (from
    the source), as msgmerge takes them from the template."""
    before = {}
    old_blocks = _blocks(old.decode("utf-8", errors="replace"))
    for block in old_blocks:
        strings = _strings(block)
        if strings is not None:
            before[strings[0]] = strings
    old_fields = _header_fields(old_blocks[0])
    blocks = []
    for index, block in enumerate(_blocks(data.decode("utf-8"))):
        if index == 0 and old_fields:
            block = _kept_header_lines(block, old_fields)
        strings = _strings(block)
        kept = before.get(strings[0]) if strings is not None else None
        if kept is not None and kept[1:3] == strings[1:3] and kept[3] != strings[3]:
            start = block.index(strings[3])
            block = block[:start] + kept[3] + block[start + len(strings[3]):]
        blocks.append(block)
    return "\n\n".join(blocks).encode("utf-8")


def _blocks(text: str) -> list[str]:
    return text.split("\n\n")


def _header_fields(block: str) -> dict[str, tuple[str, ...]]:
    """The header entry's fields, each as the quoted lines that write it (a wrapped field takes
    several; each ends with its ``\\n``); empty when ``block`` is not a header entry."""
    lines = block.split("\n")
    if 'msgid ""' not in lines:
        return {}
    fields: dict[str, tuple[str, ...]] = {}
    group: list[str] = []
    for line in lines[lines.index('msgid ""') + 1:]:
        if line.startswith("msgstr "):
            line = line[len("msgstr "):]
            if line == '""':
                continue
        if not line.startswith('"'):
            break
        group.append(line)
        if line.endswith('\\n"'):
            fields[denormalize("\n".join(group))] = tuple(group)
            group = []
    return fields


def _kept_header_lines(block: str, old_fields: dict[str, tuple[str, ...]]) -> str:
    """The header entry ``block`` with each field that reads as it did written in its old lines."""
    lines = block.split("\n")
    out = []
    for line in lines:
        if line.startswith('"') and line.endswith('\\n"'):
            kept = old_fields.get(denormalize(line))
            if kept is not None:
                out.extend(kept)
                continue
        out.append(line)
    return "\n".join(out)


_KEYWORDS = ("msgctxt ", "msgid ", "msgstr ")


def _strings(block: str) -> tuple[str, str, str, str] | None:
    """(key, source, translation, the lines that write them) of an entry of a PO file's text;
    None for the header, an obsolete entry or a plural one."""
    lines = block.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("msgctxt ")), None)
    if start is None:
        return None
    values: dict[str, list[str]] = {}
    current = None
    end = start
    for index in range(start, len(lines)):
        line = lines[index]
        keyword = next((k for k in _KEYWORDS if line.startswith(k)), None)
        if keyword is not None:
            current = keyword.strip()
            values[current] = [line[len(keyword):]]
        elif line.startswith('"') and current is not None:
            values[current].append(line)
        else:
            break
        end = index
    if set(values) != {"msgctxt", "msgid", "msgstr"}:
        return None
    try:
        key, source, translation = (denormalize("\n".join(values[k])) for k in ("msgctxt", "msgid", "msgstr"))
    except Exception:  # noqa: BLE001 - a line the reader refused already; nothing to keep
        return None
    return key, source, translation, "\n".join(lines[start:end + 1])


def _date_of(header: Header):
    """The POT-Creation-Date a header carries (so comparing it with a fresh one ignores the date)."""
    from datetime import datetime

    try:
        return datetime.strptime(header.fields.get("POT-Creation-Date", ""), "%Y-%m-%d %H:%M%z")
    except ValueError:
        return build_date()


__all__ = [
    "Entry",  # re-exported: the reader lives in cardgen.content.translations
    "MergeReport",
    "body",
    "build_date",
    "kept_wrapping",
    "merge",
    "origin",
    "read_catalog",
    "read_entries",
    "render",
    "template",
    "update",
    "write_template",
]
