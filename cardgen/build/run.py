"""The build: run every artefact producer for the chosen games and languages, write the manifest.

A *producer* turns games into files.  It is registered in :data:`PRODUCERS`
by one line, ``name -> Producer(plan)``, where ``plan(options, game, langs)``
returns :class:`~cardgen.build.jobs.Job` objects; each job names a module-level function
``func(options, **args) -> list[Artefact]`` that runs in a worker process and
writes its files with :func:`~cardgen.build.jobs.write_artefact`.  Jobs are independent, so they
run in parallel on every core.  ``<out>/manifest.json`` lists every file with
its game, kind, language, paper, path, pages, card faces and SHA-256; ``<out>/index.html``
(:mod:`cardgen.build.index_page`) shows it as a page and is committed with it, not listed in it.

Builds are all or nothing (:class:`cardgen.fileio.StagedUpdate` has the whole
design).  Jobs write into a staging folder, the hidden sibling
``<parent>/.<out-name>.cardgen-staging-<random>`` of the output folder
(``BuildOptions.staging_dir``; artefact paths stay relative to the output
folder).  Only when every job succeeded does the commit move the staged files
into place, delete the stale files (below) and put the manifest in place last,
after writing a journal of those steps that the next build rolls forward should
the process die half-way.  Anything else -- a job's error, any BaseException a
library raises in a job (reported as a :class:`~cardgen.errors.RenderError` with
the job's label), a worker process dying, KeyboardInterrupt in the parent --
removes the staging folder and leaves the output folder as it was; so does
SIGKILL before the commit, whose staging folder the next build removes (workers
notice that their build process died and exit).  Failures before any job runs
(planning, ``--strict``) do not create a staging folder at all.  The manifest and
the page go in only when they changed: a build with nothing to do writes nothing.

Builds add, they don't take away.  Each manifest entry names the *request* that
made it (:func:`request_key`: producer, job, paper, ink, printer, tabletop format and
the options that change file names), so a plain build, then ``--printer``,
``--tabletop`` and ``--ink`` builds into one folder leave all their files there and
in the manifest.  An earlier file is *stale*, and deleted, only when it is listed,
still holds the bytes listed, and either its request ran again for its game and
language without making it (a card dropped) or its game, built now, no longer has
its language (:class:`Made`).  ``--clean`` (``BuildOptions.clean``) makes every
listed file this build did not make stale.  A file the manifest does not list is
never deleted, nor one changed since it was written (it leaves the manifest and the
build says so); a game this build does not load keeps its files (it may come from
another content folder).

Rebuilding with the same inputs gives byte-identical files (``SOURCE_DATE_EPOCH`` sets
the PDF dates when given).  So a job whose inputs are unchanged since it wrote its
files, still in place, is skipped and its manifest entries kept (:mod:`cardgen.build.cache`).
What an incremental build asked for -- its files and their manifest entries -- is
byte for byte what a clean build of the same request writes into an empty folder;
beside them the manifest lists the other requests' files as their builds left them,
for each path the entry of the last build that wrote it.  So the same builds run
with or without ``force`` leave the same folder, and a ``--clean`` build leaves
exactly what a build into an empty folder writes (plus files cardgen did not make).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import stat
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from cardgen.build import cards, rulebooks, tabletop
from cardgen.build.jobs import Artefact, BuildOptions, Job, load_game_cached
from cardgen.errors import WRITE_ERRNOS, CardgenError, Locator, RenderError
from cardgen.fileio import CommitPlan, StagedUpdate, write_text_atomic



@dataclass(frozen=True)
class Producer:
    """A kind of output: ``plan(options, game, langs) -> [Job]``, and optionally
    ``warm_up(options, jobs)``, run once in the build process before the workers fork
    (dictionaries, reference data, imports that every job of the producer needs)."""

    plan: Callable[..., list[Job]]
    warm_up: Callable[..., None] | None = None


# name -> producer; a new kind of artefact is one line here.
PRODUCERS: dict[str, Producer] = {
    "cards": Producer(cards.plan),
    "rulebook": Producer(rulebooks.plan, rulebooks.warm_up),
    "rulebook-html": Producer(rulebooks.web_plan),  # the rulebook as a web page beside the PDFs
    "tabletop": Producer(tabletop.plan),  # only with --tabletop or --only tabletop
}

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Removal:
    """A file of the manifest that a build took out of it, and why."""

    path: str  # relative to the output folder
    reason: str


@dataclass
class BuildResult:
    artefacts: list[Artefact]
    manifest: Path
    seconds: float
    jobs: int
    workers: int
    removed: list[Removal] = field(default_factory=list)  # files deleted: stale, or not made by a --clean build
    left: list[Removal] = field(default_factory=list)  # files that would have gone, changed since written: kept
    recovered: list[str] = field(default_factory=list)  # what was cleaned up after builds that died
    unchanged: int = 0  # files of ``artefacts`` kept from an earlier build (their jobs' inputs are unchanged)
    skipped: int = 0  # jobs skipped whole; ``jobs`` counts those that ran
    ran: list[str] = field(default_factory=list)  # labels of the jobs that ran
    listed: int = 0  # files the manifest lists: ``artefacts`` and those of other requests kept from earlier builds
    #: the content's warnings (a game of an earlier content format), for the CLI to show
    warnings: list[CardgenError] = field(default_factory=list)


#: Job arguments that say which part of a request a job does (its game, languages, a slice of
#: its cards), not what is asked for: left out of the request key.
SLICE_ARGS = frozenset({"game_id", "lang", "langs", "part", "parts"})


def request_key(options: BuildOptions, job: Job) -> str:
    """What ``job`` was asked to make, the same for every game, language and slice of it:
    its producer and function, its other arguments (paper, ink, printer, formats) and the
    build options that can change which files it makes (:func:`cardgen.build.cache.request_options`),
    e.g. ``cards/pnp ink=greyscale paper=a4`` or ``cards/png fold=true printer_id=tgc``.

    Every manifest entry carries the key of the job that wrote it.  A build removes an
    earlier file of a request only when it ran (or kept) the same request for that file's
    game and language and did not make the file again: a card gone from the game, not a
    kind of file this build was not asked for.  Options that change only a file's bytes
    (:data:`cardgen.build.cache.SAME_FILES`) are no part of it: a build with another
    ``--back-offset`` replaces the files of the last.  Readable on purpose, as the reason
    the build gives for a removal."""
    from cardgen.build.cache import request_options

    fields = {key: value for key, value in job.args if key not in SLICE_ARGS}
    fields.update(request_options(options))
    name = job.func.__name__.removesuffix("_job")
    return " ".join([f"{job.producer}/{name}", *(f"{key}={_token(fields[key])}" for key in sorted(fields))])


def _token(value: Any) -> str:
    if isinstance(value, str) and re.fullmatch(r"[\w.+:/@-]+", value):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def plan_jobs(options: BuildOptions) -> list[Job]:
    from cardgen.content import discover_games

    unknown_producers = [p for p in options.producers if p not in PRODUCERS]
    if unknown_producers:
        raise RenderError(f"unknown producer(s) {', '.join(unknown_producers)}; registered: {', '.join(PRODUCERS)}")
    available = discover_games(options.content_dir)
    games = list(options.games) or available
    unknown = [g for g in games if g not in available]
    if unknown:
        raise RenderError(f"unknown game(s) {', '.join(unknown)}; available: {', '.join(available) or 'none'}",
                          Locator(file=options.content_dir))
    jobs: list[Job] = []
    for game_id in games:
        game = load_game_cached(options.content_dir, game_id)
        langs = list(options.langs) or list(game.meta.languages)
        missing = [lang for lang in langs if lang not in game.meta.languages]
        if missing:
            raise RenderError(f"game '{game_id}' has no language {', '.join(missing)} "
                              f"(its languages: {', '.join(game.meta.languages)})")
        for name, producer in PRODUCERS.items():
            if not options.producers or name in options.producers:
                jobs.extend(producer.plan(options, game, langs))
    return jobs


def check_translations(options: BuildOptions, jobs: list[Job]) -> None:
    """``--strict``: raise :class:`~cardgen.errors.I18nError` on any missing, fuzzy,
    overflowing or broken message of the games and languages these jobs build (and of
    the common strings), before a single file is written."""
    from cardgen.cards.textfit import card_fits
    from cardgen.i18n import COMMON, check_strict

    pairs = {target for job in jobs for target in job.targets}
    games = sorted({game for game, _ in pairs})
    langs = sorted({lang for _, lang in pairs if lang})
    if games:
        check_strict(options.content_dir, [COMMON, *games], langs or None, card_fits)


def smallest_text_summary(artefacts: list[Artefact]) -> list[tuple[str, str, float, str]]:
    """(game, language, smallest fitted text size in pt, the card showing it), from the print-and-play
    files' manifest entries (``smallest_pt``, ``smallest_card``)."""
    found: dict[tuple[str, str], tuple[float, str]] = {}
    for artefact in artefacts:
        extra = dict(artefact.extra)
        if extra.get("smallest_pt") is None:
            continue
        key = (artefact.game, artefact.lang or "")
        if key not in found or extra["smallest_pt"] < found[key][0]:
            found[key] = (extra["smallest_pt"], str(extra.get("smallest_card", "")))
    return [(game, lang, size, card) for (game, lang), (size, card) in sorted(found.items())]


