"""cardgen: print-production toolchain for card games.

The package is laid out like its pipeline:

* ``cardgen.content``    - read and validate the YAML sources;
* ``cardgen.engines``    - one reference engine per game;
* ``cardgen.simulation`` - seeded self-play, invariants, statistics;
* ``cardgen.render``     - card faces, print-and-play sheets, print-shop files;
* ``cardgen.rulebook``   - rulebooks from templates;
* ``cardgen.i18n``       - message catalogues and PO files;
* ``cardgen.cli``        - the ``cardgen`` command, the only part that prints.
"""

__version__ = "0.1.0"
