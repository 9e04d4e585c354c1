"""A match spec from Python is refused where the command line refuses it (``fuzzeval
match``: at least one game, a seed from 0 to 2**63 - 1), and for a wrong type, when it is
built; ``run_match`` refuses a spec of another game before the history is touched."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from fuzzeval.errors import UsageError
from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History

GREEDY, RANDOM = PlayerSpec("greedy"), PlayerSpec("random")


def build(**changes: Any) -> MatchSpec:
    fields: dict[str, Any] = {"game": "cribbage", "player": GREEDY, "opponent": RANDOM,
                              "games": 2, "seed": 7}
    return MatchSpec(**(fields | changes))


@pytest.mark.parametrize(("changes", "message"), [
    ({"games": -1}, "MatchSpec games must be a whole number from 1 to 100000000 (got -1)"),
    ({"games": 0}, "MatchSpec games must be a whole number from 1 to 100000000 (got 0)"),
    ({"seed": -5}, "MatchSpec seed must be a whole number from 0 to 9223372036854775807 "
                   "(got -5)"),
    ({"seed": 2**64}, "MatchSpec seed must be a whole number from 0 to 9223372036854775807 "
                      "(got 18446744073709551616)"),
    ({"game": ""}, "MatchSpec game must name a game (got '')"),
    ({"game": "  "}, "MatchSpec game must name a game (got '  ')"),
    ({"options": (("hands", 2), ("hands", 3))},
     "MatchSpec option 'hands' given twice; give each option once"),
    ({"options": (("", 2),)}, "MatchSpec options[0]: an option's key must not be blank (got '')"),
    ({"seats": (GREEDY,)}, "MatchSpec seats names 1 player: name every seat's player (2 or "
                           "more), or none to seat player and opponent"),
    ({"seats": (RANDOM, GREEDY)}, "MatchSpec seats[0] is 'random' but player is 'greedy': "
                                  "seat 0 is the player and seat 1 the opponent, as the "
                                  "match is stored"),
    ({"seats": (GREEDY, GREEDY)}, "MatchSpec seats[1] is 'greedy' but opponent is 'random': "
                                  "seat 0 is the player and seat 1 the opponent, as the "
                                  "match is stored"),
])
def test_a_value_the_command_line_refuses_is_refused_when_the_spec_is_built(
        tmp_path: Path, changes: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError, match=f"^{re.escape(message)}$"):
        build(**changes)
    assert list(tmp_path.iterdir()) == []  # nothing made: no database, no match row


@pytest.mark.parametrize(("changes", "message"), [
    ({"games": "10"}, "MatchSpec games must be an int, not str '10'"),
    ({"games": True}, "MatchSpec games must be an int, not bool True"),
    ({"seed": 1.5}, "MatchSpec seed must be an int, not float 1.5"),
    ({"game": 3}, "MatchSpec game must be a str (the game's name), not int 3"),
    ({"player": "greedy"}, "MatchSpec player must be a PlayerSpec "
                           "(PlayerSpec.parse('NAME:key=value') reads one), not str 'greedy'"),
    ({"opponent": None}, "MatchSpec opponent must be a PlayerSpec "
                         "(PlayerSpec.parse('NAME:key=value') reads one), not NoneType None"),
    ({"options": {"hands": 2}}, "MatchSpec options must be a tuple of (key, value) pairs, "
                                "not dict {'hands': 2}"),
    ({"options": (("hands", None),)}, "MatchSpec options[0] must be a (str, str | int | "
                                      "float | bool) pair, not tuple ('hands', None)"),
    ({"seats": [GREEDY, RANDOM]}, "MatchSpec seats must be a tuple of PlayerSpec, not list "
                                  "[PlayerSpec(name='greedy', options=()), "
                                  "PlayerSpec(name='random', options=())]"),
    ({"seats": (GREEDY, "random")}, "MatchSpec seats[1] must be a PlayerSpec "
                                    "(PlayerSpec.parse('NAME:key=value') reads one), not "
                                    "str 'random'"),
    ({"duplicate": 1}, "MatchSpec duplicate must be a bool, not int 1"),
])
def test_a_wrong_type_is_a_type_error_naming_the_field(changes: dict[str, Any],
                                                       message: str) -> None:
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        build(**changes)


@pytest.mark.parametrize(("args", "error", "message"), [
    (("",), UsageError, "PlayerSpec name must be a player's name, without ':' or spaces "
                        "around it (got '')"),
    ((" greedy",), UsageError, "PlayerSpec name must be a player's name, without ':' or "
                               "spaces around it (got ' greedy')"),
    (("greedy:x",), UsageError, "PlayerSpec name must be a player's name, without ':' or "
                                "spaces around it (got 'greedy:x')"),
    ((None,), TypeError, "PlayerSpec name must be a str, not NoneType None"),
    (("exhaustive", (("weights", "expert"), ("weights", "uniform"))), UsageError,
     "PlayerSpec 'exhaustive' option 'weights' given twice; give each option once"),
    (("exhaustive", ["weights", "expert"]), TypeError,
     "PlayerSpec 'exhaustive' options must be a tuple of (key, value) pairs, not list "
     "['weights', 'expert']"),
])
def test_a_player_spec_that_would_not_read_back_is_refused(
        args: tuple[Any, ...], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        PlayerSpec(*args)


def _rows(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT * FROM matches").fetchall() + \
            conn.execute("SELECT match_id, idx FROM games").fetchall()


def test_a_spec_of_another_game_is_refused_before_the_history_is_touched(
        tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        run_match(h, CRIBBAGE, build())
    before = _rows(db)
    assert len(before) == 3  # one match, two games
    with History(db) as h, pytest.raises(UsageError, match=re.escape(
            "MatchSpec game 'hearts' is not the game passed ('cribbage'): give "
            "game='cribbage', or pass load_game('hearts')")):
        run_match(h, CRIBBAGE, build(game="hearts", seed=8))  # cribbage games as hearts
    assert _rows(db) == before


def test_a_stored_match_an_older_fuzzeval_let_in_names_the_file(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        match, _ = run_match(h, CRIBBAGE, build(games=1))
    with sqlite3.connect(db) as conn:  # what MatchSpec(..., seed=-5) used to leave
        conn.execute("UPDATE matches SET seed = -5")
    message = (f"{db}: match {match.id} cannot be read back: MatchSpec seed must be a "
               "whole number from 0 to 9223372036854775807 (got -5)")
    with History(db) as h, pytest.raises(HistoryError, match=f"^{re.escape(message)}$"):
        h.stored_match(match.id)


def test_parse_of_no_text_is_a_type_error_naming_it() -> None:
    """PlayerSpec.parse(None) was an AttributeError ('NoneType' has no 'partition')."""
    with pytest.raises(TypeError, match=r"^PlayerSpec.parse text must be a str \(NAME or "
                                        r"NAME:key=value,\.\.\.\), not NoneType None$"):
        PlayerSpec.parse(None)  # type: ignore[arg-type]
