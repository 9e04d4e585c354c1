"""``fuzzeval evaluate-calibration DB``: the initial and calibrated rule bases, held out."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import (
    DEALS_MAX,
    GAMES_MAX,
    SEED_MAX,
    DaskOpt,
    WorkersOpt,
    console,
    json_option,
    print_json,
    progress_bar,
    stopped,
    user_errors,
)
from fuzzeval.errors import NotFound

if TYPE_CHECKING:
    from fuzzeval.play.store import History


def evaluate_calibration(
    db: Annotated[Path, typer.Argument(help="Calibration database.")],
    games: Annotated[int, typer.Option("--games", "-n", min=2, max=GAMES_MAX,
                                       help="Held-out games for each rule base.")] = 1000,
    deals: Annotated[int, typer.Option(
        "--held-out-deals", min=1, max=DEALS_MAX,
        help="Held-out deals for the game's own measure of each rule base (cribbage: discard "
             "efficiency).")] = 2000,
    seed: Annotated[int | None, typer.Option(min=0, max=SEED_MAX,
        help="Held-out seed (default: the calibration's, in a family no round uses).")] = None,
    calibration: Annotated[int | None, typer.Option(
        help="Which calibration in the database (default: the latest).")] = None,
    workers: WorkersOpt = 2,
    dask: DaskOpt = None,
    as_json: Annotated[bool, json_option("the results")] = False,
) -> None:
    """Does calibration help? The initial and calibrated rule bases on held-out games.

    Both play the calibration's opponent on the same held-out games (common random
    numbers), with a paired interval for the difference, plus the game's own measure.
    """
    # the library is imported when the command runs, not at start-up
    from fuzzeval.learn.calibration_rounds import load_calibration
    from fuzzeval.learn.held_out import evaluate_calibration as evaluate
    from fuzzeval.play.executors import executor_for
    from fuzzeval.play.history import HistoryError
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.store import History

    with user_errors():
        if not db.is_file():
            raise NotFound(f"{db}: no such database")
        if db.stat().st_size == 0:  # not made into a history only to find none stored
            raise HistoryError(f"{db}: an empty file, not a fuzzeval history")
        # the executor first: an unreachable cluster fails before the database is written
        with executor_for(workers, dask) as pool, History(db) as history:
            cal = load_calibration(history, calibration)
            game = load_game(cal.settings.game)
            with stopped(db, lambda: _games(history),
                         "run the same command to finish it"), \
                    progress_bar("held-out games", as_json) as bar:
                task = bar.add_task("games", total=2 * games)
                result = evaluate(history, game, cal, games, seed, pool, deals,
                                  db.resolve().parent / "cache",
                                  on_game=lambda _r: bar.advance(task))
    if as_json:
        print_json({"calibration_id": cal.id, "rounds": len(cal.finished_rounds),
                    "opponent": cal.settings.opponent, **result.to_dict()})
        return
    measured = f" and {deals:,} held-out deals" if result.measures else ""
    table = Table(title=f"{cal.rulebase_name} before and after {len(cal.finished_rounds)} "
                        f"rounds of calibration, against {cal.settings.opponent}: {games:,} "
                        f"held-out games{measured} each (seed {result.seed})",
                  title_justify="left", box=box.SIMPLE_HEAD)
    # 80 columns: each interval on its own line, the paired ones as ± (they are symmetric)
    table.add_column("measure")
    for col in ("initial", "calibrated", "change (paired 95%)"):
        table.add_column(col, justify="right", no_wrap=True)
    i, c = result.initial, result.calibrated
    lo, hi = result.interval
    if i.win_rate is not None and c.win_rate is not None:
        table.add_row("win rate", f"{i.win_rate:.1%}", f"{c.win_rate:.1%}",
                      f"{result.difference:+.1%} ± {(hi - lo) / 2:.1%}")
        table.add_row("  95% interval", _span(i.interval), _span(c.interval), "",
                      style="dim")
    else:  # a game without winners: the table's mean beaten, and the payoff itself
        table.add_row("beat the table's mean", f"{result.rates[0]:.1%}",
                      f"{result.rates[1]:.1%}",
                      f"{result.difference:+.1%} ± {(hi - lo) / 2:.1%}")
        plo, phi = result.payoff_interval
        table.add_row(i.unit, f"{i.mean:.3f}", f"{c.mean:.3f}",
                      f"{result.payoff_difference:+.3f} ± {(phi - plo) / 2:.3f}")
    if i.mean_margin is not None and c.mean_margin is not None:
        table.add_row("mean final margin", f"{i.mean_margin:+.2f}", f"{c.mean_margin:+.2f}",
                      f"{c.mean_margin - i.mean_margin:+.2f}")
    for m in result.measures:
        lo, hi = m.interval
        table.add_row(m.name, f"{m.before:.4f}", f"{m.after:.4f}",
                      f"{m.difference:+.4f} ± {(hi - lo) / 2:.4f}")
    console.print(table)


def _span(interval: tuple[float, float]) -> str:
    """A win rate's interval, short: 53.4–59.5%."""
    return f"{interval[0]:.1%}".removesuffix("%") + f"–{interval[1]:.1%}"


def _games(history: History) -> str:
    """What a stopped evaluation has stored: games (its matches continue on a rerun)."""
    return f"{history.games_stored()} games"
