"""The search to the end of the trick over many deals at once (``hearts.trick_search``):
a hand-worked trick, the generic maxⁿ's choices and values on random tricks (by the points
taken and by the shipped learned values), and the Monte-Carlo player's choices on seeded
decisions as they were before the search was batched."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.game import GAME, State
from fuzzeval.games.hearts.monte_carlo import maxn_player
from fuzzeval.games.hearts.position_values import position_values
from fuzzeval.games.hearts.sampling import determinized
from fuzzeval.games.hearts.trick import TAKEN, search_trick
from fuzzeval.games.hearts.trick_search import search_deals
from fuzzeval.games.hearts.view import view

from ..test_maxn import position


def test_the_last_seat_ducks_under_the_queen() -> None:
    # As tests/test_maxn.py works it: 10S QS 2S on the table, seat 3 holds 3S AS 4H and
    # must follow: 3S leaves the QS with seat 1 (1 point for seat 3), AS takes it (14).
    state = position(("9C", "8C", "7C", "3S AS 4H"), 0, "TS QS 2S", taken=(2, 0, 5, 1))
    found = search_deals([state.hand], TAKEN)
    assert found.points.tolist() == [[1.0, 14.0]]
    assert found.leaves.points[found.leaf[0]].tolist() == [[2.0, 13.0, 5.0, 1.0],
                                                          [2.0, 0.0, 5.0, 14.0]]
    assert found.leaves.leader[found.leaf[0]].tolist() == [1, 3]


def test_a_trick_led_is_backed_up_by_each_seat_s_own_points() -> None:
    # Seat 0 leads from 2H QS; seat 1 holds 3H KS, seats 2 and 3 one heart each (4H, 5H).
    # 2H led: seat 1 must follow 3H, seats 2, 3 lay 4H 5H: seat 3 takes 4 hearts (0,0,0,4).
    # QS led: seat 1 follows KS (takes 13) - its only spade; seats 2, 3 discard hearts:
    # seat 1 takes 13 + 2 = 15.
    state = position(("2H QS", "3H KS", "4H 9C", "5H 8C"), 0)
    found = search_deals([state.hand], TAKEN)
    assert found.points.tolist() == [[0.0, 0.0]]
    assert found.leaves.points[found.leaf[0]].tolist() == [[0.0, 0.0, 0.0, 4.0],
                                                          [0.0, 15.0, 0.0, 0.0]]


def test_a_moon_shot_made_before_the_last_trick_is_scored_as_one() -> None:
    # Seat 3 has taken the Q and twelve hearts (25 points); seat 0 led 5C, seat 1 shed the
    # last heart, 2H, seat 2 laid 3C, and one trick is left after this one. Seat 3's 2C
    # leaves the trick to seat 0's 5C: (1, 0, 0, 25); its 9C takes the last point, all 26:
    # the moon, 26 to each other seat and 0 to it. It shoots (0 < 25), by the points taken
    # and by the learned values alike (nothing is left to come: the Q and every heart laid).
    state = position(("6D", "7D", "8D", "2C 9C"), 0, "5C 2H 3C", taken=(0, 0, 0, 25))
    assert [rules.legal(state.hand)[k] for k in (0, 1)] == [0, 28]  # 2C, 9C
    result = search_trick(state)
    assert result.choice == 1
    assert result.options.tolist() == [[1.0, 0.0, 0.0, 25.0], [26.0, 26.0, 26.0, 0.0]]
    assert search_deals([state.hand], TAKEN).points.tolist() == [[25.0, 0.0]]
    assert search_deals([state.hand], position_values()).points.tolist() == [[25.0, 0.0]]


def _random_tricks(seed: int, count: int) -> list[rules.State]:
    """Hands reached by random play, each at a random card of its play phase."""
    rng = np.random.default_rng(seed)
    random = GAME.make_player("random")
    out: list[rules.State] = []
    while len(out) < count:
        names = ("standard", "sturtevant-white")
        state = GAME.new_game(rng, 0, rules=names[len(out) % 2])
        stop = int(rng.integers(0, 52))
        while (state.hand.phase != "over" and len(state.hand.laid) < stop) or \
                state.hand.phase == "pass":
            state = GAME.apply(state, random.choose(GAME.candidates(state), rng), rng)
        if state.hand.phase == "play":
            out.append(state.hand)
    return out


def test_it_chooses_and_values_as_the_generic_maxn_by_the_points_taken() -> None:
    for hand in _random_tricks(1, 300):
        generic = search_trick(State(hand))
        found = search_deals([hand], TAKEN)
        seat = hand.to_move
        assert found.points[0].tolist() == generic.options[:, seat].tolist()
        assert found.leaves.points[found.leaf[0]].tolist() == generic.options.tolist()
        assert int(np.argmin(found.points[0])) == generic.choice


def test_it_chooses_and_values_as_the_generic_maxn_by_the_learned_values() -> None:
    values = position_values()
    hands = _random_tricks(2, 60)
    for hand in hands:
        generic = search_trick(State(hand), values)
        found = search_deals([hand], values)
        assert found.points[0].tolist() == generic.options[:, hand.to_move].tolist()
        assert int(np.argmin(found.points[0])) == generic.choice


def test_deals_searched_together_are_each_searched_as_alone() -> None:
    values = position_values()
    rng = np.random.default_rng(3)
    for hand in _random_tricks(3, 8):
        deals = [determinized(view(hand), rng) for _ in range(3)]
        together = search_deals(deals, values).points
        alone = [search_trick(State(h), values).options[:, hand.to_move].tolist()
                 for h in deals]
        assert together.tolist() == alone


def test_hands_not_in_one_trick_are_refused() -> None:
    hands = _random_tricks(4, 6)
    with pytest.raises(ValueError, match="search_deals: the hands must be one-hand games "
                                         "in the same trick"):
        search_deals(hands, TAKEN)
    with pytest.raises(ValueError, match="the same trick"):
        search_deals([], TAKEN)


#: seat 0's choices with ``maxn:values=learned`` (20 deals) at its first decisions of
#: three hands dealt from seed 11, all seats laying as heuristic, decision i decided from
#: seed i: the choices the search made before it was batched (one maxⁿ a deal)
BEFORE = [1, 0, 3, 0, 2, 1, 0, 0, 0, 0, 0, 0]


def test_the_monte_carlo_player_chooses_as_before_on_seeded_deals() -> None:
    rng = np.random.default_rng(11)
    heuristic = GAME.make_player("heuristic")
    player = maxn_player(values="learned")
    chosen: list[int] = []
    while len(chosen) < len(BEFORE):
        state = GAME.new_game(rng, 0)
        while GAME.to_move(state) is not None and len(chosen) < len(BEFORE):
            candidates = GAME.candidates(state)
            if state.hand.to_move == 0 and state.hand.phase == "play" and \
                    len(candidates.labels) > 1:
                chosen.append(player.choose(candidates, np.random.default_rng(len(chosen))))
            state = GAME.apply(state, heuristic.choose(candidates, rng), rng)
    assert chosen == BEFORE
