"""Backgammon positions, always seen from the side to move, and the formats users paste.

A position holds two 25-tuples of checker counts, each in its owner's own numbering:
index 0..23 are that side's 1..24 points (its home board is 0..5), index 24 its bar.
Checkers not on the board are borne off. ``me`` is the side to move, ``opp`` the other.

GNU Backgammon's board is the same pair with the side on roll second:
``(opp, me)``. Its position ID is the base64 of an 80-bit key (run-length ones, a zero
after every point), with the side *not* on roll encoded first, as gnubg writes it.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np
import numpy.typing as npt

from fuzzeval.errors import NotationError

CHECKERS = 15
BAR = 24
START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def end_points(loser: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """The points the side that bore off its last checker wins, for each loser's side
    (rows of 25 counts in the loser's numbering): 1; 2 if it has borne off none; 3 if
    also a checker of it is on the bar or in the winner's home board (its 19 to 24)."""
    gammon = loser.sum(axis=1) == CHECKERS
    back = gammon & (loser[:, 18:BAR + 1].sum(axis=1) > 0)
    points: npt.NDArray[np.float64] = 1.0 + gammon + back
    return points


@dataclass(frozen=True, slots=True)
class Position:
    me: tuple[int, ...]
    opp: tuple[int, ...]

    def __post_init__(self) -> None:
        for who, side in (("me", self.me), ("opp", self.opp)):
            if len(side) != 25 or any(n < 0 for n in side) or sum(side) > CHECKERS:
                raise ValueError(f"{who}: need 25 counts >= 0 summing to at most 15 "
                                 f"(got {list(side)})")
        for i in range(24):
            if self.me[i] and self.opp[23 - i]:
                raise ValueError(f"point {i + 1} holds checkers of both sides")

    @classmethod
    def trusted(cls, me: tuple[int, ...], opp: tuple[int, ...]) -> Position:
        """A position built by the rules themselves: no checks (move generation is hot)."""
        p = object.__new__(cls)
        object.__setattr__(p, "me", me)
        object.__setattr__(p, "opp", opp)
        return p

    def flip(self) -> Position:
        """The same position seen from the other side (whose turn it becomes)."""
        return Position.trusted(self.opp, self.me)

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: mine, the opponent's."""
        return CHECKERS - sum(self.me), CHECKERS - sum(self.opp)

    @property
    def finished(self) -> str | None:
        """Who has won, when one side has borne off all fifteen (then there is no play to
        make); None while the game goes on."""
        if not any(self.me):
            return "the side on roll"
        if not any(self.opp):
            return "the other side"
        return None

    def pips(self) -> tuple[int, int]:
        """Pip counts: mine, the opponent's (the bar counts 25)."""
        return (sum((i + 1) * n for i, n in enumerate(self.me)),
                sum((i + 1) * n for i, n in enumerate(self.opp)))


START = Position(START_SIDE, START_SIDE)
IntArray = npt.NDArray[np.int64]


def _read_only(counts: IntArray) -> IntArray:
    """A read-only view of ``counts`` (the caller's array stays as it was): every Boards'
    arrays are of one type, as the cached plays' are, so the compiled kernels that read
    them (features, pubeval) are compiled once, not again for writable arrays."""
    view = counts.view()
    view.flags.writeable = False
    return view


class Boards(Sequence[Position]):
    """Positions held as two (n, 25) arrays of checker counts, ``me`` and ``opp`` (each in
    its owner's numbering, as in Position), for code that reads many at once; a Position
    is made only when one is read."""

    __slots__ = ("_made", "me", "opp")

    def __init__(self, me: IntArray, opp: IntArray) -> None:
        self.me = _read_only(me)
        self.opp = _read_only(opp)
        self._made: list[Position | None] = [None] * me.shape[0]

    @classmethod
    def of(cls, positions: Sequence[Position]) -> Boards:
        """``positions`` as Boards (themselves when they already are)."""
        if isinstance(positions, Boards):
            return positions
        return cls(np.array([p.me for p in positions], np.int64).reshape(-1, 25),
                   np.array([p.opp for p in positions], np.int64).reshape(-1, 25))

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, i: int) -> Position: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Position]: ...

    def __getitem__(self, i: int | slice) -> Position | Sequence[Position]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(len(self))[i])
        made = self._made[i]  # an IndexError past the end
        if made is None:
            made = Position.trusted(tuple(self.me[i].tolist()), tuple(self.opp[i].tolist()))
            self._made[i] = made
        return made


def check_not_finished(position: Position) -> None:
    """A ValueError, "the game is over: ...", for a position where one side has won."""
    who = position.finished
    if who is not None:
        raise ValueError(f"the game is over: {who} has borne off all {CHECKERS} checkers")


def from_gnubg(board: Sequence[Sequence[int]]) -> Position:
    """GNU Backgammon's ``(side not on roll, side on roll)`` board -> Position."""
    if len(board) != 2:
        raise ValueError(f"a gnubg board is two 25-tuples (got {len(board)} rows)")
    return Position(tuple(int(n) for n in board[1]), tuple(int(n) for n in board[0]))


def to_gnubg(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Position -> GNU Backgammon's board, the side on roll second."""
    return position.opp, position.me


def position_id(position: Position) -> str:
    """The 14-character GNU Backgammon position ID: for the side not on roll, then the side
    on roll, each point's checkers as that many 1-bits and a 0, the 80 bits little-endian,
    base64."""
    key = shift = 0
    for side in (position.opp, position.me):
        for n in side:
            key |= ((1 << n) - 1) << shift
            shift += n + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


def from_position_id(text: str) -> Position:
    """A GNU Backgammon position ID -> Position; a bad ID is named in the error."""
    token = text.strip()
    if len(token) != 14:
        raise NotationError(token, "a position ID has 14 characters")
    try:
        key = base64.b64decode(token + "==", validate=True)
    except (binascii.Error, ValueError):
        raise NotationError(token, "not base64") from None
    bits = [(key[i // 8] >> (i % 8)) & 1 for i in range(80)]
    sides: list[list[int]] = [[], []]
    i = 0
    for side in sides:
        while len(side) < 25:
            n = 0
            while i < 80 and bits[i]:
                n, i = n + 1, i + 1
            if i >= 80:
                raise NotationError(token, "the key ends inside a point")
            side.append(n)
            i += 1
    try:
        return Position(tuple(sides[1]), tuple(sides[0]))
    except ValueError as exc:
        raise NotationError(token, str(exc)) from None
