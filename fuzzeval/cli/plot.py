"""``fuzzeval plot ...``: pictures into plots/ (PNG by default; a .svg name gives SVG)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fuzzeval.cli.common import (
    command_group,
    open_rulebase,
    picture_for,
    picture_option,
    resolve_rulebase,
    say_files,
    usage_error,
    user_errors,
)
from fuzzeval.cli.outputs import Input, Output, check_outputs
from fuzzeval.errors import NotFound

app = command_group("Draw pictures (PNG by default; give a .svg name for SVG).")

OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Image file.")]
CalibrationOpt = Annotated[int | None, typer.Option(
    "--calibration", help="Which calibration in the database (default: the latest).")]


def _is_database(spec: str) -> bool:
    path = Path(spec)
    return path.suffix in (".sqlite", ".db", ".sqlite3") or (
        path.is_file() and path.read_bytes()[:16] == b"SQLite format 3\x00")


def _calibration(db: Path, calibration: int | None):  # type: ignore[no-untyped-def]
    from fuzzeval.learn.calibration_rounds import load_calibration
    from fuzzeval.play.store import History

    if not db.is_file():
        raise NotFound(f"{db}: no such database")
    with History(db, readonly=True) as history:
        return load_calibration(history, calibration)


def _check(output: Path | None, inputs: list[Input]) -> None:
    """-o never names what the picture is drawn from (a database named like a picture)."""
    from fuzzeval.plots import image_path

    if output is not None:
        check_outputs([Output("--output", image_path(output), "picture")], inputs)


def _label(index: int, last: int) -> str:
    """A rule base's legend: initial, after round N, or calibrated (after the last round)."""
    if index == 0:
        return "initial"
    return f"calibrated (after round {index})" if index == last else f"after round {index}"


def _two_rounds(spec: str, last: int) -> tuple[int, int]:
    """--round A,B: each first, last or a number from 0 to the last finished round; anything
    else is a usage error naming what is stored."""
    words = [w.strip() for w in spec.split(",")]
    if len(words) != 2:
        raise usage_error(f"--round {spec}: give two rule bases as A,B, e.g. first,last or "
                          f"0,{last}")
    picked = []
    for word in words:
        k = {"first": 0, "last": last}.get(word)
        if k is None:
            k = int(word) if word.isdigit() else -1
        if not 0 <= k <= last:
            raise usage_error(f"--round {spec}: {word!r} is not first, last or a number "
                              f"0..{last} (the rule bases stored)")
        picked.append(k)
    return picked[0], picked[1]


@app.command()
def membership(
    source: Annotated[str, typer.Argument(
        help="Rule-base file or shipped name; or a calibration database.")],
    round_: Annotated[str, typer.Option(
        "--round", help="With a database: the two rule bases to overlay, A,B: first or 0 "
                        "(the initial one), N (the one after round N; rounds count from 1) "
                        "or last (the calibrated one), e.g. first,last or 0,5.")]
    = "first,last",
    calibration: CalibrationOpt = None,
    output: OutputOpt = None,
) -> None:
    """Draw every variable's membership functions, or a calibration's before and after."""
    from fuzzeval.plots import plot_membership, plot_membership_compare

    picture_option("--output", output)
    with user_errors():
        if not _is_database(source):
            _check(output, [Input("RULEBASE", resolve_rulebase(source))])
            rb = open_rulebase(source)
            path = plot_membership(rb, output or Path("plots") / f"{rb.name}_membership.png")
        else:
            _check(output, [Input("DB", Path(source))])
            cal = _calibration(Path(source), calibration)
            last = len(cal.finished_rounds)
            a, b = _two_rounds(round_, last)
            rbs = {r.round: r for r in cal.results}
            path = plot_membership_compare(
                rbs[a].rulebase(), rbs[b].rulebase(),
                output or picture_for(Path(source), f"rounds_{a}_{b}", "_calibration", cal.id),
                (_label(a, last), _label(b, last)))
    say_files(f"wrote {path}")


@app.command()
def drift(db: Annotated[Path, typer.Argument(help="Calibration database.")],
          calibration: CalibrationOpt = None, output: OutputOpt = None) -> None:
    """Each adjustable point's position per round (points that move together as one line),
    with the winning mean it was pulled to; beside it the variable's terms before and after."""
    from fuzzeval.plots import plot_drift

    picture_option("--output", output)
    with user_errors():
        _check(output, [Input("DB", db)])
        cal = _calibration(db, calibration)
        path = plot_drift(cal, output or picture_for(db, "drift", "_calibration", cal.id))
    say_files(f"wrote {path}")


@app.command()
def curve(dbs: Annotated[list[Path], typer.Argument(help="Calibration database(s).")],
          calibration: CalibrationOpt = None, output: OutputOpt = None) -> None:
    """Win rate per calibration round with its 95% interval (Fuzzeval's Fig. 5); several
    databases draw several lines."""
    from fuzzeval.plots import plot_win_curve

    picture_option("--output", output)
    with user_errors():
        _check(output, [Input("DB", db) for db in dbs])
        cals = [_calibration(db, calibration) for db in dbs]
        # one database: its own picture; several: one picture of the game's calibrations
        default = picture_for(dbs[0], "curve", "_calibration", cals[0].id) if len(dbs) == 1 \
            else Path("plots") / f"{cals[0].settings.game}_curve.png"
        path = plot_win_curve(cals, output or default)
    say_files(f"wrote {path}")
