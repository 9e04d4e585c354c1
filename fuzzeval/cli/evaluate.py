"""``fuzzeval evaluate``: grade one input (optionally explained) or a CSV table of them."""

from __future__ import annotations

import csv
import math
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO

import typer
from rich.table import Table

from fuzzeval.cli.common import (
    JsonOpt,
    console,
    open_rulebase,
    print_json,
    resolve_rulebase,
    say_files,
    usage_error,
    user_errors,
)
from fuzzeval.cli.outputs import Input, Output, check_outputs
from fuzzeval.errors import NotFound

if TYPE_CHECKING:  # the engine is imported by the command that grades, not at start-up
    from fuzzeval.engine.evaluator import Evaluator, Explanation
    from fuzzeval.engine.membership import FloatArray

_usage = usage_error  # every bad value given here, typed or in the --csv table, exits 2
#: rows of a --csv table read, graded and written at a time (memory: a few MB a chunk)
CHUNK_ROWS = 10_000
#: a base of more rules than this is explained in summary: the hand-written bases have at
#: most 39 rules, each worth reading, while a learned one has thousands (backgammon_td's
#: 4,391, printed whole, ran to about 20,000 lines, most of its rules not firing)
FULL_UP_TO = 40
#: the rules, and a weighted sum's output terms, that a summary shows before the rest
TOP = 20


def _number(text: str, where: str) -> float:
    """A finite number or an infinity (clipped to the range later); never NaN."""
    try:
        value = float(text)
    except ValueError:
        if not text.strip():
            raise ValueError(f"{where} is empty; give a number") from None
        raise ValueError(f"{where}: {text!r} is not a number") from None
    if math.isnan(value):
        raise ValueError(f"{where}: NaN is not a value; give a number "
                         "(inf and -inf clip to the variable's range)")
    return value


def _parse_inputs(pairs: list[str], ev: Evaluator) -> dict[str, float]:
    """The --input values, one per input variable; anything else is a usage error (exit 2)."""
    values: dict[str, float] = {}
    given: dict[str, str] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise _usage(f"--input {pair!r}: write NAME=VALUE, e.g. --input "
                         f"{ev.input_names[0]}=3")
        if name in given:
            raise _usage(f"--input {name!r} given twice ({given[name]!r} and {pair!r}); "
                         "give each input once")
        given[name] = pair
        if not text.strip():
            raise _usage(f"--input {pair!r}: no value; write NAME=VALUE, e.g. "
                         f"--input {name}=3")
        try:
            values[name] = _number(text, f"--input {pair!r}")
        except ValueError as exc:
            raise _usage(str(exc)) from None
    missing = [n for n in ev.input_names if n not in values]
    unknown = [n for n in values if n not in ev.input_names]
    if missing or unknown:
        raise _usage(f"--input: inputs must be exactly {', '.join(ev.input_names)}"
                     + (f"; missing {', '.join(missing)}" if missing else "")
                     + (f"; unknown {', '.join(unknown)}" if unknown else ""))
    return values


def _bar(value: float, width: int = 20) -> str:
    filled = round(max(0.0, min(1.0, value)) * width)
    return "█" * filled + "·" * (width - filled)


def print_explanation(ev: Evaluator, exp: Explanation, *, full_up_to: int = FULL_UP_TO,
                      top: int = TOP) -> None:
    """The memberships, rules and output behind one grade, then the grade: every rule of a
    base of at most ``full_up_to`` rules, else a summary (``_print_summary``)."""
    rb = ev.rulebase
    if len(exp.rules) <= full_up_to:
        _print_full(ev, exp)
    else:
        _print_summary(ev, exp, top)
    how = rb.defuzzifier.replace("_", " ")
    if exp.fired:
        console.print(f"[bold]{rb.output.name} = {exp.grade:.6g}[/bold] ({how})")
    else:
        console.print(f"[bold]{rb.output.name} = {exp.grade:.6g}[/bold] "
                      "(no rule fired: the rule base's default)")


def _membership_table(title: str) -> Table:
    mem = Table(title=title, title_justify="left")
    for col in ("input", "value", "term", "membership", ""):
        mem.add_column(col, justify="right" if col in ("value", "membership") else "left")
    return mem


def _shown_value(exp: Explanation, name: str) -> str:
    shown = f"{exp.inputs[name]:g}"
    if name in exp.clipped:
        shown += f" → {exp.used[name]:g} (clipped)"
    return shown


