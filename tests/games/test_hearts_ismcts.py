"""OpenSpiel's ISMCTS bot as a Hearts seat: the pyspiel state it is given carries exactly the
seat's information state (the true hand's, though the hidden cards are a guess), at the
seat's decision with the same legal cards; its passes avoid OpenSpiel's resampling crash;
its position is fixed by the seat's generator; bad options are refused in one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.game import GAME
from fuzzeval.games.hearts.players import heuristic_player
from fuzzeval.games.hearts.record import choices
from fuzzeval.games.hearts.sampling import determinized
from fuzzeval.games.hearts.view import view

pytest.importorskip("pyspiel")

from fuzzeval.games.hearts.ismcts import ismcts_player
from fuzzeval.games.hearts.openspiel import pyspiel_hand, pyspiel_position


def _true_pyspiel(state: rules.State) -> object:
    ps = pyspiel_hand(state)
    for card in choices(state):
        ps.apply_action(card)
    return ps


@pytest.mark.parametrize("options", [rules.STANDARD, rules.STURTEVANT_WHITE])
def test_the_bot_sees_the_seats_information_state_and_nothing_else(
        options: rules.Options) -> None:
    rng = np.random.default_rng(7)
    checked = passes = 0
    for g in range(4):
        state = rules.new_hand(rules.deal(rng), options, g)
        while state.phase != "over":
            seat = state.to_move
            ps, at = pyspiel_position(determinized(view(state), rng))
            true = _true_pyspiel(state)
            assert ps.current_player() == at == (0 if state.phase == "pass" else seat)
            # the same information state as the true hand's (rotated in the pass)
            assert ps.information_state_string(at) == true.information_state_string(seat)
            assert sorted(ps.legal_actions()) == rules.legal(state)
            checked += 1
            passes += state.phase == "pass"
            cards = rules.legal(state)
            state = rules.apply(state, cards[heuristic_player(view(state), cards, rng)])
    assert checked == 4 * 52 + (36 if options.passing else 0)
    assert passes == (36 if options.passing else 0)


def test_the_bot_passes_for_every_seat_from_a_position_fixed_by_its_generator() -> None:
    """Seats 1-3 passing after the seat that passes to them crashed OpenSpiel's resampler
    before the rotation; every pass decision now gets a legal card. The position the bot
    is given is fixed by the seat's generator (the bot itself is not: see ismcts.py)."""
    player = ismcts_player(simulations=20)
    rng = np.random.default_rng(3)
    state = GAME.new_game(rng, 0)
    while state.hand.phase == "pass" or state.hand.tricks_done < 2:
        candidates = GAME.candidates(state)
        seed = len(choices(state.hand))
        a, _ = pyspiel_position(determinized(view(state.hand), np.random.default_rng(seed)))
        b, _ = pyspiel_position(determinized(view(state.hand), np.random.default_rng(seed)))
        assert a.history() == b.history()
        choice = player.choose(candidates, np.random.default_rng(seed))
        assert 0 <= choice < len(candidates)
        state = GAME.apply(state, choice, rng)


@pytest.mark.parametrize(("options", "message"), [
    ({"simulations": 1}, "simulations must be a whole number from 2 to 1,000,000 (got 1)"),
    ({"simulations": 10**12},  # a TypeError from OpenSpiel's constructor, a traceback
     "simulations must be a whole number from 2 to 1,000,000 (got 1000000000000)"),
    ({"rollouts": 10**12}, "rollouts must be a whole number from 1 to 1,000 "),
    ({"uct_c": "high"}, "uct_c must be a number from 0 to 1e+06 (got 'high')"),
    ({"uct_c": float("nan")}, "uct_c must be a number from 0 to 1e+06 (got nan)"),
    ({"uct_c": 1e20}, "uct_c must be a number from 0 to 1e+06 (got 1e+20)"),  # no candidate
    ({"sims": 5}, "does not take options ['sims']"),
])
def test_bad_ismcts_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        ismcts_player(**options)


def test_a_duplicate_match_against_three_ismcts_bots() -> None:
    res = CliRunner().invoke(app, ["match", "hearts", "-p", "heuristic", "--opponent",
                                   "ismcts:simulations=10", "--duplicate", "-n", "4",
                                   "--json"])
    assert res.exit_code == 0, res.output
    assert '"unit": "points per hand"' in res.output


@pytest.mark.skipif("MUTANT_UNDER_TEST" in os.environ,
                    reason="a benchmark (not mutated) in a process of its own: under mutmut "
                    "its compiled kernels cannot compile, and as Python they take minutes")
