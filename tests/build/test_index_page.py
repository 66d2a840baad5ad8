"""``output/index.html``: every build writes a static page of the manifest, committed with the files."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

from cardgen.build import BuildOptions, build
from cardgen.errors import TextOverflowError
from cardgen.build.index_page import INDEX_PAGE, render_index

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "tests" / "data" / "decks"


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.images: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href") and not attrs["href"].startswith("#"):
            self.hrefs.append(attrs["href"])
        if tag == "img":
            self.images.append(attrs["src"])


def _parse(page: str) -> _Links:
    parser = _Links()
    parser.feed(page)
    return parser


@pytest.fixture
def decks(tmp_path) -> Path:
    target = tmp_path / "decks"
    shutil.copytree(DECKS, target)
    return target


def _build(decks: Path, out: Path, **options) -> list[dict]:
    build(BuildOptions(content_dir=decks, out_dir=out, workers=1, producers=("cards",), papers=("a4",), **options))
    return json.loads((out / "manifest.json").read_text("utf-8"))["files"]


def _resolve(out: Path, href: str) -> Path:
    assert not href.startswith("/") and "://" not in href, href
    target = (out / unquote(href)).resolve()
    assert target.is_relative_to(out.resolve()), href
    return target


def test_page_links_every_manifest_file_and_shows_every_face_and_back(decks, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    out = tmp_path / "out"
    files = _build(decks, out)
    page = (out / INDEX_PAGE).read_text("utf-8")
    links = _parse(page)
    assert INDEX_PAGE not in {f["path"] for f in files}  # a view of the manifest, not listed in it
    linked = {_resolve(out, href) for href in links.hrefs}
    assert linked >= {(out / f["path"]).resolve() for f in files}, "a manifest file is not linked"
    assert all(path.is_file() for path in linked)
    # every card face and back: each shop PNG's picture is shown (copies share one image)
    shown = {hashlib.sha256(_resolve(out, src).read_bytes()).hexdigest() for src in links.images}
    pngs = [f for f in files if f["kind"] == "shop-png"]
    assert pngs and {f["sha256"] for f in pngs} <= shown
    backs = [f for f in pngs if Path(f["path"]).name.startswith("back-")]
    assert {f["lang"] for f in backs} == {"ru", "en"} and len(backs) == 4  # quiz: two backs, two languages
    # one image per distinct picture of each language (copies of a card are shown once)
    assert len(links.images) == sum(len({f["sha256"] for f in pngs if f["lang"] == lang}) for lang in ("ru", "en"))
    assert not re.search(r"https?://", page), "the page must not reach the network"
    assert "<td>question</td>" in page and "<td>double</td>" in page  # composition per group and kind
    assert '<td>pnp</td><td>full</td><td>a4</td>' in page  # ink and paper of the print-and-play PDF


def test_page_is_deterministic_and_keeps_earlier_entries(decks, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    one, two = tmp_path / "one", tmp_path / "two"
    _build(decks, one)
    _build(decks, two)
    assert (one / INDEX_PAGE).read_bytes() == (two / INDEX_PAGE).read_bytes()
    # a later build of one language keeps the other's entries, and the page still lists them
    files = _build(decks, one, langs=("en",))
    page = (one / INDEX_PAGE).read_text("utf-8")
    assert any(f["lang"] == "ru" for f in files)
    hrefs = {unquote(h) for h in _parse(page).hrefs}
    assert {f["path"] for f in files} <= hrefs


def test_failed_build_leaves_the_old_page(decks, tmp_path):
    out = tmp_path / "out"
    _build(decks, out, langs=("ru",))
    before = (out / INDEX_PAGE).read_bytes()
    text = decks / "quiz" / "text" / "ru.yaml"  # a job fails (text overflows its box) after others staged files
    text.write_text(text.read_text("utf-8").replace('"Удвой очки"', '"' + "Удвой очки " * 30 + '"'), "utf-8")
    with pytest.raises(TextOverflowError):
        _build(decks, out, langs=("ru",))
    assert (out / INDEX_PAGE).read_bytes() == before


def test_render_index_escapes_and_notes_missing_content():
    entries = [{"game": "a<b", "kind": "pnp", "lang": "en", "paper": "a4", "path": "a<b/en/x y.pdf",
                "pages": 1, "cards": 2, "sha256": "0" * 64}]
    page = render_index(entries, lambda game: None)
    assert "a&lt;b" in page and "<b" not in page.replace("<body", "")
    assert 'href="a%3Cb/en/x%20y.pdf"' in page
    assert "no composition table" in page and "No card images" in page


def _entry(path: str, kind: str, lang: str = "en", **extra) -> dict:
    return {"game": "g", "kind": kind, "lang": lang, "paper": extra.pop("paper", None), "path": path, "pages": 1,
            "cards": 1, "sha256": hashlib.sha256(path.encode()).hexdigest(), **extra}


def test_page_shows_every_kind_and_variant_present():
    """What several builds into one folder leave: both inks, the default shop PDF and a printer's,
    two printers' PNGs, both tabletop formats; each a row of the overview and of its language."""
    entries = [
        _entry("g/en/g-en-pnp-a4.pdf", "pnp", paper="a4", ink="full"),
        _entry("g/en/g-en-pnp-a4-greyscale.pdf", "pnp", paper="a4", ink="greyscale"),
        _entry("g/de/g-de-pnp-a4-greyscale.pdf", "pnp", lang="de", paper="a4", ink="greyscale"),
        _entry("g/en/g-en-shop.pdf", "shop-pdf"),
        _entry("g/en/g-en-shop-eu-pdfx4.pdf", "shop-pdf", printer="eu-pdfx4"),
        _entry("g/en/png-tgc/001-a.png", "shop-png", printer="tgc", profile="tgc", pixels=[10, 14]),
        _entry("g/en/png-mpc/001-a.png", "shop-png", printer="mpc", profile="mpc", pixels=[10, 14]),
        _entry("g/en/tabletop/g-en.json", "tabletop", format="tts"),
        _entry("g/en/tabletop/g-en-sprites.json", "tabletop", format="sprites"),
    ]
    page = render_index(entries, lambda game: [])
    rows = re.findall(r'<tr><td>([^<]+)</td><td>([^<]*)</td><td><a href="#g">g</a></td><td>([^<]*)</td>'
                      r'<td class="n">(\d+)</td></tr>', page)
    assert rows == [("pnp", "full", "en", "1"), ("pnp", "greyscale", "de, en", "2"), ("shop-pdf", "RGB", "en", "1"),
                    ("shop-pdf", "eu-pdfx4", "en", "1"), ("shop-png", "mpc", "en", "1"), ("shop-png", "tgc", "en", "1"),
                    ("tabletop", "sprites", "en", "1"), ("tabletop", "tts", "en", "1")]
    assert ("1 pnp (full), 1 pnp (greyscale), 1 shop-pdf (RGB), 1 shop-pdf (eu-pdfx4), 1 shop-png (mpc), "
            "1 shop-png (tgc), 1 tabletop (sprites), 1 tabletop (tts)") in page
    links = _parse(page)
    assert set(links.hrefs) == {entry["path"] for entry in entries} | {"manifest.json"}
    assert links.images == ["g/en/png-mpc/001-a.png"]  # the same cards: one printer's PNGs as thumbnails
    assert "1 shop PNG file(s) for mpc" in page and "1 shop PNG file(s) for tgc" in page
