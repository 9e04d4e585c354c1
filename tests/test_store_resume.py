"""What ``--resume`` picks and plays (fuzzeval.play.store): the latest match of exactly the same
spec, its stored length never shrinking, only the missing games played, and the errors
that stop a resume. Played on the toy game, quick; then on cribbage, a resume that
continues the latest of two matches of a spec and one that fills gaps wherever they are."""

from __future__ import annotations

import json
import shutil
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.play.game import Outcome
from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import MatchSpec, fingerprint, play_indexed
from fuzzeval.play.match_runs import resumable, run_match, stored_games
from fuzzeval.play.rows import GameRows
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, StoredMatch
from tests.toy import RULEBASE, ToyGame


def spec(games: int, seed: int = 5, player: str = "random", opponent: str = "random",
         options: tuple[tuple[str, Any], ...] = ()) -> MatchSpec:
    return MatchSpec("toy", PlayerSpec(player), PlayerSpec(opponent), games, seed, options)


class CountingToy(ToyGame):
    """The toy game, counting the calls of ``prepare``."""

    def __init__(self) -> None:
        self.prepared = 0

    def prepare(self) -> None:
        self.prepared += 1


# --- find_match ------------------------------------------------------------------------


@pytest.mark.mutation_pin
def test_find_match_gives_the_latest_match_of_the_same_spec_with_its_stored_fields(
    tmp_path: Path,
) -> None:
    with History(tmp_path / "h.sqlite") as h:
        assert h.find_match(spec(3)) is None
        first = h.create_match(spec(3), "deal", "fp-a")
        second = h.create_match(spec(7), "round", "fp-b")
        # Matches differing in one field each are never picked.
        h.create_match(spec(3, seed=6), "x", None)
        h.create_match(spec(3, player="rulebase"), "x", None)
        h.create_match(spec(3, opponent="rulebase"), "x", None)
        h.create_match(spec(3, options=(("hands", 2),)), "x", None)
        h.create_match(MatchSpec("other", PlayerSpec("random"), PlayerSpec("random"), 3, 5),
                       "x", None)
        found = h.find_match(spec(1))  # any length
        assert found == StoredMatch(second.id, spec(1), "round", 7, "fp-b")
        assert second.id > first.id
        assert h.find_match(spec(3, options=(("hands", 2),))) is not None
        assert h.find_match(spec(3, options=(("hands", 3),))) is None
        assert h.find_match(spec(3, seed=9)) is None


# --- extend_match and finished ----------------------------------------------------------
@pytest.mark.mutation_pin
def test_find_match_tells_a_duplicate_match_from_a_plain_one(tmp_path: Path) -> None:
    plain = MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 4, 1)
    duplicate = MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 4, 1,
                          duplicate=True)
    with History(tmp_path / "h.sqlite") as h:
        assert h.find_match(duplicate) is None
        made = h.create_match(duplicate, "")
        assert h.find_match(duplicate) == StoredMatch(made.id, duplicate, "", 4, None)
        assert h.find_match(plain) is None


@pytest.mark.mutation_pin
def test_find_match_reads_a_history_older_than_seats(tmp_path: Path) -> None:
    """A version-3 history read as it is (read-only: not brought up to date) has no seats
    column; its matches are found all the same."""
    old = tmp_path / "v3.sqlite"
    shutil.copy(Path(__file__).resolve().parent / "data" / "history_v3.sqlite", old)
    crib = MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), 5, 7)
    with History(old, readonly=True) as h:
        found = h.find_match(crib)
    assert found is not None and (found.id, found.games) == (1, 3)




@pytest.mark.mutation_pin
def test_extend_match_never_shortens_and_keeps_the_rest(tmp_path: Path) -> None:
    with History(tmp_path / "h.sqlite") as h:
        stored = h.create_match(spec(4), "deal", "fp")
        other = h.create_match(spec(4, seed=8), "deal", None)
        longer = h.extend_match(stored, 9)
        assert longer == StoredMatch(stored.id, spec(4), "deal", 9, "fp")
        assert h.find_match(spec(4)) == StoredMatch(stored.id, spec(4), "deal", 9, "fp")
        shorter = h.extend_match(longer, 2)
        assert shorter.games == 9
        assert list(h.matches()["games"]) == [9, 4]  # the other match is untouched
        assert h.find_match(spec(4, seed=8)) == StoredMatch(other.id, spec(4, seed=8), "deal",
                                                              4, None)


