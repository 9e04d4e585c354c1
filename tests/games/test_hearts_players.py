"""Hearts players: each rule of thumb of ``heuristic`` on a hand-worked position, the view
hiding what a seat cannot know, and heuristic beating random by a wide margin."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import card_str, mask_of, parse_cards
from fuzzeval.games.hearts.players import (
    heuristic_player,
    play_out,
    random_player,
)
from fuzzeval.games.hearts.rules import STANDARD
from fuzzeval.games.hearts.view import View, view
from tests.games.test_hearts_rules import SPLIT

RNG = np.random.default_rng(0)


def make_view(hand: str, trick: str = "", leader: int = 1, played: str = "",
              taken: tuple[int, int, int, int] = (0, 0, 0, 0), kind: str = "play",
              seat: int = 0, broken: bool = True) -> View:
    on_trick = parse_cards(trick)
    laid_cards = parse_cards(played) + on_trick
    return View(seat=seat, kind=kind, hand=mask_of(parse_cards(hand)),  # type: ignore[arg-type]
                passed=(), received=0, direction=0, leader=leader, trick=on_trick,
                played=mask_of(laid_cards), laid=(), voids=(0, 0, 0, 0), taken=taken,
                broken=broken, tricks_done=len(laid_cards) // 4, options=STANDARD)


def choose(v: View, legal: str) -> str:
    cards = sorted(parse_cards(legal))
    return card_str(cards[heuristic_player(v, cards, RNG)])


@pytest.mark.parametrize(("hand", "passes"), [
    ("QS 2S 3S 2C 3C 4C 5C 6C 7C 8C 9C TC 2D", "QS"),  # two low spades: pass the queen
    ("QS 2S 3S 4S 5S 2C 3C 4C 5C 2D 3D 4D AH", "AH"),  # four guard it: keep it
    ("AS 2S 2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D", "AS"),
    ("KH 2S 3S 4S 2C 3C 4C 5C 6C 7C 2D 3D 4D", "KH"),
    ("KD 2S 3S 4S 2C 3C 4C 5C 6C 7C 8C 9C TC", "KD"),  # high card of the short suit
])
def test_heuristic_passes_danger_first(hand: str, passes: str) -> None:
    assert choose(make_view(hand, kind="pass"), hand) == passes


def test_heuristic_ducks_and_dumps_the_queen_under_the_king() -> None:
    assert choose(make_view("QS 3S AS 5D", trick="KS"), "QS 3S AS") == "QS"
    assert choose(make_view("8D 5D KD", trick="9D 2D"), "8D 5D KD") == "8D"


def test_heuristic_wins_high_when_last_and_low_otherwise() -> None:
    assert choose(make_view("9D KD 2C", trick="2D 3D 4D"), "9D KD") == "KD"
    assert choose(make_view("9D KD 2C", trick="2D"), "9D KD") == "9D"
    assert choose(make_view("QS KS 2C", trick="2S 3S 4S"), "QS KS") == "KS"  # not the QS


def test_heuristic_discards_queen_then_high_spades_then_hearts() -> None:
    assert choose(make_view("QS AH 2D", trick="5C"), "QS AH 2D") == "QS"
    assert choose(make_view("AS AH 2D", trick="5C"), "AS AH 2D") == "AS"  # the QS is out
    assert choose(make_view("AS AH 2D", trick="5C", played="QS"), "AS AH 2D") == "AH"
    # the QS gone, no hearts: the top of the shortest suit (diamonds, two cards)
    assert choose(make_view("2D 3D 9S TS JS", trick="5C", played="QS"),
                  "2D 3D 9S TS JS") == "3D"


def test_heuristic_leads_low_and_never_the_queen() -> None:
    assert choose(make_view("QS 2S 5D 9C"), "QS 2S 5D 9C") == "2S"
    assert choose(make_view("QS 7S", played="2S 3S 4S 5S 6S"), "QS 7S") == "7S"
    assert choose(make_view("AS 9D 5C", played="2C 3C 4C"), "AS 9D 5C") == "5C"


def test_heuristic_fights_a_moon_shot() -> None:
    threat = (0, 14, 0, 0)
    assert choose(make_view("3H AH 2C", trick="2H", taken=threat), "3H AH") == "AH"
    assert choose(make_view("3H AH 2C", trick="2H"), "3H AH") == "3H"  # no threat: duck
    # the shooter is not winning this trick: no need to take it
    assert choose(make_view("3H AH 2C", trick="2H KH", taken=threat, leader=1, seat=3),
                  "3H AH") == "3H"
    # void, the shooter winning: no heart for it
    assert choose(make_view("AH 9D", trick="5C", taken=threat, leader=1), "AH 9D") == "9D"


def test_the_view_hides_other_hands_and_shows_what_was_received() -> None:
    state = rules.new_hand(SPLIT, STANDARD, 0)
    for card in parse_cards("2C 7D 6D AC KC 8H AD KD QD QS AS AH"):
        state = rules.apply(state, card)
    v = view(state)
    assert v.seat == 1 and v.kind == "play"
    assert v.received == mask_of(parse_cards("2C 7D 6D"))
    assert v.passed == parse_cards("AC KC 8H")
    assert v.hand == state.hands[1]
    assert not any(getattr(v, name) == state.hands[2] for name in View.__slots__)


def test_heuristic_beats_random_by_a_wide_margin() -> None:
    rng = np.random.default_rng(5)
    mine = theirs = 0.0
    hands = 200
    for g in range(hands):
        seat = g % 4
        seats = [random_player] * 4
        seats[seat] = heuristic_player
        state = play_out(rules.new_hand(rules.deal(rng), STANDARD, g), seats, rng)
        points = rules.points(state)
        mine += points[seat]
        theirs += (sum(points) - points[seat]) / 3
    assert mine / hands < 4.0 and theirs / hands > 7.0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.booleans(), number=st.integers(0, 3),
       heuristic_seats=st.lists(st.booleans(), min_size=4, max_size=4))
def test_every_choice_is_a_legal_index(seed: int, variant: bool, number: int,
                                       heuristic_seats: list[bool]) -> None:
    rng = np.random.default_rng(seed)
    options = rules.STURTEVANT_WHITE if variant else STANDARD
    state = rules.new_hand(rules.deal(rng), options, number)
    while state.phase != "over":
        cards = rules.legal(state)
        policy = heuristic_player if heuristic_seats[state.to_move] else random_player
        index = policy(view(state), cards, rng)
        assert isinstance(index, int) and 0 <= index < len(cards)
        state = rules.apply(state, cards[index])


@pytest.mark.pinned
def test_points_taken_are_refused_with_their_form() -> None:
    from fuzzeval.errors import FuzzevalError
    from fuzzeval.games.hearts.advice import parse_taken

    with pytest.raises(FuzzevalError) as caught:
        parse_taken("1,2")
    assert str(caught.value) == ("'1,2': points taken are four whole numbers, "
                                 "me,left,across,right, e.g. 0,13,0,0")


@pytest.mark.pinned
def test_hearts_advice_explains_only_when_asked() -> None:
    from fuzzeval.games.hearts.advice import advise, position
    from fuzzeval.games.hearts.fuzzy import fuzzy_player

    state = position("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", rules_name="standard")
    player = fuzzy_player()
    plain = advise(state, player, "fuzzy")
    asked = advise(state, player, "fuzzy", explain=True)
    assert "explanation" not in plain and "explanation" in asked
    assert plain["play"] == asked["play"] == "2C"  # the 2C leads the first trick
