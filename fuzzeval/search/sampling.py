"""Selective-sampling simulation (Billings et al. 1999), for any game that can sample
what a seat cannot see and play a sampled state out.

A decision is simulated trial after trial: each trial draws the hidden information once
(biased by what the game knows, the "selective" part) and plays *every* candidate out from
it with the same chance (common random numbers), so candidates are compared on the same
deals and their differences are far less noisy than their values. Trials run in batches
(a game may vectorise or compile a batch); after each batch a stop rule may end the
simulation when one candidate is obviously best:

* ``obvious`` -- Billings et al.'s rule: the best mean exceeds the second by more than the sum of
  the two candidates' standard deviations (of the trial values; Billings et al. call it
  extremely conservative: it fired on fewer than 5 % of Loki's decisions);
* ``paired`` -- a looser rule made possible by common random numbers: the best mean exceeds
  every other by more than ``z`` standard errors of the *paired* difference (z = 2.5,
  tested after at least ``min_trials``);
* ``none`` -- always run every trial.

The game provides a ``Simulator``: ``simulate(n, rng)`` gives the values of all ``k``
candidates in ``n`` trials, an ``(n, k)`` array. ``playout_simulator`` builds one for any
game plug-in from three hooks (``HiddenInformation``); a game may also write a faster one,
and its hooks may offer it as ``simulator(candidates, policies)`` (declared in
``HiddenInformationHooks``): a compiled simulator of the same playouts, or None where it
cannot compile these policies.

A playout may also stop short (``horizon``, Sturtevant & White's search "to the end of the trick"):
at the deciding seat's ``horizon``-th later decision it is valued by the rollout player's
own estimate there (``ValueEstimator``: a learned ``td`` base grades the candidates with
the payoff it expects from there on) plus what the game has paid the seat so far
(``payoff_so_far``). That needs the hooks' ``value`` at the game's end to be the payoff
itself, signed so that more is better (Hearts: minus the points taken).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from fuzzeval.play.game import (
    Candidates,
    CompiledSimulator,
    Game,
    GameHooks,
    HiddenInformationHooks,
    Player,
    PlayerHooks,
    hook,
)

FloatArray = npt.NDArray[np.float64]
StopRule = Literal["obvious", "paired", "none"]
STOP_RULES: tuple[StopRule, ...] = ("obvious", "paired", "none")
#: the most trials a decision may be given: a cribbage discard takes about 10 s of CPU at
#: this many (docs/sampling.md); 10^12 would never end, and silently
MAX_TRIALS = 100_000
PAIRED_Z = 2.5
#: the most later decisions of the deciding seat a short playout may run to
MAX_HORIZON = 100


#: ``(n, rng) ->`` the values of every candidate in ``n`` trials, (n, k); a row shares its
#: sample (a game's compiled one is ``HiddenInformationHooks.simulator``'s)
Simulator = CompiledSimulator


@dataclass(frozen=True)
class SamplingSettings:
    """How long to simulate a decision and when to stop early."""

    trials: int = 500  # the most trials a decision gets (Billings et al.'s: 500)
    stop: StopRule = "obvious"
    batch: int = 50  # trials per call of the simulator; the stop rule is tested after each
    min_trials: int = 50  # no stop before this many trials

    def __post_init__(self) -> None:
        for name in ("trials", "batch", "min_trials"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1 (got {value!r})")
        if self.trials > MAX_TRIALS:
            raise ValueError(f"trials must be a whole number from 1 to {MAX_TRIALS:,} "
                             f"(got {self.trials!r})")
        if self.stop not in STOP_RULES:
            raise ValueError(f"stop must be one of {', '.join(STOP_RULES)} "
                             f"(got {self.stop!r})")


@dataclass(frozen=True)
class SamplingResult:
    """What the simulation of one decision found."""

    means: FloatArray  # each candidate's mean value
    sds: FloatArray  # the standard deviation of its trial values
    trials: int
    stopped: bool  # the stop rule ended it before ``trials``

    @property
    def best(self) -> int:
        """The candidate with the highest mean (the first on ties)."""
        return int(np.argmax(self.means))

    def record(self) -> dict[str, str | int | float]:
        """For the history database: trials, the stop, means and deviations (3 decimals);
        nothing for a decision that needed no trial (a single candidate)."""
        if self.trials == 0:
            return {}
        return {"trials": self.trials, "stopped": int(self.stopped),
                "means": " ".join(f"{m:.3f}" for m in self.means),
                "sds": " ".join(f"{s:.3f}" for s in self.sds)}


def obvious(values: FloatArray, rule: StopRule) -> bool:
    """Whether one candidate is obviously best after the trials ``values`` (n, k).
    Candidates equal to the best in every trial (two cards of one rank) are the same
    choice, not rivals: they are left out, and when all are, any choice will do."""
    n, k = values.shape
    if rule == "none" or n < 2 or k < 2:
        return False
    means = values.mean(axis=0)
    best = int(np.argmax(means))
    rivals = [j for j in range(k) if not np.array_equal(values[:, j], values[:, best])]
    if not rivals:
        return True
    if rule == "obvious":
        second = max(rivals, key=lambda j: means[j])
        sds = values.std(axis=0, ddof=1)
        return bool(means[best] - means[second] > sds[best] + sds[second])
    diffs = values[:, best][:, None] - values[:, rivals]
    se = diffs.std(axis=0, ddof=1) / np.sqrt(n)
    return bool(np.all(diffs.mean(axis=0) > PAIRED_Z * se))


def simulate(simulator: Simulator, k: int, settings: SamplingSettings,
             rng: np.random.Generator, source: str = "the simulator",
             labels: Sequence[str] = ()) -> SamplingResult:
    """Run trials in batches until ``settings.trials`` or the stop rule says one of the
    ``k`` candidates is obviously best. A single candidate needs no trial. A value that is
    not a finite number is a ValueError naming ``source`` (what made the playouts) and the
    candidate (by its label, where ``labels`` are given)."""
    if k < 1:
        raise ValueError("no candidates to simulate")
    if k == 1:
        return SamplingResult(np.zeros(1), np.zeros(1), 0, False)
    blocks: list[FloatArray] = []
    done, stopped = 0, False
    while done < settings.trials:
        n = min(settings.batch, settings.trials - done)
        block = np.asarray(simulator(n, rng), dtype=np.float64)
        if block.shape != (n, k):
            raise ValueError(f"the simulator gave an array of shape {block.shape}, "
                             f"not {(n, k)}")
        require_finite(block, done, source, labels)
        blocks.append(block)
        done += n
        if (settings.min_trials <= done < settings.trials
                and obvious(np.concatenate(blocks), settings.stop)):
            stopped = True
            break
    values = np.concatenate(blocks)
    sds = values.std(axis=0, ddof=1) if done > 1 else np.zeros(k)
    return SamplingResult(values.mean(axis=0), sds, done, stopped)


def require_finite(block: FloatArray, done: int, source: str, labels: Sequence[str]) -> None:
    """Refuse a NaN or infinite playout value: the means would be NaN, and the argmax of
    NaNs silently chooses the first candidate. ``done`` trials came before ``block``."""
    bad = np.argwhere(~np.isfinite(block))
    if len(bad):
        trial, j = int(bad[0][0]), int(bad[0][1])
        label = f" ({labels[j]!r})" if labels else ""
        raise ValueError(f"{source}: a playout of candidate {j}{label} was worth "
                         f"{float(block[trial, j])} (trial {done + trial + 1}); every playout "
                         "must be worth a finite number")


def softmax_choice(grades: FloatArray, temperature: float, rng: np.random.Generator) -> int:
    """A candidate drawn with probability proportional to exp(grade / temperature): the role
    of Billings et al.'s ``ProbTriple()`` for a rule base, whose grades become a
    distribution, so simulated opponents are not one fixed line of play. Temperature 0 is
    the argmax."""
    if temperature <= 0:
        return int(np.argmax(grades))
    z = (grades - grades.max()) / temperature
    p = np.exp(z)
    return int(rng.choice(len(p), p=p / p.sum()))


class HiddenInformation(Protocol):
    """What a game provides so that ``playout_simulator`` can simulate its decisions."""

    def determinize(self, view: object, rng: np.random.Generator) -> Any:
        """A full state consistent with everything the seat deciding at ``view`` has seen,
        its hidden part drawn with the game's selective bias; the seat is to move in it."""
        ...

    def finished(self, root: Any, state: Any) -> bool:
        """Whether a playout from ``root`` has reached its horizon (e.g. the deal's end)."""
        ...

    def value(self, root: Any, state: Any, seat: int) -> float:
        """The playout's worth to ``seat`` (e.g. its points less the opponent's since root)."""
        ...


