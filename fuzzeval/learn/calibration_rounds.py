"""Calibration matches: play a round, calibrate from its winning decisions, play the next.

Round k plays ``games_per_round`` games of the game's rule-base player, reading rule base
R_k, against the opponent; eq. 1 (``fuzzeval.learn.calibration_step``) then turns R_k and the crisp
inputs of the decisions in won games (or won deals) into R_{k+1}. Everything lives in the
history database: each round's rule base (as YAML text, the original's comments kept), its
match (an ordinary stored match, resumable game by game) and its point moves. A round is
finished when its moves and the next rule base are committed, in one transaction; so a
calibration stopped at any moment resumes to exactly the rule bases of an uninterrupted run.

Any game with a rule-base player works: nothing here knows the game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.errors import FuzzevalError, UsageError
from fuzzeval.formats.loading import parse_rulebase
from fuzzeval.formats.yaml_edit import rewrite_points
from fuzzeval.learn.calibration_step import RATE, PointMove, calibrate
from fuzzeval.play.game import Game
from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match, stored_games
from fuzzeval.play.rows import GameRows
from fuzzeval.play.runs import RunKind, made_by_line, settings_from_json, settings_json
from fuzzeval.play.spec import GAMES_MAX, Options, PlayerSpec, check_seed, show_value
from fuzzeval.play.store import History
from fuzzeval.stats import wilson

WinUnit = Literal["game", "deal"]
Window = Literal["round", "all"]


@dataclass(frozen=True)
class CalibrationSettings:
    """Everything that decides the result (the number of rounds only decides where it stops)."""

    game: str
    opponent: str
    games_per_round: int
    seed: int
    rate: float = RATE
    win_unit: WinUnit = "game"
    window: Window = "round"  # calibrate from this round's winning decisions, or all so far
    player_options: Options = ()
    options: Options = ()

    def __post_init__(self) -> None:
        """Refuse what a calibration cannot run, in the words of its command's options."""
        check_seed(self.seed)
        if self.win_unit not in ("game", "deal"):
            raise UsageError(f"--win-unit must be game or deal (got {self.win_unit!r})")
        if self.window not in ("round", "all"):
            raise UsageError(f"--window must be round or all (got {self.window!r})")
        if not 0 < self.rate <= 1:  # NaN fails too
            raise UsageError(f"--rate must be in (0, 1] (got {self.rate:g})")
        if self.games_per_round < 1:
            raise UsageError(f"--games-per-round must be at least 1 (got "
                             f"{self.games_per_round})")

    def to_json(self) -> str:
        return settings_json(self)


def check_rounds(settings: CalibrationSettings, rounds: int) -> None:
    """Refuse more games in all than a match may have, before any file is made."""
    if rounds < 1:
        raise UsageError(f"--rounds must be at least 1 (got {rounds})")
    if rounds * settings.games_per_round > GAMES_MAX:
        raise UsageError(f"--rounds {rounds:,} of --games-per-round "
                         f"{settings.games_per_round:,} are more than {GAMES_MAX:,} games in "
                         "all")


#: its tables: the head row of each run, and what each run stores as it goes
TABLES = """
CREATE TABLE IF NOT EXISTS calibrations (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    rulebase_name TEXT NOT NULL,
    rulebase_source TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS calibration_rounds (
    calibration_id INTEGER NOT NULL REFERENCES calibrations(id),
    round INTEGER NOT NULL,
    rulebase_yaml TEXT NOT NULL,
    match_id INTEGER,
    games INTEGER,
    wins INTEGER,
    moves TEXT,
    PRIMARY KEY (calibration_id, round)
);
"""

def _saved(history: History, calibration_id: int) -> str:
    """What a stopped calibration has stored: its finished rounds, and the games the
    history holds (a round cut short keeps its games too: a resume goes on from them)."""
    rounds = history.conn.execute(
        "SELECT COUNT(*) FROM calibration_rounds WHERE calibration_id = ? AND match_id IS "
        "NOT NULL", (calibration_id,)).fetchone()[0]
    games = history.games_stored()
    return (f"{rounds} finished round{'' if rounds == 1 else 's'} and {games} "
            f"game{'' if games == 1 else 's'}")


