"""Hearts players against three copies of an opponent, duplicate, in points per hand.

    nice -n 10 python benchmarks/hearts_players.py [--deals 2000] [--sampling-deals 500]
        [--ismcts-deals 500] [--sampling-ismcts-deals 500]
        [--trials 10] [--simulations 200] [--workers 2] [--only KEYS]

Each row is one ``fuzzeval match hearts -p PLAYER --opponent OPPONENT --duplicate``
(``--deals`` x 4 games, every deal played with the player under test in each seat), stored
in ``runs/hearts_players/KEY.sqlite`` and resumed when run again, so rows may be played
by separate runs (``--only``) and the table printed at the end by one more. Rows: random
against heuristic (the cheap reference), heuristic against itself (an even player:
6.5 points a hand and 13 more a moon shot), ``sampling`` against heuristic, and heuristic,
``sampling`` and ``fuzzy`` (when the game has it) against OpenSpiel's ISMCTS, all on the
same seeded deals (a row of fewer deals plays the first of them); sampling and ISMCTS
rows play fewer deals (they are slow). Where the learned base ``hearts_td`` is shipped,
``td`` and ``sampling`` with ``td`` playouts against heuristic and ISMCTS
too, its playouts to the end of the hand, and against heuristic also stopped at the seat's
next decision and valued there by ``td`` (``horizon=1``, Sturtevant & White's search to the end of
the trick), and with ``td`` playing only its own seat in the playouts and ``heuristic``
the three others (``others=heuristic``: the table as it is); and ``maxn`` on the learned
values of positions, with one deal of the hidden cards (no Monte-Carlo, ``--deals``) and
with 20 (``--sampling-deals``) against heuristic, with 20 against ISMCTS
(``--sampling-ismcts-deals``), and with 20 against three ``sampling(td/heur)``, heuristic
in the same seat there too (``--sampling-deals``). Prints the mean points per
hand of the player under test with its 95 % interval (over duplicate blocks).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import children
from fuzzeval.games.hearts.game import GAME
from fuzzeval.play.store import History
from fuzzeval.resources import rulebase_dir
from fuzzeval.stats import mean_interval


def rows(args: argparse.Namespace) -> list[tuple[str, str, str, int]]:
    """(key, player, opponent, deals) for each row."""
    sampling = f"sampling:trials={args.trials}"
    ismcts = f"ismcts:simulations={args.simulations}"
    out = [("heuristic-heuristic", "heuristic", "heuristic", args.deals),
           ("random-heuristic", "random", "heuristic", args.deals),
           ("sampling-heuristic", sampling, "heuristic", args.sampling_deals),
           ("heuristic-ismcts", "heuristic", ismcts, args.ismcts_deals),
           ("sampling-ismcts", sampling, ismcts, args.sampling_ismcts_deals)]
    if "fuzzy" in GAME.player_names:
        out.insert(3, ("fuzzy-heuristic", "fuzzy", "heuristic", args.deals))
        out.append(("fuzzy-ismcts", "fuzzy", ismcts, args.ismcts_deals))
    if (rulebase_dir() / "hearts_td.yaml").is_file():  # the learned base
        out.insert(4, ("td-heuristic", "td", "heuristic", args.deals))
        out.insert(5, ("samplingtd-heuristic", f"{sampling},rollout=td", "heuristic",
                       args.sampling_deals))
        out.insert(6, ("samplingtd1-heuristic", f"{sampling},rollout=td,horizon=1",
                       "heuristic", args.sampling_deals))
        out.insert(7, ("samplingtdh-heuristic", f"{sampling},rollout=td,others=heuristic",
                       "heuristic", args.sampling_deals))
        out.append(("td-ismcts", "td", ismcts, args.ismcts_deals))
        out.append(("samplingtd-ismcts", f"{sampling},rollout=td", ismcts,
                    args.sampling_ismcts_deals))
        # Sturtevant & White's player against the Monte-Carlo player on td, and heuristic
        # in the same seat
        out.append(("maxnvalues-samplingtdh", "maxn:values=learned",
                    f"{sampling},rollout=td,others=heuristic", args.sampling_deals))
        out.append(("heuristic-samplingtdh", "heuristic",
                    f"{sampling},rollout=td,others=heuristic", args.sampling_deals))
    # the search to the end of the trick on learned values of positions: one deal of the
    # hidden cards (no Monte-Carlo), and Sturtevant & White's 20
    out.append(("maxnvalues1-heuristic", "maxn:deals=1,values=learned", "heuristic",
                args.deals))
    out.append(("maxnvalues-heuristic", "maxn:values=learned", "heuristic",
                args.sampling_deals))
    out.append(("maxnvalues-ismcts", "maxn:values=learned", ismcts,
                args.sampling_ismcts_deals))
    return out


def shown(player: str, trials: int) -> str:
    """A row's player as the table names it (the trials are in the table's heading)."""
    sampling = f"sampling:trials={trials}"
    return {f"{sampling},rollout=td,horizon=1": "sampling(td, 1)",
            f"{sampling},rollout=td,others=heuristic": "sampling(td/heur)",
            f"{sampling},rollout=td": "sampling(td)", sampling: "sampling",
            "maxn:deals=1,values=learned": "maxn(values, 1)",
            "maxn:values=learned": "maxn(values)"}.get(player, player)


def play(key: str, player: str, opponent: str, deals: int,
         args: argparse.Namespace) -> dict[str, Any]:
    """One stored, resumable duplicate match through the CLI; its --json summary."""
    args.db_dir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "fuzzeval", "match", "hearts", "-p", player, "--opponent",
           opponent, "--duplicate", "-n", str(4 * deals), "-w", str(args.workers),
           "--seed", str(args.seed), "--db", str(args.db_dir / f"{key}.sqlite"), "--json"]
    print(f"{key}: {' '.join(cmd[2:])}", file=sys.stderr, flush=True)
    start = time.perf_counter()
    match = children.start(cmd, stdout=subprocess.PIPE, text=True)
    out, _ = children.wait(match)  # stopped, the match is stopped too and saves
    if match.returncode:
        raise SystemExit(f"error: {key}: fuzzeval match exited {match.returncode}")
    summary: dict[str, Any] = json.loads(out)
    summary["seconds"] = time.perf_counter() - start
    return summary


def per_deal(db: Path) -> npt.NDArray[np.float64]:
    """The player under test's mean points over each deal's four games (the stored
    match's blocks, in order)."""
    with History(db) as history:
        match = history.matches()["id"].iloc[0]
        paid = [o.payoffs[0] for o in history.outcomes(int(match))]
    blocks = len(paid) // 4
    out: npt.NDArray[np.float64] = np.asarray(paid[:4 * blocks], dtype=float).reshape(
        blocks, 4).mean(axis=1)
    return out


def paired(a: Path, b: Path) -> tuple[int, float, float]:
    """Deals both rows played, and the mean difference a - b over them with its 95 %
    half-width: the same deals, so the card luck they share cancels."""
    return difference(per_deal(a), per_deal(b))


def difference(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]
               ) -> tuple[int, float, float]:
    """Over the deals both played (the first of each), the mean of x - y and its 95 %
    half-width (as every match's interval: Student's t below 30 deals); with fewer than
    two deals there is no spread to measure: nan."""
    n = min(len(x), len(y))
    d = (x[:n] - y[:n]).tolist()
    if n < 2:
        return n, d[0] if d else math.nan, math.nan
    lo, hi = mean_interval(d)
    return n, math.fsum(d) / n, (hi - lo) / 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000, help="deals of the fast rows")
    ap.add_argument("--sampling-deals", type=int, default=500)
    ap.add_argument("--ismcts-deals", type=int, default=500)
    ap.add_argument("--sampling-ismcts-deals", type=int, default=500)
    ap.add_argument("--trials", type=int, default=10, help="sampling's trials a decision")
    ap.add_argument("--simulations", type=int, default=200, help="ISMCTS simulations")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--db-dir", type=Path, default=Path("runs/hearts_players"))
    ap.add_argument("--only", default="", help="comma-separated row keys to play")
    args = ap.parse_args()
    wanted = {k for k in args.only.split(",") if k}
    table = [r for r in rows(args) if not wanted or r[0] in wanted]
    if wanted - {r[0] for r in table}:
        known = ", ".join(r[0] for r in rows(args))
        raise SystemExit(f"error: --only {args.only!r}: rows are {known}")
    results = [(r, play(*r, args)) for r in table]
    print(f"\nHearts, 1 player against 3 copies, duplicate (seed {args.seed}); points "
          "per hand,\nfewer is better, 95 % interval over deals; even: 6.5, 13 more a "
          f"moon shot;\nsampling: trials={args.trials}; sampling(td): with td playing its "
          "playouts;\nsampling(td, 1): the playouts stopped at the next decision, valued "
          "by td;\nsampling(td/heur): td plays its own seat in the playouts, heuristic "
          "the others;\nmaxn(values): maxn on the learned values of positions, 20 deals "
          "(1: one deal)\n")
    print(f"| {'player':<18} | {'opponent':<22} | {'deals':>5} | {'mean':>5} | "
          f"{'95 % interval':<14} |")
    print(f"|{'-' * 20}|{'-' * 24}|{'-' * 7}|{'-' * 7}|{'-' * 16}|")
    for (_, player, opponent, _), s in results:
        lo, hi = s["ci95"]
        deals = int(s["games"]) // 4
        name, against = shown(player, args.trials), shown(opponent, args.trials)
        print(f"| {name:<18} | {against:<22} | {deals:>5} | {s['mean']:>5.2f} | "
              f"{f'{lo:.2f} - {hi:.2f}':<14} |")
    keys = {r[0] for r, _ in results}
    print()
    for a, b, against in (("td-heuristic", "heuristic-heuristic", "heuristic"),
                          ("fuzzy-heuristic", "heuristic-heuristic", "heuristic"),
                          ("sampling-heuristic", "fuzzy-heuristic", "heuristic"),
                          ("samplingtd-heuristic", "td-heuristic", "heuristic"),
                          ("samplingtd1-heuristic", "td-heuristic", "heuristic"),
                          ("samplingtdh-heuristic", "td-heuristic", "heuristic"),
                          ("samplingtdh-heuristic", "sampling-heuristic", "heuristic"),
                          ("td-heuristic", "fuzzy-heuristic", "heuristic"),
                          ("td-ismcts", "heuristic-ismcts", "ISMCTS"),
                          ("samplingtd-ismcts", "td-ismcts", "ISMCTS"),
                          ("sampling-ismcts", "heuristic-ismcts", "ISMCTS"),
                          ("fuzzy-ismcts", "heuristic-ismcts", "ISMCTS"),
                          ("sampling-ismcts", "fuzzy-ismcts", "ISMCTS"),
                          ("maxnvalues1-heuristic", "heuristic-heuristic", "heuristic"),
                          ("maxnvalues-heuristic", "heuristic-heuristic", "heuristic"),
                          ("maxnvalues-ismcts", "heuristic-ismcts", "ISMCTS"),
                          ("maxnvalues-samplingtdh", "heuristic-samplingtdh",
                           "sampling(td/heur)")):
        if {a, b} <= keys:
            n, mean, half = paired(args.db_dir / f"{a}.sqlite", args.db_dir / f"{b}.sqlite")
            print(f"{a.split('-')[0]} - {b.split('-')[0]} against {against}, paired over "
                  f"{n} deals: {mean:+.2f} +- {half:.2f}")


if __name__ == "__main__":
    children.run_main(main, "every row's match is stored; run the same command to resume")
