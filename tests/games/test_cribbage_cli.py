"""``fuzzeval cribbage discard|score``: exit codes, one-line errors naming the token, JSON,
and batches; and the values, not only the form, of the cribbage commands and the ES and
report helpers under them.

Expected values come from the rules by hand, from the brute force of
tests/games/test_cribbage_discard (every starter and opponent's pair scored with the plain
scorer of cribbage_reference), and from the independent script behind
tests/games/test_cribbage_papers -- never from the code under test. The console is 80
columns wide, as in tests/test_cli_rulebase_list.py."""

from __future__ import annotations

import io
import json
from itertools import combinations
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage import es
from fuzzeval.games.cribbage.cards import card_str, parse_cards
from fuzzeval.games.cribbage.cli import _discard_json
from fuzzeval.games.cribbage.discard import discard_table
from tests.games import cribbage_reference as ref
from tests.games.test_cribbage_discard import _brute

HAND = ["5H", "5S", "JD", "QC", "4S", "9C"]

runner = CliRunner()


def test_discard_json_is_the_ranked_table() -> None:
    result = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                                 "--crib", "theirs", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    table = discard_table("5H 5S JD QC 4S 9C", "theirs")
    assert data["discard"] == table.loc[0, "discard"].split()
    assert [r["discard"] for r in data["table"]] == list(table["discard"])
    evs = [r["ev"] for r in data["table"]]
    assert evs == sorted(evs, reverse=True) and len(evs) == 15


def _pandas_json(tokens: list[str], crib: str, weights: str) -> dict[str, Any]:
    """The command's JSON as it was built from discard_table's DataFrame."""
    table = discard_table(tokens, crib, weights)  # type: ignore[arg-type]
    best = table.iloc[0]
    return {"hand": " ".join(card_str(c) for c in parse_cards(tokens, 6)), "crib": crib,
            "weights": weights, "discard": best["discard"].split(),
            "ev": round(float(best["ev"]), 6),
            "table": json.loads(table.round(6).to_json(orient="records"))}


@pytest.mark.parametrize("weights", ["uniform", "expert"])
@pytest.mark.parametrize("crib", ["mine", "theirs"])
def test_discard_json_is_discard_table_without_pandas(crib: str, weights: str) -> None:
    """The same rows, numbers (rounded as DataFrame.round rounds) and order (ties in THROWS
    order, as the stable sort leaves them) as the DataFrame gave, on hands with ties."""
    rng = np.random.default_rng(18)
    hands = [HAND, ["5H", "5D", "5C", "5S", "JH", "JD"], ["AH", "2H", "3H", "4H", "5H", "6H"]]
    hands += [[card_str(int(c)) for c in rng.choice(52, 6, replace=False)] for _ in range(40)]
    ties = 0
    for tokens in hands:
        ours = _discard_json(tokens, crib, weights)  # type: ignore[arg-type]
        assert json.dumps(ours) == json.dumps(_pandas_json(tokens, crib, weights)), tokens
        evs = [r["ev"] for r in ours["table"]]
        ties += len(evs) - len(set(evs))
    assert ties > 0


def test_discard_table_printed() -> None:
    result = runner.invoke(app, ["cribbage", "discard", "--crib", "mine",
                                 "5H", "5S", "JD", "QC", "4S", "9C"])
    assert result.exit_code == 0 and "4S 9C" in result.stdout and "EV" in result.stdout


def test_bad_card_is_one_line_and_exit_2() -> None:
    result = runner.invoke(app, ["cribbage", "discard", "--crib", "mine",
                                 "5H", "5S", "JD", "QC", "4S", "1X"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: '1X': unknown rank '1' (ranks: A 2-9 T/10 J Q K)"
    )
    result = runner.invoke(app, ["cribbage", "score", "5H", "5H", "JD", "QC", "--starter", "2C"])
    assert result.exit_code == 2 and "'5H': this card appears twice" in result.stderr
    result = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "--crib", "yours"])
    assert result.exit_code == 2 and "--crib must be mine or theirs" in result.stderr


def test_score_json_and_count() -> None:
    result = runner.invoke(app, ["cribbage", "score", "5H", "5D", "5S", "JC", "--starter", "5C",
                                 "--json"])
    data = json.loads(result.stdout)
    assert data["points"] == 29 and data["count"].endswith("one for his nob is twenty-nine")
    result = runner.invoke(app, ["cribbage", "score", "2H", "4H", "6H", "8H", "--starter", "QS",
                                 "--as-crib", "--json"])
    assert json.loads(result.stdout)["points"] == 0  # a crib flush needs all five


