"""``fuzzeval plot ...``: pictures into plots/ (PNG by default; a .svg name gives SVG)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fuzzeval.cli.common import console, open_rulebase, picture_for, user_errors

app = typer.Typer(help="Draw pictures (PNG by default; give a .svg name for SVG).",
                  no_args_is_help=True)

OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Image file.")]
CalibrationOpt = Annotated[int | None, typer.Option(
    "--calibration", help="Which calibration in the database (default: the latest).")]


def _is_database(spec: str) -> bool:
    path = Path(spec)
    return path.suffix in (".sqlite", ".db", ".sqlite3") or (
        path.is_file() and path.read_bytes()[:16] == b"SQLite format 3\x00")


def _calibration(db: Path, calibration: int | None):  # type: ignore[no-untyped-def]
    from fuzzeval.calibration import load_calibration
    from fuzzeval.store import History, HistoryError

    if not db.is_file():
        raise HistoryError(f"{db}: no such database")
    with History(db, readonly=True) as history:
        return load_calibration(history, calibration)


@app.command()
def membership(
    source: Annotated[str, typer.Argument(
        help="Rule-base file or shipped name; or a calibration database.")],
    round_: Annotated[str, typer.Option(
        "--round", help="With a database: the two rule bases to overlay, e.g. first,last "
                        "or 0,5 (round k's rule base is the one it played with).")]
    = "first,last",
    calibration: CalibrationOpt = None,
    output: OutputOpt = None,
) -> None:
    """Draw every variable's membership functions, or a calibration's before and after."""
    from fuzzeval.plots import plot_membership, plot_membership_compare

    with user_errors():
        if not _is_database(source):
            rb = open_rulebase(source)
            path = plot_membership(rb, output or Path("plots") / f"{rb.name}_membership.png")
        else:
            cal = _calibration(Path(source), calibration)
            last = len(cal.finished_rounds)

            def pick(word: str) -> int:
                k = {"first": 0, "last": last}.get(word.strip())
                k = int(word) if k is None else k
                if not 0 <= k <= last:
                    raise ValueError(f"--round {word}: rounds 0..{last} are stored")
                return k

            a, b = (pick(w) for w in round_.split(","))
            rbs = {r.round: r for r in cal.results}
            path = plot_membership_compare(
                rbs[a].rulebase(), rbs[b].rulebase(),
                output or picture_for(Path(source), f"rounds_{a}_{b}", "_calibration", cal.id),
                (f"before round {a + 1}" if a < last else "calibrated",
                 f"before round {b + 1}" if b < last else f"after round {b}"))
    console.print(f"wrote {path}")


@app.command()
def drift(db: Annotated[Path, typer.Argument(help="Calibration database.")],
          calibration: CalibrationOpt = None, output: OutputOpt = None) -> None:
    """Each adjustable point's position per round, with the winning mean it was pulled to."""
    from fuzzeval.plots import plot_drift

    with user_errors():
        cal = _calibration(db, calibration)
        path = plot_drift(cal, output or picture_for(db, "drift", "_calibration", cal.id))
    console.print(f"wrote {path}")


@app.command()
def curve(dbs: Annotated[list[Path], typer.Argument(help="Calibration database(s).")],
          calibration: CalibrationOpt = None, output: OutputOpt = None) -> None:
    """Win rate per calibration round with its 95% interval (Fuzzeval's Fig. 5); several
    databases draw several lines."""
    from fuzzeval.plots import plot_win_curve

    with user_errors():
        cals = [_calibration(db, calibration) for db in dbs]
        # one database: its own picture; several: one picture of the game's calibrations
        default = picture_for(dbs[0], "curve", "_calibration", cals[0].id) if len(dbs) == 1 \
            else Path("plots") / f"{cals[0].settings.game}_curve.png"
        path = plot_win_curve(cals, output or default)
    console.print(f"wrote {path}")
