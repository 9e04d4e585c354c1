"""``fuzzeval holdem``: heads-up limit hold'em commands.

``replay FILE`` reads an ACPC hand log (this project's ``history export --format acpc``
or anyone's), checks every hand against the rules and prints each player's totals. A bad
line is one ``error: FILE:LINE: ...`` line on stderr and the next line is read; the exit
status is then 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from fuzzeval.cli.common import help_when_bare, print_json

app = typer.Typer(help="Heads-up limit hold'em: replay and check ACPC hand logs.")
app.callback(invoke_without_command=True)(help_when_bare)  # alone: its help, exit 0
# no emoji: ":hand:" in a log line or a player's name is text
console = Console(emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)


def _fail(message: str) -> None:
    err.print(f"error: {message}", markup=False, highlight=False)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="ACPC log: STATE:hand:betting:cards:chips:"
                                              "names lines (SCORE lines are checked too).")],
    json_out: Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
    = False,
) -> None:
    """Check every hand of an ACPC log and print each player's totals.

    Chips are ACPC chips (a small bet is 10); small bets per hand divide by 10.
    """
    from fuzzeval.games.holdem.acpc import read_log
    from fuzzeval.games.holdem.rules import SMALL_BET

    if not file.is_file():
        _fail(f"{file}: no such file")
        raise typer.Exit(2)
    with file.open(encoding="utf-8", errors="replace") as lines:
        totals = read_log(lines, str(file))
    for line in totals.errors:
        _fail(line)
    rows = [{"player": name, "hands": totals.hands[name], "chips": totals.chips[name],
             "small_bets_per_hand": totals.chips[name] / SMALL_BET / totals.hands[name]}
            for name in totals.hands]
    if json_out:
        print_json({"file": str(file), "players": rows, "bad_lines": len(totals.errors)})
    else:
        table = Table(box=box.SIMPLE_HEAD, title=f"{file}: {totals.count} hands",
                      title_justify="left")
        for col in ("player", "hands", "chips", "sb/hand"):
            table.add_column(col, justify="left" if col == "player" else "right")
        for row in rows:
            table.add_row(str(row["player"]), str(row["hands"]), f"{row['chips']:+d}",
                          f"{row['small_bets_per_hand']:+.3f}")
        console.print(table)
    if totals.errors:
        raise typer.Exit(2)
