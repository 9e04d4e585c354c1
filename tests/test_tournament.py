"""Round robins: every pairing is a stored match; the matrix reads both ways; a second run
finishes, it does not replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.match import MatchSpec, summarize
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History
from fuzzeval.play.tournament import pairings, run_tournament

PLAYERS = ("random", "greedy", "fuzzy")


def test_every_pair_once_and_the_matrix_reads_both_ways(tmp_path: Path) -> None:
    assert pairings(3) == [(0, 1), (0, 2), (1, 2)]
    with History(tmp_path / "t.sqlite") as h:
        t = run_tournament(h, GAME, PLAYERS, games=6, seed=4)
        assert len(h.matches()) == 3
        for i in range(3):
            assert t.cell(i, i) is None
            for j in range(3):
                if i != j:
                    a, b = t.cell(i, j), t.cell(j, i)
                    assert a is not None and b is not None
                    assert a[0] + b[0] == pytest.approx(1)
                    assert a[1][0] == pytest.approx(1 - b[1][1])
        # Each cell is the ordinary match of the same spec, played on its own.
    with History(tmp_path / "alone.sqlite") as h2:
        spec = MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("fuzzy"), 6, 4)
        match, _ = run_match(h2, GAME, spec)
        assert summarize(h2.outcomes(match.id)) == t.results[(1, 2)]


def test_tournament_cli_resumes_and_draws(tmp_path: Path) -> None:
    db, picture = tmp_path / "t.sqlite", tmp_path / "t.png"
    args = ["tournament", "cribbage", "-p", "random", "-p", "greedy", "--games", "4",
            "--workers", "1", "--db", str(db), "--plot", str(picture), "--json"]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["matches"][0]["games"] == 4 and picture.stat().st_size > 10_000
    with History(db) as h:
        created = h.matches()["created"].tolist()
    again = CliRunner().invoke(app, [*args[:7], "6", *args[8:]])
    assert again.exit_code == 0, again.output
    with History(db) as h:
        m = h.matches()
        assert m["created"].tolist() == created and m["finished"].tolist() == [6]
    bad = CliRunner().invoke(app, ["tournament", "cribbage", "-p", "random", "-p", "nobody",
                                   "--db", str(db)])
    assert bad.exit_code != 0 and "nobody" in bad.output


def test_a_four_seat_round_robin_plays_each_ordered_pair_for_its_mean_payoff(
        tmp_path: Path) -> None:
    from fuzzeval.games.hearts.game import GAME as HEARTS

    with History(tmp_path / "t.sqlite") as h:
        t = run_tournament(h, HEARTS, ["heuristic", "random"], 8, 3)
        assert sorted(t.results) == [(0, 1), (1, 0)] and t.seats == 4
        assert {s.unit for s in t.results.values()} == {"points per hand"}  # the game's
        for (i, j), summary in t.results.items():
            match = h.find_match(MatchSpec("hearts", PlayerSpec.parse(t.players[i]),
                                           PlayerSpec.parse(t.players[j]), 8, 3))
            assert match is not None
            paid = [o.payoffs[0] for o in h.outcomes(match.id)]
            cell = t.cell(i, j)
            assert cell is not None and cell[0] == pytest.approx(sum(paid) / 8)
            assert cell[1] == summary.ci95
        assert t.cell(0, 0) is None
        # the rule-of-thumb player takes far fewer points than random play at any table
        assert t.cell(0, 1)[0] < 6.5 < t.cell(1, 0)[0]  # type: ignore[index]


def test_a_two_seat_cell_without_winners_is_each_seat_s_mean_payoff() -> None:
    """Hold'em's cells: no win rates, so each player's mean payoff in the one match of the
    pair, the row player's from its own seat. Seat 0 was paid 1, -2, 4 (mean 1, standard
    deviation 3), seat 1 0, 3, -3 (mean 0): the interval's half width is t(0.975, 2) x 3
    / √3 either side, for each."""
    from fuzzeval.play.game import Outcome, Payoff
    from fuzzeval.play.tournament import Tournament

    paid = [(1.0, 0.0), (-2.0, 3.0), (4.0, -3.0)]
    outcomes = [Outcome(None, (0, 0), "", 0, ((0, 0),), {}, p) for p in paid]
    s = summarize(outcomes, Payoff("chips per hand"))
    t = Tournament(("a", "b"), 3, 1, {(0, 1): s})
    half = 4.302652729749462 * 3 / 3 ** 0.5
    a, b = t.cell(0, 1), t.cell(1, 0)
    assert a is not None and b is not None
    assert a[0] == 1.0 and a[1] == pytest.approx((1 - half, 1 + half), abs=1e-12)
    assert b[0] == 0.0 and b[1] == pytest.approx((-half, half), abs=1e-12)
    assert t.to_dict()["matches"][0]["unit"] == "chips per hand"


def test_a_stopped_tournament_counts_its_own_games_not_the_databases(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped, a tournament said "2081 games are saved" where it had stored 81: it counted
    every game of its database, another tournament's 2,000 too."""
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    db = tmp_path / "t.sqlite"
    base = ["tournament", "cribbage", "-n", "2", "-w", "1", "--db", str(db), "--plot",
            str(tmp_path / "t.png")]
    first = CliRunner().invoke(app, [*base, "-p", "random", "-p", "greedy"])
    assert first.exit_code == 0, first.output

    def stopped_at_once(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("fuzzeval.play.tournament.run_tournament", stopped_at_once)
    second = CliRunner().invoke(app, [*base, "-p", "random", "-p", "es"])
    assert second.exit_code == 130
    assert second.stderr.splitlines()[-1] == (
        f"interrupted: 0 games are saved in {db}; run the same command to finish the "
        "tournament")
