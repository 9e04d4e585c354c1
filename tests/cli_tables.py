"""Helpers for reading what the commands print: a table's cells and title, a terminal
that colours, a tournament's win matrix worked by hand."""

from __future__ import annotations

import io

from rich.console import Console


def cells(line: str) -> list[str]:
    """The cells of one printed table row (any of rich's boxes)."""
    return [c.strip() for c in line.replace("┃", "│").split("│")[1:-1]]


def terminal(width: int = 80) -> tuple[Console, io.StringIO]:
    """A console that colours, as a terminal does, writing into a buffer."""
    out = io.StringIO()
    return Console(file=out, force_terminal=True, color_system="standard", width=width,
                   soft_wrap=True), out


def title(lines: list[str]) -> str:
    """A table's title, as one line (it wraps at the table's width)."""
    return " ".join(lines[:lines.index("")])


def matrix_cells(n: int) -> list[list[tuple[float, float, float] | None]]:
    """Row i beats every later player 60 % of the time (interval 34-100 %), so it loses
    to every earlier one 40 % of the time (interval 0-66 %)."""
    return [[None if i == j else (0.6, 0.34, 1.0) if i < j else (0.4, 0.0, 0.66)
             for j in range(n)] for i in range(n)]