#: a calibration stored: its settings, its rule base's digest, its rounds
CALIBRATIONS = RunKind("calibration", "calibrations", "rulebase_source",
                       "this calibration is being run", TABLES, file="calibration",
                       unit="round", saved=_saved)


def calibrated_name(name: str) -> str:
    """The calibrated rule base's name: ``NAME_calibrated`` (kept when calibrated again)."""
    return name if name.endswith("_calibrated") else f"{name}_calibrated"


def made_by(settings: CalibrationSettings, rulebase: str, rounds: int) -> str:
    """The ``made_by:`` line of the rule base after ``rounds`` rounds: the command that
    makes it again (every setting that decides it; the rule base by its name)."""
    s = settings
    words = ["fuzzeval", "calibrate", s.game, "--rulebase", rulebase, "--opponent",
             str(s.opponent), "--rounds", str(rounds), "--games-per-round",
             str(s.games_per_round), "--rate", repr(s.rate), "--seed", str(s.seed),
             *(["--win-unit", s.win_unit] if s.win_unit != "game" else []),
             *(["--window", s.window] if s.window != "round" else [])]
    for k, v in s.options:
        words += ["--option", f"{k}={show_value(v)}"]
    return made_by_line("calibrated", words, "(eq. 1)")


def round_seed(seed: int, round_index: int) -> int:
    """The match seed of a round: drawn from SeedSequence([seed, round])."""
    return int(np.random.SeedSequence([seed, round_index]).generate_state(1, np.uint32)[0])


def rulebase_label(index: int) -> str:
    """What stored rule base ``index`` is, as users count: 0 the initial one, N the one
    after round N (rounds count from 1; round N plays with rule base N - 1)."""
    return "the initial rule base" if index == 0 else f"the rule base after round {index}"


@dataclass(frozen=True)
class RoundResult:
    """Stored row ``round`` (from 0): rule base ``round`` (the initial one, or the one after
    round ``round``) and, once finished, the match of round ``round + 1`` that played it."""

    round: int
    rulebase_yaml: str
    match_id: int | None = None
    games: int = 0
    wins: int = 0
    moves: tuple[PointMove, ...] = ()

    @property
    def finished(self) -> bool:
        return self.match_id is not None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def rulebase(self) -> RuleBase:
        rb, problems = parse_rulebase(self.rulebase_yaml, f"<rule base {self.round}>")
        if rb is None:
            raise HistoryError(f"{rulebase_label(self.round)}: stored, it does not load: "
                               + "; ".join(map(str, problems)))
        return rb


@dataclass(frozen=True)
class Calibration:
    id: int
    settings: CalibrationSettings
    rulebase_name: str
    rounds: int
    results: tuple[RoundResult, ...] = field(default=())

    @property
    def finished_rounds(self) -> tuple[RoundResult, ...]:
        return tuple(r for r in self.results if r.finished)

    def final_yaml(self) -> str:
        """The rule base after the last finished round (the initial one if none)."""
        done = self.finished_rounds
        nxt = [r for r in self.results if r.round == len(done)]
        return nxt[0].rulebase_yaml if nxt else self.results[0].rulebase_yaml

    def final_rulebase(self) -> RuleBase:
        return RoundResult(len(self.finished_rounds), self.final_yaml()).rulebase()


def load_calibration(history: History, calibration_id: int | None = None) -> Calibration:
    """A stored calibration (the latest when no id is given)."""
    calibration_id, head = CALIBRATIONS.head(history, calibration_id,
                                             "settings, rulebase_name, rounds")
    settings = settings_from_json(CalibrationSettings, head[0])
    rows = history.conn.execute(
        "SELECT round, rulebase_yaml, match_id, games, wins, moves FROM calibration_rounds "
        "WHERE calibration_id = ? ORDER BY round", (calibration_id,)).fetchall()
    results = tuple(
        RoundResult(r, text, mid, games or 0, wins or 0,
                    tuple(PointMove.from_dict(m) for m in json.loads(moves or "[]")))
        for r, text, mid, games, wins, moves in rows)
    return Calibration(calibration_id, settings, head[1], int(head[2]), results)


