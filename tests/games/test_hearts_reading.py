"""Card reading (``hearts.reading``, ``maxn:read=heuristic``): sound for ``heuristic``'s
play (in self-play the true hands satisfy every condition read, at every decision), the
hand-worked readings of a discard and a follow seen in the sampled deals, a record that
contradicts the model dealt as if unread, and ``read=none`` drawing what it drew before."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import (
    HEARTS_MASK,
    SUIT_MASK,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
)
from fuzzeval.games.hearts.game import GAME, State
from fuzzeval.games.hearts.monte_carlo import MaxnHearts, maxn_player
from fuzzeval.games.hearts.players import heuristic_player
from fuzzeval.games.hearts.reading import discard_shows, follow_shows, read
from fuzzeval.games.hearts.sampling import _deal, deal_of, determinized
from fuzzeval.games.hearts.view import View, view
from fuzzeval.play.game import Candidates
from fuzzeval.play.match import make_player
from tests.games.test_hearts_sampling import _positions


def _m(cards: str) -> int:
    return mask_of(parse_cards(cards))


def _in_support(v: View, hands: rules.Four) -> bool:
    """Whether the true deal is one ``deal_of(v, True)`` may draw: each unseen card with a
    seat its type allows, each known card where it is known."""
    deal = deal_of(v, True)
    owner = {c: s for s in range(4) if s != v.seat for c in cards_of(hands[s])}
    return all(owner[c] in seats for seats, cards in deal.types for c in cards) and all(
        known & hands[s] == known for s, known in enumerate(deal.known))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["standard", "sturtevant-white"]))
def test_in_heuristic_self_play_the_true_hands_satisfy_every_reading(
        seed: int, rules_name: str) -> None:
    """Four ``heuristic`` seats through the game's own play loop, two hands a game: at
    every decision in the play, no seat holds a card it was read not to hold, the reading
    is never dropped, and the true deal is among those the read sampler draws."""
    rng = np.random.default_rng(seed)
    player = make_player(GAME, "heuristic")
    shown = 0
    for first in (0, 1):
        state = GAME.new_game(rng, first, rules=rules_name)
        while GAME.to_move(state) is not None:
            candidates = GAME.candidates(state)
            hand = state.hand
            if hand.phase == "play":
                v = view(hand)
                no = read(v)
                assert no[v.seat] == 0
                assert [no[s] & hand.hands[s] for s in range(4)] == [0, 0, 0, 0]
                assert deal_of(v, True).read and _in_support(v, hand.hands)
                shown += sum(n.bit_count() for n in no)
            state = GAME.apply(state, player.choose(candidates, rng), rng)
    assert shown > 200  # the reading says something


def test_many_heuristic_hands_never_break_a_reading() -> None:
    """300 hands of each rules' self-play, every decision of every seat: no card read out
    is held (the property above, over more hands than hypothesis draws)."""
    for options in (rules.STANDARD, rules.STURTEVANT_WHITE):
        rng = np.random.default_rng(1)
        for g in range(300):
            state = rules.new_hand(rules.deal(rng), options, g % 4)
            while state.phase != "over":
                v = view(state)
                if state.phase == "play":
                    no = read(v)
                    assert not any(no[s] & state.hands[s] for s in range(4)), v.laid
                cards = rules.legal(state)
                state = rules.apply(state, cards[heuristic_player(v, cards, rng)])


# Seat 3 holds clubs and low spades only; heuristic laid every card from seat 1's 2C.
DISCARD_DEAL = ("2D 2H 4D 5H 6D 7H 9D JC QC QD QH AH AS",
                "2C 3D 3H 4C 5C 7D 8D 8H JS QS KH AC AD",
                "4H 5D 6H 9C 9H TC TD TH JD JH KC KD KS",
                "2S 3C 3S 4S 5S 6C 6S 7C 7S 8C 8S 9S TS")
DISCARD_PLAY = "2C 9C 8C QC 2D 3D 5D 7C TC 6C JC 5C 4D 7D TD 3C"


def _played(deal: tuple[str, ...], play: str, options: rules.Options = rules.STANDARD
            ) -> rules.State:
    """``deal`` (a hand without passing) with the cards of ``play`` laid in turn."""
    hands = (_m(deal[0]), _m(deal[1]), _m(deal[2]), _m(deal[3]))
    state = rules.new_hand(hands, options, hand_number=3)
    for card in parse_cards(play):
        state = rules.apply(state, card)
    return state


def test_the_hand_worked_discard_is_heuristic_s() -> None:
    """The record of the discard tests is heuristic's play, card by card."""
    hands = tuple(_m(h) for h in DISCARD_DEAL)
    state = rules.new_hand((hands[0], hands[1], hands[2], hands[3]), rules.STANDARD, 3)
    rng = np.random.default_rng(0)
    for card in parse_cards(DISCARD_PLAY):
        cards = rules.legal(state)
        assert cards[heuristic_player(view(state), cards, rng)] == card
        state = rules.apply(state, card)


