"""Incremental build benchmark: run `python benchmarks/bench_incremental.py` from the repository root.

Times three `cardgen build` processes of every game into one temporary output folder, each
as a user runs it (interpreter start, imports, planning, hashing, rendering, committing):

1. a full build (no earlier output);
2. the same build again, nothing changed: only inputs and outputs are hashed;
3. after one card's text changed in one language of one game (a PO entry of klepka in
   German, by default): only that game's jobs of that language run.  Target: <= 2 s on 2 cores.

The content and layouts are copied to a temporary folder first; the repository is not touched.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import load_average  # noqa: E402

CHANGE = ("klepka/locale/de.po", 'msgstr "Kapitän Nagel"', 'msgstr "Kapitän Nagel II"')


def run_build(content: Path, out: Path, env: dict[str, str], extra: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardgen", "--content", str(content), "build", "--out", str(out),
                           *extra], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"build failed:\n{done.stdout}\n{done.stderr}")
    summary = [line for line in done.stdout.splitlines() if "files written" in line]
    return seconds, re.sub(r"; manifest: .*", "", summary[-1] if summary else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="incremental builds after a change (best is shown)")
    parser.add_argument("-j", "--jobs", default=None, help="worker processes (default: one per core)")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               SOURCE_DATE_EPOCH="1700000000")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python caches compiled modules
    extra = ["-j", args.jobs] if args.jobs else []
    print(f"cores: {os.cpu_count()}, load average before: {load_average()}")
    with tempfile.TemporaryDirectory() as tmp:
        content, out = Path(tmp) / "content", Path(tmp) / "output"
        shutil.copytree(ROOT / "content", content)
        shutil.copytree(ROOT / "templates" / "cards", Path(tmp) / "templates" / "cards")
        seconds, summary = run_build(content, out, env, extra)
        print(f"full build:                      {seconds:6.2f} s  ({summary})")
        seconds, summary = run_build(content, out, env, extra)
        print(f"no change:                       {seconds:6.2f} s  ({summary})")
        path, old, new = CHANGE
        po = content / path
        best = None
        for attempt in range(args.repeat):
            text = po.read_text("utf-8")
            po.write_text(text.replace(old, new) if attempt % 2 == 0 else text.replace(new, old), "utf-8")
            seconds, summary = run_build(content, out, env, extra)
            if best is None or seconds < best[0]:
                best = (seconds, summary)
        print(f"one card's text, {path}: {best[0]:6.2f} s  ({best[1]}; best of {args.repeat})")
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
