"""The documentation is executable, from any folder and twice in a row: every Python snippet
in README.md and docs/ runs twice in an empty folder outside the checkout, every ``fuzzeval``
command shown parses with today's options, the quick ones run twice in a row, in the order of
their page, in one empty folder (a number in their comment must be in their output), the
sequence of matches.md runs twice (scaled down), every local link resolves, and the format
guide's YAML is the shipped file it names.

A command or snippet that needs the source checkout says so where readers see it: the mark
``[repository]`` in the command's comment (``fuzzeval ... # [repository] why``) or on the
first line of a snippet (``# [repository] why``). It runs from a folder that holds the
checkout's ``docs/`` and ``rulebases/``; an unmarked one may not name those folders.
"""

from __future__ import annotations

import functools
import glob
import importlib.util
import json
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.play.store import History

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
# Commands quick enough to run in the suite (each well under a second).
QUICK = {("evaluate",), ("rulebase",), ("cribbage", "score"), ("cribbage", "discard"),
         ("backgammon", "moves"), ("plot", "membership"), ("hearts", "card")}


#: the mark of a command or snippet that needs the source checkout (docs/cli.md)
REPOSITORY = "[repository]"
#: folders of the checkout that only a command marked REPOSITORY may read
CHECKOUT_FOLDERS = ("docs/", "rulebases/", "benchmarks/", "tests/")


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    args: tuple[str, ...]
    comment: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: fuzzeval {' '.join(self.args)}"

    @property
    def needs_repository(self) -> bool:
        return REPOSITORY in self.comment


@dataclass(frozen=True)
class Shell:
    """A line that makes a file for the commands after it (``printf '...' > inputs.csv``):
    run by the shell, in the same folder, in its place in the page."""
    page: str
    line: int
    text: str


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


def steps() -> list[Command | Shell]:
    """Every ``fuzzeval`` command and file-making ``printf`` of the docs, in page order."""
    found: list[Command | Shell] = []
    for page, start, code in blocks("bash"):
        for line, text in shell_lines(code, start):
            for part in text.split("&&"):
                part = part.strip()
                if part.startswith("fuzzeval "):
                    body, _, comment = part.partition(" #")
                    found.append(Command(page, line, tuple(shlex.split(body)[1:]),
                                         comment.strip()))
                elif part.startswith("printf ") and " > " in part:
                    found.append(Shell(page, line, part))
    return found


def commands() -> list[Command]:
    """Every ``fuzzeval`` command of the docs, in page order."""
    return [step for step in steps() if isinstance(step, Command)]


STEPS = steps()
COMMANDS = commands()
PYTHON = blocks("python")


def checkout_like(folder: Path) -> Path:
    """A folder that holds what a command marked REPOSITORY reads by relative path."""
    folder.mkdir()
    for name in ("rulebases", "docs"):
        (folder / name).symlink_to(ROOT / name)
    return folder


