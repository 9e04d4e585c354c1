"""The exhaustive discard evaluator against a brute force that builds every one of the
15 x 46 x 990 cribs explicitly (no grouping), with uniform and random weights."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from fuzzeval.games.cribbage.cards import parse_cards
from fuzzeval.games.cribbage.discard import THROWS, evaluate_discards, uniform_weights
from fuzzeval.games.cribbage.scoring import rank_index5, rank_table


def _score5(cards: np.ndarray, crib: bool) -> np.ndarray:
    """Scores of rows (hand4..., starter) — rank points from the census-checked table."""
    ranks, suits = cards // 4, cards % 4
    points = rank_table()[rank_index5(ranks)].astype(np.int64)
    hs, st = suits[:, :4], suits[:, 4]
    same = (hs == hs[:, :1]).all(axis=1)
    points += np.where(same & (hs[:, 0] == st), 5, np.where(same & (not crib), 4, 0))
    points += ((ranks[:, :4] == 10) & (hs == st[:, None])).any(axis=1)
    return points


def _brute(cards6: tuple[int, ...], crib: str, weights: np.ndarray) -> dict[str, list[float]]:
    unknown = [c for c in range(52) if c not in cards6]
    combos = np.array([(s, a, b) for a, b in combinations(unknown, 2) for s in unknown
                       if s not in (a, b)])
    s, o1, o2 = combos.T
    w = weights[o1 // 4, o2 // 4, (o1 % 4 == o2 % 4).astype(int)]
    out: dict[str, list[float]] = {k: [] for k in ("hand_mean", "crib_mean", "crib_min",
                                                   "crib_max", "net_min", "net_max")}
    for t in THROWS:
        keep = [cards6[i] for i in range(6) if i not in t]
        throw = [cards6[i] for i in t]
        hands = np.array([[*keep, x] for x in unknown])
        hand_by_card = dict(zip(unknown, _score5(hands, crib=False), strict=True))
        cribs = np.column_stack([np.tile(throw, (len(s), 1)), o1, o2, s])
        cs = _score5(cribs, crib=True)
        hs = np.array([hand_by_card[x] for x in s])
        net = hs + cs if crib == "mine" else hs - cs
        live = w > 0
        out["hand_mean"].append(float(np.mean(list(hand_by_card.values()))))
        out["crib_mean"].append(float((cs * w).sum() / w.sum()))
        out["crib_min"].append(cs[live].min())
        out["crib_max"].append(cs[live].max())
        out["net_min"].append(net[live].min())
        out["net_max"].append(net[live].max())
    return out


@pytest.mark.parametrize(
    ("hand", "crib", "random_weights"),
    [
        ("5H 5S JD QC 4S 9C", "mine", False),
        ("JH 5H 6H 7H 8C KD", "theirs", False),  # flush and nobs chances
        ("2C 3C 4C 5C JC QH", "mine", True),  # suited throws, random opponent weights
        ("5D 5C 5S JH AD KC", "theirs", True),
    ],
)
def test_matches_brute_force(hand: str, crib: str, random_weights: bool) -> None:
    cards = parse_cards(hand, 6)
    weights = uniform_weights()
    if random_weights:
        weights = np.random.default_rng(3).uniform(0.0, 2.0, (13, 13, 2))
        weights[2, 7, :] = 0.0  # a pair the opponent never throws
        weights = (weights + weights.transpose(1, 0, 2)) / 2
    got = evaluate_discards(cards, crib, weights)  # type: ignore[arg-type]
    want = _brute(cards, crib, weights)
    np.testing.assert_allclose(got.hand_mean, want["hand_mean"], rtol=1e-12)
    np.testing.assert_allclose(got.crib_mean, want["crib_mean"], rtol=1e-12)
    for key in ("crib_min", "crib_max", "net_min", "net_max"):
        np.testing.assert_array_equal(getattr(got, key), want[key], err_msg=key)
