"""``maxn``: Sturtevant & White (2006)'s Monte-Carlo player on the search to the end of the
trick. For a card to lay it deals the cards it cannot see ``deals`` times, consistently
with all it has seen (``sampling.determinized``: voids, its pass, what the rules reveal),
runs maxⁿ to the end of the trick in each deal (``trick.search_trick``'s search, run over
all the deals at once by ``trick_search.search_deals``), and lays the card whose backed-up
value to itself is best on average over the deals: the fewest points, the first card in
the legal order on ties.

The leaves are valued by the points each seat has taken (``trick.TAKEN``), or with
``values=learned`` by those plus the learned points still to come from the position the
trick leaves (``position_values``: Sturtevant & White's evaluator). With ``deals=1`` it
searches one deal of the hidden cards, no Monte-Carlo. It passes as ``heuristic``, card by
card, or with ``passing=value`` (learned values only) by the value of the hand the pass
leaves (``pass_values``). With ``read=heuristic`` the deals also respect what the other
seats' cards reveal if they play as ``heuristic`` (``reading``; Billings et al. (1999)'s
selective sampling), unless the play so far contradicts that. The player draws only
from the generator it is given, so a decision repeats from its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.games.hearts.game import Decision
from fuzzeval.games.hearts.pass_values import passes
from fuzzeval.games.hearts.players import heuristic_player
from fuzzeval.games.hearts.position_values import PositionValues
from fuzzeval.games.hearts.sampling import deal_of, determinized
from fuzzeval.games.hearts.trick import TAKEN
from fuzzeval.games.hearts.trick_search import SeatValues, search_deals
from fuzzeval.games.options import check_keys
from fuzzeval.play.advice import NO_VALUES, Judgement
from fuzzeval.play.game import Candidates

FloatArray = npt.NDArray[np.float64]
#: Sturtevant & White's 20 Monte-Carlo models a decision
DEALS = 20
#: the most deals a decision may sample: about 2 s of CPU at this many
MAX_DEALS = 1000


@dataclass(frozen=True)
class MaxnHearts:
    """Lay the card with the fewest points on average over sampled deals, each searched
    to the end of the trick by maxⁿ (module doc); pass as ``heuristic``."""

    deals: int = DEALS
    values: SeatValues = TAKEN  # the leaves' values
    valued_by: str = "the points it takes"  # how, in the judgement's words
    passing: PositionValues | None = None  # pass by these values; None: as heuristic
    # deal as the other seats' cards reveal if they play as heuristic; keyword-only, so
    # that subclasses' fields (benchmarks/hearts_seen.py) keep their places
    read: bool = field(default=False, kw_only=True)
    logs_features = False  # it reads no features

    def searched(self, d: Decision, rng: np.random.Generator) -> FloatArray:
        """(deals, cards): each card's backed-up value to the seat deciding, per deal."""
        return search_deals([determinized(d.view, rng, self.read) for _ in range(self.deals)],
                            self.values).points

    def judge(self, candidates: Candidates, rng: np.random.Generator) -> Judgement:
        """The choice and why: each card's mean points and their deviation over the deals."""
        d = candidates.view
        if not isinstance(d, Decision):
            raise TypeError(f"not a Decision: {type(d).__name__}")
        if len(d.cards) == 1:
            return Judgement(0, "the only legal card")
        if d.view.kind == "pass":
            return self._pass(d, rng)
        rows = self.searched(d, rng)
        means = rows.mean(axis=0)
        sds = rows.std(axis=0, ddof=1) if self.deals > 1 else np.zeros(len(d.cards))
        order = tuple(int(i) for i in np.argsort(means, kind="stable"))
        how = (f"the fewest points taken by the trick's end on average over {self.deals} "
               f"sampled deals, each searched by maxⁿ (every seat by {self.valued_by})"
               f"{self._read_how(d)}")
        return Judgement(order[0], how, ("points", "sd"),
                         tuple((float(m), float(s)) for m, s in zip(means, sds, strict=True)),
                         order)

    def _read_how(self, d: Decision) -> str:
        """How the deals were read, in the judgement's words ("" unread)."""
        if not self.read:
            return ""
        if deal_of(d.view, True).read:
            return "; the deals read as heuristic's play would reveal the other hands"
        return ("; the deals not read as heuristic's play: the play so far contradicts "
                "it")

    def _pass(self, d: Decision, rng: np.random.Generator) -> Judgement:
        """The pass: ``heuristic``'s, or by the value of the hand it leaves."""
        if self.passing is None:
            return Judgement(heuristic_player(d.view, d.cards, rng),
                             f"it passes as heuristic: {NO_VALUES}")
        valued = passes(d.view, self.passing, DEALS, rng)
        if valued.cards != d.cards:
            raise AssertionError("the cards to pass are the hand's")
        order = tuple(int(i) for i in np.argsort(valued.by_card, kind="stable"))
        how = (f"the three cards that leave the fewest learned points to come from the first "
               f"trick, on average over {DEALS} sampled deals (each card: its best set)")
        return Judgement(order[0], how, ("points",),
                         tuple((float(p),) for p in valued.by_card), order)

    def decide(self, candidates: Candidates, rng: np.random.Generator
               ) -> tuple[int, dict[str, str | int | float]]:
        """The choice, and for a searched card the deals and each card's mean points."""
        j = self.judge(candidates, rng)
        if not j.values:
            return j.choice, {}
        passing = isinstance(candidates.view, Decision) and candidates.view.view.kind == "pass"
        return j.choice, {"deals": DEALS if passing else self.deals,
                          "points": " ".join(f"{v[0]:.3f}" for v in j.values)}

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        return self.judge(candidates, rng).choice


#: what ``values=`` may name
VALUES = ("taken", "learned")
#: what ``passing=`` may name: as ``heuristic`` (the default: it passes better, measured
#: in docs/hearts.md), or by the value of the hand left (with values=learned)
PASSING = ("value", "heuristic")
#: what ``read=`` may name: no card reading (the default), or the other seats' cards read
#: as ``heuristic`` lays them (``reading``)
READ = ("none", "heuristic")


def maxn_player(**options: Any) -> MaxnHearts:
    """``maxn[:deals=N,values=taken|learned,queen=BASE,hearts=BASE,passing=value|heuristic,
    read=none|heuristic]``: a bad option is a ValueError in one line."""
    check_keys("player 'maxn' does not take options", options,
               ("deals", "values", "queen", "hearts", "passing", "read"))
    deals = options.get("deals", DEALS)
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"deals must be a whole number from 1 to {MAX_DEALS:,} "
                         f"(got {deals!r})")
    values = options.get("values", "taken")
    if values not in VALUES:
        raise ValueError(f"values must be one of {', '.join(VALUES)} (got {values!r})")
    passing = options.get("passing", "heuristic")
    if passing not in PASSING:
        raise ValueError(f"passing must be one of {', '.join(PASSING)} (got {passing!r})")
    read = options.get("read", "none")
    if read not in READ:
        raise ValueError(f"read must be one of {', '.join(READ)} (got {read!r})")
    bases = {k: str(options[k]) for k in ("queen", "hearts") if k in options}
    if values == "taken":
        if bases:
            raise ValueError(f"{', '.join(bases)}: learned bases need values=learned")
        if passing == "value":
            raise ValueError("passing=value needs values=learned (the values of a hand)")
        return MaxnHearts(deals, read=read == "heuristic")
    from fuzzeval.games.hearts.position_values import position_values

    learned = position_values(**bases)
    return MaxnHearts(deals, learned,
                      "the points it takes plus the learned points still to come",
                      learned if passing == "value" else None, read=read == "heuristic")
