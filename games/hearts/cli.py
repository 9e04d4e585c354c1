"""``fuzzeval hearts play``: advice for one Hearts decision, and why.

Errors in cards, tricks, voids or points give one line naming the token and exit code 2.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from fuzzeval.cli.common import SEED_MAX, columns_that_fit, help_when_bare, print_json
from fuzzeval.errors import FuzzevalError

app = typer.Typer(help="Hearts: advice for one decision.")
app.callback(invoke_without_command=True)(help_when_bare)  # alone: its help, exit 0
console = Console()
err = Console(stderr=True, soft_wrap=True)
PLAYERS = ("fuzzy", "heuristic", "random")


def _fail(message: str) -> typer.Exit:
    err.print(f"error: {message}", markup=False, highlight=False)
    return typer.Exit(2)


@app.command()
def play(
    hand: Annotated[list[str], typer.Argument(help="My cards, e.g. QS KS 2H 5C ...")],
    trick: Annotated[str, typer.Option(
        help="Cards on the current trick, the lead first, e.g. 5S,KS.")] = "",
    earlier: Annotated[str, typer.Option(
        help="Cards laid earlier this hand (whole tricks), e.g. 2C,AC,5C,9C.")] = "",
    voids: Annotated[str, typer.Option(
        help="Voids shown: SEAT:SUITS, seats left, across, right, e.g. left:S,across:HD.")]
    = "",
    taken: Annotated[str | None, typer.Option(
        help="Points taken this hand by me,left,across,right, e.g. 0,13,0,0 (default: "
             "every point laid earlier counted mine).")] = None,
    pass_to: Annotated[str | None, typer.Option(
        "--pass", help="Pass direction: advise the three cards to pass left, right or "
                       "across, from 13 cards.")] = None,
    rules_name: Annotated[str, typer.Option(
        "--rules", help="Hearts rules: standard or seed003.")] = "standard",
    player: Annotated[str, typer.Option(
        "--player", "-p", help="Player: fuzzy, heuristic or random; NAME:key=value,... for "
                               "options, e.g. fuzzy:rulebase=my.yaml")] = "fuzzy",
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: the fuzzy player's memberships and rule strengths of the "
                          "chosen card.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of the random player.", min=0,
                                      max=SEED_MAX)] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
    = False,
) -> None:
    """Which card to lay (or, with --pass, which three to pass), and why.

    I am seat 0; left plays after me. The fuzzy player shows its grade of each
    legal card, and with --explain the rules behind its choice.
    """
    from fuzzeval.games.hearts.advice import advise, position
    from fuzzeval.games.hearts.fuzzy import FuzzyHearts
    from fuzzeval.games.hearts.game import GAME
    from fuzzeval.play.spec import PlayerSpec

    try:
        spec = PlayerSpec.parse(player)
    except FuzzevalError as exc:
        raise _fail(f"--player {player}: {exc}") from None
    if spec.name not in PLAYERS:
        raise _fail(f"--player {player}: players are {', '.join(PLAYERS)}")
    try:
        built: Any = GAME.make_player(spec.name, **dict(spec.options))
    except (ValueError, TypeError, FuzzevalError) as exc:
        raise _fail(f"--player {player}: {exc}") from None
    policy = built if isinstance(built, FuzzyHearts) else built.policy
    try:
        state = position(hand, trick, earlier, voids, taken, pass_to, rules_name)
    except FuzzevalError as exc:
        raise _fail(str(exc)) from None
    if explain and not isinstance(policy, FuzzyHearts):
        raise _fail("--explain needs the fuzzy player")
    data = advise(state, policy, str(spec), explain, seed)
    if json_out:
        print_json(data)
        return
    _show(data, policy)


def _show(data: dict[str, Any], policy: Any) -> None:
    from fuzzeval.games.hearts.fuzzy import FuzzyHearts

    if "pass" in data:
        console.print(f"{data['hand']}, pass {data['direction']}, player {data['player']}: "
                      f"pass [bold]{' '.join(data['pass'])}[/bold]", highlight=False)
    else:
        trick = " ".join(data["trick"]) or "none (I lead)"
        console.print(f"{data['hand']}, trick {trick}, player {data['player']}: play "
                      f"[bold]{data['play']}[/bold]", highlight=False)
    if not isinstance(policy, FuzzyHearts):
        return
    console.print(policy.rulebase.origin, markup=False, highlight=False)
    rows = data["table"]
    inputs = list(rows[0])[2:]
    # the inputs that tell the cards apart, while they fit 80 columns (fewer on a narrower
    # terminal), each name whole
    width = min(80, console.width)
    varying = [n for n in inputs if len({row[n] for row in rows}) > 1]
    shown, _ = columns_that_fit(list(rows[0])[:2] + varying, width, always=list(rows[0])[:2])
    table = Table(box=box.SIMPLE_HEAD)
    for col in shown:
        table.add_column(col, justify="left" if col == "card" else "right", no_wrap=True)
    for i, row in enumerate(rows):
        table.add_row(*(f"{row[c]:.3g}" if isinstance(row[c], float) else str(row[c])
                        for c in shown), style="bold" if i == 0 else None)
    console.print(table)
    if len(shown) - 2 < len(inputs):
        console.print(f"{len(inputs) - len(shown) + 2} more inputs in --json (alike for "
                      f"every card, or past {width} columns)", highlight=False)
    if "explanation" in data:
        from fuzzeval.cli.evaluate import print_explanation

        first = data["pass"][0] if "pass" in data else data["play"]
        console.print(f"why {first}:")
        exp = policy.evaluator.explain([data["explanation"]["inputs"][n]
                                        for n in policy.rulebase.input_names])
        print_explanation(policy.evaluator, exp)
