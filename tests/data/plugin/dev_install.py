"""Make the example plug-in visible to Python without installing it (for cardgen's tests).

``pip install -e tests/data/plugin`` is how a publisher installs a plug-in, and it works
here too; the tests avoid it because it changes the shared virtual environment and needs
setuptools from the package index.  Instead they do what the installed package amounts to:
put this folder (the ``cardgen_tricks`` package) on the import path and write a
``*.dist-info`` folder whose ``entry_points.txt`` is made from ``pyproject.toml``'s own
``[project.entry-points]``, so the entry point tested is the one a real install declares.

    python tests/data/plugin/dev_install.py DIR   # writes DIR/cardgen_tricks-0.1.0.dist-info,
                                                  # prints the PYTHONPATH to use
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def write_dist_info(site: Path) -> list[Path]:
    """Write the package's metadata into ``site``; return the folders to put on the path."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = []
    for group, entries in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines += [f"{entry} = {target}" for entry, target in entries.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [HERE, site]


def python_path(folders: list[Path]) -> str:
    return os.pathsep.join([*map(str, folders), *filter(None, [os.environ.get("PYTHONPATH")])])


if __name__ == "__main__":
    print(python_path(write_dist_info(Path(sys.argv[1]).resolve())))
