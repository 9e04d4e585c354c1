"""``fuzzeval calibrate GAME``: calibration matches, round after round, resumable."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from fuzzeval.cli.common import (
    DEALS_MAX,
    GAME_HELP,
    SEED_MAX,
    DaskOpt,
    ResumeOpt,
    WorkersOpt,
    console,
    db_option,
    err_console,
    json_option,
    measures_table,
    no_o,
    picture_for,
    picture_option,
    print_json,
    progress_bar,
    say_files,
    stopped,
    stored_run,
    user_errors,
)
from fuzzeval.cli.outputs import Input, Output, check_outputs

if TYPE_CHECKING:  # the library is imported when the command runs, not at start-up
    from rich.progress import Progress

    from fuzzeval.learn.calibration_rounds import Calibration, RoundResult, Window, WinUnit
    from fuzzeval.learn.measure import Comparison
    from fuzzeval.play.estimate import Stopwatch
    from fuzzeval.play.rows import GameRows


#: the command's options, each with its help (the signature lists them with their defaults)
RulebaseOpt = Annotated[str | None, typer.Option(
    help="Rule base to calibrate (path or shipped name); default: the game's.")]
OpponentOpt = Annotated[str | None, typer.Option(
    "--opponent", help="Opponent: NAME or NAME:key=value,...; default: the game's "
                       "(cribbage: exhaustive, backgammon: pubeval).")]
OpponentOOpt = Annotated[str | None, typer.Option(
    "-o", hidden=True, help="Not an option here: refused, saying so.")]
SeedOpt = Annotated[int, typer.Option(
    min=0, max=SEED_MAX,
    help="Seed; round N (from 1) plays with SeedSequence(\\[seed, N - 1]).")]
DbOpt = Annotated[Path | None, db_option("runs/GAME_calibration.sqlite")]
WinUnitOpt = Annotated[str, typer.Option(
    help="Winning decisions are those of won games (the paper), or of won deals.")]
WindowOpt = Annotated[str, typer.Option(
    help="Calibrate from this round's winning decisions, or from all rounds so far.")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", help="Game option key=value, e.g. peg_counts=false.")]
PlotOpt = Annotated[Path | None, typer.Option(
    help="Drift picture; default plots/<db name>_drift.png "
         "(runs/GAME_calibration.sqlite: plots/GAME_drift.png).")]
DealsOpt = Annotated[int, typer.Option(
    "--held-out-deals", min=0, max=DEALS_MAX,
    help="Held-out deals for the game's own measure of the rule base before and after "
         "(cribbage: discard efficiency); 0 skips it.")]


def calibrate(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    rulebase: RulebaseOpt = None,
    opponent: OpponentOpt = None,
    opponent_o: OpponentOOpt = None,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds of play-then-calibrate.")] = 5,
    games_per_round: Annotated[int, typer.Option(min=1, help="Games in each round.")] = 100,
    rate: Annotated[float, typer.Option(help="Eq. 1's rate.")] = 0.1,
    seed: SeedOpt
    = 1,
    db: DbOpt = None,
    workers: WorkersOpt = 2,
    dask: DaskOpt = None,
    win_unit: WinUnitOpt
    = "game",
    window: WindowOpt
    = "round",
    resume: ResumeOpt = False,
    option: OptionOpt = None,
    plot: PlotOpt = None,
    deals: DealsOpt = 10_000,
    as_json: Annotated[bool, json_option("the rounds")] = False,
) -> None:
    """Calibrate a rule base by playing, round after round (Fuzzeval's eq. 1).

    Each round plays a match, then moves every 'adjust:' point toward the mean of its
    inputs in winning decisions. Stopped at any moment, run the same command again; run
    again when finished, it shows the stored calibration.
    """
    from fuzzeval.learn.calibration_rounds import (
        CALIBRATIONS,
        CalibrationSettings,
        calibrated_path,
        calibration_job,
        load_calibration,
        summary_rows,
    )
    from fuzzeval.learn.calibration_run import calibrate_into
    from fuzzeval.play.estimate import Stopwatch
    from fuzzeval.play.executors import executor_for
    from fuzzeval.play.game import GameHooks, hook
    from fuzzeval.plots import image_path, plot_drift

    no_o("calibrate", opponent_o)
    with user_errors():
        asked = CalibrationSettings(game_name, opponent or "", games_per_round, seed, rate,
                                    cast("WinUnit", win_unit), cast("Window", window))
        picture_option("--plot", plot)
        job = calibration_job(asked, rulebase, rounds, option or [])
        game, settings = job.game, job.settings
        path = db or CALIBRATIONS.default_path(game.name)
        check_outputs([Output("--db", path, "database"),
                       *([Output("--plot", image_path(plot), "picture")] if plot else []),
                       Output("the calibrated rule base", calibrated_path(path), "rulebase",
                              "--db")],
                      [Input("--rulebase", job.path)])
        stored = stored_run(path, CALIBRATIONS, settings, job.source, resume,
                            load_calibration, lambda c: len(c.finished_rounds), rounds)
        done = 0 if stored is None else len(stored.finished_rounds)
        # with the bar, the estimate of a long calibration (not with --json)
        then = (f", then {deals:,} held-out deals (timed as they start)"
                if deals and hook(game, GameHooks.rulebase_measure) is not None else "")
        shown = _Shown(rounds, games_per_round, as_json,
                       Stopwatch(0 if as_json else max(0, rounds - done) * games_per_round,
                                 lambda line: err_console.print(line + then, markup=False,
                                                                highlight=False)))
        saved = partial(CALIBRATIONS.saved_in, path, settings, job.source)
        # the executor first: an unreachable cluster fails before a database is made
        with executor_for(workers, dask) as pool, stopped(path, saved), shown:
            result = calibrate_into(path, job, deals, pool, resume,
                                    on_round_start=shown.start, on_game=shown.ended,
                                    on_round=shown.finished, on_phase=shown.held_out,
                                    on_advance=shown.advance)
        cal, held_out = result.calibration, result.held_out
        final = calibrated_path(path)
        final.write_text(cal.final_yaml())
        picture = plot_drift(cal, plot or picture_for(path, "drift", "_calibration", cal.id))
    if as_json:
        print_json({"calibration_id": cal.id, "db": str(path), "rulebase": cal.rulebase_name,
                    "opponent": settings.opponent, "calibrated": str(final),
                    "plot": str(picture), "rounds": summary_rows(cal),
                    "held_out": [c.to_dict() for c in held_out]})
    else:
        _print(cal, game.name, rounds, held_out, deals, final, picture, path)


class _Shown:
    """How a calibration is shown: a bar of each round's games (a resumed round's stored
    games counted), the time estimate and a line as each round ends; then a bar of its
    held-out deals, once the rounds' is gone."""

    def __init__(self, rounds: int, games: int, quiet: bool, watch: Stopwatch) -> None:
        self.rounds, self.games, self.quiet, self.watch = rounds, games, quiet, watch
        self.bar = progress_bar(disable=quiet)
        self.task = self.bar.add_task("calibration", total=games)
        self.deals: Progress | None = None

    def __enter__(self) -> _Shown:
        self.bar.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        for bar in (self.bar, self.deals):
            if bar is not None:
                bar.stop()

    def start(self, k: int, stored_games: int) -> None:
        self.bar.reset(self.task, total=self.games, description=f"round {k + 1}/{self.rounds}",
                       completed=stored_games)

    def ended(self, _record: GameRows) -> None:
        self.bar.advance(self.task)
        self.watch.tick()

    def finished(self, r: RoundResult) -> None:
        if not self.quiet:
            lo, hi = r.interval
            moved = sum(1 for m in r.moves if m.shift != 0)
            self.bar.console.print(f"round {r.round + 1}: win rate {r.win_rate:.1%} "
                                   f"({lo:.1%}–{hi:.1%}), {moved} points moved")

    def held_out(self, description: str, total: int) -> None:
        self.bar.stop()
        self.deals = progress_bar(description, self.quiet)
        self.deals.start()
        self.deals.add_task("deals", total=total)

    def advance(self, k: int) -> None:
        if self.deals is not None:
            self.deals.advance(self.deals.task_ids[0], k)


