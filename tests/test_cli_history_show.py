"""``fuzzeval history show``: a stored game told move by move, every point it tells
checked by counting independently (a plain scorer written here, by the rules of the game,
and a pip count from the position IDs), the result checked against the stored one."""

from __future__ import annotations

import base64
import re
import shutil
import sqlite3
from itertools import combinations, pairwise
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.backgammon.game import GAME as BACKGAMMON
from fuzzeval.games.cribbage.cards import parse_card, parse_cards
from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.play.game import Candidates
from fuzzeval.play.match import MatchSpec, play_game
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History

runner = CliRunner()
DATA = Path(__file__).parent / "data"


class FirstOption:
    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        return 0


def _human_game(db: Path) -> None:
    """Seed 11, game 0: a person taking the first option of each choice, against the
    exhaustive player, stored as ``fuzzeval play`` stores it."""
    spec = MatchSpec("cribbage", PlayerSpec("human"), PlayerSpec("exhaustive"), 1, 11)
    record = play_game(CRIBBAGE, (FirstOption(), CRIBBAGE.make_player("exhaustive")), 11, 0)
    with History(db) as h:
        h.save_game(h.create_match(spec, "deal"), record)


def _show(*args: str) -> tuple[int, str]:
    """Exit code and output, each line wrapped at 80 columns joined again (what is said is
    pinned here; the 80 columns by their own test)."""
    code, out = _shown(*args)
    return code, "".join(line + "\n" for line in _joined(out.splitlines()))


def _shown(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["history", "show", *args])
    return result.exit_code, result.output


def _joined(lines: list[str]) -> list[str]:
    """Lines with their continuations (two spaces further in than their words) joined."""
    out: list[str] = []
    for line in lines:
        if out:
            numbered = re.match(r" *\d+\. ", out[-1])
            words = numbered.end() if numbered else len(out[-1]) - len(out[-1].lstrip())
            if line.startswith(" " * (words + 2)) and line[words + 2:words + 3] != " ":
                out[-1] += " " + line.strip()
                continue
        out.append(line)
    return out


