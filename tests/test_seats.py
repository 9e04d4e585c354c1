"""Any number of seats and real payoffs: outcomes paid per seat, matches that seat
a lineup and rotate the deal, duplicate blocks, history version 4 (and version 3 files
that still read, resume and extend), and the summaries' mean payoff with its interval."""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.errors import UsageError
from fuzzeval.games.backgammon.game import GAME as BACKGAMMON
from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.play.game import Outcome, Payoff
from fuzzeval.play.match import MatchSpec, check_players, play_indexed, summarize
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.replay import initial_state
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_decisions, read_games
from tests.toy import ToyTable

DATA = Path(__file__).resolve().parent / "data"
TABLE = ToyTable()
LOWER = Payoff("points taken per game", higher_is_better=False)


def _table_spec(games: int = 6, **kw: object) -> MatchSpec:
    return MatchSpec("toytable", PlayerSpec("max"), PlayerSpec("random"), games, 3,
                     **kw)  # type: ignore[arg-type]


def test_a_two_seat_win_pays_its_points_to_the_winner_and_takes_them_from_the_loser() -> None:
    assert Outcome(1, (80, 121), "single", 1, ((2, 5),), {}).payoffs == (-1.0, 1.0)
    assert Outcome(0, (121, 60), "skunk", 2, ((2, 5),), {}).payoffs == (2.0, -2.0)
    with pytest.raises(ValueError, match="must give its payoffs"):
        Outcome(None, (3, 4, 5), "", 0, (), {})
    with pytest.raises(ValueError, match="2 payoffs for 3 seats"):
        Outcome(None, (3, 4, 5), "", 0, (), {}, (1.0, 2.0))


def test_doing_well_is_beating_the_table_mean_in_the_direction_of_the_payoff() -> None:
    o = Outcome(None, (2, 7, 7), "", 0, ((0, 0, 4), (2, 7, 3)), {}, (2.0, 7.0, 7.0))
    assert [o.did_well(s, LOWER) for s in range(3)] == [True, False, False]  # mean 5.33
    assert [o.did_well(s, Payoff("x")) for s in range(3)] == [False, True, True]
    assert [o.unit_did_well(0, s, LOWER) for s in range(3)] == [True, True, False]
    assert [o.unit_did_well(1, s, LOWER) for s in range(3)] == [True, False, True]
    won = Outcome(1, (80, 121), "single", 1, ((9, 5),), {})
    assert [won.did_well(s, Payoff("x")) for s in (0, 1)] == [False, True]
    assert [won.unit_did_well(0, s, Payoff("x")) for s in (0, 1)] == [True, False]


def test_the_mean_payoff_has_a_student_t_interval_for_few_games() -> None:
    from scipy.stats import t as student_t  # here, not at collection: 0.8 s

    paid = [1.0, -1.0, 2.0, -3.0]
    outcomes = [Outcome(0 if p > 0 else 1, (0, 0), "x", int(abs(p)), (), {}) for p in paid]
    s = summarize(outcomes)
    mean = sum(paid) / 4
    sd = math.sqrt(sum((p - mean) ** 2 for p in paid) / 3)
    half = float(student_t.ppf(0.975, 3)) * sd / 2
    assert s.mean == pytest.approx(-0.25)
    assert s.ci95 == pytest.approx((mean - half, mean + half))
    assert s.ci95 == pytest.approx((-3.7783, 3.2783), abs=1e-4)  # worked by hand
    assert s.unit == "game points per game" and s.win_rate == 0.5
    d = s.to_dict()
    assert d["mean"] == pytest.approx(-0.25) and d["unit"] == "game points per game"
    assert d["win_rate"] == 0.5 and "mean_margin" in d


