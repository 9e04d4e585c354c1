"""History's queries that players read: a player's decisions found by seat, named seats
included, and the board selector reading through them with History's checks."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.registry import load_game
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_decisions


def test_a_player_in_a_named_seat_is_found_by_its_seat(tmp_path: Path) -> None:
    """Hearts with fuzzy in seat 2: the matches table's player/opponent say random, the
    seats column says fuzzy."""
    db = tmp_path / "h.sqlite"
    seats = tuple(PlayerSpec(n) for n in ("random", "random", "fuzzy", "random"))
    with History(db) as h:
        run_match(h, load_game("hearts"), MatchSpec("hearts", seats[0], seats[1], 2, 1,
                                                    seats=seats))
        fuzzy = h.decisions_by("fuzzy", "play", 1000)
        first = h.decisions_by("random", "pass", 4)  # seat 0's three passes, seat 1's first
    rows = read_decisions(db)
    want = rows[(rows.player == "fuzzy") & (rows.kind == "play")]
    assert [(m, g, c, w) for m, g, c, w, _ in fuzzy] == list(zip(
        want.match_id, want.game, want.choice, want.game_won, strict=True))
    assert len(fuzzy) == 26 and set(rows[rows.player == "fuzzy"].seat) == {2}
    assert [(g, c["passing"]) for _, g, _, _, c in first] == \
        [(0, "left")] * 4 + [(1, "left")] * 4


def test_the_board_selector_refuses_what_history_refuses(tmp_path: Path) -> None:
    from fuzzeval.games.backgammon.selector import history_record

    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(ValueError) as caught:
        history_record(other)
    assert str(caught.value) == (f"{other}: an SQLite database, but not a fuzzeval history "
                                 "(tables: t) (the board selector's history)")
    with pytest.raises(ValueError) as caught:
        history_record(tmp_path / "none.sqlite")
    assert str(caught.value) == (f"{tmp_path / 'none.sqlite'}: no such history database "
                                 "(the board selector's history)")
