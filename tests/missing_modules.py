"""Simulated missing packages for the tests: a ``sitecustomize`` on PYTHONPATH puts a finder in
front of every import that refuses the named modules, in the process and in every process it
starts (the build's workers)."""

from __future__ import annotations

import os
from pathlib import Path

BLOCKER = '''
import sys
BLOCKED = {blocked!r}

class _Missing:
    """Refuses the named modules, as if they were not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, _Missing())
'''


def without(tmp_path: Path, modules: list[str]) -> dict[str, str]:
    """Environment for a subprocess in which ``modules`` cannot be imported."""
    folder = tmp_path / "blocker"
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(BLOCKER.format(blocked=sorted(modules)), "utf-8")
    path = os.pathsep.join(part for part in (str(folder), os.environ.get("PYTHONPATH", "")) if part)
    return {**os.environ, "PYTHONPATH": path}