def shrunk_summary(artefacts: list[Artefact]) -> list[str]:
    """Every card text the build's files print under the layout's body size (manifest ``shrunk``),
    once each."""
    return list(dict.fromkeys(message for a in artefacts for message in dict(a.extra).get("shrunk") or ()))


def fallback_summary(artefacts: list[Artefact]) -> list[tuple[str, str, int, list[str]]]:
    """(game, language, messages, first warnings) for every game and language whose files
    used source text in place of a missing or fuzzy translation (manifest ``fallback``)."""
    found: dict[tuple[str, str], tuple[int, list[str]]] = {}
    for artefact in artefacts:
        extra = dict(artefact.extra)
        count = extra.get("fallback") or 0
        if not count:
            continue
        key = (artefact.game, artefact.lang or "")
        if count > found.get(key, (0, []))[0]:
            found[key] = (count, list(extra.get("warnings") or []))
    return [(game, lang, count, warnings) for (game, lang), (count, warnings) in sorted(found.items())]


def _forget_cached_inputs() -> None:
    """Content and layouts may have changed since an earlier build in this process."""
    from cardgen.cards.layout import load_layout
    from cardgen.printing.printers import printers

    for cached in (load_game_cached, load_layout, printers):
        cached.cache_clear()


def _warm_up(options: BuildOptions, jobs: list[Job]) -> None:
    """Let each producer load, once in this process, what all its jobs need (dictionaries,
    reference data, imports): forked workers inherit it instead of each loading it again.

    A producer opts in with ``warm_up(options, jobs)`` (:class:`Producer`); it must not start threads.
    A producer with one job to run is not warmed up: its worker loads the same once, while
    the other workers already start on their jobs (an incremental build's few jobs).
    """
    for name in sorted({job.producer for job in jobs}):
        warm = PRODUCERS[name].warm_up
        own = [job for job in jobs if job.producer == name]
        if warm is not None and len(own) > 1:
            warm(options, own)


