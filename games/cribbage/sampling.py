"""Cribbage's hidden-information hooks for selective sampling (``fuzzeval.search.sampling``).

A seat laying a card knows its own four, its two thrown cards, the starter and every card
laid. It does not know the opponent's cards still in hand nor the two the opponent threw.
A sample draws them consistently with what was seen: the cards still in hand among the
unseen cards the opponent's gos allow (a go at a count leaves only cards worth more than
what was left to 31), then the thrown pair among the rest, each pair weighted by how
often a good player throws a pair of its kind (``weights``: the shipped expert throw
shares, or uniform) -- the selective bias. The deal is then played out, the pegging to
its end and the show, and valued by the seat's points less the opponent's (a game won or
lost in it as +-``pegging.kernels.WIN_VALUE``); near 121 (``ENDGAME``), by the chance of
winning from the scores it leaves (``win_table``), 1 or 0 when the game ends in it.

``pegging_simulator`` runs the trials compiled (``pegging.kernels``); the three hooks of
``HIDDEN`` play the same samples through the game's own rules, for any rollout policy and
as the check of the compiled playouts.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.games.cribbage.cards import value
from fuzzeval.games.cribbage.discard import THROWS, CribOwner, evaluate_discards
from fuzzeval.games.cribbage.fuzzy import FuzzyPegging
from fuzzeval.games.cribbage.pegging import kernels
from fuzzeval.games.cribbage.pegging.policies import PegView
from fuzzeval.games.cribbage.players import DiscardView
from fuzzeval.games.cribbage.rules import State
from fuzzeval.games.cribbage.scoring import rank_table
from fuzzeval.games.cribbage.weights import Weighting, opponent_weights
from fuzzeval.games.cribbage.win_table import win_table
from fuzzeval.play.game import Candidates
from fuzzeval.search.sampling import (
    SamplingResult,
    SamplingSettings,
    Simulator,
    playout_simulator,
    simulate,
    softmax_choice,
)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: uniforms a trial draws: up to four cards in the opponent's hand, then its thrown pair
UNIFORMS = 5


#: a deal cannot plausibly take a score this far below 121 to 121; nearer, a simulated
#: deal is worth the chance of winning from the scores it leaves (``win_table``), and a
#: discard's trials play the show out instead of taking its exact expectation
ENDGAME = 60
NO_TABLE = np.zeros((0, 0, 0))
NO_TABLE.flags.writeable = False  # as the win table: the kernels compiled for one array type


def endgame(scores: tuple[int, int] | IntArray) -> bool:
    """Whether a deal from these scores is valued by the chance of winning."""
    return bool(max(int(s) for s in scores) >= kernels.WIN - ENDGAME)


def value_table(scores: tuple[int, int] | IntArray) -> FloatArray:
    """What the kernels value a deal's end with: the win table in the endgame, else none
    (points less the opponent's)."""
    return win_table() if endgame(scores) else NO_TABLE


@dataclass(frozen=True)
class Go:
    """A seat that could not lay on ``count`` (it said go, or held no card): every card it
    held then, ``at`` cards into the deal's play, was worth more than ``31 - count``."""

    seat: int  # 0 the seat deciding, 1 the opponent
    count: int
    at: int


@dataclass(frozen=True)
class Play:
    """The cards laid this deal as the rules read them: the count still going and the gos."""

    count_cards: tuple[int, ...]
    gos: tuple[Go, ...]


def read_play(played: Sequence[int], kept: Collection[int],
              count_cards: Sequence[int]) -> Play:
    """The play up to my turn by the rules: a count runs until 31 or until neither seat can
    lay (the next card does not fit on it); after a card the other seat lays unless it
    cannot, and after a count the seat that did not lay last leads unless it cannot. A card
    is mine when in ``kept``; ``count_cards`` empty says the count still going has just
    ended (neither could lay) and I lead."""
    gos: list[Go] = []
    count, start, last = 0, 0, -1  # last: who laid the last card, 0 me, 1 the opponent
    for at, card in enumerate(played):
        who = 0 if card in kept else 1
        if count + value(card) > 31:  # nobody could lay on the old count
            gos += [Go(0, count, at), Go(1, count, at)]
            count, start = 0, at
        if who == last:  # the same seat twice running: the other could not lay
            gos.append(Go(1 - who, count, at))
        count += value(card)
        last = who
        if count == 31:
            count, start = 0, at + 1
    if not count_cards and count > 0:  # a go has just ended that count: I lead anew
        gos += [Go(0, count, len(played)), Go(1, count, len(played))]
        count, start = 0, len(played)
    if last == 0:  # my turn after my own card: the opponent cannot lay
        gos.append(Go(1, count, len(played)))
    return Play(tuple(played[start:]), tuple(gos))


def opponent_go_room(view: PegView) -> int:
    """The most room to 31 at which the opponent could not lay a card this deal (every
    card it still holds is worth more), or -1 when it has never said go."""
    play = read_play(view.played, view.kept, view.count_cards)
    return max((31 - go.count for go in play.gos if go.seat == 1), default=-1)


def opponent_laid(played: Sequence[int], kept: Collection[int]) -> list[int]:
    """The cards the opponent laid; a ValueError unless I keep four and it laid at most
    four (more once wrote past an array in the kernel)."""
    opp_laid = [c for c in played if c not in kept]
    if len(kept) != 4 or len(opp_laid) > 4:
        raise ValueError(f"a seat keeps four cards and lays at most four (here {len(kept)} "
                         f"kept, {len(opp_laid)} laid by the opponent)")
    return opp_laid


def opponent_cards(view: PegView) -> tuple[list[int], IntArray, IntArray]:
    """The cards the opponent laid, the cards unseen and which of those (their places in
    it) agree with its gos; a ValueError when no deal gives this view: a player advising
    on it, simulating or not, would advise on a game that cannot happen."""
    opp_laid = opponent_laid(view.played, view.kept)
    known = {*view.kept, *view.thrown, view.starter, *view.played}
    pool = np.array([c for c in range(52) if c not in known], dtype=np.int64)
    room = opponent_go_room(view)
    eligible = np.array([i for i, c in enumerate(pool) if room < 0 or value(int(c)) > room],
                        dtype=np.int64)
    if eligible.size < 4 - len(opp_laid) or pool.size - (4 - len(opp_laid)) < 2:
        raise ValueError("no cards the opponent could hold agree with this view (its gos "
                         "and the cards seen)")
    return opp_laid, pool, eligible


@dataclass(frozen=True)
class PegSetup:
    """Everything the trials of one pegging decision share, as arrays for the kernels."""

    options: IntArray
    my_hand: IntArray
    my_kept: IntArray
    my_thrown: IntArray
    opp_laid: IntArray
    pool: IntArray  # the cards this seat has not seen
    eligible: IntArray  # positions in pool the opponent may still hold
    pair_a: IntArray  # pairs of positions in pool the opponent may have thrown,
    pair_b: IntArray
    pair_w: FloatArray  # and their weights
    seq: IntArray  # ranks of the current count
    count: int
    seen: IntArray  # (2, 13): what each seat has seen, the opponent's own four not yet
    dealer: int  # 0: this seat deals
    scores: IntArray
    starter: int


def peg_setup(view: PegView, weights: Weighting = "expert") -> PegSetup:
    """The shared part of a pegging decision's trials."""
    if len(view.thrown) != 2:
        raise ValueError("the view does not say which two cards this seat threw")
    mine = set(view.kept)
    opp_laid, pool, eligible = opponent_cards(view)
    w = opponent_weights(weights, view.my_crib)
    a, b = np.triu_indices(pool.size, k=1)
    ra, rb = pool[a] // 4, pool[b] // 4
    suited = (pool[a] % 4 == pool[b] % 4).astype(np.int64)
    seen = np.zeros((2, 13), dtype=np.int64)
    for card in (*view.kept, view.starter, *opp_laid):
        seen[0, card // 4] += 1
    for card in (view.starter, *(c for c in view.played if c in mine)):
        seen[1, card // 4] += 1
    return PegSetup(
        options=np.array(view.options, dtype=np.int64),
        my_hand=np.array(view.hand, dtype=np.int64),
        my_kept=np.array(view.kept, dtype=np.int64),
        my_thrown=np.array(view.thrown, dtype=np.int64),
        opp_laid=np.array(opp_laid, dtype=np.int64),
        pool=pool, eligible=eligible,
        pair_a=a.astype(np.int64), pair_b=b.astype(np.int64),
        pair_w=np.asarray(w[ra, rb, suited], dtype=np.float64),
        seq=np.array([c // 4 for c in view.count_cards], dtype=np.int64),
        count=view.count, seen=seen, dealer=0 if view.my_crib else 1,
        scores=np.array(view.scores, dtype=np.int64), starter=view.starter)


def pegging_values(setup: PegSetup, u: FloatArray) -> FloatArray:
    """Values (n, k) of each option in the trials drawn from uniforms ``u`` (n, UNIFORMS),
    greedy pegging on both sides after the option."""
    return kernels.pegging_trials(
        np.ascontiguousarray(u, dtype=np.float64), setup.options, setup.my_hand,
        setup.my_kept, setup.my_thrown, setup.opp_laid, setup.pool, setup.eligible,
        setup.pair_a, setup.pair_b, setup.pair_w, setup.seq, setup.count, setup.seen,
        setup.dealer, setup.scores, setup.starter, rank_table(), value_table(setup.scores))


def pegging_simulator(view: PegView, weights: Weighting = "expert") -> Simulator:
    """The compiled simulator of a pegging decision (greedy rollouts)."""
    setup = peg_setup(view, weights)

    def run(n: int, rng: np.random.Generator) -> FloatArray:
        return pegging_values(setup, rng.random((n, UNIFORMS)))

    return run


def sample_hidden(setup: PegSetup, u: FloatArray) -> tuple[tuple[int, ...], tuple[int, int]]:
    """The opponent's cards still in hand and its thrown pair drawn from uniforms ``u``."""
    need = 4 - setup.opp_laid.size
    rest = np.empty(max(need, 1), dtype=np.int64)
    crib2 = np.empty(2, dtype=np.int64)
    kernels.sample_opponent(setup.pool, setup.eligible, need, setup.pair_a, setup.pair_b,
                                setup.pair_w, np.asarray(u, dtype=np.float64), rest, crib2,
                                np.zeros(setup.pool.size, dtype=np.int64))
    return tuple(sorted(int(c) for c in rest[:need])), (int(crib2[0]), int(crib2[1]))


def determinized(view: PegView, setup: PegSetup, u: FloatArray) -> State:
    """The full state of one trial: this seat is seat 0 and to move."""
    rest, pair = sample_hidden(setup, u)
    laid = tuple(int(c) for c in setup.opp_laid)
    dealer = 0 if view.my_crib else 1
    count_cards = view.count_cards
    last = -1
    if count_cards:
        last = 0 if count_cards[-1] in view.kept else 1
    return State(
        scores=view.scores, dealer=dealer, phase="play",
        hands=(view.kept, tuple(sorted((*laid, *rest)))),
        crib=tuple(sorted((*view.thrown, *pair))), starter=view.starter, to_move=0,
        in_hand=(view.hand, rest), count_cards=count_cards, count=view.count,
        played=view.played, last=last, deal_points=((0, 0),),
        tally=((0,) * 4, (0,) * 4), thrown=(view.thrown, pair))


class CribbageHidden:
    """The hooks of ``fuzzeval.search.sampling.HiddenInformation`` for pegging decisions."""

    def __init__(self, weights: Weighting = "expert") -> None:
        self.weights: Weighting = weights

    def determinize(self, view: object, rng: np.random.Generator) -> State:
        if not isinstance(view, PegView):
            raise TypeError("cribbage samples pegging decisions (a PegView)")
        return determinized(view, _setup(view, self.weights), rng.random(UNIFORMS))

    def finished(self, root: Any, state: Any) -> bool:
        return bool(state.phase != "play")

    def value(self, root: Any, state: Any, seat: int) -> float:
        table = endgame(root.scores)
        if state.phase == "over":
            won = state.winner == seat
            if table:
                return 1.0 if won else 0.0
            return kernels.WIN_VALUE if won else -kernels.WIN_VALUE
        if table:  # the deal has passed: the seat deals next if it was the pone
            deals_next = int(root.dealer != seat)
            return float(win_table()[state.scores[seat], state.scores[1 - seat], deals_next])
        deal = state.deal_points[len(root.deal_points) - 1]
        before = root.deal_points[-1]
        return float((deal[seat] - before[seat]) - (deal[1 - seat] - before[1 - seat]))


_SETUPS: dict[tuple[PegView, str], PegSetup] = {}


def _setup(view: PegView, weights: Weighting) -> PegSetup:
    """One setup per view and weighting (a simulation determinizes one view many times)."""
    key = (view, weights)
    if key not in _SETUPS:
        if len(_SETUPS) > 64:
            _SETUPS.clear()
        _SETUPS[key] = peg_setup(view, weights)
    return _SETUPS[key]


HIDDEN = CribbageHidden()


THROW_POSITIONS = np.array(THROWS, dtype=np.int64)


@dataclass(frozen=True)
class DiscardSetup:
    """Everything the trials of one discard share, built once a decision."""

    six: IntArray
    pool: IntArray  # the 46 unseen cards
    pair_a: IntArray  # pairs of positions in pool the opponent may throw,
    pair_b: IntArray
    pair_cum: FloatArray  # and their cumulative weights
    dealer: int  # 0: this seat deals
    scores: IntArray
    table: FloatArray  # the win table in the endgame, else empty
    ev: FloatArray | None  # the throws' exact hand and crib (None in the endgame)


def discard_setup(view: DiscardView, weights: Weighting = "expert") -> DiscardSetup:
    """The shared part of a discard's trials."""
    w = np.asarray(opponent_weights(weights, view.my_crib), dtype=np.float64)
    pool = np.array([c for c in range(52) if c not in view.hand], dtype=np.int64)
    a, b = np.triu_indices(pool.size, k=1)
    suited = (pool[a] % 4 == pool[b] % 4).astype(np.int64)
    ev = None
    if not endgame(view.scores):
        crib: CribOwner = "mine" if view.my_crib else "theirs"
        ev = evaluate_discards(view.hand, crib, w).ev
    return DiscardSetup(np.array(view.hand, dtype=np.int64), pool, a.astype(np.int64),
                        b.astype(np.int64), np.cumsum(w[pool[a] // 4, pool[b] // 4, suited]),
                        0 if view.my_crib else 1, np.array(view.scores, dtype=np.int64),
                        value_table(view.scores), ev)


def discard_values(setup: DiscardSetup, u: FloatArray) -> FloatArray:
    """Values (n, 15) of the 15 throws in the trials drawn from ``u`` (n, 6)."""
    vals = kernels.discard_trials(np.ascontiguousarray(u, dtype=np.float64), setup.six,
                                      THROW_POSITIONS, setup.pool, setup.pair_a, setup.pair_b,
                                      setup.pair_cum, setup.dealer, setup.scores,
                                      rank_table(), setup.table)
    if setup.ev is None:  # the endgame: the whole deal simulated
        whole: FloatArray = vals[:, :, 0]
        return whole
    play: FloatArray = vals[:, :, 1] + setup.ev[None, :]
    return play


def discard_simulator(view: DiscardView, weights: Weighting = "expert") -> Simulator:
    """The compiled simulator of a discard: each trial the opponent's thrown pair (in
    proportion to ``weights``: the selective bias, and the exhaustive evaluator's model of
    the crib), its four from the rest and a starter; each throw's deal is the play
    simulated with greedy pegging plus the hand and crib at their exact expected value under
    the same model (a control variate: the show's expectation taken exactly instead of
    sampled), or, near 121, the whole deal simulated."""
    setup = discard_setup(view, weights)

    def run(n: int, rng: np.random.Generator) -> FloatArray:
        return discard_values(setup, rng.random((n, DISCARD_UNIFORMS)))

    return run


DISCARD_UNIFORMS = 6


#: how sharply a fuzzy rollout prefers its best-graded card: grades are points averaged
#: over the pegging base's three contributions, so at 0.1 a card graded 0.1 better (0.3
#: points) is e times as likely to be laid
TEMPERATURE = 0.1


@dataclass(frozen=True)
class SoftmaxPegging:
    """A rollout policy from a pegging rule base (the role of Billings et al.'s
    ``ProbTriple()``): every playable card drawn with probability proportional to exp(grade
    / temperature)."""

    policy: FuzzyPegging
    temperature: float = TEMPERATURE

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        view = candidates.view
        assert isinstance(view, PegView)
        return softmax_choice(self.policy.judge(view)[0], self.temperature, rng)


@dataclass(frozen=True)
class SamplingPegging:
    """Lay the card whose simulated deals are worth most (Billings et al.'s framework): the deals
    played out compiled with greedy pegging, or, with a ``rollout`` policy (a rule base's
    softmax), through the game's rules (far slower)."""

    settings: SamplingSettings = field(default_factory=SamplingSettings)
    weights: Weighting = "expert"
    rollout: SoftmaxPegging | None = None

    def weigh(self, view: PegView, rng: np.random.Generator) -> tuple[int, SamplingResult]:
        """The card whose simulated plays are worth most, and the simulation."""
        if self.rollout is None:
            simulator = pegging_simulator(view, self.weights)
        else:
            from fuzzeval.games.cribbage.game import GAME

            candidates = Candidates("play", tuple(map(str, view.options)),
                                    np.zeros((len(view.options), 0)), view=view)
            simulator = playout_simulator(GAME, CribbageHidden(self.weights), candidates,
                                          (self.rollout, self.rollout))
        result = simulate(simulator, len(view.options), self.settings, rng)
        return result.best, result

    def __call__(self, view: PegView, rng: np.random.Generator) -> int:
        return self.weigh(view, rng)[0]


@dataclass(frozen=True)
class SamplingDiscard:
    """Throw the two cards whose simulated deals, pegging included, are worth most."""

    settings: SamplingSettings = field(default_factory=SamplingSettings)
    weights: Weighting = "expert"

    def weigh(self, view: DiscardView, rng: np.random.Generator
              ) -> tuple[int, SamplingResult]:
        """The throw whose simulated deals are worth most, and the simulation."""
        result = simulate(discard_simulator(view, self.weights), len(THROWS), self.settings,
                          rng)
        return result.best, result

    def __call__(self, view: DiscardView, rng: np.random.Generator) -> int:
        return self.weigh(view, rng)[0]
