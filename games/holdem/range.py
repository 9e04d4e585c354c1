"""The opponent's range: a weight on each of the 1,326 two-card holdings, after Loki's
opponent model (Billings et al. 1999; Billings et al. 1998, *Opponent Modeling in Poker*).

Cards are ids ``rank * 4 + suit`` (2c = 0, 2d = 1, 2h = 2, 2s = 3, 3c = 4 ... As = 51), the
ids of OpenSpiel and phevaluator. Holding ``i`` is the pair ``HOLDINGS[i] = (a, b)``, a < b,
in lexicographic order; ``HOLDING_INDEX[a, b]`` is its index either way round.

A weight is the relative likelihood that the opponent holds that pair and would have played
as it did, in [0, 1] (Loki's convention: 1 = fully consistent with its play). Holdings that
contain a card we have seen are set to 0 (``Range.without``). After each opponent action the
weights are multiplied by how likely that action is for each holding (``Range.updated``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from fuzzeval.errors import NotationError

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

N_HOLDINGS = 1326


def _holdings() -> IntArray:
    pairs = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    pairs.setflags(write=False)
    return pairs


#: the 1,326 holdings as card pairs (a, b), a < b, in lexicographic order
HOLDINGS: IntArray = _holdings()


def _index() -> IntArray:
    index = np.full((52, 52), -1, dtype=np.int64)
    index[HOLDINGS[:, 0], HOLDINGS[:, 1]] = np.arange(N_HOLDINGS)
    index[HOLDINGS[:, 1], HOLDINGS[:, 0]] = np.arange(N_HOLDINGS)
    index.setflags(write=False)
    return index


#: holding index of the pair (a, b) in either order; -1 where a == b
HOLDING_INDEX: IntArray = _index()


def check_cards(cards: Iterable[int], what: str = "cards") -> tuple[int, ...]:
    """``cards`` as a tuple of distinct ids 0-51; NotationError names the bad one."""
    out: list[int] = []
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, (int, np.integer)) \
                or not 0 <= int(card) < 52:
            raise NotationError(str(card), f"{what}: a card id runs from 0 (2c) to 51 (As)")
        if int(card) in out:
            raise NotationError(str(card), f"{what}: a card appears twice")
        out.append(int(card))
    return tuple(out)


def blocked(cards: Iterable[int]) -> BoolArray:
    """Which holdings contain one of ``cards`` (those the opponent cannot hold)."""
    seen = np.zeros(52, dtype=np.bool_)
    seen[list(check_cards(cards))] = True
    return seen[HOLDINGS[:, 0]] | seen[HOLDINGS[:, 1]]


@dataclass(frozen=True)
class Reaction:
    """How likely an action is, as a function of a holding's strength percentile s in
    [0, 1] (``percentiles``: the share of the possible holdings that it beats, on the
    current board; a percentile, not the strength itself, so that one threshold means the
    same top share preflop, where equities run from 0.32 to 0.85, and on the river).

    ``likelihood(s) = up(s) * down(s)``, two ramps in the manner of Loki's re-weighting
    (Billings et al. 1998): ``up`` rises linearly from ``floor`` at ``up_at - spread`` to 1 at
    ``up_at + spread`` (weak holdings rarely take the action; ``floor`` > 0 leaves room for
    bluffs and mistakes); ``down`` falls linearly from 1 at ``down_at - spread`` to ``top``
    at ``down_at + spread`` (strong holdings would often have raised instead). ``up_at = 0``
    with ``floor = 1`` or ``down_at = 1`` with ``top = 1`` switches a ramp off.
    """

    up_at: float
    down_at: float
    spread: float
    floor: float
    top: float

    def likelihood(self, strength: FloatArray) -> FloatArray:
        s = np.asarray(strength, dtype=np.float64)
        width = 2.0 * self.spread
        up = np.clip((s - self.up_at + self.spread) / width, 0.0, 1.0)
        down = np.clip((s - self.down_at + self.spread) / width, 0.0, 1.0)
        return (self.floor + (1.0 - self.floor) * up) * (1.0 - (1.0 - self.top) * down)


#: The documented default model (hand-set, in the paper's spirit; to be tuned with the rule
#: base). A bet or raise shifts weight to strong holdings (a ramp centred on the 65th
#: percentile); a call of a bet shifts it to medium ones (weak holdings fold: ramp at the
#: 40th; the strongest would often have raised: down to 0.5 above the 85th); a check when
#: nothing is to call says the holding is probably not strong (down to 0.4 above the
#: 75th), and nothing about weak ones.
REACTIONS: dict[str, Reaction] = {
    "raise": Reaction(up_at=0.65, down_at=1.0, spread=0.2, floor=0.05, top=1.0),
    "call": Reaction(up_at=0.40, down_at=0.85, spread=0.15, floor=0.05, top=0.5),
    "check": Reaction(up_at=0.0, down_at=0.75, spread=0.15, floor=1.0, top=0.4),
}


def percentiles(strengths: FloatArray, possible: BoolArray) -> FloatArray:
    """Each holding's mid-rank among the ``possible`` ones by strength: (those it beats +
    half those it ties, itself included) / their number; 0 where not possible."""
    s = np.asarray(strengths, dtype=np.float64)
    ranked = np.sort(s[possible])
    below = np.searchsorted(ranked, s, side="left")
    upto = np.searchsorted(ranked, s, side="right")
    return np.where(possible, (below + upto) / (2.0 * max(ranked.size, 1)), 0.0)


def action_kind(action: str, facing_bet: bool) -> str:
    """The ``REACTIONS`` key of an ACPC action letter: ``r`` raise; ``c`` call facing a
    bet, else check; ``f`` fold (the hand ends: nothing to update)."""
    if action == "r":
        return "raise"
    if action == "c":
        return "call" if facing_bet else "check"
    if action == "f":
        return "fold"
    raise NotationError(action, "an action is f, c or r")


@dataclass(frozen=True, eq=False)
class Range:
    """Weights on the 1,326 holdings (read-only copy of ``weights``), each in [0, 1]."""

    weights: FloatArray = field(repr=False)

    def __post_init__(self) -> None:
        w = np.array(self.weights, dtype=np.float64)
        if w.shape != (N_HOLDINGS,):
            raise ValueError(f"a range has {N_HOLDINGS} weights, got shape {w.shape}")
        if not np.all(np.isfinite(w)) or np.any(w < 0.0) or np.any(w > 1.0):
            raise ValueError("range weights lie in [0, 1]")
        w.setflags(write=False)
        object.__setattr__(self, "weights", w)

    @classmethod
    def uniform(cls, seen: Iterable[int] = ()) -> Range:
        """Every holding equally likely, except those with a ``seen`` card."""
        return cls(np.where(blocked(seen), 0.0, 1.0))

    def without(self, seen: Iterable[int]) -> Range:
        """The same weights with every holding that contains a ``seen`` card set to 0."""
        return Range(np.where(blocked(seen), 0.0, self.weights))

    @property
    def total(self) -> float:
        return float(self.weights.sum())

    def probabilities(self) -> FloatArray:
        """The weights normalised to sum 1 (what the sampler draws holdings from)."""
        total = self.weights.sum()
        if total <= 0.0:
            raise ValueError("every holding has weight 0")
        return np.asarray(self.weights / total, dtype=np.float64)

    def updated(self, action: str, facing_bet: bool, strengths: FloatArray,
                reactions: dict[str, Reaction] | None = None) -> Range:
        """The range after the opponent's ``action`` (ACPC letter ``f``, ``c``, ``r``):
        each weight times ``REACTIONS[kind].likelihood`` of the holding's percentile
        among the holdings with weight > 0, by ``strengths``
        (``strength.holding_strengths(board)``: strength against a uniform holding; a
        uniform rather than our own range keeps the update independent of our cards).
        A fold leaves the range as it is (the hand is over)."""
        kind = action_kind(action, facing_bet)
        if kind == "fold":
            return self
        reaction = (reactions or REACTIONS)[kind]
        s = np.asarray(strengths, dtype=np.float64)
        if s.shape != (N_HOLDINGS,):
            raise ValueError(f"strengths has shape {s.shape}, not ({N_HOLDINGS},)")
        return Range(self.weights * reaction.likelihood(percentiles(s, self.weights > 0)))
