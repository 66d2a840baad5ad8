"""A seeded fuzz run over the mini game (issue 15): 500 mutations of game.yaml, cards.yaml, the
source text, a layout, a PO file and an SVG picture, and a class aimed at the build itself
(changes validate accepts and the build refuses, so that many failed builds are checked).

Each mutated folder is validated; each one that validates is built (cards only, one worker,
in-process) into an output folder holding an earlier build.  Every run must end with exit 0
or a clean `error:` line (no traceback, no exception escaping the CLI), within a time bound
per case, and a failed build must leave the output folder byte-identical and name a file and
line.  The totals by file and outcome are printed (`pytest -s` shows them).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import cli

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "data" / "mini"
SEED = 15
CASES = 500
SECONDS_PER_CASE = 30
BUILD = ["build", "mini", "--only", "cards", "--paper", "a4", "--lang", "ru", "-j", "1"]
BUILD_TIME = "build-time"

PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "card.one.name"
msgid "Один"
msgstr "One"

msgctxt "card.swap.name"
msgid "Обмен"
msgstr "Swap"

msgctxt "game.title"
msgid "Мини"
msgstr "Mini"
"""

#: Values a mutation writes in place of a number or a word: edges, nonsense, references, paths.
NASTY = ["0", "-1", "1e9", "1e309", "0.001", "-0.0", ".nan", ".inf", "100000000", "abc", "''", "~", "[]", "{}",
         "'{card:nosuch}'", "'{card:}'", "'{setting:nosuch}'", "'{card:two}'", "'{x'", "'}'",
         "../../../../etc/passwd", "/dev/zero", "'a\\0b'", "'" + "x" * 300 + "'", "&a", "*a", "!!python/object:os.system",
         "'<h1>X</h1>'", "true", "2147483648", "'\\t'", "|"]
SVG_NASTY = ["0", "-1", "1e999", "abc", "none", "", "translate()", "M 5", "1e6", "0 0 0 0"]


def _mutate_text(rng: random.Random, text: str, nasty: list[str]) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return "x"
    i = rng.randrange(len(lines))
    how = rng.choice(["number", "number", "value", "delete", "duplicate", "truncate", "swap", "indent", "insert",
                      "long"])
    if how == "long":
        # a sentence far too long for any card box: validate passes (it measures no text), the build fails
        strings = list(re.finditer(r'"[^"\n]{2,}"', text))
        if strings:
            m = rng.choice(strings)
            return text[:m.start()] + '"' + "слово и ещё " * 400 + '"' + text[m.end():]
    if how == "number":
        numbers = list(re.finditer(r"-?\d+(?:\.\d+)?", text))
        if numbers:
            m = rng.choice(numbers)
            return text[:m.start()] + rng.choice(nasty) + text[m.end():]
    if how == "value":
        words = list(re.finditer(r"(?<=[:=\[ ,\"])[A-Za-zА-Яа-я#][\w#./-]*", text))
        if words:
            m = rng.choice(words)
            return text[:m.start()] + rng.choice(nasty) + text[m.end():]
    if how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(i, lines[i])
    elif how == "truncate":
        return text[:rng.randrange(len(text) + 1)]
    elif how == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "indent":
        lines[i] = rng.choice(["  ", "\t", " "]) + lines[i]
    else:
        lines.insert(i, rng.choice(nasty) + "\n")
    return "".join(lines)


def _base(folder: Path) -> Path:
    game = folder / "mini"
    shutil.copytree(MINI, game)
    layout = (ROOT / "templates" / "cards" / "default.yaml").read_text("utf-8")
    (game / "layout.yaml").write_text(layout.replace("include: [common.yaml]", "include: [common.yaml]\n"
                                                     "colors: {deep: \"#123456\"}"), "utf-8")
    (game / "locale").mkdir()
    (game / "locale" / "en.po").write_text(PO, "utf-8")
    return game


#: file of the game -> its share of the mutations; "build-time" is a class of its own (below)
TARGETS = {"game.yaml": 1, "cards.yaml": 1, "text/ru.yaml": 1, "layout.yaml": 2, "locale/en.po": 1,
           "art/two.svg": 1, BUILD_TIME: 1}

