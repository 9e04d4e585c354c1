"""Words a reader has: papers are cited by their authors and year (docs/references.md), never
by the number of a file in the project's reading list; no text points at a numbered
issue of the project's tracker, or at a work session by its number (measured "in session"
and a number): a date, a commit or what was done says it. A user reads the help texts and
the docs; a maintainer reads the docstrings, comments and messages in the code, the tests,
the benchmarks and the shipped rule bases: none of them has those files, that tracker or
those sessions' numbers.

A random seed is a word like any other ("--seed 26", "seed 1"): only a file number (three
digits after "seed"), an issue's number or a session's number is refused; a session without
a number (a play session, a test session) is a word like any other too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from fuzzeval.cli import app

ROOT = Path(__file__).resolve().parent.parent
#: a paper by its file number, with or without a space, an issue by its number (a heading's
#: anchor too: issue, a dash, the number) or a work session by its number; across a line break too
#: (a wrapped docstring)
NUMBERED = re.compile(r"\bseed[\s_#*-]*0\d\d|\bseeds?/0\d+|\bissues?[\s#-]*\d+"
                      r"|\bsessions?[\s#-]*\d+", re.IGNORECASE)
#: the text files of the tree that people read
READ = {".py", ".md", ".yaml", ".yml", ".toml", ".fll", ".fis", ".txt", ".cfg", ".ini", ""}
SKIP = {".git", ".venv", "runs", "plots", "__pycache__", ".mypy_cache", ".ruff_cache",
        ".pytest_cache", ".hypothesis", "node_modules"}


def _files() -> list[Path]:
    """Every text file of the checkout a person reads, once (``fuzzeval/games`` is a link to
    ``games/``)."""
    seen: dict[Path, Path] = {}
    for folder in ("fuzzeval", "games", "tests", "benchmarks", "docs", "rulebases",
                   "scripts"):
        for path in sorted((ROOT / folder).rglob("*")):
            if (path.is_file() and path.suffix in READ
                    and not SKIP & set(path.relative_to(ROOT).parts)):
                seen.setdefault(path.resolve(), path)
    for name in ("README.md", "CHANGELOG.md", "pyproject.toml"):
        if (ROOT / name).is_file():
            seen.setdefault((ROOT / name).resolve(), ROOT / name)
    return sorted(seen.values())


def _numbered(text: str) -> list[str]:
    return [" ".join(m.group().split()) for m in NUMBERED.finditer(text)]


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    yield " ".join(("fuzzeval", *path)), command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, (*path, name))


#: the words refused, spelled apart here so that this file holds none of them
SEED, ISSUE, SESSION = "seed", "issue", "session"


@pytest.mark.parametrize(("text", "found"), [
    (f"TD(λ) ({SEED} 003)", [f"{SEED} 003"]), (f"S{SEED[1:]} 001's Loki", [f"S{SEED[1:]} 001"]),
    (f"rules={SEED}003", [f"{SEED}003"]), (f"{ISSUE} 29, item 3", [f"{ISSUE} 29"]),
    (f"({ISSUE} #45)", [f"{ISSUE} #45"]), (f"before {ISSUE}\n27: each", [f"{ISSUE} 27"]),
    (f"as {SEED}\n    003's learner", [f"{SEED} 003"]),
    (f"the shared/{SEED}s/002 file", [f"{SEED}s/002"]),
    ("--seed 26", []), ("seed 1 (other deals)", []), ("SeedSequence([seed, 0])", []),
    (f"t{ISSUE} 3", []), ("issues are filed", []), ("Sturtevant & White (2006)", []),
    (f"results.md#one-ply-deeper-{ISSUE}-18", [f"{ISSUE}-18"]),
    (f"measured again in {SESSION} 13", [f"{SESSION} 13"]),
    (f"**{SESSION.title()} 14** (2026-11-26)", [f"{SESSION.title()} 14"]),
    (f"its {SESSION}-14 test", [f"{SESSION}-14"]), (f"{SESSION}\n16's run", [f"{SESSION} 16"]),
    (f"{SESSION}s 13 and 14", [f"{SESSION}s 13"]),
    ("a play session, typed", []), ("the test session's own cache folder", []),
    ("played over two sessions", []), ("session_start(1)", []), ("obsession 2", []),
])
def test_the_pattern_finds_numbers_and_leaves_random_seeds(text: str, found: list[str]) -> None:
    assert _numbered(text) == found


def test_no_file_of_the_tree_cites_a_paper_or_an_issue_by_its_number() -> None:
    files = _files()
    assert len(files) > 300  # the walk reaches the code, tests, docs and rule bases
    assert {p.parent.name for p in files} >= {"fuzzeval", "cli", "games", "tests", "docs",
                                               "benchmarks", "rulebases"}
    found = [f"{path.relative_to(ROOT)}: {hit}" for path in files
             for hit in _numbered(path.read_text(encoding="utf-8", errors="replace"))]
    assert found == []


def test_no_help_text_cites_a_paper_or_an_issue_by_its_number() -> None:
    """Every command's help and every option's, game commands included, as written (Click
    shows them whole or cut at the first sentence; the whole is checked)."""
    found, commands = [], 0
    for where, command in _commands(typer.main.get_command(app)):
        commands += 1
        texts = [command.help, command.short_help, command.epilog,
                 *(getattr(p, "help", None) for p in command.params)]
        found += [f"{where}: {hit}" for text in texts if text for hit in _numbered(text)]
    assert commands > 30  # every group and command, the games' too
    assert found == []