def rulebase_file(history: History, calibration_id: int, round_index: int, text: str) -> Path:
    """Where the players of a round read its rule base (next to the database):
    ``..._round005.yaml`` is rule base 5, the one after round 5 (000: the initial one), as
    ``plot membership --round`` counts; round 6 plays with it."""
    folder = history.path.resolve().parent / f"{history.path.stem}_rulebases"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"calibration{calibration_id}_round{round_index:03d}.yaml"
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)
    return path


def round_spec(history: History, cal: Calibration, game: Game, round_index: int,
               text: str) -> MatchSpec:
    path = rulebase_file(history, cal.id, round_index, text)
    player = PlayerSpec(game.rulebase_player,
                        (("rulebase", str(path)), *cal.settings.player_options))
    s = cal.settings
    return MatchSpec(game.name, player, PlayerSpec.parse(s.opponent), s.games_per_round,
                     round_seed(s.seed, round_index), s.options)


def start_calibration(history: History, settings: CalibrationSettings, rulebase_name: str,
                      source: str, rounds: int) -> int:
    """Store a new calibration and its first rule base (the open transaction's)."""
    cal_id = CALIBRATIONS.start(history, settings, source, rulebase_name=rulebase_name,
                                rounds=rounds)
    history.conn.execute("INSERT INTO calibration_rounds (calibration_id, round, "
                         "rulebase_yaml) VALUES (?, 0, ?)", (cal_id, source))
    return cal_id


def run_calibration(history: History, game: Game, settings: CalibrationSettings,
                    source: str, rounds: int, executor: Executor | None = None,
                    resume: bool = False,
                    on_round_start: Callable[[int, int], None] | None = None,
                    on_game: Callable[[GameRows], None] | None = None,
                    on_round: Callable[[RoundResult], None] | None = None) -> Calibration:
    """Play (or finish) ``rounds`` calibration rounds; returns the stored calibration.

    As a match, a calibration is stored once: one with the same settings and rule base is
    continued (only the rounds it lacks are played, none when it is complete; a round
    starting says so to ``on_round_start`` with the games it has stored); with
    ``resume``, finding none is an error instead of a start. One process at a time runs
    it (a running mark; a second is refused with the first one's pid)."""
    first = check_calibratable(game, source)
    with CALIBRATIONS.hold(history, settings, source, resume, lambda: start_calibration(
            history, settings, first.name, source, rounds)) as cal_id:
        return _run_rounds(history, game, settings, first.name, rounds, cal_id, executor,
                           on_round_start, on_game, on_round)


def check_calibratable(game: Game, source: str) -> RuleBase:
    """Refuse, before any file is made, a game without a rule-base player or a rule base
    with no point to move (a usage error: another rule base or game is the fix)."""
    if not game.rulebase_player:
        raise UsageError(f"{game.name} has no rule-base player to calibrate")
    first, problems = parse_rulebase(source)
    if first is None:
        raise FuzzevalError("the rule base does not load: " + "; ".join(map(str, problems)))
    if not first.adjustable_points():
        raise UsageError(f"rule base {first.name!r} marks no point 'adjust:'; nothing to "
                         "calibrate")
    return first