def test_the_players_benchmark_lists_every_row_in_order() -> None:
    """Every row of benchmarks/hearts_players.py, in the table's order, at its sizes."""
    import argparse

    from benchmarks.hearts_players import rows

    args = argparse.Namespace(trials=3, simulations=7, deals=10, sampling_deals=11,
                              ismcts_deals=12, sampling_ismcts_deals=13)
    assert rows(args) == [
        ("heuristic-heuristic", "heuristic", "heuristic", 10),
        ("random-heuristic", "random", "heuristic", 10),
        ("sampling-heuristic", "sampling:trials=3", "heuristic", 11),
        ("fuzzy-heuristic", "fuzzy", "heuristic", 10),
        ("td-heuristic", "td", "heuristic", 10),
        ("samplingtd-heuristic", "sampling:trials=3,rollout=td", "heuristic", 11),
        ("samplingtd1-heuristic", "sampling:trials=3,rollout=td,horizon=1", "heuristic", 11),
        ("samplingtdh-heuristic", "sampling:trials=3,rollout=td,others=heuristic",
         "heuristic", 11),
        ("heuristic-ismcts", "heuristic", "ismcts:simulations=7", 12),
        ("sampling-ismcts", "sampling:trials=3", "ismcts:simulations=7", 13),
        ("fuzzy-ismcts", "fuzzy", "ismcts:simulations=7", 12),
        ("td-ismcts", "td", "ismcts:simulations=7", 12),
        ("samplingtd-ismcts", "sampling:trials=3,rollout=td", "ismcts:simulations=7", 13),
        ("maxnvalues-samplingtdh", "maxn:values=learned",
         "sampling:trials=3,rollout=td,others=heuristic", 11),
        ("heuristic-samplingtdh", "heuristic", "sampling:trials=3,rollout=td,others=heuristic",
         11),
        ("maxnvalues1-heuristic", "maxn:deals=1,values=learned", "heuristic", 10),
        ("maxnvalues-heuristic", "maxn:values=learned", "heuristic", 11),
        ("maxnvalues-ismcts", "maxn:values=learned", "ismcts:simulations=7", 13)]


def test_the_players_benchmark_names_each_player_as_its_heading_says() -> None:
    from benchmarks.hearts_players import shown

    assert [shown(p, 3) for p in ("sampling:trials=3,rollout=td,horizon=1",
                                  "sampling:trials=3,rollout=td", "sampling:trials=3",
                                  "sampling:trials=3,rollout=td,others=heuristic",
                                  "sampling:trials=30", "td", "heuristic")] == [
        "sampling(td, 1)", "sampling(td)", "sampling", "sampling(td/heur)",
        "sampling:trials=30", "td", "heuristic"]


def test_the_players_benchmark_pairs_the_deals_both_rows_played() -> None:
    """Worked by hand: differences 1, 2, 3 (the fourth deal only one row played), mean 2,
    sd 1, t(0.975, 2) = 4.3027: half-width 4.3027 / sqrt(3) = 2.4841."""
    import numpy as np

    from benchmarks.hearts_players import difference

    n, mean, half = difference(np.array([7.0, 8.0, 9.0, 5.0]), np.array([6.0, 6.0, 6.0]))
    assert (n, mean) == (3, 2.0)
    assert half == pytest.approx(4.302652729749462 / 3 ** 0.5, abs=1e-12)
    one = difference(np.array([4.0]), np.array([1.0]))
    assert one[:2] == (1, 3.0) and np.isnan(one[2])  # one deal: no spread to measure


def test_the_players_benchmark_prints_its_table(tmp_path: Path) -> None:
    """benchmarks/hearts_players.py at the smallest sizes (figures unchecked), on two of
    its rows (a subprocess each; the others run the same code, their players pinned by the
    tests of rows() and shown() above): a row per match, named as the table names them,
    and the paired difference of the rows played."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "hearts_players.py"), "--deals", "1",
         "--workers", "1", "--db-dir", str(tmp_path), "--only",
         "heuristic-heuristic,td-heuristic"], capture_output=True, text=True, check=False,
        timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert [(r.split("|")[1].strip(), r.split("|")[2].strip(), r.split("|")[3].strip())
            for r in rows[1:]] == [("heuristic", "heuristic", "1"), ("td", "heuristic", "1")]
    paired = [line for line in done.stdout.splitlines() if "paired" in line]
    assert [line.split(":")[0] for line in paired] == [
        "td - heuristic against heuristic, paired over 1 deals"]
    assert paired[0].endswith("+- nan")  # one deal: no spread to measure
    assert max(len(line) for line in done.stdout.splitlines()) <= 80


def _default_sigint() -> None:
    """Ctrl-C as at a terminal: a suite started in the background (``cmd &``) hands its
    children SIGINT ignored, and a Python started so never hears it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif("MUTANT_UNDER_TEST" in os.environ,
                    reason="a benchmark (not mutated) in a process of its own")
@pytest.mark.parametrize(("to_group", "signum", "code", "word"), [
    (True, 2, 130, "interrupted"),  # Ctrl-C at the terminal: the whole process group
    (False, 15, 143, "terminated"),  # kill PID: the script alone (its match was left running)
])
def test_a_stopped_players_benchmark_stops_its_match_and_says_so_in_one_line(
        tmp_path: Path, to_group: bool, signum: int, code: int, word: str) -> None:
    """Ctrl-C, or SIGTERM to the script alone: the match is stopped, saves and stops
    (its running mark given back), no process is left, the script says so in one line, no
    traceback (there was one, and the match was killed before it could stop)."""
    import contextlib
    import sqlite3
    import time

    import psutil

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, str(root / "benchmarks" / "hearts_players.py"), "--only",
         "sampling-heuristic", "--sampling-deals", "500", "--trials", "4", "--workers", "1",
         "--db-dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True, preexec_fn=_default_sigint)
    db = tmp_path / "sampling-heuristic.sqlite"
    deadline = time.monotonic() + 120
    games = 0
    while games == 0 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
                games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.Error:  # not made yet
            pass
    assert games > 0 and proc.poll() is None
    match = psutil.Process(proc.pid).children(recursive=True)
    assert match
    if to_group:
        os.killpg(proc.pid, signum)
    else:
        os.kill(proc.pid, signum)
    try:
        _, err = proc.communicate(timeout=120)
    finally:
        left = []
        for p in match:
            with contextlib.suppress(psutil.NoSuchProcess):
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                    left.append(p)
                    p.kill()
    assert not left
    assert proc.returncode == code, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"{word}: every row's match is stored; run the same command to resume")
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT COUNT(*) FROM running_runs").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= games
