"""Incremental builds: a build job whose inputs are unchanged keeps the files it wrote last time.

A job's *inputs* are hashed into one SHA-256, recorded as ``inputs`` on each manifest entry
the job writes:

* cardgen itself: every file of the package (code, fonts, shared strings), its rulebook
  templates and the versions of the libraries that draw (:func:`code_fingerprint`), so that
  editing or upgrading cardgen rebuilds everything;
* the build options that change what a job writes (everything in
  :class:`~cardgen.build.BuildOptions` but the fields that only choose *which* jobs run,
  :data:`SELECTION_ONLY`; a new option is an input unless listed there) and
  ``SOURCE_DATE_EPOCH``;
* the job's function and arguments;
* the content files it can read (:class:`Inputs`): its game's folder and the content
  folder's own files outside every game folder (``common/``), and the layout folders, each
  file by path and SHA-256.  Two exclusions make a change rebuild only what it feeds: a
  language's files in the game folder (``text/<lang>.yaml``, ``locale/<lang>.po``) feed
  only the jobs of that language and of the game's source language (whose text stands in
  for missing translations and is what a PO entry was translated from; shared strings in
  ``common/`` feed every job, as their PO entries name a source of their own); and a layout
  file (``*.yaml`` of the layout folders but the shop profiles, :data:`NOT_LAYOUTS`) feeds
  the jobs of the games whose layout reads it (itself or through ``include:``) only.
  Everything else in those folders feeds every job of the game, so a file added, removed or
  changed is never missed.

A job that renders several languages (``langs`` in its arguments: the shop PNGs, the answer
keys) is hashed per language and rerun for the languages whose inputs changed only; each
language's files are the same whichever languages share the job.

A job (or language of one) is skipped when the previous manifest lists files with its hash
and every one of them is still in the output folder with the SHA-256 recorded; its entries
are carried into the new manifest (under the job's request).  The hashes depend on the
inputs only, so an incremental build writes the same files and manifest entries, byte for
byte, as a clean build of the same request (:mod:`cardgen.build.run` says what else the
manifest keeps).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

from cardgen import resources
from cardgen.content.safefile import UnsafeFile, read_capped

#: Options that choose which jobs run (or how), never what a job writes: not inputs.  The
#: printers, the default shop PNGs' profile and the tabletop formats are among them because
#: the jobs they add carry theirs in their arguments (an input): a print-and-play job of a
#: ``--printer`` build is the same job as a plain build's, and is skipped when unchanged.
SELECTION_ONLY = frozenset({"games", "langs", "papers", "inks", "producers", "workers", "staging_dir",
                            "content_dir", "templates_dir", "force", "clean", "printers", "profile", "tabletop"})
#: Options that change a file's bytes (or only whether the build passes), never which files a
#: job makes: no part of the request a file is listed under (:func:`request_options`), so a
#: build with another value replaces the same files rather than adding to them.
SAME_FILES = frozenset({"strict", "back_offset_mm", "tabletop_url", "SOURCE_DATE_EPOCH"})
#: Producers whose files name the output folder (Tabletop Simulator's file:// image addresses):
#: for them, and only them, where it is is an input.
ADDRESSED = frozenset({"tabletop"})
#: Libraries whose version can change a file's bytes.
LIBRARIES = ("reportlab", "weasyprint", "pypdfium2", "pillow", "pyphen", "babel", "jinja2", "pydantic", "pyyaml",
             "pypdf", "fonttools", "pikepdf")
#: Files of the layout folders that are not layouts: they feed every job (the shop profiles).
NOT_LAYOUTS = frozenset({"printers.yaml"})
#: A larger input counts by its size (named in the reason it is not read; the loader caps far lower).
MAX_HASHED_BYTES = 64 * 1024 * 1024
PACKAGE_DIR = resources.PACKAGE


@dataclass(frozen=True)
class Reuse:
    """What an incremental build does: the jobs to run and the earlier files it keeps."""

    run: list  # Jobs to run, those rendering several languages narrowed to the ones that changed
    kept: list[dict[str, Any]]  # manifest entries of the skipped jobs and languages, as recorded
    skipped: int  # jobs skipped whole


def _digest(payload: Any) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _file_digest(path: Path, root: Path | None = None) -> str:
    """The SHA-256 of a file inside ``root`` (a symlink out of it is not followed)."""
    try:
        return hashlib.sha256(read_capped(path, MAX_HASHED_BYTES, root=root)).hexdigest()
    except UnsafeFile as problem:  # a FIFO, a huge file: its state is the input (the job reports it)
        return f"unreadable: {problem}"


def _files(folder: Path) -> Iterable[tuple[Path, tuple[str, ...]]]:
    """Every file under ``folder`` with its path parts relative to it, hidden names and caches skipped."""
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        base = Path(top)
        rel = base.relative_to(folder).parts
        for name in sorted(names):
            if not name.startswith(".") and not name.endswith((".pyc", ".pyo")):
                yield base / name, (*rel, name)


def _hashed_tree(folder: Path, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    if not folder.is_dir():
        return []
    return [("/".join(parts), _file_digest(path, folder)) for path, parts in _files(folder) if parts[0] not in skip]


def code_fingerprint() -> str:
    """cardgen's own version: its package files, its rulebook templates and the drawing libraries."""
    versions = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    # the same in a checkout and an install: the data an install maps into the package
    # (layouts, the bundled games) is hashed where a job reads it, not as code
    return _digest({"package": _hashed_tree(PACKAGE_DIR, skip=resources.DATA_FOLDERS),
                    "rulebook-templates": _hashed_tree(resources.RULEBOOK_TEMPLATES),
                    "libraries": versions})


