"""A stored run (fuzzeval.play.runs): one way to find, key, claim and open a calibration, a
tuning or a learn, and the refusals a library caller gets as the commands give them. (The
settings' own checks: tests/test_run_settings.py; the commands': tests/test_cli_runs.py.)"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest

from fuzzeval.errors import UsageError
from fuzzeval.learn.calibration_rounds import (
    CALIBRATIONS,
    CalibrationSettings,
    start_calibration,
)
from fuzzeval.learn.td_runs import LEARNS, LearnSettings
from fuzzeval.learn.tune import TUNINGS, TuneSettings
from fuzzeval.play.history import HistoryError, NoSuchRun
from fuzzeval.play.runs import (
    digest,
    made_by_line,
    open_kind,
    open_run,
    settings_from_json,
    settings_json,
)
from fuzzeval.play.store import History


def test_the_digest_is_the_first_16_hex_digits_of_sha256() -> None:
    assert digest("abc") == hashlib.sha256(b"abc").hexdigest()[:16] == "ba7816bf8f01cfea"


def test_settings_are_stored_as_the_json_runs_were_stored_with() -> None:
    """A stored run is found by this text: it must not change, or the same command would
    start a new run instead of going on (tuples as lists, keys sorted, later settings left
    out at their default)."""
    cal = CalibrationSettings("cribbage", "random", 4, 2, options=(("peg_counts", False),))
    assert cal.to_json() == (
        '{"game": "cribbage", "games_per_round": 4, "opponent": "random", "options": '
        '[["peg_counts", false]], "player_options": [], "rate": 0.1, "seed": 2, '
        '"win_unit": "game", "window": "round"}')
    assert TuneSettings("cribbage", 10, 1).to_json() == (
        '{"deals": 10, "game": "cribbage", "outputs": false, "popsize": 0, "seed": 1, '
        '"sigma0": 0.1}')
    learn = json.loads(LearnSettings("hearts", monte_carlo=("pass",)).to_json())
    assert learn["monte_carlo"] == ["pass"] and "halving" not in learn and "split" not in learn
    assert settings_json(LearnSettings("hearts")) != LearnSettings("hearts").to_json()


def test_each_kind_keys_its_running_mark_by_its_settings_and_start() -> None:
    s = TuneSettings("cribbage", 10, 1)
    assert TUNINGS.key(s, "x") == f"tuning {digest(s.to_json() + 'x')}"
    assert CALIBRATIONS.key(CalibrationSettings("cribbage", "random", 4, 2), "x").startswith(
        "calibration ")
    assert LEARNS.key(LearnSettings("hearts"), "").startswith("learn ")


def test_a_kind_finds_claims_and_refuses_as_the_commands_do(tmp_path: Path) -> None:
    settings = CalibrationSettings("cribbage", "random", 4, 2)
    with History(tmp_path / "c.sqlite") as h:
        with pytest.raises(HistoryError, match=r"no calibration stored here$"):
            CALIBRATIONS.latest(h)
        with pytest.raises(HistoryError, match=r"c.sqlite: no calibration to resume with "
                                               "these settings and this rule base; run "
                                               "without --resume to start one$"):
            CALIBRATIONS.claim(h, settings, "yaml", True, lambda: 0)
        first = CALIBRATIONS.claim(h, settings, "yaml", False, lambda: start_calibration(
            h, settings, "rb", "yaml", 2))
        assert first == 1 == CALIBRATIONS.find(h, settings, "yaml") == CALIBRATIONS.latest(h)
        assert CALIBRATIONS.claim(h, settings, "yaml", True, lambda: 0) == 1  # found again
        assert CALIBRATIONS.find(h, settings, "other yaml") is None
        assert CALIBRATIONS.find(h, settings, None) == 1  # any start
        assert CALIBRATIONS.ids(h) == [1]


def test_an_id_not_stored_is_refused_in_one_way_for_every_kind(tmp_path: Path) -> None:
    """A usage error (exit 2) that lists the ids the history holds, as calibrations said;
    tunings and learns said a bare "no tuning 5" (a HistoryError, exit 1) before, and a
    match "no match 5 (matches: none)"."""
    from fuzzeval.learn.calibration_rounds import load_calibration
    from fuzzeval.learn.td_runs import load_learn
    from fuzzeval.learn.tune import load_tuning

    settings = CalibrationSettings("cribbage", "random", 4, 2)
    with History(tmp_path / "k.sqlite") as h:
        with h.conn:
            start_calibration(h, settings, "rb", "yaml", 2)
        for load, name, stored in ((load_calibration, "calibration", "1"),
                                   (load_tuning, "tuning", "none"),
                                   (load_learn, "learn", "none")):
            with pytest.raises(NoSuchRun, match=rf"k.sqlite: no {name} 5 \(stored: {stored}\)$"):
                load(h, 5)  # type: ignore[operator]
        with pytest.raises(NoSuchRun, match=r"k.sqlite: no match 5 \(stored: none\)$"):
            h.stored_match(5)  # a match's is the same refusal
    assert issubclass(NoSuchRun, UsageError) and issubclass(NoSuchRun, HistoryError)


def test_settings_are_read_back_as_they_were_stored() -> None:
    """``settings_from_json`` is ``to_json``'s twin for every kind: lists back to tuples."""
    cal = CalibrationSettings("cribbage", "random", 4, 2, options=(("peg_counts", False),),
                              player_options=(("rulebase", "x.yaml"),))
    tune = TuneSettings("cribbage", 10, 1, outputs=True, popsize=6)
    learn = LearnSettings("hearts", monte_carlo=("pass",), options=(("seats", 4),))
    for s in (cal, tune, learn):
        assert settings_from_json(type(s), s.to_json()) == s


