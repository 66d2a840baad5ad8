"""Rulebooks: one PDF per game, language and paper, from templates/rulebook/, and
head-game's answer key, a booklet of its own per language.

:func:`build_rulebook` renders one rulebook, :func:`build_answer_key` one answer key;
:func:`write_rulebooks` writes every language and paper of a game into a folder
(:mod:`cardgen.rulebook.produce` is the build's producer).
"""

from cardgen.rulebook.book import PAPERS, Rulebook, build_answer_key, build_rulebook, components, render_html
from cardgen.rulebook.produce import rulebook_path, write_rulebooks

__all__ = [
    "PAPERS",
    "Rulebook",
    "build_answer_key",
    "build_rulebook",
    "components",
    "render_html",
    "rulebook_path",
    "write_rulebooks",
]
