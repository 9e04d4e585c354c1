"""TD(λ) on weighted-sum conclusions: λ-returns and steps worked by hand,
and fixed-point sums that do not depend on how the games were grouped."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.learn.td import FRACTION, episode_step, from_fixed, lambda_returns, to_fixed


def test_lambda_returns_by_hand() -> None:
    values = np.array([1.0, 2.0, 4.0])
    at_end = np.array([0.0, 0.0, 10.0])
    # G2 = 10; G1 = 0 + 0.5 * 4 + 0.5 * 10 = 7; G0 = 0 + 0.5 * 2 + 0.5 * 7 = 4.5
    assert lambda_returns(values, at_end, 0.5).tolist() == [4.5, 7.0, 10.0]
    assert lambda_returns(values, at_end, 0.0).tolist() == [2.0, 4.0, 10.0]  # TD(0)
    assert lambda_returns(values, at_end, 1.0).tolist() == [10.0, 10.0, 10.0]  # Monte Carlo
    # rewards on the way: at λ = 1 each return is the rewards still to come
    assert lambda_returns(values, np.array([1.0, 0.0, 10.0]), 1.0).tolist() == [11, 10, 10]
    assert lambda_returns(np.zeros(0), np.zeros(0), 0.75).tolist() == []


def test_returns_that_look_a_ply_ahead_by_hand() -> None:
    """``ahead``: each choice's searched value A_t stands where r_t + V_{t+1} stood,
    G_t = (1 - λ) A_t + λ (r_t + G_{t+1}); the last return is what was paid."""
    values = np.array([1.0, 2.0, 4.0])
    ahead = np.array([3.0, 5.0, 99.0])
    at_end = np.array([0.0, 0.0, 10.0])
    # G2 = 10; G1 = 0.5 * 5 + 0.5 * 10 = 7.5; G0 = 0.5 * 3 + 0.5 * 7.5 = 5.25
    assert lambda_returns(values, at_end, 0.5, ahead).tolist() == [5.25, 7.5, 10.0]
    assert lambda_returns(values, at_end, 0.0, ahead).tolist() == [3.0, 5.0, 10.0]
    assert lambda_returns(values, at_end, 1.0, ahead).tolist() == [10.0, 10.0, 10.0]
    # the values are not read; a reward on the way is: G0 = 0.5 * 3 + 0.5 * (1 + 7.5)
    assert lambda_returns(np.zeros(3), np.array([1.0, 0.0, 10.0]), 0.5,
                          ahead).tolist() == [5.75, 7.5, 10.0]
    with pytest.raises(ValueError, match=r"searched values \(2,\) must be as values \(3,\)"):
        lambda_returns(values, at_end, 0.5, ahead[:2])
    # a step toward them: values [2, 3], G = [2.5, 3] at λ = 0: only the first moves
    step = episode_step(np.array([[1.0, 0.0], [0.5, 0.5]]), np.array([2.0, 4.0]),
                        np.array([0.0, 3.0]), 0.0, 1.0, None, np.array([2.5, 99.0]))
    assert step.tolist() == [0.5, 0.0]


def test_an_episodes_step_by_hand() -> None:
    strengths = np.array([[1.0, 0.0], [0.5, 0.5]])
    weights = np.array([2.0, 4.0])  # values 2 and 3
    # TD(0), reward 3 at the end: G = [3, 3], errors [1, 0]: only the first rule moves
    step = episode_step(strengths, weights, np.array([0.0, 3.0]), 0.0, 0.5)
    assert step.tolist() == [0.5, 0.0]
    # Monte Carlo, reward 5: errors [3, 2]; 0.5 * 3 * [1, 0] + 0.5 * 2 * [0.5, 0.5] / 1
    step = episode_step(strengths, weights, np.array([0.0, 5.0]), 1.0, 0.5)
    assert step.tolist() == [2.0, 0.5]
    # a decision where no rule fires moves nothing (its share of the step is 0, not NaN)
    step = episode_step(np.array([[0.0, 0.0], [1.0, 1.0]]), weights, np.array([0.0, 7.0]),
                        1.0, 1.0)
    assert step.tolist() == [0.5, 0.5]  # error 7 - 6 = 1, over two active rules


def test_decisions_marked_learn_from_the_payoff_after_them() -> None:
    """--monte-carlo: the marked decision's return is the rewards after it, the others'
    their λ-return as before (worked by hand)."""
    strengths = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    weights = np.array([2.0, 4.0])  # values 2, 4 and 3
    rewards = np.array([1.0, 0.0, 6.0])
    # TD(0): G = [1 + 4, 0 + 3, 6] = [5, 3, 6]; marked first: G0 = 1 + 0 + 6 = 7
    plain = episode_step(strengths, weights, rewards, 0.0, 1.0)
    marked = episode_step(strengths, weights, rewards, 0.0, 1.0, np.array([True, False, False]))
    # errors: plain [3, -1, 3], marked [5, -1, 3]; the third splits its 3 over two rules
    assert plain.tolist() == [3.0 + 1.5, -1.0 + 1.5]
    assert marked.tolist() == [5.0 + 1.5, -1.0 + 1.5]
    # marked second: G1 = 0 + 6, what is paid after it; errors [3, 2, 3]
    second = episode_step(strengths, weights, rewards, 0.0, 1.0, np.array([False, True, False]))
    assert second.tolist() == [3.0 + 1.5, 2.0 + 1.5]
    none = episode_step(strengths, weights, rewards, 0.0, 1.0, np.zeros(3, dtype=bool))
    assert none.tolist() == plain.tolist()


def test_settings_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match=r"λ must be in \[0, 1\] \(got 1.5\)"):
        lambda_returns(np.zeros(2), np.zeros(2), 1.5)
    with pytest.raises(ValueError, match=r"step size must be above 0 \(got 0\)"):
        episode_step(np.zeros((1, 1)), np.zeros(1), np.zeros(1), 0.5, 0)
    with pytest.raises(ValueError, match=r"must be \(T,\)"):
        lambda_returns(np.zeros(2), np.zeros(3), 0.5)


@given(st.lists(st.lists(st.floats(-300, 300), min_size=4, max_size=4), min_size=1,
                max_size=30), st.randoms())
@settings(max_examples=50)
def test_fixed_steps_add_up_the_same_in_any_grouping(steps: list[list[float]],
                                                     rnd: object) -> None:
    fixed = [to_fixed(np.array(s)) for s in steps]
    total = np.sum(fixed, axis=0)
    shuffled = list(fixed)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    cut = len(shuffled) // 2  # two workers' partial sums, added in the other order
    regrouped = np.sum(shuffled[cut:], axis=0) + np.sum(shuffled[:cut], axis=0)
    assert np.array_equal(total, regrouped)
    assert np.abs(from_fixed(total) - np.sum(steps, axis=0)).max() <= len(steps) * 2.0 ** -FRACTION


def test_an_update_adds_its_games_steps_and_alpha_bounds_them() -> None:
    """An update adds the steps of its games: a rule that fires on all 13 decisions of each
    episode, paid 10 at the end (λ = 1), moves 13 x alpha x games of its distance to 10
    each update: 0.65 with alpha 0.05 and one game (6.5, 8.775, 9.57125, ...); with four
    games a step is 2.6 times the distance and the value swings ever wider (26, -15.6,
    50.96, ...) until the range stops it."""
    from fuzzeval.learn.td_runs import update_weights

    phi = np.ones((13, 1))
    rewards = np.zeros(13)
    rewards[-1] = 10.0

    def run(games: int) -> list[float]:
        w, seen = np.zeros(1), []
        for _ in range(8):
            total = sum(to_fixed(episode_step(phi, w, rewards, 1.0, 0.05))
                        for _ in range(games))
            w = update_weights(w, np.asarray(total), -100.0, 100.0)
            seen.append(float(w[0]))
        return seen

    one = run(1)
    assert one[:3] == pytest.approx([6.5, 8.775, 9.57125], abs=1e-8)
    assert abs(one[-1] - 10.0) < 0.01
    four = run(4)
    assert four[:3] == pytest.approx([26.0, -15.6, 50.96], abs=1e-7)
    assert {four[-1], four[-2]} == {100.0, -100.0}
