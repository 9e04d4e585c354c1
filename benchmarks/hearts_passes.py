"""Where a Hearts player gains or loses: its passes and its play apart, against heuristic.

    python benchmarks/hearts_passes.py [--deals 2000] [--seed 26] [--rulebase hearts_td]

One player under test against three ``heuristic``, on duplicate deals (each deal four
times, each seat moving first once), four ways: ``heuristic`` itself; ``td`` (the learned
base, ``--rulebase``); ``td`` laying the cards with ``heuristic``'s passes; ``heuristic``
laying the cards with ``td``'s passes. Paired over the same deals, each against
``heuristic``: what ``td``'s play gains with the passes held to heuristic's, and what its
passes cost with the play held. The games are those of ``fuzzeval match hearts
--duplicate --seed SEED`` (the same generators), played in this process.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fuzzeval.errors import FuzzevalError
from fuzzeval.games.hearts.game import GAME
from fuzzeval.play.game import Candidates, Player
from fuzzeval.play.match import make_player, play_game
from fuzzeval.stats import mean_interval

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Split:
    """Passes by one player, every other decision by another."""

    passer: Player
    player: Player

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        who = self.passer if candidates.kind == "pass" else self.player
        return who.choose(candidates, rng)


def per_deal(test: Player, deals: int, seed: int) -> FloatArray:
    """The player's mean points over each deal's four games against three heuristic."""
    opponent = make_player(GAME, "heuristic")
    paid = []
    for index in range(4 * deals):  # seat 0 under test, as in ``fuzzeval match``
        record = play_game(GAME, [test, opponent, opponent, opponent], seed, index,
                           duplicate=True)
        paid.append(record.outcome.payoffs[0])
    out: FloatArray = np.asarray(paid, dtype=float).reshape(deals, 4).mean(axis=1)
    return out


def half_width(x: FloatArray) -> float:
    """The 95 % half-width of the mean of ``x``, as every match reports it (mean_interval)."""
    lo, hi = mean_interval(x.tolist())
    return (hi - lo) / 2


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--rulebase", default="hearts_td", help="td's rule base")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error(f"--deals must be at least 1 (got {args.deals})")
    heuristic = make_player(GAME, "heuristic")
    try:
        td = make_player(GAME, "td", rulebase=args.rulebase)
    except (ValueError, FuzzevalError) as exc:
        ap.error(f"--rulebase {args.rulebase}: {exc}")
    rows = (("heuristic", heuristic), ("td", td),
            ("td plays, heuristic passes", Split(heuristic, td)),
            ("heuristic plays, td passes", Split(td, heuristic)))
    print(f"Hearts, 1 against 3 heuristic, {args.deals} duplicate deals (seed {args.seed}), "
          f"td: {args.rulebase}\n")
    print(f"| {'player':<27} | {'points/hand':>11} | {'95 %':>6} | {'- heuristic':>11} | "
          f"{'95 %':>6} |")
    print(f"|{'-' * 29}|{'-' * 13}|{'-' * 8}|{'-' * 13}|{'-' * 8}|")
    base: FloatArray | None = None
    for name, player in rows:
        x = per_deal(player, args.deals, args.seed)
        base = x if base is None else base
        d = x - base
        diff = "" if name == "heuristic" else f"{d.mean():+11.2f} | {half_width(d):6.2f}"
        print(f"| {name:<27} | {x.mean():>11.2f} | {half_width(x):6.2f} | "
              f"{diff or ' ' * 11 + ' | ' + ' ' * 6} |", flush=True)


if __name__ == "__main__":
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main, "nothing is stored; run it again")
