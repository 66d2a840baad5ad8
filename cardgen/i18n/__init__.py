"""Message catalogues, PO files for translators, and text lookup with fallback.

* :mod:`cardgen.i18n.catalog` - the source messages of a game (or of the
  common rulebook strings) with where each appears and its length budget;
* :mod:`cardgen.i18n.po`      - POT/PO writing and a merge by key that marks
  changed sources fuzzy;
* :mod:`cardgen.i18n.refs`    - ``{card:ID|case}`` references and inflected forms;
* :mod:`cardgen.i18n.texts`   - :class:`Texts`: lookup in one language with
  fallback to the source and warnings;
* :mod:`cardgen.i18n.status`  - completeness figures and :func:`check_strict`;
* :mod:`cardgen.i18n.fit`     - whether a card text fits its box.
"""

from cardgen.i18n.catalog import COMMON, Domain, SourceMessage, check_language, domains
from cardgen.i18n.status import StatusRow, build_languages, check_strict, status
from cardgen.i18n.texts import Texts, card_text

__all__ = [
    "COMMON",
    "Domain",
    "SourceMessage",
    "StatusRow",
    "Texts",
    "build_languages",
    "card_text",
    "check_language",
    "check_strict",
    "domains",
    "status",
]
