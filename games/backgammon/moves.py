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
from typing import NamedTuple

from fuzzeval.errors import NotationError
from fuzzeval.games.backgammon.board import BAR, Position

Step = tuple[int, int, bool, int]  # from index (24 = bar), to index (-1 = off), hit, die


def _search(me: list[int], opp: list[int], dice: tuple[int, ...], steps: list[Step],
            out: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, list[Step]]],
            doubles: bool, below: int = BAR) -> None:
    """Depth-first over dice orders and checkers. With doubles every order of the same
    moves ends alike, so checkers are taken from the highest point down (``below``). Each
    step copies my board; the opponent's is copied only when a checker is hit (it is
    otherwise shared, never written)."""
    moved = False
    last = 0
    for k, die in enumerate(dice):
        if die == last:  # the same die again (doubles): the same moves
            continue
        last = die
        rest = dice[:k] + dice[k + 1:]
        if me[BAR]:  # enter from the bar before anything else
            sources: Sequence[int] = (BAR,)
        else:
            top = min(below, 23) if doubles else 23
            sources = [i for i in range(top, -1, -1) if me[i]]
        for src in sources:
            dst = src - die
            o = opp
            if dst >= 0:
                there = 23 - dst
                if opp[there] >= 2:  # a closed point
                    continue
                hit = opp[there] == 1
                if hit:
                    o = opp.copy()
                    o[there] = 0
                    o[BAR] += 1
                m = me.copy()
                m[src] -= 1
                m[dst] += 1
                step = (src, dst, hit, die)
            else:
                if any(me[6:]):  # bearing off needs every checker home (the bar included)
                    continue
                if dst < -1 and any(me[src + 1:6]):  # larger than needed: highest point only
                    continue
                m = me.copy()
                m[src] -= 1
                step = (src, -1, False, die)
            moved = True
            steps.append(step)
            _search(m, o, rest, steps, out, doubles, src)
            steps.pop()
    if not moved:
        key = (tuple(me), tuple(opp))
        if key not in out:
            out[key] = (len(steps), list(steps))


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


@lru_cache(maxsize=256)
def plays(position: Position, dice: tuple[int, int]) -> tuple[Play, ...]:
    """The legal plays with their steps (notation written only when asked for). Recent
    answers are cached: a game asks for the same plays when it lists and applies them."""
    return tuple(_plays(position, (int(dice[0]), int(dice[1]))))


def legal_moves(position: Position, dice: tuple[int, int]) -> list[tuple[str, Position]]:
    """Every legal play for ``dice`` as (notation, resulting position seen from the mover,
    before the turn passes); one entry with "(no move)" when nothing can be played."""
    return [(p.notation, p.position) for p in plays(position, (int(dice[0]), int(dice[1])))]


def _plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """Every legal play for ``dice`` as (notation, resulting position seen from the mover,
    before the turn passes); one entry with "(no move)" when nothing can be played."""
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise NotationError(f"{a}{b}", "dice are two numbers from 1 to 6")
    roll = (a,) * 4 if a == b else (max(a, b), min(a, b))
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, list[Step]]] = {}
    _search(list(position.me), list(position.opp), roll, [], found, a == b)
    most = max(n for n, _ in found.values())
    found_plays = [(key, steps) for key, (n, steps) in found.items() if n == most]
    if most == 1 and a != b:
        with_high = [(k, s) for k, s in found_plays if s[0][3] == max(a, b)]
        if with_high:
            found_plays = with_high
    return [Play(tuple(steps), Position.trusted(me, opp)) for (me, opp), steps in found_plays]


def parse_dice(text: str) -> tuple[int, int]:
    """``31`` or ``3-1`` or ``3 1`` -> (3, 1); the token is named when it is not dice."""
    digits = [c for c in text if not c.isspace() and c not in "-,"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise NotationError(text, "dice are two digits from 1 to 6, e.g. 31")
    return int(digits[0]), int(digits[1])
