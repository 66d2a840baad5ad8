"""Rulebooks: one PDF per game, language and paper, from templates/rulebook/, and
head-game's answer key, a booklet of its own per language.

:func:`build_rulebook` renders one rulebook, :func:`build_answer_key` one answer key;
:mod:`cardgen.build.rulebooks` is the build's producer, which names and writes the files;
:mod:`cardgen.rulebook.sections` declares every rulebook text key and checks a game's text.

The names below are loaded on first use, so that ``cardgen validate`` (which needs only
:mod:`~cardgen.rulebook.sections`) does not import WeasyPrint.
"""

from __future__ import annotations

import importlib

__all__ = [
    "PAPERS",
    "Rulebook",
    "build_answer_key",
    "build_rulebook",
    "components",
    "render_html",
]

#: The papers of every rulebook.  Here, not in the book module, so that planning the jobs
#: (and a build that finds every rulebook up to date) does not import WeasyPrint.
PAPERS = ("a4", "a5")


def __getattr__(name: str):
    if name in __all__ and name != "PAPERS":
        return getattr(importlib.import_module("cardgen.rulebook.book"), name)
    raise AttributeError(f"module 'cardgen.rulebook' has no attribute {name!r}")