#: Words that no card box holds at any allowed size; validate measures no text, so only the build finds out.
LONG_WORDS = ["слово и ещё " * 400, "Ы" * 2000, "word " * 600, " ".join(["nobreak"] * 300)]


def _build_time_mutation(rng: random.Random, game: Path) -> str:
    """A change that validate accepts and the build must refuse: text too long for its box.

    In the source text, in a translation (the build then also makes English), or a layout
    font size raised, within its range, beyond what the box holds.  Returns what it did.
    """
    how = rng.choice(["source", "source", "translation", "layout"])
    if how == "layout":
        path = game / "layout.yaml"
        text = path.read_text("utf-8")
        big = rng.choice([120, 300, 500])
        # every text element: which layout entry draws which card is the layout's business
        path.write_text(re.sub(r"size: \d+, min_size: \d+", f"size: {big}, min_size: {big}", text), "utf-8")
        return f"layout sizes {big}"
    words = rng.choice(LONG_WORDS)
    if how == "translation":
        path = game / "locale" / "en.po"
        text = path.read_text("utf-8")
        targets = list(re.finditer(r'^msgctxt "card\.\w+\.name"\nmsgid "[^"]*"\nmsgstr "[^"]*"$', text,
                                   flags=re.MULTILINE))
        m = rng.choice(targets)
        kept = m.group(0).rsplit("\n", 1)[0]
        path.write_text(text[:m.start()] + f'{kept}\nmsgstr "{words}"' + text[m.end():], "utf-8")
        return "long translation"
    path = game / "text" / "ru.yaml"
    text = path.read_text("utf-8")
    keys = list(re.finditer(r'^  (card\.\w+\.name): "[^"\n]*"$', text, flags=re.MULTILINE))  # printed names
    m = rng.choice(keys)
    path.write_text(text[:m.start()] + f'  {m.group(1)}: "{words}"' + text[m.end():], "utf-8")
    return "long source text"


class CaseTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise CaseTimeout


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _outcome(result) -> str:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"exception {type(result.exception).__name__}: {result.exception}"
    if "Traceback" in result.output:
        return "traceback"
    if result.exit_code == 0:
        return "ok"
    lines = result.output.splitlines()
    if result.exit_code == 1 and any(line.startswith("error: ") for line in lines):
        return "clean error"
    return f"exit {result.exit_code} without an error line"


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the time bound per case needs SIGALRM")
def _validate_then_build(runner, content: Path, build: list[str], out: Path, before: dict, located: str,
                         validate_located: bool = False) -> tuple[str, str]:
    """(step, outcome) of validating a fuzzed game and, when it validates, building it: "ok", "clean
    error", or what went wrong (an error not naming its file and line by ``located``, a failed build
    that changed the output folder, no end in time)."""
    step = "validate"
    signal.alarm(SECONDS_PER_CASE)
    try:
        checked = runner.invoke(cli, ["--content", str(content), "validate"])
        outcome = _outcome(checked)
        if validate_located and outcome == "clean error" and not re.search(located, checked.output):
            return step, f"validate error without file and line: {checked.output.strip()[:300]}"
        if outcome != "ok":
            return step, outcome
        built = runner.invoke(cli, ["--content", str(content), *build, "--out", str(out)])
        step, outcome = "build", _outcome(built)
        if outcome != "ok" and _tree(out) != before:
            return step, "failed build changed the output folder"
        if outcome == "clean error" and not re.search(located, built.output):
            return step, f"build error without file and line: {built.output.strip()[:300]}"
        return step, outcome
    except CaseTimeout:
        return step, f"no end within {SECONDS_PER_CASE} s"
    finally:
        signal.alarm(0)


