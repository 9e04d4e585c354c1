"""``fuzzeval backgammon moves``: every legal play of a pasted position, ranked by a player."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from fuzzeval.cli.common import help_when_bare, print_json
from fuzzeval.errors import FuzzevalError

app = typer.Typer(help="Backgammon: legal plays ranked by a player.")
app.callback(invoke_without_command=True)(help_when_bare)  # alone: its help, exit 0
console = Console()
err = Console(stderr=True, soft_wrap=True)


def _fail(message: str) -> typer.Exit:
    err.print(f"error: {message}", markup=False, highlight=False)
    return typer.Exit(2)


@app.command()
def moves(
    position: Annotated[str, typer.Argument(
        help="GNU Backgammon position ID, side on roll to move (start: 4HPwATDgc/ABMA).")],
    dice: Annotated[str, typer.Option(help="The roll, e.g. 31.")],
    player: Annotated[str, typer.Option(
        "--player", "-p", help="Player: pubeval, fuzzy (fuzzy:rulebase=NAME|PATH), gnubg, "
                               "random.")]
    = "pubeval",
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: the fuzzy player's memberships and rule strengths of the "
                          "best play.")]
    = False,
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Every legal play for the roll, best first by the player's grade (none once a side
    has borne off all fifteen: the game is over)."""
    # imported when the command runs: the players import the engine
    from fuzzeval.cli.evaluate import print_explanation
    from fuzzeval.games.backgammon.board import (
        check_not_finished,
        from_position_id,
        position_id,
    )
    from fuzzeval.games.backgammon.features import position_features
    from fuzzeval.games.backgammon.moves import legal_moves, parse_dice
    from fuzzeval.games.backgammon.players import FuzzyGrades, MoveView, make_player
    from fuzzeval.play.spec import PlayerSpec

    try:
        start = from_position_id(position)
        try:
            check_not_finished(start)
        except ValueError as exc:
            raise ValueError(f"position {position.strip()!r}: {exc}") from None
        roll = parse_dice(dice)
        spec = PlayerSpec.parse(player)
        options: dict[str, Any] = dict(spec.options)
        who = make_player(spec.name, **options)
    except (FuzzevalError, ValueError) as exc:
        raise _fail(str(exc)) from None
    plays = legal_moves(start, roll)
    view = MoveView(start, roll, tuple(p for _, p in plays))
    grades = who.grades(view)
    order = sorted(range(len(plays)), key=lambda i: -grades[i])
    rows = [{"play": plays[i][0], "grade": float(grades[i]),
             "position_id": position_id(plays[i][1].flip())} for i in order]
    data: dict[str, Any] = {"position_id": position_id(start), "dice": f"{roll[0]}{roll[1]}",
                            "player": str(spec), "plays": rows}
    fuzzy = who.grader if isinstance(who.grader, FuzzyGrades) else None
    if explain and fuzzy is None:
        raise _fail("--explain needs a fuzzy player")
    best = plays[order[0]][1]
    explanation = None
    if fuzzy is not None and explain:
        feats = position_features([best], fuzzy.rulebase.input_names)[0]
        explanation = fuzzy.evaluator.explain(feats)
        data["explanation"] = explanation.to_dict()
    if json_out:
        print_json(data)
        return
    table = Table(title=f"{data['position_id']}, roll {data['dice']}: {len(plays)} plays "
                        f"ranked by {data['player']} (the resulting position's ID is from "
                        "the opponent's side, to move next)",
                  title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("#", "play", "grade", "position ID after"):
        table.add_column(col, justify="right" if col in ("#", "grade") else "left")
    for k, row in enumerate(rows, 1):
        table.add_row(str(k), str(row["play"]), f"{row['grade']:.5g}", str(row["position_id"]),
                      style="bold" if k == 1 else None)
    if fuzzy is not None:
        console.print(fuzzy.rulebase.origin, markup=False, highlight=False)
    console.print(table)
    if fuzzy is not None and explanation is not None:
        console.print(f"why {rows[0]['play']}:")
        print_explanation(fuzzy.evaluator, explanation)
