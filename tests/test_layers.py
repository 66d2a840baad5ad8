"""The import arrows between cardgen's layers run one way.

content (source files, shared strings, translations as read) is the bottom layer: it imports
no other part of cardgen but the errors and file helpers.  i18n builds on content (the
translator's workflow and lookup with warnings), never the other way round.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cardgen"
ALLOWED = {
    "content": {"cardgen.content", "cardgen.errors", "cardgen.fileio",
                "cardgen.resources"},  # where the shared strings ship; it imports nothing of cardgen
    "i18n": {"cardgen.content", "cardgen.errors", "cardgen.fileio", "cardgen.i18n",
             "cardgen.render"},  # i18n.fit measures card text with the card renderer
}


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "cardgen":  # from cardgen import resources
            found.update(f"cardgen.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cardgen"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("cardgen"))
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_what_is_below_it(layer):
    bad = []
    for module in sorted((PACKAGE / layer).glob("*.py")):
        for name in _imports(module):
            if not any(name == ok or name.startswith(ok + ".") for ok in ALLOWED[layer]):
                bad.append(f"{module.name} imports {name}")
    assert not bad, bad


def test_the_check_sees_a_forbidden_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from cardgen.i18n.po import read_entries\n", "utf-8")
    assert _imports(module) == {"cardgen.i18n.po"}
    module.write_text("from cardgen import render\n", "utf-8")
    assert _imports(module) == {"cardgen.render"}


def test_validate_imports_neither_renderer():
    """validate checks layouts and rulebook text without reportlab or WeasyPrint (seconds of import)."""
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; from cardgen.validation import validate_games; "
            f"validate_games(Path({str(PACKAGE.parent / 'content')!r})); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'weasyprint', 'reportlab'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
