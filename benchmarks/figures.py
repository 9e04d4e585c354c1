"""Every figure in docs/figures/ and every measured table of the docs, made by one entry each.

    python -m benchmarks.figures --list               # what makes what, and what it costs
    python -m benchmarks.figures                      # re-make every figure
    python -m benchmarks.figures --only cribbage_drift[,...]   # these entries (figures or tables)

An entry is the commands, run in order from the repository root, that write a figure into
docs/figures/ or print a table that a docs page copies; each page names the entry beside
what it shows (a test checks that every picture in docs/ has an entry naming its page, and
that every command here parses). A figure cannot go stale without its entry being wrong:
re-make it after a change with its one command. Scratch databases go to runs/figures/,
removed before an entry runs, so a figure never mixes an old run with a new one.
"""

from __future__ import annotations

import argparse
import itertools
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the root on the path, for benchmarks.*
    sys.path.insert(0, str(ROOT))

from benchmarks import children  # noqa: E402

SCRATCH = "runs/figures"


@dataclass(frozen=True)
class Entry:
    """What makes one figure (``output`` in docs/figures/) or one table (printed)."""

    name: str
    docs: tuple[str, ...]  # the pages that show it (and name this entry)
    commands: tuple[str, ...]
    cost: str  # about how long it took on two cores shared with other work
    output: str | None = None  # the figure written; None for a table

    @property
    def kind(self) -> str:
        return "figure" if self.output else "table"

    def scratch(self) -> list[Path]:
        """The databases its commands write (after --db), removed before it runs."""
        found = []
        for command in self.commands:
            words = shlex.split(command)
            found += [ROOT / w for before, w in itertools.pairwise(words)
                      if before == "--db"]
        return found


def _calibrate(game: str, rulebase: str, rounds: int, games: int, db: str,
               plot: str | None = None) -> str:
    return (f"fuzzeval calibrate {game} --rulebase {rulebase} --rounds {rounds} "
            f"--games-per-round {games} --seed 1 --db {SCRATCH}/{db}.sqlite"
            + (f" --plot {plot}" if plot else ""))


def _match(player: str, opponent: str, *extra: str) -> str:
    return " ".join(["fuzzeval match cribbage -p", player, "--opponent", opponent,
                     "-n 1000 --seed 1", *extra, f"--db {SCRATCH}/whole_games.sqlite"])


FIG5 = [("backgammon_simple", 100), ("backgammon_simple", 1000),
        ("backgammon_handwritten", 100), ("backgammon_handwritten", 1000)]

