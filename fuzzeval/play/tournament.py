"""Round robins: every pair of players plays a match, stored in the history database.

Each pairing is an ordinary match (same seed for every pairing, so all pairs see the same
deals game by game), so an interrupted tournament resumes pairing by pairing and game by
game, and every match can be read back with the usual tools. In a two-seat game a pairing
is played once and read both ways (win rates); at a larger table each ordered pair is a
match of its own, the row player in seat 0 against copies of the column player in every
other seat, and a cell is the row player's mean payoff.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from itertools import combinations, permutations
from typing import Any

from fuzzeval.play.estimate import Clock, Estimate, Part, estimate
from fuzzeval.play.game import Game
from fuzzeval.play.match import MatchSpec, MatchSummary, summarize
from fuzzeval.play.match_runs import run_match, stored_games
from fuzzeval.play.rows import GameRows
from fuzzeval.play.spec import Options, PlayerSpec
from fuzzeval.play.store import History, StoredMatch


@dataclass(frozen=True)
class Tournament:
    players: tuple[str, ...]
    games: int
    seed: int
    #: (i, j): player i's view; two seats: i < j, else every ordered pair
    results: dict[tuple[int, int], MatchSummary]
    seats: int = 2

    def cell(self, i: int, j: int) -> tuple[float, tuple[float, float]] | None:
        """Player i against j with its 95 % interval (None on the diagonal): with two
        seats i's win rate (in a game without winners, its mean payoff), else i's mean
        payoff against copies of j."""
        if i == j:
            return None
        if self.seats > 2:
            s = self.results[(i, j)]
            return s.mean, s.ci95
        s = self.results[(min(i, j), max(i, j))]
        if s.win_rate is None:  # a two-seat game without winners (hold'em): payoffs
            if i < j:
                return s.mean, s.ci95
            # seat 1's mean, its interval as wide as seat 0's (exact when zero-sum)
            mean, (lo, hi) = s.sides[1].mean, s.ci95
            return mean, (mean - (hi - s.mean), mean + (s.mean - lo))
        if i < j:
            return s.win_rate, s.interval
        return 1 - s.win_rate, (1 - s.interval[1], 1 - s.interval[0])

    def to_dict(self) -> dict[str, Any]:
        return {"players": list(self.players), "games": self.games, "seed": self.seed,
                "matches": [{"player": self.players[i], "opponent": self.players[j],
                             **s.to_dict()} for (i, j), s in sorted(self.results.items())]}


def pairings(n: int, seats: int = 2) -> list[tuple[int, int]]:
    """The matches of ``n`` players: each pair once at a two-seat table, else each
    ordered pair (i in seat 0, j in the others)."""
    return list(combinations(range(n), 2) if seats == 2 else permutations(range(n), 2))


def tournament_specs(game: Game, players: Sequence[str], games: int, seed: int,
                     options: Options = ()) -> dict[tuple[int, int], MatchSpec]:
    """Each pairing's match: the same seed for all, so every pair sees the same deals."""
    return {(i, j): MatchSpec(game.name, PlayerSpec.parse(players[i]),
                              PlayerSpec.parse(players[j]), games, seed, options)
            for i, j in pairings(len(players), game.seats)}


def run_tournament(history: History, game: Game, players: Sequence[str], games: int,
                   seed: int, options: Options = (), executor: Executor | None = None,
                   on_game: Callable[[tuple[int, int], GameRows], None] | None = None,
                   on_estimate: Callable[[Estimate | None], None] | None = None,
                   warm_up: int = 3, timed_games: int = 9,
                   clock: Clock = time.monotonic) -> Tournament:
    """Play (or finish) every pairing; a pairing already stored is continued, not replayed.

    With ``on_estimate``, every pairing first plays ``warm_up`` games (the workers make
    its players: tables loaded, code compiled) and then ``timed_games`` more, timed with
    ``clock``; the estimate of the rest, from each pairing's own rate (pairings differ in
    speed), goes to ``on_estimate`` before the rest is played. The games are the same
    either way: game i of a pairing has its seed whenever it is played."""
    specs = tournament_specs(game, players, games, seed, options)

    def play(pair: tuple[int, int], spec: MatchSpec) -> tuple[StoredMatch, int]:
        played = 0

        def tick(record: GameRows) -> None:
            nonlocal played
            played += 1
            if on_game is not None:
                on_game(pair, record)
        match, _ = run_match(history, game, spec, executor, on_game=tick)
        return match, played

    if on_estimate is not None:
        parts = []
        for pair, spec in specs.items():
            play(pair, replace(spec, games=min(warm_up, games)))
            start = clock()
            _, timed = play(pair, replace(spec, games=min(warm_up + timed_games, games)))
            parts.append(Part(timed, clock() - start, games - stored_games(history, game, spec)))
        on_estimate(estimate(parts))
    results = {}
    for pair, spec in specs.items():
        match, _ = play(pair, spec)
        results[pair] = summarize(history.outcomes(match.id)[:games], game.payoff)
    return Tournament(tuple(players), games, seed, results, game.seats)
