"""``fuzzeval tune GAME``: CMA-ES on a rule base's adjustable points, for the game's measure."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import (
    DEALS_MAX,
    GAME_HELP,
    SEED_MAX,
    DaskOpt,
    WorkersOpt,
    console,
    err_console,
    measures_table,
    print_json,
    progress_bar,
    resolve_rulebase,
    say_stored,
    stopped,
    user_errors,
)
from fuzzeval.cli.outputs import Input, Output, check_outputs

if TYPE_CHECKING:  # the library is imported when the command runs, not at start-up
    from fuzzeval.learn.tune import Generation, TuneSettings


def _usage(message: str) -> typer.Exit:
    err_console.print(f"error: {message}", markup=False, highlight=False)
    return typer.Exit(2)


def tune(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    rulebase: Annotated[str | None, typer.Option(
        help="Rule base to tune (path or shipped name); default: the game's.")] = None,
    budget: Annotated[int, typer.Option(
        help="Evaluations of the measure at most (each a rule base on every training "
             "deal).")] = 8000,
    deals: Annotated[int, typer.Option(
        "--training-deals", help="Training deals: the deals the measure is tuned on.")] = 3000,
    held_out: Annotated[int, typer.Option(
        "--held-out-deals", help="Held-out deals for the game's own measure of the rule "
                                 "base before and after (a seed no training uses); 0 skips "
                                 "it.")] = 10_000,
    outputs: Annotated[bool, typer.Option(
        "--outputs/--points-only",
        help="Also tune the output terms that declare 'bounds:', within them (default), or "
             "only the 'adjust:' points.")] = True,
    sigma: Annotated[float, typer.Option(
        help="CMA-ES's first step, as a share of each variable's range.")] = 0.1,
    popsize: Annotated[int, typer.Option(
        help="Rule bases a generation (0: CMA-ES's default, 4 + 3 ln d).")] = 0,
    seed: Annotated[int, typer.Option(
        min=0, max=SEED_MAX, help="Seed of the training deals and of CMA-ES.")] = 1,
    db: Annotated[Path | None, typer.Option(
        help="History database; default runs/GAME_tune.sqlite.")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o",
        help="Output file: the tuned rule base; default runs/GAME_tune.tuned.yaml (next to "
             "--db).")] = None,
    workers: WorkersOpt = 2,
    dask: DaskOpt = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Finish the stored tuning with these settings.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Tune a rule base with CMA-ES for the game's own measure (cribbage: discard efficiency).

    Searches the points marked 'adjust:' (points of a variable standing together move as one) and the output values that declare 'bounds:' (within them; the others stay as written and keep the unit), on seeded training deals; reports held-out deals before and after. Stopped at any moment, run the same command with --resume.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    from fuzzeval.errors import FuzzevalError
    from fuzzeval.formats.loading import load_rulebase_text, read_rulebase_text
    from fuzzeval.formats.yaml_edit import rewrite_points
    from fuzzeval.learn.held_out import held_out_seed
    from fuzzeval.learn.measure import compare
    from fuzzeval.learn.tune import (
        RUNNING,
        SIGMA_MIN,
        Space,
        TuneSettings,
        find_tuning,
        load_tuning,
        made_by,
        popsize_of,
        run_tuning,
        running_key,
        stopped_by,
        tuned_name,
    )
    from fuzzeval.play.estimate import Stopwatch
    from fuzzeval.play.executors import executor_for
    from fuzzeval.play.game import GameHooks, hook
    from fuzzeval.play.history import HistoryError, require_for_resume
    from fuzzeval.play.match import check_rulebase_player
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.store import History

    for name, value, low in (("--budget", budget, 1), ("--training-deals", deals, 1),
                             ("--held-out-deals", held_out, 0),
                             ("--popsize", popsize, 0)):
        if value < low:
            raise _usage(f"{name} must be at least {low} (got {value})")
    for name, value in (("--training-deals", deals), ("--held-out-deals", held_out)):
        if value > DEALS_MAX:
            raise _usage(f"{name} must be at most {DEALS_MAX:,} (got {value:,})")
    if not SIGMA_MIN <= sigma <= 1:
        raise _usage(f"--sigma must be in [{SIGMA_MIN:g}, 1], a share of each point's range "
                     f"(got {sigma:g})")
    if popsize == 1:
        raise _usage("--popsize must be 0 (CMA-ES's default) or at least 2 (got 1)")
    with user_errors():
        game = load_game(game_name)
        build = hook(game, GameHooks.rulebase_measure)
        if build is None:
            raise _usage(f"{game.name} offers no measure of a rule base to tune for")
        source_path = resolve_rulebase(rulebase or game.default_rulebase)
        source = read_rulebase_text(source_path)
        start = load_rulebase_text(source, str(source_path))
        if game.rulebase_player:
            check_rulebase_player(game, source_path)  # before any file is made
        rewrite_points(source, start)  # its points can be written back (no YAML aliases)
        try:
            space = Space.of(start, outputs)
        except FuzzevalError as exc:  # the conclusions' scale would be free
            raise FuzzevalError(f"{source_path}: {exc}") from None
        if space.dimension == 0:
            raise _usage(f"{source_path}: rule base {start.name!r} has nothing to tune: mark "
                         "points 'adjust:'" + (" or give output terms 'bounds:'" if outputs
                                               else " or use --outputs"))
        settings = TuneSettings(game.name, deals, seed, outputs, sigma, popsize)
        lam = popsize_of(space, settings)
        if budget < lam + 1:
            raise _usage(f"--budget {budget} is less than the start and one generation "
                         f"({1 + lam} rule bases)")
        path = db or Path("runs") / f"{game.name}_tune.sqlite"
        target = output or path.with_name(f"{path.stem}.tuned.yaml")
        check_outputs([Output("--db", path, "database"),
                       Output("--output" if output else "the tuned rule base", target,
                              "rulebase", "" if output else "-o")],
                      [Input("--rulebase", source_path)])
        if resume:
            require_for_resume(path)
            with History(path) as history:  # before any costly work: is there one?
                if find_tuning(history, settings, source) is None:
                    raise HistoryError(f"{path}: no tuning to resume with these settings and "
                                       "this rule base; run without --resume to start one")
        done = 0  # evaluations already stored
        if path.is_file():  # the same tuning run again continues it, or shows it
            with History(path) as history:
                history.check_free(running_key(settings, source), RUNNING)  # before work
                stored = find_tuning(history, settings, source)
                if stored is not None:
                    done = load_tuning(history, stored).evaluations
                    # the start and whole generations: what budget allows
                    say_stored(path, f"tuning {stored}", done, 1 + lam * ((budget - 1) // lam),
                               "evaluation", "running", resuming=resume)
        cache = path.resolve().parent / "cache"
        bar = progress_bar(disable=as_json)
        # the executor first: an unreachable cluster fails before a database is made; then
        # the measure: a rule base the game cannot measure is refused before any row
        with executor_for(workers, dask) as pool, bar, \
                stopped(path, lambda: _saved(path, settings, source)):
            task = bar.add_task("training deals: exact values", total=2 * deals)
            measure = build(start.input_names, deals, seed, pool, cache,
                            lambda k: bar.advance(task, k))
            if measure is None:
                raise _usage(f"{source_path}: {game.name} has no measure of rule base "
                             f"{start.name!r} (inputs {', '.join(start.input_names)}) to "
                             "tune for; tune a rule base of what the game measures")
            bar.reset(task, total=budget, description="tuning")
            first = 0 if done else 1  # the start is evaluated with the first generation
            # a generation is a batch of rule bases, steadier than one game: two timed
            # in the later half are enough (four made a slow tuning say it at 99 s)
            watch = Stopwatch(0 if as_json else max(0, budget - done - first) // lam,
                              lambda line: err_console.print(line, markup=False),
                              unit="generation", at_least=2)

            def step(g: Generation) -> None:
                bar.update(task, completed=g.evaluations,
                           description=f"tuning: best {g.best:.4f}")
                watch.tick()
            with History(path) as history:
                tuning = run_tuning(history, space, measure, settings, source, budget,
                                    pool, resume, on_generation=step)
                why = stopped_by(history, tuning.id)
            tuned = replace(space.at(tuning.best_x(space)), name=tuned_name(start.name),
                            made_by=made_by(settings, rulebase or game.default_rulebase,
                                            budget, tuning.evaluations))
            bar.reset(task, total=2 * held_out, description="held-out deals: exact values")
            held = build(start.input_names, held_out, held_out_seed(seed), pool, cache,
                         lambda k: bar.advance(task, k)) if held_out else None
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rewrite_points(source, tuned))
    comparisons = compare(held, start, tuned) if held is not None else ()
    best = tuning.generations[-1].best if tuning.generations else float("nan")
    if as_json:
        print_json({"tuning_id": tuning.id, "db": str(path), "rulebase": start.name,
                    "tuned": str(target), "evaluations": tuning.evaluations,
                    "generations": len(tuning.generations), "training_best": best,
                    "searched": [p.label for p in space.params], "stopped_by": list(why),
                    "held_out": [c.to_dict() for c in comparisons]})
        return
    table = Table(title=f"{game.name}: tuning {start.name} with CMA-ES on {deals:,} deals "
                        f"({space.dimension} numbers)", title_justify="left",
                  box=box.SIMPLE_HEAD)
    for col in ("generations", "evaluations", "best on training deals"):
        table.add_column(col, justify="right")
    table.add_row(str(len(tuning.generations)), f"{tuning.evaluations:,}", f"{best:.4f}")
    console.print(table)
    if why:
        console.print(f"CMA-ES stopped by itself after {len(tuning.generations)} "
                      f"generations, before the budget: {'; '.join(why)}", markup=False,
                      highlight=False)
    if comparisons:
        console.print(measures_table(f"{start.name} before and after tuning, on {held_out:,} "
                                     "held-out deals", comparisons, "start", "tuned"))
    console.print(f"tuned rule base: {target}\nhistory: {path}")


def _saved(path: Path, settings: TuneSettings, source: str) -> str | None:
    """What a stopped tuning has stored: its generations (read when it stops); None before
    it is stored (stopped while measuring the training deals)."""
    from fuzzeval.learn.tune import find_tuning, load_tuning
    from fuzzeval.play.store import History

    if not path.is_file():
        return None
    with History(path, readonly=True) as history:
        stored = find_tuning(history, settings, source)
        if stored is None:
            return None
        return f"{len(load_tuning(history, stored).generations)} generations"
