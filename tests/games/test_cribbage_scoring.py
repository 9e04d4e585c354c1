"""Cribbage scoring against hand-worked cases, the public scorer on a uniform sample of
(hand, starter) pairs against the published census of all 12,994,800 (Lumetta's table,
cited by Wikipedia), and against scores written from the rules (tests/games/cribbage_reference)
and counts worked by hand, for what the census and OpenSpiel checks let through."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzeval.errors import NotationError
from fuzzeval.games.cribbage import (
    parse_card,
    parse_cards,
    score_breakdown,
    score_hand,
    score_pegging,
    spoken_count,
)
from fuzzeval.games.cribbage.scoring import (
    ScoreItem,
    peg_points,
    rank_index5,
    rank_parts,
    rank_table,
    show_points,
)
from tests.games import cribbage_reference as ref

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
    from scipy.stats import chisquare  # here, not at collection: 0.8 s

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


# --- against scores written from the rules (cribbage_reference) and counts by hand ----


def _deals(n: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        five = [int(c) for c in rng.choice(52, 5, replace=False)]
        out.append((tuple(five[:4]), five[4]))
    return out


def _rich_deals() -> list[tuple[tuple[int, ...], int]]:
    """Random deals plus ones rich in what random deals rarely hold: flushes, jacks of the
    starter's suit, runs of four and five, three and four of a kind."""
    deals = _deals(400, seed=11)
    rng = np.random.default_rng(12)
    for _ in range(150):  # four of one suit, the starter of that suit or not
        s = int(rng.integers(4))
        ranks = rng.choice(13, 5, replace=False)
        hand = tuple(int(r) * 4 + s for r in ranks[:4])
        starter = int(ranks[4]) * 4 + (s if rng.random() < 0.5 else (s + 1) % 4)
        deals.append((hand, starter))
    for _ in range(150):  # five ranks drawn from a window of five: runs and pairs
        low = int(rng.integers(0, 9))
        cards: set[int] = set()
        while len(cards) < 5:
            cards.add(int(rng.integers(low, low + 5)) * 4 + int(rng.integers(4)))
        five = list(cards)
        rng.shuffle(five)
        deals.append((tuple(five[:4]), five[4]))
    return deals


# --- the rank table and its parts -----------------------------------------------------

@pytest.mark.mutation_pin
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_rank_parts_match_the_rules_part_by_part(n: int) -> None:
    rng = np.random.default_rng(n)
    ranks = rng.integers(0, 13, size=(600, n))
    ranks[:100] = np.sort(rng.integers(0, 4, size=(100, n)), axis=1) + rng.integers(
        0, 10, size=(100, 1))  # crowded: many pairs and runs
    fifteens, pairs, runs = rank_parts(ranks)
    for row, f, p, r in zip(ranks.tolist(), fifteens, pairs, runs, strict=True):
        assert (int(f), int(p), int(r)) == (ref.fifteens(row), ref.pairs(row), ref.runs(row)), row


@pytest.mark.mutation_pin
def test_rank_parts_on_hand_worked_rows() -> None:
    rows = np.array([
        [4, 4, 4, 4, 10],  # four fives and a jack: 5-5-5 four times, 5+J four times; 6 pairs
        [0, 1, 2, 3, 4],  # A-2-3-4-5: one fifteen, a run of five
        [6, 6, 7, 7, 8],  # 7-7-8-8-9: four 7-8 fifteens, two pairs, four runs of three
        [2, 2, 3, 4, 5],  # 3-3-4-5-6: two fifteens, a pair, a double run of four
        [12, 11, 10, 9, 0],  # K-Q-J-T-A: no fifteen, a run of four
    ])
    fifteens, pairs, runs = rank_parts(rows)
    assert fifteens.tolist() == [16, 2, 8, 4, 0]
    assert pairs.tolist() == [12, 0, 4, 2, 0]
    assert runs.tolist() == [0, 5, 12, 8, 4]