def test_hold_takes_the_running_mark_then_claims(tmp_path: Path) -> None:
    """The mark is this run's key while it runs and let go after; a resume finds it."""
    settings = TuneSettings("cribbage", 10, 1)
    marks = "SELECT key FROM running_runs"
    with History(tmp_path / "t.sqlite") as h:
        def start() -> int:
            return TUNINGS.start(h, settings, "x", rulebase_name="rb", rulebase_yaml="x")
        with TUNINGS.hold(h, settings, "x", False, start) as first:
            assert first == 1
            assert h.conn.execute(marks).fetchall() == [(TUNINGS.key(settings, "x"),)]
        assert h.conn.execute(marks).fetchall() == []
        with TUNINGS.hold(h, settings, "x", True, start) as again:
            assert again == 1
        assert TUNINGS.ids(h) == [1]


def test_one_learn_to_a_database(tmp_path: Path) -> None:
    with History(tmp_path / "l.sqlite") as h:
        with h.conn:
            LEARNS.start(h, LearnSettings("hearts"), "start", rulebase_yaml="start")
        with pytest.raises(HistoryError, match=r"l.sqlite holds learn 1, with other settings "
                                               "or another start: one learn to a database; "
                                               "give another --db$"):
            LEARNS.claim(h, LearnSettings("hearts", seed=2), "start", False, lambda: 0)