def _rule_table(title: str, columns: tuple[str, ...]) -> Table:
    rules = Table(title=title, title_justify="left")
    for col in columns:
        rules.add_column(col, justify="left" if col in ("rule", "") else "right")
    return rules


def _sum_table(title: str) -> Table:
    """A weighted sum's output: each term's summed strength and what it adds."""
    act = Table(title=title, title_justify="left")
    for col in ("term", "value", "strengths", "adds"):
        act.add_column(col, justify="left" if col == "term" else "right")
    return act


def _print_full(ev: Evaluator, exp: Explanation) -> None:
    """Every input's every membership, every rule, every output term."""
    from fuzzeval.engine.output_sets import output_sets

    rb = ev.rulebase
    mem = _membership_table("memberships")
    for var in rb.inputs:
        shown = _shown_value(exp, var.name)
        for i, (term, mu) in enumerate(exp.memberships[var.name].items()):
            mem.add_row(var.name if i == 0 else "", shown if i == 0 else "", term,
                        f"{mu:.4f}", _bar(mu))
    console.print(mem)
    rules = _rule_table("rules", ("#", "rule", "weight", "strength", ""))
    for r in exp.rules:
        style = None if r.strength > 0 else "dim"
        rules.add_row(str(r.index + 1), r.text, f"{r.weight:g}", f"{r.strength:.4f}",
                      _bar(r.strength), style=style)
    console.print(rules)
    if rb.defuzzifier == "weighted_sum":  # the rules of a term add up, not their maximum
        sets = output_sets(rb, exp)
        act = _sum_table(f"output {rb.output.name}")
        for t in rb.output.terms:
            if sets.strength[t.name] > 0:
                act.add_row(t.name, f"{t.triangle.peak:g}", f"{sets.strength[t.name]:.4f}",
                            f"{sets.contribution[t.name]:+.4f}")
        console.print(act)
    else:
        _print_activations(ev, exp)


def _print_activations(ev: Evaluator, exp: Explanation) -> None:
    """Each output term's activation (the largest strength of its rules)."""
    rb = ev.rulebase
    act = Table(title=f"output {rb.output.name}", title_justify="left")
    for col in ("term", "peak", "activation", ""):
        act.add_column(col, justify="left" if col in ("term", "") else "right")
    for t in rb.output.terms:
        a = exp.activations[t.name]
        act.add_row(t.name, f"{t.triangle.peak:g}", f"{a:.4f}", _bar(a))
    console.print(act)


def _several(n: int, what: str) -> str:
    """``n`` and ``what``, plural unless one."""
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _print_summary(ev: Evaluator, exp: Explanation, top: int) -> None:
    """A large (learned) base, whose thousands of rules no one reads: the ``top`` fired
    rules that move the grade most, by the size of what they add (a centroid's grade is no
    sum: the strongest), the rest in one line; the memberships above 0 those rules read; a
    weighted sum's ``top`` output terms, the rest in one row. ``--explain --json`` has
    every number."""
    from fuzzeval.engine.output_sets import output_sets, rule_contributions
    from fuzzeval.engine.rulebase import conditions_used

    rb = ev.rulebase
    adds = rule_contributions(rb, exp)
    fired = [r for r in exp.rules if r.strength > 0]
    if adds is None:
        fired.sort(key=lambda r: -r.strength)  # stable: ties in rule order
    else:
        fired.sort(key=lambda r: -abs(adds[r.index]))
    shown, rest = fired[:top], fired[top:]
    read = {(c.variable, c.term) for r in shown
            for c in conditions_used(rb.rules[r.index].condition)}
    mem = _membership_table("memberships above 0 that the rules shown read")
    unread = 0
    for var in rb.inputs:
        above = [(t, mu) for t, mu in exp.memberships[var.name].items() if mu > 0]
        listed = [(t, mu) for t, mu in above if (var.name, t) in read]
        unread += len(above) - len(listed)
        shown_value = _shown_value(exp, var.name)
        for i, (term, mu) in enumerate(listed):
            mem.add_row(var.name if i == 0 else "", shown_value if i == 0 else "", term,
                        f"{mu:.4f}", _bar(mu))
    console.print(mem)
    if unread:
        console.print(f"{_several(unread, 'more term')} above 0, read by no rule shown")
    by = "move the grade most" if adds is not None else "fire the strongest"
    rules = _rule_table(f"rules: the {len(shown)} of {len(exp.rules)} that {by}",
                        ("#", "rule", "strength", "adds" if adds is not None else ""))
    for r in shown:  # (a strength has its rule's weight in it)
        rules.add_row(str(r.index + 1), r.text, f"{r.strength:.4f}",
                      f"{adds[r.index]:+.4f}" if adds is not None else _bar(r.strength))
    console.print(rules)
    more = f"{len(rest)} more fired"
    if adds is not None:
        more += f", adding {sum(adds[r.index] for r in rest):+.4f} together"
    console.print(f"{more}; {len(exp.rules) - len(fired)} did not fire")
    if rb.defuzzifier != "weighted_sum":
        _print_activations(ev, exp)
        return
    sets = output_sets(rb, exp)
    terms = sorted((t for t in rb.output.terms if sets.strength[t.name] > 0),
                   key=lambda t: -abs(sets.contribution[t.name]))
    act = _sum_table(f"output {rb.output.name}: the {min(top, len(terms))} terms that move "
                     "it most")
    for t in terms[:top]:
        act.add_row(t.name, f"{t.triangle.peak:g}", f"{sets.strength[t.name]:.4f}",
                    f"{sets.contribution[t.name]:+.4f}")
    if terms[top:]:
        act.add_row(_several(len(terms[top:]), "more term"), "",
                    f"{sum(sets.strength[t.name] for t in terms[top:]):.4f}",
                    f"{sum(sets.contribution[t.name] for t in terms[top:]):+.4f}")
    console.print(act)


