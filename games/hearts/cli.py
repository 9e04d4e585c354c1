"""``fuzzeval hearts card``: advice for one Hearts decision, and why.

Errors in cards, tricks, voids or points give one line naming the token and exit code 2.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from fuzzeval.cli.common import (
    SEED_MAX,
    JsonOpt,
    columns_that_fit,
    command_group,
    console,
    player_option,
    print_json,
    usage_error,
)
from fuzzeval.errors import FuzzevalError

app = command_group("Hearts: advice for one decision.")


@app.command()
def card(
    hand: Annotated[list[str], typer.Argument(help="My cards, e.g. QS KS 2H 5C ...")],
    trick: Annotated[str, typer.Option(
        help="Cards on the current trick, the lead first, e.g. 5S,KS.")] = "",
    earlier: Annotated[str, typer.Option(
        help="Cards laid earlier this hand (whole tricks, each lead first), e.g. "
             "2C,AC,5C,9C.")] = "",
    voids: Annotated[str, typer.Option(
        help="Voids shown: SEAT:SUITS, seats left, across, right, e.g. left:S,across:HD "
             "(those the tricks show are read from them).")]
    = "",
    taken: Annotated[str | None, typer.Option(
        help="Points taken this hand by me,left,across,right, e.g. 0,13,0,0 (default: "
             "every point laid earlier counted mine).")] = None,
    pass_to: Annotated[str | None, typer.Option(
        "--pass", help="Pass direction: advise the three cards to pass left, right or "
                       "across, from 13 cards.")] = None,
    rules_name: Annotated[str, typer.Option(
        "--rules", help="Hearts rules: standard, or sturtevant-white (Sturtevant & "
                        "White (2006)'s: no passing, no restrictions on leads).")] = "standard",
    player: Annotated[str, typer.Option(
        "--player", "-p", help="Player: fuzzy, heuristic, random, ismcts, maxn, sampling or td; "
                               "NAME:key=value,... as in match, e.g. fuzzy:rulebase=my.yaml"
                               ", sampling:trials=200")] = "fuzzy",
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: a rule base's memberships and rule strengths of the chosen "
                          "card (fuzzy, td), or how the player chose.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of a player that draws (random, sampling, "
                                           "ismcts, maxn).", min=0, max=SEED_MAX)] = 1,
    json_out: JsonOpt = False,
) -> None:
    """Which card to lay (or, with --pass, which three to pass), and why.

    I am seat 0; left plays after me. The fuzzy player shows its grade of each legal card, another player what it weighed (td: its values; sampling: each card's mean; maxn: each card's mean points over its deals), and with --explain the rules behind the choice, or how it was made.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    from fuzzeval.games.hearts.advice import advise, position
    from fuzzeval.games.hearts.game import GAME
    from fuzzeval.play.spec import PlayerSpec

    built = player_option(GAME, player)
    try:
        state = position(hand, trick, earlier, voids, taken, pass_to, rules_name)
        data = advise(state, built, str(PlayerSpec.parse(player)), explain, seed)
    except (ValueError, FuzzevalError) as exc:
        raise usage_error(str(exc)) from None
    if json_out:
        print_json(data)
        return
    _show(data, built, explain)


def _show(data: dict[str, Any], player: Any, explain: bool) -> None:
    from fuzzeval.games.hearts.fuzzy import FuzzyHearts
    from fuzzeval.play.game import PlayerHooks, hook

    if "pass" in data:
        console.print(f"{data['hand']}, pass {data['direction']}, player {escape(data['player'])}: "
                      f"pass [bold]{' '.join(data['pass'])}[/bold]", highlight=False)
    else:
        trick = " ".join(data["trick"]) or "none (I lead)"
        console.print(f"{data['hand']}, trick {trick}, player {escape(data['player'])}: play "
                      f"[bold]{data['play']}[/bold]", highlight=False)
    evaluator = hook(player, PlayerHooks.evaluator)
    if evaluator is not None:
        console.print(evaluator.rulebase.origin, markup=False, highlight=False)
    rows = data.get("table", [])
    if rows:
        _table(rows, always=2 if isinstance(player, FuzzyHearts) else len(rows[0]))
    if not explain:
        return
    first = data["pass"][0] if "pass" in data else data["play"]
    if "explanation" not in data:
        console.print(f"why {first}: {data['how']}", highlight=False)
        return
    from fuzzeval.cli.evaluate import print_explanation

    assert evaluator is not None  # an explanation is a rule base's
    console.print(f"why {first}:" if isinstance(player, FuzzyHearts) else
                  f"why {first}: {data['how']}", highlight=False)
    exp = evaluator.explain([data["explanation"]["inputs"][n]
                             for n in evaluator.rulebase.input_names])
    print_explanation(evaluator, exp)


def _table(rows: list[dict[str, Any]], always: int) -> None:
    """The table of cards, best first: its first ``always`` columns, then the inputs that
    tell the cards apart, while they fit 80 columns (fewer on a narrower terminal), each
    name whole."""
    names = list(rows[0])
    width = min(80, console.width)
    varying = [n for n in names[always:] if len({row[n] for row in rows}) > 1]
    shown, _ = columns_that_fit(names[:always] + varying, width, always=names[:always])
    table = Table(box=box.SIMPLE_HEAD)
    for col in shown:
        table.add_column(col, justify="left" if col == "card" else "right", no_wrap=True)
    for i, row in enumerate(rows):
        table.add_row(*(f"{row[c]:.3g}" if isinstance(row[c], float) else str(row[c])
                        for c in shown), style="bold" if i == 0 else None)
    console.print(table)
    if len(shown) < len(names):
        console.print(f"{len(names) - len(shown)} more inputs in --json (alike for "
                      f"every card, or past {width} columns)", highlight=False)
