"""Fitting text into a box with the real font metrics.

Text is wrapped at spaces (and at explicit newlines) and shrunk in steps of
0.25 pt from the declared size down to the declared minimum; if it still does
not fit, :class:`~cardgen.errors.TextOverflowError` names the card, field,
language, by how many millimetres it overflows and, in characters, how long it is against
what the box holds (:func:`chars_that_fit`).  A font is a chain of faces
(:mod:`cardgen.cards.fonts`): text is measured in the runs it is drawn in, each
in the first face that has its characters.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from cardgen.errors import Locator, RenderError, TextOverflowError
from cardgen.cards.fonts import metrics
from cardgen.cards.fonts import text_width
from cardgen.cards.ranges import ELEMENT_RANGES, out_of_range

PT_PER_MM = 72.0 / 25.4
STEP = 0.25


@dataclass(frozen=True)
class FittedText:
    lines: tuple[str, ...]
    size: float
    leading: float
    font: str

    def height(self) -> float:
        ascent, descent, _ = metrics(self.font)
        return (len(self.lines) - 1) * self.leading + (ascent - descent) * self.size


def wrap(text: str, font: str, size: float, width: float) -> tuple[list[str], float]:
    """Greedy word wrap; returns the lines and the widest line's width."""
    lines: list[str] = []
    widest = 0.0
    space = text_width(" ", font, size)
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        current = words[0]
        current_w = text_width(current, font, size)
        for word in words[1:]:
            w = text_width(word, font, size)
            if current_w + space + w <= width:
                current += " " + word
                current_w += space + w
            else:
                lines.append(current)
                widest = max(widest, current_w)
                current, current_w = word, w
        lines.append(current)
        widest = max(widest, current_w)
    return lines, widest


@lru_cache(maxsize=65536)
def _fit(text: str, font: str, width: float, height: float, size: float, min_size: float,
         leading: float, max_lines: int) -> tuple[FittedText | None, float, float, float]:
    """Fitted text, or None and the overflow (width, height) in points at min_size."""
    ascent, descent, _ = metrics(font)
    s = size
    while True:
        if max_lines == 1:
            lines, widest = [text.replace("\n", " ")], text_width(text.replace("\n", " "), font, s)
        else:
            lines, widest = wrap(text, font, s, width)
        total = (len(lines) - 1) * leading * s + (ascent - descent) * s
        too_many = max_lines > 0 and len(lines) > max_lines
        if widest <= width + 1e-6 and total <= height + 1e-6 and not too_many:
            return FittedText(tuple(lines), s, leading * s, font), 0.0, 0.0, s
        if s - STEP < min_size - 1e-9:
            over_w = max(0.0, widest - width)
            over_h = max(0.0, total - height)
            if too_many and over_h == 0.0:
                over_h = (len(lines) - max_lines) * leading * s
            return None, over_w, over_h, s
        s = round(s - STEP, 4)


#: The longest text :func:`chars_that_fit` counts to (a box holding more is "at least" this many).
MAX_COUNT = 4096


def chars_that_fit(sample: str, font: str, width: float, height: float, size: float, leading: float = 1.18,
                   max_lines: int = 0) -> int:
    """How many characters of text like ``sample`` fit width x height points at ``size`` pt, without
    shrinking: ``sample`` repeated (its words, spaces and letters) and cut at the count.  The count
    is an estimate for another text of the same language and kind (wider letters fit fewer)."""
    words = " ".join(sample.split()) or "x"
    repeated = (words + " ") * (MAX_COUNT // (len(words) + 1) + 1)

    def fits(count: int) -> bool:
        text = repeated[:count].rstrip()
        return _fit(text, font, round(width, 3), round(height, 3), float(size), float(size), float(leading),
                    int(max_lines))[0] is not None

    low, high = 0, 1  # fits(low); grow high until it does not fit, then halve the gap
    while high <= MAX_COUNT and fits(high):
        low, high = high, high * 2
    if high > MAX_COUNT:
        return MAX_COUNT
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def fit_text(text: str, font: str, width: float, height: float, *, size: float, min_size: float,
             leading: float = 1.18, max_lines: int = 0, locator: Locator | None = None) -> FittedText:
    """Fit ``text`` into width x height points; raise TextOverflowError if it cannot.

    Sizes outside the layout's range are refused (RenderError): shrinking from 10^9 pt
    in 0.25 pt steps would never end.
    """
    low, high = ELEMENT_RANGES["size"]
    if out_of_range(size, low, high) or out_of_range(min_size, low, high) or min_size > size \
            or out_of_range(leading, *ELEMENT_RANGES["leading"]):
        raise RenderError(f"text size {size} pt, minimum {min_size} pt and leading {leading} must be numbers with "
                          f"{low:g} <= minimum <= size <= {high:g} and leading from "
                          f"{ELEMENT_RANGES['leading'][0]:g} to {ELEMENT_RANGES['leading'][1]:g}", locator)
    fitted, over_w, over_h, s = _fit(text, font, round(width, 3), round(height, 3), float(size),
                                     float(min_size), float(leading), int(max_lines))
    if fitted is not None:
        return fitted
    parts = []
    if over_w > 0:
        parts.append(f"{over_w / PT_PER_MM:.1f} mm too wide")
    if over_h > 0:
        parts.append(f"{over_h / PT_PER_MM:.1f} mm too tall")
    holds = chars_that_fit(text, font, width, height, min_size, leading, max_lines)
    raise TextOverflowError(
        f"text does not fit its {width / PT_PER_MM:.1f} x {height / PT_PER_MM:.1f} mm box even at the "
        f"minimum size {min_size:g} pt: {' and '.join(parts)}; {len(text)} characters, the box holds about "
        f"{holds} at {min_size:g} pt ({text[:60]!r})",
        locator,
    )
