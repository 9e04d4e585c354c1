"""Our Hearts against OpenSpiel's ``hearts`` (pyspiel): the same legal moves at every
decision and the same points, in standard rules and Sturtevant & White's variant; random hands plus
the hand-worked deals of test_hearts_rules (moon shot, hearts broken by the QS, a void on
the first trick, a first trick where a seat holds only points)."""

from __future__ import annotations

import pytest

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import parse_card
from fuzzeval.games.hearts.openspiel import pyspiel_hand
from fuzzeval.games.hearts.players import heuristic_player
from fuzzeval.games.hearts.rules import STANDARD, STURTEVANT_WHITE, Options
from fuzzeval.games.hearts.scripts.check_openspiel import agree, main
from tests.games.test_hearts_rules import (
    ALL_POINTS,
    CLUB_TRICKS,
    HEARTS_ONLY,
    QUEEN_AND_HEARTS,
    SPLIT,
    SUITED,
)

QUEEN_BREAKS = ["2C", "9C", "2S", "8S", "TC", "8D", "QS", "3C", "2H"]


@pytest.mark.parametrize("options", [STANDARD, STURTEVANT_WHITE],
                         ids=["standard", "sturtevant-white"])
def test_random_hands_agree(options: Options) -> None:
    result = agree(500, options, seed=11)
    assert result.games == 500
    passing_hands = 375 if options.passing else 0  # hand numbers 3, 7, ... keep their cards
    assert result.passes == 12 * passing_hands
    assert result.decisions == 500 * 52 + 12 * passing_hands


@pytest.mark.parametrize("options", [STANDARD, STURTEVANT_WHITE],
                         ids=["standard", "sturtevant-white"])
def test_heuristic_hands_agree(options: Options) -> None:
    assert agree(200, options, seed=12, policy=heuristic_player).games == 200


def both_ways(deal: tuple[int, int, int, int], options: Options, number: int,
              script: list[str], pick: int) -> rules.State:
    """Play ``script`` then the ``pick``-th legal card (0 lowest, -1 highest) to the end,
    comparing the legal cards with pyspiel before every decision."""
    ours = rules.new_hand(deal, options, number)
    theirs = pyspiel_hand(ours)
    step = 0
    while ours.phase != "over":
        assert theirs.current_player() == ours.to_move
        assert theirs.legal_actions() == rules.legal(ours)
        card = parse_card(script[step]) if step < len(script) else rules.legal(ours)[pick]
        ours = rules.apply(ours, card)
        theirs.apply_action(card)
        step += 1
    assert theirs.returns() == [26 - p for p in rules.hand_points(ours)]
    return ours


@pytest.mark.parametrize("options", [STANDARD, STURTEVANT_WHITE],
                         ids=["standard", "sturtevant-white"])
def test_hand_worked_deals_agree(options: Options) -> None:
    moon = both_ways(SUITED, options, 3, [], -1)
    assert rules.hand_points(moon) == (0, 26, 26, 26)  # seat 0 shoots the moon
    broken = both_ways(SPLIT, options, 3, QUEEN_BREAKS, 0)
    assert broken.laid[8] == (1, parse_card("2H"))  # the heart lead after the QS
    both_ways(HEARTS_ONLY, options, 3, CLUB_TRICKS, 0)  # a lead from only hearts
    both_ways(QUEEN_AND_HEARTS, options, 3, CLUB_TRICKS, -1)  # only hearts and the QS
    both_ways(ALL_POINTS, options, 3, ["2C", "QS"], 0)  # the QS on the first trick
    for number in range(4):  # passing in every direction, lowest cards
        both_ways(SPLIT, options, number, [], 0)
        both_ways(SUITED, options, number, [], 0)


def test_a_position_for_the_seat_to_pass_turns_the_deal_to_it() -> None:
    """``pyspiel_position`` in the pass (for OpenSpiel's searches): seat 2 to pass, having
    passed one card, sits at seat 0 of a deal turned by two seats, so seat 1 there holds
    seat 3's cards (they pass next); in the play every seat keeps its own place."""
    from fuzzeval.games.hearts.cards import mask_of
    from fuzzeval.games.hearts.openspiel import pyspiel_position

    a, b, c, d = (mask_of(range(s, 52, 4)) for s in range(4))  # card c to seat c % 4
    hand = rules.new_hand((a, b, c, d), STANDARD, 0)
    for _ in range(7):  # seats 0 and 1 pass three cards, seat 2 one
        hand = rules.apply(hand, rules.legal(hand)[0])
    state, seat = pyspiel_position(hand)
    assert (seat, state.current_player()) == (0, 0)
    assert state.legal_actions() == list(range(6, 52, 4))  # seat 2's cards but the 2D
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1 and state.legal_actions() == list(range(3, 52, 4))
    while hand.phase == "pass":
        hand = rules.apply(hand, rules.legal(hand)[0])
    state, seat = pyspiel_position(hand)
    assert seat == hand.to_move == state.current_player()
    assert state.legal_actions() == rules.legal(hand) == [0]  # the 2C leads


def test_the_variant_string_is_sturtevant_and_whites() -> None:
    assert STURTEVANT_WHITE.openspiel() == ("hearts(pass_cards=false,must_break_hearts=false,"
                                   "no_pts_on_first_trick=false,can_lead_any_club=true)")
    assert STANDARD.openspiel() == ("hearts(pass_cards=true,must_break_hearts=true,"
                                    "no_pts_on_first_trick=true,can_lead_any_club=false)")


def test_a_rule_changed_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: hearts led before they are broken, or points on the first
    trick, differ from OpenSpiel's standard rules within a few hands."""
    standard = STANDARD.openspiel()
    monkeypatch.setattr(Options, "openspiel", lambda self: standard)
    for loose in (Options(must_break_hearts=False), Options(no_points_first_trick=False)):
        with pytest.raises(AssertionError, match="OpenSpiel"):
            agree(200, loose, seed=3)


def test_script_prints_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "20"]) == 0
    out = capsys.readouterr().out
    assert "standard" in out and "sturtevant-white" in out and " 1220 " in out and " 1040 " in out


def test_script_plays_the_player_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    """--player picks who plays our side of the check: 60 seeded hands of the heuristic
    shoot the moon 3 and 2 times (standard, Sturtevant & White), the random player's 2 and 1; the
    counts of decisions and passes are the rules', whoever plays."""
    rows = {}
    for player in ("heuristic", "random"):
        assert main(["--games", "60", "--player", player]) == 0
        out = capsys.readouterr().out.splitlines()
        rows[player] = [line.rsplit(maxsplit=1)[0].split() for line in out[1:3]]
    assert rows["heuristic"] == [["standard", "60", "3660", "540", "3"],
                                 ["sturtevant-white", "60", "3120", "0", "2"]]
    assert rows["random"] == [["standard", "60", "3660", "540", "2"],
                              ["sturtevant-white", "60", "3120", "0", "1"]]