def _run_job(options: BuildOptions, job: Job) -> tuple[str, Any]:
    """Run one job in a worker; errors come back as data (exceptions lose their locator when pickled).

    Any BaseException but KeyboardInterrupt is the job's failure (some libraries raise
    BaseException subclasses, and SystemExit from a library must not end a worker quietly);
    KeyboardInterrupt means the user stopped the build and goes on up.
    """
    from cardgen.errors import MissingGlyphError
    from cardgen.cards.fonts import glyph_log

    try:
        # a character no face of its font has: noted on the job's files, or under --strict the job's
        # error, naming every such text of the job (its files, in the staging folder, are dropped)
        with glyph_log() as glyphs:
            artefacts = job.func(options, **dict(job.args))
        found = glyphs.messages()
        if options.strict and found:
            more = f"\n  ... and {len(found) - 20} more" if len(found) > 20 else ""
            raise MissingGlyphError(f"{job.label}: {len(found)} text(s) hold characters no face of their font has "
                                    "(strict build):\n  " + "\n  ".join(found[:20]) + more)
        return "ok", _with_glyph_warnings(artefacts, found)
    except CardgenError as error:
        return "error", (type(error).__name__, error.message, error.locator, str(error))
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - reported with the job's label
        return "error", ("RenderError", f"{job.label}: {type(error).__name__}: {error}", Locator(), None)


def _with_glyph_warnings(artefacts: list[Artefact], messages: list[str]) -> list[Artefact]:
    """The job's files with its missing-glyph warnings (manifest ``glyphs``; none: unchanged)."""
    if not messages:
        return artefacts
    note = (("glyphs", messages[:20]),)
    return [replace(a, extra=tuple(sorted(dict(a.extra, **dict(note)).items()))) for a in artefacts]


def glyph_summary(artefacts: list[Artefact]) -> list[str]:
    """Every missing-glyph warning of the build's files (manifest ``glyphs``), once each."""
    return list(dict.fromkeys(message for a in artefacts for message in dict(a.extra).get("glyphs") or ()))


