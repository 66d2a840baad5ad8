"""The build: every game's print files, rulebooks and digital-table sheets into one output folder.

* :mod:`cardgen.build.run` -- plans the jobs of every producer, runs them on every core,
  commits the files and the manifest all at once (a failed build leaves the folder as it was);
* :mod:`cardgen.build.jobs` -- what a producer works with: options, jobs, artefacts, writing one;
* :mod:`cardgen.build.cards`, :mod:`~cardgen.build.rulebooks`, :mod:`~cardgen.build.tabletop` --
  the producers, which name and write the files the rooms below them draw;
* :mod:`cardgen.build.cache` -- which jobs can be skipped because their inputs are unchanged;
* :mod:`cardgen.build.index_page` -- ``index.html``, the page that shows the manifest.
"""

from cardgen.build.jobs import KINDS, Artefact, BuildOptions, Job, load_game_cached, write_artefact
from cardgen.build.run import (MANIFEST, PRODUCERS, BuildResult, Producer, build, fallback_summary, glyph_summary,
                               plan_jobs, request_key, shrunk_summary, smallest_text_summary)

__all__ = ["KINDS", "MANIFEST", "PRODUCERS", "Artefact", "BuildOptions", "BuildResult", "Job", "Producer", "build",
           "fallback_summary", "glyph_summary", "load_game_cached", "plan_jobs", "request_key", "shrunk_summary",
           "smallest_text_summary", "write_artefact"]
