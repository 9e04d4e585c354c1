"""``fuzzeval holdem``: heads-up limit hold'em commands.

``act --hole AsKd --board 2c3d4h --betting crc/`` grades each legal action of a spot with
the fuzzy player's rule base, shows the probability triple it draws from, and with
``--explain`` the memberships and rules behind an action's grade.

``replay FILE`` reads an ACPC hand log (this project's ``history export --format acpc``
or anyone's), checks every hand against the rules, that the hands run 0, 1, 2, ... with
none missing or repeated, that two players play them and that the file is UTF-8, and prints
each player's totals. A bad line is one ``error: FILE:LINE: ...`` line on stderr, it is not
counted and the next line is read; the exit status is then 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from fuzzeval.cli.common import help_when_bare, print_json

app = typer.Typer(help="Heads-up limit hold'em: advice for a spot, and ACPC hand logs.")
app.callback(invoke_without_command=True)(help_when_bare)  # alone: its help, exit 0
# no emoji: ":hand:" in a log line or a player's name is text
console = Console(emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)


def _fail(message: str) -> None:
    err.print(f"error: {message}", markup=False, highlight=False)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="ACPC log: STATE:hand:betting:cards:chips:"
                                              "names lines (SCORE lines are checked too).")],
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
    = False,
) -> None:
    """Check every hand of an ACPC log and print each player's totals.

    Chips are ACPC chips (a small bet is 10); small bets per hand divide by 10.
    """
    from fuzzeval.games.holdem.acpc import read_log
    from fuzzeval.games.holdem.rules import SMALL_BET

    if not file.is_file():
        _fail(f"{file}: no such file")
        raise typer.Exit(2)
    with file.open("rb") as lines:  # decoded line by line: a byte not UTF-8 is an error
        totals = read_log(lines, str(file))
    for line in totals.errors:
        _fail(line)
    rows = [{"player": name, "hands": totals.hands[name], "chips": totals.chips[name],
             "small_bets_per_hand": totals.chips[name] / SMALL_BET / totals.hands[name]}
            for name in totals.hands]
    if json_out:
        print_json({"file": str(file), "players": rows, "bad_lines": len(totals.errors)})
    else:
        table = Table(box=box.SIMPLE_HEAD, title=f"{file}: {totals.count} hands",
                      title_justify="left")
        for col in ("player", "hands", "chips", "sb/hand"):
            table.add_column(col, justify="left" if col == "player" else "right")
        for row in rows:
            table.add_row(str(row["player"]), str(row["hands"]), f"{row['chips']:+d}",
                          f"{row['small_bets_per_hand']:+.3f}")
        console.print(table)
    if totals.errors:
        raise typer.Exit(2)


_NAMES = {"f": "fold", "c": "call", "r": "raise"}


@app.command()
def act(
    hole: Annotated[str, typer.Option(help="My hole cards, e.g. AsKd.")],
    board: Annotated[str, typer.Option(help="The board so far, e.g. 2c3d4h (none "
                                            "preflop).")] = "",
    betting: Annotated[str, typer.Option(
        help="The betting so far, the ACPC way: f, c, r, rounds split by /, e.g. crc/ "
             "(empty: the button's first action).")] = "",
    rulebase: Annotated[str, typer.Option(
        help="Rule base to grade the actions with (path or shipped name).")] = "holdem",
    temperature: Annotated[float, typer.Option(
        help="Softmax temperature of the triple.")] = 0.1,
    action: Annotated[str | None, typer.Option(
        help="The action to explain (f, c or r; default: the likeliest).")] = None,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: the memberships and rule strengths of an action's grade.")]
    = False,
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
    = False,
) -> None:
    """Grade each legal action of a spot and show the triple (fold, call, raise).

    The player to act is the one the betting says (the button first preflop, the big blind first after the flop). Its features (effective hand strength, pot odds, bets) are shown with the grades.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    from fuzzeval.errors import FuzzevalError
    from fuzzeval.games.holdem.features import FEATURE_NAMES, decision_features
    from fuzzeval.games.holdem.fuzzy import fuzzy_player, triple
    from fuzzeval.games.holdem.rules import ROUND_NAMES
    from fuzzeval.games.holdem.spot import action_index, read_spot

    try:
        d = read_spot(hole, board, betting)
        player = fuzzy_player(rulebase, temperature)
        chosen = None if action is None else action_index(d, action)
    except (FuzzevalError, ValueError) as exc:
        _fail(str(exc))
        raise typer.Exit(2) from None
    ev = player.evaluator
    rows = decision_features(d)
    x = rows[:, [FEATURE_NAMES.index(n) for n in ev.input_names]]
    grades = ev.grade(x)
    p = triple(grades, d.actions, player.temperature)
    probs = [p["fcr".index(a)] for a in d.actions]
    best = chosen if chosen is not None else int(max(range(len(probs)), key=probs.__getitem__))
    features = {n: float(rows[0, i]) for i, n in enumerate(FEATURE_NAMES) if n != "action"}
    where = "button" if d.position == 1 else "big blind"
    if json_out:
        out: dict[str, object] = {
            "hole": hole, "board": board, "betting": betting, "round": ROUND_NAMES[d.betting.round],
            "position": where, "rulebase": ev.rulebase.name, "features": features,
            "actions": [{"action": _NAMES[a], "grade": float(g), "probability": pr}
                        for a, g, pr in zip(d.actions, grades, probs, strict=True)],
            "triple": list(p)}
        if explain:
            out["explanation"] = ev.explain(x[best]).to_dict()
        print_json(out)
        return
    console.print(f"{hole} on {board or 'no board'}, betting {betting or 'none'} "
                  f"({ROUND_NAMES[d.betting.round]}, {where} to act): triple fold "
                  f"{p[0]:.2f}, call {p[1]:.2f}, raise {p[2]:.2f}", highlight=False)
    console.print(ev.rulebase.origin, markup=False, highlight=False)
    console.print("  ".join(f"{n} {v:.3g}" for n, v in features.items()), highlight=False)
    table = Table(box=box.SIMPLE_HEAD)
    for col in ("action", "worth", "probability"):
        table.add_column(col, justify="left" if col == "action" else "right")
    for i, (a, g, pr) in enumerate(zip(d.actions, grades, probs, strict=True)):
        table.add_row(_NAMES[a], f"{g:.3f}", f"{pr:.3f}", style="bold" if i == best else None)
    console.print(table)
    if explain:
        from fuzzeval.cli.evaluate import print_explanation

        console.print(f"why {_NAMES[d.actions[best]]}:")
        print_explanation(ev, ev.explain(x[best]))
