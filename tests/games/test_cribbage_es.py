"""Kendall & Shaw's evolution strategy: the hand count of the paper, the batched training
against a plain one-deal-at-a-time loop written here, and the paper's findings."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.games.cribbage.discard import THROWS
from fuzzeval.games.cribbage.es import (
    HIGH,
    LOW,
    N_HANDS,
    Deals,
    ESConfig,
    ESDiscard,
    deal,
    hand_codes,
    hand_index,
    load_table,
    lowest_two,
    save_table,
    throw_points,
    train,
)
from fuzzeval.games.cribbage.players import make_player


def test_there_are_18395_rank_hands_as_the_paper_says() -> None:
    assert N_HANDS == 18_395 == len(hand_codes())
    rng = np.random.default_rng(0)
    ranks = np.sort(np.argsort(rng.random((500, 52)), axis=1)[:, :6] // 4, axis=1)
    idx = hand_index(ranks)
    assert idx.min() >= 0 and idx.max() < N_HANDS
    back = [tuple(int(d, 13) for d in np.base_repr(int(hand_codes()[i]), 13).zfill(6))
            for i in idx]
    assert back == [tuple(r) for r in ranks.tolist()]


def test_the_two_lowest_values_are_thrown() -> None:
    values = np.array([[0.5, 0.2, 0.9, 0.1, 0.7, 0.3], [0.1, 0.1, 0.5, 0.5, 0.5, 0.5]])
    assert [THROWS[t] for t in lowest_two(values)] == [(1, 3), (0, 1)]


def _rank_points(ranks: list[int]) -> int:
    """Fifteens, pairs and runs of five ranks, counted combination by combination."""
    values = [min(r + 1, 10) for r in ranks]
    pts = 2 * sum(1 for k in range(2, 6) for c in combinations(values, k) if sum(c) == 15)
    pts += 2 * sum(1 for a, b in combinations(ranks, 2) if a == b)
    for length in (5, 4, 3):
        runs = sum(1 for c in combinations(sorted(ranks), length)
                   if all(c[i + 1] == c[i] + 1 for i in range(length - 1)))
        if runs:
            return pts + length * runs
    return pts


def test_throw_points_are_the_rank_only_show_of_hand_and_crib() -> None:
    d = deal(np.random.default_rng(4), 30)
    pts = throw_points(d, crib=True)
    for i in range(30):
        six, starter = d.six[i].tolist(), int(d.starter[i])
        for t, (a, b) in enumerate(THROWS):
            keep = [r for j, r in enumerate(six) if j not in (a, b)]
            hand = _rank_points([*keep, starter])
            crib = _rank_points([six[a], six[b], *d.crib2[i].tolist(), starter])
            assert pts[i, t] == hand + (crib if d.mine[i] else -crib)


def _plain_train(config: ESConfig, iterations: int, seed: int, batch: int) -> np.ndarray:
    """The ES one deal at a time, drawing the same random numbers in the same order."""
    rng = np.random.default_rng(seed)
    table = rng.uniform(LOW, HIGH, size=(2, N_HANDS, 6))
    training = None
    if config.hands:
        training = np.sort(np.array([rng.choice(52, 6, replace=False)
                                     for _ in range(config.hands)]), axis=1)
    done = 0
    while done < iterations:
        b = min(batch, iterations - done)
        d = deal(rng, b, training)
        points = throw_points(d, config.crib)
        noise = rng.normal(0.0, config.sigma, size=(b, 2))
        rival = rng.integers(15, size=b)
        for i in range(b):
            o, h = int(d.mine[i]), int(hand_index(d.six[i]))
            row = table[o, h]
            first, second = sorted(range(6), key=lambda k: (row[k], k))[:2]
            t = THROWS.index(tuple(sorted((first, second))))
            got, best = points[i, t], points[i].max()
            if config.variant == "threshold":
                failed = got < best - (1 - config.p) * abs(best)
            else:
                failed = got < points[i, rival[i]]
            if failed:
                for k, card in enumerate(THROWS[t]):
                    v = row[card] + noise[i, k]
                    row[card] = min(max(v, LOW), HIGH) if config.bounded else v
        done += b
    return table


@pytest.mark.parametrize("config", [
    ESConfig(hands=5, bounded=True, crib=False, p=0.75),
    ESConfig(hands=5, variant="coevolution"),
    ESConfig(),
])
def test_batched_training_is_exactly_the_one_deal_at_a_time_es(config: ESConfig) -> None:
    fast = train(config, 3000, seed=7, batch=512).values
    np.testing.assert_array_equal(fast, _plain_train(config, 3000, seed=7, batch=512))


def test_same_seed_same_table_and_bounds_hold() -> None:
    cfg = ESConfig(hands=9, bounded=True, crib=False, p=0.75)
    a, b = train(cfg, 20_000, 3), train(cfg, 20_000, 3)
    np.testing.assert_array_equal(a.values, b.values)
    assert a.values.min() >= LOW and a.values.max() <= HIGH
    assert not np.array_equal(a.values, train(cfg, 20_000, 4).values)


def test_bounded_values_collapse_toward_the_upper_bound() -> None:
    """The paper's finding (Fig. 1 and the arrays after 9000 iterations): failures push
    values up and the bound keeps them there, so the trained hands' values pile up at 0.9
    and the discard turns random. Unbounded values keep spreading."""
    cfg = dict(hands=9, crib=False, p=0.75)
    bounded = train(ESConfig(bounded=True, **cfg), 60_000, 1)  # type: ignore[arg-type]
    free = train(ESConfig(bounded=False, **cfg), 60_000, 1)  # type: ignore[arg-type]
    rng = np.random.default_rng(1)
    start = rng.uniform(LOW, HIGH, size=(2, N_HANDS, 6))
    moved_b = bounded.values != start
    moved_f = free.values != start
    near_top = np.mean(bounded.values[moved_b] > HIGH - 0.05)
    assert near_top > 0.5  # most trained values sit at the bound
    assert np.std(free.values[moved_f]) > 2 * np.std(bounded.values[moved_b])


# Two deals found with deal(default_rng(0), 20000) (ranks 0..12 = A..K): into their crib
# every throw loses points, the best -4; into my crib the best throw makes 8.
NEGATIVE = Deals(np.array([[0, 2, 2, 5, 9, 12]]), np.array([3]), np.array([[2, 4]]),
                 np.array([False]))
POSITIVE = Deals(np.array([[5, 6, 6, 10, 11, 12]]), np.array([9]), np.array([[0, 1]]),
                 np.array([True]))


def _mutations_after_one_deal(monkeypatch: pytest.MonkeyPatch, d: Deals, throw: int,
                              p: float) -> int:
    """Train for one deal, ``d``, from a table whose lowest two values are ``throw``'s."""
    monkeypatch.setattr("fuzzeval.games.cribbage.es.deal", lambda rng, size, training=None: d)
    values = np.full((2, N_HANDS, 6), 0.5)
    a, b = THROWS[throw]
    row = values[int(d.mine[0]), int(hand_index(d.six)[0])]
    row[a], row[b] = 0.2, 0.3
    result = train(ESConfig(p=p, crib=True), 1, seed=0, values=values)
    assert THROWS[lowest_two(row[None, :])[0]] == (a, b)
    moved = int(np.count_nonzero(result.values != values))
    assert moved == 2 * result.mutations  # a failed throw mutates its two cards
    return result.mutations


