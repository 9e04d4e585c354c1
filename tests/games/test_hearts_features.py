"""Candidate-card features: each checked against a scalar count written here from the rules
(sets of cards, one candidate at a time), on positions of random hands in both rule sets,
and pinned on hand-worked positions."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from fuzzeval.games.hearts import features, rules
from fuzzeval.games.hearts.cards import mask_of, parse_cards
from fuzzeval.games.hearts.features import (
    FEATURE_NAMES,
    FEATURES,
    candidate_features,
    compiled_features,
    numpy_features,
)
from fuzzeval.games.hearts.rules import STANDARD, STURTEVANT_WHITE
from fuzzeval.games.hearts.view import View, view


def card_set(mask: int) -> set[int]:
    return {c for c in range(52) if mask >> c & 1}


def scalar(v: View, card: int) -> dict[str, float]:
    """The features of one card, from the rules, with sets and loops."""
    rank, suit = divmod(card, 4)
    mine = card_set(v.hand)
    seen = card_set(v.played) | mine
    out_cards = set(range(52)) - seen
    in_suit = [c for c in out_cards if c % 4 == suit]
    points = {c: (13 if c == 43 else 1 if c % 4 == 2 else 0) for c in range(52)}
    left, across, right = (v.seat + 1) % 4, (v.seat + 2) % 4, (v.seat + 3) % 4

    def void(seat: int, s: int) -> bool:
        return bool(v.voids[seat] & (1 << s))

    total = sum(v.taken)
    shooters = [v.taken[o] for o in (left, across, right) if v.taken[o] == total and total]
    f: dict[str, float] = {
        "rank": rank, "is_heart": suit == 2, "is_queen": card == 43,
        "card_points": points[card],
        "above_out": sum(c > card for c in in_suit), "below_out": sum(c < card for c in in_suit),
        "suit_held": sum(c % 4 == suit for c in mine), "suit_out": len(in_suit),
        "voids_in_suit": sum(void(o, suit) for o in (left, across, right)),
        "void_left": void(left, suit), "void_across": void(across, suit),
        "void_right": void(right, suit),
        "queen_here": 43 in mine, "queen_out": 43 in out_cards,
        "queen_known": 43 in out_cards and 43 in v.passed,
        "spade_guards": sum(c % 4 == 3 and c < 43 for c in mine),
        "hearts_broken": v.broken, "points_taken": v.taken[v.seat],
        "points_others": total - v.taken[v.seat], "points_left": 26 - total,
        "shooter_points": shooters[0] if shooters else 0,
        "trick_number": 1 if v.kind == "pass" else v.tricks_done + 1,
        "is_spade": suit == 3, "passing": v.kind == "pass",
    }
    for name in ("leading", "position", "follows", "wins_now", "sure_win", "sure_loss",
                 "trick_points", "later_voids", "queen_later"):
        f[name] = 0
    if v.kind == "pass":
        return f
    n = len(v.trick)
    to_play = [(v.seat + k) % 4 for k in range(1, 4 - n)]
    f["position"] = n
    f["leading"] = n == 0
    f["later_voids"] = sum(void(o, suit) for o in to_play)
    if 43 in v.passed:
        holder = (v.seat + v.direction) % 4
        f["queen_later"] = 43 in out_cards and holder in to_play
    else:
        f["queen_later"] = 43 in out_cards and any(not void(o, 3) for o in to_play)
    f["trick_points"] = sum(points[c] for c in v.trick)
    led = v.trick[0] % 4 if v.trick else suit
    f["follows"] = suit == led
    best = max((c for c in v.trick if c % 4 == led), default=-1)
    wins = suit == led and card > best
    f["wins_now"] = wins
    f["sure_loss"] = bool(v.trick) and not wins
    beaters = [c for c in in_suit if c > card]
    f["sure_win"] = wins and (not beaters or all(void(o, suit) for o in to_play))
    return f


def check(v: View, cards: list[int]) -> np.ndarray:
    """Both implementations against the scalar counts; numpy's table."""
    tables = [numpy_features(v, cards), compiled_features(v, cards)]
    for table in tables:
        assert table.shape == (len(cards), len(FEATURES))
        for i, card in enumerate(cards):
            expected = scalar(v, card)
            assert set(expected) == set(FEATURE_NAMES)
            for j, feature in enumerate(FEATURES):
                value = table[i, j]
                assert value == float(expected[feature.name]), (feature.name, card, v)
                assert feature.lo <= value <= feature.hi, feature.name
    return tables[0]


@pytest.mark.parametrize("options", [STANDARD, STURTEVANT_WHITE],
                         ids=["standard", "sturtevant-white"])
def test_features_match_the_scalar_counts_on_random_hands(options: rules.Options) -> None:
    rng = np.random.default_rng(17)
    decisions = 0
    for number in range(40):
        state = rules.new_hand(rules.deal(rng), options, number)
        while state.phase != "over":
            cards = rules.legal(state)
            if number % 2 == 0 or state.phase == "pass" or len(state.trick) == 0:
                check(view(state), cards)
                decisions += 1
            state = rules.apply(state, cards[int(rng.integers(len(cards)))])
    assert decisions > 1000


def row(table: np.ndarray, i: int) -> dict[str, float]:
    return {name: float(table[i, j]) for j, name in enumerate(FEATURE_NAMES)}


