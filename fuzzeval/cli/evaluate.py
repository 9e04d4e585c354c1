"""``fuzzeval evaluate``: grade one input (optionally explained) or a CSV table of them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.table import Table

from fuzzeval.cli.common import console, open_rulebase, print_json, user_errors
from fuzzeval.engine import Evaluator, Explanation, compile_rulebase


def _parse_inputs(pairs: list[str], ev: Evaluator) -> dict[str, float]:
    values: dict[str, float] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--input {pair!r}: write NAME=VALUE, e.g. --input "
                             f"{ev.input_names[0]}=3")
        try:
            values[name.strip()] = float(text)
        except ValueError:
            raise ValueError(f"--input {pair!r}: {text!r} is not a number") from None
    return values


def _bar(value: float, width: int = 20) -> str:
    filled = round(max(0.0, min(1.0, value)) * width)
    return "█" * filled + "·" * (width - filled)


def print_explanation(ev: Evaluator, exp: Explanation) -> None:
    rb = ev.rulebase
    mem = Table(title="memberships", title_justify="left")
    for col in ("input", "value", "term", "membership", ""):
        mem.add_column(col, justify="right" if col in ("value", "membership") else "left")
    for var in rb.inputs:
        shown = f"{exp.inputs[var.name]:g}"
        if var.name in exp.clipped:
            shown += f" → {exp.used[var.name]:g} (clipped)"
        for i, (term, mu) in enumerate(exp.memberships[var.name].items()):
            mem.add_row(var.name if i == 0 else "", shown if i == 0 else "", term,
                        f"{mu:.4f}", _bar(mu))
    console.print(mem)
    rules = Table(title="rules", title_justify="left")
    for col in ("#", "rule", "weight", "strength", ""):
        rules.add_column(col, justify="right" if col in ("#", "weight", "strength") else "left")
    for r in exp.rules:
        style = None if r.strength > 0 else "dim"
        rules.add_row(str(r.index + 1), r.text, f"{r.weight:g}", f"{r.strength:.4f}",
                      _bar(r.strength), style=style)
    console.print(rules)
    act = Table(title=f"output {rb.output.name}", title_justify="left")
    for col in ("term", "peak", "activation", ""):
        act.add_column(col, justify="left" if col in ("term", "") else "right")
    for t in rb.output.terms:
        a = exp.activations[t.name]
        act.add_row(t.name, f"{t.triangle.peak:g}", f"{a:.4f}", _bar(a))
    console.print(act)
    how = rb.defuzzifier.replace("_", " ")
    if exp.fired:
        console.print(f"[bold]{rb.output.name} = {exp.grade:.6g}[/bold] ({how})")
    else:
        console.print(f"[bold]{rb.output.name} = {exp.grade:.6g}[/bold] "
                      "(no rule fired: the rule base's default)")


def evaluate(
    rulebase: Annotated[str, typer.Argument(help="Rule-base file, or a shipped name.")],
    inputs: Annotated[
        list[str] | None,
        typer.Option("--input", "-i", help="NAME=VALUE for each input variable."),
    ] = None,
    explain: Annotated[
        bool, typer.Option(help="Show memberships, rule strengths and activations.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    csv: Annotated[
        Path | None,
        typer.Option(help="Grade every row of a CSV whose columns are the input names."),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="With --csv: write here, not stdout.")
    ] = None,
) -> None:
    """Grade inputs with a rule base (and explain the grade)."""
    with user_errors():
        ev = compile_rulebase(open_rulebase(rulebase))
        if csv is not None:
            _grade_csv(ev, csv, output)
            return
        values = _parse_inputs(inputs or [], ev)
        exp = ev.explain(values)
    if json_out:
        print_json(exp.to_dict() if explain else {"grade": exp.grade, "fired": exp.fired})
    elif explain:
        print_explanation(ev, exp)
    else:
        console.print(f"{exp.grade:.6g}")


def _grade_csv(ev: Evaluator, path: Path, output: Path | None) -> None:
    import pandas as pd

    table = pd.read_csv(path)
    missing = [n for n in ev.input_names if n not in table.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {', '.join(missing)} "
                         f"(the rule base's inputs are {', '.join(ev.input_names)})")
    x = table[list(ev.input_names)].to_numpy(dtype=np.float64)
    table[ev.rulebase.output.name] = ev.grade(x)
    if output is None:
        table.to_csv(sys.stdout, index=False)
    else:
        table.to_csv(output, index=False)
        console.print(f"graded {len(table)} rows -> {output}")
