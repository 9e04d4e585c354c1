"""The expert opponent-throw table against the published discard tables (Schell, Hessel)."""

from __future__ import annotations

import csv
import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.games.cribbage.discard import discard_table
from fuzzeval.games.cribbage.scripts.expert_weights import crib_averages
from fuzzeval.games.cribbage.weights import opponent_weights, pair_type_counts

DATA = Path(__file__).resolve().parent.parent / "data" / "published_discard_tables.csv"
NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _published() -> dict[str, np.ndarray]:
    rows = [r for r in csv.reader(DATA.open()) if not r[0].startswith("#")]
    header, body = rows[0], rows[1:]
    out = {name: np.zeros((13, 13)) for name in header[2:]}
    for r in body:
        i, j = NAMES.index(r[0]), NAMES.index(r[1])
        for name, value in zip(header[2:], r[2:], strict=True):
            out[name][i, j] = out[name][j, i] = float(value)
    return out


@pytest.fixture(scope="module")
def averages() -> dict[str, np.ndarray]:
    dealer, pone, uniform = crib_averages(np.stack([
        opponent_weights("expert", my_crib=True), opponent_weights("expert", my_crib=False),
        opponent_weights("uniform", my_crib=True)]))  # the cribs scored once for all three
    return {"dealer": dealer, "pone": pone, "uniform": uniform}


def test_expert_crib_averages_track_schell(averages: dict[str, np.ndarray]) -> None:
    pub = _published()
    upper = np.triu_indices(13)
    for ours, theirs in (("dealer", "schell_dealer"), ("pone", "schell_pone")):
        a, b = averages[ours][upper], pub[theirs][upper]
        assert np.corrcoef(a, b)[0, 1] > 0.99
        assert np.abs(a - b).mean() < 0.3
        # Expert weighting brings us closer to the published tables than uniform throws do.
        assert np.abs(a - b).mean() < np.abs(averages["uniform"][upper] - b).mean()
    # 5-5 is the best throw to one's own crib, 10-K the worst, in ours as in Schell's.
    assert np.unravel_index(np.argmax(averages["dealer"]), (13, 13)) == (4, 4)
    assert np.unravel_index(np.argmin(averages["dealer"]), (13, 13)) in ((9, 12), (12, 9))


def test_expert_table_file_is_well_formed() -> None:
    data_dir = resources.files("fuzzeval.games.cribbage") / "data"
    text = (data_dir / "opponent_throws.json").read_text()
    data = json.loads(text)
    for thrower in ("dealer", "pone"):
        shares = np.array([row[3] for row in data[thrower]])
        assert len(shares) == 169 and (shares > 0).all()
        assert shares.sum() == pytest.approx(1.0, abs=1e-6)
        w = opponent_weights("expert", my_crib=thrower == "pone")
        assert np.allclose(w, w.transpose(1, 0, 2))
        assert (w[pair_type_counts() > 0] > 0).all()
    # Dealers keep fives for their own crib far more than pones throw them into it.
    dealer_55 = next(r[3] for r in data["dealer"] if r[:3] == [4, 4, 0])
    pone_55 = next(r[3] for r in data["pone"] if r[:3] == [4, 4, 0])
    assert dealer_55 > 3 * pone_55


def test_discard_table_with_expert_weights() -> None:
    expert = discard_table("5H 5S JD QC 4S 9C", "theirs", "expert")
    uniform = discard_table("5H 5S JD QC 4S 9C", "theirs", "uniform")
    assert set(expert["discard"]) == set(uniform["discard"])
    # The hand does not depend on the opponent; the crib does.
    merged = expert.merge(uniform, on="discard", suffixes=("_e", "_u"))
    np.testing.assert_allclose(merged["hand_mean_e"], merged["hand_mean_u"])
    assert not np.allclose(merged["crib_mean_e"], merged["crib_mean_u"])