ENTRIES: tuple[Entry, ...] = (
    Entry("es_experiments", ("docs/results.md",),
          ("python -m fuzzeval.games.cribbage.scripts.es_experiments "
           "--out docs/figures/es_experiments.png",),
          "20 s; also prints the p sweep", "docs/figures/es_experiments.png"),
    Entry("cribbage_linguistic_drift", ("docs/cribbage.md",),
          (f"fuzzeval calibrate cribbage --db {SCRATCH}/cribbage_linguistic.sqlite "
           "--plot docs/figures/cribbage_linguistic_drift.png",),
          "2 min; also prints the held-out table", "docs/figures/cribbage_linguistic_drift.png"),
    Entry("cribbage_drift", ("docs/results.md",),
          (_calibrate("cribbage", "cribbage_expected_points", 20, 100, "cribbage_drift",
                      "docs/figures/cribbage_drift.png"),),
          "4 min", "docs/figures/cribbage_drift.png"),
    Entry("cribbage_beginner_drift", ("docs/results.md",),
          (_calibrate("cribbage", "cribbage_expected_points_beginner", 20, 100,
                      "cribbage_beginner_drift", "docs/figures/cribbage_beginner_drift.png"),),
          "4 min", "docs/figures/cribbage_beginner_drift.png"),
    Entry("backgammon_refined_drift", ("docs/results.md",),
          (_calibrate("backgammon", "backgammon_refined", 5, 1000, "backgammon_refined",
                      "docs/figures/backgammon_refined_drift.png"),),
          "3 min", "docs/figures/backgammon_refined_drift.png"),
    Entry("backgammon_fig5", ("docs/results.md",),
          (*(_calibrate("backgammon", rb, 10, n, f"fig5_{rb}_{n}") for rb, n in FIG5),
           "fuzzeval plot curve " + " ".join(f"{SCRATCH}/fig5_{rb}_{n}.sqlite"
                                             for rb, n in FIG5)
           + " -o docs/figures/backgammon_fig5.png"),
          "11 min", "docs/figures/backgammon_fig5.png"),
    Entry("peers", ("docs/benchmarks.md",),
          (".bench-venv/bin/python benchmarks/peers.py --plot docs/figures/peers.png",),
          "est. 30 min; needs .bench-venv (docs/benchmarks.md)", "docs/figures/peers.png"),
    Entry("cribbage_players", ("docs/results.md",),
          ("python benchmarks/cribbage_players.py --deals 10000 --games 4000 --seed 2",),
          "13 min"),
    Entry("whole_games", ("docs/results.md",),
          (_match("exhaustive", "random"), _match("greedy", "random"),
           _match("random", "random"), _match("exhaustive", "greedy"),
           _match("exhaustive", "greedy", "--option peg_counts=false"),
           _match("exhaustive:weights=expert", "exhaustive"),
           _match("exhaustive:pegging=basic", "exhaustive")),
          "9 min"),
    Entry("calibration_expected_points", ("docs/results.md",),
          (*(_calibrate("cribbage", rb, 20, 100, rb)
             for rb in ("cribbage_expected_points", "cribbage_expected_points_beginner")),
           *(f"fuzzeval evaluate-calibration {SCRATCH}/{rb}.sqlite --games 4000 "
             "--held-out-deals 10000"
             for rb in ("cribbage_expected_points", "cribbage_expected_points_beginner"))),
          "est. 20 min"),
    Entry("sampling_games", ("docs/results.md",),
          ("fuzzeval match cribbage -p sampling --opponent exhaustive -n 4000 --seed 1 "
           f"--db {SCRATCH}/sampling.sqlite",
           "fuzzeval match cribbage -p sampling:stop=paired --opponent exhaustive -n 2000 "
           f"--seed 1 --db {SCRATCH}/sampling.sqlite"),
          "45 min (29 + 16)"),
    Entry("backgammon_pubeval", ("docs/results.md",),
          tuple(f"fuzzeval match backgammon -p fuzzy:rulebase={rb} --games 10000 --seed 1 "
                f"--db {SCRATCH}/backgammon_pubeval.sqlite"
                for rb in ("backgammon_simple", "backgammon_handwritten",
                           "backgammon_refined")),
          "est. 20 min"),
    Entry("hearts_td", ("docs/learning.md",),
          ("fuzzeval learn hearts -n 200000 --order 2 --alpha 0.3 --opponent heuristic "
           "--split leading -w 1 "
           "--block 1000 --measure-every 20 --measure-games 400 "
           f"--db {SCRATCH}/hearts_td.sqlite -o rulebases/hearts_td.yaml "
           "--plot docs/figures/hearts_td_curve.png",),
          "17 min on one busy core", "docs/figures/hearts_td_curve.png"),
    Entry("backgammon_td", ("docs/learning.md",),
          ("fuzzeval learn backgammon -n 200000 --order 2 --split Contact --group-features "
           "Contact=no:PipCount,OpponentPipCount,BorneOff,OpponentBorneOff --single-features "
           "'Their*' --alpha 0.1 --update 2 -w 2 --block 1000 --measure-every 20 "
           "--measure-games 500 --measure-opponent pubeval --average 20 "
           f"--db {SCRATCH}/backgammon_td.sqlite -o rulebases/backgammon_td.yaml "
           "--plot docs/figures/backgammon_td_curve.png",),
          "43 min on two cores", "docs/figures/backgammon_td_curve.png"),
    Entry("learned_players", ("docs/learning.md",),
          ("python benchmarks/hearts_players.py --only heuristic-heuristic,td-heuristic,"
           "td-ismcts,samplingtd1-heuristic,samplingtd-ismcts",
           "python benchmarks/hearts_players.py --only samplingtd-heuristic "
           "--sampling-deals 2000",
           "python benchmarks/backgammon_paired.py --a fuzzy:rulebase=backgammon_td "
           "--b fuzzy:rulebase=backgammon_td,lookahead=1 --games 10000 --workers 2 --luck "
           f"--db-dir {SCRATCH}/backgammon_paired"),
          "about 3 h on two cores"),
    Entry("studio", ("docs/studio.md",),
          ("python benchmarks/studio.py --figures docs/figures/studio",),
          "20 s: the studio's browser tests, a screenshot each", "docs/figures/studio"),
)


