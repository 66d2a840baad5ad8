"""``cardgen doctor``: is everything cardgen uses here, and if not, how to get it.

One :class:`Check` per dependency: Python itself, the Python packages cardgen's metadata
requires (its own and those of its extras, with their versions), the system libraries
WeasyPrint loads (Pango and HarfBuzz, with the versions WeasyPrint itself sees), the
programs the print-shop preflight and the tests run (Ghostscript, poppler's pdftotext and
pdftoppm, qpdf, Chromium) and the cache folder.  A missing one carries the command that
installs it on Debian/Ubuntu, Fedora, macOS (Homebrew) and Windows (the system libraries as
WeasyPrint's installation guide gives them: MSYS2's UCRT64 packages on Windows).

Only what a plain ``cardgen build`` needs is *required* (:func:`exit_code` is 1 when one of
them is missing); the rest names the command that needs it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from importlib import metadata

#: Python cardgen runs on (pyproject's requires-python).
MIN_PYTHON = (3, 11)
#: WeasyPrint needs Pango 1.44 or newer.
MIN_PANGO = (1, 44, 0)
PLATFORMS = ("Debian/Ubuntu", "Fedora", "macOS", "Windows")
#: Extras whose packages are checked (``test`` is the project's own, not a user's).
USER_EXTRAS = ("sweep", "studio", "print-shops")
#: What each extra is for, as shown.
EXTRA_USE = {"sweep": "cardgen sweep", "studio": "cardgen serve",
             "print-shops": "cardgen preflight, build --printer (PDF)"}

_MSYS2 = "MSYS2 (https://www.msys2.org), UCRT64 shell: pacman -S mingw-w64-ucrt-x86_64-"
SYSTEM_INSTALL: dict[str, dict[str, str]] = {
    "Pango": {"Debian/Ubuntu": "sudo apt install libpango-1.0-0 libpangoft2-1.0-0",
              "Fedora": "sudo dnf install pango",
              "macOS": "brew install pango",
              "Windows": _MSYS2 + "pango"},
    "HarfBuzz": {"Debian/Ubuntu": "sudo apt install libharfbuzz0b libharfbuzz-subset0",
                 "Fedora": "sudo dnf install harfbuzz",
                 "macOS": "brew install harfbuzz",
                 "Windows": _MSYS2 + "harfbuzz"},
    "Ghostscript": {"Debian/Ubuntu": "sudo apt install ghostscript",
                    "Fedora": "sudo dnf install ghostscript",
                    "macOS": "brew install ghostscript",
                    "Windows": _MSYS2 + "ghostscript"},
    "poppler": {"Debian/Ubuntu": "sudo apt install poppler-utils",
                "Fedora": "sudo dnf install poppler-utils",
                "macOS": "brew install poppler",
                "Windows": _MSYS2 + "poppler"},
    "qpdf": {"Debian/Ubuntu": "sudo apt install qpdf",
             "Fedora": "sudo dnf install qpdf",
             "macOS": "brew install qpdf",
             "Windows": _MSYS2 + "qpdf"},
    "Chromium": {"Debian/Ubuntu": "sudo apt install chromium",
                 "Fedora": "sudo dnf install chromium",
                 "macOS": "brew install --cask chromium",
                 "Windows": "(the studio's browser tests run on Linux: they drive /usr/bin/chromium)"},
}


@dataclass
class Check:
    name: str
    kind: str  # python | package | library | program | folder
    ok: bool
    version: str | None
    needed_for: str
    required: bool  # a plain `cardgen build` needs it
    detail: str = ""
    install: dict[str, str] = field(default_factory=dict)  # platform (or "pip") -> command

    @property
    def status(self) -> str:
        return "ok" if self.ok else ("MISSING" if self.required else "missing")

    def as_dict(self) -> dict:
        return {**asdict(self), "status": "ok" if self.ok else "missing"}


def checks() -> list[Check]:
    """Every dependency, in the order shown."""
    found = [_python()]
    found += _packages()
    found += _weasyprint_libraries()
    found += [
        _program("Ghostscript", ("gs", "gswin64c"), ("--version",), "cardgen preflight, build --printer", "Ghostscript"),
        _program("pdftotext", ("pdftotext",), ("-v",), "cardgen preflight, build --printer", "poppler"),
        _program("pdftoppm", ("pdftoppm",), ("-v",), "the tests; looking at a render", "poppler"),
        _program("qpdf", ("qpdf",), ("--version",), "the tests", "qpdf"),
        _program("Chromium", ("chromium", "chromium-browser", "google-chrome"), ("--version",),
                 "the studio's browser tests", "Chromium"),
        _cache(),
    ]
    return found


def exit_code(found: list[Check]) -> int:
    """1 when something a plain build needs is missing, else 0."""
    return 1 if any(check.required and not check.ok for check in found) else 0


def _python() -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    return Check("Python", "python", sys.version_info[:2] >= MIN_PYTHON, version, "everything", True,
                 f"{sys.executable} (needs {'.'.join(map(str, MIN_PYTHON))} or newer)",
                 {} if sys.version_info[:2] >= MIN_PYTHON else {"all": "install Python 3.11 or newer"})


def _packages() -> list[Check]:
    """cardgen's requirements from its installed metadata: the core ones required, the extras' not."""
    try:
        requires = metadata.requires("cardgen") or []
    except metadata.PackageNotFoundError:
        return [Check("cardgen", "package", False, None, "everything", True,
                      "cardgen's package metadata is missing (run it from an install)",
                      {"pip": "pip install cardgen"})]
    from cardgen.extras import EXTRAS, missing

    # an extra's modules must also import (its metadata can outlive its files)
    unimportable = {module for extra in EXTRAS for module in missing(extra)}
    found = []
    for line in requires:
        name, minimum, extra = _requirement(line)
        if extra is not None and extra not in USER_EXTRAS:
            continue
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = None
        ok = version is not None and (minimum is None or _version_tuple(version) >= _version_tuple(minimum))
        if name.lower() in unimportable:
            ok, version = False, None
        needed_for = EXTRA_USE.get(extra, f"cardgen[{extra}]") if extra else "build"
        detail = f"needs {minimum} or newer" if minimum else ""
        if version is not None and not ok:
            detail = f"version {version} is too old; " + detail
        install = {"pip": f"pip install 'cardgen[{extra}]'" if extra else f"pip install '{name}>={minimum}'"
                   if minimum else f"pip install {name}"}
        found.append(Check(name, "package", ok, version, needed_for, extra is None, detail,
                           {} if ok else install))
    return found


def _requirement(line: str) -> tuple[str, str | None, str | None]:
    """(name, minimum version, extra) of a requirement line such as ``dask[distributed]>=2024.1; extra == "sweep"``."""
    name = re.match(r"[A-Za-z0-9._-]+", line.strip())
    minimum = re.search(r">=\s*([0-9][0-9A-Za-z.]*)", line.split(";")[0])
    extra = re.search(r"""extra\s*==\s*["']([^"']+)["']""", line)
    return (name.group(0) if name else line, minimum.group(1) if minimum else None,
            extra.group(1) if extra else None)


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:4])


def _weasyprint_libraries() -> list[Check]:
    """Pango and HarfBuzz as WeasyPrint loads them (its import fails when they are missing)."""
    needed = "build (rulebooks, through WeasyPrint)"
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):  # WeasyPrint prints a help text before it raises
            from weasyprint.text.ffi import harfbuzz, pango
    except ImportError as error:
        reason = f"WeasyPrint is not installed ({error}); install cardgen's packages first"
        return [Check(name, "library", False, None, needed, True, reason, SYSTEM_INSTALL[name])
                for name in ("Pango", "HarfBuzz")]
    except OSError as error:  # a library cffi could not load
        reason = f"WeasyPrint cannot load its libraries: {error}"
        return [Check(name, "library", False, None, needed, True, reason, SYSTEM_INSTALL[name])
                for name in ("Pango", "HarfBuzz")]
    number = pango.pango_version()  # 15012 for 1.50.12
    pango_version = (number // 10000, number // 100 % 100, number % 100)
    pango_ok = pango_version >= MIN_PANGO
    shown = ".".join(map(str, pango_version))
    return [
        Check("Pango", "library", pango_ok, shown, needed, True,
              "" if pango_ok else f"WeasyPrint needs {'.'.join(map(str, MIN_PANGO))} or newer",
              {} if pango_ok else SYSTEM_INSTALL["Pango"]),
        Check("HarfBuzz", "library", True, ".".join(map(str, _harfbuzz_version(harfbuzz))), needed, True),
    ]


def _harfbuzz_version(harfbuzz) -> tuple[int, int, int]:
    """The loaded HarfBuzz's version, found with the one query WeasyPrint declares (hb_version_atleast)."""
    def highest(fixed: tuple[int, ...], limit: int) -> int:
        low, high = 0, limit  # hb_version_atleast is monotonic in each place once the ones before are fixed
        while low < high:
            middle = (low + high + 1) // 2
            parts = (*fixed, middle, *(0,) * (2 - len(fixed)))
            if harfbuzz.hb_version_atleast(*parts):
                low = middle
            else:
                high = middle - 1
        return low

    major = highest((), 999)
    minor = highest((major,), 999)
    return major, minor, highest((major, minor), 999)