def _raise(job: Job, payload) -> None:
    import cardgen.errors as errors

    name, message, locator, text = payload
    cls = getattr(errors, name, RenderError)
    try:
        error = cls(message, locator)
    except TypeError:
        error = RenderError(text or message, locator)
    raise error


def build(options: BuildOptions, progress: Callable[[int, int, str], None] | None = None) -> BuildResult:
    """Run every producer's jobs into a staging folder and, when all succeed, put their files
    and the manifest in place; raise on the first failure, leaving the output folder as it was.

    A job whose inputs are unchanged since the build that wrote its files, still in place, is
    skipped and its files kept (:mod:`cardgen.build.cache`); ``options.force`` runs them all."""
    from cardgen.build.cache import plan_reuse

    start = time.perf_counter()
    _forget_cached_inputs()
    if options.templates_dir is None:
        from cardgen.cards.layout import default_templates_dir

        options = replace(options, templates_dir=default_templates_dir(options.content_dir))
    planned = sorted((replace(job, request=request_key(options, job)) for job in plan_jobs(options)),
                     key=lambda j: (-j.cost, j.label))
    if options.strict:
        check_translations(options, planned)
    games = {game: load_game_cached(options.content_dir, game) for job in planned for game, _ in job.targets}
    reuse = plan_reuse(options, planned, games, _manifest_entries(options.out_dir), options.force)
    jobs = sorted(reuse.run, key=lambda j: (-j.cost, j.label))  # the costs of the jobs narrowed to some languages fell
    workers = options.workers or os.cpu_count() or 1
    workers = max(1, min(workers, len(jobs)))
    if jobs and (workers == 1 or multiprocessing.get_start_method(allow_none=False) == "fork"):
        _warm_up(options, jobs)
    made = Made.of(planned, games)
    outcome: dict[str, Any] = {}

    def decide(staging: Path, artefacts: list[Artefact]) -> CommitPlan:
        from cardgen.build.index_page import INDEX_PAGE, index_html

        text, outcome["removed"], outcome["left"] = _manifest(options, artefacts, made, reuse.kept)
        files = json.loads(text)["files"]
        outcome["listed"] = len(files)
        # output/index.html, a view of the manifest (so not listed in it), goes in with the files;
        # either goes in only when it changed, so that a build with nothing to do writes nothing
        page = index_html(files, options.content_dir)
        moves = {a.path for a in artefacts}
        if _differs(options.out_dir / INDEX_PAGE, page):
            _stage(staging, INDEX_PAGE, page)
            moves.add(INDEX_PAGE)
        last = None
        if _differs(options.out_dir / MANIFEST, text):
            _stage(staging, MANIFEST, text)
            last = MANIFEST
        return CommitPlan(tuple(sorted(moves)), tuple(r.path for r in outcome["removed"]), last)

    try:
        with StagedUpdate(options.out_dir) as staged:
            artefacts = _run_jobs(replace(options, staging_dir=staged.path), jobs, workers, progress)
            staged.commit(lambda: decide(staged.path, artefacts))
    except OSError as error:  # a full disk while the manifest, the index page or the journal is staged
        if error.errno not in WRITE_ERRNOS:
            raise
        raise _write_failed(error, options.out_dir) from None
    kept = [Artefact.from_entry(entry) for entry in reuse.kept]
    return BuildResult(sorted(artefacts + kept, key=lambda a: a.path), options.out_dir / MANIFEST,
                       time.perf_counter() - start, len(jobs), workers, outcome["removed"], outcome["left"],
                       staged.recovered, unchanged=len(kept), skipped=reuse.skipped,
                       ran=sorted(job.label for job in jobs), listed=outcome["listed"],
                       warnings=[warning for game in games.values() for warning in game.warnings])


def _stage(staging: Path, name: str, text: str) -> None:
    """Write the manifest or the index page into the staging folder; a full disk is a clean error."""
    try:
        write_text_atomic(staging / name, text)
    except OSError as error:
        if error.errno not in WRITE_ERRNOS:
            raise
        error.filename = name
        raise _write_failed(error, staging) from None


def _write_failed(error: OSError, out_dir: Path) -> RenderError:
    """A clean error for a write of the build that failed before the commit moved anything: the
    staging folder is gone with what it held, the output folder is as it was."""
    where = Path(error.filename) if error.filename else out_dir
    return RenderError(f"cannot write the build's files: {error.strerror or error}; the output folder is "
                       "unchanged", Locator(file=where))


