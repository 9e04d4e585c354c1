"""The compact history (version 2): features as packed float64 with their names stored
once. Old (version-1) histories still read, resume and calibrate; a calibration gives the
points it gave before the compact storage (commit ab122a3), to the last bit."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from fuzzeval.games.backgammon.features import MIRRORED
from fuzzeval.games.backgammon.game import GAME as BACKGAMMON
from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.learn.calibration_rounds import CalibrationSettings, run_calibration
from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.registry import load_game
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_decisions, read_games
from fuzzeval.play.stored_features import FeatureReader
from fuzzeval.resources import find_rulebase

DATA = Path(__file__).resolve().parent / "data"
# The matches of tests/data/history_v1.sqlite (made by tests/data/make_history_v1.py with
# the code of commit ab76fd8, before the compact storage: JSON features, players written out;
# re-made with greedy pegging's fix applied to that code).
CRIB = MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), 2, 7)
BG = MatchSpec("backgammon", PlayerSpec.parse("fuzzy:rulebase=backgammon_simple"),
               PlayerSpec("pubeval"), 1, 2)


def _fresh(path: Path, crib_games: int = 2) -> Path:
    with History(path) as h:
        run_match(h, CRIBBAGE, MatchSpec(CRIB.game, CRIB.player, CRIB.opponent, crib_games,
                                         CRIB.seed))
        run_match(h, BACKGAMMON, BG)
    return path


def _v1(tmp_path: Path) -> Path:
    copy = tmp_path / "v1.sqlite"
    shutil.copy(DATA / "history_v1.sqlite", copy)
    return copy


def _meta_version(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute(
            "SELECT value FROM fuzzeval_meta WHERE key = 'version'").fetchone()[0])


def test_a_version_1_history_reads_as_the_same_games_stored_now(tmp_path: Path) -> None:
    old = _v1(tmp_path)
    new = _fresh(tmp_path / "new.sqlite")
    assert _meta_version(old) == "1" and _meta_version(new) == "5"
    # the side to roll's pips, checkers off and counts from its side were added to
    # backgammon's features after version 1: the old history has the rest, as it stored them
    added = ["OpponentPipCount", "OpponentBorneOff", *(f"Their{n}" for n in MIRRORED)]
    assert not set(added) & set(read_decisions(old).columns)
    pd.testing.assert_frame_equal(read_decisions(old), read_decisions(new).drop(columns=added))
    pd.testing.assert_frame_equal(read_games(old), read_games(new))
    frame = read_decisions(new, match_id=2)
    assert set(frame[frame.seat == 0]["player"]) == {"fuzzy:rulebase=backgammon_simple"}
    assert set(frame[frame.seat == 1]["player"]) == {"pubeval"}
    assert frame[frame.seat == 0]["SinglePieces"].notna().all()
    assert frame[frame.seat == 1]["SinglePieces"].isna().all()  # pubeval logs no features


def test_a_version_1_history_resumes_with_both_forms_of_row(tmp_path: Path) -> None:
    old = _v1(tmp_path)
    longer = MatchSpec(CRIB.game, CRIB.player, CRIB.opponent, 4, CRIB.seed)
    with History(old) as h:
        match, before = run_match(h, CRIBBAGE, longer, resume=True)
        assert before == 2
        old_winning = h.winning_features([match.id], 0, CRIBBAGE.logged_kinds)
    assert _meta_version(old) == "5"  # an older fuzzeval now refuses it in one line
    new = _fresh(tmp_path / "new.sqlite", crib_games=4)
    with History(new) as h:
        assert h.winning_features([1], 0, CRIBBAGE.logged_kinds) == old_winning
    pd.testing.assert_frame_equal(read_decisions(old, 1), read_decisions(new, 1))


def test_features_take_a_fraction_of_the_json_they_took(tmp_path: Path) -> None:
    """Version 1 wrote about 1,030 bytes of JSON for a backgammon decision's 45 features
    (tests/data/history_v1.sqlite); packed, they take under 250."""
    db = tmp_path / "bg.sqlite"
    with History(db) as h:
        run_match(h, BACKGAMMON, MatchSpec("backgammon", BG.player, BG.opponent, 3, 5))
    for path, low, high in ((DATA / "history_v1.sqlite", 900, 1200), (db, 1, 250)):
        with sqlite3.connect(path) as conn:
            size, rows = conn.execute(
                "SELECT SUM(LENGTH(CAST(features AS BLOB))), COUNT(*) FROM decisions d JOIN "
                "matches m ON m.id = d.match_id WHERE m.game = 'backgammon' AND seat = 0"
            ).fetchone()
        assert low <= size / rows <= high, (path, size / rows)


# Calibrated points of three small calibrations, as the code before the compact storage
# computed them (run from a checkout of commit ab76fd8); the compact storage must not move
# one bit.
# The digests of the final texts were re-made when bases gained made_by: (the points did
# not move): the text now carries its name and made_by: line, and the shipped texts gained made_by:.
BEFORE = {
    "cribbage_linguistic": ("8172fe9e6bdecb97", {
        "kept_points.four.right": 6.662857142857143,
        "kept_points.fair.peak": 6.662857142857143,
        "kept_points.fair.right": 9.092857142857143,
        "kept_points.good.left": 6.662857142857143,
        "kept_points.good.peak": 9.092857142857143,
        "kept_points.twelve.left": 9.092857142857143,
        "fifteen_potential.few.right": 6.109107142857143,
        "fifteen_potential.some.peak": 6.109107142857143,
        "fifteen_potential.many.left": 6.109107142857143,
        "run_potential.none.right": 2.951964285714286,
        "run_potential.some.peak": 2.951964285714286,
        "run_potential.many.left": 2.951964285714286,
        "thrown_gap.near.right": 4.0, "thrown_gap.apart.peak": 4.0,
        "thrown_gap.wide.left": 4.0}),
    # Re-made with ab76fd8 (the storage before) and greedy pegging's fix (J, Q and K
    # replies weighed with 10 to 12 left), which changed the greedy opponent's games.
    "cribbage_expected_points": ("cfd8ae870744dd1d", {
        "hand_value.fair.peak": 8.341916109253066,
        "crib_value.rich.left": 5.835624353589743}),
    # The digest covers the file's text: its made_by names the teach script's module.
    "backgammon_refined": ("f142c9014e04ef02", {
        "RaceLead.Some.peak": 9.562442307692308, "Shots.Some.peak": 17.456192307692305,
        "BackEscapes.Some.peak": 12.01746153846154,
        "OpponentEscapes.Some.peak": 10.067134615384614}),
}
CASES = [
    ("cribbage_linguistic", CalibrationSettings("cribbage", "random", 6, 3)),
    ("cribbage_expected_points",
     CalibrationSettings("cribbage", "greedy", 6, 5, win_unit="deal")),
    ("backgammon_refined", CalibrationSettings("backgammon", "pubeval", 4, 2, window="all")),
]


@pytest.mark.parametrize(("rulebase", "settings"), CASES, ids=[c[0] for c in CASES])
def test_calibration_gives_the_points_it_gave_before_the_change(
        tmp_path: Path, rulebase: str, settings: CalibrationSettings) -> None:
    with History(tmp_path / "c.sqlite") as h:
        cal = run_calibration(h, load_game(settings.game), settings,
                              find_rulebase(rulebase).read_text(), rounds=2)
    rb = cal.final_rulebase()
    points = {f"{r.variable}.{r.term}.{r.point}": rb.point(r) for r in rb.adjustable_points()}
    digest, want = BEFORE[rulebase]
    assert points == want
    assert hashlib.sha256(cal.final_yaml().encode()).hexdigest()[:16] == digest


@pytest.mark.mutation_pin
def test_packed_features_that_do_not_read_are_refused_naming_the_history(
        tmp_path: Path) -> None:
    """Values that do not unpack, or unpack to another count than the set's names, are
    damage, said in one line that names the file."""
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        with h.conn:
            h.conn.execute("INSERT INTO feature_sets (id, names) VALUES (1, '[\"a\", \"b\"]')")
        read = FeatureReader(h.conn, db)
        assert read(zlib.compress(np.array([0.5, 2.0]).tobytes()), 1) == {"a": 0.5, "b": 2.0}
        with pytest.raises(HistoryError) as info:
            read(zlib.compress(np.array([0.5]).tobytes()), 1)
        assert str(info.value) == (f"{db}: damaged history: a decision has 1 feature values "
                                   "for 2 names")
        with pytest.raises(HistoryError) as info:
            read(b"not packed", 1)
        assert str(info.value) == (f"{db}: damaged history: a decision's features do not "
                                   "read (Error -3 while decompressing data: incorrect header "
                                   "check)")
