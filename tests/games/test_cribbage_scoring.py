"""Cribbage scoring against hand-worked cases and the published census of all
12,994,800 (hand, starter) pairs (Lumetta's table, cited by Wikipedia)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzeval.errors import NotationError
from games.cribbage import (
    parse_card,
    parse_cards,
    score_breakdown,
    score_hand,
    score_pegging,
    spoken_count,
)
from games.cribbage.scoring import rank_index5, rank_table

# Steven Lumetta, "Amusing Cribbage Facts": hands (4-card flush counts in the hand) per score.
LUMETTA = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
    7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
    14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496,
    22: 444, 23: 356, 24: 3680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "points"),
    [
        ("5C 5D 5S JH", "5H", False, 29),  # the perfect hand: jack of the starter's suit
        ("5C 5D 5S JC", "5H", False, 28),
        ("4C 4D 4S 5D", "6S", False, 21),
        ("2H 4H 6H 8H", "QS", False, 4),  # four-card flush in the hand
        ("2H 4H 6H 8H", "QS", True, 0),  # ... but not in the crib
        ("2H 4H 6H 8H", "QH", True, 5),  # the crib needs all five
        ("2H 4H 6H 8H", "QH", False, 5),
        ("AC 2D 3H 4S", "5C", False, 7),  # run of five + fifteen
        ("3C 3D 4H 5S", "6C", False, 14),  # double run of four (8) + 2 + fifteens 2, 2
        ("7C 7D 8H 8S", "9C", False, 24),  # double double run 12 + pairs 4 + four 7-8 fifteens
        ("JD 2C 4H 7S", "KD", False, 1),  # nobs alone
        ("TD JD QD KD", "9C", False, 9),  # run of five 5 + four-card flush 4; JD is not nobs
    ],
)
def test_hand_worked_examples(hand: str, starter: str, crib: bool, points: int) -> None:
    assert score_hand(hand, starter, crib=crib) == points
    items = score_breakdown(hand, starter, crib=crib)
    assert sum(i.points for i in items) == points


def test_spoken_count() -> None:
    items = score_breakdown("5C 5D KS 2H", "9H")
    assert spoken_count(items) == "fifteen two, fifteen four, and a pair is six"
    assert spoken_count(score_breakdown("2C 4D 6H 8S", "QS")) == (
        "nothing (a 'nineteen', as players say)"
    )
    assert spoken_count(score_breakdown("5C 5D 5S JH", "5H")).endswith(
        "double pair royal is twenty-eight, and one for his nob is twenty-nine"
    )


def _census(crib: bool, flushes: bool = True) -> np.ndarray:
    """Counts per score over every 5-card set and each of its 5 cards as the starter."""
    five = np.fromiter(
        (c for combo in combinations(range(52), 5) for c in combo), dtype=np.int8
    ).reshape(-1, 5).astype(np.intp)
    ranks, suits = five // 4, five % 4
    base = rank_table()[rank_index5(ranks)].astype(np.intp)
    counts = np.zeros(30, dtype=np.int64)
    for k in range(5):
        hand = [i for i in range(5) if i != k]
        hs, hr, ss = suits[:, hand], ranks[:, hand], suits[:, k]
        same = (hs == hs[:, :1]).all(axis=1)
        flush = np.where(same & (hs[:, 0] == ss), 5, np.where(same & (not crib), 4, 0))
        if not flushes:
            flush = 0
        nobs = ((hr == 10) & (hs == ss[:, None])).any(axis=1)
        counts += np.bincount(base + flush + nobs, minlength=30)
    return counts


def test_census_matches_published_table() -> None:
    counts = _census(crib=False)
    assert counts.sum() == 12_994_800
    assert dict(enumerate(counts.tolist())) == LUMETTA
    mean = Fraction(int((np.arange(30) * counts).sum()), 12_994_800)
    assert float(mean) == pytest.approx(4.7692, abs=1e-4)


def test_census_crib_and_no_flush_figures() -> None:
    crib = _census(crib=True)
    assert crib[0] == 1_022_208  # Wikipedia, "Cribbage statistics": zero-point cribs
    assert crib[19] == crib[25] == crib[26] == crib[27] == 0
    no_flush = _census(crib=False, flushes=False)
    mean = Fraction(int((np.arange(30) * no_flush).sum()), 12_994_800)
    assert mean == Fraction(511661, 108290)  # the mean quoted without flushes (nobs counted)


def test_notation() -> None:
    assert parse_card("10s") == parse_card("TS") == parse_card("ts")
    assert parse_cards("5H, 5S JD") == (parse_card("5H"), parse_card("5S"), parse_card("JD"))
    with pytest.raises(NotationError, match=r"'1X': unknown rank '1'"):
        parse_card("1X")
    with pytest.raises(NotationError, match=r"'5Z': unknown suit 'Z'"):
        parse_card("5Z")
    with pytest.raises(NotationError, match=r"'5H': this card appears twice"):
        parse_cards("5H 6D 5h")
    with pytest.raises(NotationError, match="expected 4 cards"):
        score_hand("5H 6D 7C", "8S")


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ("5H TD", 2),  # fifteen
        ("TH TD", 2),  # pair
        ("7H 7D 7S", 6),  # pair royal
        ("2H 2D 2S 2C", 12),  # double pair royal
        ("3H 4D 2S", 3),  # run in any order
        ("3H 4D 2S 5C", 4),
        ("3H 4D 2S 5C 3D", 4),  # the last four 4-2-5-3 are a run
        ("4D 2S 3H 3C", 2),  # a pair; 2-3-3 is not a run
        ("4S 6C 5D", 5),  # run of three + fifteen
        ("KH QD JS AC", 2),  # thirty-one
        ("KH QD 9S", 0),
        ("AC 2D 3H 4S", 4),  # run of four
        ("9C 9D 6S 7H", 2),  # 31
        ("5C 5D 5H", 8),  # fifteen + pair royal
    ],
)
def test_pegging_worked_examples(cards: str, points: int) -> None:
    assert score_pegging(cards) == points


def test_pegging_rejects_count_over_31() -> None:
    with pytest.raises(ValueError, match="over 31"):
        score_pegging("KH QD JS 5C")


@given(st.permutations(range(52)).map(lambda p: p[:5]))
def test_hand_score_is_valid_and_matches_breakdown(cards: list[int]) -> None:
    hand, starter = cards[:4], cards[4]
    for crib in (False, True):
        score = score_hand(hand, starter, crib=crib)
        assert 0 <= score <= 29 and score not in (19, 25, 26, 27)
        assert score == sum(i.points for i in score_breakdown(hand, starter, crib=crib))
        assert score_hand(hand[::-1], starter, crib=crib) == score