def evaluate(
    rulebase: Annotated[str, typer.Argument(help="Rule-base file, or a shipped name.")],
    inputs: Annotated[
        list[str] | None,
        typer.Option("--input", "-i", help="NAME=VALUE for each input variable."),
    ] = None,
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: the memberships, rule strengths and activations (a base "
                          f"of more than {FULL_UP_TO} rules: the {TOP} rules that move the "
                          "grade most, the rest summed; with --json, every rule).")] = False,
    json_out: JsonOpt = False,
    csv: Annotated[
        Path | None,
        typer.Option(help="Grade every row of a CSV whose columns are the input names."),
    ] = None,
    output: Annotated[
        Path | None, typer.Option(
            "--output", "-o", help="Output file: with --csv, the graded table (default: "
                                   "stdout).")
    ] = None,
) -> None:
    """Grade inputs with a rule base (and explain the grade)."""
    if csv is not None and (inputs or explain or json_out):
        raise _usage("--csv grades every row of the file; --input, --explain and --json "
                     "are for one grade, leave them out")
    if output is not None and csv is None:
        raise _usage("--output writes the table graded with --csv; give --csv FILE too")
    if output is not None and output.is_dir():
        raise _usage(f"--output {output}: a folder; give a file name, e.g. "
                     f"{output / 'graded.csv'}")
    from fuzzeval.engine.evaluator import compile_rulebase

    with user_errors():
        if output is not None and csv is not None:  # the graded table never replaces its input
            check_outputs([Output("--output", output, "table")],
                          [Input("--csv", csv),
                           Input("RULEBASE", resolve_rulebase(rulebase))])
        ev = compile_rulebase(open_rulebase(rulebase))
        if csv is not None:
            _grade_csv(ev, csv, output)
            return
        values = _parse_inputs(inputs or [], ev)
        if not explain:  # the grade alone: no rule texts (a second at 100,000 rules)
            row = [[values[n] for n in ev.input_names]]
            grade, fired = float(ev.grade(row)[0]), bool((ev.strengths(row)[0] > 0).any())
            if json_out:
                print_json({"grade": grade, "fired": fired})
            else:
                console.print(f"{grade:.6g}")
            return
        exp = ev.explain(values)
    if json_out:
        print_json(exp.to_dict())
    else:
        console.print(ev.rulebase.origin, markup=False, highlight=False)
        print_explanation(ev, exp)


