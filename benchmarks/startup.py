"""Start-up cost of the command line: CPU seconds (user + system) of fresh processes.

    python benchmarks/startup.py [--runs 9] [--hands 1000] [--python PYTHON]
                                 [--before PYTHON] [--json]

Each command runs --runs times in a new process (after one untimed run that writes the
bytecode caches, as installing a package does: PYTHONDONTWRITEBYTECODE is dropped from the
runs' environment), the commands interleaved so that a change in the machine's load falls
on all of them alike; the figure is the median of the CPU time the process and its threads
used (resource.getrusage(RUSAGE_CHILDREN) before and after each run), not wall time, which
a busy machine stretches:

- ``python -c pass`` and ``python -c "import numpy"``: the interpreter alone and numpy's own
  import, the baselines measured in the same run;
- ``fuzzeval --help``: the command line's start-up (every command group is built);
- ``fuzzeval cribbage discard 5H 5S JD QC 4S 9C --crib mine``: one hand advised by the default
  (exhaustive) player, start-up plus the work; the same with ``-p fuzzy``;
- ``fuzzeval cribbage discard --batch FILE --json``, with and without ``-p fuzzy``:
  --hands seeded random hands (one file, written to a temporary folder).

``fuzzeval`` is the script installed next to the interpreter (``python -m fuzzeval`` where
there is none). --before PYTHON also runs the fuzzeval commands with another interpreter,
one whose environment has an older fuzzeval installed (e.g. the main branch's checkout),
interleaved with this one's, and checks that both print the same output.

Targets, each printed as PASS or MISS: ``--help`` and the exhaustive one-hand
advice under 0.3 s of CPU; the fuzzy one-hand advice no dearer than the exhaustive one
(ratio <= 1); the fuzzy batch at most 1/5 of the exhaustive batch (ratio <= 0.2).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TARGET = 0.3  # CPU seconds: --help and the exhaustive one-hand advice
ONE_HAND_RATIO = 1.0  # fuzzy one hand / exhaustive one hand, at most
BATCH_RATIO = 0.2  # fuzzy batch / exhaustive batch, at most
HAND = ("5H", "5S", "JD", "QC", "4S", "9C")
# an installed package has its bytecode compiled; without the cache every run compiles
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Command:
    label: str
    argv: list[str]
    target: float | None = None  # CPU seconds, at most
    baseline: int | None = None  # index of the command whose CPU this one's is a ratio to
    ratio: float | None = None  # ... at most
    seconds: list[float] = field(default_factory=list)
    output: bytes = b""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def verdict(self, commands: list[Command]) -> tuple[str, bool | None]:
        """The target as text (with this run's ratio) and whether it is met."""
        if self.target is not None:
            return f"< {self.target:.2f} s", self.median < self.target
        if self.baseline is not None and self.ratio is not None:
            got = self.median / commands[self.baseline].median
            return f"{got:.2f} <= {self.ratio:.2f}x", got <= self.ratio
        return "", None

    def to_dict(self, commands: list[Command]) -> dict[str, Any]:
        target, met = self.verdict(commands)
        return {"command": self.label, "argv": self.argv, "cpu_s_median": self.median,
                "cpu_s_min": min(self.seconds), "cpu_s_max": max(self.seconds),
                "cpu_s_runs": self.seconds, "target": target or None, "pass": met,
                "ratio_to": None if self.baseline is None else commands[self.baseline].label,
                "ratio": None if self.baseline is None
                else self.median / commands[self.baseline].median}


def fuzzeval_argv(python: str) -> list[str]:
    """The installed ``fuzzeval`` script beside ``python``, else ``python -m fuzzeval``."""
    script = Path(python).parent / "fuzzeval"
    return [str(script)] if script.is_file() else [python, "-m", "fuzzeval"]


def fuzzeval_commands(python: str, batch: Path, hands: int) -> list[Command]:
    """The measured commands; ratios index this list."""
    discard = [*fuzzeval_argv(python), "cribbage", "discard"]
    many = [*discard, "--batch", str(batch), "--json", "--crib", "mine"]
    return [Command("fuzzeval --help", [*fuzzeval_argv(python), "--help"], TARGET),
            Command(f"discard {' '.join(HAND)}", [*discard, *HAND, "--crib", "mine"], TARGET),
            Command("  the same, -p fuzzy", [*discard, *HAND, "--crib", "mine", "-p", "fuzzy"],
                    baseline=1, ratio=ONE_HAND_RATIO),
            Command(f"discard --batch ({hands:,} hands) --json", many),
            Command("  the same, -p fuzzy", [*many, "-p", "fuzzy"],
                    baseline=3, ratio=BATCH_RATIO)]


def per_hand(commands: list[Command], hands: int) -> tuple[float, float]:
    """Seconds a hand adds (the batch less the one-hand advice, over the other hands):
    exhaustive, fuzzy."""
    def added(one: int, batch: int) -> float:
        return (commands[batch].median - commands[one].median) / max(hands - 1, 1)
    return added(1, 3), added(2, 4)


def write_hands(path: Path, hands: int) -> None:
    """``hands`` seeded random six-card hands, one a line."""
    rng = random.Random(25)
    deck = [r + s for r in "A23456789TJQK" for s in "CDHS"]
    path.write_text("".join(" ".join(rng.sample(deck, 6)) + "\n" for _ in range(hands)))


def cpu_seconds(argv: list[str]) -> tuple[float, bytes]:
    """CPU seconds (user + system, all threads) of one run of ``argv``, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, check=False, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}\n"
                         f"{done.stderr.decode(errors='replace')}")
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used, done.stdout


def measure(commands: list[Command], runs: int) -> None:
    for command in commands:  # untimed: compiles and caches bytecode, warms the disk cache
        _, command.output = cpu_seconds(command.argv)
    for i in range(runs):
        print(f"run {i + 1} of {runs}", file=sys.stderr, flush=True)
        for command in commands:
            command.seconds.append(cpu_seconds(command.argv)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="timed runs of each command")
    parser.add_argument("--hands", type=int, default=1000, help="hands in the batch file")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter whose fuzzeval is measured (default: this one)")
    parser.add_argument("--before", metavar="PYTHON",
                        help="also measure the fuzzeval installed for this interpreter")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.hands < 1:
        parser.error("--hands must be at least 1")

    with tempfile.TemporaryDirectory() as tmp:
        batch = Path(tmp) / "hands.txt"
        write_hands(batch, args.hands)
        baselines = [Command("python -c pass", [args.python, "-c", "pass"]),
                     Command('python -c "import numpy"', [args.python, "-c", "import numpy"])]
        ours = fuzzeval_commands(args.python, batch, args.hands)
        before = fuzzeval_commands(args.before, batch, args.hands) if args.before else []
        load = os.getloadavg()[0]
        measure([*baselines, *ours, *before], args.runs)
        load = max(load, os.getloadavg()[0])
    same = all(a.output == b.output for a, b in zip(ours, before, strict=True)) if before \
        else None

    if args.json:
        print(json.dumps({
            "settings": {"runs": args.runs, "hands": args.hands, "python": args.python,
                         "before": args.before, "target_s": TARGET,
                         "one_hand_ratio": ONE_HAND_RATIO, "batch_ratio": BATCH_RATIO},
            "machine": {"cpus": os.cpu_count(), "max_load_average_1min": load},
            "baselines": [c.to_dict(baselines) for c in baselines],
            "results": [c.to_dict(ours) for c in ours],
            "before": [c.to_dict(before) for c in before],
            "per_hand_s": dict(zip(("exhaustive", "fuzzy"), per_hand(ours, args.hands),
                                   strict=True)),
            "same_output_as_before": same,
        }, indent=2))
        return

    print(f"CPU seconds (user + system) of a fresh process, median of {args.runs} runs; "
          f"{os.cpu_count()} CPUs,")
    print(f"load average up to {load:.1f} during the runs; a ratio is to the exhaustive "
          "player's")
    print("same command in the same run")
    head = f"{'command':<38}{'before':>7}{'median':>7}{'min':>7}  {'target':<14}"
    print(head)
    print("-" * 79)
    for c in baselines:
        print(f"{c.label:<38}{'':>7}{c.median:>7.3f}{min(c.seconds):>7.3f}")
    for i, c in enumerate(ours):
        was = f"{before[i].median:.3f}" if before else ""
        target, met = c.verdict(ours)
        verdict = "" if met is None else ("PASS" if met else "MISS")
        print(f"{c.label:<38}{was:>7}{c.median:>7.3f}{min(c.seconds):>7.3f}  "
              f"{target:<14}{verdict}")
    exhaustive, fuzzy = per_hand(ours, args.hands)
    print(f"a hand's own cost (batch less one hand): exhaustive {exhaustive * 1e6:.0f} µs, "
          f"fuzzy {fuzzy * 1e6:.0f} µs ({fuzzy / exhaustive:.2f}x)")
    if before:
        was = ", ".join(c.verdict(before)[0].split(" <=")[0] for c in before if c.ratio)
        print(f"before: {args.before}; its ratios {was}")
        print(f"the same output before and after: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
