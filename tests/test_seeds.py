"""Seed derivation (fuzzeval.play.match.game_seed and its use in play_game, and
fuzzeval.learn.calibration_rounds.round_seed) against numpy's SeedSequence used directly:
game ``i`` of a match with seed ``s`` draws from ``SeedSequence(s).spawn(n)[i]``, split into chance,
seat 0 and seat 1 streams; round ``k`` of a calibration with seed ``s`` plays with the
first 32-bit word of ``SeedSequence([s, k])``, the seed its match is stored and played with."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fuzzeval.learn.calibration_rounds import (
    CalibrationSettings,
    load_calibration,
    round_seed,
    run_calibration,
)
from fuzzeval.play.game import Candidates
from fuzzeval.play.match import game_seed, play_game
from fuzzeval.play.store import History
from tests.toy import RULEBASE as TOY_RULEBASE
from tests.toy import ToyGame


def _children(seed: int, n: int) -> list[np.random.SeedSequence]:
    return np.random.SeedSequence(seed).spawn(n)


@pytest.mark.mutation_pin
@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 - 1, 2**40 + 3])
def test_game_seed_is_the_spawned_child_of_the_match_seed(seed: int) -> None:
    children = _children(seed, 12)
    for i in (0, 1, 2, 11):
        got = game_seed(seed, i)
        assert got.entropy == seed
        assert tuple(got.spawn_key) == (i,)
        assert (got.generate_state(8) == children[i].generate_state(8)).all()
    # Neighbouring games and neighbouring seeds draw different states.
    assert (game_seed(seed, 0).generate_state(4) != game_seed(seed, 1).generate_state(4)).any()
    assert (game_seed(seed, 0).generate_state(4)
            != game_seed(seed + 1, 0).generate_state(4)).any()


class FirstDraw:
    """Chooses option 0 and records the offers it saw and its own stream's first draws."""

    def __init__(self) -> None:
        self.offers: list[tuple[str, ...]] = []
        self.draws: list[int] = []

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        self.offers.append(tuple(candidates.labels))
        self.draws.append(int(rng.integers(2**62)))
        return 0


@pytest.mark.mutation_pin
@pytest.mark.parametrize(("seed", "index"), [(3, 0), (3, 1), (11, 4), (11, 7)])
def test_a_game_draws_its_deal_and_each_seat_from_its_own_child_stream(
    seed: int, index: int
) -> None:
    streams = _children(seed, index + 1)[index].spawn(3)
    chance, seat0, seat1 = (np.random.default_rng(s) for s in streams)
    first = index % 2
    want_offers = tuple(str(int(v)) for v in chance.integers(0, 11, 3))
    want0 = [int(seat0.integers(2**62)) for _ in range(3)]
    want1 = [int(seat1.integers(2**62)) for _ in range(3)]
    players = (FirstDraw(), FirstDraw())
    record = play_game(ToyGame(), (players[0], players[1]), seed, index)
    assert record.index == index and record.first == first
    # The player to move first sees the deal drawn from the chance stream.
    assert players[first].offers[0] == want_offers
    assert players[0].draws == want0 and players[1].draws == want1
    assert record.moves == 6


@pytest.mark.mutation_pin
def test_seat_zero_moves_first_in_even_games_only() -> None:
    for index in range(6):
        players = (FirstDraw(), FirstDraw())
        record = play_game(ToyGame(), (players[0], players[1]), 9, index)
        assert record.first == index % 2
        assert [d.seat for d in record.decisions][:2] == [index % 2, 1 - index % 2]


# Worked out with numpy directly: int(SeedSequence([s, k]).generate_state(1, np.uint32)[0]).
@pytest.mark.mutation_pin
@pytest.mark.parametrize(("seed", "k"), [(0, 0), (0, 1), (1, 0), (5, 3), (2**31, 9)])
def test_round_seed_is_the_first_word_of_the_sequence_of_seed_and_round(
    seed: int, k: int
) -> None:
    want = int(np.random.SeedSequence([seed, k]).generate_state(1, np.uint32)[0])
    got = round_seed(seed, k)
    assert type(got) is int and got == want and 0 <= got < 2**32
    assert round_seed(seed, k) != round_seed(seed, k + 1)
    assert round_seed(seed, k) != round_seed(seed + 1, k)


# --- the round seeds a calibration stores ---------------------------------------------


# numpy.random.SeedSequence([seed, round]).generate_state(1, numpy.uint32)[0], worked out once
# with numpy outside fuzzeval and written down.
KNOWN_ROUND_SEEDS = {(0, 0): 2968811710, (3, 0): 1576890651, (3, 1): 457190280,
                     (3, 2): 960329833, (2, 0): 2834126987, (2, 1): 307626447,
                     (12345, 7): 363984956}


@pytest.mark.audit
def test_round_seeds_are_drawn_from_seed_sequence_of_seed_and_round() -> None:
    for (seed, k), want in KNOWN_ROUND_SEEDS.items():
        direct = int(np.random.SeedSequence([seed, k]).generate_state(1, np.uint32)[0])
        assert direct == want
        assert round_seed(seed, k) == want, (seed, k)


@pytest.mark.audit
def test_each_round_plays_its_match_under_its_round_seed(tmp_path: Path) -> None:
    """The seed a calibration round's match is stored (and played) with."""
    settings = CalibrationSettings("toy", "random", games_per_round=4, seed=2)
    with History(tmp_path / "toy.sqlite") as h:
        run_calibration(h, ToyGame(), settings, TOY_RULEBASE, rounds=2)
        cal = load_calibration(h)
        seeds: dict[int, int] = dict(h.matches()[["id", "seed"]].itertuples(index=False))
    assert [seeds[r.match_id] for r in cal.finished_rounds] == [
        KNOWN_ROUND_SEEDS[(2, 0)], KNOWN_ROUND_SEEDS[(2, 1)]]
