"""Render benchmark: run `python benchmarks/bench_render.py` from the repository root.

1. The head-game print-and-play PDF (90 cards, fronts, backs, cut marks, A4, Russian) as a
   whole process: interpreter start, imports, loading the content, rendering, writing.
   Targets: at most 0.5 s, under 100 MB of memory, under 300 KB on disk.
2. `cardgen build` of everything (four games, every language, PnP A4 + Letter, shop PDF,
   shop PNGs, rulebooks A4 + A5 booklet, head-game's answer keys) as a whole process, on
   every core; the card artefacts alone first. Target: at most 20 s (issue #5).

Each figure is the best (lowest) of --repeat runs, as other work on the machine only adds time;
the CPU seconds (user + system, workers included) show the cost without that noise.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PNP_SCRIPT = """
import sys
from pathlib import Path
from cardgen.content import load_games
from cardgen.fileio import write_bytes_atomic
from cardgen.printing.pnp import PnpOptions, render_pnp
game = load_games(Path(sys.argv[1]), ["head-game"])[0]
data, pages, cards = render_pnp(game, "ru", PnpOptions(paper="a4"))
write_bytes_atomic(Path(sys.argv[2]), data)
print(pages, cards)
"""


def run(cmd: list[str], env: dict) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system, the process and its workers), its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-build", action="store_true", help="only the print-and-play PDF")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    print(f"load average before: {_load()}")
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "head-game-ru-pnp-a4.pdf"
        times, cpus = [], []
        for _ in range(args.repeat):
            seconds, cpu, out = run([sys.executable, "-c", PNP_SCRIPT, str(ROOT / "content"), str(target)], env)
            times.append(seconds)
            cpus.append(cpu)
        # memory of one run measured alone (ru_maxrss of children is a running maximum)
        peak = _peak_of([sys.executable, "-c", PNP_SCRIPT, str(ROOT / "content"), str(target)], env)
        size = target.stat().st_size
        pages, cards = out.split()
        print(f"head-game PnP PDF (A4, ru, {cards} cards, {pages} pages): best {min(times):.2f} s "
              f"(runs: {', '.join(f'{t:.2f}' for t in times)}; CPU {min(cpus):.2f} s), peak {peak:.0f} MB, "
              f"{size / 1024:.0f} KB"
              f"  [targets: <= 0.5 s, < 100 MB, < 300 KB]")
        if args.skip_build:
            return
        for label, extra in (("card artefacts (--only cards)", ["--only", "cards"]), ("everything", [])):
            times, cpus = [], []
            for i in range(args.repeat):
                out_dir = Path(tmp) / f"out-{len(extra)}-{i}"
                seconds, cpu, out = run([sys.executable, "-m", "cardgen", "build", "--out", str(out_dir), *extra], env)
                times.append(seconds)
                cpus.append(cpu)
            files = sum(1 for p in out_dir.rglob("*") if p.is_file())
            megabytes = sum(p.stat().st_size for p in out_dir.rglob("*") if p.is_file()) / 1e6
            print(f"cardgen build, {label} ({files} files, {megabytes:.0f} MB, {os.cpu_count()} cores): "
                  f"best {min(times):.1f} s (runs: {', '.join(f'{t:.1f}' for t in times)}; CPU {min(cpus):.1f} s)"
                  f"  [target: <= 20 s]")
        print(f"load average now: {_load()} (other work on the machine slows every figure)")


def _load() -> str:
    return ", ".join(f"{v:.2f}" for v in os.getloadavg())


def _peak_of(cmd: list[str], env: dict) -> float:
    """Peak resident memory (MB) of one child, measured through /usr/bin/time-like wait4."""
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_maxrss / 1024


if __name__ == "__main__":
    main()
