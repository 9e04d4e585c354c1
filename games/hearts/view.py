"""What one seat may know when it decides: its hand, what it passed and received, and the
public record (cards laid, voids shown, points taken). Players and features read only this."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from fuzzeval.games.hearts.cards import mask_of
from fuzzeval.games.hearts.rules import Four, Options, State, trick_winner


@dataclass(frozen=True, slots=True)
class View:
    seat: int
    kind: Literal["pass", "play"]
    hand: int  # cards held (mask)
    passed: tuple[int, ...]  # cards this seat passed (in the pass: so far)
    received: int  # cards passed to this seat (mask; 0 until every seat has passed)
    direction: int  # receiver of our pass = (seat + direction) % 4
    leader: int
    trick: tuple[int, ...]  # cards on the current trick, the lead first
    played: int  # every card laid this hand, the current trick included (mask)
    laid: tuple[tuple[int, int], ...]  # (seat, card) in order
    voids: Four  # per seat, bit s: that seat has failed to follow suit s
    taken: Four  # points in the tricks each seat has taken this hand
    broken: bool
    tricks_done: int
    options: Options

    @property
    def position(self) -> int:
        """0 when leading, 3 when last to play."""
        return len(self.trick)

    def winner_so_far(self) -> int:
        """The seat winning the current trick as it stands (-1 when it is empty)."""
        return trick_winner(self.leader, self.trick) if self.trick else -1


def view(state: State) -> View:
    """The seat to move's view of ``state``."""
    seat = state.to_move
    received = 0
    if state.phase == "play" and state.direction:
        received = mask_of(state.passed[(seat - state.direction) % 4])
    return View(seat, state.kind, state.hands[seat], state.passed[seat], received,
                state.direction, state.leader, state.trick, state.played, state.laid,
                state.voids, state.taken, state.broken, len(state.winners), state.options)