def test_open_run_refuses_a_resume_of_nothing_and_a_run_another_process_holds(
        tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with pytest.raises(HistoryError, match=r"r.sqlite: no such history database, so nothing "
                                           "to resume; run without --resume to start$"):
        open_run(db, True, lambda h: 1)
    assert open_run(db, False, lambda h: 1) is None and not db.exists()  # no file made
    settings = TuneSettings("cribbage", 10, 1)
    with History(db) as h, h.conn:
        h.conn.execute("INSERT INTO running_runs (key, pid, host) VALUES (?, ?, 'elsewhere')",
                       (TUNINGS.key(settings, "yaml"), os.getpid()))
    with pytest.raises(HistoryError, match=r"this tuning is being run by another process "
                                           r"\(pid \d+ on elsewhere\)"):
        open_kind(db, TUNINGS, settings, "yaml", False, lambda h, i: i)
    with pytest.raises(HistoryError, match="no tuning to resume"):
        open_kind(db, TUNINGS, TuneSettings("cribbage", 10, 2), "yaml", True, lambda h, i: i)
    assert open_kind(db, TUNINGS, TuneSettings("cribbage", 10, 2), "yaml", False,
                     lambda h, i: i) is None


def test_a_kind_makes_its_own_tables_with_its_first_run_and_checks_them(
        tmp_path: Path) -> None:
    """A history holds a kind's tables from its first run of that kind on; read-only, one
    without them holds no run of it; a table of the kind lost is refused as damage."""
    db = tmp_path / "k.sqlite"
    with History(db):
        pass
    tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tun%'"
    with History(db) as h:
        assert h.conn.execute(tables).fetchall() == []
    with History(db, readonly=True) as h:
        assert TUNINGS.find(h, TuneSettings("cribbage", 10, 1), "x") is None
        assert TUNINGS.ids(h) == []
        with pytest.raises(HistoryError, match=r"no tuning stored here$"):
            TUNINGS.latest(h)
        assert h.conn.execute(tables).fetchall() == []  # nothing made in a reader
    with History(db) as h:
        assert TUNINGS.find(h, TuneSettings("cribbage", 10, 1), "x") is None
        assert sorted(r[0] for r in h.conn.execute(tables)) == ["tuning_generations",
                                                                "tunings"]
        h.conn.execute("DROP TABLE tuning_generations")
    with History(db) as h, pytest.raises(HistoryError, match=(
            r"k.sqlite: damaged history: table 'tuning_generations' is missing while "
            r"'tunings' is there; nothing was written$")):
        TUNINGS.ids(h)


@pytest.mark.mutation_pin
def test_a_made_by_line_quotes_the_words_a_shell_must_and_adds_how_only_when_given() -> None:
    assert made_by_line("learned", ["fuzzeval", "learn", "hearts"]) == (
        "learned by `fuzzeval learn hearts`")
    assert made_by_line("calibrated", ["fuzzeval", "calibrate", "cribbage", "--rulebase",
                                       "my base.yaml"], "(eq. 1)") == (
        "calibrated by `fuzzeval calibrate cribbage --rulebase 'my base.yaml'` (eq. 1)")


@pytest.mark.mutation_pin
def test_a_claim_with_another_start_is_a_new_run(tmp_path: Path) -> None:
    settings = CalibrationSettings("cribbage", "random", 4, 2)
    with History(tmp_path / "c.sqlite") as h:
        first = CALIBRATIONS.claim(h, settings, "yaml", False, lambda: start_calibration(
            h, settings, "rb", "yaml", 2))
        with pytest.raises(HistoryError, match="no calibration to resume"):
            CALIBRATIONS.claim(h, settings, "other yaml", True, lambda: 0)
        second = CALIBRATIONS.claim(h, settings, "other yaml", False,
                                    lambda: start_calibration(h, settings, "rb", "other yaml",
                                                              2))
        assert (first, second) == (1, 2) and CALIBRATIONS.ids(h) == [1, 2]


@pytest.mark.mutation_pin
def test_a_kind_s_table_lost_in_a_read_only_history_says_nothing_was_read(
        tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    with History(db) as h:
        assert TUNINGS.ids(h) == []  # makes the kind's tables
        h.conn.execute("DROP TABLE tuning_generations")
    with History(db, readonly=True) as h, pytest.raises(HistoryError, match=(
            r"k.sqlite: damaged history: table 'tuning_generations' is missing while "
            r"'tunings' is there; nothing was read$")):
        TUNINGS.ids(h)


@pytest.mark.mutation_pin
def test_open_kind_finds_the_run_of_these_settings_and_this_start_only(
        tmp_path: Path) -> None:
    """The stored run as ``look`` reads it; another start, or none stored, is None (and
    ``look`` is not asked); a resume of nothing is refused naming the file."""
    db = tmp_path / "t.sqlite"
    settings = TuneSettings("cribbage", 10, 1)
    with pytest.raises(HistoryError, match=r"t.sqlite: no such history database, so nothing "
                                           "to resume; run without --resume to start$"):
        open_kind(db, TUNINGS, settings, "yaml", True, lambda h, i: ("run", i))
    with History(db) as h, h.conn:
        TUNINGS.start(h, settings, "yaml", rulebase_name="rb", rulebase_yaml="yaml")
    assert open_kind(db, TUNINGS, settings, "yaml", False, lambda h, i: ("run", i)) == (
        "run", 1)
    assert open_kind(db, TUNINGS, settings, None, False, lambda h, i: ("run", i)) == ("run", 1)
    assert open_kind(db, TUNINGS, settings, "other yaml", False,
                     lambda h, i: ("run", i)) is None
    assert open_kind(db, TUNINGS, TuneSettings("cribbage", 10, 2), "yaml", False,
                     lambda h, i: ("run", i)) is None
    with pytest.raises(HistoryError, match=(
            "^" + re.escape(f"{db}: no tuning to resume with these settings and this rule "
                            "base; run without --resume to start one") + "$")):
        open_kind(db, TUNINGS, settings, "other yaml", True, lambda h, i: ("run", i))


@pytest.mark.mutation_pin
def test_open_kind_refuses_a_second_learn_in_a_database(tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite"
    with History(db) as h, h.conn:
        LEARNS.start(h, LearnSettings("hearts"), "start", rulebase_yaml="start")
    with pytest.raises(HistoryError, match=r"l.sqlite holds learn 1, with other settings "
                                           "or another start: one learn to a database; "
                                           "give another --db$"):
        open_kind(db, LEARNS, LearnSettings("hearts", seed=2), None, False,
                  lambda h, i: ("run", i))
    assert open_kind(db, LEARNS, LearnSettings("hearts"), None, False,
                     lambda h, i: ("run", i)) == ("run", 1)



@pytest.mark.mutation_pin
def test_open_kind_refuses_a_stored_match_another_process_is_playing(tmp_path: Path) -> None:
    """A match is marked by its id, known once it is found: ``open_kind`` checks that
    mark, so a second ``fuzzeval match`` is refused before it plays."""
    from fuzzeval.play.match import MatchSpec
    from fuzzeval.play.match_runs import MATCHES
    from fuzzeval.play.spec import PlayerSpec

    db = tmp_path / "m.sqlite"
    spec = MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 3, 5)
    with History(db) as h, h.conn:
        stored = h.create_match(spec, "deal", None)
        h.conn.execute("INSERT INTO running_runs (key, pid, host) VALUES (?, ?, 'elsewhere')",
                       (f"match {stored.id}", os.getpid()))
    with pytest.raises(HistoryError, match="^" + re.escape(
            f"{db}: this match is being played by another process (pid {os.getpid()} on "
            "elsewhere); let it finish or stop it, then run the same command again (it goes "
            "on from what is stored)") + "$"):
        open_kind(db, MATCHES, spec, None, False, lambda h, i: i)
    other = MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 3, 6)
    assert open_kind(db, MATCHES, other, None, False, lambda h, i: i) is None


@pytest.mark.mutation_pin
def test_each_kind_s_default_database_is_named_for_the_game_and_the_kind() -> None:
    from fuzzeval.play.match_runs import MATCHES

    assert [k.default_path("cribbage") for k in (MATCHES, CALIBRATIONS, TUNINGS, LEARNS)] == [
        Path("runs/cribbage.sqlite"), Path("runs/cribbage_calibration.sqlite"),
        Path("runs/cribbage_tune.sqlite"), Path("runs/cribbage_learn.sqlite")]


@pytest.mark.mutation_pin
def test_what_a_stopped_run_saved_is_read_without_migrating_an_older_history(
        tmp_path: Path) -> None:
    """``saved_in`` is read as a run stops: read-only, so a history of an older version is
    not migrated (nor given a kind's tables) on the way out."""
    import shutil

    old = tmp_path / "v3.sqlite"
    shutil.copy(Path(__file__).parent / "data" / "history_v3.sqlite", old)
    before = old.read_bytes()
    assert TUNINGS.saved_in(old, None, None) is None
    assert old.read_bytes() == before


@pytest.mark.mutation_pin
def test_settings_without_json_are_refused_by_a_kind_found_by_its_json() -> None:
    """A match's spec keys no calibration: a kind that finds its runs by JSON says that
    the kind given settings of another shape must supply its own find."""
    from fuzzeval.play.match import MatchSpec
    from fuzzeval.play.spec import PlayerSpec

    spec = MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 3, 5)
    with pytest.raises(TypeError, match=r"^MatchSpec is not found by its JSON: its kind of "
                                        r"run supplies its own find$"):
        TUNINGS.key(spec, "x")