def test_batches_one_json_line_per_hand(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("5H 5S JD QC 4S 9C\n# a comment\n\nKH QH QD TS 5C 4D\n5H 5S JD QC 4S 9X\n")
    result = runner.invoke(app, ["cribbage", "discard", "--crib", "mine", "--batch", str(hands)])
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(lines) == 3 and result.exit_code == 2
    assert lines[0]["discard"] == ["4S", "9C"]
    assert lines[2] == {"line": 5, "input": "5H 5S JD QC 4S 9X",
                        "error": "'9X': unknown suit 'X' (suits: C D H S)"}
    scores = tmp_path / "scores.txt"
    scores.write_text("5H 5D 5S JC 5C\n4C 4D 4S 5D 6S\n")
    result = runner.invoke(app, ["cribbage", "score", "--batch", str(scores)])
    assert result.exit_code == 0
    assert [json.loads(x)["points"] for x in result.stdout.splitlines()] == [29, 21]


def test_a_narrower_terminal_gets_fewer_advice_columns_and_is_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 50 columns the throw, the keep and the grade take 39 (15 + 15 + 9), and no input
    fits beside them: the shortest, kept_points, needs 14 more."""
    import io

    from rich.console import Console

    screen = io.StringIO()
    monkeypatch.setattr("fuzzeval.games.cribbage.cli.console", Console(file=screen, width=50))
    res = CliRunner().invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                                   "--crib", "mine", "-p", "fuzzy"])
    assert res.exit_code == 0, res.output
    text = screen.getvalue()
    header = next(line for line in text.splitlines() if "grade" in line)
    assert header.split() == ["discard", "keep", "grade"]
    assert " ".join(text.split()).count("not shown, to fit 50 columns: kept_points, ") == 1


# --- values, not only the form: discard, score, the ES training and report helpers ----


ENV = {"COLUMNS": "80"}
PAPERS_HAND = "KS QH QD TC 5S 4D"  # Kendall & Shaw (2002)'s hand (test_cribbage_papers.py)


def discard(*args: str) -> Any:
    res = runner.invoke(app, ["cribbage", "discard", "--crib", "mine",
                              *PAPERS_HAND.split(), *args], env=ENV)
    assert res.exit_code == 0, res.output
    return res


def expected_rows(crib: str) -> list[list[str]]:
    """The exhaustive table of PAPERS_HAND as printed, from the brute force: best EV first, ties
    in the order of the throws (pairs of positions, as itertools.combinations gives)."""
    tokens = PAPERS_HAND.split()
    want = _brute(tuple(parse_cards(tokens, 6)), crib, np.ones((13, 13, 2)))
    sign = 1 if crib == "mine" else -1
    ev = want["hand_mean"] + sign * want["crib_mean"]
    order = sorted(range(15), key=lambda i: -round(float(ev[i]), 9))
    throws = list(combinations(range(6), 2))
    rows = []
    for i in order:
        thrown = [tokens[j] for j in throws[i]]
        kept = [t for j, t in enumerate(tokens) if j not in throws[i]]
        rows.append([*thrown, *kept, f"{want['hand_mean'][i]:.2f}",
                     f"{want['crib_mean'][i]:.2f}", f"{ev[i]:.2f}",
                     f"{want['hand_min'][i]}–{want['hand_max'][i]}",
                     f"{want['crib_min'][i]}–{want['crib_max'][i]}",
                     f"{want['net_min'][i]}–{want['net_max'][i]}"])
    return rows


def title(lines: list[str]) -> str:
    """A table's title, as one line (it wraps at the table's width)."""
    return " ".join(line.strip() for line in lines[:lines.index(next(
        line for line in lines if not line.strip()))])


def table_rows(lines: list[str]) -> list[list[str]]:
    """The words of each row under a table's rule line."""
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("─")) + 1
    return [line.split() for line in lines[start:] if line.strip()]


def header(lines: list[str]) -> list[str]:
    rule = next(i for i, line in enumerate(lines) if line.strip().startswith("─"))
    return lines[rule - 1].split()


# --- cribbage discard: the exhaustive player's table -------------------------------------

