"""The preflop strength of the 169 classes of two hole cards: the showdown equity against
any two cards, from a million sampled (board, holding) pairs each (standard error at most
0.0005), written to games/holdem/data/preflop_equity.json, which the ``strength`` feature
reads preflop.

    python -m fuzzeval.games.holdem.scripts.preflop_table [--pairs 1000000] [--seed 169]

A class is its ranks and whether they are suited (``AKs``, ``AKo``, ``AA``); each is
estimated from one holding standing for it (``features.preflop_class``), with the seed
``seed * 1000 + its index``. About 20 s of CPU.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from fuzzeval.games.holdem.cards import RANKS
from fuzzeval.games.holdem.strength import equity_estimate

OUT = Path(__file__).resolve().parent.parent / "data" / "preflop_equity.json"


def classes() -> list[tuple[str, tuple[int, int]]]:
    """Every class, strongest ranks first, with the holding that stands for it: the
    higher rank in clubs, the other in clubs if suited, else in diamonds."""
    out = []
    for high in range(12, -1, -1):
        for low in range(high, -1, -1):
            if high == low:
                out.append((RANKS[high] * 2, (4 * high, 4 * low + 1)))
            else:
                out.append((RANKS[high] + RANKS[low] + "s", (4 * high, 4 * low)))
                out.append((RANKS[high] + RANKS[low] + "o", (4 * high, 4 * low + 1)))
    return out


def table(pairs: int, seed: int) -> dict[str, float]:
    return {name: round(equity_estimate(hole, (), pairs, seed * 1000 + i), 6)
            for i, (name, hole) in enumerate(classes())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=169)
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    equities = table(args.pairs, args.seed)
    args.output.write_text(json.dumps(
        {"about": "showdown equity of each preflop class against any two cards "
                  "(games/holdem/scripts/preflop_table.py)",
         "pairs": args.pairs, "seed": args.seed, "equity": equities}, indent=1) + "\n")
    print(f"{len(equities)} classes, {args.pairs:,} pairs each: {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
