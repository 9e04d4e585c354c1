"""Two backgammon players against one opponent on the same dice: their difference, paired.

    nice -n 10 python benchmarks/backgammon_paired.py --a fuzzy:rulebase=backgammon_td \\
        --b fuzzy:rulebase=backgammon_td,lookahead=1 [--opponent pubeval] [--games 2000]
        [--seed 1] [--workers 2] [--db-dir runs/backgammon_paired] [--luck]

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

The dice's luck still swamps a game's result, and the same dice pair the two players'
games only for their first few turns: after that the positions differ. ``--luck`` takes
the luck out, as GNU Backgammon's rollouts and luck-adjusted results do: each roll's luck
for the side that rolled is what its best play with those dice is worth (gnubg's cubeless
0-ply, a game ended at its points) minus the mean of that over every roll it might have
had (the opening roll is never a double); seat 0's result less its own luck plus its
opponent's. The luck of a roll has mean 0 whatever the judge, so the adjusted result has
the same mean as the result, with the spread a strong judge leaves: the rows and b - a
are printed again so, in points a game and in wins (the luck then in gnubg's chance of
winning). It costs about 4 ms of CPU a turn, 0.2 s a game (gnubg values every play of all
21 rolls).

With ``--a gnubg --b gnubg:lookahead=1 --opponent gnubg`` it is GNU Backgammon's 0-ply
equity inside fuzzeval's 1-ply search against gnubg 0-ply: gnubg against itself on
mirrored dice plays each block's two games alike, so row a is exactly even (its luck is
not computed) and b - a is the 1-ply player's own mirrored result.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import re
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import children
from fuzzeval.games.backgammon.board import Position, end_points, from_position_id
from fuzzeval.games.backgammon.lookahead import ROLL_SHARE, ROLLS
from fuzzeval.games.backgammon.moves import plays
from fuzzeval.play.store import History
from fuzzeval.stats import Z95

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


def turns(db: Path, n: int) -> list[list[tuple[int, str, str]]]:
    """Every turn of the first ``n`` stored games: the seat, the position ID before the
    roll was played and the dice."""
    with History(db) as history:
        match = int(history.matches()["id"].iloc[0])
        return [[(seat, str(context["position"]), str(context["dice"]))
                 for seat, _, _, _, context in history.game_decisions(match, i)]
                for i in range(n)]


def game_luck(game: list[tuple[int, str, str]]) -> tuple[float, float]:
    """Seat 0's luck less seat 1's over one game's turns, in points and in wins."""
    points = wins = 0.0
    for turn, (seat, ident, dice) in enumerate(game):
        lp, lw = roll_luck(from_position_id(ident), (int(dice[0]), int(dice[1])), turn == 0)
        sign = 1.0 if seat == 0 else -1.0
        points, wins = points + sign * lp, wins + sign * lw
    return points, wins


#: the share of each of the 21 rolls in an opening roll (never a double)
OPENING = np.array([0.0 if a == b else 2.0 / 30.0 for a, b in ROLLS])


def roll_luck(position: Position, dice: tuple[int, int], opening: bool) -> tuple[float, float]:
    """The luck of ``dice`` for the side on roll: the judge's value of its best play with
    them minus the mean over the rolls it might have had; in points, and in wins (the
    chance of winning after the play the points chose)."""
    best = best_plays(position)
    actual = ROLLS.index((min(dice), max(dice)))
    mean = (OPENING if opening else ROLL_SHARE) @ best
    return float(best[actual, 0] - mean[0]), float(best[actual, 1] - mean[1])


@functools.lru_cache(maxsize=4096)  # the first turns of paired and mirrored games repeat
def best_plays(position: Position) -> FloatArray:
    """For each of the 21 rolls, the judge's value of the best play (points, wins)."""
    import gnubg

    cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, 0)
    best = np.empty((len(ROLLS), 2))
    for r, roll in enumerate(ROLLS):
        boards = plays(position, roll).boards
        values = []
        for me, opp in zip(boards.me.tolist(), boards.opp.tolist(), strict=True):
            if not any(me):
                values.append((float(end_points(np.array([opp]))[0]), 1.0))
                continue
            # evaluate() judges the side on roll (second in its board): the opponent.
            p = gnubg.evaluate((tuple(me), tuple(opp)), cube, context)
            values.append((-float(p[-1]), 1.0 - float(p[0])))
        best[r] = max(values)
    return best


def blocks(x: FloatArray) -> FloatArray:
    """The mean of each mirrored pair of games."""
    out: FloatArray = x[: len(x) // 2 * 2].reshape(-1, 2).mean(axis=1)
    return out


def interval(x: FloatArray, scale: float, form: str, unit: str) -> str:
    """The mean of games ``x`` and its 95 % interval over the mirrored blocks, scaled."""
    mean, half = scale * x.mean(), scale * Z95 * se(blocks(x))
    return f"{mean:{form}}{unit} ({mean - half:{form}}, {mean + half:{form}})"


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
    ap.add_argument("--luck", action="store_true",
                    help="also less the dice's luck, judged by gnubg 0-ply")
    args = ap.parse_args()
    if args.games < 4 or args.games % 2:
        raise SystemExit(f"error: --games must be an even number >= 4 (got {args.games})")
    dbs = {name: play(name, args) for name in (args.a, args.b)}
    n = args.games
    results = {name: games(db, n) for name, db in dbs.items()}
    print(f"\nbackgammon against {args.opponent}, {n} games each, mirrored dice "
          f"(seed {args.seed}), the same dice for both players")
    report(results, args.a, args.b)
    if args.luck:
        start = time.perf_counter()
        with ProcessPoolExecutor(args.workers) as pool:
            for name, db in dbs.items():
                if name == args.opponent:  # each block's luck cancels, as its result does
                    continue
                luck = np.array(list(pool.map(game_luck, turns(db, n), chunksize=4)))
                won, paid = results[name]
                results[name] = (won - luck[:, 1], paid - luck[:, 0])
        print(f"\nless the luck (gnubg 0-ply judging every roll, "
              f"{time.perf_counter() - start:.0f} s)")
        report(results, args.a, args.b)


def report(results: dict[str, tuple[FloatArray, FloatArray]], a: str, b: str) -> None:
    """Each player's row, then b - a, paired and unpaired."""
    print(f"\n| {'player':<44} | {'win rate (95 %)':<20} | {'points a game (95 %)':<24} |")
    print(f"|{'-' * 46}|{'-' * 22}|{'-' * 26}|")
    for name, (won, paid) in results.items():
        print(f"| {name:<44} | {interval(won, 100.0, '.1f', ' %'):<20} | "
              f"{interval(paid, 1.0, '+.3f', ''):<24} |")
    (won_a, paid_a), (won_b, paid_b) = results[a], results[b]
    print(f"\nb - a over {len(won_a) // 2} mirrored blocks: the difference, its standard "
          "error paired and unpaired, the paired 95 % interval")
    for what, x, y, scale in (("win rate (%)", won_a, won_b, 100.0),
                              ("points a game", paid_a, paid_b, 1.0)):
        bx, by = blocks(x), blocks(y)
        diff = float(by.mean() - bx.mean())
        paired = se(by - bx)
        unpaired = math.sqrt(se(bx) ** 2 + se(by) ** 2)
        print(f"  {what:<14} {scale * diff:+.3f}  SE paired {scale * paired:.3f}, "
              f"unpaired {scale * unpaired:.3f}  95 % ({scale * (diff - Z95 * paired):+.3f}, "
              f"{scale * (diff + Z95 * paired):+.3f})")

if __name__ == "__main__":
    children.run_main(main, "every player's match is stored; run the same command to resume")
