"""fuzzeval.games.cribbage.discard against two brute forces: one that builds every one of the
15 x 46 x 990 cribs explicitly (no grouping), with uniform and random weights, and one that
scores every crib with the rules as written in tests/games/cribbage_reference (not the
package's rank table); and the table's form as users read it."""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt
import pytest

from fuzzeval.errors import NotationError
from fuzzeval.games.cribbage.cards import cards_str, parse_cards
from fuzzeval.games.cribbage.discard import (
    KEEPS,
    THROWS,
    DiscardStats,
    best_throw,
    discard_table,
    evaluate_discards,
    hand_scores_by_starter,
    uniform_weights,
)
from fuzzeval.games.cribbage.scoring import rank_index5, rank_table
from fuzzeval.games.cribbage.weights import opponent_weights
from tests.games import cribbage_reference as ref


def _score5(cards: np.ndarray, crib: bool) -> np.ndarray:
    """Scores of rows (hand4..., starter) — rank points from the census-checked table."""
    ranks, suits = cards // 4, cards % 4
    points = rank_table()[rank_index5(ranks)].astype(np.int64)
    hs, st = suits[:, :4], suits[:, 4]
    same = (hs == hs[:, :1]).all(axis=1)
    points += np.where(same & (hs[:, 0] == st), 5, np.where(same & (not crib), 4, 0))
    points += ((ranks[:, :4] == 10) & (hs == st[:, None])).any(axis=1)
    return points


def _brute_explicit(cards6: tuple[int, ...], crib: str,
                    weights: np.ndarray) -> dict[str, list[float]]:
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
    want = _brute_explicit(cards, crib, weights)
    np.testing.assert_allclose(got.hand_mean, want["hand_mean"], rtol=1e-12)
    np.testing.assert_allclose(got.crib_mean, want["crib_mean"], rtol=1e-12)
    for key in ("crib_min", "crib_max", "net_min", "net_max"):
        np.testing.assert_array_equal(getattr(got, key), want[key], err_msg=key)


# --- against the rules as written (cribbage_reference); the table as users read it ----


IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@cache
def _rank_points() -> IntArray:
    """Fifteens, pairs and runs of each sorted 5-tuple of ranks, by the rules, at its
    base-13 index (only sorted tuples are filled)."""
    table = np.full(13**5, -1, dtype=np.int64)
    for ranks in combinations_with_replacement(range(13), 5):
        idx = 0
        for r in ranks:
            idx = idx * 13 + r
        table[idx] = ref.fifteens(ranks) + ref.pairs(ranks) + ref.runs(ranks)
    return table