@pytest.mark.mutation_pin
@pytest.mark.parametrize(("crib", "whose", "sign"), [("mine", "my", "+"),
                                                    ("theirs", "their", "−")])
def test_discard_table_is_every_throw_exactly(crib: str, whose: str, sign: str) -> None:
    lines = discard("--crib", crib, "--weights", "uniform").stdout.splitlines()
    assert title(lines) == (
        f"{PAPERS_HAND}, {whose} crib, uniform opponent throws hand, crib: exact averages over "
        f"every starter and opponent throw; EV = hand {sign} crib; then the min–max of the "
        "hand, the crib and the net")
    assert header(lines) == ["discard", "keep", "hand", "crib", "EV", "hand", "crib", "net"]
    rows = table_rows(lines)
    assert rows == expected_rows(crib)
    # the paper's hand, by its independent script: T-4 to my crib (hand 9.870, EV 14.026),
    # K-4 to theirs (EV 5.971); keeping K Q Q 5 holds 8 points (three fifteens and the
    # queens) and at most 16 (a five starter: six fifteens and two pairs)
    first = ["TC", "4D", "KS", "QH", "QD", "5S", "9.87", "4.16", "14.03", "8–16"]
    if crib == "theirs":
        first = ["KS", "4D", "QH", "QD", "TC", "5S", "9.87", "3.90", "5.97", "8–16"]
    assert rows[0][:10] == first


@pytest.mark.mutation_pin
def test_discard_weights_are_the_ones_asked_for() -> None:
    uniform = discard("--crib", "mine").stdout.splitlines()
    expert = discard("--crib", "mine", "--weights", "expert").stdout.splitlines()
    assert title(uniform).startswith(f"{PAPERS_HAND}, my crib, uniform opponent throws ")
    assert title(expert).startswith(f"{PAPERS_HAND}, my crib, expert opponent throws ")
    assert table_rows(uniform) == expected_rows("mine")
    assert table_rows(expert) != table_rows(uniform)  # an expert throws other cribs


@pytest.mark.mutation_pin
def test_discard_json_is_the_best_throw_and_its_ev() -> None:
    out = json.loads(discard("--crib", "mine", "--json").stdout)
    # 14.026 (T-4), then 13.769 (K-4): the best, not the second
    assert (out["discard"], out["ev"]) == (["TC", "4D"], pytest.approx(14.026, abs=5e-4))
    assert out["ev"] == out["table"][0]["ev"]
    assert [(r["discard"], r["hand_min"], r["hand_max"]) for r in out["table"][:2]] == [
        ("TC 4D", 8, 16), ("KS 4D", 8, 16)]


@pytest.mark.mutation_pin
@pytest.mark.filterwarnings("ignore:.*no rule uses this variable")
def test_the_best_throw_is_the_bold_row_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                      three_inputs: Path) -> None:
    from fuzzeval.games.cribbage import cli

    out = io.StringIO()
    monkeypatch.setattr(cli, "console", Console(file=out, force_terminal=True, width=80,
                                                color_system="standard"))
    res = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                              "--crib", "mine", "-p", f"fuzzy:rulebase={three_inputs}"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    lines = out.getvalue().splitlines()
    rows = [line for line in lines if "0.00" in line or ".000" in line]
    assert len(rows) == 15
    assert "\x1b[1m" in rows[0] and not any("\x1b[1m" in r for r in rows[1:])


# --- cribbage discard: another player's table --------------------------------------------

THREE = """\
name: three
defuzzifier: weighted_average
default: 0
inputs:
  thrown_gap: {range: [0, 12], terms: {near: [0, 0, 12], far: [0, 12, 12]}}
  kept_points: {range: [0, 20], terms: {few: [0, 0, 20], many: [0, 20, 20]}}
  nobs_chance: {range: [0, 1], terms: {low: [0, 0, 1], high: [0, 1, 1]}}
output: {name: worth, range: [0, 20], terms: {low: 0, high: 20}}
rules:
  - if kept_points is many then worth is high
  - if kept_points is few then worth is low
"""


@pytest.fixture
def three_inputs(tmp_path: Path) -> Path:
    """A rule base whose grade is kept_points / 20 x 20; the other two inputs only show
    (loading it warns that no rule uses them)."""
    path = tmp_path / "three.yaml"
    path.write_text(THREE)
    return path


