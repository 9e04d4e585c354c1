"""The matches in a history (fuzzeval.play.store): what a match keeps, resuming without
loss, clear errors. (The history file's checks and running marks: tests/test_history.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fuzzeval.errors import NotFound
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.game import Outcome
from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.rows import GameRows
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_decisions, read_games


def spec(games: int, seed: int = 3) -> MatchSpec:
    return MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), games, seed)


def play(path: Path, s: MatchSpec, resume: bool = False) -> list[Outcome]:
    with History(path) as h:
        match, _ = run_match(h, GAME, s, resume=resume)
        return h.outcomes(match.id)


def test_decisions_keep_the_deal_the_choice_and_both_outcomes(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    outcomes = play(db, spec(6))
    games = read_games(db)
    assert list(games["game"]) == list(range(6))
    assert list(games["winner"]) == [o.winner for o in outcomes]
    d = read_decisions(db)
    assert len(d) == 2 * sum(o.units for o in outcomes)
    assert {"hand", "crib", "score", "opponent_score", "unit", "choice", "unit_won",
            "game_won", "player"} <= set(d.columns)
    for row in d.itertuples():
        o = outcomes[row.game]
        own, opp = o.unit_points[row.unit][row.seat], o.unit_points[row.unit][1 - row.seat]
        assert (row.unit_points, row.unit_points_opponent) == (own, opp)
        assert row.unit_won == (own > opp) and row.game_won == (o.winner == row.seat)
        thrown = set(row.choice.split())
        assert len(thrown) == 2 and thrown <= set(row.hand.split())
    assert set(d["player"]) == {"greedy", "random"}
    assert set(d["crib"]) == {"mine", "theirs"}


class _StopAfterCommit:
    """The history's connection, which raises KeyboardInterrupt just after the first
    commit of a game: a Ctrl-C between a batch's commit and the batch's forgetting (CI, 2026-11-28:
    the stop then stored the batch again, "UNIQUE constraint failed", exit 1)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.commits = conn, 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.conn, name)

    def __enter__(self) -> sqlite3.Connection:
        return self.conn.__enter__()

    def __exit__(self, *exc: object) -> bool:
        out = self.conn.__exit__(*exc)  # type: ignore[arg-type]
        if exc[0] is None and not self.commits and \
                self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]:
            self.commits += 1
            raise KeyboardInterrupt
        return bool(out)


def test_a_stop_just_after_a_commit_keeps_each_game_once(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        real = h.conn
        h.conn = _StopAfterCommit(real)  # type: ignore[assignment]
        try:
            with pytest.raises(KeyboardInterrupt):
                run_match(h, GAME, spec(5))
        finally:
            h.conn = real
    assert list(read_games(db)["game"]) == [0]  # the game committed, stored once
    assert play(db, spec(5), resume=True) == play(tmp_path / "whole.sqlite", spec(5))


def test_resume_finishes_a_match_exactly_as_one_run_would(tmp_path: Path) -> None:
    whole = play(tmp_path / "whole.sqlite", spec(24))
    part = tmp_path / "part.sqlite"

    class Stop(Exception):
        pass

    seen: list[GameRows] = []

    def stop_after_ten(record: GameRows) -> None:
        seen.append(record)
        if len(seen) == 10:
            raise Stop  # as a crash would, after the tenth game was committed

    with History(part) as h, pytest.raises(Stop):
        run_match(h, GAME, spec(24), on_game=stop_after_ten)
    assert len(read_games(part)) == 10
    with History(part) as h:
        match, before = run_match(h, GAME, spec(24), resume=True)
        assert before == 10
        assert h.outcomes(match.id) == whole
        assert len(h.matches()) == 1
    # Resuming with more games extends the match under the same seeds.
    longer = play(part, spec(30), resume=True)
    assert longer[:24] == whole and len(longer) == 30
    assert len(read_decisions(part)) == 2 * sum(o.units for o in longer)


def test_resume_needs_a_matching_match(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    play(db, spec(2))
    with History(db) as h, pytest.raises(HistoryError, match="no match to resume"):
        run_match(h, GAME, spec(2, seed=4), resume=True)


def test_bad_player_fails_before_anything_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    bad = MatchSpec("cribbage", PlayerSpec("wizard"), PlayerSpec("random"), 3, 1)
    with History(db) as h:
        with pytest.raises(Exception, match="wizard"):
            run_match(h, GAME, bad)
        assert h.matches().empty


@pytest.mark.mutation_pin
def test_a_game_not_stored_is_refused_naming_the_games_that_are(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    play(db, spec(3))
    with History(db) as h, pytest.raises(NotFound) as info:
        h.game_choices(1, 7)
    assert str(info.value) == (f"{db}: match 1 has no game 7 stored (games 0–2; games count "
                               "from 0)")


@pytest.mark.mutation_pin
def test_a_lost_feature_set_is_refused_naming_the_history(tmp_path: Path) -> None:
    """The readers of stored features (``read_decisions``, ``winning_features``) name the
    file whose feature names are gone."""
    db = tmp_path / "h.sqlite"
    play(db, spec(2))
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM feature_sets")
    conn.close()
    said = f"{db}: damaged history: feature set 1 is missing"
    with pytest.raises(HistoryError) as info:
        read_decisions(db)
    assert str(info.value) == said
    with History(db) as h, pytest.raises(HistoryError) as info:
        h.winning_features([1], 0, None)
    assert str(info.value) == said
