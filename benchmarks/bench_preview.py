"""Preview benchmark: run `python benchmarks/bench_preview.py` from the repository root.

Times the whole process of `python -m cardgen preview head-game country-france --lang de`
(interpreter start, imports, loading the game, rendering one card, rasterising, writing the
PNG), best of --repeat runs (other work on the machine only adds time).  Target: <= 0.5 s.

Then, in one process with ``-X importtime``-style timers, where the time goes: importing
the content model (pydantic), loading the game, registering the fonts (reportlab parses
the TrueType files), planning and drawing, rasterising (pdfium).
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
COMMAND = ["-m", "cardgen", "--content", str(ROOT / "content"), "preview", "head-game", "country-france",
           "--lang", "de"]

PHASES = """
import time, sys
from pathlib import Path
marks = [("start", time.perf_counter())]
def mark(name): marks.append((name, time.perf_counter()))
import click; mark("import click")
from cardgen.content import load_games; mark("import content model (pydantic)")
game = load_games(Path(sys.argv[1]), ["head-game"])[0]; mark("load head-game")
from cardgen.render.card import CardRenderer; import pypdfium2; mark("import reportlab, pdfium, renderer")
from cardgen.render import fonts; fonts.register_fonts(); mark("register fonts")
from cardgen.render.preview import render_preview
image = render_preview(game, "country-france", "de"); mark("plan, draw, rasterise one card")
for (_, a), (name, b) in zip(marks, marks[1:]):
    print(f"  {name:40s} {b - a:6.3f} s")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # A user's Python caches compiled modules; with PYTHONDONTWRITEBYTECODE set (as in some
    # sandboxes) every run compiles cardgen's modules again, a third of the time measured.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            start = time.perf_counter()
            done = subprocess.run([sys.executable, *COMMAND], cwd=tmp, env=env, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                sys.exit(f"failed: {done.stderr}")
        written = Path(tmp) / done.stdout.strip()
        size = written.stat().st_size
    print(f"cardgen preview head-game country-france --lang de: best {min(times):.2f} s "
          f"(runs: {', '.join(f'{t:.2f}' for t in times)}), {size / 1024:.0f} KB PNG  [target: <= 0.5 s]")
    print("where the time goes (one process):")
    subprocess.run([sys.executable, "-c", PHASES, str(ROOT / "content")], cwd=ROOT, env=env, check=True)


if __name__ == "__main__":
    main()
