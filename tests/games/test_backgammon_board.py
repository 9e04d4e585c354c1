"""fuzzeval.games.backgammon.board: the errors users see for bad boards and position IDs, and the
board's arithmetic, checked against GNU Backgammon and by hand: tests added by mutation
testing."""

from __future__ import annotations

import base64
import re

import gnubg
import numpy as np
import pytest

from fuzzeval.errors import NotationError
from fuzzeval.games.backgammon.board import (
    START,
    Boards,
    Position,
    check_not_finished,
    from_gnubg,
    from_position_id,
    position_id,
    to_gnubg,
)
from tests.games.backgammon_helpers import random_positions, side

pytestmark = pytest.mark.mutation_pin


def _id_from_bits(bits: list[int]) -> str:
    """A position ID as GNU Backgammon documents it: the 80 bits little-endian, base64,
    the first 14 characters."""
    assert len(bits) == 80
    key = sum(b << i for i, b in enumerate(bits))
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


def _bits(not_on_roll: list[int], on_roll: list[int]) -> list[int]:
    """Each point's checkers as that many ones and a zero, side not on roll first."""
    bits: list[int] = []
    for counts in (not_on_roll, on_roll):
        for n in counts:
            bits += [1] * n + [0]
    return bits + [0] * (80 - len(bits))


def _why(text: str) -> str:
    with pytest.raises(NotationError) as info:
        from_position_id(text)
    assert info.value.token == text.strip()
    assert str(info.value) == f"{text.strip()!r}: {info.value.why}"
    return info.value.why


def test_position_id_errors_say_what_is_wrong() -> None:
    assert _why("4HPwATDgc/ABM") == "a position ID has 14 characters"
    assert _why("4HPwATDgc/AB#A") == "not base64"
    # Without strict decoding the two '#' would be dropped and nine bytes read as a key.
    assert _why("4HPwATDgc/A##A") == "not base64"
    assert _why("4HPw TDgc/ABMA") == "not base64"
    assert _why("//////////////") == "the key ends inside a point"
    # 49 empty points, then 31 ones running to the last of the 80 bits: the fiftieth
    # point never ends.
    assert _why(_id_from_bits([0] * 49 + [1] * 31)) == "the key ends inside a point"


def test_position_ids_of_impossible_boards_name_the_problem() -> None:
    sixteen = [0] * 25
    sixteen[5] = 16
    why = _why(_id_from_bits(_bits([0] * 25, sixteen)))
    assert why == ("me: need 25 counts >= 0 summing to at most 15 (got "
                   f"{sixteen})")
    why = _why(_id_from_bits(_bits(sixteen, [0] * 25)))
    assert why.startswith("opp: need 25 counts >= 0 summing to at most 15")
    # The opponent on its ace point is on my 24 point, where I stand too.
    opp, me = [0] * 25, [0] * 25
    opp[0], me[23] = 1, 1
    assert _why(_id_from_bits(_bits(opp, me))) == "point 24 holds checkers of both sides"


def test_position_ids_read_and_written_like_gnubg() -> None:
    assert from_position_id("  4HPwATDgc/ABMA\n") == START
    me = side({6: 3, 5: 2, 1: 2}, bar=2)
    opp = side({22: 1, 18: 2, 6: 4}, bar=1)
    p = Position(me, opp)
    ident = gnubg.position_id(((*opp,), (*me,)))
    assert position_id(p) == ident
    assert from_position_id(ident) == p
    assert _id_from_bits(_bits(list(opp), list(me))) == ident
    empty = Position(side({}), side({}))  # everything borne off: all zeros
    assert position_id(empty) == "AAAAAAAAAAAAAA" == gnubg.position_id(to_gnubg(empty))