@pytest.mark.mutation_pin
def test_rank_table_against_the_rules_on_a_sample_of_rank_tuples() -> None:
    rng = np.random.default_rng(5)
    ranks = rng.integers(0, 13, size=(3000, 5))
    got = rank_table()[rank_index5(ranks)]
    want = [ref.fifteens(r) + ref.pairs(r) + ref.runs(r) for r in ranks.tolist()]
    assert got.tolist() == want
    assert rank_table()[rank_index5(np.array([4, 4, 4, 4, 10]))] == 28
    assert rank_table().shape == (13**5,) and not rank_table().flags.writeable


@pytest.mark.mutation_pin
def test_rank_table_is_every_tuple_counted_by_rank_parts() -> None:
    """Counted once per sorted tuple, the table is what counting all 13^5 tuples gives."""
    ranks = np.indices((13,) * 5).reshape(5, -1).T
    table = rank_table()
    assert table.dtype == np.int8
    assert np.array_equal(table, sum(rank_parts(ranks)))


@pytest.mark.mutation_pin
def test_rank_index5_is_base_13_on_any_leading_shape() -> None:
    ranks = np.array([[[0, 0, 0, 0, 1], [1, 0, 0, 0, 0]], [[12, 12, 12, 12, 12], [3, 1, 4, 1, 5]]])
    idx = rank_index5(ranks)
    assert idx.shape == (2, 2)
    assert idx.tolist() == [[1, 13**4], [13**5 - 1, ((((3 * 13 + 1) * 13 + 4) * 13 + 1) * 13 + 5)]]


# --- the show ---------------------------------------------------------------------------

@pytest.mark.mutation_pin
def test_show_points_and_score_hand_follow_the_rules() -> None:
    for hand, starter in _rich_deals():
        for crib in (False, True):
            want = ref.show_total(hand, starter, crib)
            assert show_points(hand, starter, crib) == want, (hand, starter, crib)
            assert score_hand(hand, starter, crib=crib) == want


@pytest.mark.mutation_pin
@pytest.mark.parametrize(
    ("hand", "starter", "crib", "flush", "nobs"),
    [
        ("2H 4H 6H 8H", "QS", False, 4, 0),
        ("2H 4H 6H 8H", "QS", True, 0, 0),  # a crib scores only a flush of five
        ("2H 4H 6H 8H", "QH", True, 5, 0),
        ("2H 4H 6H 8D", "QH", False, 0, 0),  # three of a suit in the hand: no flush
        ("2H 4H 6H JH", "QH", False, 5, 1),  # the jack of the starter's suit in the hand
        ("2H 4H 6H JH", "QS", False, 4, 0),
        ("2C 4D JS 8H", "QS", True, 0, 1),  # his nob counts in the crib too
        ("JC JD JS JH", "QS", False, 0, 1),
    ],
)
def test_flush_and_nobs_by_hand(hand: str, starter: str, crib: bool, flush: int,
                                nobs: int) -> None:
    items = score_breakdown(hand, starter, crib=crib)
    assert sum(i.points for i in items if i.kind == "flush") == flush
    assert sum(i.points for i in items if i.kind == "nobs") == nobs
    assert score_hand(hand, starter, crib=crib) == sum(i.points for i in items)


@pytest.mark.mutation_pin
def test_score_hand_rejects_the_starter_in_the_hand_and_bad_counts() -> None:
    with pytest.raises(NotationError, match=r"'5H': this card appears twice"):
        score_hand("5H 6D 7C 8S", "5H")
    with pytest.raises(NotationError, match=r"expected 4 cards \(got 5\)"):
        score_hand("5H 6D 7C 8S 9S", "TH")
    assert score_hand(list(parse_cards("5H 6D 7C 8S")), parse_cards("9S")[0]) == 9


def _combos(items: list[ScoreItem], kind: str) -> Counter[tuple[int, ...]]:
    return Counter(tuple(sorted(i.cards)) for i in items if i.kind == kind)


