"""Writing the rulebooks of a game: every language it builds in, A4 and A5, and head-game's
answer key booklet (A4) once per language."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from cardgen.fileio import write_bytes_atomic
from cardgen.rulebook import answers
from cardgen.rulebook.book import PAPERS, Rulebook, build_answer_key, build_rulebook

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
        if answers.available(game):
            book = build_answer_key(game, language, content_dir=content_dir, strict=strict)
            folder = rulebook_path(out_dir, game.id, language, answers.PAPER).parent
            path = write_bytes_atomic(folder / answers.file_name(game.id, language), book.pdf)
            written.append((path, book))
    return written


# --- the build's producer (registered in cardgen.build.PRODUCERS) ---------------------------

MODULE = "cardgen.rulebook.produce"


def artefact_path(game_id: str, language: str, paper: str) -> str:
    return f"{game_id}/{language}/{game_id}-{language}-rules-{paper}.pdf"


def plan(options, game: "Game", langs: list[str]) -> list:
    """One job per language and paper (A4, and the A5 booklet), and for head-game one
    answer key booklet per language.

    The costs are roughly seconds of one core (measured): an A5 booklet lays out more
    pages (and sometimes a few of them twice, to pad them to a multiple of 4); the
    answer key's thirteen tables are the largest single document.
    """
    from cardgen.build import Job

    base = 0.5 + len(game.cards) / 40
    jobs = [
        Job("rulebook", f"{game.id} {lang} rulebook {paper}", f"{MODULE}:rulebook_job",
            (("game_id", game.id), ("lang", lang), ("paper", paper)),
            cost=base * (1.1 if paper == "a5" else 1.0), targets=((game.id, lang),))
        for lang in langs
        for paper in PAPERS
    ]
    if answers.available(game):
        jobs += [Job("rulebook", f"{game.id} {lang} answer key", f"{MODULE}:answer_key_job",
                     (("game_id", game.id), ("lang", lang)), cost=2.5, targets=((game.id, lang),))
                 for lang in langs]
    return jobs


def warm_up(options, jobs: list) -> None:
    """Before the workers fork: import WeasyPrint, load the hyphenation dictionaries of the
    build's languages and head-game's answer index once, instead of once per worker."""
    import pyphen
    import weasyprint  # noqa: F401 - the import itself is the work

    from cardgen.build import load_game_cached

    args = [dict(job.args) for job in jobs]
    for lang in sorted({a["lang"] for a in args}):
        fallback = pyphen.language_fallback(lang)
        if fallback:
            pyphen.Pyphen(lang=fallback)
    for game_id in sorted({a["game_id"] for a, job in zip(args, jobs) if job.func.endswith(":answer_key_job")}):
        answers.warm_answer_key(load_game_cached(options.content_dir, game_id))


def rulebook_job(options, game_id: str, lang: str, paper: str) -> list:
    """Render one rulebook and write it with the build's manifest entry (kind: rulebook)."""
    from cardgen.build import load_game_cached, write_artefact

    game = load_game_cached(options.content_dir, game_id)
    book = build_rulebook(game, lang, paper, content_dir=options.content_dir,
                          strict=bool(getattr(options, "strict", False)))
    return [write_artefact(options, artefact_path(game_id, lang, paper), book.pdf, game=game_id,
                           kind="rulebook", lang=lang, paper=paper, pages=book.pages, **_fallback(book))]


def _fallback(book: Rulebook) -> dict:
    """The manifest's note of messages printed in the source language for want of a translation."""
    fallback = sorted({w.key for w in book.warnings})
    extra: dict = {"fallback": len(fallback)}
    if fallback:
        extra["warnings"] = [str(w) for w in book.warnings[:20]]
    return extra


def answer_key_job(options, game_id: str, lang: str) -> list:
    """Render head-game's answer key booklet in one language (kind: answer-key)."""
    from cardgen.build import load_game_cached, write_artefact

    game = load_game_cached(options.content_dir, game_id)
    book = build_answer_key(game, lang, content_dir=options.content_dir,
                            strict=bool(getattr(options, "strict", False)))
    return [write_artefact(options, f"{game_id}/{lang}/{answers.file_name(game_id, lang)}", book.pdf,
                           game=game_id, kind="answer-key", lang=lang, paper=book.paper, pages=book.pages,
                           **_fallback(book))]
