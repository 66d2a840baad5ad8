"""The build's producer of digital-table sheets (:mod:`cardgen.tabletop`): one job per game and
language, for the formats asked (``--tabletop tts,sprites``, or both with ``--only tabletop``)."""

from __future__ import annotations

from dataclasses import replace

from cardgen.build.jobs import Artefact, BuildOptions, Job, load_game_cached, write_artefact
from cardgen.errors import RenderError
from cardgen.tabletop.decks import FORMATS, Destination, check_url, make


# --- planning -------------------------------------------------------------------------------------
def wanted_formats(options: BuildOptions) -> tuple[str, ...]:
    """The formats this build asks for: ``--tabletop`` given, else both when ``--only tabletop``
    picked the producer, else none (a plain build does not run it)."""
    asked = tuple(dict.fromkeys(getattr(options, "tabletop", ()) or ()))
    unknown = [f for f in asked if f not in FORMATS]
    if unknown:
        raise RenderError(f"unknown tabletop format(s) {', '.join(unknown)}; expected: {', '.join(FORMATS)}")
    if asked:
        return asked
    return FORMATS if "tabletop" in options.producers else ()


def plan(options: BuildOptions, game, langs: list[str]) -> list[Job]:
    formats = wanted_formats(options)
    if not formats:
        return []
    check_url(getattr(options, "tabletop_url", None))
    designs = len(game.cards) + len(game.meta.backs)
    return [Job("tabletop", f"{game.id} {lang} tabletop {'+'.join(formats)}", tabletop_job,
                (("game_id", game.id), ("lang", lang), ("formats", formats)),
                cost=designs * len(formats) / 40, targets=((game.id, lang),))
            for lang in langs]


# --- the job --------------------------------------------------------------------------------------------
def tabletop_job(options: BuildOptions, game_id: str, lang: str, formats: tuple[str, ...]) -> list[Artefact]:
    from cardgen.cards.card import CardRenderer
    from cardgen.i18n import Texts

    game = load_game_cached(options.content_dir, game_id)
    texts = Texts(game, lang, options.content_dir)

    def write(relpath: str, data: bytes, **fields) -> Artefact:
        return write_artefact(options, relpath, data, **fields)

    dest = Destination(write, options.out_dir, getattr(options, "tabletop_url", None))
    out = make(game, lang, formats, texts, CardRenderer(game, lang, options.templates_dir), dest)
    fallback = sorted({w.key for w in texts.warnings})
    if fallback:  # noted, as the other producers do, on the files that hold the text: the JSON ones
        note = {"fallback": len(fallback), "warnings": [str(w) for w in texts.warnings[:20]]}
        out = [replace(a, extra=tuple(sorted(dict(a.extra, **note).items()))) if a.path.endswith(".json") else a
               for a in out]
    return out
