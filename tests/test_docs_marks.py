"""A command of the docs that runs a file of the checkout (``python benchmarks/x.py``) says
so with ``[repository]`` (docs/checking.md): a reader who installed the wheel has no such
file, and a newcomer ran them from an empty folder."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL = re.compile(r"^```(?:bash|sh|shell|console)\n(.*?)^```", re.S | re.M)
CHECKOUT = re.compile(r"^\s*(?:python3? )(?:benchmarks|games|tests|docs)/")


def _commands(text: str) -> list[tuple[int, str]]:
    """Each shell command of a page (continuation lines joined), with its first line."""
    out: list[tuple[int, str]] = []
    for block in SHELL.finditer(text):
        first = text.count("\n", 0, block.start(1)) + 1
        pending: list[str] = []
        for k, line in enumerate(block[1].splitlines()):
            if not pending:
                start = first + k
            pending.append(line)
            if not line.rstrip().endswith("\\"):
                out.append((start, " ".join(pending)))
                pending = []
    return out


def test_every_command_of_a_checkout_file_is_marked() -> None:
    unmarked = [f"{page.name}:{line}: {command}" for page in PAGES
                for line, command in _commands(page.read_text())
                if CHECKOUT.match(command) and "[repository]" not in command]
    assert unmarked == []


def test_the_check_finds_checkout_commands() -> None:
    text = "```bash\npython benchmarks/a.py \\\n  --x 1\nfuzzeval match cribbage\n```\n"
    assert [(line, bool(CHECKOUT.match(c))) for line, c in _commands(text)] == [
        (2, True), (4, False)]
