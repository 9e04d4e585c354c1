"""``--resume`` continues the latest stored match of a spec, and plays exactly the games
missing from it, wherever the gaps are."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.game import Outcome
from fuzzeval.play.match import MatchSpec, PlayerSpec, fingerprint, play_indexed
from fuzzeval.play.rows import GameRows
from fuzzeval.play.store import History, run_match

pytestmark = pytest.mark.audit


def spec(games: int) -> MatchSpec:
    return MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), games, 7)


def _uninterrupted(tmp_path: Path, games: int) -> list[Outcome]:
    with History(tmp_path / "whole.sqlite") as h:
        match, _ = run_match(h, GAME, spec(games))
        return h.outcomes(match.id)


def test_resume_continues_the_latest_of_two_matches_with_one_spec(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        older, _ = run_match(h, GAME, spec(3))  # a full run of 3 games...
        # ...then a second match of 1 (as older fuzzeval stored a run without --resume)
        newer = h.create_match(spec(1), GAME.unit_name, fingerprint(spec(1)))
        h.save_game(newer, play_indexed(GAME, spec(1), 0))
        assert newer.id > older.id and h.find_match(spec(5)).id == newer.id  # type: ignore[union-attr]
        played: list[int] = []
        match, before = run_match(h, GAME, spec(5), resume=True,
                                  on_game=lambda r: played.append(r.index))
        assert match.id == newer.id and before == 1 and played == [1, 2, 3, 4]
        assert h.finished(newer.id) == {0, 1, 2, 3, 4}
        assert h.finished(older.id) == {0, 1, 2}  # the older match is left as it was
        assert h.outcomes(newer.id) == _uninterrupted(tmp_path, 5)
        assert list(h.matches()["games"]) == [3, 5]


def test_resume_fills_gaps_in_the_finished_games(tmp_path: Path) -> None:
    """Games 0, 1 and 3 of five stored (as workers finishing out of order leave them): the
    resume plays exactly 2 and 4, and the match equals an uninterrupted one."""
    db = tmp_path / "h.sqlite"
    s = spec(5)
    with History(db) as h:
        stored = h.create_match(s, GAME.unit_name, fingerprint(s))
        for i in (0, 1, 3):
            h.save_game(stored, play_indexed(GAME, s, i))
        played: list[GameRows] = []
        match, before = run_match(h, GAME, s, resume=True, on_game=played.append)
        assert match.id == stored.id and before == 3
        assert sorted(r.index for r in played) == [2, 4]
        assert h.finished(match.id) == {0, 1, 2, 3, 4}
        assert h.outcomes(match.id) == _uninterrupted(tmp_path, 5)
        assert len(h.matches()) == 1
