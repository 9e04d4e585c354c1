"""``evaluate --csv`` on a plain table, fast: no quotes, carriage returns, NULs or blank
lines, so every line is its cells joined by commas and a graded line is the line, a comma
and the grade. Such a table is split and converted in bulk (C-level ``str.split`` and
``float``, a few times faster than Python's ``csv`` module row by row), a block of lines at
a time so memory stays flat. Anything else, and any line with a problem, is left to the
exact reader (``fuzzeval.cli.evaluate``), which grades it or names the problem: the graded
table is the same byte for byte either way (a property test checks it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from fuzzeval.engine.evaluator import Evaluator

#: characters a plain table never has (a quoted cell, a Windows line end, a blank line)
_NOT_PLAIN = ('"', "\r", "\0", "\n\n")
#: characters read a block at a time (ends at a line end): some thousands of rows, so the
#: grade's work arrays stay as small as the exact reader's 10,000-row chunks
BLOCK_CHARS = 1 << 18


def grade_plain(path: Path, ev: Evaluator, spool: TextIO,
                check_header: Callable[[int, list[str]], None]) -> int | None:
    """Grade a plain table into ``spool`` and return its rows, or None (the spool then
    holds a part to throw away) when it is not plain or has a line the exact reader must
    name. ``check_header(line, cells)`` refuses a header as the exact reader does."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            first = f.readline()
            header = first.removesuffix("\n").split(",")
            if not first.strip() or any(c in first for c in _NOT_PLAIN[:3]):
                return None
            check_header(1, header)
            width = len(header)
            cols = [header.index(n) for n in ev.input_names]
            spool.write(f"{first.removesuffix(chr(10))},{ev.rulebase.output.name}\n")
            rows = 0
            for text in _blocks(f):
                lines = _plain_lines(text, width)
                done = -1 if lines is None else _grade_lines(lines, cols, width, ev, spool)
                if done < 0:
                    return None
                rows += done
            return rows
    except (UnicodeDecodeError, ValueError):
        return None


def _blocks(f: TextIO) -> Iterator[str]:
    """The rest of a file in blocks of about BLOCK_CHARS, each ending at a line end (the
    last line given one where the file has none)."""
    rest = ""
    while block := f.read(BLOCK_CHARS):
        text = rest + block
        cut = text.rfind("\n") + 1
        text, rest = text[:cut], text[cut:]
        if text:
            yield text
    if rest:
        yield rest + "\n"


def _plain_lines(text: str, width: int) -> list[str] | None:
    """The lines of a block that ends at a line end, when each is plain and has ``width``
    cells; None otherwise."""
    if any(c in text for c in _NOT_PLAIN):
        return None
    lines = text[:-1].split("\n")
    if set(map(str.count, lines, repeat(","))) != {width - 1}:
        return None
    return lines


def _grade_lines(lines: list[str], cols: list[int], width: int, ev: Evaluator,
                 spool: TextIO) -> int:
    """Grade plain lines into the spool: how many, or -1 where a cell is no number (or
    NaN) and the exact reader must say which."""
    import numpy as np

    cells = ",".join(lines).split(",")
    x = np.empty((len(lines), len(cols)), dtype=np.float64)
    for j, c in enumerate(cols):
        x[:, j] = list(map(float, cells[c::width]))  # float's own rules, as the reader's
    if np.isnan(x).any():
        return -1
    grades = map(repr, ev.grade(x).tolist())
    spool.write("".join(map("{},{}\n".format, lines, grades)))
    return len(lines)