class ValueEstimator(Protocol):
    """A rollout player that can also say what a decision is worth: the payoff it expects
    from here on (in the payoff's unit) if it takes its best candidate."""

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int: ...

    def estimate(self, candidates: Candidates) -> float: ...


Leaf = Callable[[Any, int], float]


def leaf_value(game: Game, estimator: ValueEstimator) -> Leaf:
    """A short playout's worth to ``seat``, to move in ``state``: what the game has paid it
    so far plus the estimator's value of its decision there, signed so that more is better
    (as the hooks' ``value``). ValueError when the game does not say what it has paid."""
    so_far = hook(game, GameHooks.payoff_so_far)
    if so_far is None:
        raise ValueError(f"horizon: {game.name} does not say what a seat has been paid so "
                         "far (payoff_so_far), so a playout cannot stop short")
    paid = so_far
    sign = 1.0 if game.payoff.higher_is_better else -1.0

    def leaf(state: Any, seat: int) -> float:
        return sign * (paid(state, seat) + estimator.estimate(game.candidates(state)))

    return leaf


def playout_simulator(game: Game, hooks: HiddenInformation, candidates: Candidates,
                      policies: Sequence[Player], horizon: int = 0,
                      leaf: Leaf | None = None, others: Player | None = None) -> Simulator:
    """A simulator for any game with the three hooks: each trial determinizes once, then
    plays every candidate out with the seats' ``policies`` (index = seat), each candidate
    from the same copy of the trial's random stream (common random numbers); with
    ``others``, every seat but the deciding one plays ``others`` instead. With a
    ``horizon`` and a ``leaf``, a playout stops when the deciding seat is to move for the
    ``horizon``-th time after this decision and is worth ``leaf(state, seat)`` there."""
    k = len(candidates)
    if horizon and leaf is None:
        raise ValueError("a playout with a horizon needs a leaf value")

    def run(n: int, rng: np.random.Generator) -> FloatArray:
        out = np.empty((n, k))
        for t in range(n):
            root = hooks.determinize(candidates.view, rng)
            seat = game.to_move(root)
            if seat is None:
                raise ValueError("the determinized state is over: nobody to move")
            seed = int(rng.integers(2**63))
            for c in range(k):
                chance = np.random.default_rng(seed)
                state = game.apply(root, c, chance)
                turns, value = 0, None  # type: int, float | None
                while not hooks.finished(root, state):
                    mover = game.to_move(state)
                    if mover is None:
                        break
                    if leaf is not None and horizon and mover == seat:
                        turns += 1
                        if turns == horizon:
                            value = leaf(state, seat)
                            break
                    policy = policies[mover] if others is None or mover == seat else others
                    state = game.apply(state, policy.choose(game.candidates(state), chance),
                                       chance)
                out[t, c] = hooks.value(root, state, seat) if value is None else value
        return out

    return run


