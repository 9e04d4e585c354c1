"""The CPU time of one decision of Hearts' Monte-Carlo player on learned position values.

    python benchmarks/hearts_decision.py [--hands 10] [--deals 20] [--warm 8] [--searched 20]
        [--queen BASE] [--hearts BASE]

Deals ``--hands`` hands from seed 5, every seat laying as ``heuristic``, and times
``maxn:values=learned,deals=N`` at each of seat 0's cards with a choice (more than one
legal card): CPU seconds of the process on one thread (``time.process_time``, the
numerical libraries held to one thread), after ``--warm`` decisions that load the
compiled kernels. Prints the mean, the median and the 90th percentile in ms, and the
choices made (the same cards whatever the speed). Target: a 20-deal decision in <= 50 ms
on average on one core. Then the CPU time of a hand played by the search alone in the
perfect-information game (``--searched`` hands from seed 6: every card with a choice laid
by maxⁿ to the end of the trick on the learned values, the hands seen, the passes
``heuristic``'s): what learning the values under the search's own play would cost a hand.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
             "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.children import run_main  # noqa: E402
from fuzzeval.errors import FuzzevalError  # noqa: E402
from fuzzeval.games.hearts import rules  # noqa: E402
from fuzzeval.games.hearts.game import GAME, State  # noqa: E402
from fuzzeval.games.hearts.monte_carlo import maxn_player  # noqa: E402
from fuzzeval.games.hearts.players import heuristic_player  # noqa: E402
from fuzzeval.games.hearts.position_values import PositionValues  # noqa: E402
from fuzzeval.games.hearts.trick_search import search_deals  # noqa: E402
from fuzzeval.games.hearts.view import view  # noqa: E402


def decisions(hands: int, seed: int = 5) -> list[State]:
    """Seat 0's decisions to lay a card with a choice, all seats laying as heuristic."""
    rng = np.random.default_rng(seed)
    heuristic = GAME.make_player("heuristic")
    out = []
    for _ in range(hands):
        state = GAME.new_game(rng, 0)
        while GAME.to_move(state) is not None:
            candidates = GAME.candidates(state)
            if state.hand.to_move == 0 and state.hand.phase == "play" \
                    and len(candidates.labels) > 1:
                out.append(state)
            state = GAME.apply(state, heuristic.choose(candidates, rng), rng)
    return out


def searched_hand(values: PositionValues, rng: np.random.Generator) -> rules.State:
    """A hand played out by the search on ``values``, every hand seen (one deal: the
    true one), the passes ``heuristic``'s."""
    hand = GAME.new_game(rng, 0).hand
    while hand.phase != "over":
        cards = rules.legal(hand)
        if len(cards) == 1:
            pick = 0
        elif hand.phase == "pass":
            pick = heuristic_player(view(hand), cards, rng)
        else:
            pick = int(np.argmin(search_deals([hand], values).points[0]))
        hand = rules.apply(hand, cards[pick])
    return hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--warm", type=int, default=8)
    parser.add_argument("--searched", type=int, default=20)
    parser.add_argument("--queen", help="the Q♠'s base (default: the shipped one)")
    parser.add_argument("--hearts", help="the hearts' base (default: the shipped one)")
    args = parser.parse_args()
    states = decisions(args.hands)
    bases = {k: v for k, v in (("queen", args.queen), ("hearts", args.hearts)) if v}
    try:
        player = maxn_player(values="learned", deals=args.deals, **bases)
    except (FuzzevalError, ValueError) as e:  # a base that is missing or not of positions
        parser.error(str(e))
    for i, state in enumerate(states[:args.warm]):
        player.choose(GAME.candidates(state), np.random.default_rng(i))
    times, chosen = [], []
    for i, state in enumerate(states):
        candidates = GAME.candidates(state)
        start = time.process_time()
        chosen.append(player.choose(candidates, np.random.default_rng(i)))
        times.append(1000 * (time.process_time() - start))
    ms = np.array(times)
    named = "".join(f",{k}={v}" for k, v in bases.items())
    print(f"maxn:values=learned,deals={args.deals}{named}: {len(ms)} decisions, mean "
          f"{ms.mean():.1f} ms, median {np.median(ms):.1f} ms, 90th percentile "
          f"{np.percentile(ms, 90):.1f} ms (CPU, one thread)")
    print("choices:", " ".join(map(str, chosen)))
    rng = np.random.default_rng(6)
    values = player.values
    if not isinstance(values, PositionValues):
        raise TypeError("the player's values are not learned ones")
    start = time.process_time()
    for _ in range(args.searched):
        searched_hand(values, rng)
    per = (time.process_time() - start) / max(args.searched, 1)
    print(f"a hand played by the search, every hand seen: {1000 * per:.0f} ms (CPU, one "
          f"thread; {args.searched} hands): 20,000 hands in {20000 * per / 60:.0f} min")


if __name__ == "__main__":
    run_main(main)
