"""``fuzzeval learn GAME``: TD(λ) on the conclusions of a conjunction rule base."""

from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import (
    GAME_HELP,
    GAMES_MAX,
    SEED_MAX,
    DaskOpt,
    WorkersOpt,
    console,
    err_console,
    picture_for,
    print_json,
    progress_bar,
    resolve_rulebase,
    say_stored,
    stopped,
    user_errors,
)
from fuzzeval.cli.outputs import Input, Output, check_outputs

if TYPE_CHECKING:  # the library is imported when the command runs, not at start-up
    from fuzzeval.learn.learning import Block, Learn, LearnSettings
    from fuzzeval.play.game import Game
    from fuzzeval.play.spec import Options
    from fuzzeval.play.store import History


def _usage(message: str) -> typer.Exit:
    err_console.print(f"error: {message}", markup=False, highlight=False)
    return typer.Exit(2)


def learn(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games to play in all, learning from them (a whole number "
                              "of blocks).")] = 2000,
    block: Annotated[int, typer.Option(
        help="Games between two commits to --db (a whole number of updates).")] = 100,
    update: Annotated[int, typer.Option(
        help="TD(λ): games played with the same conclusions, then their steps added (1: "
             "after every game, as Sturtevant & White's; more lets the workers share them).")] = 1,
    halving: Annotated[int, typer.Option(
        help="TD(λ): the step size's schedule, --alpha / (1 + games so far / this): "
             "halved after this many games (0: constant).")] = 0,
    lam: Annotated[float, typer.Option(
        "--lambda", help="TD(λ): λ in [0, 1]; 0 learns from the next value, 1 from the "
                         "payoff (Sturtevant & White: 0.75).")] = 0.75,
    alpha: Annotated[float, typer.Option(
        help="TD(λ): a decision's step size, above 0, divided among the rules that fire "
             "by their strength (Sturtevant & White's normalised step).")] = 0.1,
    opponent: Annotated[str, typer.Option(
        help="Opponent: 'self' (every seat learns) or a player of the game in the other "
             "seats.")
    ] = "self",
    rulebase: Annotated[str | None, typer.Option(
        help="Rule base to start from (weighted_sum) instead of a generated one.")] = None,
    order: Annotated[int, typer.Option(
        help="Generated start: conjunctions of at most this many atoms (1 to 3).")] = 3,
    min_share: Annotated[float, typer.Option(
        help="Generated start: an atom or a pair must fire on this share of the sampled "
             "decisions.")] = 0.005,
    triple_share: Annotated[float, typer.Option(
        help="Generated start: a triple must fire on this share of the sampled "
             "decisions.")] = 0.15,
    split: Annotated[str, typer.Option(
        help="Generated start: one group of rules for each atom of this feature (or each "
             "combination of atoms of these, separated by commas), learned apart "
             "(backgammon: Contact, a contact base and a race base in one file); --order "
             "counts the atoms beside the group's.")] = "",
    monte_carlo: Annotated[list[str] | None, typer.Option(
        "--monte-carlo", metavar="KIND",
        help="Decisions of this kind learn from the payoff after them (λ = 1 for them "
             "alone; hearts: pass, whose worth shows only when the hand is played); "
             "repeatable.")] = None,
    sample_games: Annotated[int, typer.Option(
        help="Generated start: games of the game's default opponent that sample the "
             "decisions.")] = 200,
    scale: Annotated[float, typer.Option(
        help="Generated start: conclusions stay within ± this (in the payoff's "
             "unit).")] = 100.0,
    average: Annotated[int, typer.Option(
        help="The learned base concludes the mean of the conclusions after each of the "
             "last this many blocks (1: the last block's).")] = 1,
    measure_every: Annotated[int, typer.Option(
        help="Learning curve: blocks between two points (0: none).")] = 10,
    measure_games: Annotated[int, typer.Option(
        help="Learning curve: games a point.")] = 200,
    measure_opponent: Annotated[str | None, typer.Option(
        help="Learning curve: the fixed opponent; default: the game's.")] = None,
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX, help="Seed of every game.")] = 1,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="Game option key=value of every game played, learning and "
                         "measuring (e.g. hearts: rules=sturtevant-white).")] = None,
    db: Annotated[Path | None, typer.Option(
        help="History database; default runs/GAME_learn.sqlite.")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Output file: the learned rule base; default next to --db, "
                               "GAME_learn.learned.yaml.")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Learning curve picture; default plots/GAME_learn_curve.png.")] = None,
    workers: WorkersOpt = 2,
    dask: DaskOpt = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the stored learn of these settings.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Learn a rule base's conclusions by TD(λ) (as Sturtevant & White, 2006), in self-play or against a player.

    Without --rulebase, the start is generated: a rule for each conjunction of up to --order atoms of the game's features that fires often enough in sampled play, concluding 0, with the weighted_sum defuzzifier. The conclusions step after every --update games (Sturtevant & White: after every game) and are committed every --block games; the result is the same with any number of workers. Stopped at any moment, run the same command with --resume.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    from fuzzeval.formats.loading import load_rulebase_text, read_rulebase_text
    from fuzzeval.learn.learning import (
        RUNNING,
        SCALE_RANGE,
        LearnSettings,
        check_start,
        learned_yaml,
        refuse_another_learn,
        run_learning,
        running_key,
        source_digest,
        start_source,
    )
    from fuzzeval.play.executors import executor_for
    from fuzzeval.play.game import GameHooks, hook
    from fuzzeval.play.history import require_for_resume
    from fuzzeval.play.match import check_game_options, make_player, parse_options
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.store import History

    for name, value, low in (("--games", games, 1), ("--block", block, 1),
                             ("--update", update, 1), ("--halving", halving, 0),
                             ("--sample-games", sample_games, 1), ("--average", average, 1),
                             ("--measure-every", measure_every, 0),
                             ("--measure-games", measure_games, 1)):
        if value < low:
            raise _usage(f"{name} must be at least {low} (got {value})")
        if value > GAMES_MAX:  # every one of them counts games or blocks of them
            raise _usage(f"{name} must be at most {GAMES_MAX:,} (got {value:,})")
    if not 0 <= lam <= 1:
        raise _usage(f"--lambda must be in [0, 1] (got {lam:g})")
    if not 0 < alpha <= 1:
        raise _usage(f"--alpha must be in (0, 1]: a step of 1 moves a value all the way to "
                     f"its target, more overshoots it (got {alpha:g})")
    if not SCALE_RANGE[0] <= scale <= SCALE_RANGE[1]:
        raise _usage(f"--scale must be from {SCALE_RANGE[0]:g} to {SCALE_RANGE[1]:g} "
                     f"(got {scale:g})")
    for name, share in (("--min-share", min_share), ("--triple-share", triple_share)):
        if not 0 < share < 1:
            raise _usage(f"{name} must be in (0, 1) (got {share:g})")
    if not 1 <= order <= 3:
        raise _usage(f"--order must be 1, 2 or 3 (got {order})")
    if block % update:
        raise _usage(f"--block {block} is not a whole number of updates of --update "
                     f"{update}")
    if games % block:
        raise _usage(f"--games {games} is not a whole number of blocks of --block {block}")
    if average > games // block:
        raise _usage(f"--average {average} is more than the {games // block} blocks of "
                     f"--games {games}")
    with user_errors():
        game = load_game(game_name)
        options = parse_options(option or [], game.name)
        check_game_options(game, options)
        kinds = _kinds(game, monte_carlo or [], options)
        features = hook(game, GameHooks.features) or ()
        if rulebase is None and not features:
            raise _usage(f"{game.name} lists no features to learn from; give --rulebase")
        if split:
            from fuzzeval.learn.conjunctions import split_features

            if rulebase is not None:
                raise _usage("--split shapes a generated start; --rulebase gives the start")
            try:
                split_features(split, [f.name for f in features])
            except ValueError as exc:
                raise _usage(f"--split {split}: {exc}") from None
        for flag, who in (("--opponent", opponent),
                          ("--measure-opponent", measure_opponent or game.default_opponent)):
            if who != "self" or flag != "--opponent":
                try:  # an unknown player is refused before any work
                    make_player(game, who)
                except ValueError as exc:
                    raise _usage(f"{flag} {who}: {exc}") from None
        start_path = resolve_rulebase(rulebase) if rulebase else None
        source = read_rulebase_text(start_path) if start_path else None
        if source is not None:  # a start TD(λ) cannot learn is refused before any file
            check_start(game, load_rulebase_text(source, str(start_path)))
        settings = LearnSettings(
            game.name, lam=lam, alpha=alpha, block=block, update=update, halving=halving,
            opponent=opponent, seed=seed, measure_every=measure_every, measure_games=measure_games,
            measure_opponent=measure_opponent or "", order=order, min_share=min_share,
            triple_share=triple_share, sample_games=sample_games, scale=scale, split=split,
            monte_carlo=kinds, options=options,
            start="" if source is None else source_digest(source))
        path = db or Path("runs") / f"{game.name}_learn.sqlite"
        target = output or path.with_name(f"{path.stem}.learned.yaml")
        picture = plot or picture_for(path, "curve")
        check_outputs([Output("--db", path, "database"),
                       Output("--output" if output else "the learned rule base", target,
                              "rulebase", "" if output else "-o"),
                       Output("--plot" if plot else "the picture", picture, "picture",
                              "" if plot else "--plot")],
                      [Input("--rulebase", start_path)] if start_path else [])
        if resume:
            require_for_resume(path)
        if path.is_file():  # the same learn again goes on, or shows it
            with History(path) as history:
                history.check_free(running_key(settings, source or ""), RUNNING)
                stored = _stored(history, settings, source)
                if stored is None:  # refused before the start is sampled, not after
                    refuse_another_learn(history)
                else:
                    source = stored.source
                    say_stored(path, f"learn {stored.id}", stored.games, games, "game",
                               "learning", resuming=resume)
        if source is None:
            with progress_bar(disable=as_json) as bar:
                bar.add_task(f"sampling decisions: {sample_games} games", total=None)
                source = start_source(game, settings, "generated by `fuzzeval learn "
                                      f"{game.name}` (conclusions 0; --seed {seed})")
        bar = progress_bar(disable=as_json)
        with executor_for(workers, dask) as pool, bar, \
                stopped(path, lambda: _saved(path, settings, source or "")):
            task = bar.add_task("learning", total=games)

            def step(b: Block) -> None:
                note = "" if b.measure is None else (
                    f": {b.measure:.2f} against {measure_opponent or game.default_opponent}")
                bar.update(task, completed=b.games, description=f"learning{note}")
            with History(path) as history:
                done = run_learning(history, game, settings, source, games, pool, resume,
                                    on_block=step)
                # a longer learn stored: its base as it was after --games games
                done = dataclasses.replace(done, blocks=done.blocks[:games // block])
                text = learned_yaml(history, done, _made_by(settings, done.games, rulebase,
                                                            average), average)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        curve = [b for b in done.blocks if b.measure is not None]
        against = measure_opponent or game.default_opponent
        if curve:
            from fuzzeval.plots import Curve, plot_curves

            half = [b.measure_half or 0.0 for b in curve]
            means = [float(b.measure or 0.0) for b in curve]
            plot_curves([Curve(f"learned player ({measure_games} games a point, 95 % band)",
                               [b.games for b in curve], means,
                               ([m - h for m, h in zip(means, half, strict=True)],
                                [m + h for m, h in zip(means, half, strict=True)]))],
                        picture, f"{game.name}: TD(λ = {lam:g}) against {against} "
                        f"({'fewer' if not game.payoff.higher_is_better else 'more'} is "
                        "better)", "games learned from", game.payoff.unit, integer_x=True)
    if as_json:
        print_json({"learn_id": done.id, "db": str(path), "learned": str(target),
                    "games": done.games, "blocks": len(done.blocks),
                    "curve": [{"games": b.games, "mean": b.measure, "half": b.measure_half}
                              for b in curve],
                    "picture": str(picture) if curve else None})
        return
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
    console.print(f"learned rule base: {target}\nhistory: {path}"
                  + (f"\nlearning curve: {picture}" if curve else ""))


def _made_by(settings: LearnSettings, games: int, start: str | None, average: int) -> str:
    """The command that made the learned base (its made_by line), from what decides it."""
    s = settings
    words = ["fuzzeval", "learn", s.game, "--games", str(games), "--block", str(s.block),
             *(["--average", str(average)] if average > 1 else []), "--update", str(s.update),
             *(["--halving", str(s.halving)] if s.halving else []),
             "--lambda", _number(s.lam), "--alpha", _number(s.alpha), "--opponent",
             s.opponent, "--seed", str(s.seed)]
    for kind in s.monte_carlo:
        words += ["--monte-carlo", kind]
    for key, value in s.options:
        words += ["--option", f"{key}={_option_text(value)}"]
    if start is not None:
        words += ["--rulebase", start]
    else:
        words += ["--order", str(s.order), "--min-share", _number(s.min_share),
                  "--triple-share", _number(s.triple_share), "--sample-games",
                  str(s.sample_games), "--scale", _number(s.scale),
                  *(["--split", s.split] if s.split else [])]
    # the learning curve's settings are the stored learn's too: the same command goes on
    words += ["--measure-every", str(s.measure_every), "--measure-games", str(s.measure_games),
              *(["--measure-opponent", s.measure_opponent] if s.measure_opponent else [])]
    return "learned by `" + " ".join(shlex.quote(w) for w in words) + "`"


def _number(x: float) -> str:
    """A number as short as it is written (0.3, 100), never rounded (0.12345678 stays)."""
    short = f"{x:g}"
    return short if float(short) == x else repr(x)


def _option_text(value: object) -> str:
    """An option's value as it is written on the command line (parse_value's inverse)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _kinds(game: Game, given: list[str], options: Options) -> tuple[str, ...]:
    """The --monte-carlo kinds, sorted: each a kind of decision the game logs with these
    options (a game's ``logged_kinds_for(**options)`` where it has one), once."""
    from fuzzeval.play.game import GameHooks, hook

    logged_kinds_for = hook(game, GameHooks.logged_kinds_for)
    known = sorted(game.logged_kinds if logged_kinds_for is None
                   else logged_kinds_for(**dict(options)))
    with_options = " with " + " ".join(f"--option {k}={_option_text(v)}" for k, v in options) \
        if options else ""
    for kind in given:
        if kind not in known:
            raise _usage(f"--monte-carlo {kind}: not a kind of decision {game.name} logs"
                         f"{with_options} (kinds: {', '.join(known)})")
        if given.count(kind) > 1:
            raise _usage(f"--monte-carlo {kind}: given twice; give each kind once")
    return tuple(sorted(given))


def _stored(history: History, settings: LearnSettings, source: str | None) -> Learn | None:
    """The stored learn of these settings (and this start, when one is given), or None."""
    from fuzzeval.learn.learning import find_learn, load_learn

    if source is not None:
        found = find_learn(history, settings, source)
        return None if found is None else load_learn(history, found)
    row = history.conn.execute("SELECT id FROM learns WHERE settings = ? ORDER BY id DESC "
                               "LIMIT 1", (settings.to_json(),)).fetchone()
    return None if row is None else load_learn(history, int(row[0]))


def _saved(path: Path, settings: LearnSettings, source: str) -> str | None:
    """What a stopped learn has stored: its games (read when it stops)."""
    from fuzzeval.learn.learning import load_learn
    from fuzzeval.play.history import HistoryError
    from fuzzeval.play.store import History

    if not path.is_file():
        return None
    with History(path, readonly=True) as history:
        try:
            learn = load_learn(history)
        except HistoryError:
            return None
        return f"{learn.games:,} games of learn {learn.id}"