@pytest.mark.mutation_pin
def test_finished_lists_the_stored_games_of_that_match_only(tmp_path: Path) -> None:
    game = ToyGame()
    with History(tmp_path / "h.sqlite") as h:
        a = h.create_match(spec(6), "", None)
        b = h.create_match(spec(6, seed=8), "", None)
        assert h.finished(a.id) == set()
        for i in (0, 2, 5):
            h.save_game(a, play_indexed(game, spec(6), i))
        h.save_game(b, play_indexed(game, spec(6, seed=8), 1))
        assert h.finished(a.id) == {0, 2, 5}
        assert h.finished(b.id) == {1}


# --- run_match --------------------------------------------------------------------------


@pytest.mark.mutation_pin
def test_resume_without_a_match_names_the_spec(tmp_path: Path) -> None:
    with History(tmp_path / "h.sqlite") as h:
        run_match(h, ToyGame(), spec(2))
        s = spec(2, seed=4, options=(("hands", 2),))
        with pytest.raises(HistoryError) as info:
            run_match(h, ToyGame(), s, resume=True)
        assert str(info.value) == (
            f"{h.path}: no match to resume with game toy, player random, opponent random, "
            "options {'hands': 2}, seed 4; run without --resume to start one")
        assert len(h.matches()) == 1


@pytest.mark.mutation_pin
def test_resume_refuses_a_match_whose_player_files_changed(tmp_path: Path) -> None:
    with History(tmp_path / "h.sqlite") as h:
        stored = h.create_match(spec(3), "", '{"player": {"rulebase": "0123"}}')
        with pytest.raises(HistoryError) as info:
            run_match(h, ToyGame(), spec(3), resume=True)
        assert str(info.value) == (
            f"{h.path}: a file a player reads (a rule base or a table) has changed since "
            f"match {stored.id} was stored, so its games are another player's; run without "
            "--resume to start a new match")
        assert h.finished(stored.id) == set()


@pytest.mark.mutation_pin
def test_resume_accepts_a_match_stored_without_a_fingerprint(tmp_path: Path) -> None:
    with History(tmp_path / "h.sqlite") as h:
        stored = h.create_match(spec(3), "", None)
        match, before = run_match(h, ToyGame(), spec(3), resume=True)
        assert match.id == stored.id and before == 0
        assert h.finished(stored.id) == {0, 1, 2}


@pytest.mark.mutation_pin
def test_a_match_run_again_continues_the_stored_one_with_its_fingerprint(
    tmp_path: Path,
) -> None:
    """Without resume, a new match is started and stored with its fingerprint; the same match
    run again is stored once: it continues the first (nothing left to play), no second one."""
    game = CountingToy()
    with History(tmp_path / "h.sqlite") as h:
        first, before = run_match(h, game, spec(2))
        assert before == 0 and first == StoredMatch(first.id, spec(2), "", 2, "{}")
        played: list[int] = []
        second, before = run_match(h, game, spec(2), on_game=lambda r: played.append(r.index))
        assert second.id == first.id and before == 2 and played == []
        assert h.finished(first.id) == {0, 1} and len(h.matches()) == 1
    assert game.prepared >= 2  # the game is prepared before each match is played


@pytest.mark.mutation_pin
def test_resume_plays_exactly_the_missing_games_and_reports_the_stored_ones(
    tmp_path: Path,
) -> None:
    game = CountingToy()
    with History(tmp_path / "h.sqlite") as h:
        stored = h.create_match(spec(6), "", "{}")
        for i in (1, 4):
            h.save_game(stored, play_indexed(game, spec(6), i))
        played: list[int] = []
        before_prepared = game.prepared
        match, before = run_match(h, game, spec(6), resume=True,
                                  on_game=lambda r: played.append(r.index))
        assert game.prepared > before_prepared
        assert match == StoredMatch(stored.id, spec(6), "", 6, "{}")
        assert before == 2 and played == [0, 2, 3, 5]
        assert h.finished(stored.id) == set(range(6))
        with History(tmp_path / "whole.sqlite") as whole:
            ref, _ = run_match(whole, ToyGame(), spec(6))
            assert h.outcomes(stored.id) == whole.outcomes(ref.id)


@pytest.mark.mutation_pin
def test_a_shorter_resume_plays_only_what_it_lacks_and_keeps_the_length(
    tmp_path: Path,
) -> None:
    with History(tmp_path / "h.sqlite") as h:
        stored = h.create_match(spec(8), "", "{}")
        for i in (0, 5, 6, 7):
            h.save_game(stored, play_indexed(ToyGame(), spec(8), i))
        played: list[int] = []
        match, before = run_match(h, ToyGame(), spec(3), resume=True,
                                  on_game=lambda r: played.append(r.index))
        assert played == [1, 2] and before == 4
        assert match.games == 8 and list(h.matches()["games"]) == [8]
        # A longer one extends the stored length and plays the rest.
        played.clear()
        match, before = run_match(h, ToyGame(), spec(10), resume=True,
                                  on_game=lambda r: played.append(r.index))
        assert played == [3, 4, 8, 9] and before == 6 and match.games == 10
        assert list(h.matches()["games"]) == [10]