@pytest.mark.parametrize(("deal_", "p", "throw", "points", "fails"), [
    # Best -4 into their crib, p = 0.65: the bar is -4 - 0.35 x 4 = -5.4, so -4 and -5 pass
    # and -6 fails ('below 0.65 x best' = -2.6 would fail even the best throw; 'below
    # best / p' = -6.15 would pass the -6).
    (NEGATIVE, 0.65, 12, -4, False),
    (NEGATIVE, 0.65, 3, -5, False),
    (NEGATIVE, 0.65, 2, -6, True),
    # p = 0.75: the bar is -4 - 0.25 x 4 = -5; exactly on it is not below it.
    (NEGATIVE, 0.75, 3, -5, False),
    # Best 8 into my crib: the bar is 0.65 x 8 = 5.2, the paper's: 6 passes, 5 fails.
    (POSITIVE, 0.65, 5, 8, False),
    (POSITIVE, 0.65, 0, 6, False),
    (POSITIVE, 0.65, 4, 5, True),
    # p = 0.75: the bar is 6; the 6 passes, the 5 fails.
    (POSITIVE, 0.75, 0, 6, False),
    (POSITIVE, 0.75, 4, 5, True),
])
def test_threshold_on_a_negative_best_is_a_margin_below_it(
        monkeypatch: pytest.MonkeyPatch, deal_: Deals, p: float, throw: int, points: int,
        fails: bool) -> None:
    """When every throw loses points (their crib), 'below p x best' would fail even the
    best throw; the documented bar is best - (1 - p)|best| (p x best when best > 0). The
    training itself decides, on one deal whose throws score as listed."""
    pts = throw_points(deal_, crib=True)[0]
    assert pts[throw] == points and pts.max() == (8 if deal_ is POSITIVE else -4)
    assert _mutations_after_one_deal(monkeypatch, deal_, throw, p) == int(fails)


def test_trained_tables_save_load_and_play(tmp_path: Path) -> None:
    cfg = ESConfig(hands=3)
    result = train(cfg, 5000, 2)
    path = tmp_path / "es.npz"
    save_table(path, result, cfg, 5000, 2)
    values = load_table(path)
    np.testing.assert_allclose(values, result.values, rtol=1e-6)
    player = make_player("es", table=str(path))
    assert isinstance(player.discarder, ESDiscard)
    a, b = player.discard("5H 5S JD QC 4S 9C", "mine")
    assert a != b and {a, b} <= {"5H", "5S", "JD", "QC", "4S", "9C"}
    with pytest.raises(ValueError, match="cannot read an ES table"):
        make_player("es", table=str(tmp_path / "missing.npz"))


def test_train_es_cli_saves_a_table_a_curve_and_the_player_uses_it(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    out, plot = tmp_path / "t.npz", tmp_path / "curve.png"
    res = CliRunner().invoke(app, ["cribbage", "train-es", "-n", "20000", "--hands", "9",
                                   "--hand-only", "--bounded", "--p", "0.75", "--seed", "2",
                                   "-o", str(out), "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    assert plot.stat().st_size > 10_000
    with np.load(out) as data:
        assert int(data["iterations"]) == 20_000 and bool(data["bounded"])
        assert not bool(data["crib"])  # --hand-only
        assert data["curve_y"].size == 200
        assert data["random_level"] < data["best_level"]
    advice = CliRunner().invoke(app, ["cribbage", "discard", "--crib", "mine",
                                      "5H", "5S", "JD", "QC", "4S",
                                      "9C", "-p", f"es:table={out}", "--json"])
    assert advice.exit_code == 0, advice.output
    data = json.loads(advice.stdout)
    lowest = [row["card"] for row in data["table"][:2]]
    assert sorted(data["discard"]) == sorted(lowest)
    bad = CliRunner().invoke(app, ["cribbage", "train-es", "--variant", "coevo", "-o",
                                   str(out)])
    assert bad.exit_code == 2 and "coevo" in bad.output