def _score(four: IntArray, starter: IntArray, crib: bool) -> IntArray:
    """Show points of rows of four cards with a starter each."""
    ranks = np.sort(np.column_stack([four // 4, starter // 4]), axis=1)
    idx = np.zeros(len(ranks), dtype=np.int64)
    for k in range(5):
        idx = idx * 13 + ranks[:, k]
    points = _rank_points()[idx]
    assert (points >= 0).all()
    suits, s_suit = four % 4, starter % 4
    four_suited = (suits == suits[:, :1]).all(axis=1)
    points += np.where(four_suited & (suits[:, 0] == s_suit), 5,
                       np.where(four_suited & (not crib), 4, 0))
    points += ((four // 4 == ref.JACK) & (suits == s_suit[:, None])).any(axis=1)
    return points


def _brute(cards6: tuple[int, ...], crib: str, weights: FloatArray) -> dict[str, FloatArray]:
    """Every (starter, opponent's pair) for each of the 15 throws, scored one by one."""
    unknown = [c for c in range(52) if c not in cards6]
    combos = np.array([(s, a, b) for a, b in combinations(unknown, 2) for s in unknown
                       if s not in (a, b)])
    s, o1, o2 = combos.T
    w = weights[o1 // 4, o2 // 4, (o1 % 4 == o2 % 4).astype(np.int64)]
    live = w > 0
    out: dict[str, list[float]] = {k: [] for k in (
        "hand_mean", "hand_min", "hand_max", "crib_mean", "crib_min", "crib_max", "net_min",
        "net_max")}
    starters = np.array(unknown)
    for t, k in zip(THROWS, KEEPS, strict=True):
        keep = np.array([cards6[i] for i in k])
        throw = np.array([cards6[i] for i in t])
        hand = _score(np.tile(keep, (46, 1)), starters, crib=False)
        by_card = np.zeros(52, dtype=np.int64)
        by_card[starters] = hand
        cribs = _score(np.column_stack([np.tile(throw, (len(s), 1)), o1, o2]), s, crib=True)
        net = by_card[s] + cribs if crib == "mine" else by_card[s] - cribs
        out["hand_mean"].append(float(hand.mean()))
        out["hand_min"].append(int(hand.min()))
        out["hand_max"].append(int(hand.max()))
        out["crib_mean"].append(float((cribs * w).sum() / w.sum()))
        out["crib_min"].append(int(cribs[live].min()))
        out["crib_max"].append(int(cribs[live].max()))
        out["net_min"].append(int(net[live].min()))
        out["net_max"].append(int(net[live].max()))
    return {k: np.array(v) for k, v in out.items()}


def _assert_matches(got: DiscardStats, want: dict[str, FloatArray]) -> None:
    for key, values in want.items():
        if key.endswith("mean"):
            np.testing.assert_allclose(getattr(got, key), values, rtol=1e-12, err_msg=key)
        else:
            np.testing.assert_array_equal(getattr(got, key), values, err_msg=key)


@pytest.mark.mutation_pin
def test_hand_scores_by_starter_follow_the_rules() -> None:
    for hand in ("JH 5H 6H 7H 8H KD", "2C 3C 4C 5C JC QH", "5D 5C 5S JH AD KC"):
        cards = parse_cards(hand, 6)
        got = hand_scores_by_starter(np.array(cards))
        assert got.shape == (15, 46) and got.dtype.kind == "i"
        unknown = [c for c in range(52) if c not in cards]
        for t, k in enumerate(KEEPS):
            four = np.tile([cards[i] for i in k], (46, 1))
            assert got[t].tolist() == _score(four, np.array(unknown), crib=False).tolist()
        # one by one, the plain way, for the first keep
        assert got[0].tolist() == [ref.show_total([cards[i] for i in KEEPS[0]], s, crib=False)
                                   for s in unknown]


@pytest.mark.mutation_pin
def test_an_opponent_who_throws_only_some_pairs() -> None:
    """Weights of zero make a crib impossible: its minimum and maximum must not see it,
    even where a whole key (starter, ranks, nobs, flush) has only zero-weight pairs."""
    cards = parse_cards("5H 5S JD QC 4S 9C", 6)
    weights = np.zeros((13, 13, 2))
    weights[12, 12, 0] = 1.0  # two kings (never suited)
    weights[0, 4, :] = weights[4, 0, :] = 0.5  # an ace and a five
    got = evaluate_discards(cards, "mine", weights)
    _assert_matches(got, _brute(cards, "mine", weights))
    got = evaluate_discards(cards, "theirs", weights)
    _assert_matches(got, _brute(cards, "theirs", weights))
    # Only suited pairs: with a starter of their rank, the offsuit pairs it would make are
    # dead while suited pairs of other suits share their key.
    suited = np.zeros((13, 13, 2))
    suited[:, :, 1] = np.random.default_rng(4).uniform(0.5, 1.5, (13, 13))
    suited = (suited + suited.transpose(1, 0, 2)) / 2
    _assert_matches(evaluate_discards(cards, "mine", suited), _brute(cards, "mine", suited))
    # An opponent who throws only a suited ace and king, holding three aces: the one pair
    # left is AS KS, so with a spade starter the spade throw 5S 6S always makes a flush of
    # five in their crib, while JS in my hand makes his nob only with a spade starter.
    ak = np.zeros((13, 13, 2))
    ak[0, 12, 1] = ak[12, 0, 1] = 1.0
    hand = parse_cards("AC AD AH JS 5S 6S", 6)
    got = evaluate_discards(hand, "theirs", ak)
    assert got.cards == hand and got.crib == "theirs"
    _assert_matches(got, _brute(hand, "theirs", ak))


@pytest.mark.mutation_pin
@pytest.mark.parametrize(("crib", "thrower"), [("mine", "pone"), ("theirs", "dealer")])
def test_expert_weights_by_who_throws(crib: str, thrower: str) -> None:
    """To my crib the opponent throws as pone, to theirs as dealer."""
    pone, dealer = opponent_weights("expert", True), opponent_weights("expert", False)
    assert not np.allclose(pone, dealer)
    weights = pone if thrower == "pone" else dealer
    hand = "JH 5H 6H 7H 8C KD"
    table = discard_table(hand, crib, "expert")  # type: ignore[arg-type]
    want = _brute(parse_cards(hand, 6), crib, weights)
    by_throw = table.set_index("discard")
    for i, t in enumerate(THROWS):
        name = cards_str([parse_cards(hand, 6)[j] for j in t])
        assert by_throw.loc[name, "crib_mean"] == pytest.approx(want["crib_mean"][i], rel=1e-12)
        assert by_throw.loc[name, "net_min"] == want["net_min"][i]


@pytest.mark.mutation_pin
def test_the_table_as_users_read_it() -> None:
    table = discard_table("5H 5S JD QC 4S 9C")  # my crib unless told
    assert list(table.columns) == ["discard", "keep", "hand_mean", "crib_mean", "ev",
                                   "hand_min", "hand_max", "crib_min", "crib_max", "net_min",
                                   "net_max"]
    assert list(table.index) == list(range(15))
    for col in ("hand_min", "hand_max", "crib_min", "crib_max", "net_min", "net_max"):
        assert table[col].dtype.kind == "i", col
    assert table["ev"].is_monotonic_decreasing
    np.testing.assert_allclose(table["ev"], table["hand_mean"] + table["crib_mean"])
    cards = parse_cards("5H 5S JD QC 4S 9C", 6)
    want = _brute(cards, "mine", uniform_weights())
    for row in table.itertuples():
        i = [cards_str([cards[j] for j in t]) for t in THROWS].index(str(row.discard))
        kept = {c for j, c in enumerate(cards) if j not in THROWS[i]}
        assert set(parse_cards(str(row.keep))) == kept
        assert row.hand_mean == pytest.approx(want["hand_mean"][i], rel=1e-12)
        assert row.crib_mean == pytest.approx(want["crib_mean"][i], rel=1e-12)
        assert (row.hand_min, row.hand_max, row.crib_min, row.crib_max, row.net_min,
                row.net_max) == tuple(int(want[k][i]) for k in (
                    "hand_min", "hand_max", "crib_min", "crib_max", "net_min", "net_max"))
    theirs = discard_table("5H 5S JD QC 4S 9C", "theirs")
    np.testing.assert_allclose(theirs["ev"], theirs["hand_mean"] - theirs["crib_mean"])


@pytest.mark.mutation_pin
def test_ties_keep_the_order_of_throws() -> None:
    # Any two of the four aces: the same ranks kept and thrown, and no flush or his nob is
    # possible in hand or crib for any of them, so the six throws are worth exactly alike.
    table = discard_table("AC AD AH AS KC QD", "mine")
    aces = [d for d in table["discard"] if d.count("A") == 2]
    assert aces == ["AC AD", "AC AH", "AC AS", "AD AH", "AD AS", "AH AS"]
    rows = table[table["discard"].isin(aces)]
    assert rows["ev"].nunique() == 1
    assert list(rows.index) == list(range(rows.index[0], rows.index[0] + 6))


@pytest.mark.mutation_pin
def test_best_throw_is_the_highest_ev_and_the_first_of_ties() -> None:
    cards = parse_cards("5H 5S JD QC 4S 9C", 6)
    stats = evaluate_discards(cards, "mine", uniform_weights())
    want = _brute(cards, "mine", uniform_weights())
    ev = want["hand_mean"] + want["crib_mean"]
    assert best_throw(stats) == int(np.flatnonzero(ev == ev.max())[0])
    theirs = _brute(cards, "theirs", uniform_weights())
    ev = theirs["hand_mean"] - theirs["crib_mean"]
    got = best_throw(evaluate_discards(cards, "theirs", uniform_weights()))
    assert got == int(np.flatnonzero(ev == ev.max())[0])


@pytest.mark.mutation_pin
def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match=r"^crib must be 'mine' or 'theirs' \(got 'ours'\)$"):
        discard_table("5H 5S JD QC 4S 9C", "ours")  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"expected 6 cards \(got 5\)"):
        discard_table("5H 5S JD QC 4S")
    with pytest.raises(NotationError, match=r"expected 6 cards \(got 7\)"):
        discard_table("5H 5S JD QC 4S 9C 9D")


@pytest.mark.mutation_pin
def test_uniform_weights_are_ones_for_every_pair_type() -> None:
    w = uniform_weights()
    assert w.shape == (13, 13, 2) == opponent_weights("expert", True).shape
    assert (w == 1.0).all()
