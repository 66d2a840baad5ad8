"""Install size and time of cardgen's core set and of each extra, measured in fresh venvs.

    .venv/bin/python benchmarks/bench_install.py [--sets core,sweep,studio,all]

Builds the wheel (``pip wheel --no-deps``), then for each set makes a fresh virtual
environment in a temporary folder, installs ``cardgen-*.whl[extra]`` into it with pip's
cache (so the time is unpacking and installing, not downloading; a cold cache adds the
download) and prints the wall time and the size of what was installed (site-packages and
the scripts, less what a fresh venv already holds).  The figures are the ones the README's
install section quotes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = {"core": "", "print-shops": "[print-shops]", "sweep": "[sweep]", "studio": "[studio]", "all": "[all]"}


def folder_bytes(folder: Path) -> int:
    total = 0
    for top, _, names in os.walk(folder):
        for name in names:
            path = Path(top) / name
            if not path.is_symlink():
                total += path.stat().st_size
    return total


def build_wheel(into: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(into), str(ROOT)],
                   check=True)
    return next(into.glob("cardgen-*.whl"))


def measure(wheel: Path, extra: str, work: Path) -> tuple[float, int, int]:
    """(seconds, bytes installed, distributions installed) for ``wheel`` with ``extra``."""
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    before = folder_bytes(venv)
    frozen_before = subprocess.run([str(python), "-m", "pip", "freeze", "--all"], capture_output=True,
                                   text=True, check=True).stdout.split()
    started = time.perf_counter()
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", f"{wheel}{extra}"],
                   check=True)
    seconds = time.perf_counter() - started
    frozen = subprocess.run([str(python), "-m", "pip", "freeze", "--all"], capture_output=True, text=True,
                            check=True).stdout.split()
    return seconds, folder_bytes(venv) - before, len(set(frozen) - set(frozen_before))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated: " + ", ".join(SETS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardgen-install-") as tmp:
        wheel = build_wheel(Path(tmp) / "dist")
        print(f"wheel {wheel.name}: {wheel.stat().st_size / 1e6:.1f} MB")
        print(f"{'set':8} {'install':>9} {'size':>9} {'packages':>9}")
        for name in args.sets.split(","):
            with tempfile.TemporaryDirectory(prefix=f"cardgen-{name}-") as work:
                seconds, size, count = measure(wheel, SETS[name], Path(work))
            print(f"{name:8} {seconds:8.1f}s {size / 1e6:7.0f}MB {count:9d}", flush=True)


if __name__ == "__main__":
    main()
