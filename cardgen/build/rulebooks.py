"""The build's producer of rulebooks: every language a game builds in, A4 and A5, and
head-game's answer key booklet (A4) once per language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.build.jobs import Job, load_game_cached, write_artefact
from cardgen.rulebook import PAPERS, answers

if TYPE_CHECKING:
    from cardgen.content.loader import Game

# --- the build's producer (registered in cardgen.build.run.PRODUCERS) -----------------------

def artefact_path(game_id: str, language: str, paper: str) -> str:
    return f"{game_id}/{language}/{game_id}-{language}-rules-{paper}.pdf"


def plan(options, game: "Game", langs: list[str]) -> list:
    """One job per language for its rulebooks (A4 and the A5 booklet), and for head-game
    one job for the answer key booklets of every language.

    A job renders several documents where they share work that a job of their own
    would repeat in another worker: the rulebooks of a language draw the same card
    pictures (kept per process), the answer keys read the same reference base (read by
    the job, so it loads once, in one worker, while the other gets on with the rest).
    The costs are seconds of one core (measured); the build starts the biggest first.
    """
    # a card with a rule of its own is shown with its picture and explained: most of the difference
    per_rulebook = 0.7 + 0.04 * sum("rule" in card.text for card in game.cards)
    jobs = [
        Job("rulebook", f"{game.id} {lang} rulebook {'+'.join(PAPERS)}", rulebook_job,
            (("game_id", game.id), ("lang", lang)), cost=per_rulebook * len(PAPERS), targets=((game.id, lang),))
        for lang in langs
    ]
    if answers.available(game) and langs:
        jobs.append(Job("rulebook", f"{game.id} answer key {', '.join(langs)}", answer_key_job,
                        (("game_id", game.id), ("langs", tuple(langs))), cost=1.0 + 1.7 * len(langs),
                        targets=tuple((game.id, lang) for lang in langs)))
    return jobs


def web_plan(options, game: "Game", langs: list[str]) -> list:
    """One job per language for the rulebook as a web page (kind: rulebook-html)."""
    per_page = 0.4 + 0.03 * sum("rule" in card.text for card in game.cards)
    return [Job("rulebook-html", f"{game.id} {lang} rulebook web page", web_rulebook_job,
                (("game_id", game.id), ("lang", lang)), cost=per_page, targets=((game.id, lang),))
            for lang in langs]


def web_rulebook_job(options, game_id: str, lang: str) -> list:
    """Write ``<game>/<lang>/<game>-<lang>-rules.html`` and the files beside it (stylesheet, card pictures)."""
    from cardgen.rulebook.web import build_web_rulebook, page_name

    game = load_game_cached(options.content_dir, game_id)
    page = build_web_rulebook(game, lang, content_dir=options.content_dir,
                              strict=bool(getattr(options, "strict", False)))
    folder = f"{game_id}/{lang}"
    written = [write_artefact(options, f"{folder}/{page_name(game_id, lang)}", page.html, game=game_id,
                              kind="rulebook-html", lang=lang, **_fallback(page))]
    written += [write_artefact(options, f"{folder}/{name}", data, game=game_id, kind="rulebook-html", lang=lang)
                for name, data in page.files]
    return written


def warm_up(options, jobs: list) -> None:
    """Before the workers fork: import WeasyPrint and load the hyphenation dictionaries of
    the build's languages once, instead of once per worker."""
    import weasyprint  # noqa: F401 - the import itself is the work

    from cardgen.rulebook import hyphenation

    hyphenation.prepare(sorted({lang for job in jobs for _, lang in job.targets if lang}))


def rulebook_job(options, game_id: str, lang: str) -> list:
    """Render the rulebooks of one language on every paper (kind: rulebook)."""
    from cardgen.rulebook.book import build_rulebook

    game = load_game_cached(options.content_dir, game_id)
    written = []
    for paper in PAPERS:
        book = build_rulebook(game, lang, paper, content_dir=options.content_dir,
                              strict=bool(getattr(options, "strict", False)))
        written.append(write_artefact(options, artefact_path(game_id, lang, paper), book.pdf, game=game_id,
                                      kind="rulebook", lang=lang, paper=paper, pages=book.pages,
                                      **_fallback(book)))
    return written


def _fallback(book) -> dict:
    """The manifest's note of messages printed in a fallback language (each warning names it) for
    want of a translation."""
    fallback = sorted({w.key for w in book.warnings})
    extra: dict = {"fallback": len(fallback)}
    if fallback:
        extra["warnings"] = [str(w) for w in book.warnings[:20]]
    return extra


def answer_key_job(options, game_id: str, langs: tuple[str, ...]) -> list:
    """Render head-game's answer key booklet in each language (kind: answer-key)."""
    from cardgen.rulebook.book import build_answer_key

    game = load_game_cached(options.content_dir, game_id)
    written = []
    for lang in langs:
        book = build_answer_key(game, lang, content_dir=options.content_dir,
                                strict=bool(getattr(options, "strict", False)))
        written.append(write_artefact(options, f"{game_id}/{lang}/{answers.file_name(game_id, lang)}", book.pdf,
                                      game=game_id, kind="answer-key", lang=lang, paper=book.paper,
                                      pages=book.pages, **_fallback(book)))
    return written
