"""Backgammon games per second on one core, in CPU time.

    python benchmarks/backgammon.py [--games 200] [--repeats 3] [--before DIR]

Plays the same seeded games for pubeval vs pubeval and fuzzy vs pubeval (backgammon_simple,
and the refined base with its 45 inputs and 159 rules), and, as the baseline measured in the
same run, random vs random (move generation and the game alone, no evaluation): the ratio
says what the evaluators cost. Each measurement is a fresh process (caches and compiled
kernels warmed by one game first) timed by ``time.process_time``: CPU seconds, not wall time,
so a machine shared with other work slows the figures less (it still does: caches and the
memory bus are shared); best of ``--repeats``.

``--before DIR`` measures an older checkout too (a directory holding its ``fuzzeval``
package, e.g. ``git worktree add DIR main`` or ``git archive main | tar -x -C DIR``), in the
same run, its repeats interleaved with these, and checks both played the same games.
Targets: >= 100 games/s refined fuzzy vs pubeval, >= 60 pubeval vs pubeval,
>= 40 simple fuzzy vs pubeval.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MATCHES = (("random", "random", None), ("pubeval", "pubeval", 60.0),
           ("fuzzy:rulebase=backgammon_simple", "pubeval", 40.0),
           ("fuzzy:rulebase=backgammon_refined", "pubeval", 100.0))


def measure(player: str, opponent: str, games: int, seed: int) -> dict[str, object]:
    """CPU seconds for ``games`` seeded games (after one to warm up), and a digest of every
    decision and result."""
    from fuzzeval.games.backgammon.game import GAME
    from fuzzeval.play.match import MatchSpec, play_indexed
    from fuzzeval.play.spec import PlayerSpec

    spec = MatchSpec("backgammon", PlayerSpec.parse(player), PlayerSpec.parse(opponent),
                     games, seed)
    play_indexed(GAME, spec, 0)  # players built, kernels compiled or loaded, caches warm
    t0 = time.process_time()
    records = [play_indexed(GAME, spec, i) for i in range(games)]
    cpu = time.process_time() - t0
    digest = hashlib.sha256()
    for r in records:
        for d in r.decisions:
            digest.update(f"{d.seat} {d.record} {d.index} {d.choice}\n".encode())
        digest.update(f"{r.outcome.winner} {r.outcome.points} {r.moves}\n".encode())
    return {"cpu": cpu, "digest": digest.hexdigest()[:16]}


def run(tree: Path, player: str, opponent: str, games: int, seed: int) -> dict[str, object]:
    """``measure`` in a fresh process importing fuzzeval from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, __file__, "--child", player, opponent, str(games), str(seed)],
        env=env, check=True, capture_output=True, text=True, cwd=tree).stdout
    result: dict[str, object] = json.loads(out.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", type=Path, help="an older checkout to measure too")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        player, opponent, games, seed = args.child
        print(json.dumps(measure(player, opponent, int(games), int(seed))))
        return
    trees = ({"before": args.before.resolve()} if args.before else {}) | {"after": ROOT}
    print(f"one core, CPU time (time.process_time), best of {args.repeats}, "
          f"{args.games} games each, seed {args.seed}")
    head = "".join(f"{name + ' g/s':>13}" for name in trees)
    print(f"{'match':<44}{head}{'speed-up' if args.before else '':>10}  target")
    rates: dict[str, dict[str, float]] = {}
    ok = True
    for player, opponent, target in MATCHES:
        best = dict.fromkeys(trees, float("inf"))
        digests: dict[str, set[object]] = {name: set() for name in trees}
        for _ in range(args.repeats):
            for name, tree in trees.items():  # interleaved: before, after, before, ...
                got = run(tree, player, opponent, args.games, args.seed)
                best[name] = min(best[name], float(str(got["cpu"])))
                digests[name].add(got["digest"])
        rate = {name: args.games / cpu for name, cpu in best.items()}
        rates[player] = rate
        same = len(set().union(*digests.values())) == 1
        line = f"{player + ' vs ' + opponent:<44}" + "".join(f"{rate[n]:>13.1f}" for n in trees)
        if args.before:
            line += f"{rate['after'] / rate['before']:>9.2f}x"
        else:
            line += " " * 10
        if target is not None:
            hit = rate["after"] >= target
            ok &= hit
            line += f"  >= {target:.0f} {'PASS' if hit else 'MISS'}"
        print(line + ("" if same else "  GAMES DIFFER"), flush=True)
        ok &= same
    base = rates["random"]["after"]
    print("time a game, after, as a multiple of random vs random's: " + ", ".join(
        f"{p.removeprefix('fuzzy:rulebase=')} {base / r['after']:.2f}"
        for p, r in rates.items() if p != "random"))
    print("all targets met, the same games" if ok else "some targets missed or games differ")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
