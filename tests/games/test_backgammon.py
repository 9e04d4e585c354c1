"""Backgammon against independent sources: GNU Backgammon's own position IDs and boards,
OpenSpiel's move generation on thousands of positions, pubeval's published figures, and
rules worked by hand."""

from __future__ import annotations

import re

import gnubg
import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.errors import NotationError
from fuzzeval.games.backgammon.board import (
    START,
    Position,
    from_gnubg,
    from_position_id,
    position_id,
    to_gnubg,
)
from fuzzeval.games.backgammon.game import GAME, result_points
from fuzzeval.games.backgammon.moves import legal_moves, parse_dice
from fuzzeval.games.backgammon.players import make_player
from fuzzeval.games.backgammon.pubeval import inputs, is_race, pubeval
from fuzzeval.play.testing import check_game
from tests.games.backgammon_helpers import random_positions, side

# --- GNU Backgammon: boards and position IDs -----------------------------------------

def test_start_position_id_and_gnubg_agrees_on_random_positions() -> None:
    assert position_id(START) == "4HPwATDgc/ABMA" == gnubg.position_id(to_gnubg(START))
    for p in random_positions(400, seed=1):
        ident = position_id(p)
        assert ident == gnubg.position_id(to_gnubg(p))
        assert from_position_id(ident) == p
        assert from_gnubg(gnubg.position_from_id(ident)) == p


def test_gnubg_board_has_the_side_on_roll_second() -> None:
    # Two checkers on my six point, one opposing checker on its ace point; with 6-5 gnubg
    # moves my checkers (the second row), and reports my chance of winning from the roll.
    p = Position(side({6: 2}), side({1: 1}))
    board = to_gnubg(p)
    assert board[1][5] == 2 and board[0][0] == 1
    assert gnubg.findbestmove(board, gnubg.cubeinfo(), gnubg.evalcontext(), (6, 5))[0] == 6


@pytest.mark.parametrize(("text", "why"), [("4HPwATDgc/ABM", "14 characters"),
                                           ("4HPwATDgc/AB#A", "base64"),
                                           ("//////////////", "")])
def test_bad_position_ids_name_the_token(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=re.escape(repr(text))):
        from_position_id(text)


# --- move generation against OpenSpiel ----------------------------------------------

def _openspiel_position(state: pyspiel.State, player: int) -> Position:
    text = str(state)
    off = dict(re.findall(r"([XO]): (\d+)", text.split("Scores")[1]))
    offs = (int(off["X"]), int(off["O"]))

    def counts(q: int) -> tuple[int, ...]:
        # OpenSpiel numbers one frame for both: player 0 moves up from 0, player 1 down.
        pts = [state.board(q, 23 - i) if q == 0 else state.board(q, i) for i in range(24)]
        return (*pts, 15 - sum(pts) - offs[q])

    return Position(counts(player), counts(1 - player))


def _openspiel_plays(state: pyspiel.State, player: int) -> set[Position]:
    out, stack, seen = set(), [state], set()
    while stack:
        st = stack.pop()
        for action in st.legal_actions():
            child = st.clone()
            child.apply_action(action)
            if (not child.is_terminal() and not child.is_chance_node()
                    and child.current_player() == player):
                # OpenSpiel plays doubles as two half-turns (of the same dice): a first
                text = str(child)  # half reached in several orders is searched once
                if text not in seen:
                    seen.add(text)
                    stack.append(child)
            else:
                out.add(_openspiel_position(child, player))
    return out


def test_the_same_resulting_positions_as_openspiel_on_1200_random_positions() -> None:
    game = pyspiel.load_game("backgammon")
    rng = np.random.default_rng(7)
    checked = 0
    while checked < 1200:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            player = state.current_player()
            dice = parse_dice(re.search(r"Dice: (\d\d)", str(state)).group(1))  # type: ignore[union-attr]
            ours = {p for _, p in legal_moves(_openspiel_position(state, player), dice)}
            assert ours == _openspiel_plays(state, player), (dice, str(state))
            checked += 1
            while (not state.is_terminal() and not state.is_chance_node()
                   and state.current_player() == player):
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.integers(len(actions)))])


# --- rules by hand --------------------------------------------------------------------

def test_opening_plays_and_counts() -> None:
    assert len(legal_moves(START, (3, 1))) == 16
    assert {n for n, _ in legal_moves(START, (6, 5))} >= {"24/13", "13/8 13/7"}
    assert "13/7(4)" in {n for n, _ in legal_moves(START, (6, 6))}


def test_the_bar_first_and_a_closed_board_is_no_move() -> None:
    closed = Position(side({13: 14}, bar=1), side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}))
    assert legal_moves(closed, (6, 1)) == [("(no move)", closed)]
    # Their 1..5 points are my 24..20: only the 6 enters (on my 19), then the 1 is free.
    one_open = Position(side({13: 14}, bar=1), side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2}))
    assert {p.me for _, p in legal_moves(one_open, (6, 1))} == {
        side({13: 14, 18: 1}), side({13: 13, 12: 1, 19: 1})}


