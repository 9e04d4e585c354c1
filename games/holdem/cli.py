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

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from fuzzeval.cli.common import (
    SEED_MAX,
    JsonOpt,
    command_group,
    console,
    player_option,
    print_json,
    say_error,
    usage_error,
)
from fuzzeval.cli.outputs import file_kind

if TYPE_CHECKING:  # the players import the engine: `fuzzeval --help` does not
    from fuzzeval.games.holdem.fuzzy import FuzzyPlayer
    from fuzzeval.games.holdem.players import Decision
    from fuzzeval.play.advice import Judgement
    from fuzzeval.play.game import Candidates

app = command_group("Heads-up limit hold'em: advice for a spot, and ACPC hand logs.")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="ACPC log: STATE:hand:betting:cards:chips:"
                                              "names lines (SCORE lines are checked too).")],
    json_out: JsonOpt = False,
) -> None:
    """Check every hand of an ACPC log and print each player's totals.

    Chips are ACPC chips (a small bet is 10); small bets per hand divide by 10.
    """
    from fuzzeval.games.holdem.acpc import read_log
    from fuzzeval.games.holdem.rules import SMALL_BET

    if not file.is_file():
        raise usage_error(f"{file}: no such file")
    if file_kind(file) == "database":  # a history, not its export
        raise usage_error(f"{file}: an SQLite database, not an ACPC log; write one with "
                          f"fuzzeval history export {file} --format acpc -o FILE")
    with file.open("rb") as lines:  # decoded line by line: a byte not UTF-8 is an error
        totals = read_log(lines, str(file))
    for line in totals.errors:
        say_error(line)
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
    ctx: typer.Context,
    hole: Annotated[str, typer.Option(help="My hole cards, e.g. AsKd.")],
    board: Annotated[str, typer.Option(help="The board so far, e.g. 2c3d4h (none "
                                            "preflop).")] = "",
    betting: Annotated[str, typer.Option(
        help="The betting so far, the ACPC way: f, c, r, rounds split by /, e.g. crc/ "
             "(empty: the button's first action).")] = "",
    player: Annotated[str, typer.Option(
        "--player", "-p", help="Player: fuzzy (the ProbTriple), sampling, td:rulebase=FILE, "
                               "random, call, raise or acpc-example; NAME:key=value,... as "
                               "in match, e.g. sampling:trials=200")] = "fuzzy",
    rulebase: Annotated[str, typer.Option(
        help="Rule base to grade the actions with (path or shipped name; the fuzzy "
             "player's).")] = "holdem",
    temperature: Annotated[float, typer.Option(
        help="Softmax temperature of the triple (the fuzzy player's).")] = 0.1,
    action: Annotated[str | None, typer.Option(
        help="The action to explain (f, c or r; default: the likeliest; the fuzzy "
             "player).")] = None,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: the memberships and rule strengths of an action's grade "
                          "(a rule base), or how the player chose.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of a player that draws (the triple, "
                                           "random, sampling).", min=0, max=SEED_MAX)] = 1,
    json_out: JsonOpt = False,
) -> None:
    """Grade each legal action of a spot and show the triple (fold, call, raise), or what
    another player would do.

    The player to act is the one the betting says (the button first preflop, the big blind first after the flop). Its features (effective hand strength, pot odds, bets) are shown with the grades.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    import numpy as np

    from fuzzeval.errors import FuzzevalError
    from fuzzeval.games.holdem.fuzzy import FuzzyPlayer
    from fuzzeval.games.holdem.game import GAME, decision_candidates
    from fuzzeval.games.holdem.play import judgement
    from fuzzeval.games.holdem.spot import action_index, read_spot
    from fuzzeval.play.spec import PlayerSpec

    try:
        spec = PlayerSpec.parse(player)
    except FuzzevalError as exc:
        raise usage_error(f"--player {player}: {exc}") from None
    extra: dict[str, Any] = {}
    for name, value in (("rulebase", rulebase), ("temperature", temperature)):
        source = ctx.get_parameter_source(name)
        if source is None or source.name == "DEFAULT":
            continue
        if spec.name != "fuzzy" or name in dict(spec.options):
            raise usage_error(f"--{name} is the fuzzy player's: give it once, as --{name} "
                              f"with -p fuzzy or as -p fuzzy:{name}={value}")
        extra[name] = value
    built = player_option(GAME, player, **extra)
    try:
        d = read_spot(hole, board, betting)
        if action is not None and not isinstance(built, FuzzyPlayer):
            raise FuzzevalError(f"--action is the fuzzy player's (the action whose grade "
                                f"to explain); {spec.name} explains its own choice")
        chosen = None if action is None else action_index(d, action)
    except (FuzzevalError, ValueError) as exc:
        raise usage_error(str(exc)) from None
    candidates = decision_candidates(d)
    try:
        j = judgement(built, candidates, np.random.default_rng(seed), chosen)
    except (FuzzevalError, ValueError) as exc:
        raise usage_error(f"--player {player}: {exc}") from None
    spot = _Spot(hole, board, betting, d)
    if isinstance(built, FuzzyPlayer):
        _show_triple(spot, built, candidates, j, explain, json_out)
    else:
        _show_choice(spot, str(spec), candidates, j, explain, json_out)


@dataclass(frozen=True)
class _Spot:
    """The spot as typed, and as read."""

    hole: str
    board: str
    betting: str
    decision: Decision

    def about(self) -> dict[str, object]:
        from fuzzeval.games.holdem.rules import ROUND_NAMES

        d = self.decision
        return {"hole": self.hole, "board": self.board, "betting": self.betting,
                "round": ROUND_NAMES[d.betting.round],
                "position": "button" if d.position == 1 else "big blind"}

    def header(self) -> str:
        about = self.about()
        return (f"{self.hole} on {self.board or 'no board'}, betting {self.betting or 'none'} "
                f"({about['round']}, {about['position']} to act)")


def _show_triple(spot: _Spot, player: FuzzyPlayer, candidates: Candidates, j: Judgement,
                 explain: bool, json_out: bool) -> None:
    """The fuzzy player: its features, each action's grade and probability, the triple."""
    from fuzzeval.games.holdem.features import FEATURE_NAMES
    from fuzzeval.games.holdem.fuzzy import TRIPLE

    d = spot.decision
    ev = player.evaluator
    rows = candidates.feature_rows([0])
    grades = [v[0] for v in j.values]
    probs = [v[1] for v in j.values]
    p = [probs[d.actions.index(a)] if a in d.actions else 0.0 for a in TRIPLE]
    features = {n: float(rows[0, i]) for i, n in enumerate(FEATURE_NAMES) if n != "action"}
    assert j.explanation is not None
    exp = j.explanation[1]
    if json_out:
        out: dict[str, object] = {
            **spot.about(), "rulebase": ev.rulebase.name, "features": features,
            "actions": [{"action": _NAMES[a], "grade": g, "probability": pr}
                        for a, g, pr in zip(d.actions, grades, probs, strict=True)],
            "triple": p}
        if explain:
            out["explanation"] = exp.to_dict()
        print_json(out)
        return
    console.print(f"{spot.header()}: triple fold {p[0]:.2f}, call {p[1]:.2f}, raise "
                  f"{p[2]:.2f}", highlight=False)
    console.print(ev.rulebase.origin, markup=False, highlight=False)
    console.print("  ".join(f"{n} {v:.3g}" for n, v in features.items()), highlight=False)
    table = Table(box=box.SIMPLE_HEAD)
    for col in ("action", "worth", "probability"):
        table.add_column(col, justify="left" if col == "action" else "right")
    for i, (a, g, pr) in enumerate(zip(d.actions, grades, probs, strict=True)):
        table.add_row(_NAMES[a], f"{g:.3f}", f"{pr:.3f}", style="bold" if i == j.choice
                      else None)
    console.print(table)
    if explain:
        from fuzzeval.cli.evaluate import print_explanation

        console.print(f"why {_NAMES[d.actions[j.choice]]}:")
        print_explanation(ev, exp)