class RecordingExecutor(Executor):
    """Runs each task at once, here, and records the games of each task."""

    def __init__(self) -> None:
        self.blocks: list[list[int]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.blocks.append(list(args[2]))
        fut: Future[Any] = Future()
        fut.set_result(fn(*args, **kwargs))
        return fut


@pytest.mark.mutation_pin
def test_resume_through_an_executor_plays_the_missing_games_once(tmp_path: Path) -> None:
    with History(tmp_path / "h.sqlite") as h:
        stored = h.create_match(spec(12), "", "{}")
        for i in range(0, 12, 2):
            h.save_game(stored, play_indexed(ToyGame(), spec(12), i))
        ex = RecordingExecutor()
        records: list[GameRows] = []
        _, before = run_match(h, ToyGame(), spec(12), executor=ex, resume=True,
                              on_game=records.append)
        assert before == 6
        assert sorted(i for b in ex.blocks for i in b) == [1, 3, 5, 7, 9, 11]
        assert sorted(r.index for r in records) == [1, 3, 5, 7, 9, 11]


@pytest.mark.mutation_pin
def test_a_resume_sizes_its_tasks_by_the_games_it_still_has_to_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stored: games 0, 20 and 21 of a match of 22; resumed as a match of 20, 19 games are
    left (1..19). With two tasks in flight for each of the executor's 4 workers (a window
    of 8), the first eight go one a task; then each task takes ceil(left / 8) of them (a
    task time no game reaches makes that the binding limit, however busy the machine):
    11 left -> 2, 9 left -> 2, then single games."""
    monkeypatch.setattr("fuzzeval.play.match.TASK_SECONDS", 1e9)
    monkeypatch.setattr("fuzzeval.play.match.TASKS_PER_WORKER", 2)
    with History(tmp_path / "h.sqlite") as h:
        stored = h.create_match(spec(22), "", "{}")
        for i in (0, 20, 21):
            h.save_game(stored, play_indexed(ToyGame(), spec(22), i))
        ex = RecordingExecutor()
        _, before = run_match(h, ToyGame(), spec(20), executor=ex, resume=True)
        assert before == 3
        assert [len(b) for b in ex.blocks] == [1] * 8 + [2, 2] + [1] * 7
        assert [i for b in ex.blocks for i in b] == list(range(1, 20))


# --- the default rule base in the fingerprint; resumable and stored_games -----------------


class DefaultedToy(ToyGame):
    """The toy game whose rule-base player reads a default rule base when none is named
    (as backgammon's and cribbage's fuzzy players read ``play_rulebase``)."""

    def __init__(self, play_rulebase: str) -> None:
        self.play_rulebase = play_rulebase

    def make_player(self, name: str, **options: Any) -> Any:
        if name == "rulebase":
            options.setdefault("rulebase", self.play_rulebase)
        return super().make_player(name, **options)


@pytest.mark.mutation_pin
def test_a_match_stores_the_fingerprint_of_the_default_rulebase_it_reads(
    tmp_path: Path,
) -> None:
    """Found by mutation testing: ``run_match`` fingerprinting without the game forgot the
    default rule base, so a match of the old default would be extended with the new one."""
    base = tmp_path / "toy.yaml"
    base.write_text(RULEBASE)
    game = DefaultedToy(str(base))
    s = spec(2, player="rulebase")
    with History(tmp_path / "h.sqlite") as h:
        run_match(h, game, s)
        stored = h.find_match(s)
        assert stored is not None and stored.fingerprint is not None
        assert set(json.loads(stored.fingerprint)) == {"player"}  # the default it read
        base.write_text(RULEBASE.replace("[2, 10, 10]", "[3, 10, 10]"))  # a new default
        with pytest.raises(HistoryError, match="has changed since match"):
            run_match(h, game, s, resume=True)


@pytest.mark.mutation_pin
def test_resumable_is_the_latest_match_whose_players_read_the_same_files(
    tmp_path: Path,
) -> None:
    game = ToyGame()
    with History(tmp_path / "h.sqlite") as h:
        assert resumable(h, game, spec(4)) is None
        h.create_match(spec(4), "", "{}")
        latest = h.create_match(spec(4), "", "{}")
        assert resumable(h, game, spec(4)) == latest
        assert resumable(h, game, spec(9)) == h.find_match(spec(9))  # any stored length
        unknown = h.create_match(spec(4), "", None)  # version 1: no fingerprint, trusted
        assert resumable(h, game, spec(4)) == unknown
        h.create_match(spec(4), "", '{"player": {"rulebase": "0123456789abcdef"}}')
        assert resumable(h, game, spec(4)) is None  # another player's games
        assert resumable(h, game, spec(4, seed=6)) is None


@pytest.mark.mutation_pin
def test_stored_games_counts_the_finished_games_a_resume_keeps(tmp_path: Path) -> None:
    game = ToyGame()
    with History(tmp_path / "h.sqlite") as h:
        assert stored_games(h, game, spec(6)) == 0
        stored = h.create_match(spec(6), "", "{}")
        for i in (0, 2, 5):
            h.save_game(stored, play_indexed(game, spec(6), i))
        assert stored_games(h, game, spec(6)) == 3
        assert stored_games(h, game, spec(3)) == 2  # game 5 is beyond a 3-game match
        assert stored_games(h, game, spec(1)) == 1
        assert stored_games(h, game, spec(5)) == 2  # game 5 is the sixth: not in five
        assert stored_games(h, game, spec(6, seed=6)) == 0
        h.create_match(spec(6), "", '{"opponent": {"rulebase": "0123456789abcdef"}}')
        assert stored_games(h, game, spec(6)) == 0  # the latest cannot be resumed


@pytest.mark.mutation_pin
def test_a_match_of_the_default_rulebase_is_resumable_and_its_games_counted(
    tmp_path: Path,
) -> None:
    """Found by mutation testing: resumable() and stored_games() fingerprinting without the
    game never matched a match whose player reads the game's default rule base."""
    base = tmp_path / "toy.yaml"
    base.write_text(RULEBASE)
    game = DefaultedToy(str(base))
    s = spec(3, player="rulebase")
    with History(tmp_path / "h.sqlite") as h:
        run_match(h, game, s)
        assert resumable(h, game, s) == h.find_match(s) is not None
        assert stored_games(h, game, s) == 3
        base.write_text(RULEBASE.replace("[2, 10, 10]", "[3, 10, 10]"))
        assert resumable(h, game, s) is None and stored_games(h, game, s) == 0


