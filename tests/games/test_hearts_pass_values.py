"""Passing by value (``hearts.pass_values``): the three cards chosen together by the
learned value of the hand they leave, worked by hand on toy bases, and the player's
default, to pass as ``heuristic``."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.advice import advise, position
from fuzzeval.games.hearts.cards import card_str, mask_of, parse_cards
from fuzzeval.games.hearts.monte_carlo import maxn_player
from fuzzeval.games.hearts.pass_values import passes
from fuzzeval.games.hearts.view import view

from .test_hearts_position_values import _bases

#: the QS and twelve hearts (with the AH), the 2H missing
HAND = "QS 3H 4H 5H 6H 7H 8H 9H TH JH KH QH"


def test_it_passes_the_queen_with_two_hearts(tmp_path: Path) -> None:
    """Toy bases: the QS in hand is worth 13 points to come; hearts held are worth 8 times
    how high their count is (high: 6.5 to 13). Passing the QS and two hearts leaves 9
    hearts and the 2H perhaps received: 10 or 11 hearts, 4.31 or 5.54 points, the same for
    every such set in a deal; keeping the QS costs 13 more. So every card's best set holds
    the QS and two hearts, all tie, and the lowest card of the best set is passed first:
    3H, then 4H (the sets holding the 3H), then the QS (the sets holding both)."""
    state = position(HAND + " AH", pass_to="left")
    player = maxn_player(values="learned", passing="value",
                         **_bases(tmp_path, (13.0, 0.0), (0.0, 8.0)))
    data = advise(state, player, "maxn")
    assert data["pass"] == ["3H", "4H", "QS"]
    valued = passes(view(state), player.passing, 20, np.random.default_rng(0))  # type: ignore[arg-type]
    assert [card_str(c) for c in valued.cards][:3] == ["3H", "4H", "5H"]
    assert len(valued.sets) == 286
    best = float(valued.points.min())
    assert 8 * 3.5 / 6.5 <= best <= 8 * 4.5 / 6.5
    assert valued.by_card.tolist() == [best] * 13
    keeping = [p for p, s in zip(valued.points, valued.sets, strict=True)
               if 43 not in s]  # the QS is card 43 (rank 10, spades)
    assert min(keeping) > best + 13 - 8 * 1.0 / 6.5 - 1e-9


def test_the_sets_hold_the_cards_already_passed(tmp_path: Path) -> None:
    state = position(HAND + " AH", pass_to="left")
    player = maxn_player(values="learned", passing="value",
                         **_bases(tmp_path, (13.0, 0.0), (0.0, 8.0)))
    after = rules.apply(state, parse_cards("3H")[0])
    valued = passes(view(after), player.passing, 4, np.random.default_rng(0))  # type: ignore[arg-type]
    assert len(valued.sets) == 66  # C(12, 2)
    assert all(s[0] == parse_cards("3H")[0] for s in valued.sets)


def test_it_passes_as_heuristic_unless_told_to_pass_by_value() -> None:
    assert maxn_player(values="learned", passing="value").passing is not None
    assert maxn_player(values="learned").passing is None
    assert maxn_player(values="learned", passing="heuristic").passing is None
    assert maxn_player().passing is None
    state = position("QS KS 4S 3D 7D JD 5H 8H AH 9C KC 6D 2S", pass_to="left")
    assert advise(state, maxn_player(values="learned", passing="heuristic"),
                  "maxn")["pass"] == ["KS", "QS", "AH"]


@pytest.mark.mutation_pin
def test_a_later_seat_values_the_hand_it_keeps_not_seat_0_s(tmp_path: Path) -> None:
    """Seat 1 holds the first test's hand, seat 0 passing to it first: the sets are valued
    from seat 1's side, as for seat 0 there. The 2H is the only heart out and heuristic
    passes high cards, so seat 1 keeps 10 hearts whatever the deal: 8 x 3.5 / 6.5 = 56 / 13
    for the QS and two hearts passed; keeping the QS (three hearts passed, 9 left),
    8 x 2.5 / 6.5 + 13."""
    mine = mask_of(parse_cards(HAND + " AH"))
    state = dataclasses.replace(position(HAND + " AH", pass_to="left"), dealt=(0, mine, 0, 0),
                                hands=(0, mine, 0, 0), to_move=1)
    player = maxn_player(values="learned", passing="value",
                         **_bases(tmp_path, (13.0, 0.0), (0.0, 8.0)))
    seen = view(state)
    assert seen.seat == 1
    valued = passes(seen, player.passing, 8, np.random.default_rng(0))  # type: ignore[arg-type]
    assert len(valued.sets) == 286
    assert valued.points.min() == pytest.approx(56 / 13)
    assert valued.by_card.tolist() == pytest.approx([56 / 13] * 13)
    keeping = [p for p, s in zip(valued.points, valued.sets, strict=True) if 43 not in s]
    assert min(keeping) == pytest.approx(8 * 2.5 / 6.5 + 13)  # QS kept, three hearts passed