def options_fingerprint(options) -> dict[str, Any]:
    """The options that change what a job writes (see :data:`SELECTION_ONLY`)."""
    values = {f.name: getattr(options, f.name) for f in dataclasses.fields(options) if f.name not in SELECTION_ONLY}
    values.pop("out_dir")  # the same files wherever they go (but see ADDRESSED)
    values["SOURCE_DATE_EPOCH"] = os.environ.get("SOURCE_DATE_EPOCH")
    return values


def request_options(options) -> dict[str, Any]:
    """The options that are part of every request of a build (:func:`cardgen.build.request_key`):
    those of :func:`options_fingerprint` that can change which files a job makes, where they
    differ from their defaults (a plain build's requests name none).  A new option is part of
    the request unless listed in :data:`SAME_FILES`: at worst a build with it adds files
    instead of replacing them, never removes files another value asked for."""
    defaults = {f.name: f.default for f in dataclasses.fields(options)}
    return {name: value for name, value in options_fingerprint(options).items()
            if name not in SAME_FILES and (name not in defaults or value != defaults[name])}


def language_of(parts: tuple[str, ...]) -> str | None:
    """The language a file of a game folder (path parts inside it) holds text of:
    ``text/<lang>.yaml`` and ``locale/<lang>.po``, where the loader reads them; else None."""
    from cardgen.content.loader import TEXT_DIR
    from cardgen.content.translations import LOCALE_DIR

    if len(parts) == 2:
        folder, name = parts
        if folder == TEXT_DIR and name.endswith(".yaml"):
            return name[: -len(".yaml")]
        if folder == LOCALE_DIR and name.endswith(".po"):
            return name[: -len(".po")]
    return None


@dataclass
class _GameFiles:
    """A game's candidate inputs: (where, path, language or None, digest)."""

    files: list[tuple[str, str, str | None, str]]
    source_languages: frozenset[str]

    def for_languages(self, langs: frozenset[str] | None) -> list[tuple[str, str, str]]:
        """The files that feed a job of ``langs`` (None: every language)."""
        wanted = None if langs is None else langs | self.source_languages
        return [(where, path, digest) for where, path, lang, digest in self.files
                if lang is None or wanted is None or lang in wanted]


class Inputs:
    """The inputs of the jobs of one build, hashed once per file."""

    def __init__(self, options, games: dict[str, Any]):
        self.options = options
        self._digests: dict[Path, str] = {}
        self.base = {"cardgen": code_fingerprint(), "options": options_fingerprint(options)}
        content_dir = Path(options.content_dir)
        game_ids = set(games)
        from cardgen.content.loader import discover_games

        all_games = set(discover_games(content_dir)) | game_ids
        content = [(parts, path) for path, parts in _files(content_dir)] if content_dir.is_dir() else []
        shared = [(parts, _file_digest(path, content_dir)) for parts, path in content if parts[0] not in all_games]
        layout_dirs = self._layout_dirs()
        self.games: dict[str, _GameFiles] = {}
        for game_id, game in games.items():
            files = [("content", "/".join(parts), None, digest) for parts, digest in shared]
            files += [("content", "/".join(parts), language_of(parts[1:]), _file_digest(path, content_dir))
                      for parts, path in content if parts[0] == game_id]
            unused = self._unused_layouts(game, layout_dirs)
            for where, folder in layout_dirs:
                files += [(where, "/".join(parts), None, self._digest(path, folder)) for path, parts in _files(folder)
                          if path.resolve() not in unused]
            self.games[game_id] = _GameFiles(sorted(files), frozenset({game.meta.source_language}))

    def _digest(self, path: Path, root: Path) -> str:
        if path not in self._digests:
            self._digests[path] = _file_digest(path, root)
        return self._digests[path]

    def _layout_dirs(self) -> list[tuple[str, Path]]:
        from cardgen.cards.layout import TEMPLATES_DIR

        folders = [("templates", Path(self.options.templates_dir or TEMPLATES_DIR))]
        if folders[0][1].resolve() != TEMPLATES_DIR.resolve():
            folders.append(("cardgen-templates", TEMPLATES_DIR))  # includes fall back to cardgen's own
        return [(where, folder) for where, folder in folders if folder.is_dir()]

    def _unused_layouts(self, game, layout_dirs: list[tuple[str, Path]]) -> set[Path]:
        """The layout files of the layout folders that this game's layout does not read."""
        from cardgen.errors import CardgenError
        from cardgen.cards.layout import layout_path, load_layout

        try:
            read = {path.resolve() for path in load_layout(layout_path(game.root, game.id, self.options.templates_dir),
                                                           self.options.templates_dir).documents}
        except CardgenError:
            return set()  # a broken layout: every file counts, and the job reports the error
        found = {path.resolve() for _, folder in layout_dirs for path in folder.glob("*.yaml")
                 if path.name not in NOT_LAYOUTS}
        return found - read

    def of(self, job, langs: tuple[str, ...] | None) -> str:
        """The hash of ``job``'s inputs; ``langs`` replaces its ``langs`` argument (one language of it)."""
        args = dict(job.args)
        if langs is not None:
            args["langs"] = list(langs)
        game_id = args.get("game_id")
        job_langs = {lang for _, lang in job.targets} if langs is None else set(langs)
        wanted = None if not job_langs or None in job_langs else frozenset(job_langs)
        if game_id in self.games:
            files = self.games[game_id].for_languages(wanted)
        else:  # not a job of one game: everything any game reads
            files = sorted({file for game in self.games.values() for file in game.for_languages(None)})
        where = str(Path(self.options.out_dir).resolve()) if job.producer in ADDRESSED else None
        return _digest({**self.base, "producer": job.producer, "func": job.target, "args": args, "files": files,
                        "out_dir": where})


