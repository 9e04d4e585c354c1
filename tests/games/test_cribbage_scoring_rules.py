"""Cribbage scoring against scores written from the rules (tests/games/cribbage_reference)
and against counts worked by hand: tests added by mutation testing, each killing mutants the
census and OpenSpiel checks let through."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from fuzzeval.errors import NotationError
from fuzzeval.games.cribbage.cards import parse_cards
from fuzzeval.games.cribbage.scoring import (
    ScoreItem,
    peg_points,
    rank_index5,
    rank_parts,
    rank_table,
    score_breakdown,
    score_hand,
    score_pegging,
    show_points,
    spoken_count,
)
from tests.games import cribbage_reference as ref

pytestmark = pytest.mark.mutation_pin


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

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_rank_parts_match_the_rules_part_by_part(n: int) -> None:
    rng = np.random.default_rng(n)
    ranks = rng.integers(0, 13, size=(600, n))
    ranks[:100] = np.sort(rng.integers(0, 4, size=(100, n)), axis=1) + rng.integers(
        0, 10, size=(100, 1))  # crowded: many pairs and runs
    fifteens, pairs, runs = rank_parts(ranks)
    for row, f, p, r in zip(ranks.tolist(), fifteens, pairs, runs, strict=True):
        assert (int(f), int(p), int(r)) == (ref.fifteens(row), ref.pairs(row), ref.runs(row)), row


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


def test_rank_table_against_the_rules_on_a_sample_of_rank_tuples() -> None:
    rng = np.random.default_rng(5)
    ranks = rng.integers(0, 13, size=(3000, 5))
    got = rank_table()[rank_index5(ranks)]
    want = [ref.fifteens(r) + ref.pairs(r) + ref.runs(r) for r in ranks.tolist()]
    assert got.tolist() == want
    assert rank_table()[rank_index5(np.array([4, 4, 4, 4, 10]))] == 28
    assert rank_table().shape == (13**5,) and not rank_table().flags.writeable


def test_rank_table_is_every_tuple_counted_by_rank_parts() -> None:
    """Counted once per sorted tuple, the table is what counting all 13^5 tuples gives."""
    ranks = np.indices((13,) * 5).reshape(5, -1).T
    table = rank_table()
    assert table.dtype == np.int8
    assert np.array_equal(table, sum(rank_parts(ranks)))


def test_rank_index5_is_base_13_on_any_leading_shape() -> None:
    ranks = np.array([[[0, 0, 0, 0, 1], [1, 0, 0, 0, 0]], [[12, 12, 12, 12, 12], [3, 1, 4, 1, 5]]])
    idx = rank_index5(ranks)
    assert idx.shape == (2, 2)
    assert idx.tolist() == [[1, 13**4], [13**5 - 1, ((((3 * 13 + 1) * 13 + 4) * 13 + 1) * 13 + 5)]]


# --- the show ---------------------------------------------------------------------------

def test_show_points_and_score_hand_follow_the_rules() -> None:
    for hand, starter in _rich_deals():
        for crib in (False, True):
            want = ref.show_total(hand, starter, crib)
            assert show_points(hand, starter, crib) == want, (hand, starter, crib)
            assert score_hand(hand, starter, crib=crib) == want


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


def test_score_hand_rejects_the_starter_in_the_hand_and_bad_counts() -> None:
    with pytest.raises(NotationError, match=r"'5H': this card appears twice"):
        score_hand("5H 6D 7C 8S", "5H")
    with pytest.raises(NotationError, match=r"expected 4 cards \(got 5\)"):
        score_hand("5H 6D 7C 8S 9S", "TH")
    assert score_hand(list(parse_cards("5H 6D 7C 8S")), parse_cards("9S")[0]) == 9


def _combos(items: list[ScoreItem], kind: str) -> Counter[tuple[int, ...]]:
    return Counter(tuple(sorted(i.cards)) for i in items if i.kind == kind)


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


def test_spoken_count_takes_items_in_any_order() -> None:
    items = score_breakdown("5C 5D 5S JH", "5H")
    assert spoken_count(items[::-1]) == spoken_count(items)
    assert spoken_count(items).startswith("fifteen two, fifteen four, ")
    assert spoken_count([]) == "nothing (a 'nineteen', as players say)"
    # Five pairs cannot come from five cards, but a list of items can hold them.
    five_pairs = [ScoreItem("pair", (i, i + 1), 2) for i in range(0, 40, 8)]
    assert spoken_count(five_pairs) == "5 pairs is ten"


# --- pegging ----------------------------------------------------------------------------

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


def test_pegging_edges() -> None:
    assert peg_points([], 0) == 0
    assert score_pegging([]) == 0
    assert score_pegging("5H") == 0
    assert score_pegging("5H TD 6C 9S AC") == 2  # 31 on the ace
    with pytest.raises(ValueError, match=r"^the count would be 32, over 31$"):
        score_pegging("KH QD JS 2C")
    assert score_pegging("KH QD JS AC") == 2


def test_rank_parts_are_integer_points() -> None:
    for n in (2, 3, 5):
        parts = rank_parts(np.random.default_rng(n).integers(0, 13, size=(20, n)))
        assert [p.dtype for p in parts] == [np.dtype(np.int64)] * 3


def test_breakdown_names_a_wrong_hand() -> None:
    with pytest.raises(NotationError, match=r"expected 4 cards \(got 3\)"):
        score_breakdown("5H 6D 7C", "8S")
    with pytest.raises(NotationError, match=r"'8S': this card appears twice"):
        score_breakdown("5H 6D 7C 8S", "8S")
