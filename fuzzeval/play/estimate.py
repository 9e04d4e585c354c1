"""How long a run will take, from a few timed games, so that a long command says so first.

A command that may run for more than about a minute (``match``, ``calibrate``,
``tournament``) times its first games and, when the whole run is expected to take longer
than ``LONG``, prints one line on stderr before going on. The clock is a parameter, so the
arithmetic is tested with a fake one, not with timed tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: seconds: a run expected to take longer than this prints its estimate first
LONG = 60.0
Clock = Callable[[], float]


@dataclass(frozen=True)
class Part:
    """One part of a run: ``timed`` games took ``seconds``; ``left`` are still to play. A
    tournament has one part a pairing, since its pairings differ in speed (a simulating
    player is fifty times slower than the others)."""
    timed: int
    seconds: float
    left: int


@dataclass(frozen=True)
class Estimate:
    seconds: float  # still to go
    left: int  # games still to play
    timed: int  # games the estimate is made from

    def line(self, unit: str = "game") -> str:
        return (f"estimate: about {duration(self.seconds)} for the {self.left:,} {unit}s "
                f"still to play (from {self.timed:,} timed)")


def estimate(parts: Sequence[Part]) -> Estimate | None:
    """The time still to go: each part's seconds a game times its games left. A part with
    nothing timed (its games were stored before) goes at the mean rate of the timed ones;
    nothing timed at all: None."""
    rates = [p.seconds / p.timed for p in parts if p.timed > 0]
    if not rates:
        return None
    mean = sum(rates) / len(rates)
    seconds = sum((p.seconds / p.timed if p.timed > 0 else mean) * p.left for p in parts)
    return Estimate(seconds, sum(p.left for p in parts), sum(p.timed for p in parts))


def duration(seconds: float) -> str:
    """45 s, 12 min, 3.4 h: as precise as an estimate from a few games deserves."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"


#: the most the rates of the later half and the later quarter of the games so far may
#: differ (as a ratio) for the run's speed to count as settled
STEADY = 1.5


class Stopwatch:
    """Times the games of a run as they end and says, once, how long the rest will take
    when the whole run is expected to exceed ``LONG``; call ``tick`` as each game ends.

    The first game is not timed: it also pays for starting the workers and making the
    players. Nor is a warm-up after it: the first games of a cold start also compile
    kernels and fill caches in every worker (a cold Hearts match was once estimated at 4
    minutes from them, and took 9 s). The rate is that of the later half of the games
    ended so far, once they are ``at_least`` over ``settle`` seconds (quick games come
    back from the workers in batches) and their rate agrees with the later quarter's
    within ``STEADY``: a run still speeding up is timed again later."""

    def __init__(self, left: int, say: Callable[[str], None], unit: str = "game",
                 at_least: int = 4, settle: float = 3.0, clock: Clock = time.monotonic) -> None:
        self.left, self.say, self.unit = left, say, unit
        self.at_least, self.settle, self.clock = at_least, settle, clock
        self.start = clock()
        self.first: float | None = None  # when the first game ended
        self.ends: list[float] = []  # when each later game ended
        self.decided = left <= 1

    def tick(self) -> None:
        if self.decided:
            return
        now = self.clock()
        if self.first is None:
            self.first = now
            return
        self.ends.append(now)
        n = len(self.ends)
        left = self.left - 1 - n
        if left <= 0:
            self.decided = True
            return
        half, quarter = n // 2, (3 * n) // 4  # the later games start after these
        games, seconds = n - 1 - half, now - self.ends[half]
        if games < self.at_least or seconds < self.settle or now == self.ends[quarter]:
            return
        rates = (seconds / games, (now - self.ends[quarter]) / (n - 1 - quarter))
        if max(rates) > STEADY * min(rates):
            return
        self.decided = True
        guess = estimate([Part(games, seconds, left)])
        if guess is not None and now - self.start + guess.seconds > LONG:
            self.say(guess.line(self.unit))
