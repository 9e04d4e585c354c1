"""Race values a 1-ply search improves: the shipped base's against a race grid of both sides.

    nice -n 10 python benchmarks/backgammon_race_values.py [--decisions 600]
        [--train-decisions 3000] [--td-games 20000] [--oneply-games 3000] [--lambda 0.75]
        [--alpha 0.1] [--pip-terms 9] [--off-terms 4] [--pip-max 180] [--no-their-off]

In a race ``backgammon_td`` loses more at 1-ply than at 0-ply. Its features are mostly the
mover's (checkers off, stacking, spares per zone); of the side to roll it sees the pips
(``RaceLead``), blots and home points, not its checkers off nor where its spares lie. One
ply deeper each reply is valued from the opponent's side, so the values see my play only
through my pips (which all plays of a roll share), my blots and my home points. This
script puts values side by side on the same race decisions (from games of the shipped base
against pubeval, seed 12; a race position with more than one play kept with chance 0.3),
each play judged by gnubg's 0-ply cubeless equity (its race network and bear-off
database), and prints each one's equity lost a decision at 0-ply and in the 1-ply search,
with its standard error and 1-ply minus 0-ply paired:

- the shipped base;
- the shipped base's rules that fire in races, their conclusions refitted by least squares
  to gnubg's equity of the plays of ``--train-decisions`` race decisions (seed 11): what
  the base can say at best;
- the **race grid**: both sides' pips (nine triangles from 0 to 180) and checkers off
  (four from 0 to 15), each atom, my pips and theirs paired, and each side's checkers off
  paired with its pips (171 rules; ``--pip-terms``, ``--off-terms``, ``--pip-max`` and
  ``--no-their-off`` change it), the same for either side to roll; fitted the same way,
  learned by TD(λ) in ``--td-games`` self-play races from the same race positions (the
  learner's normalised step, ``--alpha``, λ ``--lambda``), and learned in ``--oneply-
  games`` races toward its own 1-ply value (each chosen play steps toward minus the mean
  over the opponent's rolls of its best reply's value, no λ).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import children
from benchmarks.backgammon_choices import decisions, judge, player, se
from fuzzeval.games.backgammon.board import START, Boards, Position, end_points
from fuzzeval.games.backgammon.features import position_features
from fuzzeval.games.backgammon.game import roll
from fuzzeval.games.backgammon.lookahead import BoardValues, LookaheadGrades
from fuzzeval.games.backgammon.moves import plays
from fuzzeval.games.backgammon.players import FuzzyGrades, MoveView
from fuzzeval.games.backgammon.pubeval import is_race

FloatArray = npt.NDArray[np.float64]
Decision = tuple[Position, tuple[int, int]]


@dataclass(frozen=True)
class Grid:
    """The race grid's atoms: ``pip_terms`` triangles over 0 to ``pip_max`` pips (more count
    as ``pip_max``), ``off_terms`` over 0-15 checkers off; without ``their_off``, the side
    to roll's checkers off are left out (as ``backgammon_td``'s features leave them out)."""

    pip_terms: int = 9
    off_terms: int = 4
    their_off: bool = True
    pip_max: float = 180.0

    def __call__(self, boards: Boards) -> FloatArray:
        """The rule strengths of each board (n, rules)."""
        pips = np.linspace(0.0, self.pip_max, self.pip_terms)
        off = np.linspace(0.0, 15.0, self.off_terms)
        mine = position_features(boards, ("PipCount", "BorneOff"))
        theirs = position_features(Boards(boards.opp, boards.me), ("PipCount", "BorneOff"))
        my_pips = triangles(np.minimum(mine[:, 0], pips[-1]), pips)
        their_pips = triangles(np.minimum(theirs[:, 0], pips[-1]), pips)
        parts = [my_pips, their_pips, pairs(my_pips, their_pips),
                 pairs(triangles(mine[:, 1], off), my_pips)]
        if self.their_off:
            parts.append(pairs(triangles(theirs[:, 1], off), their_pips))
        return np.hstack(parts)


def race_decisions(n: int, seed: int) -> list[Decision]:
    """``n`` race decisions of more than one play from games of the shipped base against
    pubeval."""
    return decisions(player("fuzzy:rulebase=backgammon_td"), n, seed, rate=0.3,
                     keep=is_race)


def triangles(x: FloatArray, peaks: FloatArray) -> FloatArray:
    """Membership of each x in evenly spaced triangles with these peaks (n, peaks)."""
    out: FloatArray = np.clip(1.0 - np.abs(x[:, None] - peaks[None, :]) / (peaks[1] - peaks[0]),
                              0.0, None)
    return out


def pairs(a: FloatArray, b: FloatArray) -> FloatArray:
    """Every atom of ``a`` AND every atom of ``b`` (the minimum), (n, a x b)."""
    out: FloatArray = np.minimum(a[:, :, None], b[:, None, :]).reshape(len(a), -1)
    return out


def afterstates(decisions: list[Decision]) -> Boards:
    """The plays of the decisions that do not end the game."""
    found = [plays(p, d).boards for p, d in decisions]
    me, opp = np.concatenate([b.me for b in found]), np.concatenate([b.opp for b in found])
    going = me.sum(axis=1) > 0
    return Boards(me[going], opp[going])


def fit(x: FloatArray, y: FloatArray) -> FloatArray:
    """Least-squares conclusions (ridge 0.01 for rules that seldom fire)."""
    return np.asarray(np.linalg.solve(x.T @ x + 0.01 * np.eye(x.shape[1]), x.T @ y),
                      dtype=np.float64)


def learn(grid: Grid, starts: list[Decision], games: int, lam: float, alpha: float,
          oneply: bool, seed: int = 5) -> FloatArray:
    """The race grid's conclusions learned in self-play races from ``starts``: by TD(λ)
    from the races' ends, or (``oneply``) toward each chosen play's 1-ply value."""
    w = np.zeros(grid(Boards.of([START])).shape[1])
    rng = np.random.default_rng(seed)
    search = LookaheadGrades(lambda b: grid(b) @ w, width=1)
    for g in range(games):
        position, dice = starts[g % len(starts)][0], roll(rng)
        chosen: list[FloatArray] = []
        values: list[float] = []
        while True:
            options = plays(position, dice).boards
            done = np.flatnonzero(options.me.sum(axis=1) == 0)
            if done.size:
                points = float(end_points(options.opp[done[:1]])[0])
                break
            x = grid(options)
            v = x @ w
            i = int(np.argmax(v))
            if oneply:
                one = Boards(options.me[i:i + 1], options.opp[i:i + 1])
                target = float(search(MoveView(position, dice, one))[0])
                w += alpha * (target - v[i]) * x[i] / x[i].sum()
            chosen.append(x[i])
            values.append(float(v[i]))
            position, dice = options[i].flip(), roll(rng)
        if not oneply:
            ret = -points  # the last play before the end lost the game's points
            for t in range(len(chosen) - 1, -1, -1):
                if t < len(chosen) - 1:
                    ret = -((1 - lam) * values[t + 1] + lam * ret)
                w += alpha * (ret - chosen[t] @ w) * chosen[t] / chosen[t].sum()
    return w


def zero_ply(values: BoardValues) -> Callable[[MoveView], FloatArray]:
    """0-ply grades: a play that bears off my last checker first."""
    def grades(view: MoveView) -> FloatArray:
        boards = Boards.of(view.options)
        out = np.full(len(boards), np.inf)
        going = np.flatnonzero(boards.me.sum(axis=1) > 0)
        out[going] = values(Boards(boards.me[going], boards.opp[going]))
        return out
    return grades


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=600)
    ap.add_argument("--train-decisions", type=int, default=3000)
    ap.add_argument("--td-games", type=int, default=20000)
    ap.add_argument("--oneply-games", type=int, default=3000)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75)
    ap.add_argument("--alpha", type=float, default=0.1)
    ap.add_argument("--pip-terms", type=int, default=9)
    ap.add_argument("--off-terms", type=int, default=4)
    ap.add_argument("--pip-max", type=float, default=180.0,
                    help="the pips' last triangle's peak (PipCount's range: 375)")
    ap.add_argument("--no-their-off", action="store_true",
                    help="the race grid without the side to roll's checkers off")
    args = ap.parse_args()
    grid = Grid(args.pip_terms, args.off_terms, not args.no_their_off, args.pip_max)
    if args.decisions < 2 or args.train_decisions < 1 or min(args.pip_terms,
                                                                 args.off_terms) < 2 \
            or args.pip_max <= 0:
        raise SystemExit("error: --decisions and the terms must be at least 2, "
                         "--train-decisions at least 1, --pip-max above 0")
    start = time.perf_counter()
    shipped = player("fuzzy:rulebase=backgammon_td").grader
    assert isinstance(shipped, FuzzyGrades)
    train = race_decisions(args.train_decisions, 11)
    boards = afterstates(train)
    equity = judge(boards, 0)
    strengths = shipped.evaluator.strengths(position_features(boards, shipped.inputs))
    fires = np.flatnonzero((strengths > 0).sum(axis=0) >= 5)

    def refit_values(w: FloatArray) -> BoardValues:
        return lambda b: shipped.evaluator.strengths(position_features(b, shipped.inputs))[
            :, fires] @ w

    def grid_values(w: FloatArray) -> BoardValues:
        return lambda b: grid(b) @ w

    rules = grid(Boards.of([START])).shape[1]
    values: dict[str, BoardValues] = {
        "backgammon_td": shipped.values,
        f"backgammon_td's {len(fires)} race rules refitted": refit_values(
            fit(strengths[:, fires], equity)),
        f"race grid ({rules} rules) fitted": grid_values(fit(grid(boards), equity)),
    }
    if args.td_games:
        values[f"race grid, TD({args.lam}) {args.td_games} races"] = grid_values(
            learn(grid, train, args.td_games, args.lam, args.alpha, oneply=False))
    if args.oneply_games:
        values[f"race grid, toward 1-ply, {args.oneply_games} races"] = grid_values(
            learn(grid, train, args.oneply_games, args.lam, args.alpha, oneply=True))
    test = race_decisions(args.decisions, 12)
    loss = {(name, ply): np.empty(len(test)) for name in values for ply in (0, 1)}
    pubeval, pub = np.empty(len(test)), player("pubeval")
    for j, (position, dice) in enumerate(test):
        options = plays(position, dice).boards
        judged = judge(options, 0)
        view = MoveView(position, dice, options)
        pubeval[j] = judged.max() - judged[int(np.argmax(pub.grades(view)))]
        for name, v in values.items():
            for ply, grades in ((0, zero_ply(v)), (1, LookaheadGrades(v))):
                loss[name, ply][j] = judged.max() - judged[int(np.argmax(grades(view)))]
    print(f"\n{len(test)} race decisions from backgammon_td against pubeval (seed 12), "
          f"judged by gnubg 0-ply; fitted on {len(boards)} plays of {len(train)} (seed 11); "
          f"{time.perf_counter() - start:.0f} s; equity lost a decision (points)\n")
    print(f"| {'values':<46} | {'0-ply (SE)':<16} | {'1-ply (SE)':<16} | "
          f"{'1-ply - 0-ply (SE)':<18} |")
    print(f"|{'-' * 48}|{'-' * 18}|{'-' * 18}|{'-' * 20}|")
    for name in values:
        zero, one = loss[name, 0], loss[name, 1]
        d = one - zero
        cells = (f"{zero.mean():.4f} ({se(zero):.4f})", f"{one.mean():.4f} ({se(one):.4f})",
                 f"{d.mean():+.4f} ({se(d):.4f})")
        print(f"| {name:<46} | {cells[0]:<16} | {cells[1]:<16} | {cells[2]:<18} |")
    print(f"\npubeval (0-ply): {pubeval.mean():.4f} ({se(pubeval):.4f})")


if __name__ == "__main__":
    children.run_main(main)
