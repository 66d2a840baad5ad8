"""Everything ``cardgen validate`` checks short of playing the games, in one call.

:func:`validate_games` loads the games (schema, cross-references, generators, translations,
shared strings), then runs the checks that need a loaded game: the data only its engine reads,
its card layout resolved for every card and language (:mod:`cardgen.cards.layoutcheck`),
its rulebook text (:mod:`cardgen.rulebook.sections`) and the references in every other message
(:func:`cardgen.i18n.status.reference_errors`).  Cards that players cannot tell apart without
colour vision, text of too low a contrast or too small a size are warnings
(:mod:`cardgen.cards.access`), errors with ``strict``.  Every problem of every game is collected
before one :class:`~cardgen.errors.ContentErrors` is raised.  A game written in an earlier
content format gets the rules of later formats as warnings (``Game.warnings``), not errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.errors import ContentError, ContentErrors

if TYPE_CHECKING:
    from cardgen.content import Game


def validate_games(content_dir: Path, game_ids: list[str] | None = None,
                   templates_dir: Path | None = None, warnings: list[ContentError] | None = None,
                   strict: bool = False) -> list["Game"]:
    """The loaded games when everything holds; :class:`ContentErrors` listing every problem otherwise.

    ``warnings``, when given, receives what builds but may print badly (images under the
    printers' resolution, see :func:`cardgen.cards.layoutcheck.check_layout`) and the accessibility
    findings (:func:`cardgen.cards.access.access_warnings`), which ``strict`` makes errors.
    """
    from cardgen.cards.layout import default_templates_dir
    from cardgen.content import load_games

    games = load_games(content_dir, game_ids)
    templates_dir = templates_dir or default_templates_dir(content_dir)
    errors: list[ContentError] = []
    for game in games:
        # a rule of a later content format than the game's is one of its warnings (cardgen.content.formats)
        errors += game.accept(game_errors(game, templates_dir, warnings, strict))
    if errors:
        raise ContentErrors(errors)
    return games


def game_errors(game: "Game", templates_dir: Path, warnings: list[ContentError] | None = None,
                strict: bool = False) -> list[ContentError]:
    from cardgen.cards.access import access_warnings
    from cardgen.cards.layoutcheck import check_layout
    from cardgen.engines import engine_content_errors
    from cardgen.i18n.placeholders import placeholder_errors
    from cardgen.i18n.status import reference_errors
    from cardgen.printing.printers import highest_dpi
    from cardgen.rulebook.sections import check_rulebook_text

    layout_errors = check_layout(game, templates_dir, warnings, highest_dpi(templates_dir))
    # drawn from the card plans: only a layout without errors plans every card
    access = access_warnings(game, templates_dir) if not layout_errors and (strict or warnings is not None) else []
    if strict:
        layout_errors += access
    elif warnings is not None:
        warnings += access
    return [*engine_content_errors(game), *layout_errors, *check_rulebook_text(game), *reference_errors(game),
            *placeholder_errors(game)]


def placeholder_texts(game: "Game") -> list[str]:
    """Keys of the source text still holding the placeholder text 'cardgen new' wrote."""
    from cardgen.project.newgame import PLACEHOLDER_MARKERS

    markers = tuple(PLACEHOLDER_MARKERS.values())
    source = game.messages.get(game.meta.source_language, {})
    return [key for key, text in source.items() if text.startswith(markers)]


__all__ = ["game_errors", "placeholder_texts", "validate_games"]
