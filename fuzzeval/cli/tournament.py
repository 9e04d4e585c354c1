"""``fuzzeval tournament GAME``: every pair of players, a win-rate matrix and its picture."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from fuzzeval.cli.common import (
    GAME_HELP,
    GAMES_MAX,
    SEED_MAX,
    DaskOpt,
    WorkersOpt,
    console,
    db_option,
    err_console,
    json_option,
    picture_for,
    picture_option,
    player_list,
    print_json,
    progress_bar,
    say_files,
    stopped,
    usage_error,
    user_errors,
)
from fuzzeval.cli.outputs import Output, check_outputs

if TYPE_CHECKING:  # the library is imported when the command runs, not at start-up
    from fuzzeval.play.estimate import Estimate
    from fuzzeval.play.game import Game
    from fuzzeval.play.match import MatchSpec
    from fuzzeval.play.store import History
    from fuzzeval.play.tournament import Tournament


def tournament(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help="A player, NAME or NAME:key=value,... as in match; give -p once "
                               "per player (default: the game's players quick enough for a "
                               "round robin in minutes; cribbage: all but sampling).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=GAMES_MAX,
                                       help="Games per pairing.")]
    = 200,
    seed: Annotated[int, typer.Option(
        min=0, max=SEED_MAX, help="Seed shared by every pairing (same deals).")] = 1,
    workers: WorkersOpt = 2,
    dask: DaskOpt = None,
    db: Annotated[Path | None, db_option("runs/GAME_tournament.sqlite")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="Game option key=value, e.g. peg_counts=false.")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Win-rate matrix picture; default plots/<db name>_tournament.png.")] = None,
    as_json: Annotated[bool, json_option("the results")] = False,
) -> None:
    """Round robin: every pair of players, a win-rate matrix and its picture.

    Each pair plays a stored match of --games games (run it again to finish or show it);
    the table gives the row player's win rate against each column player. The first games
    of every pairing are timed first: a tournament expected to take more than a minute says
    how long before it goes on.
    """
    from fuzzeval.play.estimate import LONG
    from fuzzeval.play.executors import executor_for
    from fuzzeval.play.game import GameHooks, hook
    from fuzzeval.play.match import MatchSpec, check_players
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.spec import PlayerSpec, parse_options
    from fuzzeval.play.store import History
    from fuzzeval.play.tournament import pairings, run_tournament, tournament_specs
    from fuzzeval.plots import image_path, plot_win_matrix

    picture_option("--plot", plot)
    given = player_list(player)
    if given is not None and len(given) < 2:
        raise usage_error(f"a tournament needs at least two players (got {len(given)}); "
                          "give -p once per player")
    with user_errors():
        game = load_game(game_name)
        names = given if given is not None else list(
            hook(game, GameHooks.tournament_players) or game.player_names)
        options = parse_options(option or [], game.name)
        for name in names:
            check_players(game, MatchSpec(game.name, PlayerSpec.parse(name),
                                          PlayerSpec.parse(name), 1, seed, options))
        path = db or Path("runs") / f"{game.name}_tournament.sqlite"
        picture = image_path(plot or picture_for(path, "tournament", "_tournament"))
        check_outputs([Output("--db", path, "database"),
                       Output("--plot" if plot else "the picture", picture, "picture",
                              "" if plot else "--plot")])
        pairs = len(pairings(len(names), game.seats))
        total = games * pairs
        # the executor first: an unreachable cluster fails before a database is made
        with executor_for(workers, dask) as pool, History(path) as history, \
                progress_bar(disable=as_json) as bar:
            # games stored by an earlier run count as done: the bar and its time left are
            # for the games still to play
            specs = list(tournament_specs(game, names, games, seed, options).values())
            stored = _stored(history, game, specs)
            if not as_json:  # as the progress bar: --json keeps stderr for messages
                err_console.print(f"{len(names)} players, {pairs} pairing"
                                  f"{'s' if pairs > 1 else ''} of {games:,} games: {total:,} "
                                  f"games ({stored:,} stored in {path})",
                                  markup=False, highlight=False)
            task = bar.add_task(f"{pairs} pairings", total=total, completed=stored)

            def said(guess: Estimate | None) -> None:
                if guess is not None and guess.seconds > LONG and not as_json:
                    bar.console.print(guess.line(), markup=False, highlight=False)
            with stopped(path, lambda: f"{_stored(history, game, specs):,} games",
                         "run the same command to finish the tournament"):
                result = run_tournament(history, game, names, games, seed, options, pool,
                                        on_game=lambda _pair, _rec: bar.advance(task),
                                        on_estimate=said)
    labels = [_label(p) for p in result.players]
    cells = [[_cell(result, i, j) for j in range(len(names))] for i in range(len(names))]
    # win rates in a two-seat game with winners; mean payoffs otherwise
    rates = game.seats == 2 and all(s.win_rate is not None for s in result.results.values())
    measure = "win rate" if rates else game.payoff.unit
    plot_win_matrix(labels, cells, picture,
                    title=f"{game.name}: row player's {measure}, {games:,} games a pairing "
                          f"(95% intervals)",
                    unit=None if rates else game.payoff)
    if as_json:
        print_json({**result.to_dict(), "db": str(path), "plot": str(picture)})
        return
    console.print(_table(game.name, games, seed, labels, cells, rates,
                         measure))
    say_files(f"history: {path}  picture: {picture}")


def _stored(history: History, game: Game, specs: list[MatchSpec]) -> int:
    """This tournament's games stored, not those of any other run in the same database."""
    from fuzzeval.play.match_runs import stored_games

    return sum(stored_games(history, game, spec) for spec in specs)


