"""cardgen: print-production toolchain for card games.

The package is laid out like its pipeline:

* ``cardgen.content``    - read and validate the YAML sources;
* ``cardgen.engines``    - one reference engine per game;
* ``cardgen.simulation`` - seeded self-play, invariants, statistics;
* ``cardgen.cards``     - card faces, print-and-play sheets, print-shop files;
* ``cardgen.rulebook``   - rulebooks from templates;
* ``cardgen.i18n``       - message catalogues and PO files;
* ``cardgen.cli``        - the ``cardgen`` command, the only part that prints.
"""

from importlib import metadata as _metadata

try:  # one version, pyproject.toml's, as installed ('cardgen --version' reads the same)
    __version__ = _metadata.version("cardgen")
except _metadata.PackageNotFoundError:  # run from a checkout that was never installed
    __version__ = "0+unknown"
