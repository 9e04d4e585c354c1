"""Start-up cost of the command line: CPU seconds (user + system) of fresh processes.

    python benchmarks/startup.py [--runs 9] [--python PYTHON] [--before PYTHON] [--json]

Each command runs --runs times in a new process (after one untimed run that writes the
bytecode caches, as installing a package does: PYTHONDONTWRITEBYTECODE is dropped from the
runs' environment), the commands interleaved so that a change in the machine's load falls
on all of them alike; the figure is the median of the CPU time the process and its threads
used (resource.getrusage(RUSAGE_CHILDREN) before and after each run), not wall time, which
a busy machine stretches:

- ``python -c pass`` and ``python -c "import numpy"``: the interpreter alone and numpy's own
  import, the baselines measured in the same run;
- ``fuzzeval --help``: the command line's start-up (every command group is built);
- ``fuzzeval cribbage discard 5H 5S JD QC 4S 9C``: one hand advised by the default
  (exhaustive) player, start-up plus the work.

``fuzzeval`` is the script installed next to the interpreter (``python -m fuzzeval`` where
there is none). --before PYTHON also runs the two fuzzeval commands with another
interpreter, one whose environment has an older fuzzeval installed (e.g. the main branch's
checkout), interleaved with this one's, and checks that both print the same output.

Target: each fuzzeval command under 0.3 s of CPU; printed as PASS or MISS.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TARGET = 0.3  # CPU seconds, each fuzzeval command
HAND = ("5H", "5S", "JD", "QC", "4S", "9C")
# an installed package has its bytecode compiled; without the cache every run compiles
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Command:
    label: str
    argv: list[str]
    target: float | None
    seconds: list[float] = field(default_factory=list)
    output: bytes = b""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def to_dict(self) -> dict[str, Any]:
        return {"command": self.label, "argv": self.argv, "cpu_s_median": self.median,
                "cpu_s_min": min(self.seconds), "cpu_s_max": max(self.seconds),
                "cpu_s_runs": self.seconds, "target_s": self.target,
                "pass": None if self.target is None else self.median < self.target}


def fuzzeval_argv(python: str) -> list[str]:
    """The installed ``fuzzeval`` script beside ``python``, else ``python -m fuzzeval``."""
    script = Path(python).parent / "fuzzeval"
    return [str(script)] if script.is_file() else [python, "-m", "fuzzeval"]


def fuzzeval_commands(python: str) -> list[Command]:
    cli = fuzzeval_argv(python)
    return [Command("fuzzeval --help", [*cli, "--help"], TARGET),
            Command(f"fuzzeval cribbage discard {' '.join(HAND)}",
                    [*cli, "cribbage", "discard", *HAND], TARGET)]


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
    for _ in range(runs):
        for command in commands:
            command.seconds.append(cpu_seconds(command.argv)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="timed runs of each command")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter whose fuzzeval is measured (default: this one)")
    parser.add_argument("--before", metavar="PYTHON",
                        help="also measure the fuzzeval installed for this interpreter")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    baselines = [Command("python -c pass", [args.python, "-c", "pass"], None),
                 Command('python -c "import numpy"', [args.python, "-c", "import numpy"], None)]
    ours = fuzzeval_commands(args.python)
    before = fuzzeval_commands(args.before) if args.before else []
    load = os.getloadavg()[0]
    measure([*baselines, *ours, *before], args.runs)
    load = max(load, os.getloadavg()[0])
    same = all(a.output == b.output for a, b in zip(ours, before, strict=False)) if before \
        else None

    if args.json:
        print(json.dumps({
            "settings": {"runs": args.runs, "python": args.python, "before": args.before,
                         "target_s": TARGET},
            "machine": {"cpus": os.cpu_count(), "max_load_average_1min": load},
            "results": [c.to_dict() for c in (*baselines, *ours)],
            "before": [c.to_dict() for c in before],
            "same_output_as_before": same,
        }, indent=2))
        return

    print(f"CPU seconds (user + system) of a fresh process, median of {args.runs} runs; "
          f"{os.cpu_count()} CPUs,")
    print(f"load average up to {load:.1f} during the runs")
    head = f"{'command':<46}{'before':>7}{'median':>8}{'min':>7}{'target':>7}"
    print(head)
    print("-" * (len(head) + 5))
    for i, c in enumerate((*baselines, *ours)):
        was = f"{before[i - len(baselines)].median:.3f}" if before and c.target else ""
        verdict = "" if c.target is None else \
            f"{c.target:>7.2f} {'PASS' if c.median < c.target else 'MISS'}"
        print(f"{c.label:<46}{was:>7}{c.median:>8.3f}{min(c.seconds):>7.3f}{verdict}")
    if before:
        print(f"before: {args.before}; the same output: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
