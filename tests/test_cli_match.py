"""``fuzzeval match``: output, a killed worker and Ctrl-C lose nothing, Dask gives the
same games as local processes."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import psutil
import pytest
from rich.console import Console
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.executors import executor_for
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_games
from tests.cli_tables import terminal

runner = CliRunner()
ENV = {"COLUMNS": "80"}


def test_match_prints_a_table_and_json(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    args = ["match", "cribbage", "--player", "greedy", "--opponent", "random", "--games", "12",
            "--seed", "5", "--db", str(db)]
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "win rate (95% interval)" in text.output and "pegging per deal" in text.output
    out = runner.invoke(app, [*args, "--resume", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)  # stderr says what --resume resumes
    assert data["games"] == 12 and data["resumed_games"] == 12  # nothing left to play
    lo, hi = data["interval95"]
    assert lo <= data["win_rate"] <= hi
    assert data["sides"][0]["wins"] + data["sides"][1]["wins"] == 12
    assert set(data["sides"][0]["per_unit"]) == {"pegging", "hand", "crib", "heels"}


def test_match_defaults_are_the_games_fuzzy_player_and_reference_opponent(
        tmp_path: Path) -> None:
    out = runner.invoke(app, ["match", "backgammon", "--games", "2", "--json",
                              "--db", str(tmp_path / "m.sqlite")])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["player"], data["opponent"], data["games"]) == ("fuzzy", "pubeval", 2)


def test_match_reports_user_errors_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "m.sqlite")
    for args, message in [
        (["match", "chess"], "no game called 'chess'"),
        (["match", "cribbage", "--player", "wizard", "--db", db], "unknown cribbage player"),
        (["match", "cribbage", "--option", "peg_counts", "--db", db], "key=value"),
        (["match", "cribbage", "--option", "speed=3", "--games", "1", "--db", db],
         "unknown cribbage options"),
    ]:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)  # usage errors
        assert message in result.output and "Traceback" not in result.output
        assert not Path(db).exists()  # refused before the history was made


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for_games(db: Path, at_least: int, proc: subprocess.Popen[str]) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the match ended early: {proc.communicate()}")
        if db.exists():
            try:  # a bare count: quick, and no write lock taken (History would create tables)
                with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as c:
                    n = int(c.execute("SELECT COUNT(*) FROM games").fetchone()[0])
            except sqlite3.Error:  # the file exists before its tables do
                n = 0
            if n >= at_least:
                return n
        time.sleep(0.02)
    raise AssertionError("no games appeared")


def test_a_killed_worker_and_ctrl_c_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    games = 100
    cmd = [sys.executable, "-m", "fuzzeval", "match", "cribbage", "--player", "exhaustive",
           "--opponent", "random", "--games", str(games), "--seed", "9", "--workers", "2",
           "--db", str(db)]
    env = {**os.environ, "COLUMNS": "120"}
    # 1. Kill one worker process mid-match.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    _wait_for_games(db, 8, proc)
    workers = psutil.Process(proc.pid).children(recursive=True)
    assert workers
    workers[0].kill()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    first = len(read_games(db))
    assert f"a worker process died: {first} of {games} games are saved" in err, err
    assert "--resume" in err
    assert 8 <= first < games
    # 2. Resume, and press Ctrl-C part-way through.
    # A pytest-xdist worker may run with SIGINT ignored, and a child inherits that (Python
    # then never turns SIGINT into KeyboardInterrupt): give the match a terminal's default.
    proc = subprocess.Popen([*cmd, "--resume"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, preexec_fn=_default_sigint)
    _wait_for_games(db, first + 1, proc)  # as soon as it is playing again
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    second = len(read_games(db))
    assert f"interrupted: {second} of {games} games are saved" in err, err
    assert first < second < games
    # 3. Resume to the end: every game exactly once, the same games as one serial run.
    done = subprocess.run([*cmd, "--resume", "--json"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["resumed_games"] == second
    stored = read_games(db)
    assert sorted(stored["game"]) == list(range(games))
    with History(tmp_path / "serial.sqlite") as h:
        spec = MatchSpec("cribbage", PlayerSpec("exhaustive"), PlayerSpec("random"), games, 9)
        match, _ = run_match(h, GAME, spec)
        serial = h.outcomes(match.id)
    assert [(o.winner, o.scores) for o in serial] == list(
        zip(stored.sort_values("game")["winner"],
            zip(stored.sort_values("game")["score0"], stored.sort_values("game")["score1"],
                strict=True), strict=True))


def test_dask_runs_the_same_games_as_local_processes(tmp_path: Path) -> None:
    import distributed  # here, not at collection: 0.3 s

    spec = MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), 10, 21)
    with History(tmp_path / "local.sqlite") as h, executor_for(workers=2) as pool:
        local = h.outcomes(run_match(h, GAME, spec, pool)[0].id)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            History(tmp_path / "dask.sqlite") as h, \
            executor_for(dask=cluster.scheduler_address) as executor:
        remote = h.outcomes(run_match(h, GAME, spec, executor)[0].id)
    assert remote == local


def test_the_summary_line_is_plain_text_on_a_colour_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """rich colours numbers and paths on a terminal unless told not to: the summary's
    "N games; history in PATH" line is printed as written, like every line a command
    prints from its own words."""


    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, color_system="truecolor", width=200)
    monkeypatch.setattr("fuzzeval.cli.match.console", terminal)  # the table
    monkeypatch.setattr("fuzzeval.cli.common.console", terminal)  # say_files: the line
    db = tmp_path / "m 2.sqlite"
    res = runner.invoke(app, ["match", "cribbage", "--games", "2", "-w", "1", "--player",
                              "greedy", "--opponent", "random", "--db", str(db)])
    assert res.exit_code == 0, res.output
    (line,) = [x for x in screen.getvalue().splitlines() if "history in" in x]
    assert "\x1b" not in line  # no colour codes
    assert re.fullmatch(rf"\d+ deals; history in {re.escape(str(db))}", line), line


def test_an_unknown_player_is_told_every_player_the_game_takes(tmp_path: Path) -> None:
    """Hearts' refusal listed 'sampling' but not 'td', which it takes; hold'em's listed
    neither."""
    for game, players in (("hearts", "random, heuristic, fuzzy, ismcts, maxn, sampling, td"),
                          ("holdem", "random, call, raise, acpc-example, fuzzy, sampling, td")):
        res = runner.invoke(app, ["match", game, "-p", "bogus", "-n", "1", "--db",
                                  str(tmp_path / "m.sqlite")])
        assert res.exit_code == 2 and res.stderr == (
            f"error: {game} player 'bogus': unknown {game} player 'bogus' (players: "
            f"{players})\n"), res.output


MATCH = ["match", "cribbage", "-p", "random", "--opponent", "random", "-w", "1"]


@pytest.mark.mutation_pin
def test_match_json_says_whether_it_was_duplicate(tmp_path: Path) -> None:
    for duplicate in (False, True):
        res = runner.invoke(app, [*MATCH, "-n", "2", "--json", "--db",
                                  str(tmp_path / f"{duplicate}.sqlite"),
                                  *(["--duplicate"] if duplicate else [])], env=ENV)
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        assert (out["duplicate"], out["seed"], out["resumed_games"], out["games"]) == (
            duplicate, 1, 0, 2)
        assert out["seats"] == ["random", "random"]


@pytest.mark.mutation_pin
def test_a_stopped_match_names_its_database(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.play.estimate import Stopwatch

    ticks: list[int] = []

    def tick(self: Stopwatch) -> None:
        ticks.append(1)
        if len(ticks) == 2:
            raise KeyboardInterrupt  # Ctrl-C as the second game ends

    monkeypatch.setattr(Stopwatch, "tick", tick)
    db = tmp_path / "m.sqlite"
    res = runner.invoke(app, [*MATCH, "-n", "5", "--db", str(db)], env=ENV)
    assert res.exit_code == 130, res.output
    assert res.stderr.splitlines()[-1] == (
        f"interrupted: 2 of 5 games are saved in {db}; run the same command with --resume "
        "to finish the match")


@pytest.mark.mutation_pin
def test_seats_keep_a_players_own_comma_separated_options() -> None:
    from fuzzeval.cli.match import _lineup
    from fuzzeval.play.spec import PlayerSpec

    got = _lineup("sampling:trials=5,stop=none,random, greedy", "fuzzy", None)
    assert got == (PlayerSpec("sampling", (("stop", "none"), ("trials", 5))),
                   PlayerSpec("random"), PlayerSpec("greedy"))


@pytest.mark.mutation_pin
def test_the_changed_rule_base_line_is_plain_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.cli import match as M

    console, out = terminal()
    monkeypatch.setattr(M, "err_console", console)
    M._say_changed(Path("runs/m1.sqlite"), 12)
    assert out.getvalue() == (
        "runs/m1.sqlite: a file a player reads (a rule base or a table) has changed since "
        "match 12 was stored with these settings: its games are another player's, so a new "
        "match starts\n")  # no colour codes: numbers and paths are not highlighted


@pytest.mark.mutation_pin
def test_a_match_table_counts_what_its_games_stored(tmp_path: Path) -> None:
    """The summary of a backgammon match, row by row, against the stored games: who won
    each (pubeval all 4: by 1, 2, 3 and 3 points, read back from the history), the kinds,
    the game points 1 + 2 + 3 + 3 = 9 and their mean 2.25 a game."""
    import sqlite3

    db = tmp_path / "m.sqlite"
    res = runner.invoke(app, ["match", "backgammon", "-p", "pubeval", "--opponent", "random",
                              "-n", "4", "--seed", "3", "--db", str(db), "-w", "1"],
                        env={"COLUMNS": "100"})
    assert res.exit_code == 0, res.output
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT winner, points FROM games ORDER BY idx").fetchall()
    assert sorted(p for _, p in stored) == [1, 2, 3, 3]
    lines = [" ".join(line.strip("│┃ ").split()) for line in res.stdout.splitlines()]
    assert "pubeval ┃ random" in lines[2]
    for row in ("points per game (95% interval) │ 2.250", "wins │ 4 │ 0",
                "won by single │ 1 │ 0", "won by gammon │ 1 │ 0",
                "won by backgammon │ 2 │ 0", "game points │ 9 │ 0"):
        assert any(line.startswith(row) for line in lines), row
    # the last line, whose path may wrap: compared without whitespace
    assert "".join(res.stdout.split()).endswith(f"4games;historyin{db}")