def _run_jobs(options: BuildOptions, jobs: list[Job], workers: int,
              progress: Callable[[int, int, str], None] | None) -> list[Artefact]:
    """Every job's artefacts, in this process or on ``workers`` processes; raise on the first failure."""
    artefacts: list[Artefact] = []
    if progress:
        progress(0, len(jobs), "")
    if workers == 1:
        for done, job in enumerate(jobs, 1):
            status, payload = _run_job(options, job)
            if status != "ok":
                _raise(job, payload)
            artefacts.extend(_tag(job, payload))
            if progress:
                progress(done, len(jobs), job.label)
        return artefacts
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_end_with_parent)
    try:
        futures = {pool.submit(_run_job, options, job): job for job in jobs}
        finished_labels: set[str] = set()
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: futures[f].label):
                job = futures[future]
                try:
                    status, payload = future.result()
                except BrokenProcessPool:
                    raise _worker_died([j.label for j in jobs if j.label not in finished_labels]) from None
                except Exception as error:  # noqa: BLE001 - e.g. a result that could not be sent back
                    raise RenderError(f"{job.label}: {type(error).__name__}: {error}") from None
                if status != "ok":
                    _raise(job, payload)
                artefacts.extend(_tag(job, payload))
                finished_labels.add(job.label)
                if progress:
                    progress(len(finished_labels), len(jobs), job.label)
    finally:
        # running jobs finish (their files land in the staging folder, removed after this), queued ones never start
        pool.shutdown(wait=True, cancel_futures=True)
    return artefacts


def _worker_died(unfinished: list[str]) -> RenderError:
    shown = ", ".join(sorted(unfinished)[:3]) + (f" and {len(unfinished) - 3} more" if len(unfinished) > 3 else "")
    return RenderError(f"a worker process died (killed, out of memory, or crashed in a library) with "
                       f"{len(unfinished)} job(s) unfinished: {shown}; the output folder is unchanged")


