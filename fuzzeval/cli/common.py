"""What every command shares: turning user errors into one line, finding rule bases."""

from __future__ import annotations

import json
import math
import sys
import warnings
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from fuzzeval.errors import FuzzevalError, RuleBaseWarning, Terminated, UsageError
from fuzzeval.play.registry import game_names
from fuzzeval.play.spec import DEALS_MAX as DEALS_MAX
from fuzzeval.play.spec import GAMES_MAX as GAMES_MAX
from fuzzeval.play.spec import SEED_MAX as SEED_MAX
from fuzzeval.resources import find_rulebase

if TYPE_CHECKING:
    from rich.progress import Progress

    from fuzzeval.engine.rulebase import RuleBase
    from fuzzeval.learn.measure import Comparison
    from fuzzeval.play.game import Game, Player
    from fuzzeval.play.runs import RunKind, Settings
    from fuzzeval.play.store import History


class _Stored(Protocol):
    @property
    def id(self) -> int: ...


R = TypeVar("R", bound=_Stored)

#: no emoji anywhere: a file, player or command name may hold ``:hand:``, printed as typed
console = Console(emoji=False)
err_console = Console(stderr=True, soft_wrap=True, emoji=False)
#: the GAME argument's help, naming the games installed (entry points, read once)
GAME_HELP = f"Installed game: {', '.join(game_names()) or 'none'}."
#: every command's --workers/-w: the same spelling, default (2) and check (at least 1)
WorkersOpt = Annotated[int, typer.Option(
    "--workers", "-w", min=1, help="Local worker processes (1: all work in this process).")]


def json_option(what: str = "the result") -> Any:
    """Every command's --json, declared here once: the help names what the command prints
    as JSON (``what``: the summary, the rounds, the rule base, ...)."""
    return typer.Option("--json", help=f"Print {what} as JSON.")


def db_option(default: str) -> Any:
    """--db of every command that stores its games, declared here once: the help names the
    command's default file (``default``, e.g. runs/GAME_tune.sqlite)."""
    return typer.Option("--db", help=f"History database (SQLite); default {default}.")


#: --json of the commands whose JSON is their result (evaluate, tune, learn, the games')
JsonOpt = Annotated[bool, json_option()]
#: --resume of every stored run (match, calibrate, tune, learn): open_kind's sequence
ResumeOpt = Annotated[bool, typer.Option(
    "--resume", help="Continue the stored run with these settings, and fail if there is "
                     "none (without it, the same command continues or shows it too, or "
                     "starts one).")]
#: every command that plays many games: --dask ADDRESS, the same spelling and help; the
#: executor is fuzzeval.play.executors.executor_for(workers, dask) in each
DaskOpt = Annotated[str | None, typer.Option(
    "--dask", metavar="ADDRESS", help="Run the games on this Dask scheduler's workers "
                                      "instead of local processes, e.g. tcp://host:8786 "
                                      "(extra: pip install 'fuzzeval\\[dask]').")]
#: match and calibrate: -o was the opponent; -o is the output file everywhere else
def no_o(command: str, value: str | None) -> None:
    """``-o`` is every other command's output: in ``match`` and ``calibrate``, which write
    only their --db, it was the opponent; now it is refused in one line that says both."""
    if value is not None:
        raise usage_error(f"-o {value}: {command} has no -o: it writes its games to --db, "
                          "and its opponent is --opponent (-o is an output elsewhere)")


