"""``maxn`` without Monte-Carlo when it sees every hand: a diagnostic, not a player.

    python benchmarks/hearts_seen.py [--deals 1000] [--seed 26] [--queen BASE]
        [--hearts BASE] [--out runs/hearts_seen.txt] [--paired MATCH.sqlite]

Sturtevant & White (2006) first measured their learned values in the perfect-information
game: the search saw every hand. ``maxn:deals=1,values=learned`` searches one sampled deal
of the hidden cards instead, so the features that read the others' hands are guesses.
This plays the duplicate match ``fuzzeval match hearts -p maxn:deals=1,values=learned
--opponent heuristic --duplicate --seed SEED`` plays, game by game on the same deals and
the same generators, but seat 0's search is given the real deal in place of its sample:
the gap between the two is what the guesses cost. The real state reaches the player
through a wrapper of the game kept here, so no product player can see a hidden card.

Each deal's mean points over its four games is appended to ``--out`` (one line a deal), and
a run goes on from the deals already there. With ``--paired`` (a stored match of the same
seed and deals, e.g. the one-deal player's), prints the mean difference, this minus it,
with its 95 % half-width over the deals both played (``hearts_players.difference``).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import children
from benchmarks.hearts_players import difference, per_deal
from fuzzeval.games.hearts.game import GAME, State
from fuzzeval.games.hearts.monte_carlo import MaxnHearts
from fuzzeval.games.hearts.position_values import HEARTS_BASE, QUEEN_BASE, position_values
from fuzzeval.games.hearts.trick_search import search_deals
from fuzzeval.play.game import Candidates
from fuzzeval.play.match import make_player, play_game
from fuzzeval.stats import mean_interval

FloatArray = npt.NDArray[np.float64]


class SeenGame:
    """The Hearts game, keeping the state of the last decision it offered (``seen``)."""

    def __init__(self) -> None:
        self.seen: State | None = None

    def candidates(self, state: State) -> Candidates:
        self.seen = state
        return GAME.candidates(state)

    def __getattr__(self, name: str) -> Any:
        return getattr(GAME, name)


@dataclass(frozen=True)
class SeenMaxn(MaxnHearts):
    """``maxn`` searching the real deal (as one hand, like a sampled one) once."""

    game: SeenGame | None = None

    def searched(self, d: Any, rng: np.random.Generator) -> FloatArray:
        if self.game is None or self.game.seen is None:
            raise AssertionError("no real deal to search")
        hand = self.game.seen.hand
        real = replace(hand, options=replace(hand.options, target=0))
        if real.hands[d.view.seat] != d.view.hand:
            raise AssertionError("the real deal is not the decision's")
        return search_deals([real], self.values).points


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--queen", default=QUEEN_BASE)
    ap.add_argument("--hearts", default=HEARTS_BASE)
    ap.add_argument("--out", type=Path, default=Path("runs/hearts_seen.txt"))
    ap.add_argument("--paired", type=Path, help="a stored match of the same deals")
    args = ap.parse_args()
    game = SeenGame()
    learned = position_values(args.queen, args.hearts)
    seen = SeenMaxn(1, learned, "the points it takes plus the learned points still to come",
                    None, game)
    heuristic = make_player(GAME, "heuristic")
    players = [seen, heuristic, heuristic, heuristic]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = len(args.out.read_text().split()) if args.out.exists() else 0
    start = time.process_time()
    for deal in range(done, args.deals):
        points = [play_game(game, players, args.seed, 4 * deal + k,
                            duplicate=True, log=False).outcome.payoffs[0] for k in range(4)]
        with args.out.open("a") as out:
            out.write(f"{float(np.mean(points))!r}\n")
    print(f"{args.deals - done} deals in {time.process_time() - start:.0f} s of CPU")
    x = np.array([float(v) for v in args.out.read_text().split()])
    lo, hi = mean_interval(x.tolist())
    print(f"seeing every hand: {x.mean():.2f} [{lo:.2f}, {hi:.2f}] points a hand over "
          f"{len(x)} deals")
    if args.paired:
        n, mean, half = difference(x, per_deal(args.paired))
        print(f"paired, minus {args.paired.name}: {mean:+.2f} ± {half:.2f} over {n} deals")


if __name__ == "__main__":
    children.run_main(main, "the deals played are kept in --out; run the same command to "
                            "go on")
