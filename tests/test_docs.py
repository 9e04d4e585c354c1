"""The documentation is executable: every Python snippet in README.md and docs/ runs, every
``fuzzeval`` command shown parses with today's options (the quick ones run, and a number in
their comment must be in their output), every local link resolves, and the format guide's
YAML is the shipped file it names."""

from __future__ import annotations

import glob
import importlib.util
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from fuzzeval.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
# Commands quick enough to run in the suite (each well under a second).
QUICK = {("evaluate",), ("rulebase",), ("cribbage", "score"), ("cribbage", "discard"),
         ("backgammon", "moves"), ("plot", "membership")}
OUTPUT_OPTIONS = {"-o", "--out", "--output", "--db", "--plot"}
# Spellings that still work with a deprecation line (docs/cli.md): the docs use the new ones.
DEPRECATED = {("match", "-o"), ("calibrate", "-o"), ("tune", "--out"),
              ("cribbage score", "--crib"), ("cribbage train-es", "--crib"),
              ("cribbage train-es", "--no-crib"), ("tournament", "--players"),
              ("cribbage report", "--players"), ("tune", "--deals"), ("tune", "--held-out"),
              ("calibrate", "--deals"), ("evaluate-calibration", "--deals"),
              ("cribbage pegging", "--against"), ("evaluate", "--no-explain")}


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    args: tuple[str, ...]
    comment: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: fuzzeval {' '.join(self.args)}"


def blocks(language: str) -> list[tuple[str, int, str]]:
    found = []
    for page in PAGES:
        text = page.read_text()
        for m in FENCE.finditer(text):
            if m.group(1) == language:
                line = text.count("\n", 0, m.start()) + 2
                found.append((str(page.relative_to(ROOT)), line, m.group(2)))
    return found


def shell_lines(code: str, start: int) -> list[tuple[int, str]]:
    """Lines of a bash block, continuations joined."""
    out: list[tuple[int, str]] = []
    pending, first = "", start
    for i, line in enumerate(code.splitlines()):
        if not pending:
            first = start + i
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        out.append((first, pending + line))
        pending = ""
    return out


def commands() -> list[Command]:
    found = []
    for page, start, code in blocks("bash"):
        for line, text in shell_lines(code, start):
            for part in text.split("&&"):
                part = part.strip()
                if part.startswith("fuzzeval "):
                    body, _, comment = part.partition(" #")
                    found.append(Command(page, line, tuple(shlex.split(body)[1:]),
                                         comment.strip()))
    return found


COMMANDS = commands()
PYTHON = blocks("python")


@pytest.fixture
def docs_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh directory that holds what the docs refer to by relative path."""
    for name in ("rulebases", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "runs").mkdir()
    (tmp_path / "plots").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_docs_have_snippets_and_commands() -> None:
    assert len(PYTHON) >= 5 and len(COMMANDS) >= 40
    assert any(c.page == "README.md" for c in COMMANDS)


@pytest.mark.parametrize("snippet", PYTHON, ids=[f"{p}:{n}" for p, n, _ in PYTHON])
def test_python_snippet_runs(snippet: tuple[str, int, str], docs_cwd: Path) -> None:
    page, line, code = snippet
    exec(compile(code, f"{page}:{line}", "exec"), {"__name__": "__docs__"})


def resolve(args: tuple[str, ...]) -> tuple[tuple[str, ...], Any, list[str]]:
    """The command path, the (click-style) command and its own arguments."""
    cmd: Any = get_command(app)
    rest, path = list(args), list[str]()
    while hasattr(cmd, "list_commands"):  # a group (typer vendors its own click)
        assert rest, f"no subcommand after {path}"
        name, rest = rest[0], rest[1:]
        sub = cmd.get_command(cmd.context_class(cmd), name)
        assert sub is not None, f"no command {' '.join([*path, name])!r}"
        cmd, path = sub, [*path, name]
    return tuple(path), cmd, rest


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_command_parses(command: Command, docs_cwd: Path) -> None:
    path, cmd, rest = resolve(command.args)
    expanded = [m for a in rest for m in (sorted(glob.glob(a)) if "*" in a else [a])]
    assert path, "a command, not the top-level group"
    old = {a for a in rest if (" ".join(path), a) in DEPRECATED}
    assert not old, f"{command}: deprecated {sorted(old)} (docs/cli.md)"
    with cmd.make_context(" ".join(["fuzzeval", *path]), expanded):
        pass


def runnable(command: Command, cwd: Path) -> bool:
    path = resolve(command.args)[0]
    if not any(path[:len(q)] == q for q in QUICK):
        return False
    args = command.args
    for before, arg in zip(("", *args), args, strict=False):
        value = arg.split("=")[-1]
        if (Path(value).suffix in (".npz", ".sqlite", ".csv", ".txt", ".yaml")
                and before not in OUTPUT_OPTIONS and not (cwd / value).exists()):
            return False  # reads a file an earlier, slower command makes
    return True


QUICK_COMMANDS = [c for c in COMMANDS if any(c.args[:len(q)] == q for q in QUICK)]


@pytest.mark.parametrize("command", QUICK_COMMANDS, ids=str)
def test_quick_command_runs(command: Command, docs_cwd: Path) -> None:
    if not runnable(command, docs_cwd):
        pytest.skip("reads a file that a slower command shown before it makes")
    args = [m for a in command.args for m in (sorted(glob.glob(a)) if "*" in a else [a])]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, (str(command), result.output)
    number = re.match(r"[\d.,]+\b", command.comment)
    if number:
        assert number.group(0).rstrip(",").replace(",", "") in result.output, str(command)


def test_other_commands_exist() -> None:
    """``python -m module`` and ``python script.py`` lines name what is there."""
    seen = 0
    for _, start, code in blocks("bash"):
        for _, text in shell_lines(code, start):
            words = shlex.split(text.partition(" #")[0]) if text.strip() else []
            if words[:2] == ["python", "-m"] and words[2] not in ("pytest", "fuzzeval"):
                assert importlib.util.find_spec(words[2]) is not None, text
                seen += 1
            elif words[:1] == ["python"] and words[1:2] and words[1].endswith(".py"):
                assert (ROOT / words[1]).is_file(), text
                seen += 1
    assert seen >= 3


def test_local_links_resolve() -> None:
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.name}: {target}"


def test_format_guide_shows_the_shipped_file() -> None:
    text = (ROOT / "docs" / "rulebase-format.md").read_text()
    yaml_blocks = [code for code in FENCE.findall(text) if code[0] == "yaml"]
    assert yaml_blocks[0][1] == (ROOT / "rulebases" / "tipping.yaml").read_text()
