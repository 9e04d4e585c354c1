"""Positions for the backgammon tests: written by hand, reached by random play, or drawn
at random; and a plain recursive search for legal plays, the reference for the compiled
one."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fuzzeval.games.backgammon.board import BAR, START, Position
from fuzzeval.games.backgammon.moves import Step, legal_moves


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """Checker counts from {point number: checkers}, in the owner's numbering."""
    counts = [0] * 25
    for p, n in points.items():
        counts[p - 1] = n
    counts[24] = bar
    return tuple(counts)


def random_positions(n: int, seed: int) -> list[Position]:
    """Positions after each move of random games (from the mover's side)."""
    rng = np.random.default_rng(seed)
    out: list[Position] = []
    pos = START
    while len(out) < n:
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        plays = legal_moves(pos, dice)
        after = plays[int(rng.integers(len(plays)))][1]
        out.append(after)
        pos = START if sum(after.me) == 0 else after.flip()
    return out


def random_boards(n: int, seed: int) -> list[Position]:
    """Positions no game need reach: each side's checkers (some borne off, some on the
    bar) dropped on random points, the opponent's only where none of mine stand; a few
    near the end of the game, all home or nearly all borne off."""
    rng = np.random.default_rng(seed)
    out: list[Position] = []
    while len(out) < n:
        me, opp = [0] * 25, [0] * 25
        late = rng.random() < 0.3  # a bear-off: the checkers in the home boards
        for counts, other in ((me, opp), (opp, me)):
            for _ in range(int(rng.integers(1, 16))):
                where = int(rng.integers(0, 6)) if late else int(rng.choice(
                    [BAR] * 2 + list(range(24))))
                if where == BAR or not other[23 - where]:
                    counts[where] += 1
        out.append(Position(tuple(me), tuple(opp)))
    return out


def reference_plays(position: Position, dice: tuple[int, int]) -> list[tuple[tuple[Step, ...],
                                                                            Position]]:
    """Every legal play as (steps, resulting position): the rules written as a plain
    recursion over dice orders and checkers, each resulting position once, with the steps
    that first reach it, in that order (the search as it was before it was compiled)."""
    a, b = dice
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], list[Step]] = {}

    def search(me: list[int], opp: list[int], dice: Sequence[int], steps: list[Step],
               below: int) -> None:
        moved = False
        for k, die in enumerate(dice):
            if die in dice[:k]:  # the same die again (doubles): the same moves
                continue
            rest = [*dice[:k], *dice[k + 1:]]
            if me[BAR]:
                sources = [BAR]
            else:  # doubles: from the highest point down (every order ends alike)
                top = min(below, 23) if a == b else 23
                sources = [i for i in range(top, -1, -1) if me[i]]
            for src in sources:
                dst = src - die
                m, o = me.copy(), opp.copy()
                m[src] -= 1
                hit = False
                if dst >= 0:
                    if opp[23 - dst] >= 2:
                        continue
                    hit = opp[23 - dst] == 1
                    if hit:
                        o[23 - dst], o[BAR] = 0, o[BAR] + 1
                    m[dst] += 1
                else:
                    if any(me[6:]) or (dst < -1 and any(me[src + 1:6])):
                        continue
                    dst = -1
                moved = True
                search(m, o, rest, [*steps, (src, dst, hit, die)], src)
        if not moved:
            found.setdefault((tuple(me), tuple(opp)), steps)

    roll = [a] * 4 if a == b else [max(a, b), min(a, b)]
    search(list(position.me), list(position.opp), roll, [], BAR)
    most = max(len(s) for s in found.values())
    out = [(tuple(s), Position.trusted(*key)) for key, s in found.items() if len(s) == most]
    if most == 1 and a != b and any(s[0][3] == max(a, b) for s, _ in out):
        out = [(s, p) for s, p in out if s[0][3] == max(a, b)]
    return out