def test_a_three_seat_match_is_stored_with_every_seats_payoff(tmp_path: Path) -> None:
    spec = _table_spec()
    with History(tmp_path / "h.sqlite") as h:
        stored, before = run_match(h, TABLE, spec)
        outcomes = h.outcomes(stored.id)
        again = h.stored_match(stored.id).spec
    assert before == 0 and again == spec
    fresh = [play_indexed(TABLE, spec, i) for i in range(6)]
    assert outcomes == [r.outcome for r in fresh]
    assert [r.first for r in fresh] == [0, 1, 2, 0, 1, 2]
    assert all(o.winner is None and len(o.payoffs) == 3 for o in outcomes)
    games = read_games(tmp_path / "h.sqlite")
    assert list(games.winner) == [-1] * 6
    frame = read_decisions(tmp_path / "h.sqlite")
    assert set(frame[frame.seat == 0].player) == {"max"}
    assert set(frame[frame.seat > 0].player) == {"random"}
    for row in frame.itertuples():
        paid = outcomes[row.game].payoffs
        assert row.game_won == (paid[row.seat] < sum(paid) / 3)
        points = outcomes[row.game].unit_points[row.unit]
        assert row.unit_points == points[row.seat]
        assert row.unit_points_opponent == sum(points) - points[row.seat]
        assert row.unit_won == (points[row.seat] < sum(points) / 3)
    s = summarize(outcomes, LOWER)
    assert s.win_rate is None and s.mean_margin is None and "win_rate" not in s.to_dict()
    assert s.mean == pytest.approx(sum(o.payoffs[0] for o in outcomes) / 6)
    assert [side.mean for side in s.sides] == pytest.approx(
        [sum(o.payoffs[k] for o in outcomes) / 6 for k in range(3)])


def test_named_seats_play_and_are_stored_seat_by_seat(tmp_path: Path) -> None:
    lineup = (PlayerSpec("max"), PlayerSpec("random"), PlayerSpec("max"))
    spec = MatchSpec("toytable", lineup[0], lineup[1], 3, 4, seats=lineup)
    with History(tmp_path / "h.sqlite") as h:
        stored, _ = run_match(h, TABLE, spec)
        assert h.stored_match(stored.id).spec == spec
        other, _ = run_match(h, TABLE, _table_spec(3))  # max against two random: another
        assert other.id != stored.id
    frame = read_decisions(tmp_path / "h.sqlite", match_id=stored.id)
    assert [set(frame[frame.seat == k].player) for k in range(3)] == [
        {"max"}, {"random"}, {"max"}]
    with pytest.raises(UsageError, match="--seats names 2 players; toytable seats 3"):
        check_players(TABLE, MatchSpec("toytable", lineup[0], lineup[1], 3, 4,
                                       seats=lineup[:2]))


def test_a_duplicate_block_deals_once_and_rotates_who_moves_first() -> None:
    from scipy.stats import t as student_t  # here, not at collection: 0.8 s

    spec = MatchSpec("toytable", PlayerSpec("max"), PlayerSpec("max"), 6, 9, duplicate=True)
    starts = [initial_state(TABLE, 9, i, i % 3, duplicate=True) for i in range(6)]
    assert len({s.offers for s in starts[:3]}) == 1 and starts[0].offers != starts[3].offers
    # block b deals what game b of an ordinary match deals
    assert starts[3].offers == initial_state(TABLE, 9, 1, 1).offers
    records = [play_indexed(TABLE, spec, i) for i in range(6)]
    # three players who take the largest number see the same numbers in a block, so what
    # seat k is paid in the game where seat r moves first is what seat k - r was paid when
    # seat 0 did: every seat played every position of the deal
    for block in (0, 3):
        base = records[block].outcome.payoffs
        for r in (1, 2):
            assert records[block + r].outcome.payoffs == tuple(
                base[(k - r) % 3] for k in range(3))
    s = summarize([r.outcome for r in records], LOWER, block=3)
    means = [sum(records[b].outcome.payoffs) / 3 for b in (0, 3)]
    assert s.mean == pytest.approx(sum(means) / 2)
    half = float(student_t.ppf(0.975, 1)) * abs(means[0] - means[1]) / math.sqrt(2) / \
        math.sqrt(2)
    assert s.ci95 == pytest.approx((s.mean - half, s.mean + half))
    with pytest.raises(UsageError, match=r"blocks of 3 games .* -n 4 is not a multiple of 3"):
        check_players(TABLE, MatchSpec("toytable", PlayerSpec("max"), PlayerSpec("max"), 4, 9,
                                       duplicate=True))


