"""Rulebooks: one PDF per game, language and paper, from templates/rulebook/.

:func:`build_rulebook` renders one; :func:`write_rulebooks` writes every
language and paper of a game into a folder (the build's producer).
"""

from cardgen.rulebook.book import PAPERS, Rulebook, build_rulebook, components, render_html
from cardgen.rulebook.produce import rulebook_path, write_rulebooks

__all__ = [
    "PAPERS",
    "Rulebook",
    "build_rulebook",
    "components",
    "render_html",
    "rulebook_path",
    "write_rulebooks",
]