def test_hand_worked_following_position() -> None:
    # seat 0 holds KS QS 3S 9H 2D; seat 2 led 5S, seat 3 discarded the AH (void in
    # spades); seat 0 to play, seat 1 last
    v = View(seat=0, kind="play", hand=mask_of(parse_cards("KS QS 3S 9H 2D")),
             passed=(), received=0, direction=0, leader=2, trick=parse_cards("5S AH"),
             played=mask_of(parse_cards("5S AH 2C 3C 4C 5C")), laid=(),
             voids=(0, 0, 0, 1 << 3), taken=(0, 0, 0, 0), broken=True, tricks_done=1,
             options=STANDARD)
    cards = sorted(parse_cards("KS QS 3S"))  # 3S, QS, KS
    table = check(v, cards)
    three, queen, king = (row(table, i) for i in range(3))
    assert three["sure_loss"] == 1 and three["wins_now"] == 0 and three["below_out"] == 1
    assert queen["wins_now"] == 1 and queen["above_out"] == 1  # the AS is out
    assert queen["sure_win"] == 0  # seat 1 still to play, not void in spades
    assert king["sure_win"] == 0 and king["above_out"] == 1
    assert three["trick_points"] == 1 and three["position"] == 2
    assert three["void_right"] == 1 and three["voids_in_suit"] == 1
    assert three["later_voids"] == 0 and three["queen_here"] == 1
    assert three["spade_guards"] == 1 and three["trick_number"] == 2
    # the same with seat 1 shown void in spades: the QS and KS win for sure
    sure = check(replace(v, voids=(0, 1 << 3, 0, 1 << 3)), cards)
    assert row(sure, 1)["sure_win"] == 1 and row(sure, 2)["sure_win"] == 1


def test_hand_worked_lead_and_moon_watch() -> None:
    # seat 1 leads the sixth trick; every heart and 2S-8S are laid, seat 3 took the 13
    # hearts; seat 1 passed QS AS KS left, to seat 2, who plays after it
    played = mask_of(parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S 7S"
                                 " 8S"))
    v = View(seat=1, kind="play", hand=mask_of(parse_cards("AD 7C TS")),
             passed=parse_cards("QS AS KS"), received=0, direction=1, leader=1, trick=(),
             played=played, laid=(), voids=(0, 0, 0, 0), taken=(0, 0, 0, 13), broken=True,
             tricks_done=5, options=STANDARD)
    table = check(v, sorted(parse_cards("AD 7C TS")))  # 7C, TS, AD
    seven, ten, ace = (row(table, i) for i in range(3))
    assert seven["leading"] == 1 and seven["queen_known"] == 1 and seven["queen_out"] == 1
    assert seven["queen_later"] == 1
    assert seven["shooter_points"] == 13 and seven["points_left"] == 13
    assert seven["points_others"] == 13 and seven["trick_number"] == 6
    assert ten["above_out"] == 4 and ten["below_out"] == 1  # JS QS KS AS; 9S
    assert ten["sure_win"] == 0 and ace["sure_win"] == 1  # nothing above the AD


def test_pass_features() -> None:
    state = rules.new_hand(rules.deal(np.random.default_rng(2)), STANDARD, 0)
    table = check(view(state), rules.legal(state))
    assert (table[:, FEATURE_NAMES.index("trick_number")] == 1).all()
    assert (table[:, FEATURE_NAMES.index("wins_now")] == 0).all()
    assert (table[:, FEATURE_NAMES.index("passing")] == 1).all()
    cards = rules.legal(state)
    spades = table[:, FEATURE_NAMES.index("is_spade")]
    assert spades.tolist() == [float(c % 4 == 3) for c in cards] and 0 < spades.sum() < 13
    # 39 cards out at the start: each suit's out count is 13 minus ours
    assert (table[:, FEATURE_NAMES.index("suit_out")]
            + table[:, FEATURE_NAMES.index("suit_held")] == 13).all()


def test_feature_table_is_well_formed() -> None:
    assert len(set(FEATURE_NAMES)) == len(FEATURES) == 33
    for f in FEATURES:
        assert f.lo < f.hi and f.meaning and f.name.isidentifier()


def test_the_compiled_features_are_taken_once_numba_is_loaded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's start-up (about a second) is not paid for features alone: a process's
    first decisions take numpy's, a process that has loaded numba the kernel's."""
    monkeypatch.setattr(features, "numpy_features", lambda v, cards: "numpy")
    monkeypatch.setattr(features, "compiled_features", lambda v, cards: "compiled")
    state = rules.new_hand(rules.deal(np.random.default_rng(2)), STANDARD, 0)
    for loaded, taken in ((False, "numpy"), (True, "compiled")):
        monkeypatch.setattr(features, "loaded", lambda loaded=loaded: loaded)
        assert candidate_features(view(state), rules.legal(state)) == taken


def test_popcount_counts_the_bits_of_52_card_masks() -> None:
    rng = np.random.default_rng(5)
    for mask in [0, 1, (1 << 52) - 1, 1 << 51, *rng.integers(0, 1 << 52, 200).tolist()]:
        assert features._popcount(mask) == bin(mask).count("1")
        assert features.popcount(mask) == bin(mask).count("1")
