"""``cardgen serve`` without a browser: what the studio plans and badges, which cards a save
redraws, the routes, the refused addresses (raw HTTP), the error page and the change events."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli
from cardgen.studio.server import StudioServer
from cardgen.studio.state import Studio
from cardgen.studio.watcher import Watcher

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "data" / "mini"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

FUZZY_PO = '''msgid ""
msgstr ""
"Language: en\\n"
"Content-Type: text/plain; charset=utf-8\\n"

#, fuzzy
msgctxt "card.one.name"
msgid "Один"
msgstr "One"

msgctxt "card.swap.name"
msgid "Обмен"
msgstr "Swap"
'''


@pytest.fixture()
def content(tmp_path) -> Path:
    folder = tmp_path / "content"
    shutil.copytree(MINI, folder / "mini")
    return folder


@pytest.fixture()
def studio(content) -> Studio:
    found = Studio(content)
    found.load()
    return found


@pytest.fixture()
def server(studio):
    running = StudioServer(studio, "127.0.0.1", 0)
    thread = threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield running
    running.close()
    thread.join(timeout=5)


def _get(server, target: str, *, method: str = "GET", host: str | None = None) -> tuple[int, dict, bytes]:
    """One raw HTTP request: the target is sent exactly as written (no client-side normalising)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(f"{method} {target} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{server.port}'}\r\n"
                     "Connection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


# -- the studio's state -----------------------------------------------------------------------------

def test_every_face_and_back_is_planned_in_every_language_with_fallback_badges(studio):
    view = studio.games["mini"]
    assert view.languages == ["ru", "en"] and not view.errors
    for lang in ("ru", "en"):
        assert set(view.views[lang]) == {("face", "one"), ("face", "two"), ("face", "swap"), ("back", "main")}
        assert all(card.plan is not None for card in view.views[lang].values())
    # mini has no English translation: every English text prints the Russian source
    assert "fallback" in view.view("en", "face", "one").badges
    assert not view.view("ru", "face", "one").badges
    png = studio.picture("mini", "en", "face", "one")
    assert png.startswith(PNG_SIGNATURE)


def test_fuzzy_and_overflow_badges(content):
    (content / "mini" / "locale").mkdir()
    (content / "mini" / "locale" / "en.po").write_text(FUZZY_PO, "utf-8")
    _replace(content / "mini" / "text" / "ru.yaml", 'card.swap.name: "Обмен"',
             'card.swap.name: "' + "Очень длинное название карты " * 12 + '"')
    studio = Studio(content)
    studio.load()
    view = studio.games["mini"]
    one = view.view("en", "face", "one")
    # each note names the language printed instead
    assert "fuzzy" in one.badges and "fuzzy: card.one.name (prints Russian)" in one.notes, one.notes
    # the group's name has no translation at all: a fallback, not fuzzy
    assert "fallback: group.numbers (prints Russian)" in one.notes
    assert not any(note.startswith("fallback: card.one.name") for note in one.notes)
    # the PO's 'Swap' was made for the old source text: stale, so fuzzy too
    assert "fuzzy: card.swap.name (prints Russian)" in view.view("en", "face", "swap").notes
    swap = view.view("ru", "face", "swap")
    assert "overflow" in swap.badges and swap.plan is None and "does not fit" in swap.error
    assert studio.picture("mini", "ru", "face", "swap") is None


def test_a_saved_text_redraws_only_the_card_it_changes(studio, content):
    for lang in ("ru", "en"):
        for side, item in studio.games["mini"].views[lang]:
            studio.picture("mini", lang, side, item)
    drawn = studio.drawn
    _replace(content / "mini" / "text" / "ru.yaml", 'card.one.name: "Один"', 'card.one.name: "Единица"')
    event = studio.apply([content / "mini" / "text" / "ru.yaml"])
    # English falls back to the Russian text, so its face of 'one' changes too
    assert event["games"] == ["mini"]
    assert event["changed"] == {"mini": {"ru": ["face/one"], "en": ["face/one"]}}
    for lang in ("ru", "en"):
        for side, item in studio.games["mini"].views[lang]:
            studio.picture("mini", lang, side, item)
    assert studio.drawn == drawn + 1  # one new plan, the same in both languages: drawn once


def test_a_saved_po_file_changes_the_badges(studio, content):
    assert "fallback: card.one.name (prints Russian)" in studio.games["mini"].view("en", "face", "one").notes
    po = content / "mini" / "locale" / "en.po"
    po.parent.mkdir()
    po.write_text(FUZZY_PO, "utf-8")
    event = studio.apply([po])
    assert "face/one" in event["changed"]["mini"]["en"] and "ru" not in event["changed"]["mini"]
    assert "fuzzy: card.one.name (prints Russian)" in studio.games["mini"].view("en", "face", "one").notes
    swap = studio.games["mini"].view("en", "face", "swap")
    assert not any("card.swap.name" in note for note in swap.notes)  # translated: printed in English


def test_a_saved_layout_redraws_only_the_cards_it_draws_and_a_broken_one_shows(tmp_path, content):
    from cardgen.cards.layout import TEMPLATES_DIR

    templates = tmp_path / "templates" / "cards"  # beside the content folder: the studio's layouts
    shutil.copytree(TEMPLATES_DIR, templates)
    studio = Studio(content)
    studio.load()
    assert studio.templates_dir == templates.resolve()
    layout = templates / "default.yaml"
    good = layout.read_text("utf-8")
    # the star of the faces with a name and no art: 'one' and 'swap', not 'two' (art, no name)
    _replace(layout, '{type: draw, draw: star, box: ["25%", "20%", "50%", "40%"]',
             '{type: draw, draw: star, box: ["20%", "20%", "60%", "40%"]')
    event = studio.apply([layout])
    assert event["changed"] == {"mini": {lang: ["face/one", "face/swap"] for lang in ("ru", "en")}}
    assert studio.apply([templates / "printers.yaml"])["games"] == []  # no layout reads it
    layout.write_text(good.replace("safe_mm: 3", "safe_mm: [3]"), "utf-8")
    studio.apply([layout])
    view = studio.games["mini"]
    assert view.errors and any("default.yaml" in str(error.locator.file) for error in view.errors)
    layout.write_text(good, "utf-8")
    studio.apply([layout])
    assert not view.errors and view.view("ru", "face", "one").plan is not None


def test_a_saved_svg_redraws_the_cards_of_its_game(studio, content):
    before = studio.games["mini"].view("ru", "face", "two").version
    art = content / "mini" / "art" / "two.svg"
    old_png = studio.picture("mini", "ru", "face", "two")
    _replace(art, 'fill="#123456"', 'fill="#ff0000"')
    event = studio.apply([art])
    assert "face/two" in event["changed"]["mini"]["ru"]
    assert studio.games["mini"].view("ru", "face", "two").version != before
    assert studio.picture("mini", "ru", "face", "two") != old_png  # drawn from the new file


def test_a_file_outside_every_game_reloads_every_game(studio, content):
    shutil.copytree(MINI, content / "mini2")
    _replace(content / "mini2" / "game.yaml", "id: mini", "id: mini2")
    event = studio.apply([content / "mini2" / "game.yaml"])
    assert event["games"] == ["mini2"] and set(studio.games) == {"mini", "mini2"}
    event = studio.apply([content / "common" / "text" / "en.yaml"])
    assert event["games"] == ["mini", "mini2"]
    shutil.rmtree(content / "mini2")
    event = studio.apply([content / "mini2" / "game.yaml"])
    assert set(studio.games) == {"mini"} and "mini2" in event["games"]


def test_a_broken_file_keeps_the_last_good_cards_and_recovers(studio, content):
    cards = content / "mini" / "cards.yaml"
    good = cards.read_text("utf-8")
    _replace(cards, "group: specials", "group specials")
    studio.apply([cards])
    view = studio.games["mini"]
    assert view.stale and view.game is not None and view.views["ru"]
    assert len(view.errors) == 1
    error = view.errors[0]
    assert str(error.locator.file).endswith("mini/cards.yaml") and error.locator.line == 15
    cards.write_text(good, "utf-8")
    studio.apply([cards])
    assert not view.stale and not view.errors


# -- the server -------------------------------------------------------------------------------------

def test_routes(server):
    status, headers, body = _get(server, "/")
    assert status == 200 and headers["content-type"].startswith("text/html") and b"mini" in body
    status, _, body = _get(server, "/g/mini/en/")
    page = body.decode("utf-8")
    assert status == 200
    for item in ("face/one.png", "face/two.png", "face/swap.png", "back/main.png"):
        assert f"/img/mini/en/{item}?v=" in page
    assert page.count('class="badge fallback"') >= 4
    status, _, body = _get(server, "/g/mini/en/card/swap")
    page = body.decode("utf-8")
    assert status == 200 and "mini/cards.yaml:13" in page and "card.swap.name" in page
    assert "Обмен" in page and "mini/text/ru.yaml:13" in page
    status, headers, body = _get(server, "/img/mini/en/face/swap.png?v=anything")
    assert status == 200 and headers["content-type"] == "image/png" and body.startswith(PNG_SIGNATURE)
    assert "immutable" in headers["cache-control"]
    assert _get(server, "/static/studio.js")[0] == 200
    status, headers, body = _get(server, "/g/mini/")
    assert status == 302 and headers["location"] == "/g/mini/ru/"
    status, headers, body = _get(server, "/img/mini/en/face/one.png", method="HEAD")
    assert status == 200 and int(headers["content-length"]) > 0 and body == b""
    for missing in ("/g/nosuch/en/", "/g/mini/fr/", "/g/mini/en/card/nosuch", "/img/mini/en/face/nosuch.png",
                    "/img/mini/en/side/one.png", "/static/other.css", "/favicon.ico"):
        assert _get(server, missing)[0] == 404, missing
    assert _get(server, "/", method="POST")[0] == 405


@pytest.mark.parametrize("target", [
    "/../../../../etc/passwd",
    "/static/../../../../etc/passwd",
    "/static/..%2f..%2f..%2fpyproject.toml",
    "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/static/%2E%2E%2F%2E%2E%2Fstudio.css",
    "/static/..%5c..%5cpyproject.toml",
    "/img/mini/en/face/..%2f..%2f..%2fcards.yaml",
    "/g/mini/en/card/..%2F..%2Fcards.yaml",
    "//etc/passwd",
    "/etc/passwd",
    "http://127.0.0.1/etc/passwd",
    "/static/%ff%fe",
    "/static/studio.css%00.png",
    "/g/mini/en/card/.hidden",
])
def test_paths_out_of_what_the_studio_rendered_are_refused(server, target):
    status, _, body = _get(server, target)
    assert status in (400, 404), (target, status)
    assert b"root:" not in body and b"[project]" not in body and b"cards:" not in body


def test_a_symlink_out_of_the_content_is_never_served(server, content, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret", "utf-8")
    (content / "mini" / "art" / "leak.svg").symlink_to(secret)
    (content / "mini" / "leak.png").symlink_to(secret)
    for target in ("/img/mini/en/face/leak.png", "/static/leak.png", "/g/mini/leak.png", "/mini/leak.png",
                   "/mini/art/leak.svg", "/g/mini/en/card/leak"):
        status, _, body = _get(server, target)
        assert status == 404 and b"top secret" not in body, target


def test_a_foreign_host_name_is_refused(server):
    # a page elsewhere whose DNS name points at 127.0.0.1 must not read the studio
    assert _get(server, "/", host="attacker.example:80")[0] == 421
    assert _get(server, "/", host=f"localhost:{server.port}")[0] == 200


def test_a_content_error_shows_in_the_page_with_file_line_and_message(server, studio, content):
    cards = content / "mini" / "cards.yaml"
    _replace(cards, "group: specials", "group specials")
    studio.apply([cards])
    status, _, body = _get(server, "/g/mini/ru/")
    page = body.decode("utf-8")
    assert status == 200 and 'id="errors"' in page
    assert "mini/cards.yaml:15:5" in page and "YAML syntax error" in page
    assert "the last version that loaded" in page and "/img/mini/ru/face/one.png" in page
    assert '<span class="n">15</span>    kind: swap' in page  # the line itself
    status, _, body = _get(server, "/")
    assert 'id="problems-mini"' in body.decode("utf-8")


def test_a_saved_file_sends_an_update_event(server, studio, content):
    watcher = Watcher(studio, server.notify, [studio.content_dir])
    watcher.start()
    try:
        assert watcher.ready.wait(10)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/events", headers={"Host": f"127.0.0.1:{server.port}"})
        response = conn.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        assert _read_event(response) == ("hello", {"version": studio.version})
        started = time.monotonic()
        _replace(content / "mini" / "text" / "ru.yaml", 'card.swap.name: "Обмен"', 'card.swap.name: "Смена"')
        name, data = _read_event(response)
        assert name == "update" and data["games"] == ["mini"]
        assert data["changed"]["mini"]["ru"] == ["face/swap"]
        assert time.monotonic() - started < 5
        conn.close()
    finally:
        watcher.stop()
    assert not watcher.is_alive()


def _read_event(response) -> tuple[str, dict]:
    name, data = "", ""
    while True:
        line = response.fp.readline().decode("utf-8")
        if line.startswith(":"):
            continue
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
        elif line == "\n" and name:
            return name, json.loads(data)
        elif line == "":
            raise AssertionError("the event stream ended")


# -- the command ------------------------------------------------------------------------------------

def test_port_out_of_range_and_port_in_use(content):
    runner = CliRunner()
    result = runner.invoke(cli, ["serve", "--content", str(content), "--port", "70000"])
    assert result.exit_code == 2 and "0<=x<=65535" in result.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(cli, ["serve", "--content", str(content), "--port", str(port)])
    assert result.exit_code == 1, result.output
    assert f"error: port {port} on 127.0.0.1 is in use" in result.output
    result = runner.invoke(cli, ["serve", "--content", str(content / "nosuch")])
    assert result.exit_code == 2 and "no such folder" in result.output


def test_help_says_what_it_does():
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    for words in ("--content", "--host", "--port", "127.0.0.1", "8000", "badges", "overflows", "fuzzy"):
        assert words in result.output, words


def test_gallery_captions_name_the_card_in_the_chosen_language(tmp_path):
    from cardgen.studio.pages import Pages

    content = tmp_path / "content"
    shutil.copytree(Path(__file__).resolve().parents[2] / "content" / "klepka", content / "klepka")
    studio = Studio(content)
    studio.load()
    pages = Pages(studio)
    polish = pages.gallery("klepka", "pl")
    assert '<span class="name" lang="pl">Bramkarz Murowski</span> <small class="id">player-stenkin</small>' in polish
    russian = pages.gallery("klepka", "ru")
    assert '<span class="name" lang="ru">Вратарь Стенкин</span>' in russian
    assert '<span class="name" lang="pl">Murawa z napisem „Klepka”</span>' in polish  # the back


def test_a_game_of_an_earlier_format_shows_its_warning_on_the_overview(tmp_path):
    """The loader's format notice reaches the studio's user as it reaches validate's."""
    from cardgen.studio.pages import Pages

    content = Path(shutil.copytree(ROOT / "tests" / "data" / "formats" / "1", tmp_path / "games"))
    studio = Studio(content)
    studio.load()
    assert not studio.games["mini"].errors
    page = Pages(studio).overview()
    assert 'id="warnings-mini"' in page and "written in content format 1" in page
    assert "cardgen upgrade" in page