# --- on cribbage: the latest of two matches, and gaps ---------------------------------


def cribbage_spec(games: int) -> MatchSpec:
    return MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), games, 7)


def _uninterrupted(tmp_path: Path, games: int) -> list[Outcome]:
    with History(tmp_path / "whole.sqlite") as h:
        match, _ = run_match(h, CRIBBAGE, cribbage_spec(games))
        return h.outcomes(match.id)


@pytest.mark.audit
def test_resume_continues_the_latest_of_two_matches_with_one_spec(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        older, _ = run_match(h, CRIBBAGE, cribbage_spec(3))  # a full run of 3 games...
        # ...then a second match of 1 (as older fuzzeval stored a run without --resume)
        newer = h.create_match(cribbage_spec(1), CRIBBAGE.unit_name, fingerprint(cribbage_spec(1)))
        h.save_game(newer, play_indexed(CRIBBAGE, cribbage_spec(1), 0))
        assert newer.id > older.id and h.find_match(cribbage_spec(5)).id == newer.id  # type: ignore[union-attr]
        played: list[int] = []
        match, before = run_match(h, CRIBBAGE, cribbage_spec(5), resume=True,
                                  on_game=lambda r: played.append(r.index))
        assert match.id == newer.id and before == 1 and played == [1, 2, 3, 4]
        assert h.finished(newer.id) == {0, 1, 2, 3, 4}
        assert h.finished(older.id) == {0, 1, 2}  # the older match is left as it was
        assert h.outcomes(newer.id) == _uninterrupted(tmp_path, 5)
        assert list(h.matches()["games"]) == [3, 5]


@pytest.mark.audit
def test_resume_fills_gaps_in_the_finished_games(tmp_path: Path) -> None:
    """Games 0, 1 and 3 of five stored (as workers finishing out of order leave them): the
    resume plays exactly 2 and 4, and the match equals an uninterrupted one."""
    db = tmp_path / "h.sqlite"
    s = cribbage_spec(5)
    with History(db) as h:
        stored = h.create_match(s, CRIBBAGE.unit_name, fingerprint(s))
        for i in (0, 1, 3):
            h.save_game(stored, play_indexed(CRIBBAGE, s, i))
        played: list[GameRows] = []
        match, before = run_match(h, CRIBBAGE, s, resume=True, on_game=played.append)
        assert match.id == stored.id and before == 3
        assert sorted(r.index for r in played) == [2, 4]
        assert h.finished(match.id) == {0, 1, 2, 3, 4}
        assert h.outcomes(match.id) == _uninterrupted(tmp_path, 5)
        assert len(h.matches()) == 1



def test_the_python_api_stores_a_match_once_as_the_command_does(tmp_path: Path) -> None:
    """run_match run twice (docs/matches.md's snippet) continues the stored match: the
    second run plays nothing, and the history holds one match of 4 games, not two."""
    from fuzzeval.play.history import HistoryError
    from fuzzeval.play.match import MatchSpec
    from fuzzeval.play.match_runs import run_match
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.spec import PlayerSpec
    from fuzzeval.play.store import History, read_games

    spec = MatchSpec("cribbage", PlayerSpec.parse("greedy"), PlayerSpec.parse("random"),
                     games=4, seed=1)
    db = tmp_path / "m.sqlite"
    for before in (0, 4):
        with History(db) as history:
            match, already = run_match(history, load_game("cribbage"), spec)
        assert (match.id, already) == (1, before)
    assert len(read_games(db)) == 4
    with History(db) as history, pytest.raises(HistoryError, match="no match to resume"):
        run_match(history, load_game("cribbage"), MatchSpec(
            "cribbage", spec.player, spec.opponent, 4, 2), resume=True)


@pytest.mark.mutation_pin
def test_match_into_says_a_changed_match_plays_a_new_one_and_summarises_it(
        tmp_path: Path) -> None:
    """``match_into`` (what ``fuzzeval match`` calls): a stored match of the spec whose
    player files changed is told by id and a new match is played beside it; then the
    same call goes on with that one, telling nothing; ``games_saved`` counts its games."""
    from fuzzeval.play.match import summarize
    from fuzzeval.play.match_runs import games_saved, match_into

    db = tmp_path / "h.sqlite"
    assert games_saved(db, spec(3)) == 0  # no file yet
    with History(db) as h:
        changed = h.create_match(spec(3), "", '{"player": {"rulebase": "0123"}}')
    told: list[int] = []
    played = match_into(db, ToyGame(), spec(3), on_changed=told.append)
    assert told == [changed.id] and played.match.id == changed.id + 1 and played.before == 0
    with History(db) as h:
        assert played.summary == summarize(h.outcomes(played.match.id), ToyGame().payoff)
    again = match_into(db, ToyGame(), spec(3), on_changed=told.append)
    assert told == [changed.id] and (again.match.id, again.before) == (played.match.id, 3)
    assert games_saved(db, spec(3)) == 3 and games_saved(db, spec(3, seed=6)) == 0


@pytest.mark.mutation_pin
def test_games_saved_reads_an_older_history_without_migrating_it(tmp_path: Path) -> None:
    """``games_saved`` is read as a run stops: read-only, so a history of an older version
    is counted as it is, not migrated (nor switched to WAL) on the way out."""
    from fuzzeval.play.match_runs import games_saved

    old = tmp_path / "v3.sqlite"
    shutil.copy(Path(__file__).parent / "data" / "history_v3.sqlite", old)
    before = old.read_bytes()
    crib = MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), 5, 7)
    assert games_saved(old, crib) == 3
    assert old.read_bytes() == before


@pytest.mark.mutation_pin
def test_games_from_workers_wait_to_go_in_together_and_games_played_here_each_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the clock standing still, games from an executor all wait for one commit at
    the end (none is within ``COMMIT_SECONDS`` of the first's arrival yet); played here,
    each game is committed as it ends: what another reader sees at each game says which."""
    import sqlite3
    from types import SimpleNamespace

    from fuzzeval.play import match_runs

    monkeypatch.setattr(match_runs, "time", SimpleNamespace(monotonic=lambda: 1000.0))
    db = tmp_path / "h.sqlite"
    seen: list[int] = []

    def committed(_rows: GameRows) -> None:
        with sqlite3.connect(db) as reader:
            seen.append(reader.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    with History(db) as h:
        run_match(h, ToyGame(), spec(4), RecordingExecutor(), on_game=committed)
        assert seen == [0, 0, 0, 0] and len(h.finished(1)) == 4
        seen.clear()
        run_match(h, ToyGame(), spec(4, seed=6), on_game=committed)
        assert seen == [5, 6, 7, 8]
