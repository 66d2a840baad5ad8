"""The header entry of a PO or POT file: what cardgen fills in, and what it keeps.

A new file's header comes from the game: ``Project-Id-Version`` is its title (source text)
and ``translation: {version}`` of ``game.yaml``, ``Report-Msgid-Bugs-To`` its
``translation: {contact}``, ``Language-Team`` the team ``game.yaml`` names for the language (else
the language's name), ``Plural-Forms`` the language's CLDR rule, and the dates the build date
(``SOURCE_DATE_EPOCH``, else now).  No field keeps gettext's placeholder values
(``FULL NAME <EMAIL@ADDRESS>``, ``YEAR-MO-DA``...), so ``msgfmt -c`` has nothing to warn about.

A file that exists is the translator's: ``cardgen i18n update`` keeps its header comments and
every field its translator or their tool (Poedit, Weblate) wrote - ``Last-Translator``,
``PO-Revision-Date``, ``Language-Team``, ``Plural-Forms``, ``X-Generator`` and the rest (the
standard fields in gettext's order, as msgmerge writes them, then the others as they were) -
and sets only what comes from the source, as ``msgmerge`` does:
``Project-Id-Version``, ``Report-Msgid-Bugs-To`` and ``POT-Creation-Date``.  Those are set only
when the entries changed too (:func:`cardgen.i18n.po.update` leaves an up-to-date file alone),
so regenerating never churns version control.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from cardgen.errors import I18nError
from cardgen.i18n.names import language_name, plural_forms

#: The fields cardgen sets from the source on every update, as msgmerge does from the POT.
FROM_SOURCE = ("Project-Id-Version", "Report-Msgid-Bugs-To", "POT-Creation-Date")
#: gettext's placeholder values (what xgettext and msginit leave for a person to fill in).
PLACEHOLDERS = ("FULL NAME <EMAIL@ADDRESS>", "YEAR-MO-DA HO:MI+ZONE", "LANGUAGE <LL@li.org>",
                "PACKAGE VERSION", "EMAIL@ADDRESS")
#: Headers that name the writing tool's version: they changed with every Babel release.
_DROPPED = ("Generated-By",)


def build_date() -> datetime:
    """``SOURCE_DATE_EPOCH`` when set (reproducible files), else now."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        return datetime.now(tz=timezone.utc).replace(second=0, microsecond=0)
    try:
        seconds = int(epoch)
    except ValueError:
        raise I18nError(f"SOURCE_DATE_EPOCH must be a whole number of seconds, found {epoch!r}") from None
    if not 0 <= seconds <= 253402300799:  # up to 9999-12-31
        raise I18nError(f"SOURCE_DATE_EPOCH must be between 0 and 253402300799, found {seconds}")
    return datetime.fromtimestamp(seconds, tz=timezone.utc)


def po_date(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M+0000")


@dataclass
class Header:
    """Comment lines (without their ``#``) and fields, both in file order."""

    comments: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)

    def render(self) -> str:
        lines = [f"#{' ' if text else ''}{text}" for text in self.comments]
        lines += ['msgid ""', 'msgstr ""']
        lines += [f'"{_quote(name)}: {_quote(value)}\\n"' for name, value in self.fields.items()]
        return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\t", " ")


def _unquote(text: str) -> str:
    out, i = [], 0
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            out.append(escapes.get(text[i + 1], text[i + 1]))
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out)


def read_header(text: str) -> Header | None:
    """The header entry of a PO file's text (its leading comments and fields); None when the
    file has none (its first entry has a msgctxt or a non-empty msgid)."""
    comments: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines) and (lines[index].startswith("#") or not lines[index].strip()):
        line = lines[index]
        if line.startswith("#,"):
            pass  # the header's flags (a "fuzzy" header) are the tool's, not kept
        elif line == "#" or line.startswith("# "):
            comments.append(line[2:])
        elif line.strip():
            return None  # "#." or "#:" comments: an ordinary entry comes first
        index += 1
    if index >= len(lines) or lines[index].strip() != 'msgid ""':
        return None
    index += 1
    if index >= len(lines) or not lines[index].strip().startswith("msgstr"):
        return None
    value = lines[index].strip()[len("msgstr"):].strip()
    parts = [value[1:-1]] if len(value) >= 2 else []
    index += 1
    while index < len(lines) and lines[index].strip().startswith('"'):
        part = lines[index].strip()
        parts.append(part[1:-1])
        index += 1
    fields: dict[str, str] = {}
    for raw in _unquote("".join(parts)).split("\n"):
        name, colon, value = raw.partition(":")
        if colon and name.strip():
            fields[name.strip()] = value.strip()
    return Header(comments, fields)


@dataclass(frozen=True)
class Origin:
    """What the header says about the catalogue, from the game (or cardgen for shared strings)."""

    project: str  # "Klepka 1.2"
    title: str  # "Klepka"
    contact: str = ""
    teams: dict[str, str] = field(default_factory=dict)
    source_language: str = ""


