"""The build: run every artefact producer for the chosen games and languages, write the manifest.

A *producer* turns games into files.  It is registered in :data:`PRODUCERS`
by one line, ``name -> "module:plan"``, where ``plan(options, game, langs)``
returns :class:`Job` objects; each job names a function
``func(options, **args) -> list[Artefact]`` that runs in a worker process and
writes its files with :func:`write_artefact`.  Jobs are independent, so they
run in parallel on every core.  ``<out>/manifest.json`` lists every file with
its game, kind, language, paper, path, pages, card faces and SHA-256; ``<out>/index.html``
(:mod:`cardgen.index_page`) shows it as a page and is committed with it, not listed in it.

Builds are all or nothing (:class:`cardgen.fileio.StagedUpdate` has the whole
design).  Jobs write into a staging folder, the hidden sibling
``<parent>/.<out-name>.cardgen-staging-<random>`` of the output folder
(``BuildOptions.staging_dir``; artefact paths stay relative to the output
folder).  Only when every job succeeded does the commit move the staged files
into place, delete the stale files of the rebuilt games and languages and put
the manifest in place last, after writing a journal of those steps that the
next build rolls forward should the process die half-way.  Anything else -- a
job's error, any BaseException a library raises in a job (reported as a
:class:`~cardgen.errors.RenderError` with the job's label), a worker process
dying, KeyboardInterrupt in the parent -- removes the staging folder and leaves
the output folder as it was; so does SIGKILL before the commit, whose staging
folder the next build removes (workers notice that their build process died and
exit).  Failures before any job runs (planning, ``--strict``) do not create a
staging folder at all.

Rebuilding with the same inputs gives byte-identical files
(``SOURCE_DATE_EPOCH`` sets the PDF dates when given).  So a job whose inputs are unchanged
since it wrote its files, still in place, is skipped and its manifest entries kept
(:mod:`cardgen.incremental`); the manifest is the same as a clean build's.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import multiprocessing
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from cardgen.errors import CardgenError, Locator, RenderError
from cardgen.fileio import CommitPlan, StagedUpdate, write_bytes_atomic, write_text_atomic

# name -> "module:plan"; a new kind of artefact is one line here.
PRODUCERS: dict[str, str] = {
    "cards": "cardgen.render.producers:plan",
    "rulebook": "cardgen.rulebook.produce:plan",
    "tabletop": "cardgen.render.tabletop:plan",  # only with --tabletop or --only tabletop
}

MANIFEST = "manifest.json"
KINDS = ("pnp", "shop-pdf", "shop-png", "rulebook", "answer-key", "report", "tabletop")


@dataclass(frozen=True)
class BuildOptions:
    content_dir: Path
    out_dir: Path
    games: tuple[str, ...] = ()  # empty: every game
    langs: tuple[str, ...] = ()  # empty: each game's languages
    papers: tuple[str, ...] = ("a4", "letter")
    duplex: str = "long"  # long | short
    fold: bool = False
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    inks: tuple[str, ...] = ("full",)  # ink modes of the print-and-play PDFs, one file each (cardgen.render.ink)
    profile: str = "tgc"
    printers: tuple[str, ...] = ()  # print shops (cardgen.render.printers); empty: RGB shop PDF + `profile` PNGs
    templates_dir: Path | None = None
    workers: int | None = None  # None: one per core
    producers: tuple[str, ...] = ()  # empty: every registered producer
    strict: bool = False  # fail before writing anything on missing, fuzzy or overflowing text
    tabletop: tuple[str, ...] = ()  # digital-table formats (tts, sprites; cardgen.render.tabletop); empty: none
    tabletop_url: str | None = None  # where the output folder is served, for TTS image addresses; None: file://
    staging_dir: Path | None = None  # set by build(): where write_artefact writes; None: out_dir itself
    force: bool = False  # rerun every job, even those whose inputs are unchanged (cardgen.incremental)


@dataclass(frozen=True)
class Job:
    producer: str
    label: str  # shown in progress, e.g. "head-game ru pnp a4"
    func: str  # "module:function", called as func(options, **args)
    args: tuple[tuple[str, Any], ...] = ()
    cost: float = 1.0  # rough relative time; bigger jobs start first
    targets: tuple[tuple[str, str | None], ...] = ()  # (game, lang) pairs whose files this job rewrites
    inputs: tuple[tuple[str | None, str], ...] = ()  # language (None: all) -> hash of its inputs, set by build()


@dataclass(frozen=True)
class Artefact:
    game: str
    kind: str
    lang: str | None
    paper: str | None
    path: str  # relative to the manifest, POSIX separators
    pages: int | None
    cards: int
    sha256: str
    extra: tuple[tuple[str, Any], ...] = ()

    def entry(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if k != "extra"}
        data.update(dict(self.extra))
        return data

    @classmethod
    def from_entry(cls, entry: dict[str, Any]) -> "Artefact":
        names = [f for f in cls.__dataclass_fields__ if f != "extra"]
        return cls(*(entry.get(name) for name in names),
                   extra=tuple(sorted((k, v) for k, v in entry.items() if k not in names)))


@dataclass
class BuildResult:
    artefacts: list[Artefact]
    manifest: Path
    seconds: float
    jobs: int
    workers: int
    removed: list[str] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)  # what was cleaned up after builds that died
    unchanged: int = 0  # files of ``artefacts`` kept from an earlier build (their jobs' inputs are unchanged)
    skipped: int = 0  # jobs skipped whole; ``jobs`` counts those that ran
    ran: list[str] = field(default_factory=list)  # labels of the jobs that ran


def write_artefact(options: BuildOptions, relpath: str, data: bytes, *, game: str, kind: str, lang: str | None,
                   paper: str | None = None, pages: int | None = None, cards: int = 0,
                   **extra: Any) -> Artefact:
    """Write one output file (into the build's staging folder when there is one, else
    atomically into ``out_dir``) and describe it for the manifest; ``relpath`` is relative
    to the output folder."""
    if kind not in KINDS:
        raise RenderError(f"unknown artefact kind '{kind}'; expected one of: {', '.join(KINDS)}")
    parts = relpath.split("/")
    if relpath.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise RenderError(f"artefact path '{relpath}' must be relative and stay inside the output folder")
    root = options.out_dir
    if options.staging_dir is not None:
        root = options.staging_dir
        if not root.is_dir():  # removed by a failed build's clean-up or a later build: never recreate it
            raise RenderError(f"the build's staging folder {root} is gone; the build was stopped or failed")
    write_bytes_atomic(root.joinpath(*parts), data)
    return Artefact(game, kind, lang, paper, relpath, pages, cards, hashlib.sha256(data).hexdigest(),
                    tuple(sorted(extra.items())))


@lru_cache(maxsize=32)
def load_game_cached(content_dir: Path, game_id: str):
    """A loaded game, once per process (workers load what their jobs need)."""
    from cardgen.content import load_games

    return load_games(content_dir, [game_id])[0]


def _resolve(target: str) -> Callable:
    module, attribute = target.split(":")
    return getattr(importlib.import_module(module), attribute)


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
        for name, target in PRODUCERS.items():
            if not options.producers or name in options.producers:
                jobs.extend(_resolve(target)(options, game, langs))
    return jobs


def check_translations(options: BuildOptions, jobs: list[Job]) -> None:
    """``--strict``: raise :class:`~cardgen.errors.I18nError` on any missing, fuzzy,
    overflowing or broken message of the games and languages these jobs build (and of
    the common strings), before a single file is written."""
    from cardgen.i18n import COMMON, check_strict

    pairs = {target for job in jobs for target in job.targets}
    games = sorted({game for game, _ in pairs})
    langs = sorted({lang for _, lang in pairs if lang})
    if games:
        check_strict(options.content_dir, [COMMON, *games], langs or None)


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
    from cardgen.render.layout import load_layout
    from cardgen.render.printers import printers

    for cached in (load_game_cached, load_layout, printers):
        cached.cache_clear()


def _warm_up(options: BuildOptions, jobs: list[Job]) -> None:
    """Let each producer load, once in this process, what all its jobs need (dictionaries,
    reference data, imports): forked workers inherit it instead of each loading it again.

    A producer module opts in with ``warm_up(options, jobs)``; it must not start threads.
    A producer with one job to run is not warmed up: its worker loads the same once, while
    the other workers already start on their jobs (an incremental build's few jobs).
    """
    for name in sorted({job.producer for job in jobs}):
        module = importlib.import_module(PRODUCERS[name].split(":")[0])
        warm = getattr(module, "warm_up", None)
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
    from cardgen.render.fonts import glyph_log

    try:
        # a character no face of its font has: noted on the job's files, or under --strict the job's
        # error, naming every such text of the job (its files, in the staging folder, are dropped)
        with glyph_log() as glyphs:
            artefacts = _resolve(job.func)(options, **dict(job.args))
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
    skipped and its files kept (:mod:`cardgen.incremental`); ``options.force`` runs them all."""
    from cardgen.incremental import plan_reuse

    start = time.perf_counter()
    _forget_cached_inputs()
    if options.templates_dir is None:
        from cardgen.render.layout import default_templates_dir

        options = replace(options, templates_dir=default_templates_dir(options.content_dir))
    planned = sorted(plan_jobs(options), key=lambda j: (-j.cost, j.label))
    if options.strict:
        check_translations(options, planned)
    games = {game: load_game_cached(options.content_dir, game) for job in planned for game, _ in job.targets}
    reuse = plan_reuse(options, planned, games, _manifest_entries(options.out_dir), options.force)
    jobs = sorted(reuse.run, key=lambda j: (-j.cost, j.label))  # the costs of the jobs narrowed to some languages fell
    workers = options.workers or os.cpu_count() or 1
    workers = max(1, min(workers, len(jobs)))
    if jobs and (workers == 1 or multiprocessing.get_start_method(allow_none=False) == "fork"):
        _warm_up(options, jobs)
    targets = {(job.producer, *t) for job in planned for t in job.targets}
    removed: list[str] = []

    def decide(staging: Path, artefacts: list[Artefact]) -> CommitPlan:
        from cardgen.index_page import INDEX_PAGE, index_html

        text, stale = _manifest(options, artefacts, targets, reuse.kept)
        write_text_atomic(staging / MANIFEST, text)
        # output/index.html, a view of the manifest (so not listed in it), goes in with the files
        write_text_atomic(staging / INDEX_PAGE, index_html(json.loads(text)["files"], options.content_dir))
        removed.extend(stale)
        return CommitPlan(tuple(sorted({a.path for a in artefacts} | {INDEX_PAGE})), tuple(stale), MANIFEST)

    with StagedUpdate(options.out_dir) as staged:
        artefacts = _run_jobs(replace(options, staging_dir=staged.path), jobs, workers, progress)
        staged.commit(lambda: decide(staged.path, artefacts))
    kept = [Artefact.from_entry(entry) for entry in reuse.kept]
    return BuildResult(sorted(artefacts + kept, key=lambda a: a.path), options.out_dir / MANIFEST,
                       time.perf_counter() - start, len(jobs), workers, removed, staged.recovered,
                       unchanged=len(kept), skipped=reuse.skipped, ran=sorted(job.label for job in jobs))


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
    """The producer and the hash of the job's inputs (for the file's language) on each artefact."""
    inputs = dict(job.inputs)

    def tags(a: Artefact) -> dict[str, Any]:
        found = inputs.get(a.lang, inputs.get(None))
        return dict(a.extra, producer=job.producer, **({"inputs": found} if found else {}))

    return [replace(a, extra=tuple(sorted(tags(a).items()))) for a in artefacts]


def _manifest_entries(out_dir: Path) -> list:
    """The entries of the output folder's manifest (none when it is missing or unreadable)."""
    path = out_dir / MANIFEST
    if not path.is_file():
        return []
    try:
        old = json.loads(path.read_text("utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        return []
    return old if isinstance(old, list) else []


def _manifest(options: BuildOptions, artefacts: list[Artefact], targets: set,
              kept: list[dict[str, Any]] = ()) -> tuple[str, list[str]]:
    """The manifest's text -- this build's files, the files it kept (``kept``, entries of
    skipped jobs) plus earlier entries for games and languages not rebuilt -- and the files
    of the output folder it makes stale (relative paths).

    Reads the output folder and changes nothing: the commit deletes the stale files."""
    entries = {a.path: a.entry() for a in artefacts}
    for entry in kept:
        entries.setdefault(entry["path"], entry)
    for entry in _manifest_entries(options.out_dir):
        if not isinstance(entry, dict) or entry.get("path") in entries:
            continue
        producer = entry.get("producer")
        if any((p, g, lang) == (producer or p, entry.get("game"), entry.get("lang")) for p, g, lang in targets):
            continue  # rebuilt by this build's producer for that game and language
        if (options.out_dir / str(entry.get("path"))).is_file():
            entries[entry["path"]] = entry
    # files of the rebuilt games and languages that this build did not write are stale
    stale: list[str] = []
    for game, lang in sorted({(g, lang) for _, g, lang in targets}, key=str):
        folder = options.out_dir / game / (lang or "")
        if not folder.is_dir():
            continue
        for file in sorted(folder.rglob("*")):
            rel = file.relative_to(options.out_dir).as_posix()
            if file.is_file() and rel not in entries and file.suffix in {".pdf", ".png", ".html", ".json"}:
                stale.append(rel)
    files = [entries[key] for key in sorted(entries)]
    return json.dumps({"files": files}, ensure_ascii=False, indent=1) + "\n", stale
