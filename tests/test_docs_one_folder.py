"""The README's tour and then every guide, page after page, in ONE folder, as a new user runs
them: a guide's history commands and the Python snippets that read a history show what the
guide says, whatever the pages before stored there. (A guide's export once wrote the README's
match, an ACPC log of two matches repeated its hand numbers, and matches.md's snippet read
that page's 1,000 games.)

Only what a later step reads is played: a ``match`` whose database a ``history``, ``holdem
replay`` or snippet after it reads, scaled down (tests/test_docs.py's commands and snippets,
in page order).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.play.store import History
from tests.test_docs import PAGES, PYTHON, ROOT, STEPS, Command, resolve

#: games a scaled match plays: a multiple of every game's seats (duplicate blocks)
GAMES = 8
#: the commands that store matches, and where they store them without --db
WRITERS: dict[tuple[str, ...], str] = {("match",): "runs/{game}.sqlite",
                                        ("tournament",): "runs/{game}_tournament.sqlite"}
#: the commands that read a history (or an export of one), their input first
READERS = {("history", "show"), ("history", "export"), ("holdem", "replay")}


@dataclass(frozen=True)
class Snippet:
    page: str
    line: int
    code: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: python snippet"


Step = Command | Snippet


def option(args: tuple[str, ...] | list[str], *names: str) -> str | None:
    """The value given to any of ``names``, the last one given; None when none is."""
    values = [b for a, b in pairwise(args) if a in names]
    return values[-1] if values else None


def kind(command: Command) -> tuple[str, ...]:
    return resolve(command.args)[0]


def database(command: Command) -> str:
    """Where a writer stores its matches."""
    rest = resolve(command.args)[2]
    return option(rest, "--db") or WRITERS[kind(command)].format(game=rest[0])


def reads(step: Step) -> set[str]:
    """The files a reader or a snippet reads (a snippet: every runs/ path it names)."""
    if isinstance(step, Snippet):
        return set(re.findall(r"runs/[\w.]+", step.code))
    return {resolve(step.args)[2][0]} if kind(step) in READERS else set()


def in_page_order() -> list[Step]:
    """The commands of the docs and the snippets that name a history, README.md first, then
    each guide, each page in its own order."""
    pages = [str(p.relative_to(ROOT)) for p in PAGES]
    steps: list[Step] = [s for s in STEPS if isinstance(s, Command)]
    steps += [Snippet(p, n, code) for p, n, code in PYTHON if "runs/" in code]
    return sorted(steps, key=lambda s: (pages.index(s.page), s.line))


def session() -> list[Step]:
    """The steps a user's session needs for what its readers show: each writer whose
    database a later step reads, then each reader of what was made before it."""
    steps = in_page_order()
    chosen: list[Step] = []
    made: set[str] = set()
    for k, step in enumerate(steps):
        if isinstance(step, Command) and kind(step) in WRITERS:
            if any(database(step) in reads(later) for later in steps[k + 1:]):
                chosen.append(step)
                made.add(database(step))
        elif reads(step) and (isinstance(step, Snippet) or reads(step) <= made):
            chosen.append(step)
            made |= reads(step)
            if isinstance(step, Command) and (out := option(step.args, "-o", "--output")):
                made.add(out)
    return chosen


def scaled(command: Command) -> list[str]:
    """A writer's arguments with GAMES games, on one process, and its summary as JSON."""
    args = list(command.args)
    args = [str(GAMES) if before in ("-n", "--games") else "1" if before in ("-w", "--workers")
            else a for before, a in zip(["", *args], args, strict=False)]
    return args + ["-w", "1"] * (option(args, "-w", "--workers") is None) \
        + ["--json"] * ("--json" not in args)


#: what a session stored: (page, database) -> the ids of the page's matches there
Stored = dict[tuple[str, str], set[int]]


def lineup(folder: Path, db: str, match_id: int) -> list[str]:
    """Each seat's player of a stored match, seat 0 first."""
    from fuzzeval.play.registry import load_game

    with History(folder / db, readonly=True) as history:
        spec = history.stored_match(match_id).spec
    return [str(p) for p in spec.lineup(load_game(spec.game).seats)]