@pytest.mark.mutation_pin
@pytest.mark.filterwarnings("ignore:.*no rule uses this variable")
def test_a_fuzzy_table_shows_every_column_that_fits_80(three_inputs: Path) -> None:
    """discard and keep (12 + 3 each), grade (6 + 3), thrown_gap (10 + 3), kept_points and
    nobs_chance (11 + 3 each): 80 columns, all shown."""
    res = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                              "--crib", "mine", "-p", f"fuzzy:rulebase={three_inputs}"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert header(lines) == ["discard", "keep", "grade", "thrown_gap", "kept_points",
                             "nobs_chance"]
    assert "not shown" not in res.stdout
    # 4S 9C keeps 5H 5S JD QC: four fifteens and the fives, 10 points, so worth is
    # (0.5 x 20 + 0.5 x 0) / 1 = 10; 9 - 4 apart; his nob when one of the 12 diamonds
    # of the 46 unseen cards is cut, 12 / 46 = 0.261.
    # 4S JD keeps 5H 5S 9C QC: two fifteens and the fives, 6 points, no jack; J - 4 = 7.
    assert table_rows(lines)[:2] == [
        ["4S", "9C", "5H", "5S", "JD", "QC", "10.000", "5.000", "10.000", "0.261"],
        ["4S", "JD", "5H", "5S", "9C", "QC", "6.000", "7.000", "6.000", "0.000"]]


@pytest.mark.mutation_pin
def test_columns_that_fit_count_their_widths() -> None:
    from fuzzeval.cli.common import columns_that_fit
    from fuzzeval.games.cribbage.cli import ALWAYS_SHOWN, WIDE

    def _columns_that_fit(cols: list[str], width: int) -> tuple[list[str], list[str]]:
        return columns_that_fit(cols, width, ALWAYS_SHOWN, WIDE)

    cols = ["discard", "keep", "grade", "thrown_gap", "kept_points", "nobs_chance", "pair"]
    # 15 + 15 + 9 + 13 + 14 + 14 = 80: the sixth fits exactly, "pair" (6 + 3) does not
    assert _columns_that_fit(cols, 80) == (cols[:6], ["pair"])
    # one column fewer: nobs_chance (to 80) is left out, "pair" still fits (66 + 9 = 75)
    assert _columns_that_fit(cols, 79) == ([*cols[:5], "pair"], ["nobs_chance"])
    # a short name counts as a number's 6 characters: 39 + 9 x 4 = 75, a fifth is 84
    short = ["discard", "keep", "grade", "a", "b", "c", "d", "e"]
    assert _columns_that_fit(short, 80) == (short[:7], ["e"])
    assert (ALWAYS_SHOWN, WIDE) == (("discard", "keep", "card", "grade"), ("discard", "keep"))


@pytest.mark.mutation_pin
def test_sampling_explain_says_how_it_chose() -> None:
    res = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                              "--crib", "theirs", "-p", "sampling:trials=10,stop=none",
                              "--explain"], env=ENV)
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    throw = text.split(": throw ", 1)[1].split(",", 1)[0]
    assert text.endswith(
        f"why {throw}: the highest mean over 10 simulated deals, ran every trial (stop "
        "rule: none); a deal's value is the play simulated (greedy pegging on both sides) "
        "plus the exact expected hand and crib, or, from 61 points on, my chance of winning "
        "after the whole deal simulated")


# --- cribbage score --json ------------------------------------------------------------------

# 5H 5S 5D JC cut 5C: the 29 hand. Each five with the jack and each three of the four
# fives make fifteen (8 x 2), the four fives six pairs (6 x 2), the jack of the cut's suit
# his nob (1).
TWENTY_NINE = sorted(
    [("fifteen", sorted([f, "JC"]), 2) for f in ("5H", "5S", "5D", "5C")]
    + [("fifteen", sorted(t), 2) for t in combinations(["5H", "5S", "5D", "5C"], 3)]
    + [("pair", sorted(p), 2) for p in combinations(["5H", "5S", "5D", "5C"], 2)]
    + [("nobs", ["JC"], 1)])


@pytest.mark.mutation_pin
@pytest.mark.parametrize("cards", [["5H", "5S", "5D", "JC", "--starter", "5C"],
                                   ["5H", "5S", "5D", "JC", "5C"]])
