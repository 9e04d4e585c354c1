"""``fuzzeval openspiel play GAME``: a fuzzeval player as a bot in OpenSpiel's own game,
against OpenSpiel's bots; the returns per seat with their 95 % intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import (
    GAMES_MAX,
    SEED_MAX,
    command_group,
    console,
    json_option,
    print_json,
    progress_bar,
    user_errors,
)

if TYPE_CHECKING:
    from fuzzeval.interop.openspiel import Series

app = command_group("fuzzeval players as OpenSpiel bots, in OpenSpiel's games "
                    "(extra: pip install 'fuzzeval\\[openspiel]').")


@app.command()
def play(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="OpenSpiel's game, with parameters if any: cribbage, "
                             "backgammon, hearts, 'hearts(pass_cards=false)', or "
                             "universal_poker with hold'em's limit parameters "
                             "(docs/openspiel.md).")],
    bot: Annotated[str, typer.Option(
        "--player", "-p", help="A player: the fuzzeval player seated as the bot, NAME or "
                               "NAME:key=value,... (any player the game takes).")]
    = "fuzzy",
    against: Annotated[str, typer.Option(
        "--opponent", help="Every other seat: random (OpenSpiel's uniform random bot), "
                           "ismcts (its C++ ISMCTSBot), mcts (its C++ MCTSBot), or a "
                           "fuzzeval player.")] = "random",
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=GAMES_MAX,
                                       help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option(
        min=0, max=SEED_MAX, help="Seed of chance and of every bot.")] = 1,
    simulations: Annotated[int, typer.Option(
        min=1, max=1_000_000, help="Simulations per decision of ismcts and mcts.")] = 100,
    as_json: Annotated[bool, json_option("the results")] = False,
) -> None:
    """Play GAME in OpenSpiel with the fuzzeval player as a bot against OpenSpiel's bots.

    In game i the bot sits at seat i % SEATS and the opponent at every other seat; every
    action is checked against OpenSpiel's legal actions. The table gives each seat's mean
    return (OpenSpiel's returns) with its 95 % interval, and how often it ended alone with
    the table's best return.
    """
    from fuzzeval.extras import OPENSPIEL

    with user_errors():
        OPENSPIEL.require("fuzzeval openspiel play")
        from fuzzeval.interop.openspiel import check_series, play_series

        loaded = check_series(game, bot, against, simulations)  # before the progress bar
        progress = progress_bar(disable=as_json or games < 20)
        task = progress.add_task(f"{game}: {bot} against {against}", total=games)
        with progress:
            series = play_series(loaded, bot, against, games, seed, simulations,
                                 on_game=lambda _done: progress.advance(task))
    if as_json:
        print_json(_as_dict(series))
    else:
        _print(series)


def _as_dict(s: Series) -> dict[str, object]:
    return {"game": s.game, "bot": s.bot, "against": s.against, "games": s.games,
            "seed": s.seed, "decisions_checked": s.decisions, "illegal_actions": 0,
            "seats": [{"seat": r.seat, "player": r.player, "games": r.games,
                       "mean_return": r.mean, "low": r.low, "high": r.high, "won": r.won,
                       "won_low": r.won_low, "won_high": r.won_high}
                      for r in s.rows]}


def _num(x: float) -> str:
    """A return in four or so figures: 1126, 24.1, 0.990 (the table fits 80 columns)."""
    return f"{x:.0f}" if abs(x) >= 100 else f"{x:.1f}" if abs(x) >= 10 else f"{x:.3f}"


def _print(s: Series) -> None:
    table = Table(title=f"{s.game}\n{s.bot} against {s.against}, {s.games} games, "
                        f"seed {s.seed}", title_justify="left", box=box.SIMPLE, pad_edge=False)
    table.add_column("seat")
    table.add_column("player", overflow="fold", max_width=24)
    table.add_column("games", justify="right")
    table.add_column("mean return (95 %)", justify="right")
    table.add_column("won (95 %)", justify="right")
    for r in s.rows:
        table.add_row("all" if r.seat is None else str(r.seat), r.player, str(r.games),
                      f"{_num(r.mean)} [{_num(r.low)}, {_num(r.high)}]",
                      f"{r.won:.1%} [{100 * r.won_low:.0f}, {100 * r.won_high:.0f}]")
    console.print(table)
    console.print(f"{s.decisions} decisions, every action legal in OpenSpiel",
                  highlight=False)
