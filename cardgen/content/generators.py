"""Expand the card generators of ``cards.yaml`` into plain cards.

A generator is one entry of ``cards:``::

    - generate:
        color: [red, green, blue, yellow]
        number: {from: 1, to: 12}
      card:
        id: "{color}-{number}"
        group: numbers
        text: {name: "card.{color}.name"}
        attrs: {color: "{color}", value: "{number}"}

It makes one card for each combination of the values, in product order: the
first name listed changes slowest (red-1 ... red-12, green-1 ...).  Template
rules:

* ``{name}`` is replaced by the value; ``{name.field}`` reads a field of a row
  when the values are mappings (``player: [{name: stenkin, points: 5}, ...]``);
  ``{{`` and ``}}`` write a literal brace.
* A value that is exactly one placeholder keeps its type in ``copies`` and
  ``attrs`` (``value: "{number}"`` gives the integer 12); everywhere else (id,
  group, kind, back, art, text keys) placeholders fill in text, so
  ``"{number}"`` in an id gives ``"12"``.  True and false are written
  ``true`` and ``false``.
* Keys (the names under ``text`` and ``attrs``) are never templated.
* The id must use every name of ``generate``, so each card gets its own id.
* Caps: a range holds at most ``MAX_RANGE_VALUES`` numbers, and one file's
  generators make at most ``MAX_GENERATED_CARDS`` cards together.

Expansion runs after the schema check of the file and before the
cross-reference checks, so every later check sees plain cards.  The loader
swaps the document of ``cards.yaml`` for :attr:`ExpandedCards.document`, a
view in which card ``i`` of the expanded deck sits at ``cards[i]`` with the
line and column of the template it came from; :meth:`ExpandedCards.explain`
then rewrites an error about an expanded card to name the generator, its
field path in the file and the values that made the card.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from dataclasses import dataclass
from typing import Any, Iterator

from cardgen.content.model import (
    MAX_GENERATED_CARDS,
    MAX_RANGE_VALUES,
    CardGenerator,
    CardsFile,
    ValueRange,
)
from cardgen.content.yamlsource import Mark, Path_, YamlDocument
from cardgen.errors import ContentError, Locator

Scalar = str | int | bool
Value = Scalar | dict[str, Scalar]  # a plain value, or a row of named fields

#: Fields of a card whose whole-placeholder value keeps the value's type.
_TYPED_FIELDS = {"copies", "attrs"}

_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_PLACEHOLDER = re.compile(r"^([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?$")
_CARD_FIELD = re.compile(r"^cards\[(\d+)\]")
#: How checks.unique_ids names the first card of a duplicate id; only this
#: phrase is rewritten, never a user's own text quoted in a message.
_CARD_MENTION = re.compile(r"(?<=also at )cards\[(\d+)\]")


@dataclass(frozen=True)
class CardOrigin:
    """Where an expanded card comes from in ``cards.yaml``."""

    entry: int  # index of the entry under ``cards:``
    #: The generator's values for this card, in the order of ``generate``;
    #: empty for a card written out.
    values: tuple[tuple[str, Value], ...] = ()

    @property
    def generated(self) -> bool:
        return bool(self.values)


@dataclass
class ExpandedCards:
    """The deck of one ``cards.yaml`` with its generators expanded."""

    source: YamlDocument
    #: ``{"cards": [card mapping, ...]}`` in deck order, with positions that
    #: point at the lines each card came from (a generated card: its template).
    document: YamlDocument
    origins: list[CardOrigin]

    def explain(self, error: ContentError) -> ContentError:
        """``error`` as the user should read it, when it is about an expanded card.

        Errors located through :attr:`document` carry the deck index
        (``cards[14].group``); this turns it into the path in the file
        (``cards[2].card.group``) and, for a generated card, names the
        generator and the values that made the card.
        """
        index = self._card_index(error)
        if index is None:
            return error
        locator = error.locator
        origin = self.origins[index]
        field = self._source_path(origin) + _CARD_FIELD.sub("", locator.field, count=1)
        message = _CARD_MENTION.sub(lambda m: self._mention(int(m.group(1))), error.message)
        if origin.generated:
            message = f"{self._describe(index)}: {message}"
        return ContentError(message, locator.with_(field=field))

    def explain_all(self, errors: list[ContentError]) -> list[ContentError]:
        """:meth:`explain` each error, then report a problem of a generator's template once:
        the same message at the same place for several of its cards becomes one error that
        counts the others (a wrong ``copies:`` in a template is one mistake, not 48)."""
        result: list[ContentError] = []
        merged: dict[tuple, tuple[int, list[str]]] = {}
        for error in errors:
            explained = self.explain(error)
            index = self._card_index(error)
            if index is None or not self.origins[index].generated:
                result.append(explained)
                continue
            key = (explained.locator.with_(card=None), error.message, self.origins[index].entry)
            if key in merged:
                merged[key][1].append(str(self.document.data["cards"][index].get("id")))
                continue
            merged[key] = (len(result), [])
            result.append(explained)
        for position, others in merged.values():
            if others:
                first = result[position]
                shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
                result[position] = ContentError(
                    f"{first.message} (and {len(others)} more card(s) of this generator: {shown})",
                    first.locator)
        return result

    def _card_index(self, error: ContentError) -> int | None:
        locator = error.locator
        if locator.file != self.document.display_path or not locator.field:
            return None
        match = _CARD_FIELD.match(locator.field)
        if match is None or int(match.group(1)) >= len(self.origins):
            return None
        return int(match.group(1))

    def _source_path(self, origin: CardOrigin) -> str:
        return f"cards[{origin.entry}].card" if origin.generated else f"cards[{origin.entry}]"

    def _mention(self, index: int) -> str:
        if index >= len(self.origins):
            return f"cards[{index}]"
        origin = self.origins[index]
        if not origin.generated:
            return f"cards[{origin.entry}]"
        return f"cards[{origin.entry}], the generator's card with {_show_values(origin.values)}"

    def _describe(self, index: int) -> str:
        origin = self.origins[index]
        card_id = self.document.data["cards"][index].get("id")
        mark = self.source.value_marks.get(("cards", origin.entry))
        where = self.source.display_path.name
        if mark is not None:
            where += f":{mark.line}:{mark.column}"
        return f"card '{card_id}' from the generator at {where} ({_show_values(origin.values)})"


def expand_cards(
    source: YamlDocument, cards_file: CardsFile, errors: list[ContentError]
) -> ExpandedCards | None:
    """Expand every generator of a schema-checked ``cards.yaml``.

    Problems of a generator (unknown placeholder, reversed range, too many
    cards, ...) are appended to ``errors`` and give ``None``.  The expanded
    cards are plain mappings in the returned document, still to be checked
    against the :class:`~cardgen.content.model.Card` schema.
    """
    raw_entries = source.data["cards"]
    cards: list[Any] = []
    origins: list[CardOrigin] = []
    failed = False
    made = 0
    for entry, model in enumerate(cards_file.cards):
        if not isinstance(model, CardGenerator):
            cards.append(raw_entries[entry])
            origins.append(CardOrigin(entry))
            continue
        generator = _Generator(source, entry, model, raw_entries[entry]["card"])
        problems = generator.problems(already_made=made)
        if problems:
            errors.extend(problems)
            failed = True
            continue
        made += generator.size
        for values, card in generator.expand():
            cards.append(card)
            origins.append(CardOrigin(entry, values))
    if failed:
        return None
    document = YamlDocument(path=source.path, display_path=source.display_path, data={"cards": cards})
    _copy_marks(source, origins, document)
    return ExpandedCards(source=source, document=document, origins=origins)


class _TemplateError(Exception):
    """A template string that cannot be read; the message says why."""


@dataclass(frozen=True)
class _Template:
    """A parsed template string: literal text and (name, field) placeholders."""

    parts: tuple[str | tuple[str, str | None], ...]

    @property
    def whole(self) -> bool:
        return len(self.parts) == 1 and isinstance(self.parts[0], tuple)

    def placeholders(self) -> Iterator[tuple[str, str | None]]:
        return (part for part in self.parts if isinstance(part, tuple))

    def fill(self, values: dict[str, Value], typed: bool) -> Scalar:
        if typed and self.whole:
            return _lookup(values, *self.parts[0])
        return "".join(
            part if isinstance(part, str) else _as_text(_lookup(values, *part)) for part in self.parts
        )


def _parse_template(text: str) -> _Template:
    """Split ``text`` into literals and placeholders; raise ``_TemplateError``."""
    parts: list[str | tuple[str, str | None]] = []
    literal = ""
    position = 0
    for match in _TOKEN.finditer(text):
        literal += text[position:match.start()]
        position = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            literal += token[0]
        elif token in ("{", "}"):
            raise _TemplateError(
                f"unmatched '{token}' in {text!r}; write {{name}} for a placeholder "
                f"and '{token * 2}' for a literal brace"
            )
        else:
            found = _PLACEHOLDER.match(match.group(1).strip())
            if found is None:
                raise _TemplateError(
                    f"'{token}' in {text!r} is not a placeholder; write {{name}} or {{name.field}} "
                    "with a name from 'generate' (lower-case letters, digits, underscores)"
                )
            if literal:
                parts.append(literal)
                literal = ""
            parts.append((found.group(1), found.group(2)))
    literal += text[position:]
    if literal or not parts:
        parts.append(literal)
    return _Template(tuple(parts))


class _Generator:
    """One generator entry: its checked values and parsed templates."""

    def __init__(self, source: YamlDocument, entry: int, model: CardGenerator, raw_card: dict):
        self.source = source
        self.entry = entry
        self.model = model
        self.raw_card = raw_card
        self.values: dict[str, list[Value]] = {}
        self.templates: dict[Path_, _Template] = {}
        self.size = 0

    def at(self, *where: str | int, key: bool = False) -> Locator:
        return self.source.locate(("cards", self.entry, *where), key=key)

    def problems(self, already_made: int) -> list[ContentError]:
        """Everything wrong with this generator; also fills values, templates and size."""
        found: list[ContentError] = []
        for name, spec in self.model.generate.items():
            values = self._values(name, spec, found)
            if values is not None:
                self.values[name] = values
        self._parse_templates(found)
        if len(self.values) < len(self.model.generate):
            return found  # the size is unknown while some values are wrong
        self.size = math.prod(len(values) for values in self.values.values())
        if self.size > MAX_GENERATED_CARDS:
            sizes = " x ".join(str(len(values)) for values in self.values.values())
            found.append(ContentError(
                f"this generator makes {self.size:,} cards ({sizes}); a generator makes at most "
                f"{MAX_GENERATED_CARDS:,}", self.at("generate")))
        elif already_made + self.size > MAX_GENERATED_CARDS:
            found.append(ContentError(
                f"the generators of this file make {already_made + self.size:,} cards with this one; "
                f"one file's generators make at most {MAX_GENERATED_CARDS:,}", self.at("generate")))
        return found

    def _values(self, name: str, spec: Any, found: list[ContentError]) -> list[Value] | None:
        if isinstance(spec, ValueRange):
            if spec.from_ > spec.to:
                found.append(ContentError(
                    f"range of '{name}' runs backwards: 'from' {spec.from_} is greater than "
                    f"'to' {spec.to}", self.at("generate", name, "from")))
                return None
            count = (spec.to - spec.from_) // spec.step + 1
            if count > MAX_RANGE_VALUES:
                found.append(ContentError(
                    f"range of '{name}' holds {count:,} numbers; a range holds at most "
                    f"{MAX_RANGE_VALUES:,}", self.at("generate", name)))
                return None
            return list(range(spec.from_, spec.to + 1, spec.step))
        rows = [value for value in spec if isinstance(value, dict)]
        if rows and len(rows) != len(spec):
            first_plain = next(i for i, value in enumerate(spec) if not isinstance(value, dict))
            found.append(ContentError(
                f"'{name}' mixes rows (mappings) and plain values; use one or the other",
                self.at("generate", name, first_plain)))
            return None
        if rows:
            fields = list(rows[0])
            for index, row in enumerate(rows[1:], start=1):
                if set(row) != set(fields):
                    found.append(ContentError(
                        f"row {index + 1} of '{name}' has the fields {', '.join(row) or 'none'}; "
                        f"every row needs the fields of the first: {', '.join(fields)}",
                        self.at("generate", name, index)))
                    return None
        return list(spec)

    def _parse_templates(self, found: list[ContentError]) -> None:
        for where, text in _template_strings(self.raw_card):
            try:
                template = _parse_template(text)
                for name, field in template.placeholders():
                    self._check_placeholder(name, field)
            except _TemplateError as problem:
                found.append(ContentError(str(problem), self.at("card", *where)))
                continue
            self.templates[where] = template
        used_in_id = {name for name, _ in self.templates.get(("id",), _Template(())).placeholders()}
        missing = [name for name in self.model.generate if name not in used_in_id]
        if ("id",) in self.templates and missing:
            shown = ", ".join(f"{{{name}}}" for name in missing)
            found.append(ContentError(
                f"the id does not use {shown}, so several cards would share one id; "
                "put every name of 'generate' in the id", self.at("card", "id")))

    def _check_placeholder(self, name: str, field: str | None) -> None:
        names = list(self.model.generate)
        if name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            hint = f" (did you mean '{{{close[0]}}}'?)" if close else ""
            raise _TemplateError(
                f"unknown placeholder '{{{name}}}'{hint}; 'generate' defines: " + ", ".join(names))
        values = self.values.get(name)
        if values is None:
            return  # its values are wrong, and reported
        row = values[0] if isinstance(values[0], dict) else None
        if field is None and row is not None:
            raise _TemplateError(
                f"'{name}' holds rows; name one of their fields: "
                + ", ".join(f"{{{name}.{key}}}" for key in row))
        if field is not None and row is None:
            raise _TemplateError(
                f"'{{{name}.{field}}}': the values of '{name}' are plain values, not rows with fields; "
                f"write {{{name}}}")
        if field is not None and row is not None and field not in row:
            raise _TemplateError(
                f"the rows of '{name}' have no field '{field}'; they have: {', '.join(row)}")

    def expand(self) -> Iterator[tuple[tuple[tuple[str, Value], ...], dict]]:
        """(values, card mapping) for every combination, first name slowest."""
        names = list(self.values)
        for combination in itertools.product(*self.values.values()):
            values = dict(zip(names, combination))
            yield tuple(values.items()), self._card(values)

    def _card(self, values: dict[str, Value]) -> dict:
        card: dict = {}
        for key, value in self.raw_card.items():
            if isinstance(value, dict):
                card[key] = {
                    name: self._fill((key, name), item, values, typed=key in _TYPED_FIELDS)
                    for name, item in value.items()
                }
            else:
                card[key] = self._fill((key,), value, values, typed=key in _TYPED_FIELDS)
        return card

    def _fill(self, where: Path_, value: Any, values: dict[str, Value], typed: bool) -> Any:
        template = self.templates.get(where)
        return value if template is None else template.fill(values, typed)


def _template_strings(raw_card: dict) -> Iterator[tuple[Path_, str]]:
    """Every text value of a card template with its path inside the template."""
    for key, value in raw_card.items():
        if isinstance(value, str):
            yield (key,), value
        elif isinstance(value, dict):
            for name, item in value.items():
                if isinstance(item, str):
                    yield (key, name), item


def _lookup(values: dict[str, Value], name: str, field: str | None) -> Scalar:
    value = values[name]
    return value[field] if isinstance(value, dict) and field is not None else value  # type: ignore[return-value]


def _as_text(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"  # as YAML writes them, not Python's True
    return str(value)


def _show_values(values: tuple[tuple[str, Value], ...]) -> str:
    def show(value: Value) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{key}: {_as_text(item)}" for key, item in value.items()) + "}"
        return _as_text(value)

    return ", ".join(f"{name}={show(value)}" for name, value in values)


def _copy_marks(source: YamlDocument, origins: list[CardOrigin], document: YamlDocument) -> None:
    """Give ``document`` the positions of the source lines each expanded card came from."""
    for marks, copies in ((source.value_marks, document.value_marks), (source.key_marks, document.key_marks)):
        by_entry: dict[int, list[tuple[Path_, Mark]]] = {}
        for path, mark in marks.items():
            if len(path) >= 2 and path[0] == "cards" and isinstance(path[1], int):
                by_entry.setdefault(path[1], []).append((path[2:], mark))
            else:
                copies[path] = mark
        for index, origin in enumerate(origins):
            for rest, mark in by_entry.get(origin.entry, ()):
                if not origin.generated:
                    copies[("cards", index, *rest)] = mark
                elif rest[:1] == ("card",):
                    copies[("cards", index, *rest[1:])] = mark


__all__ = ["CardOrigin", "ExpandedCards", "expand_cards"]
