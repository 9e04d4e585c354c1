"""phevaluator, our hand evaluator, against the pure-Python treys: the same card ids and
the same rank on 20,000 seeded 7-card hands (100,000 in
``python -m fuzzeval.games.holdem.scripts.check_evaluator``), and the Cactus Kev ranks
of hand-worked hands."""

from __future__ import annotations

import numpy as np
import pytest
from phevaluator import Card

from fuzzeval.games.holdem.cards import card_str, parse_cards
from fuzzeval.games.holdem.evaluate import (
    hand_class,
    hand_rank,
    hand_ranks,
    showdown,
    showdowns,
)
from fuzzeval.games.holdem.scripts.check_evaluator import compare, main


def test_phevaluator_numbers_cards_as_we_do() -> None:
    assert [Card(card_str(c)).id_ for c in range(52)] == list(range(52))


@pytest.mark.parametrize(("hand", "rank"), [
    ("AsKsQsJsTs2c3d", 1),  # royal flush, the best hand
    ("5d4d3d2dAd", 10),  # steel wheel, the lowest straight flush
    ("AcAdAhAsKc", 11),  # four aces, king kicker
    ("AcAdAhKsKc", 167),  # aces full of kings, the best full house
    ("AhKhQhJh9h", 323),  # the best flush
    ("AcKdQhJsTc", 1600),  # broadway, the best straight
    ("5c4d3h2sAc", 1609),  # the wheel, the lowest straight
    ("7c5d4h3s2c", 7462),  # the worst hand
    ("7c5d4h3s2c8d9dJ", None),  # a malformed card is refused before evaluation
])
def test_hand_worked_ranks(hand: str, rank: int | None) -> None:
    if rank is None:
        with pytest.raises(Exception, match="'J'"):
            parse_cards(hand)
        return
    assert hand_rank(parse_cards(hand)) == rank


def test_hand_classes_at_their_edges() -> None:
    assert [hand_class(r) for r in (1, 10, 11, 166, 167, 1599, 1600, 1609, 1610, 3325,
                                    3326, 6185, 6186, 7462)] == [
        "straight flush", "straight flush", "four of a kind", "four of a kind",
        "full house", "flush", "straight", "straight", "three of a kind", "two pair",
        "pair", "pair", "high card", "high card"]
    for bad in (0, 7463):
        with pytest.raises(ValueError, match="1 to 7462"):
            hand_class(bad)


def test_a_batch_is_the_same_as_one_by_one() -> None:
    rng = np.random.default_rng(4)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(200)])
    assert hand_ranks(hands).tolist() == [hand_rank(h) for h in hands.tolist()]
    with pytest.raises(ValueError, match="rows of 5 to 7 cards"):
        hand_ranks(hands[:, :4])
    with pytest.raises(ValueError, match="5 to 7 cards"):
        hand_rank((1, 2, 3))


def test_showdown_winner_and_split() -> None:
    board = parse_cards("9h9d2sKs4c")
    assert showdown(parse_cards("AsAh"), parse_cards("QcJd"), board) == 0
    assert showdown(parse_cards("QcJd"), parse_cards("KcKh"), board) == 1
    assert showdown(parse_cards("3c5d"), parse_cards("3d5c"), board) == -1


def test_many_showdowns_at_once_are_each_one() -> None:
    rng = np.random.default_rng(8)
    deals = rng.permuted(np.tile(np.arange(52), (3000, 1)), axis=1)[:, :9]
    got = showdowns(deals[:, :2], deals[:, 2:4], deals[:, 4:])
    assert got.tolist() == [showdown(d[:2], d[2:4], d[4:]) for d in deals.tolist()]
    assert set(got.tolist()) == {-1, 0, 1}


def test_phevaluator_agrees_with_treys_on_20000_hands() -> None:
    result = compare(20_000, seed=7)
    assert result.hands == 20_000 and result.different == 0 and result.misnamed == 0
    assert set(result.classes) >= {  # every hand class came up
        "Straight Flush", "Four of a Kind", "Full House", "Flush", "Straight",
        "Three of a Kind", "Two Pair", "Pair", "High Card"}


def test_the_script_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "500"]) == 0
    assert "500 seeded 7-card hands: 0 differ, 0 misnamed" in capsys.readouterr().out
