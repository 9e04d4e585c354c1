"""Whole cribbage games: the end of the game where peers get it wrong, gos and last card
worked by hand from the rules (pagat.com), the conformance test, and invariants."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.games.cribbage import rules
from fuzzeval.games.cribbage.cards import parse_cards
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.rules import State
from fuzzeval.games.cribbage.scoring import score_hand
from fuzzeval.play.testing import check_game

RNG = np.random.default_rng(0)


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def play_state(*, dealer: int, scores: tuple[int, int], kept: tuple[str, str],
               left: tuple[str, str], count: str = "", last: int = -1, to_move: int,
               starter: str, crib: str) -> State:
    """A deal in the middle of the play. ``kept`` are the four for the show, ``left`` the
    cards not yet laid, ``count`` the cards of the current count."""
    count_cards = cards(count)
    return State(
        scores=scores, dealer=dealer, phase="play",
        hands=(cards(kept[0]), cards(kept[1])), crib=cards(crib), starter=cards(starter)[0],
        to_move=to_move, in_hand=(cards(left[0]), cards(left[1])), count_cards=count_cards,
        count=sum(min(c // 4 + 1, 10) for c in count_cards), played=count_cards, last=last,
        deal_points=((0, 0),), tally=((0,) * 4, (0,) * 4),
    )


def test_the_game_passes_the_conformance_check() -> None:
    report = check_game(GAME, games=12, seed=5)
    assert report.kinds == {"discard", "play"}
    assert report.decisions > 12 * 50  # whole games: many deals each


def test_pone_counts_first_and_wins_when_both_would_reach_121() -> None:
    # Dealer is seat 0; pone (seat 1) lays the last card (1 point, no pair, no 15) then
    # shows 2H 3H 4H 5S + 6C: run of five, fifteens -> far more than the 9 it needs.
    # The dealer's hand (also worth plenty) is never counted.
    kept0, kept1 = "TD JD QD KS", "2H 3H 4H 5S"
    state = play_state(dealer=0, scores=(118, 111), kept=(kept0, kept1), left=("", "5S"),
                       count="TD JD", last=0, to_move=1, starter="6C", crib="AC AD 8C 9S")
    assert score_hand(kept1, "6C") + 111 + 1 >= 121 and score_hand(kept0, "6C") + 118 >= 121
    end = rules.lay(state, cards("5S")[0], RNG)
    assert end.phase == "over" and end.winner == 1
    assert end.scores[0] == 118  # the dealer's hand and crib were not counted
    assert end.scores[1] == 111 + 1 + score_hand(kept1, "6C")


def test_the_game_can_end_in_the_middle_of_the_play() -> None:
    # Pone at 119 makes fifteen with the first card of the reply: 2 points, 121, over;
    # cards are still in hand and nobody shows.
    state = play_state(dealer=0, scores=(100, 119), kept=("9C 9D KS QS", "6H 7H 8H 2C"),
                       left=("9D KS QS", "6H 7H 8H 2C"), count="9C", last=0, to_move=1,
                       starter="AS", crib="AC AD 3C 3S")
    end = rules.lay(state, cards("6H")[0], RNG)
    assert end.phase == "over" and end.winner == 1 and end.scores == (100, 121)
    assert end.in_hand[1] == cards("7H 8H 2C")
    assert end.tally[1][rules.HAND] == 0 and end.tally[0][rules.HAND] == 0


def test_his_heels_can_win_before_the_play() -> None:
    state = GAME.new_game(np.random.default_rng(3), 0)
    state = state.but(scores=(3, 119), dealer=1, to_move=0, starter=cards("JH")[0])
    state = rules.discard(state, 0, RNG)  # pone (seat 0) throws
    assert state.phase == "discard"
    end = rules.discard(state, 0, RNG)  # dealer throws; the jack is cut
    assert end.phase == "over" and end.winner == 1 and end.scores == (3, 121)
    assert end.tally[1][rules.HEELS] == 2


def test_go_and_thirty_one_by_hand() -> None:
    # Count 25 (TD 5C TS, laid pone, dealer, pone). Dealer (seat 0) holds 7H, pone (1) a 4C
    # and a 2D. Dealer says go; pone lays 4C (29) and 2D (31): 2 for thirty-one, no go point.
    state = play_state(dealer=0, scores=(0, 0), kept=("5C 7H 8S 9S", "TD TS 4C 2D"),
                       left=("7H", "4C 2D"), count="TD 5C TS", last=1, to_move=0,
                       starter="KH", crib="AC AD 3C 3S")
    state = rules._settle(state, RNG)
    assert state.to_move == 1  # the dealer could not lay: go
    state = rules.lay(state, cards("4C")[0], RNG)
    assert state.to_move == 1 and state.count == 29
    state = rules.lay(state, cards("2D")[0], RNG)
    assert state.tally[1][rules.PEG] == 2 and state.count == 0
    # Now the dealer leads 7H; the last card is worth 1; then the show.
    assert state.to_move == 0
    state = rules.lay(state, cards("7H")[0], RNG)
    assert state.tally[0][rules.PEG] == 1  # last card
    assert state.phase == "discard" and rules.deal_of(state) == 1  # shown and dealt again


def test_a_go_is_one_point_and_the_other_side_leads_next() -> None:
    # Count 27 (KC KD 7S). Pone (1) holds 6H, dealer (0) holds 5D: neither can lay.
    # Dealer laid last: 1 for the go; pone leads the new count.
    state = play_state(dealer=0, scores=(0, 0), kept=("KC 7S 5D 2S", "KD 6H 3C 3D"),
                       left=("5D", "6H"), count="KC KD 7S", last=0, to_move=1,
                       starter="AH", crib="AC AD 4C 4S")
    state = rules._settle(state, RNG)
    assert state.tally[0][rules.PEG] == 1 and state.count == 0 and state.to_move == 1


@pytest.mark.parametrize(("loser", "kind", "points"), [
    (91, "single", 1), (90, "skunk", 2), (61, "skunk", 2), (60, "double skunk", 3)])
def test_skunk_lines(loser: int, kind: str, points: int) -> None:
    state = GAME.new_game(np.random.default_rng(1), 0).but(
        phase="over", winner=0, scores=(121, loser))
    assert rules.result(state) == (kind, points)


def _random_game(seed: int, peg_counts: bool = True) -> State:
    chance, chooser = np.random.default_rng([seed, 0]), np.random.default_rng([seed, 1])
    state = GAME.new_game(chance, seed % 2, peg_counts=peg_counts)
    while GAME.to_move(state) is not None:
        state = GAME.apply(state, int(chooser.integers(len(GAME.candidates(state)))), chance)
    return state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_their_books(seed: int) -> None:
    end = _random_game(seed)
    winner, loser = end.winner, 1 - end.winner
    assert end.scores[winner] >= 121 > end.scores[loser]
    for p in (0, 1):  # every point on the board has a source, and a deal
        assert sum(end.tally[p]) == end.scores[p] == sum(d[p] for d in end.deal_points)
    # The winner scored last: the final deal's points reached 121 from below.
    assert end.scores[winner] - end.deal_points[-1][winner] < 121


def test_pegging_can_be_left_off_the_board() -> None:
    end = _random_game(7, peg_counts=False)
    for p in (0, 1):
        assert end.tally[p][rules.PEG] > 0  # played and counted ...
        assert end.scores[p] == sum(end.tally[p]) - end.tally[p][rules.PEG]  # ... not scored


def test_the_deal_alternates_and_the_cut_decides_the_first() -> None:
    state = GAME.new_game(np.random.default_rng(2), 1)
    dealers = [state.dealer]
    chooser = np.random.default_rng(9)
    while GAME.to_move(state) is not None:
        state = GAME.apply(state, int(chooser.integers(len(GAME.candidates(state)))),
                           np.random.default_rng(int(chooser.integers(1 << 30))))
        if state.phase == "discard" and rules.deal_of(state) == len(dealers):
            dealers.append(state.dealer)
    assert dealers[0] == 1
    assert all(a != b for a, b in pairwise(dealers))
    firsts = {rules.cut_for_deal(np.random.default_rng(s)) for s in range(40)}
    assert firsts == {0, 1}


def test_a_player_sees_only_its_own_cards() -> None:
    state = GAME.new_game(np.random.default_rng(4), 0)
    cands = GAME.candidates(state)
    view = cands.view
    assert view.hand == state.hands[state.to_move]  # type: ignore[attr-defined]
    assert state.starter not in view.hand  # type: ignore[attr-defined]
    assert len(cands) == 15 and len(set(cands.labels)) == 15


@pytest.mark.pinned
def test_the_starter_is_a_chance_event_of_the_last_discard() -> None:
    """Chance brings each deal's 12 cards and, once both have thrown, the starter."""
    from fuzzeval.games.cribbage.cards import card_str
    from fuzzeval.games.cribbage.game import GAME

    rng = np.random.default_rng(3)
    state = GAME.new_game(rng, 0)
    starters: list[object] = []
    while GAME.to_move(state) is not None and len(starters) < 3:
        before = state
        state = GAME.apply(state, 0, rng)
        events = GAME.chance_events(before, state)
        if before.phase == "discard" and state.phase != "discard":
            assert events == [{"chance": "starter", "card": card_str(state.starter)}]
            starters.append(events[0]["card"])
        else:
            assert all(e["chance"] == "deal" for e in events)
    assert len(starters) == 3
