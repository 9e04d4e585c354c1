"""``fuzzeval rulebase list|check|show|schema|import|export``."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import (
    command_group,
    console,
    err_console,
    json_option,
    open_rulebase,
    print_json,
    resolve_rulebase,
    say_error,
    usage_error,
    user_errors,
)
from fuzzeval.resources import shipped_rulebases

if TYPE_CHECKING:  # the loader is imported when a command runs, not at start-up
    from fuzzeval.engine.rulebase import Condition, RuleBase, Variable

app = command_group("Check, show and describe rule-base files.")


@app.command("list")
def list_shipped() -> None:
    """The shipped rule bases: name, inputs, rules and what each is."""
    from fuzzeval.formats.loading import check_rulebase

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
    from fuzzeval.formats.loading import check_rulebase

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
    json_out: Annotated[bool, json_option("the rule base")] = False,
) -> None:
    """Tables of the variables, terms and rules."""
    import yaml

    from fuzzeval.formats.yaml_write import rulebase_to_yaml

    with user_errors():
        rb = open_rulebase(file)
    if json_out:
        print_json(yaml.safe_load(rulebase_to_yaml(rb)))
    else:
        _show(rb)


@app.command()
def top(
    file: Annotated[str, typer.Argument(help="Rule-base file (or shipped name).")],
    n: Annotated[int, typer.Option("--each", "-n", min=1,
                                   help="Rules shown each way.")] = 20,
    json_out: Annotated[bool, json_option("the rules")] = False,
    with_atoms: Annotated[list[str] | None, typer.Option(
        "--with", metavar="ATOM",
        help="Only rules whose condition is this atom or an 'and' with it, e.g. "
             "'Contact is yes' (a learned base's contact group); repeat for several.")]
    = None,
) -> None:
    """The rules with the largest conclusions each way, in words (as Sturtevant & White's Tables 1-2, 2006).

    For a rule base whose conclusions are single values, such as a learned one: with weighted_sum, what a rule adds when it fires fully (its conclusion times its weight), the most it adds, then the least (below 0); with weighted_average, the value it pulls the grade toward (as hard as its weight), the highest, then the lowest.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    from fuzzeval.engine.rulebase import render

    with user_errors():
        rb = open_rulebase(file)
    value = {t.name: t.triangle.peak for t in rb.output.terms if t.triangle.is_singleton}
    if rb.defuzzifier == "centroid" or len(value) < len(rb.output.terms):
        raise usage_error(f"{file}: rule base {rb.name!r} concludes on triangles "
                          f"({rb.defuzzifier}); top ranks single-valued conclusions")
    wanted = [_atom(rb, text) for text in with_atoms or []]
    chosen = [i for i, r in enumerate(rb.rules) if all(a in _atoms(r.condition) for a in wanted)]
    unit = rb.output.description or rb.output.name
    what = rb.output.name + (f" ({unit})" if unit != rb.output.name else "")
    if wanted:
        what = f"{what}, of those with {' and '.join(f'{v} is {t}' for v, t in wanted)}"
    if rb.defuzzifier == "weighted_sum":  # a rule adds its conclusion times its weight
        ranked = sorted(((value[rb.rules[i].output_term] * rb.rules[i].weight, i)
                         for i in chosen), key=lambda vi: (-vi[0], vi[1]))
        most = [vi for vi in ranked[:n] if vi[0] > 0]
        least = [vi for vi in reversed(ranked[-n:]) if vi[0] < 0]
        key = heading = "adds"
        titles = (f"adding the most to {what}", f"adding the least to {what}")
    else:  # weighted_average: a rule pulls the grade toward its conclusion
        ranked = sorted(((value[rb.rules[i].output_term], i) for i in chosen),
                        key=lambda vi: (-vi[0], vi[1]))
        most = ranked[:n]
        least = sorted(ranked[n:], key=lambda vi: vi)[:n]  # the lowest, ties in rule order
        key = heading = "toward"
        titles = (f"pulling {what} the highest", f"pulling {what} the lowest")
    pulls = rb.defuzzifier != "weighted_sum"  # then how hard is each rule's weight

    def row(v: float, i: int) -> dict[str, object]:
        return {"rule": i + 1, key: v, **({"weight": rb.rules[i].weight} if pulls else {}),
                "if": render(rb.rules[i].condition)}

    if json_out:
        print_json({"rulebase": rb.name, "unit": unit,
                    "most": [row(v, i) for v, i in most],
                    "least": [row(v, i) for v, i in least]})
        return
    for title, rows in zip(titles, (most, least), strict=True):
        table = Table(title=f"{rb.name}: {len(rows)} rule{'' if len(rows) == 1 else 's'} "
                            f"{title}", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("rule", justify="right")
        table.add_column(heading, justify="right")
        if pulls:
            table.add_column("weight", justify="right")
        table.add_column("when", overflow="fold")
        for v, i in rows:
            table.add_row(str(i + 1), f"{v:+.3f}",
                          *([f"{rb.rules[i].weight:g}"] if pulls else []),
                          render(rb.rules[i].condition))
        console.print(table)


def _atom(rb: RuleBase, text: str) -> tuple[str, str]:
    """``VARIABLE is TERM`` of one of the base's inputs, or a usage error saying what is."""
    parts = text.split()
    if len(parts) != 3 or parts[1] != "is":
        raise usage_error(f"--with {text!r}: an atom is 'VARIABLE is TERM', e.g. "
                          f"'{rb.inputs[0].name} is {rb.inputs[0].terms[0].name}'")
    names = rb.input_names
    if parts[0] not in names:
        raise usage_error(f"--with {text!r}: rule base {rb.name!r} has no input "
                          f"{parts[0]!r} (inputs: {', '.join(names)})")
    terms = rb.input(parts[0]).term_names
    if parts[2] not in terms:
        raise usage_error(f"--with {text!r}: input {parts[0]!r} has no term {parts[2]!r} "
                          f"(terms: {', '.join(terms)})")
    return parts[0], parts[2]


def _atoms(cond: Condition) -> set[tuple[str, str]]:
    """The atoms a condition asserts: itself, or the atoms an ``and`` joins."""
    from fuzzeval.engine.rulebase import And, Is

    if isinstance(cond, Is):
        return {(cond.variable, cond.term)}
    if isinstance(cond, And):
        return {(c.variable, c.term) for c in cond.operands if isinstance(c, Is)}
    return set()


@app.command()
def schema() -> None:
    """Print the JSON Schema of rule-base files (for editors that validate YAML)."""
    from fuzzeval.formats.schema import rulebase_schema

    print_json(rulebase_schema())


def _write(path: Path, text: str) -> None:
    """Write the whole text or nothing: a temporary file beside it, then renamed. The
    file gets the mode any other output gets (0644 under the usual umask), not the
    temporary file's 0600."""
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _refused(exc: Exception) -> typer.Exit:
    """Every problem of a file that cannot be converted, one line each; exit 2."""
    for line in str(exc).splitlines():
        say_error(line)
    return typer.Exit(2)


def _say(warnings: list[str]) -> None:
    for line in warnings:
        err_console.print(line, markup=False, highlight=False, style="yellow")


OutputOpt = Annotated[Path | None, typer.Option(
    "--output", "-o", help="Output file (required): import's .yaml, export's .fll or .fis.")]


@app.command("import")
def import_file(
    file: Annotated[Path, typer.Argument(help="A fuzzylite .fll or MATLAB/Octave .fis file.")],
    output: OutputOpt = None,
    default: Annotated[float | None, typer.Option(
        help="The grade where no rule fires (needed where the file's default is nan).")
    ] = None,
) -> None:
    """Convert an FLL or FIS rule base to fuzzeval's YAML, exactly or not at all."""
    from fuzzeval.cli.outputs import Input, Output, check_outputs
    from fuzzeval.errors import RuleBaseError
    from fuzzeval.formats.fll_fis import file_format, import_text
    from fuzzeval.formats.loading import read_rulebase_text
    from fuzzeval.formats.yaml_write import rulebase_to_yaml

    suffix = file_format(file)
    if suffix is None:
        raise usage_error(f"{file}: give an FLL (.fll) or FIS (.fis) file")
    if output is None or output.suffix.lower() not in (".yaml", ".yml"):
        raise usage_error(f"--output {output or ''}".rstrip() + ": give the rule base to "
                          "write, e.g. -o rulebase.yaml")
    if default is not None and not math.isfinite(default):
        raise usage_error(f"--default {default}: give a finite number")
    if not file.is_file() and not file.exists():
        raise usage_error(f"{file}: no such file")
    with user_errors():
        check_outputs([Output("--output", output, "rulebase")], [Input("FILE", file)])
    try:  # a file that is not text, or not FLL or FIS as fuzzeval reads them: exit 2
        rb, warnings = import_text(read_rulebase_text(file), suffix, str(file), default)
    except RuleBaseError as exc:
        raise _refused(exc) from None
    from dataclasses import replace

    rb = replace(rb, made_by=f"fuzzeval rulebase import {file.name}"[:300])
    _say(warnings)
    with user_errors():
        _write(output, rulebase_to_yaml(rb))
    console.print(f"{output}: {len(rb.inputs)} inputs, {len(rb.rules)} rules, "
                  f"{rb.defuzzifier}, default {rb.default:g}", markup=False, highlight=False,
                  soft_wrap=True)


@app.command("export")
def export_file(
    file: Annotated[str, typer.Argument(help="Rule-base file (or shipped name).")],
    output: OutputOpt = None,
) -> None:
    """Write a rule base as fuzzylite FLL or MATLAB/Octave FIS (from -o's suffix)."""
    from fuzzeval.cli.outputs import Input, Output, check_outputs
    from fuzzeval.formats.fll_fis import ConversionError, export_rulebase, file_format

    suffix = file_format(output) if output is not None else None
    if output is None or suffix is None:
        raise usage_error(f"--output {output or ''}".rstrip() + ": give the file to write, "
                          "ending in .fll (fuzzylite) or .fis (MATLAB/Octave)")
    with user_errors():
        source = resolve_rulebase(file)
        check_outputs([Output("--output", output, "rulebase")], [Input("RULEBASE", source)])
        rb = open_rulebase(file)
    try:
        text, warnings = export_rulebase(rb, suffix, str(source))
    except ConversionError as exc:
        raise _refused(exc) from None
    _say(warnings)
    with user_errors():
        _write(output, text)
    console.print(f"{output}: {rb.name} as {suffix[1:].upper()}, {len(rb.rules)} rules",
                  markup=False, highlight=False, soft_wrap=True)