#: the width of one column of the matrix (100.0% and 34–100 with their gaps)
_CELL = 8


def _table(game: str, games: int, seed: int, labels: list[str],
           cells: list[list[tuple[float, float, float] | None]], rates: bool = True,
           measure: str = "win rate") -> Table:
    """The matrix in 80 columns: players numbered, the columns headed by their numbers,
    each cell the row player's win rate (``rates``) or mean payoff over its 95 % interval.
    With too many players for the width, one row per pairing instead."""
    n = len(labels)
    title = f"{game} round robin, {games:,} games a pairing, seed {seed}: "
    if 20 + _CELL * (n + 1) > console.width:  # the names need some 20 columns
        table = Table(title=title + f"each pairing's {measure} with its 95% interval",
                      title_justify="left", box=box.SIMPLE_HEAD)
        for col in ("player", "opponent", measure, "95% interval"):
            table.add_column(col, justify="left" if col in ("player", "opponent") else
                             "right")
        for i in range(n):
            for j in range(i + 1 if rates else 0, n):
                c = cells[i][j]
                if c is not None:
                    table.add_row(escape(labels[i]), escape(labels[j]), _value(c[0], rates),
                                  _span(c, rates) + ("%" if rates else ""))
        return table
    table = Table(title=title + f"the row player's {measure} against each column's, over "
                                "its 95% interval", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("player", overflow="fold")
    for j in range(n):
        table.add_column(str(j + 1), justify="right", no_wrap=True)
    table.add_column("overall", justify="right", no_wrap=True)
    for i, label in enumerate(labels):
        row = [Text("—") if c is None else
               Text.assemble(f"{_value(c[0], rates)}\n", (_span(c, rates), "dim"))
               for c in cells[i]]
        overall = sum(c[0] for c in cells[i] if c is not None) / (n - 1)
        table.add_row(escape(f"{i + 1} {label}"), *row, _value(overall, rates))
    return table


def _value(x: float, rates: bool) -> str:
    return f"{x:.1%}" if rates else f"{x:.2f}"


def _span(cell: tuple[float, float, float], rates: bool = True) -> str:
    """34–100: a rate's interval in whole percent; 5.9–7.1: a payoff's."""
    if rates:
        return f"{cell[1] * 100:.0f}–{cell[2] * 100:.0f}"
    return f"{cell[1]:.1f}–{cell[2]:.1f}"


def _cell(t: Tournament, i: int, j: int) -> tuple[float, float, float] | None:
    got = t.cell(i, j)
    return None if got is None else (got[0], got[1][0], got[1][1])


def _label(player: str) -> str:
    from fuzzeval.play.spec import PlayerSpec

    spec = PlayerSpec.parse(player)
    return spec.name + (f" ({', '.join(str(v) for _, v in spec.options)})" if spec.options
                        else "")
