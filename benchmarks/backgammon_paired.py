"""Two backgammon players against one opponent on the same dice: their difference, paired.

    nice -n 10 python benchmarks/backgammon_paired.py --a fuzzy:rulebase=backgammon_td \\
        --b fuzzy:rulebase=backgammon_td,lookahead=1 [--opponent pubeval] [--games 2000]
        [--seed 1] [--workers 2] [--db-dir runs/backgammon_paired]

Each player plays one ``fuzzeval match backgammon -p PLAYER --opponent OPPONENT
--duplicate`` of the same seed, stored in ``DB_DIR`` and resumed when run again. Duplicate
play mirrors the dice: games 2k and 2k + 1 roll the same dice, each side moving first in
one. The dice come from a stream of their own, drawn a turn at a time, so game i rolls the
same dice for both players whatever they play: their results, block by block (a block is
a mirrored pair of games), are paired, and the luck the blocks share cancels in the
difference. Prints each player's win rate and points a game with their 95 % intervals,
then b - a with its standard error paired (over the blocks' differences) beside the
unpaired one (what two matches on independent dice would give: the blocks' spreads
added), and the paired 95 % interval.

With ``--a gnubg --b gnubg:lookahead=1 --opponent gnubg`` it is GNU Backgammon's 0-ply
equity inside fuzzeval's 1-ply search against gnubg 0-ply: gnubg against itself on
mirrored dice plays each block's two games alike, so row a is exactly even and b - a is the
1-ply player's own mirrored result.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import children
from fuzzeval.play.store import History
from fuzzeval.stats import Z95, wilson

FloatArray = npt.NDArray[np.float64]


def play(player: str, args: argparse.Namespace) -> Path:
    """One stored, resumable duplicate match through the CLI; its database."""
    args.db_dir.mkdir(parents=True, exist_ok=True)
    key = re.sub(r"[^A-Za-z0-9]+", "_", f"{player}-{args.opponent}-seed{args.seed}")
    db = args.db_dir / f"{key}.sqlite"
    cmd = [sys.executable, "-m", "fuzzeval", "match", "backgammon", "-p", player,
           "--opponent", args.opponent, "--duplicate", "-n", str(args.games), "-w",
           str(args.workers), "--seed", str(args.seed), "--db", str(db), "--json"]
    print(f"{' '.join(cmd[2:])}", file=sys.stderr, flush=True)
    start = time.perf_counter()
    match = children.start(cmd, stdout=subprocess.PIPE, text=True)
    out, _ = children.wait(match)  # stopped, the match is stopped too and saves
    if match.returncode:
        raise SystemExit(f"error: {player}: fuzzeval match exited {match.returncode}")
    json.loads(out)  # a summary came back
    print(f"  {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    return db


def games(db: Path, n: int) -> tuple[FloatArray, FloatArray]:
    """Seat 0's win (1 or 0) and points in each of the first ``n`` stored games."""
    with History(db) as history:
        match = history.matches()["id"].iloc[0]
        outcomes = list(history.outcomes(int(match)))[:n]
    won = np.array([o.winner == 0 for o in outcomes], dtype=np.float64)
    paid = np.array([o.payoffs[0] for o in outcomes], dtype=np.float64)
    return won, paid


def blocks(x: FloatArray) -> FloatArray:
    """The mean of each mirrored pair of games."""
    out: FloatArray = x[: len(x) // 2 * 2].reshape(-1, 2).mean(axis=1)
    return out


def se(x: FloatArray) -> float:
    return float(np.std(x, ddof=1) / math.sqrt(len(x)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="the first player (the reference)")
    ap.add_argument("--b", required=True, help="the second player")
    ap.add_argument("--opponent", default="pubeval")
    ap.add_argument("--games", type=int, default=2000, help="games each (even)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--db-dir", type=Path, default=Path("runs/backgammon_paired"))
    args = ap.parse_args()
    if args.games < 4 or args.games % 2:
        raise SystemExit(f"error: --games must be an even number >= 4 (got {args.games})")
    results = {name: games(play(name, args), args.games) for name in (args.a, args.b)}
    n = args.games
    print(f"\nbackgammon against {args.opponent}, {n} games each, mirrored dice "
          f"(seed {args.seed}), the same dice for both players\n")
    print(f"| {'player':<44} | {'win rate (95 %)':<20} | {'points a game (95 %)':<24} |")
    print(f"|{'-' * 46}|{'-' * 22}|{'-' * 26}|")
    for name, (won, paid) in results.items():
        lo, hi = wilson(float(won.sum()), n)
        mean, half = paid.mean(), Z95 * se(blocks(paid))
        points = f"{mean:+.3f} ({mean - half:+.3f}, {mean + half:+.3f})"
        print(f"| {name:<44} | {f'{won.mean():.1%} ({lo:.1%}-{hi:.1%})':<20} | "
              f"{points:<24} |")
    (won_a, paid_a), (won_b, paid_b) = results[args.a], results[args.b]
    print(f"\nb - a over {n // 2} mirrored blocks: the difference, its standard error "
          "paired and unpaired, the paired 95 % interval")
    for what, a, b, scale, unit in (("win rate", won_a, won_b, 100.0, " points"),
                                    ("points a game", paid_a, paid_b, 1.0, "")):
        ba, bb = blocks(a), blocks(b)
        diff = float(bb.mean() - ba.mean())
        paired = se(bb - ba)
        unpaired = math.sqrt(se(ba) ** 2 + se(bb) ** 2)
        print(f"  {what:<14} {scale * diff:+.3f}{unit}  SE paired {scale * paired:.3f}, "
              f"unpaired {scale * unpaired:.3f}  95 % ({scale * (diff - Z95 * paired):+.3f}, "
              f"{scale * (diff + Z95 * paired):+.3f})")


if __name__ == "__main__":
    children.run_main(main, "every player's match is stored; run the same command to resume")