def entry_command(name: str) -> str:
    """How a docs page names an entry."""
    return f"python -m benchmarks.figures --only {name}"


def argv_of(command: str) -> list[str]:
    """A command as run: ``fuzzeval`` and ``python`` are this interpreter's."""
    words = shlex.split(command)
    if words[0] == "fuzzeval":
        return [sys.executable, "-m", "fuzzeval", *words[1:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    return words


def listing(entries: Sequence[Entry]) -> str:
    """Each entry: its name, kind, pages and cost, then its commands."""
    lines = []
    for e in entries:
        lines.append(f"{e.name} ({e.kind}, {e.cost}): {', '.join(e.docs)}")
        if e.output:
            lines.append(f"  writes {e.output}")
        lines += [f"  $ {c}" for c in e.commands]
    return "\n".join(lines)


def run(entry: Entry) -> int:
    """Run an entry's commands in order (each one's output shown as it comes); the exit
    status of the first that fails, else 0."""
    for db in entry.scratch():
        for old in (db, db.with_name(db.stem + ".calibrated.yaml")):
            old.unlink(missing_ok=True)
        db.parent.mkdir(parents=True, exist_ok=True)
    for k, command in enumerate(entry.commands, 1):
        print(f"[{entry.name} {k}/{len(entry.commands)}] $ {command}", flush=True)
        start = time.perf_counter()
        try:
            status = children.run(argv_of(command), cwd=ROOT).returncode
        except FileNotFoundError as e:
            print(f"error: {entry.name}: {e.filename}: not found ({entry.cost})",
                  file=sys.stderr, flush=True)
            return 1
        print(f"[{entry.name} {k}/{len(entry.commands)}] {time.perf_counter() - start:.0f} s"
              f"{'' if status == 0 else f', exit status {status}'}", flush=True)
        if status != 0:
            return status
    return 0


def pick(only: str | None, entries: Sequence[Entry] = ENTRIES) -> list[Entry]:
    """--only NAME[,NAME...] (in the order given), or every figure; an unknown name is a
    ValueError naming the entries."""
    if only is None:
        return [e for e in entries if e.output]
    by_name = {e.name: e for e in entries}
    names = [n.strip() for n in only.split(",") if n.strip()]
    unknown = [n for n in names if n not in by_name]
    if unknown or not names:
        raise ValueError(f"--only {only}: no entry {', '.join(unknown) or '(empty)'}; "
                         f"the entries are {', '.join(by_name)}")
    return [by_name[n] for n in names]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--list", action="store_true", help="show every entry and stop")
    parser.add_argument("--only", metavar="NAME[,NAME...]",
                        help="run these entries (figures or tables); default: every figure")
    args = parser.parse_args(argv)
    if args.list:
        print(listing(ENTRIES))
        return 0
    try:
        chosen = pick(args.only)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    failed = [e.name for e in chosen if run(e) != 0]
    if failed:
        print(f"error: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    children.run_main(main, "the entries that finished have made their figures; the same "
                            "command makes every entry it names again, from its start")
