"""docs/own-game.md, run: every command in order, every file change made as the guide says.

The guide marks what a reader does by hand with HTML comments this test carries out:

* ``<!-- guide: replace PATH :: OLD => NEW -->``  replace every OLD in PATH (``\\n`` is a new line);
* ``<!-- guide: shows PATH -->``  the lines of the next code block are lines of PATH, in order;
* ``<!-- guide: fails -->``  the next block's commands exit 1 with an error (the others exit 0).

Each line of a ``sh`` block that starts with ``cardgen`` is run in a fresh folder.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import cli

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "own-game.md"
DIRECTIVE = re.compile(r"<!-- guide: (?P<verb>replace|shows|fails)\s*(?P<rest>.*?)\s*-->")
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


def _in_order(lines: list[str], file_lines: list[str]) -> bool:
    remaining = iter(file_lines)
    return all(any(line == other for other in remaining) for line in lines)
