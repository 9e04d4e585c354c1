"""Every advice command takes every player its game has (the registry's list, so a player
added to a game is checked here at once), as ``match`` names and builds them, and
``--explain`` works for each: a rule base shows its rules, any other player its choice,
its values and how it chose. Before, ``hearts play`` refused ismcts, sampling and td,
``backgammon moves`` td, ``holdem act`` took no player at all, and ``--explain`` was a
usage error for every player without a rule base or a simulation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.play.registry import all_player_names, load_game

runner = CliRunner()
HEARTS_HAND = ["QS", "AH", "KH", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"]

#: each advice command on one fixed decision
ADVICE = {
    "cribbage discard": ("cribbage", ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S",
                                      "9C", "--crib", "theirs"]),
    "cribbage peg": ("cribbage", ["cribbage", "peg", "KC", "3D", "7S", "--count", "6C 5C 4D",
                                  "--mine", "5C", "--starter", "KH", "--crib", "mine",
                                  "--thrown", "9C 9D"]),
    "backgammon moves": ("backgammon", ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice",
                                        "31"]),
    "hearts card": ("hearts", ["hearts", "card", *HEARTS_HAND, "--trick", "KC", "--earlier",
                               "2C,3C,4C,5C"]),
    "holdem act": ("holdem", ["holdem", "act", "--hole", "AsKd", "--board", "2c3d4h",
                              "--betting", "crc/"]),
}
#: a search made short for the suite (its result is not what is checked here)
QUICK = {"sampling": "sampling:trials=20", "ismcts": "ismcts:simulations=20",
         "maxn": "maxn:deals=5"}
CASES = [(command, name) for command, (game, _) in ADVICE.items()
         for name in all_player_names(load_game(game))]


def _refusal(game: str, spec: str) -> str | None:
    """What ``match`` says of the player ``spec`` in ``game``, None when it makes it."""
    from fuzzeval.cli.common import named_player

    try:
        named_player(load_game(game), spec)
    except (ValueError, TypeError) as exc:
        return str(exc)
    return None


@pytest.mark.parametrize(("command", "name"), CASES, ids=[f"{c} -p {n}" for c, n in CASES])
def test_every_advice_command_takes_every_player_of_its_game(command: str, name: str) -> None:
    game, args = ADVICE[command]
    spec = QUICK.get(name, name)
    result = runner.invoke(app, [*args, "-p", spec, "--explain"])
    refused = _refusal(game, spec)
    if refused is not None:  # as match refuses it: td where no learned base is shipped
        assert (result.exit_code, result.stderr) == (2, f"error: --player {spec}: {refused}\n")
        assert name == "td" and game in ("holdem",)
        return
    assert result.exit_code == 0, result.output
    assert "\nwhy " in f"\n{result.stdout}", result.stdout


def test_the_registry_lists_the_players_match_takes() -> None:
    """The game's own, then the game-agnostic players that can play it: backgammon has no
    hidden-information hooks (no sampling), cribbage no features (no td)."""
    assert {g: all_player_names(load_game(g)) for g in ("backgammon", "cribbage", "hearts",
                                                         "holdem")} == {
        "backgammon": ("random", "pubeval", "gnubg", "fuzzy", "td"),
        "cribbage": ("random", "greedy", "es", "fuzzy", "exhaustive", "sampling"),
        "hearts": ("random", "heuristic", "fuzzy", "ismcts", "maxn", "sampling", "td"),
        "holdem": ("random", "call", "raise", "acpc-example", "fuzzy", "sampling", "td")}


def _json(command: str, *extra: str) -> dict[str, object]:
    result = runner.invoke(app, [*ADVICE[command][1], *extra, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_the_learned_players_make_the_book_plays() -> None:
    """31 opening: make the 5 point (8/5 6/5), every book's play. Void in clubs on a club
    trick: dump the queen of spades, the 13 points, on a trick someone else takes."""
    plays = _json("backgammon moves", "-p", "td")["plays"]
    assert plays[0]["play"] == "8/5 6/5" and len(plays) == 16  # type: ignore[index]
    assert _json("hearts card", "-p", "td")["play"] == "QS"
    assert _json("hearts card", "-p", "sampling:trials=50")["play"] == "QS"


def test_the_simple_players_choose_what_they_are_defined_to() -> None:
    """Nothing to call: the calling station checks, the maniac bets. Greedy keeps the four
    with the best expected hand: 5H 5S JD QC holds 10 before the starter (four fifteens
    and a pair), which no other four comes near."""
    assert _json("holdem act", "-p", "call")["action"] == "check"
    assert _json("holdem act", "-p", "raise")["action"] == "bet"
    assert _json("cribbage discard", "-p", "greedy")["discard"] == ["4S", "9C"]


def test_explain_says_how_a_player_without_rules_chose() -> None:
    cases = {
        ("cribbage discard", "greedy"): "why 4S 9C: the best expected hand over the 46 "
                                        "starters (the crib ignored)",
        ("cribbage discard", "exhaustive"): "why 4S 9C: the best exact EV: the hand and the "
                                            "crib averaged over every starter and opponent "
                                            "throw",
        ("cribbage peg", "exhaustive"): "why 7S: the most points now less the points the "
                                        "reply is expected to score (net_points)",
        ("backgammon moves", "pubeval"): "why 8/5 6/5: the best grade of the position each "
                                         "play leads to",
        ("hearts card", "heuristic"): "why QS: it shows no values, only its choice",
        ("holdem act", "call"): "why check: it shows no values, only its choice",
    }
    for (command, name), line in cases.items():
        result = runner.invoke(app, [*ADVICE[command][1], "-p", name, "--explain"])
        assert result.exit_code == 0, result.output
        said = " ".join(result.stdout.split())
        assert line in said, (command, name, said)


def test_a_learned_base_of_the_game_s_features_advises_in_holdem(tmp_path: Path) -> None:
    """td:rulebase=FILE in hold'em, where none is shipped: the value of each action, the
    best taken, and the rules behind it (here the raise, worth 1 against 0)."""
    base = tmp_path / "holdem_td.yaml"
    base.write_text("""name: holdem_td
defuzzifier: weighted_sum
default: 0
inputs:
  action:
    range: [0, 2]
    terms:
      other: [0, 0, 2]
      raise: [0, 2, 2]
output:
  name: value
  range: [-10, 10]
  terms:
    down: 0
    up: 1
rules:
  - if action is other then value is down
  - if action is raise then value is up
""")
    result = runner.invoke(app, [*ADVICE["holdem act"][1], "-p", f"td:rulebase={base}",
                                 "--explain", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["action"] == "bet"
    assert [(a["action"], a["value"]) for a in data["actions"]] == [("check", 0.5),
                                                                    ("bet", 1.0)]
    assert data["explanation"]["grade"] == 1.0


def test_a_missing_extra_is_said_as_every_command_says_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if not installed
    result = runner.invoke(app, [*ADVICE["hearts card"][1], "-p", "ismcts"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("error: hearts player 'ismcts' needs OpenSpiel, an optional "
                             "extra: pip install 'fuzzeval[openspiel]'\n")