def progress_bar(label: str = "{task.description}", disable: bool = False,
                 eta: bool = True) -> Progress:
    """The progress bar every long command shows on stderr: label, bar, done of total and,
    with ``eta``, the time left; gone when done. rich.progress is imported here, on use.
    Not shown where stderr is no terminal: rich draws nothing there but a stray empty line
    at the end, which made an error's one line two (a log, ``2> file``, a pipe)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = [TextColumn(label), BarColumn(), MofNCompleteColumn()]
    if eta:
        columns.append(TimeRemainingColumn())
    return Progress(*columns, console=err_console,
                    disable=disable or not err_console.is_terminal, transient=True)


def phases(bar: Progress) -> Callable[[str, int | None], None]:
    """A run's ``on_phase``: its bar's one task (``bar.task_ids[0]``), added by the first
    phase and reset by each later one to its description and total (None: unknown)."""
    def phase(description: str, total: int | None) -> None:
        if bar.task_ids:
            bar.reset(bar.task_ids[0], total=total, description=description)
        else:
            bar.add_task(description, total=total)
    return phase


def columns_that_fit(columns: Sequence[str], width: int, always: Collection[str] = (),
                     wide: Collection[str] = ()) -> tuple[list[str], list[str]]:
    """A table's columns, in order, while they fit ``width`` without cutting a name: a
    column takes its name's width or a number's 6 characters (12 for the ``wide`` ones,
    cards), and 3 for the space between; the ``always`` ones are shown whatever the width.
    Returns (shown, hidden): the caller says where the hidden ones are (--json)."""
    used, shown, hidden = 0, [], []
    for col in columns:
        need = max(len(col), 12 if col in wide else 6) + 3
        if col in always or used + need <= width:
            shown.append(col)
            used += need
        else:
            hidden.append(col)
    return shown, hidden


def named_player(game: Game, text: str, **extra: Any) -> Player:
    """The player written ``text`` (``NAME[:key=value,...]``, options ``extra`` added), as a
    match makes it: every player the game has, the game-agnostic ones included; a
    ValueError, TypeError or FuzzevalError says what is wrong."""
    from fuzzeval.play.match import make_player
    from fuzzeval.play.spec import PlayerSpec

    spec = PlayerSpec.parse(text)
    return make_player(game, spec.name, **dict(spec.options), **extra)


def player_option(game: Game, text: str, option: str = "--player", **extra: Any) -> Player:
    """``named_player`` for a command's option: what is wrong is a usage error (exit 2) in
    one line naming the option (a missing optional extra as every command says it)."""
    from fuzzeval.errors import MissingExtra

    try:
        return named_player(game, text, **extra)
    except MissingExtra as exc:
        raise usage_error(str(exc)) from None
    except (FuzzevalError, ValueError, TypeError) as exc:
        raise usage_error(f"{option} {text}: {exc}") from None


def fold(text: str, more: int = 2, width: int = 80) -> list[str]:
    """A line of a story or of advice as lines of at most ``width`` columns (a longer word
    stays whole): the next ones ``more`` spaces further in than its words, which start
    after its indent and a move's number ("  12. "), so none is level with a line of its
    own."""
    import re
    import textwrap

    numbered = re.match(r" *\d+\. ", text)
    words = numbered.end() if numbered else len(text) - len(text.lstrip(" "))
    return textwrap.wrap(text, width=width, subsequent_indent=" " * (words + more),
                         break_long_words=False, break_on_hyphens=False) or [""]


def say_error(message: str) -> None:
    """One ``error: ...`` line on stderr, printed as written: no markup, no emoji (a file
    name or an ACPC line may hold ``[b]`` or ``:hand:``)."""
    err_console.print(f"error: {message}", markup=False, highlight=False, emoji=False)


def say_files(line: str) -> None:
    """A line naming files a command wrote (``wrote PATH``, ``history: PATH``) on stdout,
    printed as written: a file name may hold ``[bold]`` (rich markup) or ``:hand:``."""
    console.print(line, markup=False, highlight=False, emoji=False)


def usage_error(message: str) -> typer.Exit:
    """Print a usage error as one line on stderr; raise the returned Exit (code 2)."""
    say_error(message)
    return typer.Exit(2)


def help_when_bare(ctx: typer.Context) -> None:
    """A group's callback: the group alone (``fuzzeval``, ``fuzzeval plot``) prints its help
    and exits 0, since asking for the menu is not a mistake (Click's no_args_is_help exits 2)."""
    if ctx.invoked_subcommand is None:
        text = ctx.get_help()  # the rich formatter prints it and returns ""
        if text:
            typer.echo(text)
        raise typer.Exit(0)


def command_group(help: str) -> typer.Typer:
    """A group of commands (``fuzzeval plot``, ``fuzzeval hearts``, ...) that, alone,
    prints its help and exits 0 (``help_when_bare``)."""
    group = typer.Typer(help=help)
    group.callback(invoke_without_command=True)(help_when_bare)
    return group


def picture_option(name: str, path: Path | None) -> None:
    """Refuse a picture name that cannot be written (a folder, an extension other than
    .png, .svg or .pdf) as a usage error before any work, not after a long run."""
    if path is None:
        return
    from fuzzeval.plots import image_path  # imported by the commands that draw only

    if path.is_dir():
        raise usage_error(f"{name} {path}: a folder; give a file name, e.g. {path / 'x.png'}")
    try:
        image_path(path)
    except ValueError as exc:
        raise usage_error(f"{name} {exc}") from None


def player_list(player: list[str] | None) -> list[str] | None:
    """The players of repeated -p NAME[:key=value,...]; None if none was given."""
    return [p.strip() for p in player] if player else None


@contextmanager
def user_errors() -> Iterator[None]:
    """Print the user's mistakes as 'error: ...' lines without a traceback: exit 2 for a
    usage error (unknown game, player or option), 1 for a failure (a file that will not do)."""
    try:
        yield
    except (FuzzevalError, OSError, ValueError, KeyError) as exc:
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        for line in str(text).splitlines():
            say_error(line)
        raise typer.Exit(2 if isinstance(exc, UsageError) else 1) from None


def resolve_rulebase(spec: str) -> Path:
    """A path if it exists, else the name of a shipped rule base (``tipping``)."""
    return find_rulebase(spec)


def open_rulebase(spec: str) -> RuleBase:
    """Load a rule base, printing its warnings on stderr."""
    from fuzzeval.formats.loading import load_rulebase

    path = resolve_rulebase(spec)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuleBaseWarning)
        rb = load_rulebase(path)
    for w in caught:
        err_console.print(str(w.message), markup=False, highlight=False, style="yellow")
    return rb


