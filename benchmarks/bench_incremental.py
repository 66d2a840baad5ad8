"""Incremental build benchmark: run `python benchmarks/bench_incremental.py` from the repository root.

Times `cardgen build` processes of every game into one temporary output folder, each as a
user runs it (interpreter start, imports, planning, hashing, rendering, committing), wall
clock and the CPU time of the build and its workers (steadier on a shared machine):

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
import resource
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


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_build(content: Path, out: Path, env: dict[str, str], extra: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the build and its workers, summary line) of one build."""
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run([sys.executable, "-m", "cardgen", "--content", str(content), "build", "--out", str(out),
                           *extra], env=env, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode != 0:
        sys.exit(f"build failed:\n{done.stdout}\n{done.stderr}")
    summary = [line for line in done.stdout.splitlines() if "files written" in line]
    return seconds, cpu, re.sub(r"; manifest: .*", "", summary[-1] if summary else "")


def best_of(runs: list[tuple[float, float, str]]) -> tuple[float, float, str]:
    return min(runs, key=lambda run: run[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="builds with no change and after a change (the best of each is shown)")
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
        full = run_build(content, out, env, extra)
        print(f"full build:                      {full[0]:6.2f} s  CPU {full[1]:6.2f} s  ({full[2]})")
        same = best_of([run_build(content, out, env, extra) for _ in range(args.repeat)])
        print(f"no change:                       {same[0]:6.2f} s  CPU {same[1]:6.2f} s  ({same[2]}; "
              f"best of {args.repeat})")
        path, old, new = CHANGE
        po = content / path
        runs = []
        for attempt in range(args.repeat):
            text = po.read_text("utf-8")
            changed = text.replace(old, new, 1) if attempt % 2 == 0 else text.replace(new, old, 1)
            if changed == text:  # else the best of the runs would be one with nothing to do
                sys.exit(f"{path} does not hold {old if attempt % 2 == 0 else new!r}")
            po.write_text(changed, "utf-8")
            runs.append(run_build(content, out, env, extra))
        one = best_of(runs)
        print(f"one card's text, {path}: {one[0]:6.2f} s  CPU {one[1]:6.2f} s  ({one[2]}; best of {args.repeat}; "
              f"{one[0] / full[0]:.1%} of the full build's time)")
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