def _read_chunks(path: Path, ev: Evaluator, size: int
                 ) -> Iterator[tuple[list[str], list[list[str]], FloatArray]]:
    """The header, then the rows (cells verbatim) and their inputs, ``size`` rows at a time
    (at least one chunk, maybe of no rows), or a one-line error when a bad line is reached.

    The table is input given in bulk, so whatever would be a usage error typed as --input
    is one here (exit 2): a ragged row, a repeated or missing column, a column named like
    the output, a cell that is not a number (named by file:line and column).
    """
    import numpy as np

    header: list[str] | None = None
    header_line = 0
    rows: list[list[str]] = []
    x: list[list[float]] = []
    cols: list[int] = []
    end = 0  # the last physical line read; a record starts on the line after it
    chunks = 0
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f, strict=True)
            for fields in reader:
                start, end = end + 1, reader.line_num
                if not fields:  # a blank line
                    continue
                if header is None:
                    header, header_line = fields, start
                    _check_header(path, start, header, ev)
                    cols = [header.index(n) for n in ev.input_names]
                    continue
                if len(fields) != len(header):
                    raise _usage(f"{path}:{start}: {_several(len(fields), 'field')}, but the "
                                 f"header (line {header_line}) has {len(header)}; every row needs "
                                 "exactly one value per column")
                try:  # (the message is built only for a bad cell: a million rows' worth)
                    numbers = [float(fields[c]) for c in cols]
                    if any(math.isnan(v) for v in numbers):
                        raise ValueError
                except ValueError:
                    try:
                        numbers = [_number(fields[c], f"{path}:{start}: column {header[c]!r}")
                                   for c in cols]
                    except ValueError as exc:
                        raise _usage(str(exc)) from None
                x.append(numbers)
                rows.append(fields)
                if len(rows) == size:
                    yield header, rows, np.array(x, dtype=np.float64)
                    rows, x, chunks = [], [], chunks + 1
    except csv.Error as exc:
        raise _usage(f"{path}:{end + 1}: not a readable CSV line ({exc})") from None
    except UnicodeDecodeError:
        raise _usage(f"{path}: not UTF-8 text; save the CSV as UTF-8") from None
    if header is None:
        raise _usage(f"{path}: empty file; the first line must name the columns "
                     f"({', '.join(ev.input_names)})")
    if rows or not chunks:  # the last rows, or a header alone
        yield header, rows, np.array(x, dtype=np.float64).reshape(len(x), len(cols))


def _grade_exact(path: Path, ev: Evaluator, spool: TextIO) -> int:
    """Grade any table into the spool with Python's CSV reader and writer, or name its
    first problem; the rows graded."""
    graded = -1  # rows; -1: not even the header written yet
    writer = csv.writer(spool, lineterminator="\n")
    for header, rows, x in _read_chunks(path, ev, CHUNK_ROWS):
        if graded < 0:
            writer.writerow([*header, ev.rulebase.output.name])
            graded = 0
        grades = ev.grade(x).tolist() if rows else []
        writer.writerows([*row, repr(float(g))] for row, g in zip(rows, grades, strict=True))
        graded += len(rows)
    return graded


def _check_header(path: Path, line: int, header: list[str], ev: Evaluator) -> None:
    seen: dict[str, int] = {}
    for i, name in enumerate(header, 1):
        if name in seen:
            raise _usage(f"{path}:{line}: column {name!r} appears twice (columns "
                         f"{seen[name]} and {i}); column names must be unique")
        seen[name] = i
    out_name = ev.rulebase.output.name
    if out_name in seen:
        raise _usage(f"{path}:{line}: column {out_name!r} is the rule base's output, which "
                     "evaluate adds; rename or drop that column (it is never overwritten)")
    missing = [n for n in ev.input_names if n not in seen]
    if missing:
        raise _usage(f"{path}: missing column(s) {', '.join(missing)} "
                     f"(the rule base's inputs are {', '.join(ev.input_names)})")


def _grade_csv(ev: Evaluator, path: Path, output: Path | None) -> None:
    """Grade the table CHUNK_ROWS rows at a time into a spool file, then copy it out:
    memory stays flat whatever the table's length, and a bad line anywhere still leaves
    stdout empty and --output untouched (the table is checked to its end first)."""
    if not path.is_file():
        raise NotFound(f"--csv {path}: " + ("a folder, not a CSV file" if path.is_dir()
                                             else "no such file"))
    from fuzzeval.cli.plain_csv import grade_plain

    with tempfile.TemporaryDirectory(prefix="fuzzeval-") as folder:
        # written, then read: a file open for both resets its decoder at every write
        spool = Path(folder) / "graded.csv"
        with spool.open("w", newline="", encoding="utf-8") as f:
            graded = grade_plain(path, ev, f, lambda line, cells: _check_header(
                path, line, cells, ev))
            if graded is None:  # not a plain table, or a line to name: read it exactly
                f.seek(0)
                f.truncate()
                graded = _grade_exact(path, ev, f)
        with spool.open(newline="", encoding="utf-8") as f:
            if output is None:
                shutil.copyfileobj(f, sys.stdout)
                return
            output.parent.mkdir(parents=True, exist_ok=True)  # as every output's folder
            with output.open("w", newline="", encoding="utf-8") as out:
                shutil.copyfileobj(f, out)
    say_files(f"graded {graded} rows -> {output}")
