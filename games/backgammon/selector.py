"""Fuzzeval's board selector (Heinze et al. 2005, Fig. 3): set aside plays whose resulting
position performed poorly in the past.

From a history database, every move of a fuzzy player is turned back into the position it
led to (the position before, the dice and the play's notation are stored); each resulting
position gets its games and wins. A candidate whose resulting position was reached at
least ``min_games`` times and won less than ``min_win_rate`` of them is set aside — unless
every candidate would be, so there is always a play. Positions repeat mostly early in a
game, which is where the selector can act.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from fuzzeval.games.backgammon.board import Position, from_position_id, position_id
from fuzzeval.games.backgammon.moves import legal_moves, parse_dice


@dataclass(frozen=True)
class BoardSelector:
    record: Mapping[str, tuple[int, int]]  # resulting position ID -> (games, wins)
    min_games: int = 5
    min_win_rate: float = 0.25

    def keep(self, options: Sequence[Position]) -> npt.NDArray[np.bool_]:
        """Which options stay (all of them when the selector would drop every one)."""
        keep = np.ones(len(options), dtype=bool)
        for i, p in enumerate(options):
            games, wins = self.record.get(position_id(p), (0, 0))
            if games >= self.min_games and wins < self.min_win_rate * games:
                keep[i] = False
        return keep if keep.any() else np.ones(len(options), dtype=bool)


@lru_cache(maxsize=100_000)  # the same early positions come back game after game
def _after(before: str, dice: str, play: str) -> str | None:
    for notation, after in legal_moves(from_position_id(before), parse_dice(dice)):
        if notation == play:
            return position_id(after)
    return None


EARLY = 16  # decisions into a game after which positions hardly ever repeat


def history_record(db: Path | str, player: str = "fuzzy",
                   early: int = EARLY) -> dict[str, tuple[int, int]]:
    """Resulting position ID -> (games, wins) of one player's moves in a history database
    (the first ``early`` decisions of each game: later positions do not come back)."""
    from fuzzeval.errors import FuzzevalError
    from fuzzeval.play.store import open_history  # on use: players load without SQLite

    try:
        with open_history(db, readonly=True) as history:
            rows = history.decisions_by(player, "move", early)
    except FuzzevalError as exc:  # no file, not a history, damaged: History's one line
        raise ValueError(f"{exc} (the board selector's history)") from None
    games: dict[str, set[tuple[int, int]]] = {}
    wins: dict[str, int] = {}
    for match_id, game, play, won, context in rows:
        after = _after(str(context["position"]), str(context["dice"]), play)
        if after is None or (match_id, game) in games.setdefault(after, set()):
            continue  # one count per game and position
        games[after].add((match_id, game))
        wins[after] = wins.get(after, 0) + int(won)
    return {k: (len(v), wins.get(k, 0)) for k, v in games.items() if v}