def new_header(origin: Origin, language: str | None, date: datetime) -> Header:
    """The header of a new POT (``language`` None) or PO file."""
    stamp = po_date(date)
    if language is None:
        comments = [f"Messages of {origin.title} for translators.",
                    "Written by 'cardgen i18n extract'; translate with 'cardgen i18n add LANG'."]
    else:
        comments = [f"{language_name(language)} translation of {origin.title}."]
    fields = {
        "Project-Id-Version": origin.project,
        "Report-Msgid-Bugs-To": origin.contact,
        "POT-Creation-Date": stamp,
    }
    if language is not None:
        team = origin.teams.get(language) or language_name(language)
        fields.update({
            "PO-Revision-Date": stamp,
            "Last-Translator": "",
            "Language-Team": team,
            "Language": language.replace("-", "_"),
        })
    else:
        # a template names the language of its msgids: 'msgfmt -c' wants a Language, and
        # Poedit reads X-Source-Language; the translator's tool sets the PO file's own
        fields.update({
            "PO-Revision-Date": stamp,
            "Last-Translator": "",
            "Language-Team": "",
            "Language": origin.source_language.replace("-", "_"),
        })
    fields.update({
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    })
    if origin.source_language:
        fields["X-Source-Language"] = origin.source_language.replace("-", "_")
    forms = plural_forms(language) if language is not None else None
    if forms:
        fields["Plural-Forms"] = forms
    return Header(comments, canonical_order(fields))


def merged_header(existing: Header | None, origin: Origin, language: str | None, date: datetime) -> Header:
    """The header after an update: ``existing`` with the source's fields set (and any field
    gettext requires that it lacks added, or left at a placeholder value replaced)."""
    fresh = new_header(origin, language, date)
    if existing is None:
        return fresh
    fields = {name: value for name, value in existing.fields.items() if name not in _DROPPED}
    for name in FROM_SOURCE:
        fields[name] = fresh.fields[name]
    for name, value in fresh.fields.items():
        if name in _NEW_FILES_ONLY and name not in fields:
            continue  # not a field gettext needs: a translator's header without it stays so
        if name not in fields or _stale_default(name, fields[name]):
            fields[name] = value
    fields["Content-Type"] = fresh.fields["Content-Type"]  # cardgen writes UTF-8, whatever was declared
    comments = [line for line in existing.comments if not _placeholder_comment(line)]
    if len(comments) < len(existing.comments):  # the blank "#" that closed gettext's placeholder lines
        while comments and not comments[-1].strip():
            comments.pop()
    return Header(comments or fresh.comments, canonical_order(fields))


#: Fields a new file gets that an update does not add to a translator's header (msgmerge does not
#: either): Poedit's name for the source language, which the translator's tool may set itself.
_NEW_FILES_ONLY = ("X-Source-Language",)


#: gettext's order of the standard fields (msgmerge writes a header in it); others follow as found.
GETTEXT_ORDER = ("Project-Id-Version", "Report-Msgid-Bugs-To", "POT-Creation-Date", "PO-Revision-Date",
                 "Last-Translator", "Language-Team", "Language", "MIME-Version", "Content-Type",
                 "Content-Transfer-Encoding", "Plural-Forms")


def canonical_order(fields: dict[str, str]) -> dict[str, str]:
    """``fields`` with gettext's standard ones first in gettext's order, as msgmerge writes them
    (so its files and ours agree); the others (X-Generator, X-Poedit-...) after, as they were."""
    ordered = {name: fields[name] for name in GETTEXT_ORDER if name in fields}
    ordered.update((name, value) for name, value in fields.items() if name not in ordered)
    return ordered


def _placeholder_comment(line: str) -> bool:
    """The comment lines xgettext and earlier cardgen versions wrote for a person to fill in."""
    return ("FIRST AUTHOR <EMAIL@ADDRESS>" in line or "ORGANIZATION" in line
            or " translations for cardgen " in line or line.startswith("Translations template for cardgen")
            or line.startswith("This file is distributed under the same license as the cardgen")
            or line == "project." or line.startswith("SOME DESCRIPTIVE TITLE"))


def _stale_default(name: str, value: str) -> bool:
    """A value gettext or an earlier cardgen wrote for a person to replace: the epoch as a
    revision date, "xx <translators of GAME>" as a team."""
    if value in PLACEHOLDERS:
        return True
    if name == "PO-Revision-Date" and value.startswith("1970-01-01"):
        return True
    if name == "Language-Team" and re.fullmatch(r"\S+ <translators of [^>]*>", value):
        return True
    return name == "Content-Type" and "CHARSET" in value


__all__ = ["FROM_SOURCE", "Header", "Origin", "build_date", "merged_header", "new_header", "po_date",
           "read_header"]
