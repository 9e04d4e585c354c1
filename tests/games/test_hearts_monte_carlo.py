"""``maxn``, the Monte-Carlo player on the search to the end of the trick: the card a
hand-worked trick makes obvious, each card's mean points as advice shows them, the pass
as heuristic's, a decision repeated from its seed, and its options refused in one line."""

from __future__ import annotations

from collections.abc import Sequence

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
from fuzzeval.games.hearts.positions import FloatArray
from fuzzeval.games.hearts.trick import points_taken
from fuzzeval.games.hearts.trick_search import IntArray, Leaves
from fuzzeval.play.advice import Judgement
from fuzzeval.play.game import Candidates
from fuzzeval.play.match import make_player

runner = CliRunner()


class Gains:
    """Points valued as gains (minus the points taken): a player that wants the QS."""

    def __call__(self, leaves: Sequence[State]) -> FloatArray:
        return -points_taken(leaves)

    def of_seat(self, leaves: Leaves, index: IntArray, seat: int) -> FloatArray:
        out: FloatArray = -leaves.points[index, seat]
        return out

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
                    "hearts, passing, queen, read, values)"),
    ({"passing": "x"}, "passing must be one of value, heuristic (got 'x')"),
    ({"passing": "value"}, "passing=value needs values=learned (the values of a hand)"),
    ({"passing": "value", "values": "taken"}, "passing=value needs values=learned (the "
                                              "values of a hand)"),
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


# Pinned after mutation testing (docs/checking.md): each fails with its mutant applied.

@pytest.mark.mutation_pin
def test_one_legal_card_is_laid_unsearched_two_are_searched() -> None:
    """The only spade, on a spade led, is laid without a deal searched; two spades are
    searched: the 4S ducks under the JS (0 points), first in the legal order."""
    rng = np.random.default_rng(0)
    one = GAME.candidates(State(position("4S 3D 7D JD 5H 8H AH 9C KC 6D 2H 3H",
                                         trick="8S,JS", earlier="2C,AC,5C,TC")))
    assert MaxnHearts().judge(one, rng) == Judgement(0, "the only legal card")
    two = GAME.candidates(State(position("QS 4S 3D 7D JD 5H 8H AH 9C KC 6D 2H",
                                         trick="8S,JS", earlier="2C,AC,5C,TC")))
    judged = MaxnHearts().judge(two, rng)
    assert (judged.choice, judged.columns, judged.values[0]) == (0, ("points", "sd"),
                                                                 (0.0, 0.0))
    assert judged.how.startswith("the fewest points taken by the trick's end")


@pytest.mark.mutation_pin
def test_the_pass_says_it_is_heuristic_s_and_another_view_is_refused_by_its_type() -> None:
    state = position(HAND + " 2S", pass_to="left")
    candidates = GAME.candidates(State(state))
    d = candidates.view
    rng = np.random.default_rng(0)
    assert MaxnHearts().judge(candidates, rng) == Judgement(
        heuristic_player(d.view, d.cards, rng),
        "it passes as heuristic: it shows no values, only its choice")
    with pytest.raises(TypeError) as exc:
        MaxnHearts().judge(Candidates("card", ("x",), np.zeros((1, 0)), view="seat 0"), rng)
    assert str(exc.value) == "not a Decision: str"


@pytest.mark.mutation_pin
def test_one_deal_has_no_deviation_and_two_deals_have_the_sample_one() -> None:
    """Third to 8S JS: the QS costs 13 in a deal where the last seat can duck under it, 0
    where it must overtake with the AS. One deal: its points, deviation 0 (not NaN). Two
    deals that split (seed 1): mean 6.5, sample deviation 13 / sqrt(2)."""
    state = position(HAND, trick="8S,JS", earlier="2C,AC,5C,TC")
    one = advise(state, make_player(GAME, "maxn", deals=1), "maxn")["table"]
    assert [row["sd"] for row in one] == [0.0, 0.0, 0.0]
    assert one[2]["card"] == "QS" and one[2]["points"] in (0.0, 13.0)
    two = advise(state, make_player(GAME, "maxn", deals=2), "maxn", seed=1)["table"]
    assert two[2] == {"card": "QS", "points": 6.5, "sd": round(13 / 2 ** 0.5, 6)}
    assert make_player(GAME, "maxn", deals=1000) == MaxnHearts(1000)


@pytest.mark.mutation_pin
def test_choose_is_decide_s_choice_and_the_leaves_are_valued_by_its_values() -> None:
    state = position(HAND, trick="8S,JS", earlier="2C,AC,5C,TC")
    candidates = GAME.candidates(State(state))
    assert MaxnHearts().choose(candidates, np.random.default_rng(1)) == 0  # the 4S
    # Last to 3S 5S 7S with 2S QS AS: a player valuing points as gains (minus the points
    # taken) takes the QS and its 13 points; the 2S and the AS take none.
    last = position("2S QS AS 3D 7D JD 5H 8H 9C KC 6D 4H", trick="3S,5S,7S",
                    earlier="2C,AC,5C,TC")
    greedy = MaxnHearts(20, Gains())
    judged = greedy.judge(GAME.candidates(State(last)), np.random.default_rng(0))
    assert [card_str(c) for c in rules.legal(last)] == ["2S", "QS", "AS"]
    assert (judged.choice, [v[0] for v in judged.values]) == (1, [0.0, -13.0, 0.0])


@pytest.mark.mutation_pin
def test_of_cards_tied_on_their_mean_the_first_in_the_legal_order_is_laid() -> None:
    """Last to 2S QS 3S holding 4S 5S KS AS, valuing points as gains: the KS and the AS
    take the QS (13 each), the 4S and 5S nothing: the KS, the first of the two best."""
    last = position("4S 5S KS AS 3D 7D JD 5H 8H 9C KC 6D", trick="2S,QS,3S",
                    earlier="2C,AC,5C,TC")
    greedy = MaxnHearts(3, Gains())
    judged = greedy.judge(GAME.candidates(State(last)), np.random.default_rng(0))
    assert [card_str(c) for c in rules.legal(last)] == ["4S", "5S", "KS", "AS"]
    assert [v[0] for v in judged.values] == [0.0, 0.0, -13.0, -13.0]
    assert (judged.choice, judged.order) == (2, (2, 3, 0, 1))
