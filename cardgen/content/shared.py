"""The shared strings: headings, tables and page furniture of every rulebook and
print-and-play file ("Setup", "Cards in the box: {total}", "Cut along the marks", ...).

cardgen ships them as source text in several languages, ``cardgen/common/text/<lang>.yaml``
(English, Russian, German), so a game in any of those languages needs none of its own and a
game's ``source_language`` picks which set is its source.  A content folder may hold its own
``common/``:

* ``common/text/<lang>.yaml`` overrides cardgen's strings key by key (or adds a language);
* ``common/locale/<lang>.po`` translates them into a language neither has text for
  (written by ``cardgen i18n add``; its ``msgid`` is the text of the source language it was
  made from, and stays current as long as that text is unchanged).

A content folder holding only game folders is complete.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from cardgen import resources
from cardgen.content.arguments import arguments
from cardgen.content.translations import LOCALE_DIR, Entry, read_entries
from cardgen.content.yamlsource import YamlDocument, read_yaml
from cardgen.errors import ContentError, ContentErrors, I18nError, Locator, shown_path

COMMON = "common"
TEXT_DIR = "text"
_WORD = re.compile(r"[^\W\d_]{4,}")
BUILTIN_DIR = resources.SHARED_TEXT.parent


@dataclass
class SharedStrings:
    """cardgen's shared strings with a content folder's own ``common/`` laid over them."""

    folder: Path  # <content>/common; need not exist
    texts: dict[str, dict[str, str]]  # language -> key -> text
    #: language -> key -> (file as shown in messages, line) of the text in force
    lines: dict[str, dict[str, tuple[str, int]]] = field(default_factory=dict)
    display_root: Path | None = None
    #: cardgen's own strings, language -> key -> text (before the folder's are laid over)
    builtin: dict[str, dict[str, str]] = field(default_factory=dict)

    def copies(self, language: str) -> set[str]:
        """Keys whose text in ``language`` is cardgen's text of another language, word for word:
        the English copy 'cardgen new' writes for a language cardgen lacks, not yet translated.
        Only for a language the folder adds (cardgen's own are translations), and only texts
        with a word of four letters or more ("50 mm" is the same in many languages)."""
        if language in self.builtin or language not in self.texts:
            return set()
        found = set()
        for key, text in self.texts[language].items():
            if not _WORD.search(text):
                continue
            if any(other.get(key) == text for other in self.builtin.values()):
                found.add(key)
        return found

    def languages(self) -> list[str]:
        """Languages with source text (cardgen's or the folder's)."""
        return sorted(self.texts)

    def has_text(self, language: str) -> bool:
        return language in self.texts

    def source(self, language: str) -> dict[str, str]:
        """The strings in ``language``; :class:`ContentError` when there is no text for it."""
        try:
            return self.texts[language]
        except KeyError:
            raise ContentError(self.missing_language_message(language)) from None

    def missing_language_message(self, language: str) -> str:
        return (
            f"cardgen has no shared strings (rulebook headings, print-and-play instructions) in "
            f"'{language}'; it has {', '.join(self.languages())}. Add common/text/{language}.yaml to "
            f"the content folder (a copy of {BUILTIN_DIR / TEXT_DIR / 'en.yaml'} translated; "
            f"'cardgen new' writes one)"
        )

    def po_path(self, language: str) -> Path:
        return self.folder / LOCALE_DIR / f"{language}.po"

    def translation_errors(self) -> list[ContentError]:
        """Placeholders in ``common/locale/*.po`` that cardgen never fills for their key."""
        locale = self.folder / LOCALE_DIR
        if not locale.is_dir():
            return []
        errors = []
        for path in sorted(locale.glob("*.po")):
            shown = shown_path(path, self.display_root)
            for key, entry in read_entries(path, shown.as_posix(), root=self.folder).items():
                if entry.text:
                    errors += argument_errors(key, entry.text, Locator(file=shown, line=entry.line, field=key,
                                                                        language=path.stem))
        return errors

    def translations(self, language: str, source_language: str) -> dict[str, Entry]:
        """Entries of ``language`` for a catalogue whose source is ``source_language``.

        A language with text of its own gives complete, current entries; any other is read
        from ``common/locale/<language>.po``, where an entry made from the text of another
        source language still counts as current while that text is unchanged.
        """
        source = self.texts.get(source_language, {})
        if language in self.texts:
            own = self.texts[language]
            return {key: Entry(key, text, own[key], False) for key, text in source.items() if key in own}
        path = self.po_path(language)
        if not path.is_file():
            return {}
        entries = read_entries(path, shown_path(path, self.display_root).as_posix(), root=self.folder)
        current = {}
        for key, entry in entries.items():
            made_from_current_text = any(texts.get(key) == entry.source for texts in self.texts.values())
            if made_from_current_text and key in source:
                entry = Entry(key, source[key], entry.text, entry.fuzzy, entry.previous, entry.line)
            current[key] = entry
        return current


def load_shared(content_dir: Path, display_root: Path | None = None) -> SharedStrings:
    """cardgen's shared strings overlaid with ``<content_dir>/common/text/*.yaml``.

    Raises :class:`ContentErrors` listing every problem of the folder's own files.
    """
    texts: dict[str, dict[str, str]] = {}
    lines: dict[str, dict[str, tuple[str, int]]] = {}
    for doc, language, messages in _builtin():
        _lay_over(texts, lines, doc, language, messages, display_root)
    builtin = {language: dict(messages) for language, messages in texts.items()}
    every_key = set().union(*builtin.values()) if builtin else set()
    errors: list[ContentError] = []
    folder = content_dir / COMMON
    text_dir = folder / TEXT_DIR
    if text_dir.is_dir():
        for path in sorted(text_dir.glob("*.yaml")):
            parsed = _read(path, shown_path(path, display_root), errors, root=folder)
            if parsed is not None:
                doc, language, messages = parsed
                for key, text in messages.items():
                    errors += argument_errors(key, text, doc.locate(("messages", key)).with_(language=language))
                missing = sorted(every_key - set(messages)) if language not in builtin else []
                if missing:
                    # a language cardgen lacks: every heading a rulebook or print-and-play file
                    # prints must be there, or the build fails on the first one it needs
                    errors.append(ContentError(
                        f"{len(missing)} shared string(s) missing for '{language}': {', '.join(missing[:8])}"
                        f"{' ...' if len(missing) > 8 else ''} (cardgen's own text/en.yaml has every key)",
                        doc.locate(("messages",), key=True).with_(language=language)))
                _lay_over(texts, lines, *parsed, display_root)
    if errors:
        raise ContentErrors(errors)
    return SharedStrings(folder, texts, lines, display_root, builtin)


def _lay_over(texts, lines, doc: YamlDocument, language: str, messages: dict[str, str],
              display_root: Path | None) -> None:
    texts.setdefault(language, {}).update(messages)
    shown = doc.display_path.as_posix()
    where = lines.setdefault(language, {})
    for key in messages:
        mark = doc.key_marks.get(("messages", key))
        where[key] = (shown, mark.line if mark else 0)


def argument_errors(key: str, text: str, where: Locator) -> list[ContentError]:
    """A shared string's own text may use only the placeholders cardgen fills for its key
    (those of cardgen's text of the key); any other would fail the build that prints it."""
    taken = _builtin_arguments().get(key)
    if taken is None:  # a key of the folder's own: nothing of cardgen prints it
        return []
    return [
        ContentError(f"placeholder {{{name}}} is never filled in for '{key}' (it takes "
                     f"{', '.join(f'{{{n}}}' for n in sorted(taken)) or 'none'})", where)
        for name in sorted(arguments(text) - taken)
    ]


def builtin_keys() -> frozenset[str]:
    """The keys of cardgen's own shared strings (a game may word any of them its own way)."""
    return frozenset(_builtin_arguments())


@lru_cache(maxsize=1)
def _builtin_arguments() -> dict[str, frozenset[str]]:
    taken: dict[str, set[str]] = {}
    for _, _, messages in _builtin():
        for key, text in messages.items():
            taken.setdefault(key, set()).update(arguments(text))
    return {key: frozenset(names) for key, names in taken.items()}


@lru_cache(maxsize=1)
def _builtin() -> tuple[tuple[YamlDocument, str, dict[str, str]], ...]:
    """cardgen's own shared strings, read once per process (they ship with the package)."""
    errors: list[ContentError] = []
    found = []
    for path in sorted((BUILTIN_DIR / TEXT_DIR).glob("*.yaml")):
        parsed = _read(path, path, errors)
        if parsed is not None:
            found.append(parsed)
    if errors:  # a broken installation, not a content mistake
        raise I18nError("cardgen's own shared strings are broken: " + "; ".join(map(str, errors)))
    return tuple(found)


def _read(path: Path, shown: Path, errors: list[ContentError], root: Path | None = None):
    from cardgen.content.modelcheck import validate_document
    from cardgen.content.model import MessagesFile

    try:
        doc = read_yaml(path, shown, root=root)  # the content folder's own: never through a symlink out of common/
    except ContentError as error:
        errors.append(error)
        return None
    parsed = validate_document(doc, MessagesFile, errors)
    if parsed is None:
        return None
    if parsed.language != path.stem:
        errors.append(ContentError(
            f"language '{parsed.language}' does not match the file name (expected '{path.stem}')",
            doc.locate(("language",)),
        ))
        return None
    return doc, parsed.language, dict(parsed.messages)


__all__ = ["BUILTIN_DIR", "COMMON", "SharedStrings", "builtin_keys", "load_shared"]
