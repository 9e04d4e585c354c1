"""``fuzzeval backgammon moves``: every legal play of a pasted position, ranked by a player."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import (
    JsonOpt,
    command_group,
    console,
    player_option,
    print_json,
    usage_error,
)
from fuzzeval.errors import FuzzevalError

app = command_group("Backgammon: legal plays ranked by a player.")


@app.command()
def moves(
    position: Annotated[str, typer.Argument(
        help="GNU Backgammon position ID, side on roll to move (start: 4HPwATDgc/ABMA).")],
    dice: Annotated[str, typer.Option(help="The roll, e.g. 31.")],
    player: Annotated[str, typer.Option(
        "--player", "-p", help="Player: pubeval, fuzzy (fuzzy:rulebase=NAME|PATH; "
                               "lookahead=1 looks one roll ahead, for a learned base such as "
                               "backgammon_td), gnubg, random or td (td:rulebase=NAME|PATH); "
                               "NAME:key=value,... as in match.")]
    = "pubeval",
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: a rule base's memberships and rule strengths of the best "
                          "play (fuzzy, td), or how the player chose.")]
    = False,
    json_out: JsonOpt = False,
) -> None:
    """Every legal play for the roll, best first by the player's grade (none once a side
    has borne off all fifteen: the game is over)."""
    # imported when the command runs: the players import the engine
    import numpy as np

    from fuzzeval.cli.evaluate import print_explanation
    from fuzzeval.games.backgammon.board import position_id
    from fuzzeval.games.backgammon.game import GAME
    from fuzzeval.games.backgammon.play import BackgammonPlay, judgement
    from fuzzeval.games.backgammon.players import MoveView

    try:  # the position and roll read as the studio reads a typed one
        candidates = BackgammonPlay().spot({"position": position, "dice": dice})
    except (FuzzevalError, ValueError) as exc:
        raise usage_error(str(exc)) from None
    who = player_option(GAME, player)
    view = candidates.view
    assert isinstance(view, MoveView)
    start, roll = view.position, view.dice
    j = judgement(who, candidates, np.random.default_rng(1))
    order = j.order or (j.choice,)
    rows = [{"play": candidates.labels[i], **({"grade": j.values[i][0]} if j.values else {}),
             "position_id": position_id(view.options[i].flip())} for i in order]
    data: dict[str, Any] = {"position_id": position_id(start), "dice": f"{roll[0]}{roll[1]}",
                            "player": player.strip(), "plays": rows}
    if explain and j.explanation is not None:
        data["explanation"] = j.explanation[1].to_dict()
    if explain:
        data["how"] = j.how
    if json_out:
        print_json(data)
        return
    table = Table(title=f"{data['position_id']}, roll {data['dice']}: {len(candidates)} plays "
                        f"ranked by {data['player']} (the resulting position's ID is from "
                        "the opponent's side, to move next)" if j.values else
                        f"{data['position_id']}, roll {data['dice']}: {data['player']} "
                        f"plays {rows[0]['play']}",
                  title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("#", "play", "grade", "position ID after"):
        if col != "grade" or j.values:
            table.add_column(col, justify="right" if col in ("#", "grade") else "left")
    for k, row in enumerate(rows, 1):
        grade = (f"{row['grade']:.5g}",) if j.values else ()
        table.add_row(str(k), str(row["play"]), *grade, str(row["position_id"]),
                      style="bold" if k == 1 else None)
    if j.explanation is not None:
        console.print(j.explanation[0].rulebase.origin, markup=False, highlight=False)
    console.print(table)
    if explain:
        console.print(f"why {rows[0]['play']}: {j.how}", highlight=False)
        if j.explanation is not None:
            print_explanation(*j.explanation)
