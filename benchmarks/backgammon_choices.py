"""Backgammon players' choices judged by GNU Backgammon: the equity each loses a decision.

    nice -n 10 python benchmarks/backgammon_choices.py [--decisions 600] [--seed 3]
        [--judge-plies 1] [--players fuzzy:rulebase=backgammon_td
        fuzzy:rulebase=backgammon_td,lookahead=1 pubeval gnubg gnubg:lookahead=1]

A game's result carries the dice's luck, so telling two players a point of win rate apart
takes ten thousand games; a decision judged on its own does not. The decisions are taken
from games of ``--source`` against pubeval (each decision of more than one play with
chance 0.15, both sides'), the same for every player. Each play of a decision is valued
by gnubg's cubeless equity for the side that moved (``--judge-plies 1``: gnubg's own 1-ply,
pruned as gnubg prunes; 0: its 0-ply), a game it ends at its points; a player loses the
best play's equity minus its choice's. Prints each player's mean loss (points a decision)
with its standard error, the share of decisions where it chose a best play, the loss in
contact and in race positions apart, the CPU time of its choice (one thread: numba and
the BLAS are held to one), and each player minus the first, paired over the same
decisions. The judge's own 0-ply, and fuzzeval's 1-ply over it, lose nearly nothing
by construction: they are the check that the judge and the search agree. ``--noise SD``
adds gnubg's 0-ply equity with an error of that spread (normal, independent between
positions, the same each time a position is valued), at 0-ply and in the 1-ply search:
what errors that share nothing between positions cost each.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"  # a choice's time on one core

import argparse  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import children  # noqa: E402
from fuzzeval.games.backgammon.board import START, Boards, Position, end_points  # noqa: E402
from fuzzeval.games.backgammon.game import opening_roll, roll  # noqa: E402
from fuzzeval.games.backgammon.lookahead import LookaheadGrades  # noqa: E402
from fuzzeval.games.backgammon.moves import plays  # noqa: E402
from fuzzeval.games.backgammon.players import (  # noqa: E402
    BackgammonPlayer,
    GnubgGrades,
    MoveView,
    make_player,
)
from fuzzeval.games.backgammon.pubeval import is_race  # noqa: E402
from fuzzeval.play.spec import PlayerSpec  # noqa: E402

FloatArray = npt.NDArray[np.float64]
PLAYERS = ("fuzzy:rulebase=backgammon_td", "fuzzy:rulebase=backgammon_td,lookahead=1",
           "pubeval", "gnubg", "gnubg:lookahead=1")


def player(text: str) -> BackgammonPlayer:
    spec = PlayerSpec.parse(text)
    return make_player(spec.name, **dict(spec.options))


def decisions(source: BackgammonPlayer, n: int, seed: int, rate: float = 0.15,
              keep: Callable[[Position], bool] = lambda _: True,
              ) -> list[tuple[Position, tuple[int, int]]]:
    """``n`` decisions of more than one play from games of ``source`` against pubeval,
    each such position that ``keep`` accepts taken with probability ``rate`` (the rng is
    drawn only for those, so a filter's sample repeats from its seed)."""
    rng = np.random.default_rng(seed)
    movers = (source, player("pubeval"))
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < n:
        position, dice, turn = START, opening_roll(rng), 0
        while True:
            if (keep(position) and len(plays(position, dice)) > 1 and rng.random() < rate
                    and len(out) < n):
                out.append((position, dice))
            after = movers[turn % 2].choose(position, dice, rng)
            if sum(after.me) == 0:
                break
            position, dice, turn = after.flip(), roll(rng), turn + 1
    return out


def judge(boards: Boards, plies: int) -> FloatArray:
    """gnubg's cubeless equity of each board for the side that has just moved; a board
    where it has borne off its last checker, the points it won."""
    import gnubg

    cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, plies, 1, 1)
    ended = boards.me.sum(axis=1) == 0
    out = np.empty(len(boards))
    out[ended] = end_points(boards.opp[ended])
    for i in np.flatnonzero(~ended):
        board = (tuple(boards.me[i].tolist()), tuple(boards.opp[i].tolist()))
        out[i] = -float(gnubg.evaluate(board, cube, context)[-1])
    return out


