"""docs/own-game.md, run: every command in order, every file change made as the guide says.

The guide marks what a reader does by hand with HTML comments this test carries out:

* ``<!-- guide: replace PATH :: OLD => NEW -->``  replace every OLD in PATH (``\\n`` is a new line);
* ``<!-- guide: shows PATH -->``  the lines of the next code block are lines of PATH, in order;
* ``<!-- guide: fails -->``  the next block's commands exit 1 with an error (the others exit 0);
* ``<!-- guide: file PATH [WxH] -->``  the reader puts a file of theirs at PATH: the test makes a
  stand-in (a picture of WxH pixels drawn by Pillow, or a TrueType face made by tests/fontmaker.py).

Each line of a ``sh`` block that starts with ``cardgen`` is run in a fresh folder.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import cli

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "own-game.md"
DIRECTIVE = re.compile(r"<!-- guide: (?P<verb>replace|shows|fails|file)\s*(?P<rest>.*?)\s*-->")
FENCE = re.compile(r"^```(?P<lang>\w*)\n(?P<body>.*?)^```$", re.S | re.M)


def steps(text: str):
    """The guide's directives and code blocks, in reading order."""
    found = [(m.start(), "directive", m) for m in DIRECTIVE.finditer(text)]
    found += [(m.start(), "block", m) for m in FENCE.finditer(text)]
    return [(kind, match) for _, kind, match in sorted(found, key=lambda item: item[0])]


def test_the_guide_runs_from_an_empty_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    expect_failure = False
    shows: str | None = None
    ran = []
    for kind, match in steps(GUIDE.read_text("utf-8")):
        if kind == "directive":
            verb, rest = match["verb"], match["rest"]
            if verb == "fails":
                expect_failure = True
            elif verb == "shows":
                shows = rest
            elif verb == "file":
                _stand_in(*rest.split())
            else:
                path, change = rest.split(" :: ", 1)
                old, new = (part.replace("\\n", "\n") for part in change.split(" => ", 1))
                text = Path(path).read_text("utf-8")
                assert old in text, f"guide: {old!r} not in {path}"
                Path(path).write_text(text.replace(old, new), "utf-8")
            continue
        body = match["body"]
        if shows is not None:
            assert _in_order(body.splitlines(), Path(shows).read_text("utf-8").splitlines()), (
                f"guide shows lines that are not in {shows}:\n{body}")
            shows = None
        if match["lang"] != "sh":
            continue
        for line in body.splitlines():
            if not line.startswith("cardgen "):
                continue
            result = runner.invoke(cli, shlex.split(line)[1:])
            ran.append(line)
            if expect_failure:
                assert result.exit_code == 1, f"{line}: expected to fail\n{result.output}"
                assert "error: " in result.output, result.output
            else:
                assert result.exit_code == 0, f"{line}\n{result.output}"
        expect_failure = False
    assert len(ran) >= 10, ran
    assert Path("out/manifest.json").is_file()
    assert Path("out/lights/de/lights-de-rules-a4.pdf").is_file()
    # section 4: the picture and the typeface reach the print files
    assert Path("wild.png").is_file()
    import pikepdf

    for name in ("out/lights/en/lights-en-pnp-a4.pdf", "out/lights/en/lights-en-rules-a4.pdf"):
        with pikepdf.open(name) as pdf:
            fonts = {str(font.get("/BaseFont")) for page in pdf.pages
                     for font in (page.Resources.get("/Font") or {}).values()}
            forms = [xobject for page in pdf.pages for xobject in (page.Resources.get("/XObject") or {}).values()]
            if "pnp" in name:  # card faces are forms: look inside them too
                for form in forms:
                    resources = form.get("/Resources") or {}
                    fonts |= {str(font.get("/BaseFont")) for font in (resources.get("/Font") or {}).values()}
        assert any("lantern" in font.lower() for font in fonts), (name, fonts)


def _stand_in(path: str, size: str = "") -> None:
    """What the reader brings: a picture (a gradient with a disc, ``size`` pixels) or a font face."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix == ".ttf":
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from fontmaker import build_font

        family, style = target.stem.split("-")
        target.write_bytes(build_font(family, style))
        return
    from PIL import Image, ImageDraw

    width, height = (int(n) for n in size.split("x"))
    image = Image.linear_gradient("L").resize((width, height)).convert("RGB")
    ImageDraw.Draw(image).ellipse([width // 4, height // 4, width * 3 // 4, height * 3 // 4], fill=(230, 160, 40))
    image.save(target)


def _in_order(lines: list[str], file_lines: list[str]) -> bool:
    remaining = iter(file_lines)
    return all(any(line == other for other in remaining) for line in lines)