def _print(cal: Calibration, game: str, rounds: int, held_out: tuple[Comparison, ...],
           deals: int, final: Path, picture: Path, path: Path) -> None:
    """The rounds' win rates and moves, the held-out measures, and where the files are."""
    from fuzzeval.learn.calibration_rounds import summary_rows

    s = cal.settings
    # escaped: a title reads rich markup, and the opponent's name is as typed
    table = Table(title=escape(f"{game}: calibrating {cal.rulebase_name} against {s.opponent}"
                               f", {s.games_per_round} games a round, rate {s.rate:g}"),
                  title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("round", "win rate (95%)", "points moved", "mean |shift|"):
        table.add_column(col, justify="right")
    rows = summary_rows(cal)
    for row in rows:
        lo, hi = row["interval95"]
        table.add_row(str(row["round"]), f"{row['win_rate']:.1%} ({lo:.1%}–{hi:.1%})",
                      str(row["points_moved"]), f"{row['mean_abs_shift']:.4f}")
    console.print(table)
    if len(rows) > rounds:
        console.print(f"({len(rows)} rounds are stored, more than the {rounds} asked for: all "
                      "are shown, and the calibrated rule base is the last one's)",
                      highlight=False)
    if held_out:
        console.print(measures_table(
            f"{cal.rulebase_name} before and after calibration, on {deals:,} held-out deals",
            held_out))
    say_files(f"calibrated rule base: {final}\ndrift: {picture}\nhistory: {path}")
