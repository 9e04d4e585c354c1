"""A match as a kind of stored run (``MATCHES``), and playing one into the history.

A match is stored once per spec and the files its players read: the same match run again
finds it (any length: a longer one plays only the games it lacks) and goes on with it,
marked by its id while it is played, as a calibration, a tuning and a learn are by their
settings. A game played here is written in its own transaction; games from workers arrive
as rows and go in several to a short transaction within ``COMMIT_SECONDS``, so a crash or
Ctrl-C loses only games still being played (or, after a crash, finished in the last half
second).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from fuzzeval.play.game import Game
from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import (
    MatchSpec,
    MatchSummary,
    check_players,
    fingerprint,
    run_finished,
    summarize,
)
from fuzzeval.play.rows import GameRows, encode_game
from fuzzeval.play.runs import RunKind, Settings
from fuzzeval.play.store import History, StoredMatch


def _spec(settings: Settings) -> MatchSpec:
    if not isinstance(settings, MatchSpec):
        raise TypeError(f"a match is found by its MatchSpec, not {type(settings).__name__}")
    return settings


@dataclass(frozen=True)
class MatchKind(RunKind):
    """A match: found by its spec's columns, not by settings' JSON, and marked by its id."""

    def find(self, history: History, settings: Settings, source: str | None) -> int | None:
        """The latest stored match of this spec (any length) when its players read what
        they read now (``source``: the spec's fingerprint; a match stored before
        fingerprints were kept is trusted), else None: a new match must start. No
        ``source``: the latest, whatever its players read."""
        stored = history.find_match(_spec(settings))
        if stored is None:
            return None
        return stored.id if source is None or stored.fingerprint in (None, source) else None

    def nothing_to_resume(self, history: History, settings: Settings,
                          source: str | None) -> HistoryError:
        """A resume of a match whose players' files changed (its games are another
        player's), or of a spec never stored, in words that say which."""
        spec = _spec(settings)
        changed = history.find_match(spec)
        if changed is not None:
            return HistoryError(
                f"{history.path}: a file a player reads (a rule base or a table) has changed "
                f"since match {changed.id} was stored, so its games are another player's; run "
                "without --resume to start a new match")
        return HistoryError(
            f"{history.path}: no match to resume with game {spec.game}, player "
            f"{spec.player}, opponent {spec.opponent}, options {dict(spec.options)}, seed "
            f"{spec.seed}; run without --resume to start one")


#: a match stored: its spec in ``matches`` (by columns), its games, their decisions. No
#: ``saved``: a stopped ``fuzzeval match`` says "0 of 100 games" even before its match is
#: stored, from the spec it was given
MATCHES = MatchKind("match", "matches", "fingerprint", "this match is being played",
                    marks_run=True)


def resumable(history: History, game: Game, spec: MatchSpec) -> StoredMatch | None:
    """The latest stored match of a spec whose players still read what they read then
    (rule bases, tables, the default rule base), or None: then a new match must start."""
    found = MATCHES.find(history, spec, fingerprint(spec, game))
    return None if found is None else history.match_of(found, spec)


def kept(history: History, match_id: int, spec: MatchSpec) -> int:
    """How many of a spec's games a resume of this stored match would not play again."""
    return sum(1 for i in history.finished(match_id) if i < spec.games)


def stored_games(history: History, game: Game, spec: MatchSpec) -> int:
    """How many of a spec's games a resume would not play again, for progress to count."""
    stored = resumable(history, game, spec)
    return 0 if stored is None else kept(history, stored.id, spec)


#: the longest a game finished by a worker waits for its commit (several go in one)
COMMIT_SECONDS = 0.5


def run_match(history: History, game: Game, spec: MatchSpec, executor: Executor | None = None,
              resume: bool = False,
              on_game: Callable[[GameRows], None] | None = None) -> tuple[StoredMatch, int]:
    """Play a match into the history, each game committed as it finishes.

    A match is stored once: when the history already holds one with the same game, players
    (and the files they read), options and seed, this continues it, playing only the games
    it lacks (none when it is complete: then it plays nothing), so running the same match
    twice neither repeats nor mixes games. Otherwise a new match starts; with ``resume`` that
    is an error instead. Returns the stored match and how many games were already there.
    A spec of another game than ``game``, or a player or option that cannot be built, is
    refused before the history is touched.
    """
    check_players(game, spec)
    prints = fingerprint(spec, game)
    with MATCHES.hold(history, spec, prints, resume, lambda: history.create_match(
            spec, game.unit_name, prints).id) as match_id:
        match = history.extend_match(history.match_of(match_id, spec), spec.games)
        done = history.finished(match.id)
        todo = (i for i in range(spec.games) if i not in done)
        count = spec.games - sum(1 for i in done if i < spec.games)
        game.prepare()  # once here: forked workers inherit the tables
        # Workers encode their games; here they are only inserted, several in one short
        # transaction at most COMMIT_SECONDS after the first of them arrived (and at any
        # stop), so another process waiting to write is never starved. Played here, each
        # game is committed as it ends.
        encode = partial(encode_game, payoff=game.payoff)
        every = COMMIT_SECONDS if executor is not None else 0.0
        waiting: list[GameRows] = []
        since = time.monotonic()

        def flush() -> None:
            known: dict[tuple[str, ...], int] = {}
            with history.conn:
                for rows in waiting:
                    history.insert_game(match, rows, known)
            waiting.clear()

        try:
            for rows in run_finished(game, spec, todo, encode, executor, count=count):
                if not waiting:
                    since = time.monotonic()
                waiting.append(rows)
                if time.monotonic() - since >= every:
                    flush()
                if on_game is not None:
                    on_game(rows)
        finally:
            # A stop can fall between a batch's commit and its clearing: store only the
            # games the database lacks, so none goes in twice.
            if waiting:
                stored = history.finished(match.id)
                waiting[:] = [rows for rows in waiting if rows.index not in stored]
                flush()
    return match, len(done)


@dataclass(frozen=True)
class Played:
    """A match's result: the stored match, how many of its games were stored before this
    run, and its summary (every stored game: a longer stored match is summarised whole)."""

    match: StoredMatch
    before: int
    summary: MatchSummary


def match_into(path: Path, game: Game, spec: MatchSpec, executor: Executor | None = None,
               resume: bool = False, on_game: Callable[[GameRows], None] | None = None,
               on_changed: Callable[[int], None] = lambda _id: None) -> Played:
    """Play ``spec`` into the history at ``path`` (``run_match``) and summarise it, seat 0
    by duplicate blocks when the spec is duplicate. ``on_changed`` is told of a stored
    match of this spec whose players' files have changed (its id): a new one starts."""
    with History(path) as history:
        if resumable(history, game, spec) is None and \
                (changed := history.find_match(spec)) is not None:
            on_changed(changed.id)
        match, before = run_match(history, game, spec, executor, resume, on_game)
        return Played(match, before, summarize(history.outcomes(match.id), game.payoff,
                                               game.seats if spec.duplicate else 1))


def games_saved(path: Path, spec: MatchSpec) -> int:
    """How many games of ``spec``'s latest stored match the history at ``path`` holds (0:
    none, or no file yet), read as a run stops."""
    if not path.is_file():
        return 0
    with History(path, readonly=True) as history:
        stored = history.find_match(spec)
        return len(history.finished(stored.id)) if stored else 0
