"""Cribbage scoring against hand-worked cases, and the public scorer on a uniform sample of
(hand, starter) pairs against the published census of all 12,994,800 (Lumetta's table,
cited by Wikipedia)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import chisquare

from fuzzeval.errors import NotationError
from fuzzeval.games.cribbage import (
    parse_card,
    parse_cards,
    score_breakdown,
    score_hand,
    score_pegging,
    spoken_count,
)

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


CENSUS = 12_994_800  # (hand of four, starter) pairs: C(52, 4) x 48
SAMPLE = 150_000


@cache
def _sample() -> tuple[tuple[tuple[int, ...], int], ...]:
    """Uniform (hand, starter) pairs: five distinct cards, the fifth the starter."""
    rng = np.random.default_rng(2024)
    five = rng.permuted(np.tile(np.arange(52), (SAMPLE, 1)), axis=1)[:, :5].tolist()
    return tuple((tuple(c[:4]), c[4]) for c in five)


@cache
def _scores(crib: bool) -> np.ndarray:
    """The public scorer on every sampled pair."""
    return np.array([score_hand(hand, starter, crib=crib) for hand, starter in _sample()])


def _within(got: float, want: float, sd: float) -> bool:
    """A sample mean (or share) within 4 standard errors of the census figure."""
    return bool(abs(got - want) <= 4 * sd / np.sqrt(SAMPLE))


def test_census_matches_published_table() -> None:
    """``score_hand`` on 150,000 uniform (hand, starter) pairs against Lumetta's census of
    all 12,994,800: the score distribution (chi-square, scores of 22 and more pooled), the
    mean 4.7692, and no sampled hand scoring what no hand can (19, 25, 26, 27)."""
    counts = np.bincount(_scores(crib=False), minlength=30)
    assert counts.size == 30  # nothing above 29
    published = np.array([LUMETTA[k] for k in range(30)])
    assert published.sum() == CENSUS
    assert counts[[19, 25, 26, 27]].tolist() == [0, 0, 0, 0]
    possible = [k for k in range(22) if published[k]]
    observed = [*counts[possible], counts[22:].sum()]
    expected = [*published[possible], published[22:].sum()]
    fit = chisquare(observed, np.array(expected) * SAMPLE / CENSUS)
    assert fit.pvalue > 1e-3, (fit, dict(enumerate(counts.tolist())))
    points = np.arange(30)
    mean = float(Fraction(int(points @ published), CENSUS))
    sd = np.sqrt(((points - mean) ** 2) @ published / CENSUS)
    assert mean == pytest.approx(4.7692, abs=1e-4)
    assert _within(float(points @ counts) / SAMPLE, mean, sd)


def test_census_crib_and_no_flush_figures() -> None:
    """The same pairs as cribs: the share of zero-point cribs (1,022,208 of the census,
    Wikipedia's "Cribbage statistics"); and as hands with the flush points of
    ``score_breakdown`` taken off, the mean quoted without flushes (nobs counted)."""
    crib = _scores(crib=True)
    zero = 1_022_208 / CENSUS
    assert _within(float(np.mean(crib == 0)), zero, np.sqrt(zero * (1 - zero)))
    assert not np.isin(crib, [19, 25, 26, 27]).any() and crib.max() <= 29
    hands = _scores(crib=False)
    # A crib differs from a hand only by the four-card flush it does not count: four cards
    # of one suit (4 x C(13, 4) hands) with a starter of another suit (39 cards).
    assert set(np.unique(hands - crib)) == {0, 4}
    four_flush = 4 * comb(13, 4) * 39 / CENSUS
    assert _within(float(np.mean(hands - crib == 4)), four_flush,
                   np.sqrt(four_flush * (1 - four_flush)))
    no_flush = hands.astype(np.float64)
    for i, (hand, starter) in enumerate(_sample()):
        if len({c % 4 for c in hand}) == 1:  # only four cards of a suit can make a flush
            no_flush[i] -= sum(item.points for item in score_breakdown(hand, starter)
                               if item.kind == "flush")
    mean = Fraction(511661, 108290)
    assert _within(float(no_flush.mean()), float(mean), float(np.std(hands)))
    assert not _within(float(hands.mean()), float(mean), float(np.std(hands)))


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