def _program(name: str, commands: tuple[str, ...], version_args: tuple[str, ...], needed_for: str,
             package: str) -> Check:
    path = next((found for command in commands if (found := shutil.which(command))), None)
    if path is None:
        return Check(name, "program", False, None, needed_for, False, f"none of {', '.join(commands)} on PATH",
                     SYSTEM_INSTALL[package])
    try:
        done = subprocess.run([path, *version_args], capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL)
        text = (done.stdout + done.stderr).strip()
    except (OSError, subprocess.SubprocessError) as error:
        return Check(name, "program", False, None, needed_for, False, f"{path} does not run: {error}",
                     SYSTEM_INSTALL[package])
    version = re.search(r"\d+(?:\.\d+)+", text)
    return Check(name, "program", True, version.group(0) if version else None, needed_for, False, path)


def _cache() -> Check:
    from cardgen.content import memo

    needed = "speed only (cardgen works without it)"
    if os.environ.get("CARDGEN_CACHE", "").lower() in {"off", "0", "no", "false"}:
        return Check("cache folder", "folder", True, None, needed, False, "off (CARDGEN_CACHE)")
    folder = memo.cache_folder()
    if folder is None:
        return Check("cache folder", "folder", False, None, needed, False,
                     "cannot be used (no home folder, a read-only file system, or a folder other users may write)",
                     {"all": "set CARDGEN_CACHE_DIR to a folder of your own, or CARDGEN_CACHE=off"})
    probe = folder / f".doctor-{os.getpid()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        return Check("cache folder", "folder", False, None, needed, False, f"{folder} is not writable: {error}",
                     {"all": "set CARDGEN_CACHE_DIR to a folder of your own, or CARDGEN_CACHE=off"})
    return Check("cache folder", "folder", True, None, needed, False, str(folder.parent))


__all__ = ["Check", "PLATFORMS", "SYSTEM_INSTALL", "checks", "exit_code"]
