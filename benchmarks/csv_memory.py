"""Peak memory of ``fuzzeval evaluate --csv`` on a million rows: the table streams in chunks.

    python benchmarks/csv_memory.py [--rows 1000000] [--json]

A seeded table of --rows rows (an id, the tipping rule base's two inputs, a note) is
written to a temporary folder, and ``fuzzeval evaluate tipping --csv FILE -o OUT`` runs on
it in a fresh process; so does the same command on its first 1,000 rows, and
``python -c "import numpy"``, the baselines of the same run. Each figure is the process's
peak resident set (``ru_maxrss`` of that child, from os.wait4), in MB (10^6 bytes), with
the CPU seconds it used.

A plain table (no quotes, no blank lines) is graded in bulk; the same table with one
quoted cell goes through Python's csv reader and writer row by row, the baseline of the
speed in the same run.

Targets, printed as PASS or MISS: the --rows run peaks under TARGET_MB and uses at most
TARGET_S seconds of CPU (with a million rows); the extra memory over the 1,000-row run and
the row-by-row reader's time are shown beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

TARGET_MB = 200.0  # peak resident set of the --rows run, at most (1,000,000 rows)
TARGET_S = 4.0  # CPU seconds of the --rows run, at most (1,000,000 rows)
SMALL = 1_000  # rows of the baseline run


def write_table(path: Path, rows: int) -> None:
    """``rows`` seeded rows: id, quality and service in [0, 10] (some outside), a note."""
    rng = np.random.default_rng(27)
    quality = rng.uniform(-1.0, 11.0, rows).round(3)
    service = rng.uniform(-1.0, 11.0, rows).round(2)
    with path.open("w", encoding="utf-8") as f:
        f.write("id,quality,service,note\n")
        for start in range(0, rows, 100_000):
            stop = min(rows, start + 100_000)
            f.write("".join(f"{i},{q},{s},row {i}\n" for i, q, s in zip(
                range(start, stop), quality[start:stop].tolist(),
                service[start:stop].tolist(), strict=True)))


def peak_mb(argv: list[str], cwd: Path) -> tuple[float, float]:
    """Peak resident set (MB) and CPU seconds (user + system) of ``argv`` run to its end in
    a fresh process."""
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {proc.returncode}\n{err.decode()}")
    return usage.ru_maxrss * 1024 / 1e6, usage.ru_utime + usage.ru_stime  # maxrss: KB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the big table")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.rows < SMALL:
        parser.error(f"--rows must be at least {SMALL}")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)  # the commands run here: fuzzeval is the installed one
        big, small = folder / "big.csv", folder / "small.csv"
        print(f"writing {args.rows:,} rows ...", file=sys.stderr, flush=True)
        write_table(big, args.rows)
        small.write_text(_head(big, SMALL + 1))
        quoted = folder / "quoted.csv"  # one quoted cell: read row by row
        with big.open(encoding="utf-8") as src, quoted.open("w", encoding="utf-8") as dst:
            dst.write(next(src) + next(src).replace("row 0", '"row 0"'))
            for line in src:
                dst.write(line)
        evaluate = [sys.executable, "-m", "fuzzeval", "evaluate", "tipping", "--csv"]
        numpy_mb, numpy_s = peak_mb([sys.executable, "-c", "import numpy"], folder)
        print(f"evaluate --csv, {SMALL:,} rows ...", file=sys.stderr, flush=True)
        small_mb, small_s = peak_mb([*evaluate, str(small), "-o", str(folder / "small_out.csv")],
                           folder)
        print(f"evaluate --csv, {args.rows:,} rows ...", file=sys.stderr, flush=True)
        big_mb, big_s = peak_mb([*evaluate, str(big), "-o", str(folder / "big_out.csv")], folder)
        print(f"evaluate --csv, {args.rows:,} rows, one cell quoted ...", file=sys.stderr,
              flush=True)
        row_mb, row_s = peak_mb([*evaluate, str(quoted), "-o", str(folder / "q_out.csv")],
                                folder)
        megabytes = big.stat().st_size / 1e6
    full = args.rows >= 1_000_000
    met = big_mb < TARGET_MB if full else None
    fast = big_s <= TARGET_S if full else None
    if args.json:
        print(json.dumps({
            "settings": {"rows": args.rows, "small_rows": SMALL, "target_mb": TARGET_MB,
                         "target_s": TARGET_S},
            "csv_mb": megabytes,
            "peak_mb": {"import numpy": numpy_mb, f"{SMALL} rows": small_mb,
                        f"{args.rows} rows": big_mb, "one cell quoted": row_mb},
            "cpu_s": {"import numpy": numpy_s, f"{SMALL} rows": small_s,
                      f"{args.rows} rows": big_s, "one cell quoted": row_s},
            "extra_over_small_mb": big_mb - small_mb,
            "ratio_to_small": big_mb / small_mb,
            "pass": met, "pass_cpu": fast,
        }, indent=2))
        return
    print("peak resident set of a fresh process (MB), this run")
    print(f"{'command':<46}{'peak MB':>9}{'ratio':>8}{'CPU s':>8}")
    print("-" * 71)
    numpy_label = 'python -c "import numpy"'
    small_label = f"evaluate tipping --csv ({SMALL:,} rows)"
    print(f"{numpy_label:<46}{numpy_mb:>9.1f}{'':>8}{numpy_s:>8.2f}")
    print(f"{small_label:<46}{small_mb:>9.1f}{1.0:>8.2f}{small_s:>8.2f}")
    label = f"evaluate tipping --csv ({args.rows:,} rows, {megabytes:.0f} MB)"
    print(f"{label:<46}{big_mb:>9.1f}{big_mb / small_mb:>8.2f}{big_s:>8.2f}")
    row_label = "  the same, one cell quoted (row by row)"
    print(f"{row_label:<46}{row_mb:>9.1f}{row_mb / small_mb:>8.2f}{row_s:>8.2f}")
    verdict = "" if met is None else ("PASS" if met else "MISS")
    print(f"{args.rows:,} rows: {big_mb - small_mb:+.1f} MB over {SMALL:,} rows; target "
          f"< {TARGET_MB:g} MB at 1,000,000 rows  {verdict}")
    verdict = "" if fast is None else ("PASS" if fast else "MISS")
    print(f"{args.rows:,} rows: {big_s:.2f} CPU s, {row_s / big_s:.1f}x less than row by "
          f"row; target <= {TARGET_S:g} s at 1,000,000 rows  {verdict}")


def _head(path: Path, lines: int) -> str:
    with path.open(encoding="utf-8") as f:
        return "".join(next(f) for _ in range(lines))


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if str(Path(__file__).resolve().parents[1]) not in sys.path:  # run as a script
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.children import run_main

    run_main(main)
