"""fuzzeval.games.backgammon.moves: play notation against GNU Backgammon's own (movetupletostring),
the steps of each play replayed by hand, rules worked by hand, and the compiled search against
a plain recursive one (order and steps too): tests added by mutation testing. Under mutmut the
search runs as Python (tests/conftest.py), so its mutants are what these tests see."""

from __future__ import annotations

import gnubg
import numpy as np
import pytest

from fuzzeval.errors import NotationError
from fuzzeval.games.backgammon import moves
from fuzzeval.games.backgammon.board import START, Position, to_gnubg
from fuzzeval.games.backgammon.moves import Step, legal_moves, notation, parse_dice, plays
from tests.games.backgammon_helpers import (
    random_boards,
    random_positions,
    reference_plays,
    side,
)

pytestmark = pytest.mark.mutation_pin

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # the 21, each one way


def _gnubg_notation(position: Position, steps: tuple[Step, ...]) -> str:
    """gnubg numbers points 1..24, the bar 25 and off 0."""
    move: list[int] = []
    for src, dst, _, _ in steps:
        move += [25 if src == 24 else src + 1, 0 if dst < 0 else dst + 1]
    return str(gnubg.movetupletostring(tuple(move), to_gnubg(position)))


def _replay(position: Position, steps: tuple[Step, ...]) -> Position:
    """The steps applied one by one, by the rules: a hit sends the lone checker to its bar."""
    me, opp = list(position.me), list(position.opp)
    for src, dst, hit, _ in steps:
        assert me[src] > 0
        me[src] -= 1
        if dst >= 0:
            assert opp[23 - dst] == (1 if hit else 0)
            if hit:
                opp[23 - dst] = 0
                opp[24] += 1
            me[dst] += 1
    return Position(tuple(me), tuple(opp))


def test_notation_agrees_with_gnubg_and_steps_replay_to_the_position() -> None:
    """Every play from positions of random games, opening to bear-off. gnubg writes two
    checkers making the same move with a hit as ``13/9*(2)`` where we write ``13/9* 13/9``
    (only one of them hits): those plays are left out of the comparison."""
    rng = np.random.default_rng(0)
    compared = 0
    for p in random_positions(400, seed=5):
        p = p.flip() if sum(p.me) else p
        if not sum(p.me) or not sum(p.opp):
            continue
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        used = 4 if dice[0] == dice[1] else 2
        for play in plays(p, dice):
            assert _replay(p, play.steps) == play.position
            assert len(play.steps) <= used
            assert all(d in dice for *_, d in play.steps)
            moved = [(s, d) for s, d, _, _ in play.steps]
            if any(hit and moved.count((s, d)) > 1 for s, d, hit, _ in play.steps):
                continue
            if play.steps:
                assert play.notation == _gnubg_notation(p, play.steps), play.steps
                compared += 1
    assert compared > 5000


@pytest.mark.parametrize(
    ("me", "opp", "dice", "want"),
    [
        # one on the bar, hitting on entry or not: their 3 point is my 22
        (side({13: 14}, bar=1), {3: 1, 6: 5}, (3, 1),
         {"bar/22*/21", "bar/22* 13/12", "bar/21", "bar/24 13/10"}),
        # the last checker borne off by a chain: 8/2/off or 8/6/off, one position
        (side({8: 1}), {20: 2}, (6, 2), {"8/off"}),
    ],
)
def test_notation_by_hand(me: tuple[int, ...], opp: dict[int, int], dice: tuple[int, int],
                          want: set[str]) -> None:
    p = Position(me, side(opp))
    got = {n for n, _ in legal_moves(p, dice)}
    assert got == want
    for play in plays(p, dice):
        assert play.notation == _gnubg_notation(p, play.steps)


def test_notation_of_steps_given_directly() -> None:
    assert notation([]) == "(no move)"
    assert notation([(24, 21, False, 3), (21, 20, True, 1)]) == "bar/21*"
    assert notation([(24, 21, True, 3), (21, 20, False, 1)]) == "bar/22*/21"
    assert notation([(12, 10, False, 2), (12, 10, False, 2), (12, 10, False, 2)]) == "13/11(3)"
    assert notation([(5, 3, False, 2), (23, 21, False, 2)]) == "24/22 6/4"
    assert notation([(2, 0, False, 2), (0, -1, False, 1)]) == "3/off"
    assert notation([(7, 1, False, 6), (1, -1, False, 2)]) == "8/off"


def test_dice_must_be_dice() -> None:
    for dice in ((7, 1), (0, 3), (3, 0), (2, 7)):
        with pytest.raises(NotationError, match=r"dice are two numbers from 1 to 6"):
            legal_moves(START, dice)
    assert parse_dice(" 6, 5 ") == (6, 5) == parse_dice("6 5")
    assert parse_dice("1-1") == (1, 1)
    for text in ("3X1", "3x", "X3", "7 1", "311", "3", "0-1"):
        with pytest.raises(NotationError) as info:
            parse_dice(text)
        assert str(info.value) == f"{text!r}: dice are two digits from 1 to 6, e.g. 31"