@pytest.mark.mutation_pin
def test_breakdown_lists_every_combination_the_rules_count() -> None:
    order = ["fifteen", "pair", "run", "flush", "nobs"]
    for hand, starter in _rich_deals():
        five = (*hand, starter)
        for crib in (False, True):
            items = score_breakdown(hand, starter, crib=crib)
            kinds = [order.index(i.kind) for i in items]
            assert kinds == sorted(kinds)  # fifteens, pairs, runs, flush, nobs
            fifteens = Counter(tuple(sorted(c)) for n in range(2, 6)
                               for c in combinations(five, n)
                               if sum(ref.card_value(x) for x in c) == 15)
            assert _combos(items, "fifteen") == fifteens
            pairs = Counter(tuple(sorted(c)) for c in combinations(five, 2)
                            if c[0] // 4 == c[1] // 4)
            assert _combos(items, "pair") == pairs
            assert all(i.points == 2 for i in items if i.kind in ("fifteen", "pair"))
            runs = [i for i in items if i.kind == "run"]
            assert sum(i.points for i in runs) == ref.runs([c // 4 for c in five])
            for run in runs:
                ranks = sorted(c // 4 for c in run.cards)
                assert run.points == len(run.cards) >= 3
                assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))
            parts = ref.show(hand, starter, crib)
            flush = [i for i in items if i.kind == "flush"]
            if parts["flush"]:
                assert [(f.points, f.cards) for f in flush] == [
                    (parts["flush"], five if parts["flush"] == 5 else hand)]
            else:
                assert flush == []
            nobs = [i for i in items if i.kind == "nobs"]
            if parts["nobs"]:
                (jack,) = [c for c in hand if c // 4 == ref.JACK and c % 4 == starter % 4]
                assert [(i.cards, i.points) for i in nobs] == [((jack,), 1)]
            else:
                assert nobs == []


@pytest.mark.mutation_pin
def test_breakdown_cards_and_order_for_a_worked_hand() -> None:
    # 5H 5S JD QC with the 4D: fifteens 5+J, 5+Q (twice each), a pair of fives, his nob.
    items = score_breakdown("5H 5S JD QC", "4D")
    c = dict(zip(["5H", "5S", "JD", "QC", "4D"], parse_cards("5H 5S JD QC 4D"), strict=True))
    assert items == [
        ScoreItem("fifteen", (c["5H"], c["JD"]), 2),
        ScoreItem("fifteen", (c["5H"], c["QC"]), 2),
        ScoreItem("fifteen", (c["5S"], c["JD"]), 2),
        ScoreItem("fifteen", (c["5S"], c["QC"]), 2),
        ScoreItem("pair", (c["5H"], c["5S"]), 2),
        ScoreItem("nobs", (c["JD"],), 1),
    ]
    # Runs of three inside a run of four are not counted: 3-4-5-6 once, with 7-8 fifteens.
    run_items = [i for i in score_breakdown("3C 4D 5H 6S", "KD") if i.kind == "run"]
    assert [(len(i.cards), i.points) for i in run_items] == [(4, 4)]


# --- the count as players say it -----------------------------------------------------

@pytest.mark.mutation_pin
@pytest.mark.parametrize(
    ("hand", "starter", "spoken"),
    [
        ("2C 2D 2H 9S", "KD", "fifteen two, and pair royal is eight"),
        ("3C 3D 4H 4S", "KD", "two pairs is four"),
        ("5C 5D 5H KS", "KD", "fifteen two, fifteen four, fifteen six, fifteen eight, "
                              "fifteen ten, fifteen twelve, fifteen fourteen, "
                              "and pair royal and a pair is twenty-two"),
        ("3C 3D 4H 5S", "KD", "fifteen two, fifteen four, a pair is six, "
                              "and a double run of three is twelve"),
        ("3C 3D 3H 4S", "5D", "fifteen two, fifteen four, fifteen six, pair royal is twelve, "
                              "and a triple run of three is twenty-one"),
        ("7C 7D 8H 8S", "9C", "fifteen two, fifteen four, fifteen six, fifteen eight, "
                              "two pairs is twelve, and a double double run of three is "
                              "twenty-four"),
        ("AC 2D 3H 4S", "5C", "fifteen two, and a run of five is seven"),
        ("3C 3D 4H 5S", "6C", "fifteen two, fifteen four, a pair is six, "
                              "and a double run of four is fourteen"),
        ("2H 4H 6H JH", "9H", "fifteen two, fifteen four, a flush is nine, "
                              "and one for his nob is ten"),
        ("2H 4H 6H 8H", "QS", "a flush is four"),
        ("JD 2C 4H 7S", "KD", "one for his nob is one"),
        ("5C 5D 5S TH", "JS", "fifteen two, fifteen four, fifteen six, fifteen eight, "
                              "fifteen ten, fifteen twelve, fifteen fourteen, "
                              "and pair royal is twenty"),
        ("KC QD 9H 8S", "AC", "nothing (a 'nineteen', as players say)"),
    ],
)
def test_spoken_count_by_hand(hand: str, starter: str, spoken: str) -> None:
    assert spoken_count(score_breakdown(hand, starter)) == spoken


@pytest.mark.mutation_pin
def test_spoken_count_takes_items_in_any_order() -> None:
    items = score_breakdown("5C 5D 5S JH", "5H")
    assert spoken_count(items[::-1]) == spoken_count(items)
    assert spoken_count(items).startswith("fifteen two, fifteen four, ")
    assert spoken_count([]) == "nothing (a 'nineteen', as players say)"
    # Five pairs cannot come from five cards, but a list of items can hold them.
    five_pairs = [ScoreItem("pair", (i, i + 1), 2) for i in range(0, 40, 8)]
    assert spoken_count(five_pairs) == "5 pairs is ten"


# --- pegging ----------------------------------------------------------------------------

@pytest.mark.mutation_pin
def test_pegging_follows_the_rules_on_random_counts() -> None:
    rng = np.random.default_rng(8)
    checked = 0
    while checked < 1500:
        cards = [int(c) for c in rng.choice(52, int(rng.integers(1, 9)), replace=False)]
        if rng.random() < 0.5:  # crowd the ranks to make pairs and runs
            cards = [int(c) for c in rng.choice(24, int(rng.integers(1, 7)), replace=False)]
        if sum(ref.card_value(c) for c in cards) > 31:
            continue
        want = ref.pegging([c // 4 for c in cards])
        assert score_pegging(cards) == want, cards
        assert peg_points(cards, sum(ref.card_value(c) for c in cards)) == want
        checked += 1


@pytest.mark.mutation_pin
def test_pegging_edges() -> None:
    assert peg_points([], 0) == 0
    assert score_pegging([]) == 0
    assert score_pegging("5H") == 0
    assert score_pegging("5H TD 6C 9S AC") == 2  # 31 on the ace
    with pytest.raises(ValueError, match=r"^the count would be 32, over 31$"):
        score_pegging("KH QD JS 2C")
    assert score_pegging("KH QD JS AC") == 2


@pytest.mark.mutation_pin
def test_rank_parts_are_integer_points() -> None:
    for n in (2, 3, 5):
        parts = rank_parts(np.random.default_rng(n).integers(0, 13, size=(20, n)))
        assert [p.dtype for p in parts] == [np.dtype(np.int64)] * 3


@pytest.mark.mutation_pin
def test_breakdown_names_a_wrong_hand() -> None:
    with pytest.raises(NotationError, match=r"expected 4 cards \(got 3\)"):
        score_breakdown("5H 6D 7C", "8S")
    with pytest.raises(NotationError, match=r"'8S': this card appears twice"):
        score_breakdown("5H 6D 7C 8S", "8S")
