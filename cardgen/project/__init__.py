"""A user's project as a whole: everything ``cardgen validate`` checks short of playing
(:mod:`~cardgen.project.validation`), starting a game (:mod:`~cardgen.project.newgame`), copying a
bundled example (:mod:`~cardgen.project.examples`), rewriting content of an earlier format
(:mod:`~cardgen.project.upgrade`) and checking the installation (:mod:`~cardgen.project.doctor`)."""
