"""Hearts' hidden-information hooks: the unseen cards dealt uniformly among the deals
consistent with what the seat knows (checked against exact counts by brute force), every
determinized hand legal and equal to the decision it samples, and the sampling player
playing Hearts through the game-agnostic ``sampling`` player."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import FULL, SUIT_MASK, cards_of, mask_of, parse_cards
from fuzzeval.games.hearts.game import GAME, State
from fuzzeval.games.hearts.players import heuristic_player, random_player
from fuzzeval.games.hearts.sampling import HIDDEN, determinized, make_deal
from fuzzeval.games.hearts.view import view
from fuzzeval.play.match import make_player
from tests.games.test_hearts_rules import SPLIT


def test_two_unknown_hearts_and_two_spades_with_one_void_are_dealt_uniformly() -> None:
    """Seats 1, 2, 3 need 1, 2 and 1 of AH KH 2S 3S; seat 1 is void in hearts. By hand:
    seat 1 takes one spade (2 ways), seats 2 and 3 split the other three (3 ways): six
    deals of 1/6 each, so seat 3 gets the remaining spade 1/3 of the time, not the 1/2
    a card-by-card deal would give it."""
    cards = parse_cards("AH KH 2S 3S")
    allowed = (FULL, FULL & ~SUIT_MASK[2], FULL, FULL)
    deal = make_deal((1, 2, 3), (1, 2, 1), allowed, mask_of(cards))
    rng = np.random.default_rng(5)
    n = 60_000
    seen = Counter(deal.draw(rng)[1:] for _ in range(n))
    assert len(seen) == 6
    for count in seen.values():
        assert abs(count / n - 1 / 6) < 0.01
    spade_to_3 = sum(c for held, c in seen.items() if held[2] & SUIT_MASK[3])
    assert abs(spade_to_3 / n - 1 / 3) < 0.01


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_deal_probabilities_equal_brute_force_counts(seed: int) -> None:
    """Random small cases: each holding's probability is its share of all consistent
    assignments, enumerated card by card (no tables)."""
    rng = np.random.default_rng(seed)
    unseen = sorted(rng.choice(52, int(rng.integers(3, 8)), replace=False).tolist())
    need = [0, 0, 0]
    for _ in unseen:
        need[int(rng.integers(3))] += 1
    allowed = [FULL] + [FULL & ~SUIT_MASK[int(rng.integers(4))] if rng.random() < 0.6
                        else FULL for _ in range(3)]
    exact: Counter[tuple[int, ...]] = Counter()
    for owners in itertools.product((1, 2, 3), repeat=len(unseen)):
        if [owners.count(s) for s in (1, 2, 3)] != need:
            continue
        if any(not allowed[s] >> c & 1 for s, c in zip(owners, unseen, strict=True)):
            continue
        exact[tuple(mask_of(c for s, c in zip(owners, unseen, strict=True) if s == seat)
                    for seat in (1, 2, 3))] += 1
    if not exact:
        with pytest.raises(ValueError, match="no deal"):
            make_deal((1, 2, 3), need, allowed, mask_of(unseen))
        return
    deal = make_deal((1, 2, 3), need, allowed, mask_of(unseen))
    total = sum(exact.values())
    # a table's probability is the share of the exact deals that have its counts
    for table, p in zip(deal.tables, deal.p, strict=True):
        want = 0
        for held, count in exact.items():
            split = [tuple((held[s - 1] & mask_of(cards)).bit_count() for s in seats)
                     for seats, cards in deal.types]
            want += count * (tuple(split) == table)
        assert p == pytest.approx(want / total)


def _positions(seed: int, games: int, options: rules.Options) -> list[rules.State]:
    """Every decision of ``games`` hands, heuristic and random play mixed."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        state = rules.new_hand(rules.deal(rng), options, g % 4)
        while state.phase != "over":
            out.append(state)
            cards = rules.legal(state)
            policy = heuristic_player if rng.random() < 0.7 else random_player
            state = rules.apply(state, cards[policy(view(state), cards, rng)])
    return out


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([rules.STANDARD, rules.STURTEVANT_WHITE]))
def test_a_determinized_hand_is_legal_and_reaches_the_same_decision(
        seed: int, options: rules.Options) -> None:
    rng = np.random.default_rng(seed)
    for state in _positions(seed, 1, options)[:: 3]:
        v = view(state)
        sample = determinized(v, rng)
        assert view(sample) == v  # the seat's hand, passes, the record: all unchanged
        assert sample.hands[v.seat] == state.hands[v.seat]
        in_flight = sum(mask_of(p) for p in sample.passed) if sample.phase == "pass" else 0
        parts = [*sample.hands, sample.played, in_flight]
        assert sum(p.bit_count() for p in parts) == 52  # 52 cards, once each
        assert parts[0] | parts[1] | parts[2] | parts[3] | sample.played | in_flight == FULL
        for seat in range(4):
            assert sample.hands[seat].bit_count() == state.hands[seat].bit_count()
            for suit in range(4):
                if v.voids[seat] >> suit & 1:
                    assert not sample.hands[seat] & SUIT_MASK[suit]


def test_the_unseen_cards_are_resampled_and_the_known_ones_kept() -> None:
    """After the pass, the receiver of our pass still holds those cards; the rest
    moves between samples."""
    states = [s for s in _positions(3, 2, rules.STANDARD)
              if s.phase == "play" and s.direction == rules.LEFT and s.tricks_done == 1]
    state = states[0]
    v = view(state)
    receiver = (v.seat + 1) % 4
    mine = mask_of(v.passed) & ~v.played
    rng = np.random.default_rng(0)
    hands = {determinized(v, rng).hands for _ in range(20)}
    assert len(hands) > 10
    for h in hands:
        assert h[receiver] & mine == mine