def test_gnubg_boards() -> None:
    board = gnubg.position_from_id("4HPwATDgc/ABMA")
    assert from_gnubg(board) == START
    p = Position(side({6: 2}, bar=1), side({1: 1, 13: 3}))
    assert to_gnubg(p) == (p.opp, p.me)
    assert from_gnubg([list(p.opp), list(p.me)]) == p
    with pytest.raises(ValueError, match=r"^a gnubg board is two 25-tuples \(got 3 rows\)$"):
        from_gnubg([START.me, START.opp, START.me])
    with pytest.raises(ValueError, match=re.escape("point 1 holds checkers of both sides")):
        from_gnubg([side({24: 1}), side({1: 1})])


def test_the_game_is_over_only_when_a_side_has_borne_off_everything() -> None:
    check_not_finished(START)
    check_not_finished(Position(side({1: 1}), side({1: 1})))
    with pytest.raises(ValueError, match=r"^the game is over: the side on roll has borne off "
                                         r"all 15 checkers$"):
        check_not_finished(Position(side({}), side({6: 3})))
    with pytest.raises(ValueError, match=r"^the game is over: the other side has borne off "
                                         r"all 15 checkers$"):
        check_not_finished(Position(side({6: 3}), side({})))


def test_position_checks_and_arithmetic() -> None:
    for bad, msg in [
        ((0,) * 24, "me: need 25 counts >= 0 summing to at most 15"),
        ((0,) * 26, "me: need 25 counts >= 0 summing to at most 15"),
        ((-1,) + (0,) * 24, "me: need 25 counts >= 0 summing to at most 15"),
        (side({6: 16}), "me: need 25 counts >= 0 summing to at most 15"),
    ]:
        with pytest.raises(ValueError, match=re.escape(msg)):
            Position(bad, START.opp)
    with pytest.raises(ValueError, match=re.escape("opp: need 25 counts")):
        Position(START.me, side({6: 15}, bar=1))
    with pytest.raises(ValueError, match=re.escape("point 24 holds checkers of both sides")):
        Position(side({24: 1}), side({1: 1}))
    Position(side({6: 15}), side({6: 14}, bar=1))  # fifteen each, bars may both hold some
    Position(side({}, bar=3), side({}, bar=2))
    p = Position(side({6: 2, 1: 1}, bar=1), side({23: 2, 3: 1}))
    assert p.pips() == (6 * 2 + 1 + 25, 23 * 2 + 3)
    assert START.pips() == (167, 167)
    assert p.flip() == Position(p.opp, p.me) and p.flip().flip() == p
    assert p.off == (11, 12)
    assert Position.trusted(p.me, p.opp) == p


def test_boards_hold_positions_as_arrays() -> None:
    positions = random_positions(12, seed=2)
    boards = Boards.of(positions)
    assert Boards.of(boards) is boards
    assert len(boards) == 12 and boards.me.shape == boards.opp.shape == (12, 25)
    assert boards.me.dtype == np.int64
    assert np.array_equal(boards.me, [p.me for p in positions])
    assert np.array_equal(boards.opp, [p.opp for p in positions])
    assert list(boards) == positions and boards[-1] == positions[-1]
    assert boards[3:5] == (positions[3], positions[4])
    assert boards[2] is boards[2]  # made once
    assert type(boards[0].me[0]) is int and type(boards[0]) is Position
    with pytest.raises(IndexError):
        boards[12]
    empty = Boards.of([])
    assert len(empty) == 0 and empty.me.shape == (0, 25) and list(empty) == []


def test_boards_are_read_only_as_the_cached_plays_are() -> None:
    """Every Boards' arrays are read-only, made from positions or from the caller's arrays
    (which stay writable): the compiled feature and pubeval kernels see one array type and
    are compiled once (a writable array compiled them a second time, 8 s of CPU)."""
    from fuzzeval.games.backgammon.moves import plays

    made = Boards.of(random_positions(3, seed=2))
    me, opp = np.array(made.me), np.array(made.opp)
    given = Boards(me, opp)
    cached = plays(START, (3, 1)).boards
    for boards in (made, given, cached):
        assert not boards.me.flags.writeable and not boards.opp.flags.writeable
    assert me.flags.writeable and opp.flags.writeable
    assert np.array_equal(given.me, me) and np.array_equal(given.opp, opp)
