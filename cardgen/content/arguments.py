"""Named arguments in a text, such as ``{total}`` in "Cards in the box: {total}": the code that
prints the text fills them in.  The syntax lives here, at the bottom layer, for the content
checks and for :mod:`cardgen.i18n.refs`, which fills them."""

from __future__ import annotations

import re

#: A named argument: lower-case letters and underscores in braces.
ARGUMENT = re.compile(r"\{(?P<name>[a-z_]+)\}")


def arguments(text: str) -> set[str]:
    """The names of the arguments ``text`` asks for."""
    return {m["name"] for m in ARGUMENT.finditer(text)}


def is_argument_name(name: str) -> bool:
    return ARGUMENT.fullmatch(f"{{{name}}}") is not None
