"""Preview benchmark: run `python benchmarks/bench_preview.py` from the repository root.

Times the whole process of `python -m cardgen preview head-game country-france --lang de`
(interpreter start, imports, loading the game, rendering one card, rasterising, writing the
PNG), best of --repeat runs (other work on the machine only adds time), as a writer meets it:

* ``same sources``: the files were read by an earlier run (cardgen's cache of parsed files,
  cardgen.content.memo, holds them);
* ``after a PO edit``: the card's German text changed before each run (that PO file is
  parsed again);
* ``after a cards.yaml edit``: the deck's file changed before each run (parsed, checked
  against the schema and expanded again);
* ``empty cache``: a new cache folder for each run (a first run after installing, or after
  cardgen itself changed).

Target: <= 0.5 s.  The content is copied to a temporary folder and the cache lives there
too; the repository and the user's cache are not touched.

Then, in one process with the cache filled, where the time goes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import load_average  # noqa: E402

GAME, CARD, LANG = "head-game", "country-france", "de"
PO_TEXT = 'msgstr "Frankreich"'
CARDS_LINE = "      country: [france,"

PHASES = """
import time, sys
from pathlib import Path
marks = [("start", time.perf_counter())]
def mark(name): marks.append((name, time.perf_counter()))
import click; mark("import click")
import pydantic, pydantic.main; mark("import pydantic")
from cardgen.content import load_games; mark("import the content model (classes only)")
game = load_games(Path(sys.argv[1]), ["head-game"])[0]; mark("load head-game (files from the cache)")
from cardgen.cards.card import CardRenderer; mark("import reportlab, renderer")
import pypdfium2; mark("import pdfium")
from cardgen.cards import fonts; fonts.register_fonts(); mark("register a font (from the cache)")
from cardgen.cards.preview import render_preview
image = render_preview(game, "country-france", "de"); mark("plan, draw, rasterise one card")
for (_, a), (name, b) in zip(marks, marks[1:]):
    print(f"  {name:42s} {b - a:6.3f} s")
"""


def timed_runs(command: list[str], env: dict[str, str], cwd: Path, repeat: int, before=None) -> list[float]:
    times = []
    for run in range(repeat):
        if before:
            before(run)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"failed: {done.stderr}")
    return times


def report(name: str, times: list[float]) -> None:
    print(f"  {name:26s} best {min(times):.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times)})  [target: <= 0.5 s]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        content = work / "content"
        shutil.copytree(ROOT / "content", content)
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   CARDGEN_CACHE_DIR=str(work / "cache"))
        env.pop("CARDGEN_CACHE", None)
        # A user's Python caches compiled modules; with PYTHONDONTWRITEBYTECODE set (as in some
        # sandboxes) every run compiles cardgen's modules again, a third of the time measured.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        command = [sys.executable, "-m", "cardgen", "--content", str(content), "preview", GAME, CARD, "--lang", LANG,
                   "--out", str(work / "card.png")]
        subprocess.run(command, cwd=work, env=env, check=True, capture_output=True)  # fills the cache
        po_file = content / GAME / "locale" / f"{LANG}.po"
        cards_file = content / GAME / "cards.yaml"

        def edit_po(run: int) -> None:
            text = po_file.read_text(encoding="utf-8")
            po_file.write_text(text.replace(PO_TEXT, PO_TEXT[:-1] + "!" * (run + 1) + '"', 1), encoding="utf-8")

        def edit_cards(run: int) -> None:
            text = cards_file.read_text(encoding="utf-8")
            cards_file.write_text(text.replace(CARDS_LINE, CARDS_LINE.replace("[", "[ "), 1), encoding="utf-8")

        def empty_cache(run: int) -> None:
            shutil.rmtree(work / "cache", ignore_errors=True)

        print(f"cardgen preview {GAME} {CARD} --lang {LANG}, whole process:")
        report("same sources", timed_runs(command, env, work, args.repeat))
        report("after a PO edit", timed_runs(command, env, work, args.repeat, edit_po))
        report("after a cards.yaml edit", timed_runs(command, env, work, args.repeat, edit_cards))
        report("empty cache", timed_runs(command, env, work, args.repeat, empty_cache))
        print(f"PNG: {(work / 'card.png').stat().st_size / 1024:.0f} KB; load average after: {load_average()}")
        subprocess.run(command, cwd=work, env=env, check=True, capture_output=True)
        print("where the time goes (one process, cache filled):")
        subprocess.run([sys.executable, "-c", PHASES, str(content)], cwd=ROOT, env=env, check=True)


if __name__ == "__main__":
    main()