def test_plays_by_hand() -> None:
    # One checker left (on my 12); they hold my 1 and 6 points: 12/6 is closed, so only
    # 12/7 plays the 5 and then the 6 cannot (7/1 closed): one die, the 5, forced.
    p = Position(side({12: 1}), side({24: 2, 19: 2}))
    assert legal_moves(p, (6, 5)) == [("12/7", Position(side({7: 1}), p.opp))]
    # Doubles: four moves with the one checker when nothing blocks it.
    q = Position(side({24: 1}), side({2: 2}))  # their 2 point is my 23
    assert [n for n, _ in legal_moves(q, (2, 2))] == ["24/16"]
    assert [n for n, _ in legal_moves(q, (6, 6))] == ["24/off"]  # home after three sixes
    # A lone checker hit on the way: the opponent's checker goes to its bar.
    r = Position(side({24: 1}), side({4: 1, 9: 2}))  # their 4 point is my 21
    (hit,) = [pos for n, pos in legal_moves(r, (3, 1)) if n == "24/21*/20"]
    assert hit.opp[24] == 1 and hit.opp[3] == 0 and hit.me[19] == 1
    # Two on the bar against a board with one open point: the 6 enters one, and the 1
    # cannot be played while the other is still on the bar.
    s = Position(side({6: 13}, bar=2), side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2}))
    want = Position(side({6: 13, 19: 1}, bar=1), s.opp)
    assert legal_moves(s, (6, 1)) == [("bar/19", want)] == legal_moves(s, (1, 6))


def _positions() -> list[Position]:
    """From random games (both sides) and random boards (bars, bear-offs, crowded boards
    with hundreds of plays), the game not over."""
    played = random_positions(120, seed=21)
    every = played + [p.flip() for p in played] + random_boards(60, seed=22)
    return [p for p in every if sum(p.me) and sum(p.opp)]


def test_plays_are_the_plain_searchs_in_its_order_with_its_steps() -> None:
    """The order matters (the first of equal grades is played) and so do the steps (the
    notation logged): both as the plain recursion finds them, for every roll either way
    round."""
    most = 0
    for i, p in enumerate(_positions()):
        for a, b in ROLLS:
            dice = (a, b) if i % 2 else (b, a)
            got = plays(p, dice)
            assert [(q.steps, q.position) for q in got] == reference_plays(p, dice), (p, dice)
            most = max(most, len(got))
    assert most > 256  # the search's table grew several times


def test_the_compiled_search_is_its_python_source() -> None:
    """What the games run (compiled) and what mutation testing runs (the source as Python)
    agree, boards and steps, to the last array element."""
    for p in _positions()[::10]:
        me, opp = np.array(p.me, np.int64), np.array(p.opp, np.int64)
        for a, b in ROLLS:
            for x, y in zip(moves._SEARCH(me, opp, a, b), moves._search(me, opp, a, b),
                            strict=True):
                assert np.array_equal(x, y), (p, a, b)


def test_plays_read_as_a_sequence() -> None:
    found = plays(START, (6, 5))
    assert len(found) == len(found.boards) == 7
    assert found[-1] == found[6] and found[1:3] == (found[1], found[2])
    assert found[0].position is found.boards[0]  # made once, when first read
    assert [q.position for q in found] == list(found.boards)
    assert found[0].steps == ((23, 17, False, 6), (17, 12, False, 5))  # 24/13
    with pytest.raises(IndexError):
        found[7]
    assert not found.boards.me.flags.writeable  # shared through the cache
    # Hitting on the way and not: the hit is a bool, and only the step that hits has it.
    r = Position(side({24: 1}), side({4: 1, 9: 2}))
    assert [q.steps for q in plays(r, (3, 1))] == [
        ((23, 20, True, 3), (20, 19, False, 1)), ((23, 22, False, 1), (22, 19, False, 3))]
    assert all(type(step[2]) is bool for q in plays(r, (3, 1)) for step in q.steps)


def test_many_on_the_bar_with_blots_to_hit_are_the_plain_searchs() -> None:
    """Crowded bars: four to nine checkers to enter past three to five blots, every roll,
    as the plain search finds them. (The boards are told apart by a key whose top bits are
    the blots hit; mutant _search 121 lets the second blot's bit fall on the bar count's
    top bit, yet no two boards one search reaches collide there: it survives this too.)"""
    rng = np.random.default_rng(31)
    checked = 0
    for _ in range(300):
        bar = int(rng.integers(4, 10))
        me = [0] * 25
        me[24] = bar
        for _ in range(15 - bar):
            me[int(rng.integers(0, 24))] += 1
        opp = [0] * 25
        blots = rng.choice(6, size=int(rng.integers(3, 6)), replace=False)  # my entry zone
        for point in blots:
            if not me[18 + int(point)]:
                opp[23 - (18 + int(point))] = 1
        free = [j for j in range(12) if not me[23 - j] and not opp[j]]
        opp[free[int(rng.integers(len(free)))]] += 15 - sum(opp)
        p = Position(tuple(me), tuple(opp))
        for a, b in ROLLS:
            assert [(q.steps, q.position) for q in plays(p, (a, b))] == \
                reference_plays(p, (a, b)), (p, (a, b))
            checked += 1
    assert checked == 300 * len(ROLLS)