@pytest.fixture
def empty_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder outside the checkout, as after ``pip install`` somewhere else."""
    folder = tmp_path / "anywhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def test_the_docs_have_snippets_and_commands() -> None:
    assert len(PYTHON) >= 5 and len(COMMANDS) >= 40
    assert any(c.page == "README.md" for c in COMMANDS)


@pytest.mark.parametrize("snippet", PYTHON, ids=[f"{p}:{n}" for p, n, _ in PYTHON])
def test_python_snippet_runs_twice_from_an_empty_folder(
        snippet: tuple[str, int, str], empty_cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page, line, code = snippet
    if code.startswith(f"# {REPOSITORY}"):
        monkeypatch.chdir(checkout_like(empty_cwd.parent / "checkout"))
    compiled = compile(code, f"{page}:{line}", "exec")
    for _ in range(2):  # the second run finds what the first one stored
        exec(compiled, {"__name__": "__docs__"})


@functools.cache
def _root() -> Any:
    """The CLI as click sees it, built once: building it reads every command's signature
    (a tenth of a second), and collection resolves a hundred commands."""
    return get_command(app)


def resolve(args: tuple[str, ...]) -> tuple[tuple[str, ...], Any, list[str]]:
    """The command path, the (click-style) command and its own arguments."""
    cmd: Any = _root()
    rest, path = list(args), list[str]()
    while hasattr(cmd, "list_commands"):  # a group (typer vendors its own click)
        assert rest, f"no subcommand after {path}"
        name, rest = rest[0], rest[1:]
        sub = cmd.get_command(cmd.context_class(cmd), name)
        assert sub is not None, f"no command {' '.join([*path, name])!r}"
        cmd, path = sub, [*path, name]
    return tuple(path), cmd, rest


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_command_parses(command: Command, empty_cwd: Path,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    if command.needs_repository:
        monkeypatch.chdir(checkout_like(empty_cwd.parent / "checkout"))
    else:
        named = [a for a in command.args for f in CHECKOUT_FOLDERS if f in a]
        assert not named, (f"{command}: reads {named} of the checkout; make it work from "
                           f"any folder or mark it '# {REPOSITORY} why'")
    path, cmd, rest = resolve(command.args)
    # as the shell expands: a pattern that matches nothing stays as written (quoted or not)
    expanded = [m for a in rest for m in ((sorted(glob.glob(a)) or [a]) if "*" in a else [a])]
    assert path, "a command, not the top-level group"
    with cmd.make_context(" ".join(["fuzzeval", *path]), expanded):
        pass


def quick(command: Command) -> bool:
    path = resolve(command.args)[0]
    return any(path[:len(q)] == q for q in QUICK)


def reads_a_slow_output(command: Command, slow: list[Command]) -> bool:
    """Whether a quick command reads a file that a slower command shown before it makes (and
    the suite does not run): ``-p es:table=es.npz`` after ``train-es -o es.npz``."""
    made = {a for c in slow for a in c.args}
    return any(arg.split("=")[-1] in made for arg in command.args)


QUICK_PAGES = sorted({c.page for c in COMMANDS if quick(c)})


def run_twice(command: Command) -> list[str]:
    """Run a quick command twice in a row in the current folder; what went wrong."""
    args = [m for a in command.args for m in ((sorted(glob.glob(a)) or [a]) if "*" in a
                                              else [a])]
    problems = []
    for attempt in ("first", "second"):
        result = CliRunner().invoke(app, args)
        if result.exit_code != 0:
            problems.append(f"{command} ({attempt} run): exit {result.exit_code}: "
                            f"{result.output.strip()[-300:]}")
            break
        number = re.match(r"[\d.,]+\b", command.comment)
        if number and number.group(0).rstrip(",").replace(",", "") not in result.output:
            problems.append(f"{command} ({attempt} run): {number.group(0)} not in the output")
    return problems


@pytest.mark.parametrize("page", QUICK_PAGES)
def test_quick_commands_run_twice_in_page_order_from_an_empty_folder(
        page: str, empty_cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page's quick commands (and the files its printf lines make) in the order shown,
    each twice in a row, in one empty folder: a reader's session, done twice."""
    checkout = checkout_like(empty_cwd.parent / "checkout")
    problems: list[str] = []
    slow: list[Command] = []
    for step in (s for s in STEPS if s.page == page):
        if isinstance(step, Shell):
            for _ in range(2):
                done = subprocess.run(["bash", "-c", step.text], cwd=empty_cwd,
                                      capture_output=True, text=True, check=False)
                if done.returncode:
                    problems.append(f"{page}:{step.line}: {step.text}: {done.stderr}")
            continue
        if not quick(step):
            slow.append(step)
        elif not reads_a_slow_output(step, slow):
            monkeypatch.chdir(checkout if step.needs_repository else empty_cwd)
            problems += run_twice(step)
    assert not problems, "\n".join(problems)


#: matches.md's sequence, scaled down: fewer games, one process
SCALE = {"--games": "2", "-n": "2", "--workers": "1", "-w": "1"}


def scaled(args: tuple[str, ...]) -> list[str]:
    return [SCALE.get(before, a) for before, a in zip(("", *args), args, strict=False)]


def test_the_matches_guide_s_commands_run_in_order_and_again(empty_cwd: Path) -> None:
    """docs/matches.md's first match commands, in order, then all again: a match run twice,
    --resume and --json of the same match are each shown, never refused (the third was
    refused with exit 2 after the first two)."""
    page = "docs/matches.md"
    first = min(c.line for c in COMMANDS if c.page == page)
    sequence = [c for c in COMMANDS if c.page == page and c.line < first + 3]
    assert [c.args[:2] for c in sequence] == [("match", "cribbage")] * 3
    outputs = []
    for _ in range(2):
        for command in sequence:
            result = CliRunner().invoke(app, scaled(command.args))
            assert result.exit_code == 0, (str(command), result.output)
            outputs.append(result.stdout)
    assert json.loads(outputs[2])["games"] == json.loads(outputs[5])["games"] == 2
    with History(empty_cwd / "runs" / "m.sqlite") as history:
        assert history.matches()["finished"].tolist() == [2]  # one match, stored once


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


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces
    as dashes (headings inside code blocks are none)."""
    text = FENCE.sub("", page.read_text())
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in re.findall(r"^#+ (.*)$", text, re.M)}


def test_local_links_resolve() -> None:
    """Each link to a page of the checkout finds it, and the heading it names (a renamed
    heading leaves its links pointing nowhere)."""
    anchors = 0
    for page in PAGES:
        for target, anchor in re.findall(r"\]\(([^)#]*)(?:#([^)]*))?\)", page.read_text()):
            if "://" in target:
                continue
            path = page.parent / target if target else page
            assert path.exists(), f"{page.name}: {target}"
            if anchor:
                anchors += 1
                assert anchor in _anchors(path), f"{page.name}: {target}#{anchor}"
    assert anchors >= 10  # the docs link to headings: each is checked


def test_format_guide_shows_the_shipped_file() -> None:
    text = (ROOT / "docs" / "rulebase-format.md").read_text()
    yaml_blocks = [code for code in FENCE.findall(text) if code[0] == "yaml"]
    assert yaml_blocks[0][1] == (ROOT / "rulebases" / "tipping.yaml").read_text()