def require_hooks(game: Game) -> HiddenInformation:
    """The game's hidden-information hooks, or a ValueError saying the game has none."""
    hooks = hook(game, GameHooks.hidden_information)
    if hooks is None:
        raise ValueError(f"{game.name} has no hidden-information hooks (determinize, "
                         f"finished, value): the sampling player needs them")
    checked: HiddenInformation = hooks
    return checked


#: the name of the game-agnostic sampling player (a game may offer its own, faster one)
SAMPLING = "sampling"


@dataclass(frozen=True)
class SamplingPlayer:
    """Billings et al. (1999)'s player for any game with hidden-information hooks: every decision is
    simulated, playouts by the ``rollout`` players (index = seat; with ``others``, the
    deciding seat's, and ``others`` for every other seat), the best mean chosen."""

    game: Game
    hooks: HiddenInformation
    rollout: tuple[Player, ...]  # one for each seat
    settings: SamplingSettings
    horizon: int = 0  # 0: playouts run to the end; else they stop short (module doc)
    leaf: Leaf | None = None
    others: Player | None = None  # None: every seat plays its ``rollout``
    rollout_name: str = ""  # what a refusal calls the rollout (``sampling_player``'s name)

    def simulator(self, candidates: Candidates) -> Simulator:
        """The game's compiled simulator of these playouts where it has one (playouts to
        the end, every seat by its ``rollout``), else the playouts in Python."""
        compiled = hook(self.hooks, HiddenInformationHooks.simulator)
        fast: Simulator | None = (
            compiled(candidates, self.rollout)
            if compiled is not None and not self.horizon and self.others is None else None)
        if fast is not None:
            return fast
        return playout_simulator(self.game, self.hooks, candidates, self.rollout,
                                 self.horizon, self.leaf, self.others)

    def decide(self, candidates: Candidates, rng: np.random.Generator
               ) -> tuple[int, dict[str, str | int | float]]:
        simulator = self.simulator(candidates)
        source = f"sampling (rollout {self.rollout_name!r})" if self.rollout_name else \
            "sampling"
        result = simulate(simulator, len(candidates), self.settings, rng, source,
                          candidates.labels)
        return result.best, result.record()

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        return self.decide(candidates, rng)[0]


