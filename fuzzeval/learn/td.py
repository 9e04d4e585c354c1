"""TD(λ) on the conclusions of a weighted-sum rule base (Sturtevant & White 2006).

With ``weighted_sum`` a grade is linear in the conclusions: V(x) = Σ_r s_r(x) w_r, the
firing strengths s_r(x) playing the paper's features and the conclusions w_r its weights.
A player grades each candidate of a decision with V, the value it expects to be paid from
there to the end, and picks the best (the most, or the fewest points where fewer is
better). One seat's game is an *episode*: the strengths of the candidates it chose,
φ_0 … φ_{T-1}, their values V_t = φ_t · w, and the rewards r_t it was paid after each
choice up to the next (in Hearts the points taken in between; the rest of its payoff
arrives with the last reward). The λ-return looks ahead from each choice,

    G_{T-1} = r_{T-1},    G_t = r_t + (1 - λ) V_{t+1} + λ G_{t+1},

so λ = 0 learns from the next value alone (TD(0)) and λ = 1 from the payoff (Monte Carlo);
Sturtevant & White used λ = 0.75. Their Fig. 1 writes the target as (1 - λ) V(s_t) + λ
V(s_{t-1}) walking back from the end, which mixes in the state's own value: the same
λ-return with the error scaled by λ.
A learn may look a ply ahead instead of a decision ahead (``ahead``, ``fuzzeval learn
--target lookahead``): A_t, the value of choice t searched one ply deeper over the same
conclusions (in backgammon the mean over the opponent's rolls of its best reply), stands
where r_t + V_{t+1} stood,

    G_{T-1} = r_{T-1},    G_t = (1 - λ) A_t + λ (r_t + G_{t+1}),

so λ = 0 teaches the 0-ply values what the 1-ply search says of them, and the payoff still
arrives through λ; the dice of the opponent's next roll are averaged, not sampled.
A decision may instead learn from what was paid after it, G_t = r_t + ... + r_{T-1} (Monte
Carlo, ``payoff_after``): Hearts' passes, whose worth shows only when the hand is played,
are learned so with ``fuzzeval learn --monte-carlo pass``.
The step moves w toward each G_t by the normalised rule of the paper's perceptron,
α / Σ_r φ_{t,r} (the paper's: 1/(13 × active features)):

    Δw = Σ_t α (G_t - V_t) φ_t / Σ_r φ_{t,r}.

Updates are batched: every episode of a block of games is played and stepped with the
weights the block started with, and the block applies the mean of their steps
(``fuzzeval.learn.td_runs``). To make that
sum the same whatever the number of workers (and however the games were grouped into
tasks), each game's step is rounded to a whole number of 2^-32 (``to_fixed``): integers
add the same in any order, floating-point numbers do not.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
FixedArray = npt.NDArray[np.int64]

#: a step is kept in units of 2^-FRACTION (2e-10, far below any step's effect), so a block
#: of a million episodes' steps of up to 1,000 each still adds up within an int64
FRACTION = 32


def lambda_returns(values: FloatArray, rewards: FloatArray, lam: float,
                   ahead: FloatArray | None = None) -> FloatArray:
    """The λ-returns G_t of one episode from its values V_t and rewards r_t (both (T,));
    with ``ahead`` (T,), each choice's searched value A_t in place of r_t + V_{t+1}."""
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"λ must be in [0, 1] (got {lam})")
    if values.shape != rewards.shape or values.ndim != 1:
        raise ValueError(f"values {values.shape} and rewards {rewards.shape} must be (T,)")
    if ahead is not None and ahead.shape != values.shape:
        raise ValueError(f"searched values {ahead.shape} must be as values {values.shape}")
    out = np.empty_like(values, dtype=np.float64)
    later = 0.0
    for t in range(len(values) - 1, -1, -1):
        if t == len(values) - 1:
            later = rewards[t]
        elif ahead is None:
            later = rewards[t] + (1.0 - lam) * values[t + 1] + lam * later
        else:
            later = (1.0 - lam) * ahead[t] + lam * (rewards[t] + later)
        out[t] = later
    return out


def episode_step(strengths: FloatArray, weights: FloatArray, rewards: FloatArray,
                 lam: float, alpha: float,
                 payoff_after: npt.NDArray[np.bool_] | None = None,
                 ahead: FloatArray | None = None) -> FloatArray:
    """Δw of one episode: ``strengths`` (T, rules) of the chosen candidates, the
    ``weights`` (rules,) they were chosen with, their ``rewards`` (T,); the decisions
    marked in ``payoff_after`` (T,) learn from the rewards after them (Monte Carlo); with
    ``ahead`` (T,), the returns look a ply ahead (``lambda_returns``)."""
    if not alpha > 0:
        raise ValueError(f"the step size must be above 0 (got {alpha})")
    values = strengths @ weights
    returns = lambda_returns(values, rewards, lam, ahead)
    if payoff_after is not None and payoff_after.any():
        returns = np.where(payoff_after, np.cumsum(rewards[::-1])[::-1], returns)
    errors = returns - values
    active = strengths.sum(axis=1)
    scale = np.divide(alpha * errors, active, out=np.zeros_like(errors), where=active > 0)
    step: FloatArray = scale @ strengths
    return step


def to_fixed(step: FloatArray) -> FixedArray:
    """A step as whole units of 2^-FRACTION (sums of these do not depend on their order)."""
    out: FixedArray = np.rint(np.ldexp(step, FRACTION)).astype(np.int64)
    return out


def from_fixed(total: FixedArray) -> FloatArray:
    """The sum of fixed steps as a float step."""
    out: FloatArray = np.ldexp(total.astype(np.float64), -FRACTION)
    return out
