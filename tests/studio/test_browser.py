"""``cardgen serve`` and ``output/index.html`` in a real browser: Debian's Chromium driven by
Playwright (no browser download; CI installs ``chromium`` with the system packages, and a
missing browser fails this test rather than skipping it).

The studio runs as ``cardgen serve`` in a subprocess on a free port over a temporary copy of
the content: the small ``mini`` game (to edit) and the bundled ``klepka`` (every card image).
"""

from __future__ import annotations

import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "data" / "mini"
BUNDLED = "klepka"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 15_000  # generous for a loaded CI machine; the speed is measured in benchmarks/

# Scroll every picture into view (they load lazily) and wait for it; the pictures that did not
# load, and how many there are.
ALL_IMAGES_LOAD = """async (selector) => {
  const images = [...document.querySelectorAll(selector)];
  const bad = [];
  for (const img of images) {
    img.scrollIntoView();
    try { await img.decode(); } catch (error) { bad.push(img.src); continue; }
    if (!(img.complete && img.naturalWidth > 0)) bad.push(img.src);
  }
  return {count: images.length, bad};
}"""


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("studio") / "content"
    shutil.copytree(MINI, folder / "mini")
    shutil.copytree(ROOT / "content" / BUNDLED, folder / BUNDLED)
    return folder


@pytest.fixture(scope="module")
def studio_url(content, tmp_path_factory):
    # stderr to a file: a pipe nobody reads could fill up and stall the studio
    log = tmp_path_factory.mktemp("serve") / "stderr.txt"
    with log.open("w") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", "--content", str(content),
                                    "--port", "0"], stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        yield _address(process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _address(process: subprocess.Popen, log: Path) -> str:
    """The address ``cardgen serve`` prints once it answers."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            line = process.stdout.readline()
            found = re.search(r"http://\S+/", line)
            if found:
                return found.group(0)
        if process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"cardgen serve did not start: {log.read_text()}")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).is_file(), "Debian's chromium is not installed (tools/dev installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def page(browser):
    opened = browser.new_page(viewport={"width": 1200, "height": 900})
    yield opened
    opened.close()


def test_every_card_image_of_a_bundled_game_loads(page, studio_url):
    from cardgen.content import load_games

    game = load_games(ROOT / "content", [BUNDLED])[0]
    for lang in game.meta.languages:
        page.goto(f"{studio_url}g/{BUNDLED}/{lang}/")
        result = page.evaluate(ALL_IMAGES_LOAD, "main img")
        assert result["bad"] == [], result["bad"][:5]
        assert result["count"] == len(game.cards) + len(game.meta.backs)
    card = game.cards[0].id
    page.goto(f"{studio_url}g/{BUNDLED}/en/card/{card}")
    result = page.evaluate(ALL_IMAGES_LOAD, "#pictures img")
    assert result["bad"] == [] and result["count"] == len(game.meta.languages) + 1  # a face per language, the back


def test_a_save_redraws_the_card_in_the_open_page_and_an_error_shows_until_fixed(page, studio_url, content):
    page.goto(f"{studio_url}g/mini/ru/")
    assert page.evaluate(ALL_IMAGES_LOAD, "main img")["bad"] == []
    old_src = page.get_attribute("#face-one img", "src")
    page.evaluate("document.querySelector('#face-two img').kept = 'yes'")  # marks the element, not its HTML

    text = content / "mini" / "text" / "ru.yaml"
    text.write_text(text.read_text("utf-8").replace('card.one.name: "Один"', 'card.one.name: "Единица"'), "utf-8")
    page.wait_for_function(
        """(old) => { const img = document.querySelector('#face-one img');
                      return img && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0; }""",
        arg=old_src, timeout=WAIT_MS)
    # the page was patched, not reloaded: an untouched card keeps its element
    assert page.evaluate("document.querySelector('#face-two img').kept") == "yes"

    cards = content / "mini" / "cards.yaml"
    good = cards.read_text("utf-8")
    cards.write_text(good.replace("group: specials", "group specials", 1), "utf-8")
    page.wait_for_selector("#errors", timeout=WAIT_MS)
    shown = page.inner_text("#errors")
    assert "mini/cards.yaml:15:5" in shown and "YAML syntax error" in shown, shown
    assert page.is_visible("#face-one img")  # the last good cards stay on show

    cards.write_text(good, "utf-8")
    page.wait_for_selector("#errors", state="detached", timeout=WAIT_MS)
    assert page.evaluate(ALL_IMAGES_LOAD, "main img")["bad"] == []


def _built_index(content, tmp_path) -> Path:
    """The output/index.html of a cards-only build of mini, made by the CLI as a user runs it."""
    out = tmp_path / "output"
    done = subprocess.run([sys.executable, "-m", "cardgen", "--content", str(content), "build", "mini",
                           "--only", "cards", "--paper", "a4", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out / "index.html"


def test_the_built_index_page_shows_its_thumbnails(page, content, tmp_path):
    page.goto(_built_index(content, tmp_path).as_uri())
    result = page.evaluate(ALL_IMAGES_LOAD, "img")
    assert result["bad"] == [], result["bad"][:5]
    # per language (ru, en): the three faces and the back
    assert result["count"] == 2 * 4


@pytest.mark.parametrize("path", ["", f"g/{BUNDLED}/en/", f"g/{BUNDLED}/de/card/player-gvozdev", "g/mini/ru/"])
def test_studio_pages_break_no_wcag_rule(page, studio_url, path):
    sys.path.insert(0, str(ROOT / "tests"))
    from axecheck import axe_version, violations

    page.goto(studio_url + path)
    page.evaluate(ALL_IMAGES_LOAD, "main img")
    assert violations(page) == []
    assert axe_version(page).startswith("4.")


def test_the_colour_vision_switch_shows_the_cards_as_a_deuteranope_sees_them(page, studio_url):
    import io

    from PIL import Image

    page.goto(f"{studio_url}g/{BUNDLED}/en/")
    page.evaluate(ALL_IMAGES_LOAD, "main img")
    figure = page.locator("#face-player-raketov img")  # a forward: a red frame
    assert figure.get_attribute("alt") == "Striker Rocketson"  # the card's name, not its id
    figure.scroll_into_view_if_needed()
    plain = Image.open(io.BytesIO(figure.screenshot())).convert("RGB")
    page.select_option("#vision", "deuteranopia")
    assert "vision-deuteranopia" in page.evaluate(
        "getComputedStyle(document.querySelector('#face-player-raketov img')).filter")
    seen = Image.open(io.BytesIO(figure.screenshot())).convert("RGB")
    r, g, b = plain.getpixel((4, 4))
    r2, g2, b2 = seen.getpixel((4, 4))
    assert r > 150 and g < 80  # red for normal vision
    assert abs(r2 - g2) < 40 and g2 > g + 40  # a deuteranope's olive: red and green alike
    page.reload()  # kept across pages
    assert page.evaluate("document.body.dataset.vision") == "deuteranopia"
    page.select_option("#vision", "")


def test_the_built_index_page_breaks_no_wcag_rule(page, content, tmp_path):
    sys.path.insert(0, str(ROOT / "tests"))
    from axecheck import violations

    page.goto(_built_index(content, tmp_path).as_uri())
    page.evaluate(ALL_IMAGES_LOAD, "img")
    assert violations(page) == []
    alts = page.evaluate("[...document.querySelectorAll('img')].map((img) => img.alt)")
    assert all(alts) and not any(alt in ("one", "two", "three") for alt in alts), alts  # names, not card ids
