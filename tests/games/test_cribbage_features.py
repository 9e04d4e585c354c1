"""The fuzzy player's throw features, each against a scalar count written here from the
rules (every starter tried, every combination counted), and the shipped crib table
against a fresh computation and a brute force over every crib of one throw."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.games.cribbage.cards import parse_cards
from fuzzeval.games.cribbage.discard import KEEPS, THROWS, unseen
from fuzzeval.games.cribbage.features import (
    FEATURE_NAMES,
    FEATURES,
    crib_pair_table,
    discard_features,
)
from fuzzeval.games.cribbage.scoring import score_hand
from fuzzeval.games.cribbage.scripts.expert_weights import crib_averages


def _value(card: int) -> int:
    return min(card // 4 + 1, 10)


def _run_points(ranks: list[int]) -> int:
    """Run points of any number of ranks: the longest runs, each counted once per way."""
    counts = {r: ranks.count(r) for r in ranks}
    for length in range(len(counts), 2, -1):
        total = 0
        for low in range(13 - length + 1):
            window = range(low, low + length)
            if all(r in counts for r in window):
                ways = 1
                for r in window:
                    ways *= counts[r]
                total += length * ways
        if total:
            return total
    return 0


def _fifteens(values: list[int]) -> int:
    return sum(1 for k in range(2, len(values) + 1) for c in combinations(values, k)
               if sum(c) == 15)


def _four_alone(cards: tuple[int, ...]) -> int:
    """Points of four cards with no starter: fifteens, pairs, runs, a four-card flush."""
    pts = 2 * sum(1 for k in (2, 3, 4) for c in combinations(cards, k)
                  if sum(map(_value, c)) == 15)
    pts += 2 * sum(1 for a, b in combinations(cards, 2) if a // 4 == b // 4)
    ranks = sorted(c // 4 for c in cards)
    counts = {r: ranks.count(r) for r in ranks}
    distinct = sorted(counts)
    if len(distinct) == 4 and distinct[3] - distinct[0] == 3:
        pts += 4
    else:
        for start in range(len(distinct) - 2):
            window = distinct[start:start + 3]
            if window[2] - window[0] == 2:
                pts += 3 * counts[window[0]] * counts[window[1]] * counts[window[2]]
    if len({c % 4 for c in cards}) == 1:
        pts += 4
    return pts


def _scalar_features(six: tuple[int, ...], mine: bool, t: int) -> dict[str, float]:
    keep = [six[i] for i in KEEPS[t]]
    kept_ranks, kept_values = [c // 4 for c in keep], [_value(c) for c in keep]
    a, b = (six[i] for i in THROWS[t])
    starters = unseen(np.array(six))
    jack_suits = [c % 4 for c in keep if c // 4 == 10]
    suited = len({c % 4 for c in keep}) == 1
    return {
        "hand_value": float(np.mean([score_hand(keep, int(s)) for s in starters])),
        "crib_value": float(crib_pair_table()[a // 4, b // 4]),
        "crib_ownership": float(mine),
        "fives_kept": sum(c // 4 == 4 for c in keep),
        "run_potential": sum(_run_points([*kept_ranks, s]) > _run_points(kept_ranks)
                             for s in range(13)),
        "fifteen_potential": sum(  # a new fifteen uses the starter: the rest of it is kept
            any(sum(c) == 15 - min(s + 1, 10) for k in range(1, 5)
                for c in combinations(kept_values, k)) for s in range(13)),
        "kept_points": _four_alone(tuple(keep)),
        "fifteens_kept": _fifteens(kept_values),
        "pairs_kept": sum(a == b for a, b in combinations(kept_ranks, 2)),
        "run_kept": _run_points(kept_ranks),
        "ten_cards_kept": sum(_value(c) == 10 for c in keep),
        "flush_potential": float(np.mean([4 + (s % 4 == keep[0] % 4) for s in starters]))
        if suited else 0.0,
        "nobs_chance": sum(float(np.mean([s % 4 == js for s in starters]))
                           for js in jack_suits),
        "fives_thrown": (a // 4 == 4) + (b // 4 == 4),
        "pair_thrown": float(a // 4 == b // 4),
        "fifteen_thrown": float(_value(a) + _value(b) == 15),
        "touching_thrown": float(abs(a // 4 - b // 4) == 1),
        "thrown_gap": abs(a // 4 - b // 4),
        "ten_cards_thrown": sum(_value(c) == 10 for c in (a, b)),
    }


HANDS = ["5H 5S JD QC 4S 9C", "7C 8C 9C TC JC 6D", "5C 5D 5H JS 6S 4D", "AH 2D 3C KS QS JH",
         "9H 9D 9S 6C AS 2H", "3C 4D 4H 5S 5C 6D", "7H 7D 8S 8C KH KD"]


@pytest.mark.parametrize("text", HANDS)
@pytest.mark.parametrize("mine", [True, False])
def test_every_feature_of_every_throw_matches_a_scalar_count(text: str, mine: bool) -> None:
    six = tuple(sorted(parse_cards(text, 6)))
    got = discard_features([six], [mine])[0]
    for t in range(15):
        want = _scalar_features(six, mine, t)
        for j, name in enumerate(FEATURE_NAMES):
            assert got[t, j] == pytest.approx(want[name], abs=1e-9), (text, t, name)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True), st.booleans())
def test_random_hands_match_the_scalar_count_and_stay_in_range(cards: list[int],
                                                              mine: bool) -> None:
    six = tuple(sorted(cards))
    got = discard_features([six], [mine])[0]
    for t in range(15):
        want = _scalar_features(six, mine, t)
        assert [got[t, j] for j in range(len(FEATURE_NAMES))] == pytest.approx(
            [want[n] for n in FEATURE_NAMES], abs=1e-9), t
    for j, f in enumerate(FEATURES):
        assert f.lo - 1e-9 <= got[:, j].min() and got[:, j].max() <= f.hi + 1e-9, f.name


def test_many_hands_in_one_call_equal_one_at_a_time() -> None:
    rng = np.random.default_rng(3)
    hands = np.sort(np.argsort(rng.random((40, 52)), axis=1)[:, :6], axis=1)
    mine = rng.random(40) < 0.5
    together = discard_features(hands, mine)
    alone = np.stack([discard_features([h], [m])[0] for h, m in zip(hands, mine, strict=True)])
    np.testing.assert_array_equal(together, alone)
    subset = discard_features(hands, mine, ("crib_value", "hand_value"))
    np.testing.assert_array_equal(subset[..., 1], together[..., 0])
    with pytest.raises(ValueError, match="unknown cribbage discard features"):
        discard_features(hands, mine, ("hand_valu",))


def test_shipped_crib_table_is_the_uniform_average_crib() -> None:
    np.testing.assert_allclose(crib_pair_table(), crib_averages(np.ones((13, 13, 2))),
                               atol=1e-6)


def test_crib_table_entry_by_brute_force_over_every_crib() -> None:
    """5-J thrown: 3/4 of the time unsuited, 1/4 suited; every (two cards, starter)."""
    def average(c1: int, c2: int) -> float:
        rest = [c for c in range(52) if c not in (c1, c2)]
        total, n = 0, 0
        for a, b in combinations(rest, 2):
            for s in rest:
                if s not in (a, b):
                    total += score_hand([c1, c2, a, b], s, crib=True)
                    n += 1
        return total / n

    five, jack = parse_cards("5H")[0], parse_cards("JH")[0]
    jack_other = parse_cards("JS")[0]
    want = 0.25 * average(five, jack) + 0.75 * average(five, jack_other)
    assert crib_pair_table()[4, 10] == pytest.approx(want, abs=1e-6)
