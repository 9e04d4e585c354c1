"""``fuzzeval learn GAME``: TD(λ) on the conclusions of a conjunction rule base."""

from __future__ import annotations

from functools import partial
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
    phases,
    picture_for,
    print_json,
    progress_bar,
    resolve_rulebase,
    say_files,
    stopped,
    stored_run,
    user_errors,
)
from fuzzeval.cli.outputs import Input, Output, check_outputs

if TYPE_CHECKING:  # the library is imported when the command runs, not at start-up
    from fuzzeval.learn.td_runs import Block, Learn
    from fuzzeval.play.game import Game


#: the command's options, each with its help (the signature lists them with their defaults)
GamesOpt = Annotated[int, typer.Option(
    "--games", "-n", help="Games to play in all, learning from them (a whole number "
                          "of blocks).")]
BlockOpt = Annotated[int, typer.Option(
    help="Games between two commits to --db (a whole number of updates).")]
UpdateOpt = Annotated[int, typer.Option(
    help="TD(λ): games played with the same conclusions, then their steps added (1: "
         "after every game, as Sturtevant & White's; more lets the workers share them).")]
HalvingOpt = Annotated[int, typer.Option(
    help="TD(λ): the step size's schedule, --alpha / (1 + games so far / this): "
         "halved after this many games (0: constant).")]
LamOpt = Annotated[float, typer.Option(
    "--lambda", help="TD(λ): λ in [0, 1]; 0 learns from the next value, 1 from the "
                     "payoff (Sturtevant & White: 0.75).")]
AlphaOpt = Annotated[float, typer.Option(
    help="TD(λ): a decision's step size, above 0, divided among the rules that fire "
         "by their strength (Sturtevant & White's normalised step).")]
OpponentOpt = Annotated[str, typer.Option(
    help="Opponent: 'self' (every seat learns) or a player of the game in the other "
         "seats.")]
RulebaseOpt = Annotated[str | None, typer.Option(
    help="Rule base to start from (weighted_sum) instead of a generated one.")]
OrderOpt = Annotated[int, typer.Option(
    help="Generated start: conjunctions of at most this many atoms (1 to 4).")]
MinShareOpt = Annotated[float, typer.Option(
    help="Generated start: an atom or a pair must fire on this share of the sampled "
         "decisions.")]
TripleShareOpt = Annotated[float, typer.Option(
    help="Generated start: a triple must fire on this share of the sampled "
         "decisions.")]
QuadShareOpt = Annotated[float, typer.Option(
    help="Generated start: a quadruple (--order 4) must fire on this share of the "
         "sampled decisions.")]
SplitOpt = Annotated[str, typer.Option(
    help="Generated start: one group of rules for each atom of this feature (or each "
         "combination of atoms of these, separated by commas), learned apart "
         "(backgammon: Contact, a contact base and a race base in one file); --order "
         "counts the atoms beside the group's.")]
GroupFeaturesOpt = Annotated[list[str] | None, typer.Option(
    "--group-features", metavar="GROUP:FEATURES",
    help="Generated start with --split: the group of these atoms of the split features "
         "(e.g. Contact=no) draws its conjunctions only from these features, separated "
         "by commas (backgammon's race: PipCount,OpponentPipCount,BorneOff,"
         "OpponentBorneOff); repeatable.")]
SingleFeaturesOpt = Annotated[str, typer.Option(
    help="Generated start: atoms of these features (names or patterns such as 'Their*', "
         "separated by commas) join no other feature's, only a group's: many features for "
         "a few rules each (backgammon: the side to roll's counts, Their*).")]
MonteCarloOpt = Annotated[list[str] | None, typer.Option(
    "--monte-carlo", metavar="KIND",
    help="Decisions of this kind learn from the payoff after them (λ = 1 for them "
         "alone; hearts: pass, whose worth shows only when the hand is played); "
         "repeatable.")]
TargetOpt = Annotated[str, typer.Option(
    "--target", help="TD(λ): what a choice's value steps toward: 'next', the next choice's value "
         "(Sturtevant & White); 'lookahead', its value searched a ply deeper over the "
         "same conclusions (backgammon: the mean of the opponent's best replies over its "
         "rolls).")]
SampleGamesOpt = Annotated[int, typer.Option(
    help="Generated start: games of the game's default opponent that sample the "
         "decisions.")]
ScaleOpt = Annotated[float, typer.Option(
    help="Generated start: conclusions stay within ± this (in the payoff's "
         "unit).")]
AverageOpt = Annotated[int, typer.Option(
    help="The learned base concludes the mean of the conclusions after each of the "
         "last this many blocks (1: the last block's).")]
MeasureEveryOpt = Annotated[int, typer.Option(
    help="Learning curve: blocks between two points (0: none).")]
MeasureGamesOpt = Annotated[int, typer.Option(
    help="Learning curve: games a point.")]
MeasureOpponentOpt = Annotated[str | None, typer.Option(
    help="Learning curve: the fixed opponent; default: the game's.")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", help="Game option key=value of every game played, learning and "
                     "measuring (e.g. hearts: rules=sturtevant-white).")]
DbOpt = Annotated[Path | None, db_option("runs/GAME_learn.sqlite")]
OutputOpt = Annotated[Path | None, typer.Option(
    "--output", "-o", help="Output file: the learned rule base; default next to --db, "
                           "GAME_learn.learned.yaml.")]
PlotOpt = Annotated[Path | None, typer.Option(
    help="Learning curve picture; default plots/GAME_learn_curve.png.")]