def _show_choice(spot: _Spot, name: str, candidates: Candidates, j: Judgement,
                 explain: bool, json_out: bool) -> None:
    """Another player: its action, what it weighed (if anything) and how it chose."""
    labels = candidates.labels
    if json_out:
        out: dict[str, object] = {
            **spot.about(), "player": name, "action": labels[j.choice],
            "actions": [{"action": label, **dict(zip(j.columns, values, strict=True))}
                        for label, values in zip(labels, j.values or [()] * len(labels),
                                                 strict=True)],
            "how": j.how}
        if explain and j.explanation is not None:
            out["explanation"] = j.explanation[1].to_dict()
        print_json(out)
        return
    console.print(f"{spot.header()}, player {escape(name)}: [bold]{labels[j.choice]}[/bold]",
                  highlight=False)
    if j.columns:
        table = Table(box=box.SIMPLE_HEAD)
        for col in ("action", *j.columns):
            table.add_column(col, justify="left" if col == "action" else "right")
        for i, values in enumerate(j.values):
            table.add_row(labels[i], *(f"{v:.3f}" for v in values),
                          style="bold" if i == j.choice else None)
        console.print(table)
    if not explain:
        return
    if j.explanation is None:
        console.print(f"why {labels[j.choice]}: {j.how}", highlight=False)
        return
    from fuzzeval.cli.evaluate import print_explanation

    console.print(f"why {labels[j.choice]}: {j.how}", highlight=False)
    print_explanation(*j.explanation)