@dataclass(frozen=True)
class Noisy:
    """gnubg's 0-ply equity plus ``sd`` times a normal error drawn from the board itself."""

    sd: float
    gnubg: GnubgGrades = field(default_factory=GnubgGrades)

    def __call__(self, boards: Boards) -> FloatArray:
        error = [np.random.default_rng(zlib.crc32(me.tobytes() + opp.tobytes())).normal()
                 for me, opp in zip(boards.me, boards.opp, strict=True)]
        out: FloatArray = self.gnubg.values(boards) + self.sd * np.array(error)
        return out


def noisy_players(sd: float) -> dict[str, BackgammonPlayer]:
    """gnubg with an independent error of ``sd``, at 0-ply and 1-ply (width 4)."""
    values = Noisy(sd)

    def zero(view: MoveView) -> FloatArray:
        boards = Boards.of(view.options)
        out = np.full(len(boards), np.inf)  # a play that bears off the last checker
        going = np.flatnonzero(boards.me.sum(axis=1) > 0)
        out[going] = values(Boards(boards.me[going], boards.opp[going]))
        return out

    return {f"gnubg + error SD {sd}": BackgammonPlayer("noisy", zero),
            f"gnubg + error SD {sd}, 1-ply": BackgammonPlayer("noisy",
                                                                LookaheadGrades(values))}


def se(x: FloatArray) -> float:
    return float(np.std(x, ddof=1) / math.sqrt(len(x)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=600)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--judge-plies", type=int, choices=(0, 1), default=1)
    ap.add_argument("--source", default="fuzzy:rulebase=backgammon_td",
                    help="the player whose games against pubeval give the decisions")
    ap.add_argument("--players", nargs="+", default=list(PLAYERS))
    ap.add_argument("--noise", type=float, help="also gnubg with an error of this SD")
    args = ap.parse_args()
    if args.decisions < 2:
        raise SystemExit(f"error: --decisions must be at least 2 (got {args.decisions})")
    start = time.perf_counter()
    players = {name: player(name) for name in args.players}
    if args.noise is not None:
        players |= noisy_players(args.noise)
    found = decisions(player(args.source), args.decisions, args.seed)
    loss = {name: np.empty(len(found)) for name in players}
    cpu = {name: np.empty(len(found)) for name in players}
    race = np.array([is_race(p) for p, _ in found])
    rng = np.random.default_rng(0)  # no player here draws on it
    for j, (position, dice) in enumerate(found):
        options = plays(position, dice).boards
        equity = judge(options, args.judge_plies)
        for name, who in players.items():
            began = time.process_time()
            chosen = int(np.argmax(who.grades(MoveView(position, dice, options))))
            cpu[name][j] = time.process_time() - began
            if who.randomise:
                chosen = int(rng.integers(len(options)))
            loss[name][j] = equity.max() - equity[chosen]
    print(f"\n{len(found)} decisions from {args.source} against pubeval (seed {args.seed}; "
          f"{int(race.sum())} in a race), judged by gnubg {args.judge_plies}-ply, "
          f"{time.perf_counter() - start:.0f} s; equity lost a decision (points); CPU ms a "
          "decision, mean and 90th percentile (one thread)\n")
    labels = {name: chr(ord("A") + k) for k, name in enumerate(loss)}
    for name, label in labels.items():
        print(f"{label}: {name}")
    print(f"\n| {'':1} | {'lost (SE)':<16} | {'best':>6} | {'contact':>7} | {'race':>7} | "
          f"{'ms':>5} | {'ms p90':>6} |")
    print(f"|{'-' * 3}|{'-' * 18}|{'-' * 8}|{'-' * 9}|{'-' * 9}|{'-' * 7}|{'-' * 8}|")
    for name, lost in loss.items():
        shown = f"{lost.mean():.4f} ({se(lost):.4f})"
        ms = cpu[name] * 1000
        print(f"| {labels[name]} | {shown:<16} | {np.mean(lost < 1e-9):>6.1%} | "
              f"{lost[~race].mean():>7.4f} | {lost[race].mean() if race.any() else 0:>7.4f} | "
              f"{ms.mean():>5.1f} | {np.percentile(ms, 90):>6.1f} |")
    first, *others = loss
    for name in others:
        d = loss[name] - loss[first]
        print(f"{labels[name]} - {labels[first]}: {d.mean():+.4f} (SE {se(d):.4f}) a "
              "decision, paired")


if __name__ == "__main__":
    children.run_main(main)