def _run_rounds(history: History, game: Game, settings: CalibrationSettings, name: str,
                rounds: int, cal_id: int, executor: Executor | None,
                on_round_start: Callable[[int, int], None] | None,
                on_game: Callable[[GameRows], None] | None,
                on_round: Callable[[RoundResult], None] | None) -> Calibration:
    with history.conn:  # asked for more rounds: extend; for fewer: keep the record
        history.conn.execute("UPDATE calibrations SET rounds = MAX(rounds, ?) WHERE id = ?",
                             (rounds, cal_id))
    game.prepare()
    for k in range(rounds):
        cal = load_calibration(history, cal_id)
        current = next(r for r in cal.results if r.round == k)
        if current.finished:
            continue
        spec = round_spec(history, cal, game, k, current.rulebase_yaml)
        if on_round_start is not None:  # the round, and its games stored before
            on_round_start(k, stored_games(history, game, spec))
        match, _ = run_match(history, game, spec, executor, on_game=on_game)
        outcomes = history.outcomes(match.id)[: settings.games_per_round]
        window = [match.id] if settings.window == "round" else [
            *(r.match_id for r in cal.finished_rounds if r.match_id is not None), match.id]
        # Every logged kind: a player may log more than the game does (the play, for a
        # pegging rule base); only decisions with the rule base's inputs count.
        winning = history.winning_features(window, seat=0, kinds=None,
                                           unit=settings.win_unit)
        new_rb, moves = calibrate(current.rulebase(), winning, settings.rate)
        new_rb = replace(new_rb, name=calibrated_name(name),
                         made_by=made_by(settings, name, k + 1))
        new_text = rewrite_points(current.rulebase_yaml, new_rb)
        # a won game, or in a game without winners one where seat 0 beat the table's mean
        wins = sum(o.did_well(0, game.payoff) for o in outcomes)
        with history.conn:
            history.conn.execute(
                "UPDATE calibration_rounds SET match_id = ?, games = ?, wins = ?, moves = ? "
                "WHERE calibration_id = ? AND round = ?",
                (match.id, len(outcomes), wins, json.dumps([m.to_dict() for m in moves]),
                 cal_id, k))
            history.conn.execute(
                "INSERT OR REPLACE INTO calibration_rounds (calibration_id, round, "
                "rulebase_yaml) VALUES (?, ?, ?)", (cal_id, k + 1, new_text))
        if on_round is not None:
            on_round(RoundResult(k, current.rulebase_yaml, match.id, len(outcomes), wins,
                                 moves))
    return load_calibration(history, cal_id)


def calibrated_path(db: Path) -> Path:
    """Where the final calibrated rule base is written: next to the database."""
    return db.with_name(f"{db.stem}.calibrated.yaml")


def summary_rows(cal: Calibration) -> list[dict[str, Any]]:
    """One row per finished round, numbered from 1 as the tables are: win rate, interval,
    how far the points moved."""
    rows = []
    for r in cal.finished_rounds:
        lo, hi = r.interval
        moved = [m for m in r.moves if m.shift != 0]
        rows.append({"round": r.round + 1, "games": r.games, "win_rate": r.win_rate,
                     "interval95": [lo, hi], "points_moved": len(moved),
                     "mean_abs_shift": float(np.mean([abs(m.shift) for m in r.moves]))
                     if r.moves else 0.0,
                     "moves": [m.to_dict() for m in r.moves]})
    return rows


@dataclass(frozen=True)
class CalibrationJob:
    """A calibration as asked for, checked before any file is made: the game, the settings
    (the opponent and options filled in), the rule base (its path and text), the rounds."""

    game: Game
    settings: CalibrationSettings
    path: Path
    source: str
    rounds: int


def calibration_job(settings: CalibrationSettings, rulebase: str | None, rounds: int,
                    options: Sequence[str] = ()) -> CalibrationJob:
    """Check a calibration before any work (``settings.game`` the game's name, an empty
    opponent the game's default): the rounds, the rule base (calibratable, its points
    writable back), the opponent and the options; a UsageError names what is wrong."""
    from fuzzeval.formats.loading import load_rulebase_text, read_rulebase_text
    from fuzzeval.play.match import check_players, check_rulebase_player
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.spec import parse_options
    from fuzzeval.resources import find_rulebase

    check_rounds(settings, rounds)
    game = load_game(settings.game)
    path = find_rulebase(rulebase or game.default_rulebase)
    source = read_rulebase_text(path)
    check_rulebase_player(game, path)
    check_calibratable(game, source)
    rewrite_points(source, load_rulebase_text(source, str(path)))  # writable back
    settings = replace(settings, game=game.name,
                       opponent=settings.opponent or game.default_opponent,
                       options=parse_options(list(options), game.name))
    against = PlayerSpec.parse(settings.opponent)
    check_players(game, MatchSpec(game.name, against, against, 1, settings.seed,
                                  settings.options))
    return CalibrationJob(game, settings, path, source, rounds)
