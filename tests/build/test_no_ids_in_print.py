"""No card id reaches print: the text of every PDF of every bundled game and language.

One build of the whole content folder (A4 only, to keep it short: the Letter files hold the
same text) into a temporary folder serves every test of this module.

The rule for what counts as a card id in print: an id that contains a hyphen or a digit
(``number-3``, ``geo-france``, ``red-1``) found as a whole token, that is not touching a
letter, digit, underscore or hyphen on either side, in the text of any page or the document
information of any PDF. Ids of one plain word (himmel's ``arrow`` and ``marker``) are left
out: they are ordinary words too, and the English rulebook rightly prints "arrow". A line
broken at a hyphen is joined first, both keeping the hyphen (``number-`` / ``1``) and
dropping it (a word the layout hyphenated, ``num-`` / ``ber-1``), and both readings are searched.

Text comes from PDFium (pypdfium2, a dependency of cardgen): pypdf took eight minutes for the
same files, PDFium about ten seconds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.build import BuildOptions, build
from cardgen.content import load_games

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
#: a hyphen at a line end (PDFium reports one it takes for a soft break as U+0002), the break after it
_HYPHEN_BREAK = re.compile(r"[-\x02]\s*\n\s*")


def _joined(text: str) -> str:
    """``text`` with the lines broken at a hyphen joined, once keeping and once dropping it."""
    return _HYPHEN_BREAK.sub("-", text) + "\n" + _HYPHEN_BREAK.sub("", text)


def _id_like(card_id: str) -> bool:
    return bool(re.search(r"[-0-9]", card_id))


@pytest.fixture(scope="module")
def games():
    return load_games(CONTENT)


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[str, str]:
    """Relative path of each PDF of one build -> its text (pages and document information)."""
    out = tmp_path_factory.mktemp("print")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "0")
        build(BuildOptions(content_dir=CONTENT, out_dir=out, papers=("a4",)))
    texts = {}
    for path in sorted(out.rglob("*.pdf")):
        document = pdfium.PdfDocument(path)
        try:
            pages = "\n".join(document[i].get_textpage().get_text_bounded() for i in range(len(document)))
            info = "\n".join(str(value) for value in document.get_metadata_dict().values())
        finally:
            document.close()
        texts[path.relative_to(out).as_posix()] = _joined(pages + "\n" + info)
    return texts


def test_the_build_made_every_kind_of_pdf_for_every_game_and_language(games, printed):
    for game in games:
        for language in game.meta.languages:
            names = [name for name in printed if name.startswith(f"{game.id}/{language}/")]
            kinds = {kind for kind in ("pnp-a4", "shop", "rules-a4", "rules-a5") if any(kind in n for n in names)}
            assert kinds == {"pnp-a4", "shop", "rules-a4", "rules-a5"}, (game.id, language, names)
            assert all(printed[name].strip() for name in names)


def test_no_card_id_appears_in_any_pdf(games, printed):
    ids = sorted({card.id for game in games for card in game.cards if _id_like(card.id)})
    assert len(ids) > 200  # the rule leaves out only a few one-word ids
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    found = {name: sorted(set(pattern.findall(text))) for name, text in printed.items()}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_rule_finds_an_id_where_one_is_printed():
    # the check above would pass on empty text; the pattern must catch the way ids printed
    pattern = re.compile(r"(?<![\w-])(number-1)(?![\w-])")
    assert pattern.findall(_joined("Karte number-\n1 unten"))
    assert pattern.findall(_joined("Karte num\x02\r\nber-1 unten"))
    assert not pattern.findall("number-10 renumber-1 number-1-a")