def learn(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    games: GamesOpt = 2000,
    block: BlockOpt = 100,
    update: UpdateOpt = 1,
    halving: HalvingOpt = 0,
    lam: LamOpt = 0.75,
    alpha: AlphaOpt = 0.1,
    opponent: OpponentOpt = "self",
    rulebase: RulebaseOpt = None,
    order: OrderOpt = 3,
    min_share: MinShareOpt = 0.005,
    triple_share: TripleShareOpt = 0.15,
    quad_share: QuadShareOpt = 0.25,
    split: SplitOpt = "",
    group_features: GroupFeaturesOpt = None,
    single_features: SingleFeaturesOpt = "",
    monte_carlo: MonteCarloOpt = None,
    toward: TargetOpt = "next",
    sample_games: SampleGamesOpt = 200,
    scale: ScaleOpt = 100.0,
    average: AverageOpt = 1,
    measure_every: MeasureEveryOpt = 10,
    measure_games: MeasureGamesOpt = 200,
    measure_opponent: MeasureOpponentOpt = None,
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX, help="Seed of every game.")] = 1,
    option: OptionOpt = None,
    db: DbOpt = None,
    output: OutputOpt = None,
    plot: PlotOpt = None,
    workers: WorkersOpt = 2,
    dask: DaskOpt = None,
    resume: ResumeOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Learn a rule base's conclusions by TD(λ) (as Sturtevant & White, 2006), in self-play or against a player.

    Without --rulebase, the start is generated: a rule for each conjunction of up to --order atoms of the game's features that fires often enough in sampled play, concluding 0, with the weighted_sum defuzzifier. The conclusions step after every --update games (Sturtevant & White: after every game) and are committed every --block games; the result is the same with any number of workers. Stopped at any moment, run the same command with --resume.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    from fuzzeval.learn.td_runs import LEARNS, LearnSettings, learn_into, learn_job, load_learn
    from fuzzeval.play.executors import executor_for

    with user_errors():
        job = learn_job(LearnSettings(
            game_name, lam=lam, alpha=alpha, block=block, update=update, halving=halving,
            opponent=opponent, seed=seed, measure_every=measure_every,
            measure_games=measure_games, measure_opponent=measure_opponent or "", order=order,
            min_share=min_share, triple_share=triple_share, quad_share=quad_share,
            sample_games=sample_games,
            scale=scale, split=split, group_features=tuple(group_features or ()),
            single_features=single_features, target=toward), games,
            average, rulebase, monte_carlo or [], option or [])
        game, settings = job.game, job.settings
        path = db or LEARNS.default_path(game.name)
        target = output or path.with_name(f"{path.stem}.learned.yaml")
        picture = plot or picture_for(path, "curve")
        check_outputs([Output("--db", path, "database"),
                       Output("--output" if output else "the learned rule base", target,
                              "rulebase", "" if output else "-o"),
                       Output("--plot" if plot else "the picture", picture, "picture",
                              "" if plot else "--plot")],
                      [Input("--rulebase", resolve_rulebase(rulebase))] if rulebase else [])
        stored_run(path, LEARNS, settings, job.source, resume, load_learn,
                   lambda learn: learn.games, games)
        against = measure_opponent or game.default_opponent
        bar = progress_bar(disable=as_json)

        def step(b: Block) -> None:
            note = "" if b.measure is None else f": {b.measure:.2f} against {against}"
            bar.update(bar.task_ids[0], completed=b.games, description=f"learning{note}")
        saved = partial(LEARNS.saved_in, path, None, None)  # one learn a database
        # the executor first: an unreachable cluster fails before a database is made
        with executor_for(workers, dask) as pool, bar, stopped(path, saved):
            done, text = learn_into(path, job, pool, resume, phases(bar), step)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        curve = [b for b in done.blocks if b.measure is not None]
        if curve:
            _plot(curve, game, lam, against, measure_games, picture)
    if as_json:
        print_json({"learn_id": done.id, "db": str(path), "learned": str(target),
                    "games": done.games, "blocks": len(done.blocks),
                    "curve": [{"games": b.games, "mean": b.measure, "half": b.measure_half}
                              for b in curve],
                    "picture": str(picture) if curve else None})
    else:
        _print(done, game, lam, against, target, path, picture if curve else None)


def _plot(curve: list[Block], game: Game, lam: float, against: str, games: int,
          picture: Path) -> None:
    """The learning curve's picture."""
    from fuzzeval.plots import plot_learning_curve

    better = "fewer" if not game.payoff.higher_is_better else "more"
    plot_learning_curve(curve, picture, f"{game.name}: TD(λ = {lam:g}) against {against} "
                        f"({better} is better)", game.payoff.unit, games)


def _print(done: Learn, game: Game, lam: float, against: str, target: Path, path: Path,
           picture: Path | None) -> None:
    """The learn's blocks: every measured one and the last."""
    table = Table(title=f"{game.name}: TD(λ = {lam:g}) learning, {done.games:,} games, "
                        f"payoff in {game.payoff.unit}", title_justify="left",
                  box=box.SIMPLE_HEAD)
    for col in ("games", "learning seats' mean", "against " + against, "95% interval"):
        table.add_column(col, justify="right")
    for b in done.blocks:
        if b.measure is None and b is not done.blocks[-1]:
            continue
        table.add_row(f"{b.games:,}", f"{b.mean:.3f}",
                      "" if b.measure is None else f"{b.measure:.3f}",
                      "" if b.measure_half is None else f"± {b.measure_half:.3f}")
    console.print(table)
    say_files(f"learned rule base: {target}\nhistory: {path}"
              + (f"\nlearning curve: {picture}" if picture else ""))