# --- a plain scorer, from the rules ------------------------------------------------------
def _value(card: int) -> int:
    return min(card // 4 + 1, 10)


def show_points(hand: tuple[int, ...], starter: int, crib: bool) -> int:
    five = (*hand, starter)
    points = sum(2 for n in range(2, 6) for c in combinations(five, n)
                 if sum(map(_value, c)) == 15)
    points += sum(2 for a, b in combinations(five, 2) if a // 4 == b // 4)
    for length in (5, 4, 3):
        runs = sum(1 for c in combinations(five, length)
                   if sorted(x // 4 for x in c) == list(range(min(x // 4 for x in c),
                                                              min(x // 4 for x in c) + length)))
        if runs:
            points += length * runs
            break
    if len({c % 4 for c in hand}) == 1:
        points += 5 if starter % 4 == hand[0] % 4 else 0 if crib else 4
    points += any(c // 4 == 10 and c % 4 == starter % 4 for c in hand)
    return points


def peg_points(count: list[int]) -> int:
    total = sum(map(_value, count))
    points = 2 if total in (15, 31) else 0
    same = 1
    while same < len(count) and count[-1 - same] // 4 == count[-1] // 4:
        same += 1
    points += same * (same - 1)  # 2, 6, 12: every pair among them
    for length in range(len(count), 2, -1):
        ranks = sorted(c // 4 for c in count[-length:])
        if ranks == list(range(ranks[0], ranks[0] + length)):
            points += length
            break
    return points


SCORES = re.compile(r"\[(.+?) (\d+), (.+?) (\d+)\]$")


def check_cribbage_story(text: str, final: tuple[int, int]) -> int:
    """Every count, play score, go, show and running score the story tells, recounted;
    returns how many points were checked."""
    running = [0, 0]
    names: list[str] = []
    count: list[int] = []
    checked = 0
    for line in text.splitlines():
        body = re.sub(r"^\s*\d*\.?\s*", "", line)
        if body.startswith("match ") or " won (" in body:
            continue
        if body.startswith("deal "):
            count = []
            names = names or [body.split()[2]]
            continue
        told = SCORES.search(body)
        if told and len(names) < 2:
            names = [told.group(1), told.group(3)]
        gained = 0
        laid = re.match(r"(.+?) laid (\S+): count (\d+)(?:, .* for (\d+))?", body)
        if laid:
            count.append(parse_card(laid.group(2)))
            assert int(laid.group(3)) == sum(map(_value, count)), line
            assert int(laid.group(4) or 0) == peg_points(count), line
            gained = int(laid.group(4) or 0)
            if sum(map(_value, count)) == 31:
                count = []
        elif "one for the" in body:
            gained = 1
            count = []
        elif "for his heels" in body:
            gained = 2
        shown = re.match(r"(.+?) (hand|crib) (\S+ \S+ \S+ \S+) \+ (\S+): (\d+) \(", body)
        if shown:
            points = show_points(parse_cards(shown.group(3)), parse_card(shown.group(4)),
                                 shown.group(2) == "crib")
            assert int(shown.group(5)) == points, line
            gained = points
        if told:
            now = [int(told.group(2)), int(told.group(4))]
            moved = [now[0] - running[0], now[1] - running[1]]
            assert sorted(moved) == [0, gained], line  # only the scorer's points, once
            running = now
            checked += 1
    assert tuple(running) == final
    return checked


# --- cribbage ----------------------------------------------------------------------------
def test_a_persons_game_is_told_move_by_move(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    _human_game(db)
    code, out = _show(str(db), "--game", "0")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "match 1, game 0: cribbage, human (seat 0) against exhaustive (seat 1), " \
                       "seed 11"
    assert lines[1:6] == [
        "      deal 1: human dealt (the crib is the dealer's)",
        "   1. exhaustive held 6H 9D TC JD JS KH; threw 6H KH to the crib, kept 9D TC JD JS",
        "   2. human held 2D 4H 5S 8C 8D QS; threw 2D 4H to the crib, kept 5S 8C 8D QS",
        "      starter 9S",
        "   3. exhaustive laid 9D: count 9"]
    # by hand: 9-9 and J-J are two pairs (4); 9-T-J four ways is a double double run of
    # three (12); the jack of spades with the 9 of spades cut is his nob (1): 17
    assert ("      exhaustive's hand 9D TC JD JS + 9S: 17 (two pairs is four, a double double "
            "run of three is sixteen, and one for his nob is seventeen) [human 2, "
            "exhaustive 18]") in lines
    assert lines[-1] == "exhaustive won (skunk, 2 points); final score human 74, exhaustive 133"
    assert check_cribbage_story(out, (74, 133)) > 40


def test_every_point_of_stored_matches_recounts(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    spec = MatchSpec("cribbage", PlayerSpec("fuzzy"), PlayerSpec("greedy"), 3, 4)
    with History(db) as h:
        match, _ = run_match(h, CRIBBAGE, spec)
        outcomes = h.outcomes(match.id)
    checked = 0
    for index, o in enumerate(outcomes):
        code, out = _show(str(db), "--game", str(index))
        assert code == 0, out
        checked += check_cribbage_story(out, o.scores)
    assert checked > 150


def test_a_match_without_pegging_points_tells_them_uncounted(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    spec = MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("greedy"), 1, 2,
                     (("peg_counts", False),))
    with History(db) as h:
        match, _ = run_match(h, CRIBBAGE, spec)
        (o,) = h.outcomes(match.id)
    code, out = _show(str(db), "--game", "0")
    assert code == 0, out
    assert out.splitlines()[0].endswith("seed 2, options peg_counts=False")
    assert "greedy (seat 0) laid" in out and "(pegging not counted)" in out
    assert check_cribbage_story(out, o.scores) > 20


def test_without_game_the_match_games_are_listed(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    _human_game(db)
    code, out = _show(str(db))
    assert code == 0
    assert "match 1: cribbage, human (seat 0) against exhaustive (seat 1), seed 11" in out
    assert re.search(r"^\s+0\s+human\s+exhaustive\s+74–133\s+skunk\s*$", out, re.M), out


def test_a_game_not_stored_is_a_usage_error(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    _human_game(db)
    code, out = _show(str(db), "--game", "5")
    assert code == 2
    assert out == f"error: {db}: match 1 has no game 5 stored (game 0; games count from 0)\n"
    code, out = _show(str(db), "--match", "9", "--game", "0")
    assert code == 2 and out == f"error: {db}: no match 9 (stored: 1)\n"  # as every kind's
    exported = runner.invoke(app, ["history", "export", str(db), "--match", "9"])
    assert (exported.exit_code, exported.stderr) == (2, f"error: {db}: no match 9 (stored: 1)\n")
    code, out = _show(str(tmp_path / "none.sqlite"))
    assert code == 2 and out == f"error: {tmp_path / 'none.sqlite'}: no such history database\n"
    assert not (tmp_path / "none.sqlite").exists()


def test_an_empty_or_foreign_database_is_one_line(tmp_path: Path) -> None:
    """A file without the history's tables gave an sqlite traceback ("no such table")."""
    empty = tmp_path / "e.sqlite"
    empty.write_bytes(b"")
    code, out = _show(str(empty))
    assert code == 1 and out == f"error: {empty}: an empty file, not a fuzzeval history\n"
    sqlite3.connect(tmp_path / "f.sqlite").execute("CREATE TABLE t (x)").connection.close()
    code, out = _show(str(tmp_path / "f.sqlite"), "--game", "0")  # another program's: exit 1
    assert code == 1 and out.startswith(f"error: {tmp_path / 'f.sqlite'}: an SQLite database, "
                                        "but not a fuzzeval history (tables: t)")


def test_a_play_session_quit_before_its_first_game_hides_no_game(tmp_path: Path) -> None:
    """Quitting play stores an empty match; the default match was the latest, so the
    README's `history show ... --game 0` failed after a quit."""
    db = tmp_path / "h.sqlite"
    _human_game(db)
    quit_ = runner.invoke(app, ["play", "cribbage", "--seed", "3", "--db", str(db)],
                          input="quit\n")
    assert quit_.exit_code == 0 and "0 of 1 games are stored" in quit_.output
    code, out = _show(str(db), "--game", "0")
    assert code == 0 and out.startswith("match 1, game 0: cribbage, human (seat 0) against "
                                        "exhaustive (seat 1), seed 11")
    code, out = _show(str(db), "--match", "2")  # the empty one, when asked for by id
    assert code == 0 and out.startswith("match 2: cribbage, human (seat 0) against ")


def test_two_players_of_one_name_are_told_apart_once(tmp_path: Path) -> None:
    """Each seat was said twice: 'random (seat 0) (seat 0) against random (seat 1) (seat 1)'."""
    db = tmp_path / "r.sqlite"
    spec = MatchSpec("cribbage", PlayerSpec("random"), PlayerSpec("random"), 1, 5)
    with History(db) as h:
        run_match(h, CRIBBAGE, spec)
    code, out = _show(str(db))
    assert code == 0 and out.startswith(
        "match 1: cribbage, random (seat 0) against random (seat 1), seed 5\n")
    code, out = _show(str(db), "--game", "0")
    assert code == 0 and out.startswith(
        "match 1, game 0: cribbage, random (seat 0) against random (seat 1), seed 5\n")


def test_choices_that_no_longer_replay_are_reported_not_told(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    _human_game(db)
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT choices FROM games").fetchone()[0]
        first, rest = stored.split(",", 1)
        conn.execute("UPDATE games SET choices = ?", (f"{(int(first) + 1) % 15},{rest}",))
    conn.close()
    code, out = _show(str(db), "--game", "0")
    assert code == 1
    assert out.startswith(f"error: {db}: match 1, game 0 does not replay as stored (")
    assert len(out.splitlines()) == 1


def test_an_old_history_shows_its_logged_decisions(tmp_path: Path) -> None:
    old = tmp_path / "v1.sqlite"
    shutil.copy(DATA / "history_v1.sqlite", old)
    code, out = _show(str(old), "--match", "1", "--game", "1")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[1] == ("only the logged decisions can be shown: it was stored before "
                        "histories kept every choice (version 3)")
    # game 1: the random player deals first, so greedy throws first (as the file keeps it)
    assert lines[2] == ("   1. greedy (discard, deal 1; hand AH 3D 4C 9S TC KH, crib theirs, "
                        "score 0, opponent_score 0): 3D 9S")
    assert lines[-1] == "greedy won (skunk, 2 points); final score greedy 129, random 72"


# --- backgammon --------------------------------------------------------------------------
def pips_not_on_roll(position_id: str) -> int:
    """The pip count of the side not on roll, read from a GNU Backgammon position ID by
    hand: 80 bits little-endian, each point a run of ones and a zero, that side first."""
    key = int.from_bytes(base64.b64decode(position_id + "=="), "little")
    counts, n = [], 0
    for bit in range(80):
        if key >> bit & 1:
            n += 1
        else:
            counts.append(n)
            n = 0
        if len(counts) == 25:
            break
    return sum((i + 1) * c for i, c in enumerate(counts))


def test_a_backgammon_game_is_told_with_its_pips(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite"
    spec = MatchSpec("backgammon", PlayerSpec("pubeval"), PlayerSpec("random"), 1, 3)
    with History(db) as h:
        match, _ = run_match(h, BACKGAMMON, spec)
        (o,) = h.outcomes(match.id)
        _, choices = h.game_choices(match.id, 0)
    code, out = _show(str(db), "--game", "0")
    assert code == 0, out
    moves = re.findall(r"^\s*(\d+)\. (\S+) rolled (\d\d) from (\S+): (.*?)(?: \(pips pubeval "
                       r"(\d+), random (\d+)\))?$", out, re.M)
    assert choices is not None and len(moves) == len(choices)
    assert moves[0][3] == "4HPwATDgc/ABMA"  # the starting position
    for this, following in pairwise(moves):
        mover = int(this[5]) if this[1] == "pubeval" else int(this[6])
        assert mover == pips_not_on_roll(following[3])  # the mover is not on roll next
    winner = ("pubeval", "random")[o.winner]
    assert f"{winner} bore off the last checker: a {o.result} game" in out
    assert out.splitlines()[-1].startswith(f"{winner} won ({o.result}")


def test_a_replay_refuses_an_option_past_the_last_and_a_move_after_the_end(
        tmp_path: Path) -> None:
    """Mutation gaps in fuzzeval.play.replay: a stored choice equal to the number of options
    (the first move is a throw, one of 15) and a move stored after the game's end are each
    refused, and the message numbers the move from 1."""
    import pytest

    from fuzzeval.play.replay import ReplayError, replay

    db = tmp_path / "h.sqlite"
    _human_game(db)
    with History(db) as h:
        first, choices = h.game_choices(1, 0)
    assert choices is not None
    with pytest.raises(ReplayError, match=r"^move 1: option 15 of 15$"):
        list(replay(CRIBBAGE, 11, 0, first, (15, *choices[1:]), {}))
    n = len(choices)
    with pytest.raises(ReplayError, match=rf"^the game ended after move {n}, but {n + 1} moves "
                                          "are stored$"):
        list(replay(CRIBBAGE, 11, 0, first, (*choices, 0), {}))


# --- one reader, one set of refusals: show, export and the Python API ------------------

def _every_reader(db: Path) -> list[tuple[int, str]]:
    """What show, export (to standard output and to a file) and read_games say of ``db``."""
    from fuzzeval.play.store import read_decisions, read_games

    out: list[tuple[int, str]] = []
    for args in (["show", str(db)], ["export", str(db)],
                 ["export", str(db), "-o", str(db.with_suffix(".jsonl"))]):
        res = runner.invoke(app, ["history", *args])
        out.append((res.exit_code, res.output))
    for read in (read_games, read_decisions):
        try:
            read(db)
        except Exception as exc:
            out.append((type(exc).__name__ == "HistoryError", f"error: {exc}\n"))
    return out


def test_every_reader_refuses_a_damaged_empty_or_matchless_history_alike(
        tmp_path: Path) -> None:
    """show and export on a dropped column gave a traceback, export on an empty file
    printed pandas' raw SQL, export on a tuning's database printed nothing (exit 0)."""
    dropped = tmp_path / "dropped.sqlite"
    shutil.copy(Path(__file__).parent / "data" / "history_v3.sqlite", dropped)
    with sqlite3.connect(dropped) as conn:
        conn.execute("ALTER TABLE games DROP COLUMN moves")
    conn.close()
    line = (f"error: {dropped}: damaged history: table 'games' has lost column(s) moves; "
            "nothing was read\n")
    assert _every_reader(dropped) == [(1, line)] * 3 + [(True, line)] * 2

    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    line = f"error: {empty}: an empty file, not a fuzzeval history\n"
    assert _every_reader(empty) == [(1, line)] * 3 + [(True, line)] * 2

    tuning = tmp_path / "tuning.sqlite"
    History(tuning).close()  # what tune leaves: every table, no match
    line = f"error: {tuning}: no match stored\n"
    assert _every_reader(tuning)[:3] == [(2, line)] * 3
    assert not tuning.with_suffix(".jsonl").exists() and not empty.with_suffix(".jsonl").exists()


def test_a_query_sqlite_cannot_answer_is_the_projects_error_naming_the_file(
        tmp_path: Path) -> None:
    import pytest

    from fuzzeval.play.history import HistoryError

    db = tmp_path / "h.sqlite"
    History(db).close()
    with History(db, readonly=True) as history, \
            pytest.raises(HistoryError, match=rf"^{re.escape(str(db))}: cannot be read as a "
                          r"fuzzeval history \(SQLite: no such column: absent\)$"):
        history.table("SELECT absent FROM games")


def test_a_hearts_game_is_told_in_80_columns_losing_no_word(tmp_path: Path) -> None:
    """Four seats' names made lines of 104 to 140 characters."""
    db = tmp_path / "h.sqlite"
    made = runner.invoke(app, ["match", "hearts", "-p", "heuristic", "--opponent", "random",
                               "-n", "1", "--db", str(db)])
    assert made.exit_code == 0, made.output
    code, out = _shown(str(db), "--game", "0")
    lines = out.splitlines()
    assert code == 0 and max(map(len, lines)) <= 80, max(lines, key=len)
    header = ("match 1, game 0: hearts, heuristic (seat 0), random (seat 1), random (seat 2), "
              "random (seat 3), seed 1")
    assert lines[0] + " " + lines[1].strip() == header and lines[1].startswith("  random")
    # a line's next lines are two further in than its words: none is level with a line
    assert _joined(lines)[0] == header
    wrapped = [line for line in _joined(lines) if len(line) > 80]
    assert wrapped and all(re.match(r"match |final | *\d+\. | {6}\S", line)
                           for line in wrapped), wrapped


def test_a_column_a_later_version_added_is_missed_like_any_other(tmp_path: Path) -> None:
    """Dropping games.scores or matches.duplicate (added by history version 4) gave a
    traceback in show and export; dropping games.choices (version 3) exported games
    without their events, exit 0."""
    db = tmp_path / "h.sqlite"
    assert runner.invoke(app, ["match", "cribbage", "-p", "random", "--opponent", "random",
                               "-n", "2", "--db", str(db)]).exit_code == 0
    for table, column in (("games", "scores"), ("matches", "duplicate"),
                          ("games", "choices"), ("decisions", "feature_set")):
        damaged = tmp_path / f"{column}.sqlite"
        shutil.copy(db, damaged)
        with sqlite3.connect(damaged) as conn:
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        conn.close()
        line = (f"error: {damaged}: damaged history: table {table!r} has lost column(s) "
                f"{column}; nothing was read\n")
        assert _every_reader(damaged)[:3] == [(1, line)] * 3, column


def test_evaluate_calibration_refuses_an_empty_file_and_writes_nothing(tmp_path: Path) -> None:
    """It made a 94 KB history of a 0-byte file, then said no calibration was stored."""
    empty = tmp_path / "e.sqlite"
    empty.write_bytes(b"")
    res = runner.invoke(app, ["evaluate-calibration", str(empty)])
    assert res.exit_code == 1 and res.output == (
        f"error: {empty}: an empty file, not a fuzzeval history\n")
    assert empty.read_bytes() == b""


def _stored_match(tmp_path: Path) -> Path:
    db = tmp_path / "m.sqlite"
    done = runner.invoke(app, ["match", "cribbage", "-p", "greedy", "--opponent", "random",
                               "-n", "2", "-w", "1", "--db", str(db)])
    assert done.exit_code == 0, done.output
    return db


@pytest.mark.pinned
def test_the_games_of_a_match_are_numbered_on_the_right(tmp_path: Path) -> None:
    db = _stored_match(tmp_path)
    out = runner.invoke(app, ["history", "show", str(db)]).output.splitlines()
    head = next(k for k, line in enumerate(out) if line.strip().startswith("game"))
    assert out[head].startswith("  game   first    winner")
    assert out[head + 2].startswith("     0   ") and out[head + 3].startswith("     1   ")


@pytest.mark.pinned
def test_a_game_that_no_longer_replays_names_both_scores(tmp_path: Path) -> None:
    db = _stored_match(tmp_path)
    with sqlite3.connect(db) as conn:
        s0, s1 = conn.execute("SELECT score0, score1 FROM games WHERE idx = 0").fetchone()
        conn.execute("UPDATE games SET score0 = ?, scores = ? WHERE idx = 0",
                     (s0 + 1, f"[{s0 + 1}, {s1}]"))
    done = runner.invoke(app, ["history", "show", str(db), "--game", "0"])
    assert done.exit_code == 1
    assert (f"match 1, game 0 does not replay as stored (it ends {s0}–{s1}, stored "
            f"{s0 + 1}–{s1}); the rules may have changed since") in done.output