def test_score_json_itemises_the_29_hand(cards: list[str]) -> None:
    res = runner.invoke(app, ["cribbage", "score", *cards, "--json"], env=ENV)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["hand"], out["starter"], out["crib"], out["points"]) == (
        ["5H", "5S", "5D", "JC"], "5C", False, 29)
    assert sorted((i["kind"], sorted(i["cards"]), i["points"]) for i in out["items"]) == \
        TWENTY_NINE
    assert set().union(*map(set, out["items"])) == {"kind", "cards", "points"}
    assert out["count"].endswith("double pair royal is twenty-eight, and one for his nob is "
                                 "twenty-nine")


# --- the ES player's training ----------------------------------------------------------------

@pytest.mark.mutation_pin
def test_occurrence_counts_earlier_positions_with_the_same_key() -> None:
    got = es._occurrence(np.array([5, 3, 5, 5, 3, 7, 5], dtype=np.intp))
    assert got.tolist() == [0, 0, 1, 2, 1, 0, 3]


@pytest.mark.mutation_pin
def test_throw_points_count_the_crib_for_its_owner_against_the_other() -> None:
    # 4 5 5 9 J Q, cut K, the other side's A 7 in the crib (ranks from 0 = ace)
    six = np.array([[3, 4, 4, 8, 10, 11]] * 2, dtype=np.intp)
    deals = es.Deals(six, np.array([12, 12], dtype=np.intp),
                     np.array([[0, 6], [0, 6]], dtype=np.intp), np.array([True, False]))
    got = es.throw_points(deals, crib=True)
    hand_only = es.throw_points(deals, crib=False)
    assert got.dtype.kind == "i" and got.shape == (2, 15)
    # Throwing 4 and 5: hand 5 9 J Q + K is 5-J, 5-Q, 5-K and the run J Q K, 9 points;
    # crib 4 5 A 7 + K is 5-K and 4-A-K, 4 points: 13 to my crib, 5 to theirs.
    assert (got[0, 0], got[1, 0], hand_only[0, 0]) == (13, 5, 9)
    for t, (a, b) in enumerate(combinations(range(6), 2)):
        kept = [int(r) for j, r in enumerate(six[0]) if j not in (a, b)] + [12]
        crib = [int(six[0, a]), int(six[0, b]), 0, 6, 12]
        hand = ref.fifteens(kept) + ref.pairs(kept) + ref.runs(kept)
        box = ref.fifteens(crib) + ref.pairs(crib) + ref.runs(crib)
        assert (got[0, t], got[1, t], hand_only[1, t]) == (hand + box, hand - box, hand)


@pytest.mark.mutation_pin
def test_bounded_training_keeps_values_between_low_and_high() -> None:
    start = np.full((2, es.N_HANDS, 6), 0.5)
    result = es.train(es.ESConfig(sigma=5.0, bounded=True), 2000, seed=3, values=start)
    assert result.mutations > 0
    assert result.values.min() == es.LOW == 0.1 and result.values.max() == es.HIGH == 0.9


# --- cribbage report's helpers -------------------------------------------------------------

@pytest.mark.mutation_pin
def test_ticker_reports_what_it_counts_and_is_none_without_progress() -> None:
    from fuzzeval.games.cribbage.report import _ticker

    assert _ticker(None, "exact EV", 10) is None
    seen: list[tuple[str, int, int]] = []
    tick = _ticker(lambda what, k, total: seen.append((what, k, total)), "exact EV", 10)
    assert tick is not None
    tick(3)
    tick(10)
    assert seen == [("exact EV", 3, 10), ("exact EV", 10, 10)]


@pytest.mark.mutation_pin
def test_one_by_one_shows_each_hand_as_a_games_first_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.games.cribbage import report

    views: list[Any] = []

    def discarder(view: Any, rng: Any) -> int:
        views.append(view)
        return len(views) % 15

    monkeypatch.setattr(report, "player_from_spec",
                        lambda name: SimpleNamespace(discarder=discarder))
    hands = np.array([parse_cards("5H 5S JD QC 4S 9C", 6), parse_cards(PAPERS_HAND, 6)])
    throws, seconds = report.one_by_one("any", hands, False, np.random.default_rng(1))
    assert throws.tolist() == [2, 3] and seconds >= 0
    # one call before the clock, then one a hand: no points scored yet, their crib
    assert [(v.hand, v.my_crib, v.scores) for v in views] == [
        (tuple(hands[0].tolist()), False, (0, 0)), (tuple(hands[0].tolist()), False, (0, 0)),
        (tuple(hands[1].tolist()), False, (0, 0))]