def plan_reuse(options, jobs: list, games: dict[str, Any], previous: list[dict[str, Any]],
               force: bool = False) -> Reuse:
    """Hash every job's inputs (kept on ``Job.inputs``); unless ``force``, drop the jobs (and
    languages of several-language jobs) whose files of ``previous`` (the old manifest's
    entries) carry the same hash and are still on disk unchanged."""
    inputs = Inputs(options, games)
    by_hash: dict[str, list[dict[str, Any]]] = {}
    for entry in previous:
        if isinstance(entry, dict) and isinstance(entry.get("inputs"), str):
            by_hash.setdefault(entry["inputs"], []).append(entry)
    checked: dict[str, bool] = {}

    def intact(digest: str) -> bool:
        if force or digest not in by_hash:
            return False
        if digest not in checked:
            checked[digest] = all(on_disk(Path(options.out_dir), entry) for entry in by_hash[digest])
        return checked[digest]

    run, kept, skipped = [], [], 0
    for job in jobs:
        langs = dict(job.args).get("langs")
        if langs is None:
            digest = inputs.of(job, None)
            if intact(digest):
                kept += _of_job(by_hash[digest], job)
                skipped += 1
            else:
                run.append(replace(job, inputs=((None, digest),)))
            continue
        hashes = {lang: inputs.of(job, (lang,)) for lang in langs}
        stale = tuple(lang for lang in langs if not intact(hashes[lang]))
        kept += _of_job([entry for lang in langs if lang not in stale for entry in by_hash[hashes[lang]]], job)
        if not stale:
            skipped += 1
        elif stale == tuple(langs):
            run.append(replace(job, inputs=tuple(hashes.items())))
        else:
            args = tuple((key, stale if key == "langs" else value) for key, value in job.args)
            run.append(replace(job, label=f"{job.label} ({', '.join(stale)} only)", args=args,
                               cost=job.cost * len(stale) / len(langs),
                               targets=tuple(t for t in job.targets if t[1] in stale),
                               inputs=tuple((lang, hashes[lang]) for lang in stale)))
    return Reuse(run, kept, skipped)


def _of_job(entries: list[dict[str, Any]], job) -> list[dict[str, Any]]:
    """Kept entries as the job would write them now: under its request (an entry written before
    requests were recorded gets it; the hash of the inputs fixes the job, so nothing else changes)."""
    request = getattr(job, "request", "")
    return [dict(entry, request=request) if request and entry.get("request") != request else entry
            for entry in entries]


def on_disk(out_dir: Path, entry: dict[str, Any]) -> bool:
    """Whether the file of a manifest entry is in the output folder with the SHA-256 recorded."""
    path = entry.get("path")  # read back from disk: a damaged manifest must not name a file elsewhere
    if not isinstance(path, str) or not path or path.startswith("/") or ".." in path.split("/"):
        return False
    digest = hashlib.sha256()
    try:
        # opened without blocking or following a symlink, checked on the handle: never a FIFO or device
        fd = os.open(out_dir / path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:  # no cap: our own files, as big as a game makes them
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return False
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except (OSError, ValueError):
        return False
    return digest.hexdigest() == entry.get("sha256")
