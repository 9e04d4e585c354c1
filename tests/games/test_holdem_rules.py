"""Heads-up limit hold'em rules, hand-worked from the ACPC reverse-blinds structure: blinds
10/5, bets 10/10/20/20, 4 bets a round (the big blind the first preflop), position 0 the
big blind, the button (position 1) first preflop and last after."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzeval.errors import NotationError
from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.cards import card_str, cards_str, parse_card, parse_cards
from fuzzeval.games.holdem.rules import START, Deal, act, chips, legal, parse_betting


def deal(text: str) -> Deal:
    """``AsKd|2c2h/3c4c5c/6d/7h`` -> a Deal."""
    holes, *board = text.split("/")
    a, b = holes.split("|")
    ha, hb = parse_cards(a, 2), parse_cards(b, 2)
    return Deal(((ha[0], ha[1]), (hb[0], hb[1])), parse_cards("".join(board)))


def test_card_ids_are_rank_times_four_plus_suit() -> None:
    assert [parse_card(t) for t in ("2c", "2d", "2h", "2s", "3c", "Tc", "As")] == \
        [0, 1, 2, 3, 4, 32, 51]
    assert card_str(51) == "As" and card_str(34) == "Th"
    assert parse_cards("AsKd") == parse_cards("as kd") == parse_cards("AS,KD") == (51, 45)
    assert parse_cards("10d9c") == (33, 28)
    assert cards_str((51, 45)) == "AsKd"


@pytest.mark.parametrize(("text", "token", "why"), [
    ("AsAs", "As", "appears twice"),
    ("AsK", "K", "a rank and a suit"),
    ("Ax", "Ax", "unknown suit"),
    ("1s", "1s", "unknown rank"),
    ("AsKd", "AsKd", "expected 3 cards"),
])
def test_bad_cards_name_the_token(text: str, token: str, why: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_cards(text, 3 if why.startswith("expected") else None)
    assert caught.value.token == token and why in caught.value.why


@pytest.mark.parametrize(("text", "taken", "message"), [
    (" as kd, 2c ", (), "'as kd, 2c': expected 2 cards (got 3)"),  # as written, not AsKd2c
    ("", (), "'nothing': expected 2 cards (got 0)"),
    ("AsKd", (45,), "'Kd': this card appears twice"),  # named elsewhere before
    ("Xs!!", (), "'Xs': unknown rank 'X' (ranks: 2-9 T/10 J Q K A)"),  # the first bad card
    ("As!!Xs", (), "'!!Xs': a card is a rank and a suit, e.g. As, Td, 10d, 2c"),
])
def test_a_run_of_cards_is_read_by_the_shared_notation(text: str, taken: tuple[int, ...],
                                                       message: str) -> None:
    """Hold'em cuts a run like ``AsKd`` into cards; the shared parser reads each, refuses
    one twice and counts them, naming what was written."""
    with pytest.raises(NotationError) as caught:
        parse_cards(text, 2, taken)
    assert str(caught.value) == message


def test_the_blinds_and_who_acts_first() -> None:
    assert START.spent == (10, 5) and START.pot == 15
    assert START.to_move == rules.BUTTON == 1  # the button acts first preflop
    assert legal(START) == "fcr" and START.bets == 1 and START.to_call == 5
    limped = act(START, "c")
    assert limped.spent == (10, 10) and limped.to_move == 0  # the big blind's option
    assert legal(limped) == "cr"  # nothing to call: no fold
    flop = act(limped, "c")
    assert flop.rounds == ("cc", "") and flop.round == 1
    assert flop.to_move == 0  # position 0 opens the flop; the button acts last
    assert act(flop, "c").to_move == 1
    assert str(flop) == "cc/"


def test_bet_sizes_small_then_big() -> None:
    assert parse_betting("r").spent == (10, 20)  # a raise preflop: 10 more than the blind
    assert parse_betting("rr").spent == (30, 20)
    assert parse_betting("cc/r").spent == (20, 10)  # flop bet: the small bet
    assert parse_betting("cc/cc/r").spent == (30, 10)  # turn bet: the big bet
    assert parse_betting("cc/cc/cc/rr").spent == (30, 50)  # river: 20 a raise


def test_a_capped_round() -> None:
    pre = parse_betting("rrr")  # the blind and three raises: four bets
    assert pre.spent == (30, 40) and pre.bets == 4 and legal(pre) == "fc"
    with pytest.raises(NotationError, match="4 bets already this round, the cap"):
        act(pre, "r")
    flop = parse_betting("rrrc/rrrr")  # four bets after the flop, no blind
    assert flop.spent == (70, 80) and legal(flop) == "fc" and flop.to_move == 0
    biggest = parse_betting("rrrc/rrrrc/rrrrc/rrrrc")
    assert biggest.over and biggest.spent == (240, 240)


def test_a_call_that_is_not_first_closes_the_round() -> None:
    assert parse_betting("rc").rounds == ("rc", "")
    assert parse_betting("crc").rounds == ("crc", "")
    assert parse_betting("cc/c").rounds == ("cc", "c")  # a check opens the flop
    river = parse_betting("cc/cc/cc/crc")
    assert river.over and river.folded is None and river.spent == (30, 30)


def test_a_folds_chips() -> None:
    assert parse_betting("f").folded == 1
    assert chips(deal("AsAh|2c7d"), parse_betting("f")) == (5, -5)  # the button's blind
    assert chips(deal("AsAh|2c7d"), parse_betting("rf")) == (-10, 10)  # the big blind
    assert chips(deal("AsAh|2c7d"), parse_betting("cc/rrf")) == (-20, 20)  # bet, raise, fold
    assert chips(deal("2c7d|AsAh"), parse_betting("cc/cc/cc/rf")) == (10, -10)


def test_showdowns_and_split_pots() -> None:
    board = "/9h9d2s/Ks/4c"
    # aces up beat nines and kings with a queen kicker
    assert chips(deal("AsAh|QcJd" + board), parse_betting("cc/cc/cc/cc")) == (10, -10)
    assert chips(deal("QcJd|AsAh" + board), parse_betting("rc/rc/rc/rc")) == (-70, 70)
    # both play the board's royal flush: split
    royal = "/AsKsQs/Js/Ts"
    assert chips(deal("2c3d|4h5c" + royal), parse_betting("rrrc/rrrrc/cc/cc")) == (0, 0)
    # the same two pair with the same ace kicker: split
    assert chips(deal("Ac3d|Ad4h/9h9d2s/2h/Kc"), parse_betting("cc/cc/cc/cc")) == (0, 0)
    # a flush beats a straight
    flushed = deal("Ah2h|9cTd/3h4h5s/Kh/8c")
    straight = deal("9cTd|Ah2h/3h4h5s/Kh/8c")
    assert chips(flushed, parse_betting("cc/cc/cc/cc")) == (10, -10)
    assert chips(straight, parse_betting("cc/cc/cc/cc")) == (-10, 10)


@pytest.mark.parametrize(("text", "token", "why"), [
    ("rrrr", "rrrr", "'r' at character 4: 4 bets already this round, the cap"),
    ("rff", "rff", "'f' at character 3: the hand is over (a fold)"),
    ("fc", "fc", "the hand is over"),
    ("cc/f", "cc/f", "nothing to call"),
    ("ccc", "ccc", "the flop starts with '/'"),
    ("cc//c", "cc//", "no round ends at character 4"),
    ("/", "/", "no round ends"),
    ("rx", "rx", "actions are f, c and r"),
    ("cc/cc/cc/cc/", "cc/cc/cc/cc/", "no round ends"),
    ("cc/cc/cc/ccc", "cc/cc/cc/ccc", "the hand is over (the showdown)"),
])
def test_illegal_betting_names_the_token(text: str, token: str, why: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_betting(text)
    assert caught.value.token == token and why in caught.value.why


@pytest.mark.parametrize("action", ["", "cr", "x"])
def test_an_action_is_one_legal_letter(action: str) -> None:
    """'' and 'cr' were taken as a call (they are in 'fcr')."""
    with pytest.raises(NotationError, match="actions are f, c and r"):
        act(START, action)


def test_a_deal_refuses_a_card_twice() -> None:
    with pytest.raises(ValueError, match="not a deal"):
        Deal(((51, 50), (51, 1)), ())
    assert str(deal("AsKd|2c2h/3c4c5c/6d/7h")) == "AsKd|2c2h/3c4c5c/6d/7h"


@given(st.lists(st.integers(0, 2), max_size=40))
def test_any_legal_betting_is_bounded_and_pays_zero_sum(picks: list[int]) -> None:
    b = START
    for pick in picks:
        if b.over:
            break
        options = legal(b)
        b = act(b, options[pick % len(options)])
        assert b.spent[0] <= 240 and b.spent[1] <= 240 and b.bets <= rules.MAX_BETS
        assert parse_betting(str(b)) == b  # the written form reads back
    if b.over:
        won = chips(deal("AsAh|2c7d/9h9d2s/Ks/4c"), b)
        assert won[0] + won[1] == 0 and abs(won[0]) == (
            b.spent[b.folded] if b.folded is not None else b.spent[0])


def test_nine_cards_deal_in_openspiels_order() -> None:
    """Position 0's two hole cards, position 1's two, then the five board cards, as
    OpenSpiel's ``universal_poker`` deals them (its chance actions in this order)."""
    from fuzzeval.games.holdem.rules import deal_of

    d = deal_of([51, 50, 0, 5, 12, 20, 33, 40, 44])
    assert d.holes == ((51, 50), (0, 5)) and d.board == (12, 20, 33, 40, 44)
    assert str(d) == "AsAh|2c3d/5c7cTd/Qc/Kc"
