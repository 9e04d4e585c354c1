"""Legal plays as the distinct positions they lead to.

The rules: enter from the bar before anything else; a point held by two or more opposing
checkers is closed; a lone opposing checker is hit and goes to its bar; bear off only
with all fifteen checkers home, by the exact number or, from the highest occupied point,
by a larger one. Both dice must be played when possible (four moves on doubles); when
only one can be, the larger must be when possible. Different orders that end in the same
position are one play.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple, overload

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels.jit import kernel
from fuzzeval.errors import NotationError
from fuzzeval.games.backgammon.board import BAR, Boards, Position

Step = tuple[int, int, bool, int]  # from index (24 = bar), to index (-1 = off), hit, die
IntArray = npt.NDArray[np.int64]
# A board's key hashed into the search's table (Park and Miller's generator: below 2**47,
# so the same compiled or not)
_PRIME, _MIX = 2**31 - 1, 48271


def _search(me0: IntArray, opp0: IntArray, a: int, b: int) -> tuple[IntArray, IntArray,
                                                                     IntArray, IntArray]:
    """Every legal play of dice ``a``, ``b`` from the boards ``me0``, ``opp0`` (25 counts
    each): the boards after each play, (n, 25) twice, and the steps that first reached
    each, (n, 4, 4) rows of (from, to, hit, die) of which the first ``lengths[i]`` count.

    Depth first over dice orders and checkers, a step made on the board going down and
    taken back coming up; a leaf is a board where no die can be played. With doubles
    every order of the same moves ends alike, so checkers are taken from the highest point
    down (``below``). Plays keep the order their boards were first reached. Compiled
    (``_SEARCH``); mutation testing runs the mutants of this source as Python."""
    doubles = a == b
    n_dice = 4 if doubles else 2
    high = max(a, b)
    me = me0.copy()
    opp = opp0.copy()
    dice = np.zeros((5, 4), np.int64)  # the dice left at each level, in order
    dice[0, 0] = high
    dice[0, 1] = min(a, b)
    if doubles:
        dice[0, 2] = a
        dice[0, 3] = a
    k = np.zeros(5, np.int64)  # the die each level plays (index into its dice)
    last = np.zeros(5, np.int64)  # the die value last tried there (doubles: once)
    below = np.zeros(5, np.int64)  # doubles: the highest point a checker may come from
    sources = np.zeros((5, 25), np.int64)  # the points that level takes checkers from
    n_sources = np.zeros(5, np.int64)
    next_source = np.zeros(5, np.int64)
    moved = np.zeros(5, np.bool_)
    outside = np.zeros(5, np.int64)  # my checkers not home (the bar included)
    steps = np.zeros((4, 4), np.int64)
    # The board reached, as one exact key in two words: my counts as 4-bit digits (points
    # 1-13 low, 14-24 and the bar high) and, above them, the opposing blots hit.
    key_low = np.zeros(5, np.int64)
    key_high = np.zeros(5, np.int64)
    blot_bit = np.zeros(24, np.int64)
    n_blots = 0
    for i in range(24):
        if opp[i] == 1:
            blot_bit[i] = 1 << (48 + n_blots)
            n_blots += 1
    for i in range(25):
        if i < 13:
            key_low[0] += me[i] << (4 * i)
        else:
            key_high[0] += me[i] << (4 * (i - 13))
        if i >= 6:
            outside[0] += me[i]
    cap = 16
    found_me = np.zeros((cap, 25), np.int64)
    found_opp = np.zeros((cap, 25), np.int64)
    found_steps = np.zeros((cap, 4, 4), np.int64)
    found_n = np.zeros(cap, np.int64)
    found_low = np.zeros(cap, np.int64)
    found_high = np.zeros(cap, np.int64)
    n_found = 0
    table = np.full(4 * cap, -1, np.int64)  # open addressing: slot -> index in found
    k[0] = -1
    below[0] = BAR
    level = 0
    while True:
        if next_source[level] < n_sources[level]:  # the next checker, with the same die
            src = sources[level, next_source[level]]
            next_source[level] += 1
            die = dice[level, k[level]]
            dst = src - die
            hit = False
            if dst >= 0:
                if opp[23 - dst] >= 2:  # a closed point
                    continue
                hit = opp[23 - dst] == 1
            else:
                if outside[level]:  # bearing off needs every checker home
                    continue
                if dst < -1 and me[src + 1:6].any():  # larger: highest point only
                    continue
                dst = -1
            child = level + 1
            low = key_low[level]
            high_word = key_high[level]
            me[src] -= 1
            if src < 13:
                low -= 1 << (4 * src)
            else:
                high_word -= 1 << (4 * (src - 13))
            outside[child] = outside[level] - (1 if src >= 6 else 0)
            if dst >= 0:
                me[dst] += 1
                if dst < 13:
                    low += 1 << (4 * dst)
                else:
                    high_word += 1 << (4 * (dst - 13))
                if dst >= 6:
                    outside[child] += 1
            if hit:
                opp[23 - dst] = 0
                opp[BAR] += 1
                high_word += blot_bit[23 - dst]
            key_low[child] = low
            key_high[child] = high_word
            steps[level, 0] = src
            steps[level, 1] = dst
            steps[level, 2] = 1 if hit else 0
            steps[level, 3] = die
            moved[level] = True
            j = 0
            for i in range(n_dice - level):  # the child plays the other dice
                if i != k[level]:
                    dice[child, j] = dice[level, i]
                    j += 1
            k[child] = -1
            last[child] = 0
            below[child] = src
            n_sources[child] = 0
            next_source[child] = 0
            moved[child] = False
            level = child
            continue
        k[level] += 1  # the next die
        if k[level] < n_dice - level:
            die = dice[level, k[level]]
            if die != last[level]:  # the same die again (doubles): the same moves
                last[level] = die
                n = 0
                if me[BAR]:  # enter from the bar before anything else
                    sources[level, 0] = BAR
                    n = 1
                else:
                    top = min(below[level], 23) if doubles else 23
                    for i in range(top, -1, -1):
                        if me[i]:
                            sources[level, n] = i
                            n += 1
                n_sources[level] = n
                next_source[level] = 0
            continue
        if not moved[level]:  # a leaf: no die can be played here
            low = key_low[level]
            high_word = key_high[level]
            mask = table.shape[0] - 1  # a power of two, less one
            slot = (low ^ high_word) % _PRIME * _MIX >> 16 & mask
            while table[slot] >= 0 and (found_low[table[slot]] != low
                                        or found_high[table[slot]] != high_word):
                slot = (slot + 1) & mask
            if table[slot] < 0:  # a board not reached before
                if n_found == cap:  # room for twice as many, and a table to match
                    cap *= 2
                    more_me = np.zeros((cap, 25), np.int64)
                    more_opp = np.zeros((cap, 25), np.int64)
                    more_steps = np.zeros((cap, 4, 4), np.int64)
                    more_n = np.zeros(cap, np.int64)
                    more_low = np.zeros(cap, np.int64)
                    more_high = np.zeros(cap, np.int64)
                    more_me[:n_found] = found_me
                    more_opp[:n_found] = found_opp
                    more_steps[:n_found] = found_steps
                    more_n[:n_found] = found_n
                    more_low[:n_found] = found_low
                    more_high[:n_found] = found_high
                    found_me, found_opp, found_steps = more_me, more_opp, more_steps
                    found_n, found_low, found_high = more_n, more_low, more_high
                    table = np.full(4 * cap, -1, np.int64)
                    mask = table.shape[0] - 1
                    for j in range(n_found + 1):  # the old boards, then the new one
                        lo = found_low[j] if j < n_found else low
                        hi = found_high[j] if j < n_found else high_word
                        slot = (lo ^ hi) % _PRIME * _MIX >> 16 & mask
                        while table[slot] >= 0:
                            slot = (slot + 1) & mask
                        if j < n_found:
                            table[slot] = j
                table[slot] = n_found
                found_me[n_found] = me
                found_opp[n_found] = opp
                found_steps[n_found] = steps
                found_n[n_found] = level
                found_low[n_found] = low
                found_high[n_found] = high_word
                n_found += 1
        if level == 0:
            break
        level -= 1  # take back the step that led here
        src = steps[level, 0]
        dst = steps[level, 1]
        me[src] += 1
        if dst >= 0:
            me[dst] -= 1
            if steps[level, 2]:
                opp[23 - dst] = 1
                opp[BAR] -= 1
    # Both dice when possible (four moves on doubles): the plays of the most steps; when
    # only one die can be played, the larger if some play uses it.
    most = found_n[:n_found].max()
    keep = found_n[:n_found] == most
    if most == 1 and not doubles:
        with_high = keep & (found_steps[:n_found, 0, 3] == high)
        if with_high.any():
            keep = with_high
    chosen = np.flatnonzero(keep)
    return found_me[chosen], found_opp[chosen], found_steps[chosen], found_n[chosen]


_SEARCH = kernel(_search)


def notation(steps: Sequence[Step]) -> str:
    """``24/18 13/11``, ``bar/22*``, ``6/off``, ``24/13`` for one checker moving on,
    ``24/18*/13`` when it hits on the way, and ``13/11(2)`` for repeated moves."""
    chains: list[list[Step]] = []
    for step in sorted(steps, key=lambda t: (-t[0], -t[1])):
        for chain in chains:  # the same checker moving on from where it stopped
            if chain[-1][1] == step[0] and step[0] >= 0:
                chain.append(step)
                break
        else:
            chains.append([step])
    words = []
    for chain in chains:
        where = "bar" if chain[0][0] == BAR else str(chain[0][0] + 1)
        for _, dst, hit, _ in chain:
            to = "off" if dst < 0 else str(dst + 1)
            if hit or dst == chain[-1][1]:
                where += f"/{to}{'*' if hit else ''}"
        words.append(where)
    out: list[str] = []
    for w in words:
        base, _, n = out[-1].partition("(") if out else ("", "", "")
        if out and base == w:
            out[-1] = f"{base}({int(n.rstrip(')') or 1) + 1})"
        else:
            out.append(w)
    return " ".join(out) if out else "(no move)"


class Play(NamedTuple):
    steps: tuple[Step, ...]
    position: Position

    @property
    def notation(self) -> str:
        return notation(self.steps)


class Plays(Sequence[Play]):
    """The legal plays of one roll, in the order the search first reached them. ``boards``
    holds every resulting position as arrays (for code that grades them all at once); a
    Play, with its steps and position, is made when one is read."""

    __slots__ = ("_lengths", "_steps", "boards")

    def __init__(self, boards: Boards, steps: IntArray, lengths: IntArray) -> None:
        self.boards = boards
        self._steps = steps
        self._lengths = lengths

    def __len__(self) -> int:
        return len(self._lengths)

    @overload
    def __getitem__(self, i: int) -> Play: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Play]: ...

    def __getitem__(self, i: int | slice) -> Play | Sequence[Play]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(len(self))[i])
        position = self.boards[i]  # an IndexError past the end
        rows = self._steps[i, :self._lengths[i]].tolist()
        return Play(tuple((src, dst, hit == 1, die) for src, dst, hit, die in rows), position)


@lru_cache(maxsize=256)
def plays(position: Position, dice: tuple[int, int]) -> Plays:
    """The legal plays (steps and notation made only when read). Recent answers are
    cached: a game asks for the same plays when it lists and applies them."""
    a, b = int(dice[0]), int(dice[1])
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise NotationError(f"{a}{b}", "dice are two numbers from 1 to 6")
    me, opp, steps, lengths = _SEARCH(np.array(position.me, np.int64),
                                      np.array(position.opp, np.int64), a, b)
    for array in (me, opp, steps, lengths):
        array.flags.writeable = False  # shared by everyone who asks (the cache)
    return Plays(Boards(me, opp), steps, lengths)


def legal_moves(position: Position, dice: tuple[int, int]) -> list[tuple[str, Position]]:
    """Every legal play for ``dice`` as (notation, resulting position seen from the mover,
    before the turn passes); one entry with "(no move)" when nothing can be played."""
    return [(p.notation, p.position) for p in plays(position, (int(dice[0]), int(dice[1])))]


def parse_dice(text: str) -> tuple[int, int]:
    """``31`` or ``3-1`` or ``3 1`` -> (3, 1); the token is named when it is not dice."""
    digits = [c for c in text if not c.isspace() and c not in "-,"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise NotationError(text, "dice are two digits from 1 to 6, e.g. 31")
    return int(digits[0]), int(digits[1])
