"""Where everything cardgen ships is found: the one module that knows.

The repository keeps the card layouts, rulebook, studio and new-game templates in
``templates/`` and the bundled games in ``content/``, beside the package; the wheel and
the sdist map them into it, as ``cardgen/templates/`` and ``cardgen/examples/``
(``[tool.setuptools.package-dir]`` in ``pyproject.toml``).  So an installed cardgen finds
them inside its package, and a checkout (run in place or installed with ``pip install -e``,
where the package is the checkout's ``cardgen/``) finds them beside it.  Fonts, ICC
profiles and the shared strings live in the package in both.

This module imports nothing of cardgen: every layer may ask it.
"""

from __future__ import annotations

from pathlib import Path

#: The ``cardgen`` package folder (site-packages/cardgen, or a checkout's cardgen/).
PACKAGE = Path(__file__).resolve().parent


def _shipped(inside: str, beside: str) -> Path:
    """``PACKAGE/inside`` when the build mapped it there (an install), else the checkout's ``beside``."""
    mapped = PACKAGE / inside
    return mapped if mapped.is_dir() else PACKAGE.parent / beside


#: templates/ (cards/, rulebook/, studio/, new-game/)
TEMPLATES = _shipped("templates", "templates")
#: Card layouts and the print shops' records (printers.yaml).
CARD_TEMPLATES = TEMPLATES / "cards"
PRINTERS = CARD_TEMPLATES / "printers.yaml"
RULEBOOK_TEMPLATES = TEMPLATES / "rulebook"
STUDIO_TEMPLATES = TEMPLATES / "studio"
NEW_GAME_TEMPLATES = TEMPLATES / "new-game"
#: The bundled games (and their schema/ folder): ``cardgen examples``.
EXAMPLES = _shipped("examples", "content")
#: The vendored fonts, embedded (subset) in every PDF.
FONTS = PACKAGE / "fonts"
#: The CMYK output profiles (FOGRA39 at two ink limits).
ICC_PROFILES = PACKAGE / "color" / "icc"
#: cardgen's shared strings (rulebook headings, print-and-play instructions) per language.
SHARED_TEXT = PACKAGE / "common" / "text"
#: Folders of the package that hold shipped data, not code (see :func:`code_folders`).
DATA_FOLDERS = ("templates", "examples")


def in_checkout() -> bool:
    """True when cardgen runs from a source checkout (templates/ beside the package)."""
    return TEMPLATES.parent == PACKAGE.parent


def shipped_files() -> dict[str, Path]:
    """Every shipped data file by its path inside an installed package (``templates/cards/klepka.yaml``,
    ``fonts/DejaVuSans.ttf``, ``examples/klepka/game.yaml`` ...): what a wheel must hold."""
    found: dict[str, Path] = {}
    for prefix, folder, pattern in (("templates", TEMPLATES, "**/*"), ("examples", EXAMPLES, "**/*"),
                                    ("fonts", FONTS, "*"), ("color/icc", ICC_PROFILES, "*.icc"),
                                    ("common/text", SHARED_TEXT, "*.yaml")):
        for path in sorted(folder.glob(pattern)):
            if path.is_file() and not _skipped(path.relative_to(folder)):
                found[f"{prefix}/{path.relative_to(folder).as_posix()}"] = path
    return found


def _skipped(relative: Path) -> bool:
    return any(part.startswith(".") or part == "__pycache__" for part in relative.parts)


__all__ = ["CARD_TEMPLATES", "DATA_FOLDERS", "EXAMPLES", "FONTS", "ICC_PROFILES", "NEW_GAME_TEMPLATES", "PACKAGE",
           "PRINTERS", "RULEBOOK_TEMPLATES", "SHARED_TEXT", "STUDIO_TEMPLATES", "TEMPLATES", "in_checkout",
           "shipped_files"]
