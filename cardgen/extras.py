"""The optional parts of cardgen's install: which command needs which extra, and the message
that says what to install when one is missing.

``pip install cardgen`` brings what cards and rulebooks need; a command that alone uses a
heavy library names it as an extra in ``pyproject.toml`` (``cardgen[sweep]``: Dask and
matplotlib, ``cardgen[studio]``: watchfiles, ``cardgen[print-shops]``: pikepdf for
the preflight and the CMYK PDF/X files of ``build --printer``, ``cardgen[all]``: every one).  Before such a command
starts, :func:`require` checks that the extra's modules can be found (without importing them:
Dask alone takes a second) and raises :class:`MissingExtra`, which the command line shows as
one line with the install command, exit code 1.
"""

from __future__ import annotations

import importlib.util

from cardgen.errors import CardgenError

#: extra -> the modules it brings that cardgen imports
EXTRAS: dict[str, tuple[str, ...]] = {
    "sweep": ("dask", "distributed", "matplotlib"),
    "studio": ("watchfiles",),
    "print-shops": ("pikepdf",),
}
#: command -> the extra it needs
COMMANDS: dict[str, str] = {"sweep": "sweep", "serve": "studio", "preflight": "print-shops",
                            "build --printer": "print-shops"}


class MissingExtra(CardgenError):
    """A command needs an optional part of cardgen that is not installed."""

    def __init__(self, extra: str, modules: list[str], command: str | None = None):
        self.extra, self.modules = extra, modules
        who = f"'cardgen {command}'" if command else "this command"
        named = ", ".join(modules)
        super().__init__(f"{who} needs {named}, which {'comes' if len(modules) == 1 else 'come'} with cardgen's "
                         f"'{extra}' extra; install it with: {install_command(extra)}")


def install_command(extra: str) -> str:
    return f"pip install 'cardgen[{extra}]'"


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    absent = []
    for module in EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(module)
        except (ImportError, ValueError):  # a parent that fails to import; a module set to None
            found = None
        if found is None:
            absent.append(module)
    return absent


def require(command: str) -> None:
    """Raise :class:`MissingExtra` when the extra ``command`` (a key of :data:`COMMANDS`) needs is not
    (wholly) installed."""
    extra = COMMANDS[command]
    absent = missing(extra)
    if absent:
        raise MissingExtra(extra, absent, command)


def extra_of(module: str) -> str | None:
    """The extra that brings ``module`` (or a module of its package), if any."""
    top = module.split(".")[0]
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


__all__ = ["COMMANDS", "EXTRAS", "MissingExtra", "extra_of", "install_command", "missing", "require"]
