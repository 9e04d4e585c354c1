"""The ``fuzzeval`` command. Each command group is a module that only adapts:
parse arguments, call the library, print tables or JSON."""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Sequence
from functools import cache
from importlib.metadata import EntryPoint
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from fuzzeval.cli.common import err_console, help_when_bare, say_error, stop_code, stop_told
from fuzzeval.errors import Terminated
from fuzzeval.play.registry import command_entry_points

#: the root's own commands and groups, in the order --help lists them, before the games':
#: name, module, and the typer app or function the module holds
_COMMANDS = (
    ("rulebase", "rulebase", "app"),
    ("plot", "plot", "app"),
    ("history", "history", "app"),
    ("openspiel", "openspiel", "app"),
    ("evaluate", "evaluate", "evaluate"),
    ("calibrate", "calibrate", "calibrate"),
    ("evaluate-calibration", "evaluate_calibration", "evaluate_calibration"),
    ("match", "match", "match"),
    ("tournament", "tournament", "tournament"),
    ("tune", "tune", "tune"),
    ("learn", "learn", "learn"),
    ("play", "play", "play"),
    ("studio", "studio", "studio"),
)


class _OneLineErrors(TyperGroup):
    """The root group: Click's own usage errors (an unknown option, a value out of range, a
    missing argument) print as one 'error:' line with exit 2, like fuzzeval's own errors,
    instead of a usage text and a box: one convention for scripts and for people. A command
    stopped where it has nothing to save says so in one line and exits 130 (Ctrl-C) or 143
    (SIGTERM); typer would exit 130 for both, silently."""

    def invoke(self, ctx: Any) -> Any:  # Click's Context, whichever click typer uses
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            why, code = stop_code(exc)
            if not stop_told():  # a second signal while a told stop cleans up: quiet
                err_console.print(why, markup=False, highlight=False)
            raise typer.Exit(code) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        _finite_floats(self)
        _flowing_help(self)
        stop_told(forget=True)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, windows_expand_args,
                              **extra)
        except typer.Abort:
            err_console.print("aborted", markup=False, highlight=False)
            sys.exit(1)
        except Exception as exc:  # Click's exceptions, whichever click typer uses
            message, code = getattr(exc, "format_message", None), getattr(exc, "exit_code", None)
            if message is None or not isinstance(code, int):
                raise
            text = str(message())
            if type(exc).__name__ == "NoArgsIsHelpError":  # the help text itself
                if text:
                    typer.echo(text, err=True)
                sys.exit(code)
            ctx = getattr(exc, "ctx", None)
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            say_error(f"{text}{hint}")
            sys.exit(code)
        sys.exit(rv if isinstance(rv, int) else 0)


def _finite_floats(command: Any) -> None:
    """Every number option of every command refuses ``inf`` and ``nan``, which Click's float
    reads as numbers and which no option means: one usage error, as for ``x``."""
    for param in command.params:
        kind = param.type
        if any(c.__name__ == "FloatParamType" for c in type(kind).__mro__) and \
                not getattr(kind, "finite", False):
            param.type = _finite(kind)
    for sub in getattr(command, "commands", {}).values():
        _finite_floats(sub)


def _flowing_help(command: Any) -> None:
    """Each paragraph of every command's help as one line, which the help screen wraps to
    its width: the docstrings' own line ends, kept by typer, left a word or two alone on a
    line in 80 columns. A paragraph of list items or indented lines is kept as written."""
    text = getattr(command, "help", None)
    if text:
        command.help = "\n\n".join(
            " ".join(part.split()) if not any(
                line.lstrip().startswith(("-", "*", "•")) or line.startswith(" ")
                for line in part.splitlines()) else part
            for part in text.split("\n\n"))
    for sub in getattr(command, "commands", {}).values():
        _flowing_help(sub)


def _finite(kind: Any) -> Any:
    """A copy of a Click float type (its range and help kept) that refuses non-finite
    values."""
    import copy
    import math

    checked = copy.copy(kind)

    def convert(value: Any, param: Any, ctx: Any) -> Any:
        number = kind.convert(value, param, ctx)
        if not math.isfinite(number):
            checked.fail(f"{value!r} is not a finite number", param, ctx)
        return number

    checked.convert = convert
    checked.finite = True
    return checked


def _print_version(value: bool) -> None:
    if value:
        from fuzzeval import __version__  # the package metadata: read when asked for

        typer.echo(f"fuzzeval {__version__}")
        raise typer.Exit(0)


def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_print_version,
        help="Print the version and exit.")] = False,
) -> None:
    """``fuzzeval`` alone prints the help (exit 0); ``--version`` the installed version."""
    help_when_bare(ctx)


def build_app(only: str | None = None) -> typer.Typer:
    """The ``fuzzeval`` command: every command and group, or only the one named ``only``.
    Building a command reads its options' signatures and imports its module, so a command
    run by name builds just itself (--help lists them all)."""
    app = typer.Typer(
        name="fuzzeval",
        cls=_OneLineErrors,
        help="Fuzzy-rule evaluation for card and board games: grade, explain, calibrate.",
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback(invoke_without_command=True)(_root)
    for name, module, attribute in _COMMANDS:
        if only in (None, name):
            command = getattr(importlib.import_module(f"fuzzeval.cli.{module}"), attribute)
            if isinstance(command, typer.Typer):
                app.add_typer(command, name=name)
            else:
                app.command(name)(command)
    if only is None or all(only != name for name, _, _ in _COMMANDS):
        for ep in _game_commands():  # game commands: fuzzeval cribbage ...
            if only in (None, ep.name):
                app.add_typer(ep.load(), name=ep.name)
    return app


@cache
def _game_commands() -> list[EntryPoint]:
    """The installed games' command groups, read once a process (``_named`` and
    ``build_app`` both ask)."""
    return command_entry_points()


@cache
def _whole_app() -> typer.Typer:
    return build_app()


def __getattr__(name: str) -> typer.Typer:
    """``fuzzeval.cli.app``: the whole command (tests run it), built when first asked for."""
    if name == "app":
        return _whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _named(args: Sequence[str]) -> str | None:
    """The command or group that ``args`` start with, when they start with one."""
    if not args:
        return None
    if any(args[0] == name for name, _, _ in _COMMANDS):
        return args[0]
    return args[0] if any(ep.name == args[0] for ep in _game_commands()) else None


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def _one_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
              line: str | None = None) -> str:
    """A warning as the command prints its own (e.g. a renamed rule base's deprecation): one
    'warning:' line, not Python's two lines of file, number and source."""
    return f"warning: {message}\n"


def _thread_errors(args: threading.ExceptHookArgs) -> None:
    """CPython 3.11's process pool, broken while it shuts down (its workers killed by the
    same SIGTERM as the parent), sets an exception on a future the shutdown had cancelled,
    and its manager thread dies with InvalidStateError: nothing is lost (the stop is
    already told), so that traceback is not shown. Any other thread's error is."""
    from concurrent.futures import InvalidStateError

    if args.exc_type is InvalidStateError and \
            type(args.thread).__module__ == "concurrent.futures.process":
        return
    threading.__excepthook__(args)


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    threading.excepthook = _thread_errors
    warnings.formatwarning = _one_line
    try:
        build_app(_named(sys.argv[1:]))()
    except SystemExit as exc:
        if exc.code in (130, 143):  # stopped: its line is out, its finished work saved
            # A process pool broken by the same signal can hang the interpreter's exit,
            # which joins the pool's threads (CPython 3.11): leave without them.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(exc.code)
        raise
