"""Pubeval's race weights (pubeval.c: "Separate weight vectors are used for racing positions
and contact positions", race "set based on the INITIAL position BEFORE the move"), and the
opening roll, never a double."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fuzzeval.games.backgammon.board import START, Position
from fuzzeval.games.backgammon.game import GAME
from fuzzeval.games.backgammon.moves import legal_moves
from fuzzeval.games.backgammon.players import make_player
from fuzzeval.games.backgammon.pubeval import is_race, pubeval
from tests.games.backgammon_helpers import side

pytestmark = pytest.mark.audit

# A race: my last checkers on my 9 point, theirs on their 9 point (my 16). 3-4 to play.
RACE = Position(side({1: 1, 3: 1, 7: 2, 9: 2}), side({2: 2, 3: 3, 4: 1, 5: 1, 7: 1, 9: 2}))
# Contact: one of their checkers still back on their 23 point (my 2), behind my 3, 7, 9.
CONTACT = Position(side({1: 1, 3: 1, 7: 2, 9: 2}), side({23: 1, 3: 3, 4: 1, 5: 1, 7: 1, 9: 2}))
# After 9/6 9/5 from RACE: mine on 1, 3, 5, 6 (one each) and 7 (two), nine borne off; their
# blots on their 4, 5 and 7 points are on my 21, 20 and 18.
AFTER = Position(side({1: 1, 3: 1, 5: 1, 6: 1, 7: 2}), RACE.opp)

# pubeval.c (Tesauro 1993), WT.race (wr) and WT.cntc (wc), the entries AFTER's inputs reach:
# index 5 (j - 1) + k for my point 25 - j; 120 their bar / 2; 121 my checkers off / 15.
WR = {116: -2.77982, 106: -0.09795, 96: 2.19605, 91: 3.05454, 87: -0.19412, 15: 0.0,
      20: 0.0, 30: 0.0, 121: 3.42040}
WC = {116: -1.59529, 106: -0.87046, 96: -0.36214, 91: -1.18223, 87: 2.64983, 15: -0.59220,
      20: -1.50197, 30: -1.36476, 121: -2.75800}
# AFTER's inputs by hand (every other input is 0): one checker on my 1, 3, 5, 6 points
# (k = 1), two on my 7 (k = 2), an opposing blot on my 21, 20, 18 (k = 0), 9 of 15 off.
X = {116: 1.0, 106: 1.0, 96: 1.0, 91: 1.0, 87: 1.0, 15: 1.0, 20: 1.0, 30: 1.0, 121: 9 / 15}


def _score(w: dict[int, float]) -> float:
    return sum(w[i] * x for i, x in X.items())


def test_pubeval_scores_after_a_race_with_the_race_weights() -> None:
    assert is_race(RACE) and not is_race(CONTACT) and not is_race(START)
    race = _score(WR)  # -2.77982 - 0.09795 + 2.19605 + 3.05454 - 0.19412 + 0.6 x 3.42040
    assert race == pytest.approx(4.23094, abs=1e-9)
    contact = _score(WC)
    assert abs(race - contact) > 5
    assert AFTER in {p for _, p in legal_moves(RACE, (3, 4))}
    assert pubeval(RACE, [AFTER])[0] == pytest.approx(race, abs=1e-9)
    # The switch is the position before the move: the same result scored after contact.
    assert pubeval(CONTACT, [AFTER])[0] == pytest.approx(contact, abs=1e-9)


def test_is_race_is_no_contact_either_way_and_counts_the_bar() -> None:
    assert is_race(Position(side({6: 15}), side({6: 15})))
    # Their 6 point is my 19: my checker on 18 has passed it, one on 20 has not.
    assert is_race(Position(side({18: 1}), side({6: 1})))
    assert not is_race(Position(side({20: 1}), side({6: 1})))
    assert not is_race(Position(side({1: 1}, bar=0), side({1: 14}, bar=1)))  # their bar
    assert not is_race(Position(side({1: 14}, bar=1), side({1: 1})))  # my bar


def test_the_pubeval_player_plays_the_race_weights_best_play() -> None:
    """From RACE with 3-4 the race weights prefer 9/6 9/5 and the contact weights 7/4 7/3
    (scores by the module's own inputs, but with pubeval.c's two vectors)."""
    plays = legal_moves(RACE, (3, 4))
    scores = pubeval(RACE, [p for _, p in plays])
    best = plays[int(np.argmax(scores))]
    assert best[0] == "9/6 9/5" and best[1] == AFTER
    contact_best = plays[int(np.argmax(pubeval(CONTACT, [p for _, p in plays])))]
    assert contact_best[0] == "7/4 7/3"
    chosen = make_player("pubeval").choose(RACE, (3, 4), np.random.default_rng(0))
    assert chosen == AFTER


def test_the_opening_roll_is_never_a_double() -> None:
    """The claim: every opening roll is one of the 30 ordered non-doubles, each with chance
    1/30 (two dice rolled again until they differ), whoever moves first. N = 60,000 rolls
    from one generator are independent, so each count is Binomial(N, 1/30): mean 2,000,
    standard deviation sqrt(N (1/30)(29/30)) = 44.0 (2.2 %). Each count must lie within
    5.52 of those (Bonferroni over 30 counts at 1e-6: a fair roll fails with chance below
    1e-6), 12 % of 2,000; and together they must pass a chi-square test at 1e-6 (29
    degrees of freedom), which sees a bias spread over many rolls: e.g. a low-high roll
    turned round one time in six (every share off by 17 %) fails both, where the old
    bound of 0.015 on each share (45 % of 1/30, on 3,000 rolls counted twice) let it by."""
    from scipy.stats import chi2, norm

    from fuzzeval.games.backgammon.game import opening_roll

    for seed in range(200):  # a new game's dice are its opening roll, whoever is first
        for first in (0, 1):
            state = GAME.new_game(np.random.default_rng(seed), first)
            assert state.seat == first and state.position == START
            assert state.dice == opening_roll(np.random.default_rng(seed))
    n = 60_000
    rng = np.random.default_rng(2024)
    rolls = Counter(opening_roll(rng) for _ in range(n))
    assert all(a != b for a, b in rolls), sorted(r for r in rolls if r[0] == r[1])
    assert set(rolls) == {(a, b) for a in range(1, 7) for b in range(1, 7) if a != b}
    p = 1 / 30
    sd = np.sqrt(n * p * (1 - p))
    z = norm.isf(1e-6 / 2 / 30)
    assert 5.5 < z < 5.53
    counts = np.array(list(rolls.values()), dtype=np.float64)
    assert np.all(np.abs(counts - n * p) < z * sd), rolls
    statistic = float(((counts - n * p) ** 2 / (n * p)).sum())
    assert statistic < chi2.isf(1e-6, 29), statistic
