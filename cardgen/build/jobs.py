"""What a producer of the build works with: the options, a job, an artefact and how to write one.

A *producer* (registered in :data:`cardgen.build.run.PRODUCERS`) plans :class:`Job` objects
for a game and its languages; each job names a module-level function
``func(options, **args) -> list[Artefact]`` that runs in a worker process and writes its
files with :func:`write_artefact`.  This module is what producers import, so that they
never import the build that runs them (:mod:`cardgen.build.run`).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from cardgen.errors import RenderError
from cardgen.fileio import write_bytes_atomic

KINDS = ("pnp", "shop-pdf", "shop-png", "rulebook", "rulebook-html", "answer-key", "report", "tabletop")



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
    inks: tuple[str, ...] = ("full",)  # ink modes of the print-and-play PDFs, one file each (cardgen.color.ink)
    profile: str = "tgc"
    printers: tuple[str, ...] = ()  # print shops (cardgen.printing.printers); empty: RGB shop PDF + `profile` PNGs
    templates_dir: Path | None = None
    workers: int | None = None  # None: one per core
    producers: tuple[str, ...] = ()  # empty: every registered producer
    strict: bool = False  # fail before writing anything on missing, fuzzy or overflowing text
    tabletop: tuple[str, ...] = ()  # digital-table formats (tts, sprites; cardgen.tabletop.decks); empty: none
    tabletop_url: str | None = None  # where the output folder is served, for TTS image addresses; None: file://
    staging_dir: Path | None = None  # set by build(): where write_artefact writes; None: out_dir itself
    force: bool = False  # rerun every job, even those whose inputs are unchanged (cardgen.build.cache)
    clean: bool = False  # remove every file of the manifest this build does not make (else only stale ones)


@dataclass(frozen=True)
class Job:
    producer: str
    label: str  # shown in progress, e.g. "head-game ru pnp a4"
    func: Callable[..., list["Artefact"]]  # a module-level function, called as func(options, **args)
    args: tuple[tuple[str, Any], ...] = ()
    cost: float = 1.0  # rough relative time; bigger jobs start first
    targets: tuple[tuple[str, str | None], ...] = ()  # (game, lang) pairs whose files this job rewrites
    inputs: tuple[tuple[str | None, str], ...] = ()  # language (None: all) -> hash of its inputs, set by build()
    request: str = ""  # what was asked for, set by build() (request_key): the files it makes replace its old ones

    @property
    def target(self) -> str:
        """``module:function`` of :attr:`func`: how the cache and the request key name it."""
        return f"{self.func.__module__}:{self.func.__qualname__}"


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
