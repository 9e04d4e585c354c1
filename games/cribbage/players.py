"""Cribbage players: a discard strategy plus a pegging policy, chosen independently.

Discard strategies see the six cards and who owns the crib; they return an index into
THROWS (positions in the sorted six). ``make_player(name, pegging=..., **options)`` builds
one by name; ``player.discard(cards6, crib, rng)`` is the public one-hand interface.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.errors import FuzzevalError
from fuzzeval.games.cribbage.cards import Card, card_str, parse_cards
from fuzzeval.games.cribbage.discard import (
    THROWS,
    CribOwner,
    evaluate_discards,
    hand_scores_by_starter,
)
from fuzzeval.games.cribbage.fuzzy import (
    PEG_RULEBASE,
    PLAY_RULEBASE,
    FuzzyDiscard,
    FuzzyPegging,
    resolve_rulebase,
)
from fuzzeval.games.cribbage.pegging.features import PEG_FEATURE_NAMES
from fuzzeval.games.cribbage.pegging.policies import POLICIES, PeggingPolicy, PegView
from fuzzeval.games.cribbage.weights import Weighting, opponent_weights
from fuzzeval.games.options import as_choice, as_int, as_text, check_keys, shown
from fuzzeval.play.game import Candidates, PlayerHooks, hook
from fuzzeval.play.spec import PlayerSpec

WEIGHTINGS = ("uniform", "expert")


@dataclass(frozen=True)
class DiscardView:
    """What a seat sees when it must throw two cards to the crib."""

    hand: tuple[int, ...]  # six card ids, sorted
    my_crib: bool
    scores: tuple[int, int]  # mine, the opponent's


DiscardStrategy = Callable[[DiscardView, "np.random.Generator"], int]  # quoted: numpy.random
# is imported on first use, and advising one hand uses none


def random_discard(view: DiscardView, rng: np.random.Generator) -> int:
    """Any two cards, all 15 throws alike."""
    return int(rng.integers(len(THROWS)))


def greedy_discard(view: DiscardView, rng: np.random.Generator) -> int:
    """Keep the four with the best expected hand over the 46 starters; ignore the crib."""
    scores = hand_scores_by_starter(np.array(view.hand, dtype=np.intp))
    return int(np.argmax(scores.sum(axis=1)))


@dataclass(frozen=True)
class ExhaustiveDiscard:
    """Best exact expected value: hand over every starter, crib over every opponent throw."""

    weights: Weighting = "uniform"  # how the opponent throws: uniform or expert

    def __post_init__(self) -> None:
        as_choice("weights", self.weights, WEIGHTINGS)  # never a silent uniform for a typo

    def __call__(self, view: DiscardView, rng: np.random.Generator) -> int:
        crib: CribOwner = "mine" if view.my_crib else "theirs"
        w = opponent_weights(self.weights, view.my_crib)
        return int(np.argmax(evaluate_discards(view.hand, crib, w).ev))


@dataclass(frozen=True)
class CribbagePlayer:
    """A named discard strategy with a pegging policy (named, or built: ``policy``)."""

    name: str
    discarder: DiscardStrategy
    pegging: str = "greedy"
    policy: PeggingPolicy | None = None

    def __post_init__(self) -> None:
        if self.policy is None:
            check_pegging(self.pegging)

    @property
    def logged_kinds(self) -> frozenset[str]:
        """Decision kinds logged, with their features, besides the game's: the play, when
        a pegging rule base decides it (so that calibration can read it)."""
        return hook(self.policy, PlayerHooks.logged_kinds) or frozenset()

    @property
    def rulebase(self) -> RuleBase | None:
        """The rule base its discard reads (a fuzzy discard's), for advice; its pegging's
        is ``hook(player.policy, PlayerHooks.rulebase)``."""
        return hook(self.discarder, PlayerHooks.rulebase)

    def decide(self, candidates: Candidates, rng: np.random.Generator
               ) -> tuple[int, Mapping[str, str | int | float]]:
        """The choice, and what the history keeps about how it was made (a simulation's
        trials, stop, means and deviations; nothing for a player that does not simulate)."""
        view = candidates.view
        if isinstance(view, DiscardView):
            if isinstance(self.discarder, FuzzyDiscard) and candidates.feature_names:
                # The game has computed every feature for the history: grade those.
                return self.discarder.choose_from(candidates), {}
            return _with_note(self.discarder, view, rng)
        if isinstance(view, PegView):
            policy = self.policy if self.policy is not None else POLICIES[self.pegging]  # type: ignore[index]
            return _with_note(policy, view, rng)
        raise TypeError(f"not a cribbage decision: {candidates.kind!r}")

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        return self.decide(candidates, rng)[0]

    def discard(self, cards6: Sequence[Card] | str, crib: CribOwner = "mine",
                rng: np.random.Generator | None = None,
                scores: tuple[int, int] = (0, 0)) -> tuple[str, str]:
        """The two cards this player throws from six (card strings)."""
        if crib not in ("mine", "theirs"):
            raise ValueError(f"crib must be 'mine' or 'theirs' (got {crib!r})")
        hand = tuple(sorted(parse_cards(cards6, 6)))
        choice = self.discarder(DiscardView(hand, crib == "mine", scores),
                                rng if rng is not None else np.random.default_rng())
        a, b = THROWS[choice]
        return card_str(hand[a]), card_str(hand[b])


def _with_note(how: Any, view: object, rng: np.random.Generator
               ) -> tuple[int, Mapping[str, str | int | float]]:
    """A strategy's choice, with its simulation's record when it simulates (a sampling
    strategy's ``weigh(view, rng)``)."""
    weigh = getattr(how, "weigh", None)  # only the sampling strategies simulate
    if weigh is None:
        return int(how(view, rng)), {}
    choice, result = weigh(view, rng)
    return int(choice), result.record()


def _fuzzy(rulebase: Any = PLAY_RULEBASE) -> DiscardStrategy:
    if isinstance(rulebase, RuleBase):
        return FuzzyDiscard(rulebase)
    return FuzzyDiscard(resolve_rulebase(as_text("rulebase", rulebase,
                                                 "a rule base name or path")))


def _es(table: Any = None) -> DiscardStrategy:
    # imported here: its module builds tables a fuzzy or exhaustive hand does not need
    from fuzzeval.games.cribbage.es import ESDiscard, default_table, load_table

    if table is None:
        return ESDiscard(default_table())
    return ESDiscard(load_table(as_text("table", table, "the path of an ES table (.npz)")))


def _exhaustive(weights: Any = "uniform") -> DiscardStrategy:
    chosen: Weighting = "expert" if as_choice("weights", weights, WEIGHTINGS) == "expert" \
        else "uniform"
    return ExhaustiveDiscard(chosen)


DISCARDERS: dict[str, Callable[..., DiscardStrategy]] = {
    "random": lambda: random_discard,
    "greedy": lambda: greedy_discard,
    "es": _es,
    "fuzzy": _fuzzy,
    "exhaustive": _exhaustive,
}
PLAYER_NAMES = ", ".join((*DISCARDERS, "sampling"))
#: each player's options besides ``pegging`` (every player takes that one)
PLAYER_OPTIONS: dict[str, tuple[str, ...]] = {
    "random": (),
    "greedy": (),
    "es": ("table",),
    "fuzzy": ("rulebase",),
    "exhaustive": ("weights",),
}


#: pegging policies by name: the plain ones, and the pegging rule base (``peg_rulebase``)
PEGGING_NAMES = (*POLICIES, "fuzzy")


def check_pegging(pegging: Any) -> str:
    """A pegging policy's name, or a ValueError listing them."""
    if not isinstance(pegging, str) or pegging not in PEGGING_NAMES:
        raise ValueError(f"unknown pegging policy {shown(pegging)} "
                         f"(policies: {', '.join(PEGGING_NAMES)})")
    return pegging


def _peg_policy(pegging: str, peg_rulebase: Any) -> PeggingPolicy | None:
    """The built policy of ``pegging=fuzzy`` (its rule base), None for a plain one."""
    if pegging != "fuzzy":
        if peg_rulebase is not None:
            raise ValueError("peg_rulebase is read only with pegging=fuzzy")
        return None
    text = as_text("peg_rulebase", PEG_RULEBASE if peg_rulebase is None else peg_rulebase,
                   "a pegging rule base name or path")
    try:
        return FuzzyPegging(resolve_rulebase(text))
    except (OSError, FuzzevalError) as exc:
        raise ValueError(str(exc)) from None


def grades_plays(rb: RuleBase) -> bool:
    """Whether a rule base grades cards to lay (every input a pegging feature): then
    ``fuzzy:rulebase=cribbage_pegging`` -- and the calibrator, which names its rule base
    that way -- pegs with it."""
    names = rb.input_names
    return bool(names) and all(n in PEG_FEATURE_NAMES for n in names)


def make_player(name: str, pegging: Any = None, **options: Any) -> CribbagePlayer:
    """A player by name (``random``, ``greedy``, ``es``, ``fuzzy``, ``exhaustive``,
    ``sampling``) and pegging policy (``basic``, ``greedy`` -- the default --, ``fuzzy``
    with ``peg_rulebase``); options go to the discard strategy (``fuzzy``:
    rulebase=NAME|PATH, a pegging base pegging with it; ``es``: table=PATH.npz;
    ``exhaustive``: weights=uniform|expert; ``sampling``: see ``sampling_player``). An
    unknown option or a bad value is a ValueError naming the valid ones."""
    if name == "sampling":
        return sampling_player(**({"pegging": pegging} if pegging is not None else {}),
                               **options)
    if name not in DISCARDERS:
        raise ValueError(f"unknown cribbage player {name!r} (players: {PLAYER_NAMES})")
    check_keys(f"player {name!r} does not take options", options,
               (*PLAYER_OPTIONS[name], "pegging", "peg_rulebase"))
    peg_rulebase = options.pop("peg_rulebase", None)
    if name == "fuzzy" and "rulebase" in options:  # loaded once, here
        try:
            rb = resolve_rulebase(as_text("rulebase", options["rulebase"],
                                          "a rule base name or path"))
        except (OSError, FuzzevalError) as exc:
            raise ValueError(str(exc)) from None
        options["rulebase"] = rb
        if grades_plays(rb) and pegging is None and peg_rulebase is None:
            # a pegging base: the default discards, its pegging
            return CribbagePlayer(name, _fuzzy(), "fuzzy", FuzzyPegging(rb))
    policy_name = check_pegging("greedy" if pegging is None else pegging)
    built = _peg_policy(policy_name, peg_rulebase)
    try:
        discarder = DISCARDERS[name](**options)
    except (OSError, FuzzevalError) as exc:
        raise ValueError(str(exc)) from None
    return CribbagePlayer(name, discarder, policy_name, built)


SAMPLING_OPTIONS = ("discard", "pegging", "rollout", "stop", "trials", "weights")
ROLLOUTS = ("greedy", "fuzzy")


def sampling_player(discard: Any = "sampling", pegging: Any = "sampling",
                    rollout: Any = "greedy", stop: Any = "obvious", trials: Any = 500,
                    weights: Any = "expert", **unknown: Any) -> CribbagePlayer:
    """Billings et al. (1999)'s selective sampling: ``discard`` sampling (the deal simulated,
    pegging included) or exhaustive; ``pegging`` sampling, greedy, basic or fuzzy; ``rollout``: the
    policy both seats peg with inside the pegging simulations (greedy, compiled; or fuzzy,
    the pegging rule base's softmax, played through the rules: far slower; discard
    simulations always peg greedily); ``stop``: obvious (the paper's),
    paired or none; ``trials``: at most this many a decision; ``weights``: the opponent's
    throws, expert (the selective bias) or uniform."""
    from fuzzeval.games.cribbage.sampling import SamplingDiscard, SamplingPegging, SoftmaxPegging
    from fuzzeval.search.sampling import MAX_TRIALS, STOP_RULES, SamplingSettings, StopRule

    check_keys("player 'sampling' does not take options", unknown, SAMPLING_OPTIONS)
    how = as_choice("discard", discard, ("sampling", "exhaustive"))
    peg = as_choice("pegging", pegging, ("sampling", *PEGGING_NAMES))
    fuzzy_rollout = as_choice("rollout", rollout, ROLLOUTS) == "fuzzy"
    rule: StopRule = next(r for r in STOP_RULES if r == as_choice("stop", stop, STOP_RULES))
    count = as_int("trials", trials, 1, MAX_TRIALS)
    w: Weighting = "expert" if as_choice("weights", weights, WEIGHTINGS) == "expert" \
        else "uniform"
    settings = SamplingSettings(trials=count, stop=rule, min_trials=min(50, count))
    discarder: DiscardStrategy = (SamplingDiscard(settings, w) if how == "sampling"
                                  else ExhaustiveDiscard(w))
    if fuzzy_rollout and peg != "sampling":
        raise ValueError("rollout=fuzzy is for pegging=sampling (the discard simulations "
                         "always peg greedily)")
    if peg == "sampling":
        roll = SoftmaxPegging(FuzzyPegging(resolve_rulebase(PEG_RULEBASE))) \
            if fuzzy_rollout else None
        return CribbagePlayer("sampling", discarder, "sampling",
                              SamplingPegging(settings, w, roll))
    return CribbagePlayer("sampling", discarder, peg, _peg_policy(peg, None))


def player_from_spec(text: str) -> CribbagePlayer:
    """A player from ``NAME[:key=value,...]`` (e.g. ``fuzzy:rulebase=my.yaml,pegging=basic``)."""
    spec = PlayerSpec.parse(text)
    options: dict[str, Any] = dict(spec.options)
    return make_player(spec.name, **options)
