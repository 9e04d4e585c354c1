"""``fuzzeval rulebase list|check|show|schema``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import (
    console,
    err_console,
    help_when_bare,
    open_rulebase,
    print_json,
    resolve_rulebase,
    user_errors,
)
from fuzzeval.resources import shipped_rulebases

if TYPE_CHECKING:  # the loader is imported when a command runs, not at start-up
    from fuzzeval.rulebase import RuleBase, Variable

app = typer.Typer(help="Check, show and describe rule-base files.")
app.callback(invoke_without_command=True)(help_when_bare)  # alone: its help, exit 0


@app.command("list")
def list_shipped() -> None:
    """The shipped rule bases: name, inputs, rules and what each is."""
    from fuzzeval.loading import check_rulebase

    table = Table(title="shipped rule bases", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("name", no_wrap=True)
    table.add_column("inputs", justify="right")
    table.add_column("rules", justify="right")
    table.add_column("description", overflow="fold")
    for path in shipped_rulebases():
        rb, _ = check_rulebase(str(path))
        if rb is None:  # a shipped file that does not load is a packaging fault: say so
            table.add_row(path.stem, "", "", "does not load: fuzzeval rulebase check " + path.stem)
            continue
        table.add_row(path.stem, str(len(rb.inputs)), str(len(rb.rules)), rb.description or "")
    console.print(table)


@app.command()
def check(
    files: Annotated[list[str], typer.Argument(help="Rule-base files (or shipped names).")],
) -> None:
    """Report every problem in each file; exit 1 if any file has an error."""
    from fuzzeval.loading import check_rulebase

    failed = False
    for spec in files:
        try:
            path = str(resolve_rulebase(spec))
        except (OSError, ValueError) as exc:
            err_console.print(str(exc), markup=False, highlight=False)
            failed = True
            continue
        rb, problems = check_rulebase(path)
        for p in problems:
            err_console.print(str(p), markup=False, highlight=False)
        if rb is None:
            failed = True
            n = sum(p.severity == "error" for p in problems)
            console.print(f"{path}: {n} error(s)", markup=False, highlight=False, soft_wrap=True)
        else:
            console.print(
                f"{path}: ok ({len(rb.inputs)} inputs, {len(rb.rules)} rules, "
                f"{len(problems)} warning(s))", markup=False, highlight=False, soft_wrap=True,
            )
    raise typer.Exit(1 if failed else 0)


def _terms_table(var: Variable, title: str) -> Table:
    table = Table(title=title, title_justify="left")
    for col in ("term", "left", "peak", "right", "adjust"):
        table.add_column(col, justify="left" if col in ("term", "adjust") else "right")
    for t in var.terms:
        table.add_row(t.name, *(f"{v:g}" for v in t.triangle.points), ", ".join(t.adjust))
    return table


def _show(rb: RuleBase) -> None:
    console.print(f"[bold]{rb.name}[/bold]  {rb.description}")
    console.print(f"defuzzifier: {rb.defuzzifier}   default grade: {rb.default:g}")
    for v in rb.inputs:
        desc = f" — {v.description}" if v.description else ""
        console.print(_terms_table(v, f"input {v.name} [{v.lo:g}, {v.hi:g}]{desc}"))
    console.print(_terms_table(rb.output, f"output {rb.output.name} "
                                          f"[{rb.output.lo:g}, {rb.output.hi:g}]"))
    rules = Table(title="rules", title_justify="left")
    rules.add_column("#", justify="right")
    rules.add_column("rule")
    rules.add_column("weight", justify="right")
    for i, (r, text) in enumerate(zip(rb.rules, rb.rule_texts(), strict=True), 1):
        rules.add_row(str(i), text, f"{r.weight:g}")
    console.print(rules)


@app.command()
def show(
    file: Annotated[str, typer.Argument(help="Rule-base file (or shipped name).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the rule base as JSON.")] = False,
) -> None:
    """Tables of the variables, terms and rules."""
    import yaml

    from fuzzeval.loading import rulebase_to_yaml

    with user_errors():
        rb = open_rulebase(file)
    if json_out:
        print_json(yaml.safe_load(rulebase_to_yaml(rb)))
    else:
        _show(rb)


@app.command()
def schema() -> None:
    """Print the JSON Schema of rule-base files (for editors that validate YAML)."""
    from fuzzeval.schema import rulebase_schema

    print_json(rulebase_schema())