def sampling_player(game: Game, rollout: Any = "", trials: Any = 500,
                    stop: Any = "obvious", horizon: Any = 0, others: Any = "",
                    **unknown: Any) -> SamplingPlayer:
    """The game-agnostic sampling player: ``rollout`` names the player every seat plays
    the simulations with (only the deciding seat where ``others`` is given), the game's
    own or a game-agnostic one other than ``sampling`` (``td``: the game's learned base),
    default the game's ``sampling_rollout`` where it names one, as hold'em names its fuzzy
    triple, else its reference opponent; ``others`` the player every other seat plays them
    with (the opponents modelled as the players at the table; the same name as
    ``rollout``: as without it); ``trials`` the most a decision gets, ``stop`` the stop
    rule, ``horizon`` where a playout stops short (0: at the end; the rollout must
    estimate values, as ``td`` does, and values the leaf whoever plays the other seats).
    A ValueError names a bad option."""
    from fuzzeval.play.match import make_player
    from fuzzeval.play.registry import player_plugin_names

    hooks = require_hooks(game)
    if unknown:
        raise ValueError(f"player 'sampling' does not take options {sorted(unknown)} "
                         "(options: horizon, others, rollout, stop, trials)")
    name = str(rollout).strip() or hook(game, GameHooks.sampling_rollout) or \
        game.default_opponent
    known = [*game.player_names, *(n for n in player_plugin_names() if n != SAMPLING)]
    if name not in known:
        raise ValueError(f"rollout must be one of {', '.join(known)} (got {rollout!r})")
    other = str(others).strip()
    if other == name:  # every seat alike: one player, and a game's compiled playouts
        other = ""
    if other and other not in known:
        raise ValueError(f"others must be one of {', '.join(known)} (got {others!r})")
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"trials must be a whole number from 1 to {MAX_TRIALS:,} "
                         f"(got {trials!r})")
    if stop not in STOP_RULES:
        raise ValueError(f"stop must be one of {', '.join(STOP_RULES)} (got {stop!r})")
    if isinstance(horizon, bool) or not isinstance(horizon, int) or \
            not 0 <= horizon <= MAX_HORIZON:
        raise ValueError(f"horizon must be a whole number from 0 to {MAX_HORIZON} "
                         f"(got {horizon!r})")
    policy = make_player(game, name)
    leaf = None
    if horizon:
        if hook(policy, PlayerHooks.estimate) is None:
            raise ValueError(f"horizon: rollout {name!r} does not estimate values; a "
                             "playout that stops short needs one that does (td)")
        leaf = leaf_value(game, policy)  # type: ignore[arg-type]
    settings = SamplingSettings(trials=trials, stop=stop, min_trials=min(50, trials))
    return SamplingPlayer(game, hooks, (policy,) * game.seats, settings, horizon, leaf,
                          make_player(game, other) if other else None, name)
