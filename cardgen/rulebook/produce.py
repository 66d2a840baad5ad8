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


# --- the build's producer (registered in cardgen.build.PRODUCERS) ---------------------------

MODULE = "cardgen.rulebook.produce"


def artefact_path(game_id: str, language: str, paper: str) -> str:
    return f"{game_id}/{language}/{game_id}-{language}-rules-{paper}.pdf"


def plan(options, game: "Game", langs: list[str]) -> list:
    """One job per language and paper (A4, and the A5 booklet).

    The costs are roughly seconds of one core: an A5 booklet lays out more pages (and
    sometimes twice, to pad them to a multiple of 4); head-game's answer key is the
    largest single part of any rulebook.
    """
    from cardgen.build import Job

    base = 0.8 + len(game.cards) / 60
    extra = 3.0 if game.id == "head-game" else 0.0
    return [
        Job("rulebook", f"{game.id} {lang} rulebook {paper}", f"{MODULE}:rulebook_job",
            (("game_id", game.id), ("lang", lang), ("paper", paper)),
            cost=base * (1.4 if paper == "a5" else 1.0) + extra, targets=((game.id, lang),))
        for lang in langs
        for paper in PAPERS
    ]


def warm_up(options, jobs: list) -> None:
    """Before the workers fork: import WeasyPrint, load the hyphenation dictionaries of the
    build's languages and head-game's answer index once, instead of once per worker."""
    import pyphen
    import weasyprint  # noqa: F401 - the import itself is the work

    from cardgen.build import load_game_cached
    from cardgen.rulebook.book import warm_answer_key

    args = [dict(job.args) for job in jobs]
    for lang in sorted({a["lang"] for a in args}):
        fallback = pyphen.language_fallback(lang)
        if fallback:
            pyphen.Pyphen(lang=fallback)
    for game_id in sorted({a["game_id"] for a in args}):
        warm_answer_key(load_game_cached(options.content_dir, game_id))


def rulebook_job(options, game_id: str, lang: str, paper: str) -> list:
    """Render one rulebook and write it with the build's manifest entry (kind: rulebook)."""
    from cardgen.build import load_game_cached, write_artefact

    game = load_game_cached(options.content_dir, game_id)
    book = build_rulebook(game, lang, paper, content_dir=options.content_dir,
                          strict=bool(getattr(options, "strict", False)))
    fallback = sorted({w.key for w in book.warnings})
    extra = {"fallback": len(fallback)}
    if fallback:
        extra["warnings"] = [str(w) for w in book.warnings[:20]]
    return [write_artefact(options, artefact_path(game_id, lang, paper), book.pdf, game=game_id,
                           kind="rulebook", lang=lang, paper=paper, pages=book.pages, **extra)]
