"""Rulebooks: one PDF per game, language and paper, from templates/rulebook/, and
head-game's answer key, a booklet of its own per language.

:func:`build_rulebook` renders one rulebook, :func:`build_answer_key` one answer key;
:mod:`cardgen.rulebook.produce` is the build's producer, which names and writes the files.
"""

from cardgen.rulebook.book import PAPERS, Rulebook, build_answer_key, build_rulebook, components, render_html

__all__ = [
    "PAPERS",
    "Rulebook",
    "build_answer_key",
    "build_rulebook",
    "components",
    "render_html",
]
