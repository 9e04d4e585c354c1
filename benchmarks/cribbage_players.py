"""Every cribbage discard player on the same held-out deals and in the same games.

    python benchmarks/cribbage_players.py [--deals 10000] [--games 4000] [--workers 2]

For each player: discard efficiency with my crib and with theirs on ``--deals`` random
hands (exact EV, ``fuzzeval cribbage report``), decisions per second (many hands in one
call where the player can, else one at a time; the exhaustive player's rate per worker),
and the win rate against the exhaustive player over ``--games`` games (greedy pegging for
both, the same seeded games for every player, 95 % Wilson interval), stored and resumable
in ``runs/cribbage_players.sqlite``. Prints a Markdown table (docs/results.md).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.report import run_report
from fuzzeval.play.executors import executor_for
from fuzzeval.play.match import MatchSpec, summarize
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History

PLAYERS = (
    ("random", "random"),
    ("ES (Kendall & Shaw)", "es"),
    ("greedy (hand only)", "greedy"),
    ("linguistic, as written", "fuzzy:rulebase=cribbage_linguistic"),
    ("linguistic, calibrated (eq. 1)", "fuzzy:rulebase=cribbage_linguistic_calibrated"),
    ("linguistic, tuned (CMA-ES)", "fuzzy:rulebase=cribbage_linguistic_tuned"),
    ("expected points (fuzzy)", "fuzzy:rulebase=cribbage_expected_points"),
    ("exhaustive, uniform", "exhaustive"),
    ("exhaustive, expert weights", "exhaustive:weights=expert"),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--games", type=int, default=4_000)
    ap.add_argument("--seed", type=int, default=2, help="deals and games (training used 1)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--db", type=Path, default=Path("runs/cribbage_players.sqlite"))
    args = ap.parse_args()
    specs = [spec for _, spec in PLAYERS]
    with executor_for(args.workers) as pool:
        report = run_report(args.deals, args.seed, specs, pool)
        summaries = {}
        with History(args.db) as history:
            for label, spec in PLAYERS:
                match = MatchSpec("cribbage", PlayerSpec.parse(spec),
                                  PlayerSpec("exhaustive"), args.games, args.seed)
                stored, _ = run_match(history, GAME, match, pool,
                                      resume=history.find_match(match) is not None)
                summaries[label] = summarize(history.outcomes(stored.id)[: args.games])
                print(f"{label}: {summaries[label].win_rate:.1%}", flush=True)
    print(f"\n{args.deals:,} deals (seed {args.seed}); {args.games:,} games against the "
          "exhaustive player\n")
    print("| player | efficiency, my crib | efficiency, their crib | decisions/s | "
          "win rate vs exhaustive (95%) |")
    print("|---|---:|---:|---:|---|")
    for (label, _), score in zip(PLAYERS, report.players, strict=True):
        s = summaries[label]
        lo, hi = s.interval
        print(f"| {label} | {score.mine.efficiency:.4f} | {score.theirs.efficiency:.4f} | "
              f"{score.decisions_per_s:,.0f} | {s.win_rate:.1%} ({lo:.1%}–{hi:.1%}) |")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
