"""Selective sampling in cribbage: what one simulated decision costs.

    python benchmarks/sampling.py [--decisions 300] [--trials 500] [--json]

On one core: milliseconds per sampling pegging decision and per sampling discard at
--trials trials with no early stop (the worst case), on decisions taken from seeded games
between greedy players, beside the greedy pegging policy and the exhaustive discard on
the same decisions (the baselines, same run). Then the same decisions with Billings et al.'s
obvious-move stop and the paired stop: mean trials and the share stopped early. Kernels
are compiled (or loaded from the cache) before timing.

Target: a sampling pegging decision <= 20 ms at 500 trials on one core.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzzeval.games.cribbage.game import GAME  # noqa: E402
from fuzzeval.games.cribbage.pegging.policies import PegView, greedy  # noqa: E402
from fuzzeval.games.cribbage.players import DiscardView, ExhaustiveDiscard  # noqa: E402
from fuzzeval.games.cribbage.sampling import SamplingDiscard, SamplingPegging  # noqa: E402
from fuzzeval.search.sampling import SamplingSettings  # noqa: E402

TARGET_MS = 20.0


def decisions(n: int, seed: int) -> tuple[list[PegView], list[DiscardView]]:
    """Pegging decisions with a choice (two cards or more) and discards, from games."""
    rng = np.random.default_rng(seed)
    player = GAME.make_player("greedy")
    pegs: list[PegView] = []
    discards: list[DiscardView] = []
    g = 0
    while len(pegs) < n or len(discards) < n:
        state = GAME.new_game(rng, g % 2)
        g += 1
        while GAME.to_move(state) is not None:
            cands = GAME.candidates(state)
            view = cands.view
            if isinstance(view, PegView) and len(view.options) > 1 and len(pegs) < n:
                pegs.append(view)
            elif isinstance(view, DiscardView) and len(discards) < n:
                discards.append(view)
            state = GAME.apply(state, player.choose(cands, rng), rng)
    return pegs, discards


def per_decision(decide: Any, views: list[Any], seed: int) -> tuple[float, list[Any]]:
    """Milliseconds per decision, and what each decision returned."""
    rng = np.random.default_rng(seed)
    t0 = time.process_time()
    out = [decide(v, rng) for v in views]
    return 1000 * (time.process_time() - t0) / len(views), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--trials", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    pegs, discards = decisions(args.decisions, 1)
    full = SamplingSettings(trials=args.trials, stop="none")
    # Compile (or load) every kernel off the clock.
    SamplingPegging(full).weigh(pegs[0], np.random.default_rng(0))
    SamplingDiscard(full).weigh(discards[0], np.random.default_rng(0))
    results: dict[str, Any] = {"decisions": args.decisions, "trials": args.trials}
    results["greedy_peg_ms"], _ = per_decision(greedy, pegs, 0)
    results["sampling_peg_ms"], _ = per_decision(SamplingPegging(full).decide, pegs, 0)
    results["exhaustive_discard_ms"], _ = per_decision(ExhaustiveDiscard(), discards, 0)
    results["sampling_discard_ms"], _ = per_decision(SamplingDiscard(full).decide, discards, 0)
    for stop in ("obvious", "paired"):
        settings = SamplingSettings(trials=args.trials, stop=stop)
        for kind, cls, views in (("peg", SamplingPegging, pegs),
                                 ("discard", SamplingDiscard, discards)):
            ms, out = per_decision(cls(settings).decide, views, 0)
            results[f"{stop}_{kind}_ms"] = ms
            results[f"{stop}_{kind}_trials"] = float(np.mean([r.trials for _, r in out]))
            results[f"{stop}_{kind}_stopped"] = float(np.mean([r.stopped for _, r in out]))
    if args.json:
        print(json.dumps(results, indent=2))
        return
    n, t = args.decisions, args.trials
    print(f"{n} pegging decisions (two cards or more) and {n} discards from greedy")
    print("games; one core, CPU time per decision")
    print(f"{'decision':<34}{'ms':>9}{'trials':>9}{'stopped':>10}")
    rows = [("greedy pegging (baseline)", results["greedy_peg_ms"], None, None),
            (f"sampling pegging, {t}, no stop", results["sampling_peg_ms"], t, 0.0),
            ("  obvious stop (Billings)", results["obvious_peg_ms"],
             results["obvious_peg_trials"], results["obvious_peg_stopped"]),
            ("  paired stop", results["paired_peg_ms"], results["paired_peg_trials"],
             results["paired_peg_stopped"]),
            ("exhaustive discard (baseline)", results["exhaustive_discard_ms"], None, None),
            (f"sampling discard, {t}, no stop", results["sampling_discard_ms"], t, 0.0),
            ("  obvious stop (Billings)", results["obvious_discard_ms"],
             results["obvious_discard_trials"], results["obvious_discard_stopped"]),
            ("  paired stop", results["paired_discard_ms"], results["paired_discard_trials"],
             results["paired_discard_stopped"])]
    for label, ms, trials, stopped in rows:
        tr = "" if trials is None else f"{trials:.0f}"
        st = "" if stopped is None else f"{stopped:.0%}"
        print(f"{label:<34}{ms:>9.2f}{tr:>9}{st:>10}")
    print(f"ratios, same run: sampling pegging / greedy "
          f"{results['sampling_peg_ms'] / results['greedy_peg_ms']:,.0f}x, sampling discard / "
          f"exhaustive {results['sampling_discard_ms'] / results['exhaustive_discard_ms']:.0f}x")
    verdict = "met" if results["sampling_peg_ms"] <= TARGET_MS else "MISSED"
    print(f"target: a sampling pegging decision <= {TARGET_MS:.0f} ms at 500 trials:")
    print(f"{results['sampling_peg_ms']:.2f} ms, {verdict}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