def test_a_duplicate_cribbage_pair_gives_each_player_the_others_cards() -> None:
    a, b = (initial_state(CRIBBAGE, 5, i, i % 2, duplicate=True) for i in (0, 1))
    assert a.hands[0] == b.hands[1] and a.hands[1] == b.hands[0]
    assert a.dealer != b.dealer


def _v3(tmp_path: Path) -> Path:
    copy = tmp_path / "v3.sqlite"
    shutil.copy(DATA / "history_v3.sqlite", copy)
    return copy


def test_a_version_3_history_reads_resumes_and_extends_as_the_same_games(
        tmp_path: Path) -> None:
    old = _v3(tmp_path)
    crib = MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), 5, 7)
    bg = MatchSpec("backgammon", PlayerSpec("pubeval"), PlayerSpec("random"), 2, 2)
    with History(old) as h:
        stored = h.outcomes(1)
        # made before payoffs were stored: each paid by its winner and points
        assert [(o.winner, o.result, o.payoffs) for o in stored] == [
            (0, "skunk", (2.0, -2.0))] * 3
        assert [o.payoffs for o in h.outcomes(2)] == [(2.0, -2.0)] * 2
        match, before = run_match(h, CRIBBAGE, crib, resume=True)
        assert match.id == 1 and before == 3
        resumed = h.outcomes(1)
    with sqlite3.connect(old) as conn:
        version = conn.execute("SELECT value FROM fuzzeval_meta WHERE key = 'version'")
        assert version.fetchone()[0] == "5"  # an older fuzzeval refuses it in one line
    new = tmp_path / "new.sqlite"
    with History(new) as h:
        run_match(h, CRIBBAGE, crib)
        run_match(h, BACKGAMMON, bg)
        assert h.outcomes(1) == resumed
    pd.testing.assert_frame_equal(read_decisions(old), read_decisions(new))
    pd.testing.assert_frame_equal(read_games(old), read_games(new))


def _json(args: list[str]) -> dict[str, object]:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    out: dict[str, object] = json.loads(result.stdout)
    return out


def test_match_json_gains_the_mean_payoff_and_seats_name_the_same_players(
        tmp_path: Path) -> None:
    db = str(tmp_path / "m.sqlite")
    two = _json(["match", "cribbage", "-p", "greedy", "--opponent", "random", "-n", "4",
                 "--seed", "5", "--json", "--db", db, "-w", "1"])
    games = read_games(db)
    paid = [p if w == 0 else -p for w, p in zip(games.winner, games.points, strict=True)]
    assert two["mean"] == pytest.approx(sum(paid) / 4)
    assert two["unit"] == "game points per game" and len(two["ci95"]) == 2  # type: ignore
    assert "win_rate" in two and two["seats"] == ["greedy", "random"]
    named = _json(["match", "cribbage", "--seats", "greedy,random", "-n", "4", "--seed", "5",
                   "--json", "--db", db, "-w", "1"])
    assert named["match_id"] == 2 and named["mean"] == two["mean"]
    assert named["sides"] == two["sides"]


@pytest.mark.parametrize(("args", "message"), [
    (["--seats", "greedy,random", "-p", "greedy"], "without -p and --opponent"),
    (["--seats", "greedy"], "name every seat's player"),
    (["--seats", "greedy,,random"], "name every seat's player"),
    (["--seats", "greedy,random,random"], "--seats names 3 players; cribbage seats 2"),
    (["--duplicate", "-n", "3"], "-n 3 is not a multiple of 2"),
])
def test_bad_seating_is_one_line_and_exit_2(tmp_path: Path, args: list[str],
                                            message: str) -> None:
    result = CliRunner().invoke(app, ["match", "cribbage", *args, "--db",
                                      str(tmp_path / "x.sqlite")])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x.sqlite").exists()


def test_seats_keep_a_players_own_comma_separated_options() -> None:
    from fuzzeval.cli.match import _lineup

    assert _lineup("sampling:trials=60,min_trials=20,greedy", "fuzzy", None) == (
        PlayerSpec.parse("sampling:trials=60,min_trials=20"), PlayerSpec("greedy"))