def test_fuzzed_mini_game_gets_only_clean_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    rng = random.Random(SEED)
    runner = CliRunner()
    pristine = tmp_path / "pristine"
    _base(pristine)
    out = tmp_path / "out"
    first = runner.invoke(cli, ["--content", str(pristine), *BUILD, "--out", str(out)])
    assert first.exit_code == 0, first.output
    targets = [name for name, share in TARGETS.items() for _ in range(share)]
    totals: Counter = Counter()
    bad: list[str] = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    started = time.perf_counter()
    try:
        for number in range(CASES):
            content = tmp_path / f"case-{number}"  # a fresh path per case: renderers cache by path
            game = _base(content)
            target = rng.choice(targets)
            build = BUILD
            if target == BUILD_TIME:
                text = _build_time_mutation(rng, game)
                build = [*BUILD, "--lang", "en"]
            else:
                path = game / target
                nasty = SVG_NASTY if target.endswith(".svg") else NASTY
                text = path.read_text("utf-8")
                for _ in range(rng.choice([1, 1, 2, 3])):
                    text = _mutate_text(rng, text, nasty)
                path.write_text(text, "utf-8")
            before = _tree(out)
            step, outcome = _validate_then_build(runner, content, build, out, before, r"\.(yaml|po|svg):\d+")
            totals[(target, step, outcome if outcome in ("ok", "clean error") else "BAD")] += 1
            if outcome not in ("ok", "clean error"):
                bad.append(f"case {number} ({target}, {step}): {outcome}\n{text[:400]}")
            shutil.rmtree(content)
    finally:
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - started
    print(f"\nfuzz: {CASES} cases (seed {SEED}) in {elapsed:.0f} s")
    for (target, step, outcome), count in sorted(totals.items()):
        print(f"  {target:14} {step:9} {outcome:12} {count:4}")
    assert not bad, f"{len(bad)} case(s) without a clean end:\n\n" + "\n\n".join(bad[:10])
    assert sum(totals.values()) == CASES
    assert any(step == "build" for _, step, _ in totals), "no mutation validated: the fuzz proves nothing"
    failed_builds = sum(count for (_, step, outcome), count in totals.items() if (step, outcome) == ("build", "clean error"))
    aimed = sum(count for (target, _, _), count in totals.items() if target == BUILD_TIME)
    failed_aimed = totals[(BUILD_TIME, "build", "clean error")]
    # the build-time class exists to exercise failed builds: nearly all of its cases must get that far and fail
    assert aimed >= 30 and failed_aimed >= 0.9 * aimed, f"{failed_aimed} of {aimed} build-time mutations failed the build"
    assert failed_builds >= failed_aimed


# --- images (issue 23): the bytes of raster art mutated ------------------------------------------------

IMAGE_SEED = 23
IMAGE_CASES = 60
#: art file of the mini game -> how it is made
IMAGE_FILES = ("art/two.png", "art/back.jpg", "art/extra.tif", "art/extra.webp")


def _image_base(folder: Path) -> Path:
    """The mini game with raster art: card 'two' a PNG, the back a JPEG, a TIFF and a WebP in the layout."""
    import imagemaker

    game = _base(folder)
    picture = imagemaker.picture(240, 180, seed=3)
    (game / "art" / "two.png").write_bytes(imagemaker.encoded(picture.convert("RGBA"), "PNG"))
    (game / "art" / "back.jpg").write_bytes(imagemaker.encoded(imagemaker.picture(300, 400, mode="CMYK"), "JPEG"))
    (game / "art" / "extra.tif").write_bytes(imagemaker.encoded(picture, "TIFF", compression="tiff_lzw"))
    (game / "art" / "extra.webp").write_bytes(imagemaker.encoded(picture, "WEBP", quality=80))
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text("utf-8").replace("art/two.svg", "art/two.png"), "utf-8")
    meta = game / "game.yaml"
    meta.write_text(meta.read_text("utf-8").replace("art/back.svg", "art/back.jpg"), "utf-8")
    layout = game / "layout.yaml"
    text = layout.read_text("utf-8")
    extra = ("\n      - {type: image, src: art/extra.tif, box: [5, 5, 20, 15], fit: contain}"
             "\n      - {type: image, src: art/extra.webp, box: [30, 5, 20, 15], crop: [10, 10, 200, 150]}")
    assert "\n    elements:" in text
    layout.write_text(text.replace("\n    elements:", "\n    elements:" + extra), "utf-8")  # on every entry
    return game


