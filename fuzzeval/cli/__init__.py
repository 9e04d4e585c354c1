"""The ``fuzzeval`` command. Each command group is a module that only adapts:
parse arguments, call the library, print tables or JSON."""

from __future__ import annotations

import signal
from typing import Annotated

import typer

from fuzzeval import __version__
from fuzzeval.cli import (
    calibrate,
    evaluate,
    evaluate_calibration,
    match,
    plot,
    rulebase,
    tournament,
    tune,
)
from fuzzeval.cli.common import help_when_bare
from fuzzeval.errors import Terminated
from fuzzeval.registry import command_entry_points

app = typer.Typer(
    name="fuzzeval",
    help="Fuzzy-rule evaluation for card and board games: grade, explain, calibrate.",
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"fuzzeval {__version__}")
        raise typer.Exit(0)


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_print_version,
        help="Print the version and exit.")] = False,
) -> None:
    """``fuzzeval`` alone prints the help (exit 0); ``--version`` the installed version."""
    help_when_bare(ctx)


app.add_typer(rulebase.app, name="rulebase")
app.add_typer(plot.app, name="plot")
app.command()(evaluate.evaluate)
app.command()(calibrate.calibrate)
app.command("evaluate-calibration")(evaluate_calibration.evaluate_calibration)
app.command()(match.match)
app.command()(tournament.tournament)
app.command()(tune.tune)
for _ep in command_entry_points():  # game commands: fuzzeval cribbage ...
    app.add_typer(_ep.load(), name=_ep.name)


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    app()