def say_stored(path: Path, what: str, done: int, wanted: int, unit: str,
               doing: str = "playing", resuming: bool = False) -> None:
    """One line on stderr when a run's database already holds it with the same settings:
    the run continues it (the same command twice repeats no game and is no error), and
    the line says which it did and how to start another instead; with --resume
    (``resuming``), what it resumes, as loud as a plain run again."""
    kind = what.split()[0]
    if done < wanted:
        did = f"{done:,} of {wanted:,} {unit}s: {doing} only the {wanted - done:,} it lacks"
    else:
        did = f"all {wanted:,} {unit}s: shown without {doing} again"
    line = (f"{path}: resuming {what}, {did}" if resuming else
            f"{path} already holds {what} with these settings, {did} (for a new {kind}, "
            "change --seed or --db)")
    err_console.print(line, markup=False, highlight=False)


def stored_run(path: Path, kind: RunKind, settings: Settings, source: str | None,
               resume: bool, look: Callable[[History, int], R], done: Callable[[R], int],
               wanted: int) -> R | None:
    """What a run of ``kind`` does first: its refusals (``open_kind``), then, when the
    database already holds it, the stored run (as ``look`` reads it) and ``say_stored``'s
    line, in the kind's words; None when there is none yet."""
    from fuzzeval.play.runs import open_kind

    stored = open_kind(path, kind, settings, source, resume, look)
    if stored is not None:
        say_stored(path, f"{kind.name} {stored.id}", done(stored), wanted, kind.unit,
                   kind.doing, resuming=resume)
    return stored


def picture_for(db: Path, what: str, default_suffix: str = "", number: int = 1) -> Path:
    """The default picture of a run: plots/<database name>_<what>.png, so runs into other
    databases keep their own pictures. The default database's suffix is dropped
    (runs/cribbage_calibration.sqlite gives plots/cribbage_drift.png), and a database's
    second calibration onwards gets its number (plots/x_drift_2.png)."""
    stem = db.stem.removesuffix(default_suffix) or db.stem
    return Path("plots") / f"{stem}_{what}{'' if number == 1 else f'_{number}'}.png"


