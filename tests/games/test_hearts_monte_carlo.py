"""``maxn``, the Monte-Carlo player on the search to the end of the trick: the card a
hand-worked trick makes obvious, each card's mean points as advice shows them, the pass
as heuristic's, a decision repeated from its seed, and its options refused in one line."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.advice import advise, position
from fuzzeval.games.hearts.cards import card_str
from fuzzeval.games.hearts.game import GAME, State
from fuzzeval.games.hearts.monte_carlo import MaxnHearts, maxn_player
from fuzzeval.games.hearts.players import heuristic_player
from fuzzeval.play.match import make_player

runner = CliRunner()
HAND = "QS KS 4S 3D 7D JD 5H 8H AH 9C KC 6D"


def test_last_to_a_spade_trick_it_keeps_the_queen_and_plays_under() -> None:
    """Last to play on 3S 5S 7S: the QS wins its own 13 points in every deal, the AS wins
    a trick of no points, the 2S ducks: 0 points too, and first in the legal order."""
    state = position("2S QS AS 3D 7D JD 5H 8H 9C KC 6D 4H", trick="3S,5S,7S",
                     earlier="2C,AC,5C,TC")
    data = advise(state, maxn_player(), "maxn")
    assert data["play"] == "2S"
    assert data["table"] == [{"card": "2S", "points": 0.0, "sd": 0.0},
                             {"card": "AS", "points": 0.0, "sd": 0.0},
                             {"card": "QS", "points": 13.0, "sd": 0.0}]
    assert data["how"] == ("the fewest points taken by the trick's end on average over 20 "
                           "sampled deals, each searched by maxⁿ (every seat by the points "
                           "it takes)")


def test_third_to_a_spade_trick_it_ducks_the_queen() -> None:
    """8S led, JS on it, the KS in my hand: only the AS is above the QS, and the last seat
    overtakes with it only when it must (2 of the 20 deals here), so the QS takes its
    own 13 points in 18 of them (11.7 on average); the 4S ducks under the JS."""
    data = advise(position(HAND, trick="8S,JS", earlier="2C,AC,5C,TC"), maxn_player(),
                  "maxn", seed=1)
    assert data["play"] == "4S"
    assert data["table"] == [{"card": "4S", "points": 0.0, "sd": 0.0},
                             {"card": "KS", "points": 0.0, "sd": 0.0},
                             {"card": "QS", "points": 11.7, "sd": 4.001316}]


def test_a_decision_repeats_from_its_seed() -> None:
    rng = np.random.default_rng(7)
    state = GAME.new_game(rng, 0, rules="sturtevant-white")
    player = maxn_player(deals=5)
    decided = 0
    while GAME.to_move(state) is not None:
        candidates = GAME.candidates(state)
        a = player.decide(candidates, np.random.default_rng(decided))
        assert a == player.decide(candidates, np.random.default_rng(decided))
        assert 0 <= a[0] < len(candidates)
        decided += len(candidates) > 1
        state = GAME.apply(state, a[0], rng)
    assert decided > 20
    assert sum(rules.hand_points(state.hand)) in (26, 78)


def test_a_searched_decision_keeps_its_deals_and_means() -> None:
    state = position(HAND, trick="8S,JS", earlier="2C,AC,5C,TC")
    candidates = GAME.candidates(State(state))
    assert maxn_player().decide(candidates, np.random.default_rng(1)) == (
        0, {"deals": 20, "points": "0.000 11.700 0.000"})
    assert [card_str(c) for c in rules.legal(state)] == ["4S", "QS", "KS"]


def test_it_passes_as_heuristic_does() -> None:
    state = position(HAND + " 2S", pass_to="left")
    candidates = GAME.candidates(State(state))
    d = candidates.view
    rng = np.random.default_rng(0)
    assert maxn_player().decide(candidates, rng) == (
        heuristic_player(d.view, d.cards, rng), {})
    assert advise(state, maxn_player(), "maxn")["pass"] == ["KS", "QS", "AH"]


def test_match_makes_it_by_name_with_its_options() -> None:
    assert make_player(GAME, "maxn") == MaxnHearts(20)
    assert make_player(GAME, "maxn", deals=3) == MaxnHearts(3)


@pytest.mark.parametrize(("options", "message"), [
    ({"deals": 0}, "deals must be a whole number from 1 to 1,000 (got 0)"),
    ({"deals": "x"}, "deals must be a whole number from 1 to 1,000 (got 'x')"),
    ({"deals": True}, "deals must be a whole number from 1 to 1,000 (got True)"),
    ({"deals": 1001}, "deals must be a whole number from 1 to 1,000 (got 1001)"),
    ({"trials": 3}, "player 'maxn' does not take options ['trials'] (options: deals, "
                    "hearts, queen, values)"),
])
def test_bad_options_are_refused_in_one_line(options: dict[str, object], message: str
                                             ) -> None:
    with pytest.raises(ValueError) as exc:
        make_player(GAME, "maxn", **options)
    assert str(exc.value) == message


def test_the_card_command_refuses_a_bad_option_in_one_line() -> None:
    result = runner.invoke(app, ["hearts", "card", *HAND.split(), "--trick", "8S,JS",
                                 "--earlier", "2C,AC,5C,TC", "-p", "maxn:deals=0"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ("error: --player maxn:deals=0: deals must be a whole number "
                             "from 1 to 1,000 (got 0)\n")