def test_a_heart_led_unbroken_shows_a_hand_of_hearts() -> None:
    """Seat 1 wins the first trick with the AC and leads the 2H before hearts are
    broken, which it may only do holding nothing but hearts: seat 2 then knows seat 1
    holds exactly the eleven hearts it cannot see."""
    hands = (mask_of(parse_cards("2C 3C 4C 2D 3D 4D 5D 6D 7D 8D 9D TD JD")),
             mask_of(parse_cards("AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")),
             mask_of(parse_cards("5C 6C AH QD KD AD 2S 3S 4S 5S 6S 7S 8S")),
             mask_of(parse_cards("7C 8C 9C TC JC QC KC 9S TS JS QS KS AS")))
    state = rules.new_hand(hands, rules.STANDARD, hand_number=3)  # no passing
    for card in parse_cards("2C AC 5C 7C 2H"):
        state = rules.apply(state, card)
    v = view(state)
    assert v.seat == 2 and v.voids == (0, 0, 0, 0)
    rng = np.random.default_rng(1)
    for _ in range(10):
        assert determinized(v, rng).hands[1] == mask_of(parse_cards(
            "3H 4H 5H 6H 7H 8H 9H TH JH QH KH"))


def test_a_point_card_on_the_first_trick_shows_a_hand_of_point_cards() -> None:
    """Void in clubs on the first trick, seat 1 lays the 2H, which it may only do holding
    nothing but hearts and the QS: seat 2 (holding the AH) knows seat 1's twelve cards."""
    hands = (mask_of(parse_cards("2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D")),
             mask_of(parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS")),
             mask_of(parse_cards("AH 9C TC JC QC KC AC 8D 9D TD JD QD KD")),
             mask_of(parse_cards("AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS")))
    state = rules.new_hand(hands, rules.STANDARD, hand_number=3)  # no passing
    for card in parse_cards("2C 2H"):
        state = rules.apply(state, card)
    v = view(state)
    assert v.seat == 2
    rng = np.random.default_rng(1)
    for _ in range(10):
        assert determinized(v, rng).hands[1] == mask_of(parse_cards(
            "3H 4H 5H 6H 7H 8H 9H TH JH QH KH QS"))


def test_the_first_leader_keeps_the_2c_it_did_not_lead() -> None:
    """Sturtevant & White's variant: the 2C holder may open with any club; having led the 5C, seat 0
    still holds the 2C in every sample seat 1 draws."""
    state = rules.new_hand(SPLIT, rules.STURTEVANT_WHITE)
    state = rules.apply(state, parse_cards("5C")[0])
    v = view(state)
    assert v.seat == 1
    rng = np.random.default_rng(0)
    assert all(determinized(v, rng).hands[0] & 1 for _ in range(20))


def test_the_hooks_value_a_hand_by_minus_its_points() -> None:
    rng = np.random.default_rng(2)
    state = rules.new_hand(rules.deal(rng), rules.STANDARD)
    while state.phase != "over":
        cards = rules.legal(state)
        state = rules.apply(state, cards[heuristic_player(view(state), cards, rng)])
    root = State(state)
    assert HIDDEN.finished(root, root)
    points = rules.hand_points(state)
    assert [HIDDEN.value(root, root, s) for s in range(4)] == [-p for p in points]
    assert sum(points) in (26, 78)


def test_sampling_plays_hearts_legally_and_reproducibly() -> None:
    player = make_player(GAME, "sampling", trials=4)
    rng = np.random.default_rng(4)
    state = GAME.new_game(rng, 0)
    chosen = []
    while GAME.to_move(state) is not None and len(chosen) < 8:
        candidates = GAME.candidates(state)
        a = player.choose(candidates, np.random.default_rng(len(chosen)))
        b = player.choose(candidates, np.random.default_rng(len(chosen)))
        assert a == b and 0 <= a < len(candidates)
        chosen.append(a)
        state = GAME.apply(state, a, rng)
    assert len(chosen) == 8


def test_cards_of_a_determinized_hand_stay_out_of_the_seats_void_suits() -> None:
    """A position with shown voids, sampled many times: never a card of a void suit."""
    states = [s for s in _positions(11, 6, rules.STANDARD) if sum(map(bool, s.voids)) >= 2]
    assert states
    rng = np.random.default_rng(0)
    for state in states[:5]:
        v = view(state)
        for _ in range(30):
            sample = determinized(v, rng)
            for seat in range(4):
                for suit in cards_of(v.voids[seat]):
                    assert not sample.hands[seat] & SUIT_MASK[suit]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_cards_a_seat_passed_stay_where_it_passed_them(seed: int) -> None:
    """Over random hands: in every sampled deal the receiver of our pass holds the cards
    we passed that it has not laid, laid the others itself, and we got what we received
    from our passer."""
    rng = np.random.default_rng(seed)
    states = [s for s in _positions(seed, 1, rules.STANDARD)
              if s.phase == "play" and s.direction != rules.NO_PASS]
    for state in states[::4]:
        v = view(state)
        receiver, giver = (v.seat + v.direction) % 4, (v.seat - v.direction) % 4
        for _ in range(3):
            sample = determinized(v, rng)
            assert sample.passed[v.seat] == v.passed
            assert mask_of(sample.passed[giver]) == v.received
            held = mask_of(v.passed) & ~v.played
            assert sample.hands[receiver] & held == held
            assert all(seat == receiver for seat, card in v.laid if card in v.passed)