def measures_table(title: str, comparisons: tuple[Comparison, ...], before: str = "initial",
                   after: str = "calibrated") -> Table:
    """Before and after of a game's own measures, with the paired 95 % interval (80 columns)."""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("measure")
    for col in (before, after, "change (paired 95%)"):
        table.add_column(col, justify="right")
    for c in comparisons:
        lo, hi = c.interval
        table.add_row(c.name, f"{c.before:.4f}", f"{c.after:.4f}",
                      f"{c.difference:+.4f} ± {(hi - lo) / 2:.4f}")
    return table


def stop_code(exc: KeyboardInterrupt) -> tuple[str, int]:
    """How a stopped run is told and what it exits with: Ctrl-C 130, SIGTERM 143."""
    return ("terminated", 143) if isinstance(exc, Terminated) else ("interrupted", 130)


#: the stops told so far in this process, in their lines (``stop_told``)
_STOPS: list[str] = []


def stop_told(line: str | None = None, forget: bool = False) -> bool:
    """Whether a stop has been told in its line (``line``: record one): a second signal
    during the clean-up after it is not told again, as a bare word. ``forget``: a new
    command starts (tests run many in one process)."""
    if forget:
        _STOPS.clear()
    if line is not None:
        _STOPS.append(line)
    return bool(_STOPS)


@contextmanager
def stopped(path: Path, saved: Callable[[], str | None],
            then: str = "run the same command with --resume") -> Iterator[None]:
    """How a run into a database ends early, in one line that says what is saved
    (``saved``: e.g. "12 of 100 games", read then; None: nothing yet) and what to do:
    Ctrl-C 130, SIGTERM 143, a dead worker 1, a database that cannot be written (a full
    disk) 1."""
    import sqlite3
    from concurrent.futures.process import BrokenProcessPool

    def say(why: str) -> None:
        try:
            done = saved()
            line = f"{done} are saved in {path}; {then}" if done is not None else \
                "nothing is saved yet; run the same command to start again"
        except sqlite3.Error:  # the database cannot be read either: say what is certain
            line = f"all finished work is saved in {path}; {then}"
        err_console.print(f"{why}: {line}", markup=False, highlight=False)
        stop_told(f"{why}: {line}")
    try:
        yield
    except KeyboardInterrupt as exc:
        why, code = stop_code(exc)
        say(why)
        raise typer.Exit(code) from None
    except BrokenProcessPool:
        say("a worker process died")
        raise typer.Exit(1) from None
    except sqlite3.OperationalError as exc:  # a full disk, a file size limit, I/O
        say(f"error: {path} cannot be written ({exc}; is the disk full?)")
        raise typer.Exit(1) from None


def _json_key(key: Any) -> Any:
    if isinstance(key, float) and not math.isfinite(key):
        return repr(float(key))
    return key


def strict_json_value(data: Any) -> Any:
    """``data`` with every non-finite float spelt as the string "inf", "-inf" or "nan".

    Strict JSON has no Infinity or NaN, so they become strings that ``float()`` reads
    back; numpy scalars and arrays become plain Python numbers and lists.
    """
    np = sys.modules.get("numpy")  # no numpy loaded: no numpy values to convert
    if np is not None and isinstance(data, np.ndarray | np.generic):
        data = data.tolist()
    if isinstance(data, float):
        return float(data) if math.isfinite(data) else repr(float(data))
    if isinstance(data, dict):
        return {_json_key(k): strict_json_value(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [strict_json_value(v) for v in data]
    return data


def json_line(data: Any) -> str:
    """``data`` as one line of strict JSON (quick when every number is finite)."""
    try:
        return json.dumps(data, allow_nan=False)
    except (ValueError, TypeError):
        return json.dumps(strict_json_value(data), allow_nan=False)


def print_json(data: Any) -> None:
    """Print ``data`` as strict JSON (non-finite numbers as "inf", "-inf", "nan")."""
    text = json.dumps(strict_json_value(data), indent=2, allow_nan=False)
    sys.stdout.write(text + "\n")
