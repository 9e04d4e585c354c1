"""``fuzzeval tune GAME``: CMA-ES on a rule base's adjustable points, for the game's measure."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import (
    GAME_HELP,
    SEED_MAX,
    DaskOpt,
    JsonOpt,
    ResumeOpt,
    WorkersOpt,
    console,
    db_option,
    err_console,
    measures_table,
    phases,
    print_json,
    progress_bar,
    say_files,
    stopped,
    stored_run,
    user_errors,
)
from fuzzeval.cli.outputs import Input, Output, check_outputs

if TYPE_CHECKING:  # the library is imported when the command runs, not at start-up
    from fuzzeval.learn.tune import Generation, Tuned, TuneJob, Tuning


#: the command's options, each with its help (the signature lists them with their defaults)
RulebaseOpt = Annotated[str | None, typer.Option(
    help="Rule base to tune (path or shipped name); default: the game's.")]
BudgetOpt = Annotated[int, typer.Option(
    help="Evaluations of the measure at most (each a rule base on every training "
         "deal).")]
DealsOpt = Annotated[int, typer.Option(
    "--training-deals", help="Training deals: the deals the measure is tuned on.")]
HeldOutOpt = Annotated[int, typer.Option(
    "--held-out-deals", help="Held-out deals for the game's own measure of the rule "
                             "base before and after (a seed no training uses); 0 skips "
                             "it.")]
OutputsOpt = Annotated[bool, typer.Option(
    "--outputs/--points-only",
    help="Also tune the output terms that declare 'bounds:', within them (default), or "
         "only the 'adjust:' points.")]
SigmaOpt = Annotated[float, typer.Option(
    help="CMA-ES's first step, as a share of each variable's range.")]
PopsizeOpt = Annotated[int, typer.Option(
    help="Rule bases a generation (0: CMA-ES's default, 4 + 3 ln d).")]
SeedOpt = Annotated[int, typer.Option(
    min=0, max=SEED_MAX, help="Seed of the training deals and of CMA-ES.")]
DbOpt = Annotated[Path | None, db_option("runs/GAME_tune.sqlite")]
OutputOpt = Annotated[Path | None, typer.Option(
    "--output", "-o",
    help="Output file: the tuned rule base; default runs/GAME_tune.tuned.yaml (next to "
         "--db).")]


def tune(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    rulebase: RulebaseOpt = None,
    budget: BudgetOpt = 8000,
    deals: DealsOpt = 3000,
    held_out: HeldOutOpt = 10_000,
    outputs: OutputsOpt = True,
    sigma: SigmaOpt = 0.1,
    popsize: PopsizeOpt = 0,
    seed: SeedOpt = 1,
    db: DbOpt = None,
    output: OutputOpt = None,
    workers: WorkersOpt = 2,
    dask: DaskOpt = None,
    resume: ResumeOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Tune a rule base with CMA-ES for the game's own measure (cribbage: discard efficiency).

    Searches the points marked 'adjust:' (points of a variable standing together move as one) and the output values that declare 'bounds:' (within them; the others stay as written and keep the unit), on seeded training deals; reports held-out deals before and after. Stopped at any moment, run the same command with --resume.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    from fuzzeval.formats.yaml_edit import rewrite_points
    from fuzzeval.learn.tune import TUNINGS, TuneSettings, load_tuning, tune_into, tune_job
    from fuzzeval.play.estimate import Stopwatch
    from fuzzeval.play.executors import executor_for
    from fuzzeval.play.spec import check_held_out

    with user_errors():
        settings = TuneSettings(game_name, deals, seed, outputs, sigma, popsize)
        check_held_out(held_out)
        job = tune_job(settings, rulebase, budget)
        game, settings, lam = job.game, job.settings, job.lam
        path = db or TUNINGS.default_path(game.name)
        target = output or path.with_name(f"{path.stem}.tuned.yaml")
        check_outputs([Output("--db", path, "database"),
                       Output("--output" if output else "the tuned rule base", target,
                              "rulebase", "" if output else "-o")],
                      [Input("--rulebase", job.path)])
        # the same tuning run again continues it, or shows it
        done = stored_run(path, TUNINGS, settings, job.source, resume, load_tuning,
                          lambda t: t.evaluations, 1 + lam * ((budget - 1) // lam))
        bar = progress_bar(disable=as_json)
        # a generation is a batch of rule bases, steadier than one game: two timed in the
        # later half are enough (four made a slow tuning say it at 99 s)
        evaluated = done.evaluations if done else 0
        watch = Stopwatch(0 if as_json else max(0, budget - evaluated - (
            0 if evaluated else 1)) // lam, lambda line: err_console.print(line, markup=False),
            unit="generation", at_least=2)

        def step(g: Generation) -> None:
            bar.update(bar.task_ids[0], completed=g.evaluations,
                       description=f"tuning: best {g.best:.4f}")
            watch.tick()
        # the executor first: an unreachable cluster fails before a database is made; then
        # the measure: a rule base the game cannot measure is refused before any row
        with executor_for(workers, dask) as pool, bar, \
                stopped(path, lambda: TUNINGS.saved_in(path, settings, job.source)):
            tuned = tune_into(path, job, rulebase or game.default_rulebase, held_out, pool,
                              resume, phases(bar), lambda k: bar.advance(bar.task_ids[0], k),
                              step)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rewrite_points(job.source, tuned.rulebase))
    if as_json:
        tuning = tuned.tuning
        print_json({"tuning_id": tuning.id, "db": str(path), "rulebase": job.start.name,
                    "tuned": str(target), "evaluations": tuning.evaluations,
                    "generations": len(tuning.generations), "training_best": _best(tuning),
                    "searched": [p.label for p in job.space.params],
                    "stopped_by": list(tuned.stopped_by),
                    "held_out": [c.to_dict() for c in tuned.held_out]})
    else:
        _print(job, tuned, held_out, target, path)


def _best(tuning: Tuning) -> float:
    """The best measure on the training deals (NaN before a generation)."""
    return tuning.generations[-1].best if tuning.generations else float("nan")


def _print(job: TuneJob, tuned: Tuned, held_out: int, target: Path, path: Path) -> None:
    """The search's generations and best, why CMA-ES stopped, the held-out measures."""
    tuning, start, why = tuned.tuning, job.start, tuned.stopped_by
    table = Table(title=f"{job.game.name}: tuning {start.name} with CMA-ES on "
                        f"{job.settings.deals:,} deals ({job.space.dimension} numbers)",
                  title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("generations", "evaluations", "best on training deals"):
        table.add_column(col, justify="right")
    table.add_row(str(len(tuning.generations)), f"{tuning.evaluations:,}",
                  f"{_best(tuning):.4f}")
    console.print(table)
    if why:
        console.print(f"CMA-ES stopped by itself after {len(tuning.generations)} "
                      f"generations, before the budget: {'; '.join(why)}", markup=False,
                      highlight=False)
    if tuned.held_out:
        console.print(measures_table(f"{start.name} before and after tuning, on {held_out:,} "
                                     "held-out deals", tuned.held_out, "start", "tuned"))
    say_files(f"tuned rule base: {target}\nhistory: {path}")