def check_export(folder: Path, command: Command, stored: Stored) -> None:
    """An export writes its page's own match, every game of it once, numbered in order."""
    rest = resolve(command.args)[2]
    mine = stored.get((command.page, rest[0]), set())
    assert len(mine) == 1, f"{command}: its page stored matches {sorted(mine)} there"
    (match_id,) = mine
    out = option(rest, "-o", "--output")
    assert out is not None, f"{command}: writes to the terminal"
    lines = (folder / out).read_text().splitlines()
    seats = lineup(folder, rest[0], match_id)
    if option(rest, "--format") == "acpc":  # one match: no comment, hands 0, 1, 2, ...
        assert [line.split(":")[1] for line in lines] == [str(i) for i in range(GAMES)], \
            f"{command}: hands of another match, or numbered twice"
        assert {n for line in lines for n in line.rsplit(":", 1)[1].split("|")} == set(seats)
        return
    records = [json.loads(line) for line in lines]
    assert [(r["match"], r["index"], r["seats"]) for r in records] == \
        [(match_id, i, seats) for i in range(GAMES)], f"{command}: another match's games"


@dataclass(frozen=True)
class Session:
    """A session run: its steps, each command's output, the matches each page stored."""

    steps: list[Step]
    outputs: dict[Step, str]
    stored: Stored

    def command(self, page: str, path: tuple[str, ...]) -> Command:
        """The page's last command of ``path`` (``("history", "show")``) in the session."""
        found = [s for s in self.steps if isinstance(s, Command) and s.page == page
                 and kind(s) == path]
        assert found, f"{page}: no {' '.join(path)} in the session"
        return found[-1]


def run_session(folder: Path) -> Session:
    """Each step in turn in ``folder``; every command succeeds, every export is its page's."""
    steps = session()
    outputs: dict[Step, str] = {}
    stored: Stored = {}
    for step in steps:
        if isinstance(step, Snippet):  # its own assertions
            exec(compile(step.code, str(step), "exec"), {"__name__": "__docs__"})
            continue
        writer = kind(step) in WRITERS
        result = CliRunner().invoke(app, scaled(step) if writer else list(step.args))
        assert result.exit_code == 0, f"{step}: exit {result.exit_code}: {result.output}"
        outputs[step] = result.stdout
        if writer:
            key = (step.page, database(step))
            stored.setdefault(key, set()).add(json.loads(result.stdout)["match_id"])
        elif kind(step) == ("history", "export"):
            check_export(folder, step, stored)
    return Session(steps, outputs, stored)


def test_the_guides_show_their_own_matches_after_the_readme_s_tour(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "anywhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    run = run_session(folder)
    # hearts.md: its export is its own match (checked as it ran)
    run.command("docs/hearts.md", ("history", "export"))
    # holdem.md: the log replays as one match of its two players, GAMES hands each
    replay = run.outputs[run.command("docs/holdem.md", ("holdem", "replay"))]
    assert f": {GAMES} hands" in replay
    hands = {line.split()[0]: line.split()[1] for line in replay.splitlines()
             if line.split()[:1] in (["fuzzy"], ["call"])}
    assert hands == {"fuzzy": str(GAMES), "call": str(GAMES)}
    # holdem.md: "Game 3 of the match above, told by fuzzeval history show"
    show = run.command("docs/holdem.md", ("history", "show"))
    (match_id,) = run.stored[show.page, resolve(show.args)[2][0]]
    told = run.outputs[show]
    assert told.startswith(f"match {match_id}, game 3: holdem, fuzzy (seat 0) against call")
    for said in ("hole cards: fuzzy Ac9d, call 8c9c", "flop: As Ad Tc (pot 20)",
                 "turn: As Ad Tc 4d", "river: As Ad Tc 4d 9h", "fuzzy Ac 9d, full house",
                 "fuzzy took the pot of 120 chips (+60)"):
        assert said in told, said
    # matches.md's snippet (its own assertion: 4 games) after that page's match commands
    snippet = next(s for s in run.steps if isinstance(s, Snippet))
    assert snippet.page == "docs/matches.md"
    before = [s for s in run.steps[:run.steps.index(snippet)] if s.page == snippet.page]
    assert [isinstance(s, Command) and kind(s) for s in before] == [("match",)] * 3
