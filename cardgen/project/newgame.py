"""``cardgen new``: a complete game folder to start a publisher's own game from.

:func:`create_game` writes, from the templates in ``templates/new-game/``:

* ``game.yaml``   - players, card size, one back, a group of generated number cards in
  three kinds and a group of action cards, attributes and one setting;
* ``cards.yaml``  - a generator (three colours x 1-6) and two cards written out;
* ``text/<source>.yaml`` - every word the cards print and every rulebook section, the rule
  text as clearly marked placeholders (:data:`PLACEHOLDER_MARKERS`), in the source language
  (English, German or Russian; English placeholders for any other language);
* ``layout.yaml`` - a starter layout of the game's own, in percentages, with a symbol of its own;
* ``art/back.png`` - a placeholder picture of the card back, to the edge of the bleed at 300 ppi
  (the layout places it with an ``image`` element: replace the file with the real back);
* ``locale/<lang>.po`` for every other language (and the shared strings' PO file in the
  content folder's ``common/`` when cardgen has no shared text in that language);
* ``<content>/schema/*.json`` - the JSON Schemas the files' ``$schema`` lines name, so editors
  complete keys with nothing copied by hand.

``cardgen validate`` and ``cardgen build`` pass on the result unchanged.  Nothing existing is
overwritten: a game folder that exists already is refused before anything is written, and the
new folder appears whole or not at all (it is written under a temporary name, then renamed; its
PO files, which need the game in place, are written next, and the folder goes again if they
cannot be).  The content folder's shared strings and schemas are written first, each file whole.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from cardgen import resources
from cardgen.content.model import CONTENT_FORMAT, ID_PATTERN
from cardgen.errors import CardgenError, Locator, printable

TEMPLATES = resources.NEW_GAME_TEMPLATES

#: Card sizes by name, trim in mm (width, height).
SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (69.85, 120.65),
    "mini": (44.45, 63.5),
    "square": (70.0, 70.0),
}
MIN_MM, MAX_MM = 20.0, 300.0
#: The placeholder back: its colour (the back's in game.yaml.j2), resolution and how far past the trim it runs.
BACK_COLOR = (0x37, 0x47, 0x4F)
BACK_PPI = 300
BACK_BLEED_MM = 4.0

#: How 'cardgen new' marks the rule text it invents, by language of the starter text.
PLACEHOLDER_MARKERS = {"en": "[Placeholder]", "de": "[Platzhalter]", "ru": "[Заготовка]"}
LANGUAGE_NAMES = {"en": "English", "de": "German", "ru": "Russian"}


class NewGameError(CardgenError):
    """The game cannot be created as asked (bad name, size, language; it exists already)."""


@dataclass
class NewGame:
    """What :func:`create_game` wrote."""

    folder: Path
    written: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def parse_size(text: str) -> tuple[float, float]:
    """``poker`` (or another name of :data:`SIZES`) or ``WxH`` in mm, such as ``63x88``."""
    if text in SIZES:
        return SIZES[text]
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*(mm)?\s*", text)
    if not match:
        raise NewGameError(f"card size '{text}': expected one of {', '.join(SIZES)} or WIDTHxHEIGHT in mm "
                           "(like 63x88)")
    width, height = float(match.group(1)), float(match.group(2))
    for name, value in (("width", width), ("height", height)):
        if not MIN_MM <= value <= MAX_MM:
            raise NewGameError(f"card size '{text}': {name} {value:g} mm is outside {MIN_MM:g}-{MAX_MM:g} mm")
    return width, height


def title_of(game_id: str) -> str:
    return " ".join(word.capitalize() for word in game_id.split("-"))


def create_game(content_dir: Path, game_id: str, source_language: str, languages: list[str],
                size: str = "poker") -> NewGame:
    """Write a new game ``game_id`` into ``content_dir``; see the module docstring."""
    from cardgen.i18n import check_language

    if not re.fullmatch(ID_PATTERN, game_id):  # not re.match: its "$" lets a final newline through
        raise NewGameError(f"game name '{printable(game_id)}': expected a lower-case id of letters, digits and "
                           "single hyphens (like 'lights' or 'night-market')")
    if game_id in {"common", "schema"}:
        raise NewGameError(f"game name '{game_id}' is taken by the content folder's own '{game_id}/'")
    for language in (source_language, *languages):
        try:
            check_language(language)
        except CardgenError as error:
            raise NewGameError(error.message) from None
    width, height = parse_size(size)
    from cardgen.fileio import symlink_in_the_way

    for where in ("schema/-", "common/text/-", "common/locale/-"):  # written below: refused before the game is
        link = symlink_in_the_way(content_dir, where)
        if link is not None:
            raise NewGameError(f"{link} is a symlink; cardgen new never writes through a symlink in the content "
                               "folder (remove it, or make it a folder)", Locator(file=content_dir / link))
    folder = content_dir / game_id
    if folder.exists() or folder.is_symlink():
        raise NewGameError(f"'{game_id}' exists already; cardgen new never overwrites a game "
                           "(choose another name or remove the folder)", Locator(file=folder))
    all_languages = [source_language, *[lang for lang in dict.fromkeys(languages) if lang != source_language]]
    starter = source_language if source_language in PLACEHOLDER_MARKERS else "en"
    values = {
        "id": game_id,
        "title": title_of(game_id),
        "source": source_language,
        "source_name": LANGUAGE_NAMES.get(source_language, source_language),
        "languages": all_languages,
        "width": f"{width:g}",
        "height": f"{height:g}",
        "marker": PLACEHOLDER_MARKERS[starter],
        "format": CONTENT_FORMAT,
    }
    from cardgen.fileio import whole_folder

    def refuse(reason: str) -> NewGameError:
        return NewGameError(f"cannot create the game in this folder: {reason}", Locator(file=content_dir))

    try:
        content_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise refuse(error.strerror or str(error)) from None
    result = NewGame(folder, [])
    # the content folder's own files first: a failure there leaves no half-made game behind
    result.written += _shared_strings(content_dir, source_language, result)
    result.written += _schemas(content_dir)
    with whole_folder(folder, refuse) as staging:
        files = {
            "game.yaml": _render("game.yaml.j2", values),
            "cards.yaml": _render("cards.yaml.j2", values),
            "layout.yaml": _render("layout.yaml.j2", values),
            f"text/{source_language}.yaml": _render(f"text/{starter}.yaml.j2", values),
        }
        for name, text in files.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            (staging / name).write_text(text, "utf-8")
        (staging / "art").mkdir()
        (staging / "art" / "back.png").write_bytes(placeholder_back(width, height))
    result.written = [folder / name for name in files] + [folder / "art" / "back.png"] + result.written
    if starter != source_language:
        result.notes.append(f"cardgen has no starter text in '{source_language}': text/{source_language}.yaml "
                            "holds English to translate")
    try:  # the PO files need the game in place; if they cannot be written, the game goes again
        result.written += _translations(content_dir, game_id, all_languages[1:])
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return result


def placeholder_back(width_mm: float, height_mm: float) -> bytes:
    """A PNG to stand in for the back's art: the back's colour with a lattice of lighter lines,
    covering the trim and the bleed at :data:`BACK_PPI` (so it prints sharp and to the edge),
    and a thin line where the card is cut, so a publisher sees what the bleed is."""
    from io import BytesIO

    from PIL import Image, ImageDraw

    def px(mm: float) -> int:
        return round(mm / 25.4 * BACK_PPI)

    bleed = px(BACK_BLEED_MM)
    size = (px(width_mm) + 2 * bleed, px(height_mm) + 2 * bleed)
    image = Image.new("RGB", size, BACK_COLOR)
    draw = ImageDraw.Draw(image)
    light = tuple(round(c + (255 - c) * 0.18) for c in BACK_COLOR)
    step, span = px(6), size[0] + size[1]
    for offset in range(-span, span, step):  # diagonals both ways: a diamond lattice
        draw.line([(offset, 0), (offset + size[1], size[1])], fill=light, width=3)
        draw.line([(offset, size[1]), (offset + size[1], 0)], fill=light, width=3)
    trim = tuple(round(c + (255 - c) * 0.45) for c in BACK_COLOR)
    inset = bleed + px(3)  # the safe zone's edge, 3 mm inside the trim
    draw.rectangle([inset, inset, size[0] - inset - 1, size[1] - inset - 1], outline=trim, width=4)
    out = BytesIO()
    image.save(out, "PNG", dpi=(BACK_PPI, BACK_PPI))  # no date or other metadata: the same bytes every time
    return out.getvalue()


def _render(template: str, values: dict) -> str:
    import jinja2

    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                                     undefined=jinja2.StrictUndefined, autoescape=False)
    return environment.get_template(template).render(**values)


def _shared_strings(content_dir: Path, language: str, result: NewGame) -> list[Path]:
    """The shared strings in the source language, when cardgen has none: English to translate."""
    from cardgen.content.shared import BUILTIN_DIR, TEXT_DIR, load_shared

    shared = load_shared(content_dir)
    if shared.has_text(language):
        return []
    target = shared.folder / TEXT_DIR / f"{language}.yaml"
    english = (BUILTIN_DIR / TEXT_DIR / "en.yaml").read_text("utf-8")
    body = english.split("\nlanguage: en\n", 1)[1]
    from cardgen.fileio import write_text_atomic

    write_text_atomic(
        target,
        "# yaml-language-server: $schema=../../schema/text.schema.json\n"
        f"# The shared strings (rulebook headings, print-and-play instructions) in '{language}', which\n"
        "# cardgen does not ship: copied from its English ones by 'cardgen new'. Translate them.\n"
        f"language: {language}\n{body}", inside=content_dir)
    result.notes.append(f"cardgen has no shared strings in '{language}': {target.name} in common/text/ "
                        "holds English to translate")
    return [target]


def _schemas(content_dir: Path) -> list[Path]:
    """The JSON Schema files the ``$schema`` lines point at, written when missing or out of date."""
    from cardgen.content.schema import schema_texts
    from cardgen.fileio import write_text_atomic

    folder = content_dir / "schema"
    written = []
    for name, text in schema_texts().items():
        path = folder / name
        if not path.is_file() or path.read_text("utf-8") != text:
            written.append(write_text_atomic(path, text, inside=content_dir))
    return written


def _translations(content_dir: Path, game_id: str, languages: list[str]) -> list[Path]:
    """A PO file per other language, for the game and, where needed, for the shared strings."""
    from cardgen.cards.textfit import box_capacity
    from cardgen.i18n.catalog import domains
    from cardgen.i18n.po import update

    written = []
    for domain in domains(content_dir, ["common", game_id], box_capacity):
        for language in languages:
            if domain.has_own_text(language) or domain.po_path(language).is_file():
                continue
            written.append(update(domain, language, create=True).path)
    return written


__all__ = ["NewGame", "NewGameError", "PLACEHOLDER_MARKERS", "SIZES", "create_game", "parse_size"]
