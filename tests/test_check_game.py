"""``fuzzeval.play.testing.check_game`` catches each breach it promises to: toy games built to
break one rule each (the toy game of tests/test_toy_game.py, and a toy whose states are
mutable, so a plug-in can change a state in place)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest

from fuzzeval.play.game import Candidates, Outcome
from fuzzeval.play.testing import ConformanceError, check_game
from tests.toy import ToyGame, ToyState

pytestmark = pytest.mark.audit


@dataclass  # not frozen: a plug-in could change it in place
class Pile:
    turn: int
    first: int
    offers: list[int]
    sums: list[int]


class MutableToy(ToyGame):
    """The toy game on mutable states, played by the rules: nothing is changed in place."""

    name = "mutable toy"

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> Pile:
        return Pile(0, first, [int(v) for v in rng.integers(0, 11, 3)], [0, 0])

    def candidates(self, state: Any) -> Candidates:
        return Candidates("pick", tuple(map(str, state.offers)),
                          np.array(state.offers, dtype=float)[:, None], ("value",))

    def apply(self, state: Any, choice: int, rng: np.random.Generator) -> Pile:
        seat = self.to_move(state)
        assert seat is not None
        sums = list(state.sums)
        sums[seat] += state.offers[choice]
        return Pile(state.turn + 1, state.first, [int(v) for v in rng.integers(0, 11, 3)],
                    sums)


class ApplyChangesTheState(MutableToy):
    def apply(self, state: Any, choice: int, rng: np.random.Generator) -> Pile:
        new = super().apply(state, choice, rng)
        state.sums[0] += 1  # the old state, changed in place
        return new


class ApplyAdvancesTheStateInPlace(MutableToy):
    def apply(self, state: Any, choice: int, rng: np.random.Generator) -> Pile:
        new = super().apply(state, choice, rng)
        state.turn, state.offers, state.sums = new.turn, new.offers, new.sums
        return state  # the very object it was given, moved on


class CandidatesChangeTheState(MutableToy):
    def candidates(self, state: Any) -> Candidates:
        state.offers.sort()  # "harmless" tidying, in place
        state.offers.reverse()
        return super().candidates(state)


class BadSeat(ToyGame):
    def to_move(self, state: ToyState) -> int | None:
        return 2 if state.turn == 3 else super().to_move(state)


class NeverEnds(ToyGame):
    def __init__(self) -> None:
        self.applied = 0

    def to_move(self, state: ToyState) -> int | None:
        return state.turn % 2

    def apply(self, state: ToyState, choice: int, rng: np.random.Generator) -> ToyState:
        self.applied += 1
        return super().apply(state, choice, rng)


class NoCandidates(ToyGame):
    def candidates(self, state: ToyState) -> Candidates:
        if state.turn == 2:
            return Candidates("pick", (), np.zeros((0, 1)), ("value",))
        return super().candidates(state)


class WrongFeatureShape(ToyGame):
    def candidates(self, state: ToyState) -> Candidates:
        c = super().candidates(state)
        return replace(c, feature_names=("value", "double"))  # two names, one column


class NotReproducible(ToyGame):
    def __init__(self) -> None:
        self.calls = itertools.count()

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> ToyState:
        state = super().new_game(rng, first)
        return replace(state, sums=(next(self.calls), 0))  # a head start that grows


class NoWinner(ToyGame):
    def outcome(self, state: ToyState) -> Outcome:
        return replace(super().outcome(state), winner=2)


class WorthNothing(ToyGame):
    def outcome(self, state: ToyState) -> Outcome:
        return replace(super().outcome(state), points=0)


class MiscountedUnits(ToyGame):
    unit_name = "round"

    def unit(self, state: ToyState) -> int:
        return min(state.turn, 5) // 2  # rounds 0, 1, 2: three rounds played

    def outcome(self, state: ToyState) -> Outcome:
        o = super().outcome(state)
        return replace(o, unit_points=o.unit_points * 2)  # two recorded


class UnloggedKind(ToyGame):
    logged_kinds = frozenset({"pick", "bid"})


def test_toys_played_by_the_rules_conform() -> None:
    for game in (ToyGame(), MutableToy()):
        report = check_game(game, games=6, seed=1)
        assert report.games == 6 and report.decisions == 36 and report.kinds == {"pick"}


@pytest.mark.parametrize(("game", "message"), [
    (ApplyChangesTheState(), "apply() changed the state it was given"),
    (ApplyAdvancesTheStateInPlace(), "apply() changed the state it was given"),
    (CandidatesChangeTheState(), "candidates() changed the state it was given"),
    (BadSeat(), "to_move returned 2, not a seat (0 to 1) or None"),
    (NeverEnds(), "no end after 50 decisions"),
    (NoCandidates(), "no candidates before the end (decision 2)"),
    (WrongFeatureShape(), "pick features have shape (3, 1), not (3, 2)"),
    (NotReproducible(), "the same seed played a different game"),
    (NoWinner(), "winner 2 is not a seat (0 to 1) or None"),
    (WorthNothing(), "a win worth 0 points"),
    (MiscountedUnits(), "2 units of points for 3 rounds played"),
], ids=lambda v: type(v).__name__ if not isinstance(v, str) else "")
def test_each_breach_is_caught(game: ToyGame, message: str) -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(game, games=3, seed=1, max_moves=50)
    assert str(caught.value) == f"{game.name}, game seed 1: {message}"


def test_a_logged_kind_that_never_comes_up_is_caught() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(UnloggedKind(), games=3, seed=1)
    assert str(caught.value) == "toy: logged kinds ['bid'] never came up"


def test_a_game_that_never_ends_is_stopped_after_max_moves_decisions() -> None:
    game = NeverEnds()
    with pytest.raises(ConformanceError, match="no end after 40 decisions"):
        check_game(game, games=3, seed=1, max_moves=40)
    assert game.applied == 40  # the first game, stopped at its 41st decision


@pytest.mark.mutation_pin
def test_check_game_sees_a_state_changed_in_place() -> None:
    from fuzzeval.play.testing import ConformanceError, check_game

    with pytest.raises(ConformanceError, match=r"candidates\(\) changed the state it was "):
        check_game(CandidatesChangeTheState(), games=1)
    with pytest.raises(ConformanceError, match=r"apply\(\) changed the state it was given"):
        check_game(ApplyChangesTheState(), games=1)
