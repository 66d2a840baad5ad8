"""The ``cardgen`` command line: parse, call the library, report, exit.

Each sub-command lives in its own module and is imported only when it runs,
so ``cardgen validate`` never pays for reportlab or weasyprint.  Library
errors (:class:`cardgen.errors.CardgenError`) become exit code 1 with their
messages; click's own usage errors keep exit code 2.  A disk that is full (or
over quota, read-only) while a command writes is such an error too (:data:`WRITE_ERRNOS`):
every writer puts a file in place whole or not at all, so the message says what failed.
``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

import click

from cardgen.errors import WRITE_ERRNOS, CardgenError, ContentErrors

# name -> "module:attribute"; a new command is one line here plus its module.
COMMANDS: dict[str, str] = {
    "build": "cardgen.cli.build:build",
    "validate": "cardgen.cli.validate:validate",
    "schema": "cardgen.cli.validate:schema",
    "answers": "cardgen.cli.answers:answers",
    "simulate": "cardgen.cli.simulate:simulate",
    "sweep": "cardgen.cli.sweep:sweep",
    "i18n": "cardgen.cli.i18n:i18n",
    "new": "cardgen.cli.new:new",
    "preview": "cardgen.cli.preview:preview",
    "preflight": "cardgen.cli.preflight:preflight",
    "serve": "cardgen.cli.serve:serve",
    "upgrade": "cardgen.cli.upgrade:upgrade",
    "examples": "cardgen.cli.examples:examples",
    "doctor": "cardgen.cli.doctor:doctor",
}


@dataclass
class Settings:
    """Options of the top-level group, passed to every command."""

    content_dir: Path
    debug: bool
    content_given: bool = False  # --content was given (not the default folder)


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        return getattr(importlib.import_module(module_name), attribute)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except CardgenError as error:
            if ctx.obj is not None and ctx.obj.debug:
                raise
            raise LibraryFailure(error) from None
        except ModuleNotFoundError as error:  # an optional library a path did not check for first
            from cardgen.extras import MissingExtra, extra_of

            extra = extra_of(error.name or "")
            if extra is None or (ctx.obj is not None and ctx.obj.debug):
                raise
            raise LibraryFailure(MissingExtra(extra, [error.name or ""], ctx.invoked_subcommand)) from None
        except OSError as error:
            if error.errno not in WRITE_ERRNOS or (ctx.obj is not None and ctx.obj.debug):
                raise
            raise LibraryFailure(write_failure(error)) from None


def write_failure(error: OSError, target: Path | None = None) -> CardgenError:
    """A failed write (a full disk ...) as a library error naming the file when it is known."""
    from cardgen.errors import Locator
    from cardgen.fileio import WriteError

    where = target or (Path(error.filename) if error.filename else None)
    return WriteError(f"cannot write: {error.strerror or error}; a file being written is never left half-written",
                      Locator(file=where) if where is not None else None)


class LibraryFailure(click.ClickException):
    """A library error shown as plain messages, exit code 1."""

    exit_code = 1

    def __init__(self, error: CardgenError):
        super().__init__(str(error))
        self.error = error

    def show(self, file=None) -> None:
        if isinstance(self.error, ContentErrors):
            for item in self.error.errors:
                click.secho(f"error: {item}", err=True, fg="red")
            click.secho(f"{self.error.message}; nothing was written.", err=True, fg="red", bold=True)
        else:
            click.secho(f"error: {self.error}", err=True, fg="red")


def default_content_dir() -> Path:
    """``content/`` of the current folder; run from a source checkout without one, the checkout's games.

    An installed cardgen never falls back to its bundled games (they are examples to copy,
    ``cardgen examples copy``): a folder without ``content/`` has no games, and the commands say so.
    """
    from cardgen import resources

    here = Path.cwd() / "content"
    if here.is_dir() or not resources.in_checkout():
        return here
    return resources.EXAMPLES


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--content",
    "content_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of game content (default: ./content).",
)
@click.option("--debug", is_flag=True, help="Show a traceback for library errors.")
@click.version_option(package_name="cardgen")
@click.pass_context
def cli(ctx: click.Context, content_dir: Path | None, debug: bool) -> None:
    """Validate, simulate and print card games from YAML sources."""
    ctx.obj = Settings(content_dir=content_dir or default_content_dir(), debug=debug,
                       content_given=content_dir is not None)


def main(argv: list[str] | None = None) -> None:
    cli.main(args=argv, prog_name="cardgen")
