"""The rulebook as a web page: the same content, landmarks, card pictures as files with alt text,
checked by axe-core in Debian's Chromium (no WCAG 2.x A/AA violation)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.rulebook.web import build_web_rulebook, files_folder, page_name

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def _write(book, folder: Path) -> Path:
    page = folder / page_name(book.game, book.language)
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_bytes(book.html)
    for name, data in book.files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return page


def test_the_page_has_landmarks_pictures_as_files_and_alt_text(games):
    game = games["klepka"]
    book = build_web_rulebook(game, "en")
    html = book.html.decode("utf-8")
    assert '<html lang="en">' in html and "<main" in html and "<header>" in html
    assert re.search(r'<nav class="toc" id="contents" aria-labelledby="contents-title">', html)
    names = {name for name, _ in book.files}
    assert f"{files_folder('klepka', 'en')}/rules.css" in names
    sources = re.findall(r'<img src="([^"]+)" alt="([^"]*)"', html)
    assert sources and all(src in names for src, _ in sources)
    assert all(alt for _, alt in sources)
    rule = game.text("card.prize-var.rule", "en")
    assert any(alt == f"VAR: {rule}" for _, alt in sources)
    assert all(data.startswith(b"\x89PNG") for name, data in book.files if name.endswith(".png"))
    assert "@page" not in html and "file://" not in html  # no print styles, no paths of this machine


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).is_file(), "Debian's chromium is not installed (tools/dev installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


@pytest.mark.parametrize("game_id", ["card-football", "head-game", "himmel", "klepka"])
def test_every_language_breaks_no_wcag_rule(games, browser, tmp_path, game_id):
    sys.path.insert(0, str(ROOT / "tests"))
    from axecheck import violations

    game = games[game_id]
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    try:
        for lang in game.meta.languages:
            written = _write(build_web_rulebook(game, lang), tmp_path / lang)
            page.goto(written.as_uri())
            page.wait_for_load_state("load")
            broken = page.evaluate("[...document.images].filter((i) => !(i.complete && i.naturalWidth)).length")
            assert broken == 0
            assert violations(page) == [], (game_id, lang)
    finally:
        page.close()


def test_the_build_writes_the_page_beside_the_pdfs(tmp_path):
    from cardgen.cli import cli

    content = tmp_path / "content"
    import shutil

    shutil.copytree(ROOT / "tests" / "data" / "mini", content / "mini")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["--content", str(content), "build", "mini", "--only", "rulebook-html",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    entries = [e for e in manifest["files"] if e["kind"] == "rulebook-html"]
    pages = [e["path"] for e in entries if e["path"].endswith(".html")]
    assert sorted(pages) == sorted(f"mini/{lang}/mini-{lang}-rules.html" for lang in ("ru", "en"))
    for entry in entries:
        assert (out / entry["path"]).is_file()
