"""``fuzzeval plot ...``: pictures into plots/."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fuzzeval.cli.common import console, open_rulebase, user_errors

app = typer.Typer(help="Draw pictures (PNG by default; give a .svg name for SVG).",
                  no_args_is_help=True)


@app.command()
def membership(
    rulebase: Annotated[str, typer.Argument(help="Rule-base file, or a shipped name.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Image file (default plots/NAME.png).")
    ] = None,
) -> None:
    """Draw every variable's membership functions."""
    from fuzzeval.plots import plot_membership

    with user_errors():
        rb = open_rulebase(rulebase)
        path = plot_membership(rb, output or Path("plots") / f"{rb.name}_membership.png")
    console.print(f"wrote {path}")