def test_a_seat_that_discarded_the_3c_on_a_diamond_holds_no_queen_and_no_heart() -> None:
    """Seat 3, void in diamonds, discards the 3C on the 4D with the QS out: heuristic
    would have laid the QS, the AS or KS (the QS out), or its highest heart first, and
    the highest club of its shortest suit. So in 200 deals seat 2 draws, seat 3 never
    holds the QS, the AS, a heart or the 4C; unread, it holds a heart in most."""
    v = view(_played(DISCARD_DEAL, DISCARD_PLAY))
    assert v.seat == 2 and v.trick == ()
    forbidden = _m("QS AS 4C") | HEARTS_MASK
    rng = np.random.default_rng(3)
    assert all(not determinized(v, rng, read=True).hands[3] & forbidden for _ in range(200))
    unread = [determinized(v, rng).hands[3] & HEARTS_MASK for _ in range(200)]
    assert sum(map(bool, unread)) > 150
    # 9 of the 10 unseen low spades (seat 1's JS among them): the read deals
    assert {determinized(v, rng, read=True).hands[3] for _ in range(100)} <= {
        _m("2S 3S 4S 5S 6S 7S 8S 9S TS JS") & ~(1 << c) for c in parse_cards(
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS")}


def test_a_seat_that_laid_the_5d_under_the_jd_holds_nothing_between() -> None:
    """Seat 3 lays the 5D under seat 2's JD: heuristic ducks with its highest card under
    the JD, so seat 3 holds none of 6D to TD; seat 0 (holding the TD; 6D, 8D, 9D laid)
    sees only the 7D among them, which seat 3 never holds in 200 read deals."""
    deal = ("3D 4C 4S 5H 6S 7C 7H TD TH JC KD KS AD",
            "3H 4D 4H 6D 7D 7S 8H 9C QC KC KH AH AS",
            "2H 2S 3C 3S 6C 8S 9D 9H 9S TS JD JH QS",
            "2C 2D 5C 5D 5S 6H 8C 8D TC JS QD QH AC")
    state = _played(deal, "2C 4C 9C 6C 4D 9D 8D 3D 3C 5C 7C KC 6D JD 5D")
    v = view(state)
    assert v.seat == 0 and v.trick == tuple(parse_cards("6D JD 5D"))
    rng = np.random.default_rng(4)
    seven = 1 << parse_card("7D")
    assert all(not determinized(v, rng, read=True).hands[3] & seven for _ in range(200))
    assert any(determinized(v, rng).hands[3] & seven for _ in range(200))


@pytest.mark.parametrize(("card", "played", "first", "options", "shows"), [
    ("3C", "", False, rules.STANDARD, "hearts QS AS KS 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
    ("3C", "QS", False, rules.STANDARD, "hearts QS 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
    ("QS", "", False, rules.STANDARD, ""),
    ("AS", "", False, rules.STANDARD, "QS"),
    ("KS", "", False, rules.STANDARD, "QS AS"),
    ("KS", "QS", False, rules.STANDARD, "hearts QS AS"),
    ("9H", "", False, rules.STANDARD, "QS AS KS TH JH QH KH AH"),
    # the first trick, no points on it: chosen among the cards worth none
    ("JS", "", True, rules.STANDARD, "KS AS"),
    ("9H", "", True, rules.STANDARD, "QS AS KS TH JH QH KH AH"),
    ("JS", "", True, rules.STURTEVANT_WHITE, "hearts QS AS KS"),
])
def test_what_a_discard_shows(card: str, played: str, first: bool, options: rules.Options,
                              shows: str) -> None:
    """By hand from ``players._discard``: the QS first, the AS then KS while the QS is
    out, the highest heart, the highest card of the shortest suit ("hearts": all 13)."""
    no = discard_shows(parse_card(card), _m(played), first, options)
    hearts = HEARTS_MASK if "hearts" in shows else 0
    assert no == _m(shows.replace("hearts", "")) | hearts


@pytest.mark.parametrize(("card", "trick", "watching", "shows"), [
    ("5D", "JD", False, "6D 7D 8D 9D TD"),  # ducked: nothing between
    ("5D", "3D JD", False, "6D 7D 8D 9D TD"),
    ("KD", "3D JD", False, "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD"),  # third: its lowest
    ("KD", "3D JD 2C", False, "AD"),  # last over the JD: its highest (the QS aside)
    ("KS", "3S JS 2C", False, "AS"),
    ("AS", "3S JS 2C", False, ""),
    ("QS", "3S JS 2C", False, "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"),  # only the QS
    ("5D", "JD QH", True, "6D 7D 8D 9D TD JD QD KD AD"),  # the moon watch: its highest
])
def test_what_a_follow_shows(card: str, trick: str, watching: bool, shows: str) -> None:
    """By hand from ``players.heuristic_player``'s follow: duck with the highest card
    under the trick's high card; else, last, take with the highest but the QS, else lay
    the lowest."""
    assert follow_shows(parse_card(card), tuple(parse_cards(trick)), watching) == _m(shows)


def test_a_discard_to_a_shooter_is_not_read() -> None:
    """Seat 1 has taken the QS (13 points, every point) and wins the 2D: seat 2, void in
    diamonds, gives it its highest card worth no points, the 5S, holding eight hearts
    (heuristic's moon watch). Nothing is read of that discard (nor of its QS)."""
    deal = ("2C 4C 5C 6C 7C 8C 9C TC JC QC KC 3D 4D",
            "AC 2D 5D 6D 7D 8D 9D TD JD QD KD AD TH",
            "QS 2S 3S 4S 5S 2H 3H 4H 5H 6H 7H 8H 9H",
            "3C 6S 7S 8S 9S TS JS KS AS JH QH KH AH")
    state = _played(deal, "2C AC QS 3C 2D", rules.STURTEVANT_WHITE)
    cards = rules.legal(state)
    assert cards[heuristic_player(view(state), cards, np.random.default_rng(0))] == \
        parse_card("5S")
    v = view(rules.apply(state, parse_card("5S")))
    assert (v.seat, v.taken) == (3, (0, 13, 0, 0))
    assert read(v)[2] == 0
    assert discard_shows(parse_card("5S"), v.played, False, v.options) & HEARTS_MASK


@pytest.mark.parametrize(("discard", "shows"), [
    ("2H", "6D 7D 8D 9D TD JD QD KD AD"),  # points on the trick: the moon watch
    ("5S", ""),  # none: it ducks under the 5D, and no diamond lies between
])
def test_a_follow_onto_a_shooter_s_points_is_read_as_its_highest(discard: str, shows: str
                                                                ) -> None:
    """Seat 1 (13 points, all) leads the 5D; seat 2 discards, seat 3 ducks with the 4D.
    With a heart on the trick heuristic's moon watch would have taken it with any higher
    diamond, so seat 3 holds none; with no points on it, the duck shows nothing more."""
    deal = ("2C 4C 5C 6C 7C 8C 9C TC JC QC KC 6D 7D",
            "AC 5D 8D 9D TD JD QD KD AD TH 2S 3S 4S",
            "QS 2H 3H 4H 5H 6H 7H 8H 9H 5S 6S 7S 8S",
            "3C 2D 3D 4D 9S TS JS KS AS JH QH KH AH")
    state = _played(deal, f"2C AC QS 3C 5D {discard}", rules.STURTEVANT_WHITE)
    cards = rules.legal(state)
    assert cards[heuristic_player(view(state), cards, np.random.default_rng(0))] == \
        parse_card("4D")
    v = view(rules.apply(state, parse_card("4D")))
    assert (v.seat, v.taken) == (0, (0, 13, 0, 0))
    no = read(v)
    assert no[3] & SUIT_MASK[1] == _m(shows)
    assert no[2] == 0  # its discards: the QS, then one to the shooter


def test_a_record_that_contradicts_heuristic_is_dealt_as_if_unread() -> None:
    """Seat 3 discards the 3C holding two hearts (not heuristic's play): read, it would
    hold 9 of the 8 unseen low spades. No deal fits, so the read deals are the unread
    ones, and the judgement says so; no error."""
    deal = (DISCARD_DEAL[0], DISCARD_DEAL[1], "9S TS 5D 9C 9H TC TD TH JD JH KC KD KS",
            "2S 3C 3S 4H 4S 5S 6C 6H 6S 7C 7S 8C 8S")
    state = _played(deal, DISCARD_PLAY)
    v = view(state)
    assert v.seat == 2
    assert not deal_of(v, True).read and deal_of(v, True) == deal_of(v)
    rng = np.random.default_rng(0)
    assert any(determinized(v, rng, read=True).hands[3] & HEARTS_MASK for _ in range(20))
    j = MaxnHearts(2, read=True).judge(_candidates(state), np.random.default_rng(0))
    assert j.how.endswith("; the deals not read as heuristic's play: the play so far "
                          "contradicts it")


def _candidates(state: rules.State) -> Candidates:
    return GAME.candidates(State(state))


def test_a_seat_that_lays_a_card_it_was_read_not_to_hold_is_not_read() -> None:
    """After its 3C (read: no heart), seat 3 lays a heart on a later trick: the record
    contradicts the model, so the deals are unread even where some deal would fit."""
    deal = (DISCARD_DEAL[0], DISCARD_DEAL[1], "TS 5D 6H 9C 9H TC TD TH JD JH KC KD KS",
            "2S 3C 3S 4H 4S 5S 6C 6S 7C 7S 8C 8S 9S")
    state = _played(deal, DISCARD_PLAY + " JD 4H")
    v = view(state)
    assert v.seat == 0
    shown = read(v)
    assert shown[3] & HEARTS_MASK == HEARTS_MASK  # no heart was laid before its 3C
    _deal(v, shown)  # a deal fits: it is the card seat 3 laid that drops the reading
    assert not deal_of(v, True).read and deal_of(v, True) == deal_of(v)


def test_play_partly_at_random_is_dealt_read_or_not_never_an_error() -> None:
    """Seats laying a random card three times in ten (``_positions``): every decision is
    dealt, read where the record allows it and unread where it shows the model wrong."""
    rng = np.random.default_rng(0)
    kinds = []
    for state in _positions(5, 4, rules.STANDARD):
        if state.phase == "play":
            v = view(state)
            kinds.append(deal_of(v, True).read)
            assert determinized(v, rng, read=True).hands[v.seat] == v.hand
    assert len(kinds) == 4 * 52 and 0 < sum(kinds) < len(kinds)


def test_read_none_draws_what_the_sampler_drew_before_reading() -> None:
    """Pinned from the sampler before reading was added: the same draws, bit for bit."""
    out = []
    for options in (rules.STANDARD, rules.STURTEVANT_WHITE):
        states = [s for s in _positions(7, 2, options) if s.phase == "play"][::9]
        rng = np.random.default_rng(47)
        out.extend(determinized(view(s), rng).hands for s in states)
    assert len(out) == 24
    assert out[:3] == [(282102319420044, 741517532595298, 102273443454976, 3377706331900177),
                       (22747226973184, 1092932275011620, 9079636382274, 3377706331867408),
                       (223875565088, 848827272745024, 149543322650624, 2304853401403664)]
    assert hashlib.sha256(repr(out).encode()).hexdigest() == (
        "5fbef6b588f29c62f657e264dbb1533e2f156fa379ec51f76a60c72fcd869bc5")


def test_the_option_makes_a_reading_player_and_says_so() -> None:
    assert maxn_player(read="heuristic") == MaxnHearts(read=True)
    assert maxn_player(read="none") == MaxnHearts() == maxn_player()
    assert maxn_player(values="learned", read="heuristic").read
    assert make_player(GAME, "maxn", read="heuristic", deals=3) == MaxnHearts(3, read=True)
    state = _played(DISCARD_DEAL, DISCARD_PLAY)
    j = MaxnHearts(2, read=True).judge(_candidates(state), np.random.default_rng(0))
    assert j.how == ("the fewest points taken by the trick's end on average over 2 sampled "
                     "deals, each searched by maxⁿ (every seat by the points it takes); the "
                     "deals read as heuristic's play would reveal the other hands")


def test_a_bad_read_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError) as exc:
        maxn_player(read="yes")
    assert str(exc.value) == "read must be one of none, heuristic (got 'yes')"