def test_the_larger_die_when_only_one_can_be_played() -> None:
    # My last checker on 12 (the rest borne off); they hold my 1 point (their 24). 12/6 and
    # 12/7 are both open, but neither can go on to 1: only one die plays, so the 6 must.
    p = Position(side({12: 1}), side({24: 2}))
    assert [(n, q.me) for n, q in legal_moves(p, (6, 5))] == [("12/6", side({6: 1}))]
    assert [n for n, _ in legal_moves(p, (5, 6))] == ["12/6"]


def test_bearing_off_by_a_larger_number_only_from_the_highest_point() -> None:
    far = side({1: 1})  # the opponent's last checker, far away on my 24 point

    def results(me: dict[int, int], dice: tuple[int, int]) -> set[tuple[int, ...]]:
        return {p.me for _, p in legal_moves(Position(side(me), far), dice)}

    # 6-1 from the 4 and the 2: the 6 bears off the 4 (the highest) and the 1 plays 2/1,
    # or the 1 plays 4/3 and the 6 then bears off the 3. Never 2/off by the 6 first.
    assert results({4: 1, 2: 1}, (6, 1)) == {side({1: 1}), side({2: 1})}
    assert results({3: 2}, (6, 5)) == {side({})}
    # A checker outside (the 7) must come home before anything is borne off.
    assert results({7: 1, 2: 1}, (6, 2)) == {side({1: 1}), side({2: 1})}


def test_gammon_and_backgammon_by_hand() -> None:
    won = Position(side({}), side({6: 15}))
    assert result_points(won) == 2
    assert result_points(Position(side({}), side({6: 14, 20: 1}))) == 3  # in my home
    assert result_points(Position(side({}), side({6: 14}, bar=1))) == 3
    assert result_points(Position(side({}), side({6: 10}))) == 1


def test_dice_tokens() -> None:
    assert parse_dice("31") == (3, 1) == parse_dice("3-1")
    with pytest.raises(NotationError, match="'37'"):
        parse_dice("37")


# --- pubeval ----------------------------------------------------------------------------

def _setx(p: Position) -> list[float]:
    """pubeval.c's setx, transcribed: pos[1..24] the mover's points, opponent negative."""
    pos = [0] * 28
    for i in range(24):
        pos[i + 1] = p.me[i] - p.opp[23 - i]
    pos[0], pos[26] = -p.opp[24], 15 - sum(p.me)
    x = [0.0] * 122
    for j in range(1, 25):
        n = pos[25 - j]
        if n == -1:
            x[5 * (j - 1)] = 1.0
        if n == 1:
            x[5 * (j - 1) + 1] = 1.0
        if n >= 2:
            x[5 * (j - 1) + 2] = 1.0
        if n == 3:
            x[5 * (j - 1) + 3] = 1.0
        if n >= 4:
            x[5 * (j - 1) + 4] = (n - 3) / 2.0
    x[120] = -pos[0] / 2.0
    x[121] = pos[26] / 15.0
    return x


def test_pubeval_inputs_match_a_transcription_of_setx() -> None:
    positions = random_positions(300, seed=3)
    np.testing.assert_array_equal(inputs(positions), np.array([_setx(p) for p in positions]))


def test_pubeval_start_score_and_book_openings() -> None:
    assert pubeval(START, [START])[0] == pytest.approx(6.84055, abs=1e-5)
    player = make_player("pubeval")
    for dice, book in (((3, 1), "8/5 6/5"), ((6, 1), "13/7 8/7")):
        chosen = player.choose(START, dice, np.random.default_rng(0))
        assert chosen == dict((n, p) for n, p in legal_moves(START, dice))[book]


def test_race_is_no_contact() -> None:
    assert not is_race(START)
    assert is_race(Position(side({3: 15}), side({2: 15})))
    assert not is_race(Position(side({3: 14}, bar=1), side({2: 15})))


# --- the game -----------------------------------------------------------------------

def test_backgammon_passes_the_conformance_check() -> None:
    check_game(GAME, games=6, seed=2)


def test_gnubg_player_picks_a_legal_play() -> None:
    player = make_player("gnubg")
    rng = np.random.default_rng(1)
    for p in random_positions(5, seed=4):
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        assert player.choose(p, dice, rng) in {q for _, q in legal_moves(p, dice)}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10_000), a=st.integers(1, 6), b=st.integers(1, 6))
def test_every_play_keeps_the_checkers_and_moves_the_dice(seed: int, a: int, b: int) -> None:
    """Properties of any play from a position of random play: each side keeps 15 checkers
    (board, bar and off); no point holds both colours; the mover's pips drop by the dice
    used at most (bearing off may waste pips, never gain); the opponent only loses checkers
    to the bar, each hit adding its distance from home to their pip count."""
    p = random_positions(1 + seed % 80, seed)[-1]  # anywhere in a game, opening to bear-off
    p = p.flip() if sum(p.me) else p  # the other side moves next (unless the game ended)
    for _, q in legal_moves(p, (a, b)):
        assert sum(q.me) + q.off[0] == 15 == sum(q.opp) + q.off[1]
        assert all(not (q.me[i] and q.opp[23 - i]) for i in range(24))
        used = p.pips()[0] - q.pips()[0]
        assert 0 <= used <= (4 * a if a == b else a + b)
        assert q.off[1] == p.off[1] and q.opp[24] >= p.opp[24]
        assert q.pips()[1] >= p.pips()[1]
