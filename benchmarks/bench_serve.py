"""Studio live-reload benchmark: run `python benchmarks/bench_serve.py` from the repository root.

Starts `cardgen serve` on a free port over a temporary copy of the bundled games, opens a game's
gallery in Debian's Chromium (Playwright), then saves a changed card name in the game's source
text --repeat times (each a name never drawn before) and times each save until the open page
shows the card's new picture (loaded, naturalWidth > 0): the watcher's wait for the burst to
end, reloading and checking the game, planning its cards, the change event, the page asking
again and patching itself, and drawing and loading the one new picture.  Target: <= 1 s.
"""

from __future__ import annotations

import argparse
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
NEW_PICTURE = """([id, old]) => { const img = document.querySelector('#face-' + id + ' img');
  return img && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0; }"""


def _card_line(content: Path, game_id: str) -> tuple[str, Path, int]:
    """A card whose name is one quoted line of the source text: (card id, file, line number)."""
    from cardgen.content import load_games
    from cardgen.i18n.catalog import game_domain

    game = load_games(content, [game_id])[0]
    domain = game_domain(game)
    path = game.root / "text" / f"{game.meta.source_language}.yaml"
    lines = path.read_text("utf-8").splitlines()
    for card in game.cards:
        key = card.text.get("name")
        line = domain.lines.get(key) if key else None
        if line and lines[line - 1].rstrip().endswith('"'):
            return card.id, path, line
    raise SystemExit(f"{game_id}: no card name on one quoted line")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["himmel", "head-game"])
    parser.add_argument("--repeat", type=int, default=10)
    options = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        for game_id in options.games:
            shutil.copytree(ROOT / "content" / game_id, content / game_id)
        process = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", "--content", str(content),
                                    "--port", "0"], stdout=subprocess.PIPE, text=True)
        try:
            select.select([process.stdout], [], [], 60)
            url = re.search(r"http://\S+/", process.stdout.readline()).group(0)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                page = browser.new_page(viewport={"width": 1200, "height": 900})
                for game_id in options.games:
                    card_id, path, line = _card_line(content, game_id)
                    lang = re.search(r"text/(\w+)\.yaml", str(path)).group(1)
                    page.goto(f"{url}g/{game_id}/{lang}/")
                    page.locator(f"#face-{card_id} img").scroll_into_view_if_needed()
                    page.wait_for_function(NEW_PICTURE, arg=[card_id, ""], timeout=30_000)
                    times = []
                    lines = path.read_text("utf-8").splitlines(keepends=True)
                    original = lines[line - 1].rstrip("\n")
                    for n in range(options.repeat):
                        old = page.get_attribute(f"#face-{card_id} img", "src")
                        # a new name each time: every save draws a picture never drawn before
                        lines[line - 1] = original[:-1] + f' {n + 1}"' + "\n"
                        time.sleep(0.3)  # the page has settled
                        start = time.perf_counter()
                        path.write_text("".join(lines), "utf-8")
                        page.wait_for_function(NEW_PICTURE, arg=[card_id, old], timeout=30_000)
                        times.append(time.perf_counter() - start)
                    print(f"{game_id:12s} save -> new picture in the open page: median {statistics.median(times):.3f} s, "
                          f"max {max(times):.3f} s, min {min(times):.3f} s ({options.repeat} saves of card {card_id})")
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