def _mutate_bytes(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    how = rng.choice(["flip", "flip", "truncate", "insert", "header", "zero-run", "repeat"])
    data = bytearray(data)
    if how == "flip":
        for _ in range(rng.choice([1, 3, 20])):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif how == "truncate":
        data = data[:rng.randrange(len(data))]
    elif how == "insert":
        at = rng.randrange(len(data))
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.choice([1, 16, 300])))
    elif how == "header":  # the first 40 bytes hold sizes, depths, offsets
        for _ in range(rng.choice([1, 2, 4])):
            data[rng.randrange(min(40, len(data)))] = rng.choice([0, 1, 0x7F, 0xFF])
    elif how == "zero-run":
        at = rng.randrange(len(data))
        data[at:at + rng.choice([8, 64, 4096])] = b"\x00" * len(data[at:at + 4096])
    else:
        at = rng.randrange(len(data))
        data[at:at] = data[at:at + 512] * rng.choice([2, 50])
    return bytes(data), how


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the time bound per case needs SIGALRM")
def test_fuzzed_images_get_only_clean_errors(tmp_path, monkeypatch):
    """Mutated PNG, JPEG, TIFF and WebP bytes: validate and the build end cleanly, and a build
    that fails names a file and line (the card's art line or the layout element's)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    rng = random.Random(IMAGE_SEED)
    runner = CliRunner()
    pristine = tmp_path / "pristine"
    _image_base(pristine)
    out = tmp_path / "out"
    first = runner.invoke(cli, ["--content", str(pristine), *BUILD, "--out", str(out)])
    assert first.exit_code == 0, first.output
    totals: Counter = Counter()
    bad: list[str] = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for number in range(IMAGE_CASES):
            content = tmp_path / f"image-case-{number}"
            game = _image_base(content)
            target = rng.choice(IMAGE_FILES)
            path = game / target
            data, how = _mutate_bytes(rng, path.read_bytes())
            path.write_bytes(data)
            before = _tree(out)
            step, outcome = _validate_then_build(runner, content, BUILD, out, before, r"\.yaml:\d+",
                                                 validate_located=True)
            totals[(target, step, outcome if outcome in ("ok", "clean error") else "BAD")] += 1
            if outcome not in ("ok", "clean error"):
                bad.append(f"case {number} ({target}, {how}, {step}): {outcome}")
            shutil.rmtree(content)
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"\nimage fuzz: {IMAGE_CASES} cases (seed {IMAGE_SEED})")
    for (target, step, outcome), count in sorted(totals.items()):
        print(f"  {target:16} {step:9} {outcome:12} {count:4}")
    assert not bad, f"{len(bad)} case(s) without a clean end:\n\n" + "\n\n".join(bad[:10])
    errors = sum(count for (_, _, outcome), count in totals.items() if outcome == "clean error")
    assert errors >= IMAGE_CASES // 4, "hardly any mutation was refused: the fuzz proves little"
    assert any(step == "build" for _, step, _ in totals), "no mutated image validated: the build went untried"


# --- issue 28: hostile classes, the content half ------------------------------------------------------
# Each class makes a case from the mini game: a symlink at some level of the content or output folder
# (out of it, or staying inside), YAML scalars that read as dates and numbers, control characters,
# generator and symbol fan-out, PO multi-line msgctxt and charsets, SVG encodings and numbers.  Every
# case must end cleanly in time; a symlink out of the content folder must never let validate pass, one
# staying inside must; a symlink in the output folder must leave the folder it leads to untouched.

HOSTILE_SEED = 28
HOSTILE_CASES_PER_CLASS = 16
HOSTILE_SECONDS = 20
#: what is linked (relative to the game folder; "@game" is the game folder, "common/..." the content's)
LINKED = ["@game", "layout.yaml", "game.yaml", "cards.yaml", "text", "text/ru.yaml", "art", "art/two.svg",
          "locale", "locale/en.po", "common", "common/text", "common/text/en.yaml", "common/locale",
          "common/locale/de.po"]
OUT_LINKED = ["mini", "mini/ru", "mini/ru/png-tgc"]
SCALARS = ["2001-02-30", "2001-13-01", "2001-02-28 25:00:00", "0x_", "0b_", "-0x_", "+0b_", "0x", "0b",
           "1_000", "0o17", "0_", "1:30", "190:20:30", ".inf", "-.nan", "1e400", "2001-01-01", "2001-01-01t01:01:01z",
           "~", "null", "yes", "off", "2001-1-1", "0777", "0x1F", "1__0"]
CONTROLS = ["\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1b[2J", "\x7f", "\x85", "\x9b", "\u2028",
            "\u202e", "\ufeff", "\ufffe", "\r"]
CHARSETS = ["UTF-8", "utf8", "ISO-8859-1", "latin-1", "cp1252", "KOI8-R", "ASCII", "x-nosuch", "CHARSET", "utf-16"]
ENCODINGS = ["utf-8", "latin-1", "koi8-r", "utf-16", "cp1252"]
SVG_ENCODINGS = ["UTF-8", "utf-16", "ISO-8859-1", "x-nosuch", "rot13", "base64", "idna", "utf-7", "UTF-32", "ebcdic",
                 "cp500", "", "us-ascii"]
SVG_NUMBERS = ["1e-300", "1e300", "1e-7", "1e-6", "-0", "0", "nan", "inf", "-1", "1e6", "1e7", "1e-320", "0.5"]


def _hostile_symlink(rng: random.Random, game: Path, tmp_path: Path, out: Path) -> tuple[str, dict]:
    """A symlink somewhere: returns what it did and what the case expects."""
    content = game.parent
    if rng.random() < 0.25:  # the output side: a folder of the output a symlink to a folder of the user's
        rel = rng.choice(OUT_LINKED)
        foreign = tmp_path / f"foreign-{rng.randrange(10 ** 9)}"
        foreign.mkdir()
        (foreign / "thesis.pdf").write_bytes(b"%PDF-1.4 not cardgen's\n")
        where = out / rel
        if where.is_dir() and not where.is_symlink():
            shutil.rmtree(where)
        where.parent.mkdir(parents=True, exist_ok=True)
        where.symlink_to(foreign)
        return f"out/{rel} -> foreign", {"foreign": foreign, "restore": where}
    rel = rng.choice(LINKED)
    (content / "common" / "text").mkdir(parents=True, exist_ok=True)
    (content / "common" / "text" / "en.yaml").write_text(
        (ROOT / "cardgen" / "common" / "text" / "en.yaml").read_text("utf-8"), "utf-8")
    (content / "common" / "locale").mkdir(parents=True, exist_ok=True)
    (content / "common" / "locale" / "de.po").write_text(PO.split("\n\n")[0] + "\n", "utf-8")
    path = game if rel == "@game" else (content / rel if rel.startswith("common") else game / rel)
    outward = rng.random() < 0.6
    if outward:
        away = tmp_path / f"away-{rng.randrange(10 ** 9)}" / path.name
    else:  # a second name inside the same folder (a hidden one, which no glob reads): no way out
        away = path.parent / ".real" / path.name
    away.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(path, away)
    path.symlink_to(away)
    return f"{rel} -> {'outside' if outward else 'inside'}", {"outward": outward}


def _hostile_scalar(rng: random.Random, game: Path) -> str:
    target = rng.choice(["game.yaml", "cards.yaml", "text/ru.yaml", "layout.yaml"])
    path = game / target
    lines = path.read_text("utf-8").splitlines(keepends=True)
    scalar = rng.choice(SCALARS)
    i = rng.randrange(len(lines))
    indent = re.match(r"[ -]*", lines[i]).group(0).replace("-", " ")
    line = f"{indent}{scalar}: 1\n" if rng.random() < 0.5 else f"{indent}odd_value: {scalar}\n"
    if rng.random() < 0.3:  # or in place of a value that is there
        numbers = list(re.finditer(r"(?<=: )[\w#.\"-]+", lines[i]))
        if numbers:
            m = rng.choice(numbers)
            line = lines[i][:m.start()] + scalar + lines[i][m.end():]
            del lines[i]
    lines.insert(i, line)
    path.write_text("".join(lines), "utf-8")
    return f"{target}: {scalar!r}"


def _hostile_control(rng: random.Random, game: Path) -> str:
    target = rng.choice(["game.yaml", "cards.yaml", "text/ru.yaml", "layout.yaml", "locale/en.po", "art/two.svg"])
    path = game / target
    text = path.read_text("utf-8")
    at = rng.randrange(len(text))
    character = rng.choice(CONTROLS)
    path.write_text(text[:at] + character + text[at:], "utf-8")
    return f"{target}: {character!r} at {at}"


def _hostile_fan_out(rng: random.Random, game: Path) -> str:
    if rng.random() < 0.5:
        size, copies = rng.choice([10, 300, 3000, 9900]), rng.choice([1, 2, 10, 100, 1000])
        if size == 9900:  # 9,900 designs are allowed and take their time to check: only over the budget here
            copies = max(copies, 10)
        cards = game / "cards.yaml"
        cards.write_text(cards.read_text("utf-8") + (
            "  - generate:\n"
            f"      n: {{from: 1, to: {size}}}\n"
            "    card:\n"
            '      id: "gen-{n}"\n'
            "      group: numbers\n"
            f"      copies: {copies}\n"
            "      back: main\n"
            "      attrs: {value: 1}\n"), "utf-8")
        meta = game / "game.yaml"  # the composition adds up: only the budget can refuse the deck
        text = meta.read_text("utf-8").replace("total_cards: 6", f"total_cards: {6 + size * copies}")
        meta.write_text(text.replace("    cards: 4\n", f"    cards: {4 + size * copies}\n", 1), "utf-8")
        return f"generator {size} x {copies}"
    levels, width = rng.choice([2, 4, 6, 9, 12]), rng.choice([1, 3, 10, 40])
    lines = ["symbols:"]
    for i in range(levels):
        inner = ", ".join(f"{{use: f{i + 1}, box: [0, 0, 10, 10]}}" for _ in range(width)) if i < levels - 1 \
            else '{rect: [1, 1, 8, 8], fill: "#000000"}'
        lines.append(f"  f{i}: {{viewbox: [10, 10], shapes: [{inner}]}}")
    layout = game / "layout.yaml"
    text = layout.read_text("utf-8")
    assert "\n    elements:" in text
    text = text.replace("\n    elements:", "\n    elements:\n      - {type: draw, draw: f0, box: [2, 2, 10, 10]}", 1)
    layout.write_text(text + "\n".join(lines) + "\n", "utf-8")
    return f"symbols {levels} deep, {width} wide"


def _hostile_po(rng: random.Random, game: Path) -> str:
    path = game / "locale" / "en.po"
    text = PO
    how = rng.choice(["split", "duplicate-split", "charset", "charset", "split-escape"])
    if how in ("split", "duplicate-split", "split-escape"):
        key = rng.choice(["card.one.name", "card.swap.name", "game.title"])
        cut = rng.randrange(len(key) + 1)
        split = f'msgctxt "{key[:cut]}"\n"{key[cut:]}"' if how != "split-escape" else f'msgctxt ""\n"{key[:cut]}\\t{key[cut:]}"'
        if how == "duplicate-split":
            text += f'\n{split}\nmsgid "x"\nmsgstr "y"\n'
        else:
            text = text.replace(f'msgctxt "{key}"', split)
        path.write_text(text, "utf-8")
        return f"{how} {key}"
    charset, encoding = rng.choice(CHARSETS), rng.choice(ENCODINGS)
    text = text.replace("charset=UTF-8", f"charset={charset}").replace('msgstr "One"', 'msgstr "Überjoker"')
    try:
        path.write_bytes(text.encode(encoding))
    except UnicodeEncodeError:
        path.write_bytes(text.encode(encoding, "replace"))
    return f"charset {charset} in {encoding}"


def _hostile_svg(rng: random.Random, game: Path) -> str:
    path = game / "art" / "two.svg"
    if rng.random() < 0.5:
        encoding = rng.choice(SVG_ENCODINGS)
        declaration = f'<?xml version="1.0" encoding="{encoding}"?>\n'
        body = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5" fill="#aa0000"/></svg>\n'
        data = (declaration + body).encode("utf-8")
        if rng.random() < 0.3 and encoding.lower() in ("utf-16", "utf-32"):
            data = (declaration + body).encode(encoding.lower())
        path.write_bytes(data)
        return f"SVG encoding {encoding!r}"
    attribute = rng.choice(["viewBox", "size", "rect", "transform"])
    a, b = rng.choice(SVG_NUMBERS), rng.choice(SVG_NUMBERS)
    root = {"viewBox": f'viewBox="0 0 {a} {b}"', "size": f'width="{a}" height="{b}"'}.get(attribute, 'viewBox="0 0 10 10"')
    shape = {"rect": f'<rect x="{a}" y="0" width="{b}" height="5"/>',
             "transform": f'<g transform="scale({a}) translate({b} 0)"><rect width="5" height="5"/></g>'
             }.get(attribute, '<rect width="5" height="5"/>')
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" {root}>{shape}</svg>\n', "utf-8")
    return f"SVG {attribute} {a} {b}"


def _tree_no_follow(folder: Path) -> dict[str, bytes]:
    found = {}
    for top, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = Path(top) / name
            if path.is_symlink():
                found[str(path.relative_to(folder))] = b"-> " + os.readlink(path).encode()
            elif path.is_file():
                found[str(path.relative_to(folder))] = path.read_bytes()
    return found


HOSTILE_CLASSES = ["symlink", "scalar", "control", "fan-out", "po", "svg"]


@pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="the time bound per case needs SIGALRM")
def test_fuzzed_hostile_classes_get_only_clean_errors(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    rng = random.Random(HOSTILE_SEED)
    runner = CliRunner()
    pristine = tmp_path / "pristine"
    _base(pristine)
    totals: Counter = Counter()
    bad: list[str] = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for number in range(HOSTILE_CASES_PER_CLASS * len(HOSTILE_CLASSES)):
            kind = HOSTILE_CLASSES[number % len(HOSTILE_CLASSES)]
            content = tmp_path / f"hostile-{number}"
            game = _base(content)
            out = tmp_path / f"hostile-out-{number}"
            if kind == "symlink":
                first = runner.invoke(cli, ["--content", str(pristine), *BUILD, "--out", str(out)])
                assert first.exit_code == 0, first.output
            expect: dict = {}
            if kind == "symlink":
                what, expect = _hostile_symlink(rng, game, tmp_path, out)
            else:
                what = {"scalar": _hostile_scalar, "control": _hostile_control, "fan-out": _hostile_fan_out,
                        "po": _hostile_po, "svg": _hostile_svg}[kind](rng, game)
            foreign = expect.get("foreign")
            outside_before = _tree_no_follow(foreign) if foreign else None
            before = _tree_no_follow(out) if out.exists() else {}
            started = time.perf_counter()
            step = "validate"
            signal.alarm(HOSTILE_SECONDS)
            try:
                checked = runner.invoke(cli, ["--content", str(content), "validate"])
                outcome = _outcome(checked)
                # fan-out within budget is real work (thousands of cards or shapes): validate only
                if outcome == "ok" and kind != "fan-out":
                    step = "build"
                    built = runner.invoke(cli, ["--content", str(content), *BUILD, "--out", str(out)])
                    outcome = _outcome(built)
                    if outcome != "ok" and _tree_no_follow(out) != before:
                        outcome = "failed build changed the output folder"
            except CaseTimeout:
                outcome = f"no end within {HOSTILE_SECONDS} s"
            finally:
                signal.alarm(0)
            if expect.get("outward") is True and step == "build":
                outcome = "a symlink out of the content folder was read (validate passed)"
            if expect.get("outward") is False and step == "validate" and outcome == "clean error":
                outcome = f"a symlink inside the content folder was refused: {checked.output.strip()[:200]}"
            if foreign is not None and _tree_no_follow(foreign) != outside_before:
                outcome = "the folder a symlink of the output leads to was changed"
            totals[(kind, step, outcome if outcome in ("ok", "clean error") else "BAD")] += 1
            if outcome not in ("ok", "clean error"):
                bad.append(f"case {number} ({kind}: {what}, {step}, {time.perf_counter() - started:.1f} s): {outcome}")
            shutil.rmtree(content, ignore_errors=True)
    finally:
        signal.signal(signal.SIGALRM, previous)
    print(f"\nhostile fuzz: {HOSTILE_CASES_PER_CLASS} cases per class (seed {HOSTILE_SEED})")
    for (kind, step, outcome), count in sorted(totals.items()):
        print(f"  {kind:8} {step:9} {outcome:12} {count:4}")
    assert not bad, f"{len(bad)} case(s) without a clean end:\n\n" + "\n\n".join(bad[:10])
    for kind in HOSTILE_CLASSES:  # each class both refused something and let something through
        assert totals[(kind, "validate", "clean error")] + totals[(kind, "build", "clean error")] > 0, kind
