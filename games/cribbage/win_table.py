"""The chance of winning from any score: what a simulated deal is worth near 121.

Far from 121 a point is a point; near it, 20 points that leave the opponent to peg out
first are worth nothing. ``win_table()[a, b, d]`` is the probability that the seat with
``a`` points wins against ``b`` when the next deal is its own (d = 1) or the opponent's
(d = 0), from a dynamic programme over whole deals: each deal brings the pone and the
dealer points drawn from the joint distribution measured in games between exhaustive
discarders with greedy pegging (``data/deal_points.json``, rebuilt by ``python -m
fuzzeval.games.cribbage.win_table``); when both would pass 121 in one deal, the pone wins
(it counts first in the show; a race in the play is not modelled).
"""

from __future__ import annotations

import json
import sys
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels.jit import kernel

FloatArray = npt.NDArray[np.float64]
DATA_FILE = "deal_points.json"
WIN = 121
MAX_POINTS = 80  # per seat and deal, far above any seen


def _solve(joint: FloatArray, out: FloatArray) -> None:
    """Fill ``out`` (WIN, WIN, 2) from ``joint`` (pone points, dealer points)."""
    n = joint.shape[0]
    for total in range(2 * WIN - 2, -1, -1):
        for a in range(max(0, total - WIN + 1), min(total, WIN - 1) + 1):
            b = total - a
            for d in range(2):
                # d = 1: seat a deals, so it scores as the dealer and b as the pone.
                acc = 0.0
                for x in range(n):  # the pone's points
                    for y in range(n):  # the dealer's
                        p = joint[x, y]
                        if p == 0.0 or (x == 0 and y == 0):
                            continue
                        mine = y if d == 1 else x
                        theirs = x if d == 1 else y
                        ra = a + mine
                        rb = b + theirs
                        if ra >= WIN and rb >= WIN:
                            acc += p * (0.0 if d == 1 else 1.0)  # the pone wins
                        elif ra >= WIN:
                            acc += p
                        elif rb < WIN:
                            acc += p * out[ra, rb, 1 - d]
                out[a, b, d] = acc / (1.0 - joint[0, 0])


solve = kernel(_solve)


@cache
def deal_points() -> dict[str, object]:
    """The measured joint distribution of a deal's points, and where it came from."""
    text = resources.files(__package__).joinpath("data", DATA_FILE).read_text()
    data: dict[str, object] = json.loads(text)
    return data


@cache
def win_table() -> FloatArray:
    """(WIN, WIN, 2): the chance the seat with a points beats b, d = 1 if it deals next."""
    data = deal_points()
    counts = np.zeros((MAX_POINTS, MAX_POINTS))
    for x, y, k in data["counts"]:  # type: ignore[attr-defined]
        counts[x, y] = k
    used = int(max(max(x, y) for x, y, _ in data["counts"])) + 1  # type: ignore[attr-defined]
    joint = counts[:used, :used] / counts.sum()
    out = np.zeros((WIN, WIN, 2))
    solve(joint, out)
    out.flags.writeable = False
    return out


def measure(games: int, seed: int) -> dict[str, object]:
    """Play ``games`` games between exhaustive discarders with greedy pegging; every deal
    that did not end the game gives one (pone points, dealer points) count."""
    from fuzzeval.games.cribbage.game import GAME
    from fuzzeval.play.match import play_game

    players = (GAME.make_player("exhaustive"), GAME.make_player("exhaustive"))
    counts: dict[tuple[int, int], int] = {}
    first_dealer_wins = 0
    for i in range(games):
        record = play_game(GAME, players, seed, i)
        first = record.first
        first_dealer_wins += int(record.outcome.winner == first)
        for k, (p0, p1) in enumerate(record.outcome.unit_points[:-1]):
            dealer = first if k % 2 == 0 else 1 - first
            key = (p1, p0) if dealer == 0 else (p0, p1)  # (pone, dealer)
            counts[key] = counts.get(key, 0) + 1
    return {"source": f"{games} games, exhaustive vs exhaustive, greedy pegging, seed {seed}",
            "games": games, "first_dealer_wins": first_dealer_wins,
            "counts": [[x, y, k] for (x, y), k in sorted(counts.items())]}


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    target = resources.files(__package__).joinpath("data", DATA_FILE)
    with resources.as_file(target) as path:
        path.write_text(json.dumps(measure(n, 2026)) + "\n")
        print(f"wrote {path}")