def _end_with_parent() -> None:
    """Make this worker exit when the build process dies: after a SIGKILL of the build alone,
    its workers would otherwise wait for work forever (and finish writing a dead build's files)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="cardgen-parent-watch", daemon=True).start()


def _tag(job: Job, artefacts: list[Artefact]) -> list[Artefact]:
    """The producer, the request and the hash of the job's inputs (for the file's language) on each artefact."""
    inputs = dict(job.inputs)

    def tags(a: Artefact) -> dict[str, Any]:
        found = inputs.get(a.lang, inputs.get(None))
        return dict(a.extra, producer=job.producer, **({"request": job.request} if job.request else {}),
                    **({"inputs": found} if found else {}))

    return [replace(a, extra=tuple(sorted(tags(a).items()))) for a in artefacts]


def _differs(path: Path, text: str) -> bool:
    """Whether ``path`` is not a regular file holding exactly ``text``."""
    try:
        return not path.is_file() or path.is_symlink() or path.read_bytes() != text.encode("utf-8")
    except OSError:
        return True


def _manifest_entries(out_dir: Path) -> list:
    """The entries of the output folder's manifest (none when it is missing or unreadable).

    The manifest is a file anyone may edit, so it is read as data to check: when any entry
    has a field of the wrong type (:func:`sound_entry`) the whole manifest is taken for one
    an unknown build wrote -- no entry of it is reused or deleted (a damaged entry could hide
    that a job's other files are gone), every job runs, and the next manifest lists what
    this build made.  Never a traceback in every later build.
    """
    path = out_dir / MANIFEST
    try:
        # opened without blocking or following a symlink, checked on the handle: never a FIFO or device
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MANIFEST_BYTES:
                return []
            old = json.loads(handle.read(MAX_MANIFEST_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return []
    found = old.get("files") if isinstance(old, dict) else None
    return found if isinstance(found, list) and all(sound_entry(entry) for entry in found) else []


#: A manifest larger than this is not read (a build of every bundled game's files is about 200 KB).
MAX_MANIFEST_BYTES = 64 * 1024 * 1024
_TEXT = (str,)
_TEXT_OR_NONE = (str, type(None))
#: The type of each field cardgen writes (and reads back) in a manifest entry; other fields
#: (of a later cardgen) are carried along unread.
ENTRY_FIELDS: dict[str, tuple[type, ...]] = {
    "path": _TEXT, "sha256": _TEXT, "game": _TEXT, "kind": _TEXT, "lang": _TEXT_OR_NONE, "paper": _TEXT_OR_NONE,
    "pages": (int, type(None)), "cards": (int,), "producer": _TEXT, "request": _TEXT, "inputs": _TEXT,
    "fallback": (int,), "warnings": (list,), "glyphs": (list,), "shrunk": (list,), "ink": _TEXT, "printer": _TEXT,
    "profile": _TEXT, "format": _TEXT, "color": _TEXT, "pdfx": _TEXT_OR_NONE,
    "max_tac": (int, float, type(None)), "pixels": (list,), "dpi": (int, float), "decks": (int,), "listed": (int,),
}
_REQUIRED = ("path", "sha256", "game", "kind")


def sound_entry(entry: Any) -> bool:
    """Whether a manifest entry read from disk has every field cardgen reads of the type it writes."""
    if not isinstance(entry, dict) or not all(isinstance(entry.get(name), str) for name in _REQUIRED):
        return False
    for name, value in entry.items():
        kinds = ENTRY_FIELDS.get(name)
        if kinds is None:
            continue
        if isinstance(value, bool) or not isinstance(value, kinds):
            return False
        if isinstance(value, int) and value < 0:
            return False
        if isinstance(value, list) and not all(isinstance(item, int if name == "pixels" else str)
                                               and not isinstance(item, bool) for item in value):
            return False
    return _inside(entry["path"]) and len(entry["sha256"]) == 64


@dataclass(frozen=True)
class Made:
    """What a build asks for, to tell an earlier file that is stale from one of another request."""

    covered: frozenset[tuple[str, str, str | None]]  # (request, game, language) this build makes files of
    languages: dict[str, frozenset[str]]  # each built game's languages now

    @classmethod
    def of(cls, jobs: list[Job], games: dict[str, Any]) -> "Made":
        return cls(frozenset((job.request, *target) for job in jobs for target in job.targets),
                   {game_id: frozenset(game.meta.languages) for game_id, game in games.items()})

    def stale(self, entry: dict[str, Any]) -> str | None:
        """Why an earlier entry that this build did not write again is stale, or None: it is of
        a game this build loaded, in a language that game no longer has (whatever request made
        it: none makes it now), or its request ran for its game and language and no longer
        makes it (a card gone).  An entry without a request (written before requests were
        recorded) is stale only by its language: else only ``--clean`` removes it."""
        request, game, lang = entry.get("request"), entry.get("game"), entry.get("lang")
        if isinstance(lang, str) and game in self.languages and lang not in self.languages[game]:
            return f"{game} has no language {lang} any more"
        if isinstance(request, str) and (request, game, lang) in self.covered:
            return f"{request}: not made any more for {game}"
        return None


def _manifest(options: BuildOptions, artefacts: list[Artefact], made: Made,
              kept: list[dict[str, Any]] = ()) -> tuple[str, list[Removal], list[Removal]]:
    """The manifest's text -- this build's files, the files it kept (``kept``, entries of
    skipped jobs) plus every earlier entry still on disk that is not stale -- with the earlier
    files to delete and those left alone.

    Only files the manifest lists are ever deleted, and only while they hold the bytes it
    recorded (a file changed by hand is left in place and drops out of the manifest); a
    stale entry whose file is gone just drops out.  With ``--clean`` every earlier entry
    this build did not make is stale.  Reads the output folder and changes nothing: the
    commit deletes the files."""
    from cardgen.build.cache import on_disk

    entries = {a.path: a.entry() for a in artefacts}
    for entry in kept:
        entries.setdefault(entry["path"], entry)
    removed: list[Removal] = []
    left: list[Removal] = []
    for entry in _manifest_entries(options.out_dir):
        path = entry.get("path") if isinstance(entry, dict) else None
        if not _inside(path) or path in entries:
            continue
        reason = "--clean: not made by this build" if options.clean else made.stale(entry)
        if reason is None:
            if (options.out_dir / path).is_file():
                entries[path] = entry
        elif on_disk(options.out_dir, entry):
            removed.append(Removal(path, reason))
        elif os.path.lexists(options.out_dir / path):
            left.append(Removal(path, f"{reason}; changed since it was written, so left in place (no longer listed)"))
    files = [entries[key] for key in sorted(entries)]
    text = json.dumps({"files": files}, ensure_ascii=False, indent=1) + "\n"
    return text, sorted(removed, key=lambda r: r.path), sorted(left, key=lambda r: r.path)


def _inside(path: Any) -> bool:
    """Whether a path read from an earlier manifest is a relative path inside the output folder."""
    return isinstance(path, str) and bool(path) and not path.startswith("/") and \
        not any(part in ("", ".", "..") for part in path.split("/"))
