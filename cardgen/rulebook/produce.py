"""Writing the rulebooks of a game: every language it builds in, A4 and A5."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from cardgen.fileio import write_bytes_atomic
from cardgen.rulebook.book import PAPERS, Rulebook, build_rulebook

if TYPE_CHECKING:
    from cardgen.content.loader import Game


def rulebook_path(out_dir: Path, game_id: str, language: str, paper: str) -> Path:
    return out_dir / game_id / "rulebook" / f"{game_id}-rules-{language}-{paper}.pdf"


def write_rulebooks(
    game: "Game",
    out_dir: Path,
    *,
    languages: Iterable[str] | None = None,
    papers: Iterable[str] = PAPERS,
    content_dir: Path | None = None,
    strict: bool = False,
) -> list[tuple[Path, Rulebook]]:
    """Render and write the rulebooks; returns (path, rulebook) pairs (warnings inside)."""
    from cardgen.i18n import build_languages

    written = []
    for language in languages or build_languages(game):
        for paper in papers:
            book = build_rulebook(game, language, paper, content_dir=content_dir, strict=strict)
            path = write_bytes_atomic(rulebook_path(out_dir, game.id, language, paper), book.pdf)
            written.append((path, book))
    return written
