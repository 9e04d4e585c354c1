"""Kendall & Shaw (2002)'s example hands, checked with the exact evaluator.

Expected figures were computed independently (a separate script written from the rules,
not from this package) and agree with the exact evaluator to three decimals. Where the
exact evaluator disagrees with the paper, the test says so.
"""

from __future__ import annotations

import pytest

from fuzzeval.games.cribbage.discard import discard_table


def _top(hand: str, crib: str, n: int = 2) -> list[tuple[str, float, float]]:
    t = discard_table(hand, crib)  # type: ignore[arg-type]
    return [(r.discard, round(r.hand_mean, 3), round(r.ev, 3)) for r in t.head(n).itertuples()]


def test_k_q_q_10_5_4() -> None:
    # Paper: "with no consideration for crib scoring" throw the ten or the king with the four.
    # Exact: both keep 9.870 on average; the crib breaks the tie -- T-4 to my crib, K-4 to
    # theirs.
    assert _top("KS QH QD TC 5S 4D", "mine") == [("TC 4D", 9.87, 14.026), ("KS 4D", 9.87, 13.769)]
    assert _top("KS QH QD TC 5S 4D", "theirs") == [("KS 4D", 9.87, 5.971), ("TC 4D", 9.87, 5.713)]


@pytest.mark.parametrize(("crib", "ev"), [("mine", 17.352), ("theirs", 8.04)])
def test_9_9_9_6_a_2(crib: str, ev: float) -> None:
    # Paper: converges to its optimum, throw the ace and the two. Exact: agreed, both cribs.
    assert _top("9S 9H 9D 6C AS 2H", crib, 1) == [("AS 2H", 12.696, ev)]


def test_10_9_8_7_6_5() -> None:
    # Paper: to my crib "likely 10/5" -- agreed (hand 10.565 + crib 7.210).
    assert _top("TS 9H 8D 7C 6S 5H", "mine", 1) == [("TS 5H", 10.565, 17.775)]
    # Paper: to their crib "probably 6/10 or 6/7". Exact disagrees: 10-9 is best (hand 9.630,
    # crib 4.648); 10-6 is second and 7-6 far down.
    table = discard_table("TS 9H 8D 7C 6S 5H", "theirs")
    assert list(table["discard"].head(2)) == ["TS 9H", "TS 6S"]
    assert table.loc[0, "ev"] == pytest.approx(4.982, abs=5e-4)
    assert table.loc[1, "ev"] == pytest.approx(4.251, abs=5e-4)
    rank_76 = int(table.index[table["discard"] == "7C 6S"][0])
    assert rank_76 >= 5
