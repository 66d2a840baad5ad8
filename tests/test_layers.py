"""The import arrows between cardgen's rooms run one way, and no module imports itself round a circle.

Each room (a sub-package, or a module at the top) has a rank; a room imports only rooms of a
lower rank.  Read from the bottom: errors; the file helpers; the content as read and colour;
the engines and the translations; drawing one card; print files, digital-table sheets and
rulebooks made of drawn cards; the balance lab, the build, a user's project and the studio;
the plug-in test kit; the CLI.  Imports inside functions count (they still run); imports under
``if TYPE_CHECKING:`` do not (they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cardgen"

RANKS = {
    "errors": 0,
    "fileio": 1, "resources": 1, "extras": 1,
    "content": 2, "color": 2,
    "engines": 3, "i18n": 3,
    "cards": 4,
    "printing": 5, "tabletop": 5, "rulebook": 5,
    "simulation": 6, "build": 6, "project": 6, "studio": 6,
    "testing": 7,
    "cli": 8, "__main__": 9,
}
#: The share of cardgen's lines one room may hold.
MAX_ROOM_SHARE = 0.20


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    relative = Path(*name.split("."))
    return (PACKAGE.parent / relative).with_suffix(".py").is_file() or (PACKAGE.parent / relative).is_dir()


def _imports(path: Path) -> set[str]:
    """The cardgen modules ``path`` imports: ``from cardgen.x import y`` names the module
    ``cardgen.x.y`` when that is one, else ``cardgen.x``."""
    tree = ast.parse(path.read_text("utf-8"))
    type_only = {id(node) for branch in ast.walk(tree)
                 if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                 for statement in branch.body for node in ast.walk(statement)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "cardgen" \
                and not node.level:
            named = [f"{node.module}.{alias.name}" for alias in node.names]
            modules = [name for name in named if _is_module(name)]
            found.update(modules)
            if len(modules) < len(named):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "cardgen")
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    return {name: {target for target in _imports(path) if target != name} for name, path in modules.items()}


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "cardgen"


def test_every_room_has_a_rank():
    rooms = {_room(module) for module in _graph()} - {"cardgen"}
    assert sorted(rooms - set(RANKS)) == [], "give the new room a rank in RANKS"


def test_rooms_import_only_rooms_below_them():
    bad = []
    for module, targets in sorted(_graph().items()):
        room = _room(module)
        for target in sorted(targets):
            other = _room(target)
            if other not in (room, "cardgen") and RANKS.get(other, 99) >= RANKS.get(room, -1):
                bad.append(f"{module} imports {target} ({room} rank {RANKS.get(room)}, "
                           f"{other} rank {RANKS.get(other)})")
    assert not bad, "\n".join(bad)


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_round_a_circle():
    assert _circles(_graph()) == []


def test_no_room_holds_more_than_a_fifth_of_the_code():
    lines: dict[str, int] = {}
    for path in PACKAGE.rglob("*.py"):
        room = _room(_module_name(path))
        lines[room] = lines.get(room, 0) + len(path.read_text("utf-8").splitlines())
    total = sum(lines.values())
    big = {room: f"{count / total:.1%}" for room, count in lines.items() if count > MAX_ROOM_SHARE * total}
    assert not big, big


def test_the_checks_see_what_they_look_for(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from cardgen.i18n.po import read_entries\n", "utf-8")
    assert _imports(module) == {"cardgen.i18n.po"}
    module.write_text("from cardgen import cards\nfrom cardgen.content import load_games\n", "utf-8")
    assert _imports(module) == {"cardgen.cards", "cardgen.content"}
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cardgen.build import Job\n", "utf-8")
    assert _imports(module) == set()
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("room, kept_out", [("cards", ("preflight", "pdfx", "printers", "tabletop", "pnp", "shop"))])
def test_card_drawing_holds_no_print_files(room, kept_out):
    names = {path.stem for path in (PACKAGE / room).glob("*.py")}
    assert not names & set(kept_out)


def test_validate_imports_neither_renderer():
    """validate checks layouts and rulebook text without reportlab or WeasyPrint (seconds of import)."""
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; from cardgen.project.validation import validate_games; "
            f"validate_games(Path({str(PACKAGE.parent / 'content')!r})); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'weasyprint', 'reportlab'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
