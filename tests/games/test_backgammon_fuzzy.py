"""Backgammon features against scalar counts written here, the paper's worked board graded
through them, the fuzzy player, and the moves command."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzzeval import load_rulebase
from fuzzeval.cli import app
from fuzzeval.games.backgammon.board import BAR, START, Position, position_id
from fuzzeval.games.backgammon.features import (
    FEATURE_NAMES,
    FEATURES,
    MIRRORED,
    ZONES,
    FloatArray,
    OptionFeatures,
    position_features,
)
from fuzzeval.games.backgammon.moves import legal_moves, plays
from fuzzeval.games.backgammon.players import FuzzyGrades, MoveView, make_player
from tests.games.backgammon_helpers import random_boards, random_positions, side

ROOT = Path(__file__).resolve().parents[2]


def _scalar(p: Position) -> dict[str, float]:
    """The features one at a time, from the definitions."""
    me, opp = p.me, p.opp
    blots = [k for k in range(1, 25) if me[k - 1] == 1]
    owned = [k for k in range(1, 25) if me[k - 1] >= 2]
    run = best = 0
    for k in range(1, 25):
        run = run + 1 if me[k - 1] >= 2 else 0
        best = max(best, run)
    # Opposing checkers on my points (their point j is my 25 - j); they move up my numbers,
    # entering from their bar as if from my point 0. I move down, entering from 25.
    sources = [25 - j for j in range(1, 25) for _ in range(opp[j - 1])] + [0] * opp[24]
    mine = [k for k in range(1, 25) if me[k - 1]] + ([25] if me[24] else [])
    contact = any(s < m for s in sources for m in mine)
    hit = 0.0
    for b in blots:
        rolls = 0
        for a in range(1, 7):
            for c in range(1, 7):
                reach = {a, c, a + c} if a != c else {a, 2 * a, 3 * a, 4 * a}
                if any(s < b and b - s in reach for s in sources):
                    rolls += 1
        hit += 100 * rolls / 36 * (25 - b) / 24
    pips = sum(k * me[k - 1] for k in range(1, 26))
    opp_pips = sum(k * opp[k - 1] for k in range(1, 26))
    return {
        "SinglePieces": len(blots), "OpponentOnBar": opp[24],
        "SinglePiecesInHome": len([b for b in blots if b <= 6]),
        "ToBeHitFactor": min(hit, 50.0), "PointsOwned": len(owned),
        "PointsOwnedHome": len([k for k in owned if k <= 6]),
        "StrongestConsecutiveBlockade": best, "Contact": float(contact),
        "PipCount": pips, "RaceLead": opp_pips - pips, "BorneOff": 15 - sum(me),
        "Anchors": len([k for k in owned if k >= 19]),
        "BackCheckers": sum(me[18:25]), "OpponentBlots": sum(1 for n in opp[:24] if n == 1),
        "PrimeAgainst": _prime_in_front(me, min(sources, default=99)),
        "OpponentHomePoints": sum(1 for n in opp[:6] if n >= 2),
        "OpponentPipCount": opp_pips, "OpponentBorneOff": 15 - sum(opp),
    }


def _scalar_more(p: Position) -> dict[str, float]:
    """Shots, pip loss, escapes, stacking and zone counts, one roll and one point at a time."""
    me, opp = p.me, p.opp
    held_by_me = {k for k in range(1, 25) if me[k - 1] >= 2}
    blots = {k for k in range(1, 25) if me[k - 1] == 1}
    # While on the bar only the entering checker counts (from my point 0).
    sources = [0] if opp[24] else [25 - j for j in range(1, 25) if opp[j - 1]]
    shots, loss = 0, 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            paths = [[a], [b], [a, b], [b, a]] if a != b else [[a] * k for k in range(1, 5)]
            hit: set[int] = set()
            for s in sources:
                for path in paths:
                    at, ok = s, True
                    for i, step in enumerate(path):
                        at += step
                        if i < len(path) - 1 and at in held_by_me:
                            ok = False
                    if ok and at in blots:
                        hit.add(at)
            shots += bool(hit)
            loss += max((25 - k for k in hit), default=0)
    out = {"Shots": shots, "PipLoss": loss / 36,
           "BackEscapes": _escapes_scalar(me, opp), "OpponentEscapes": _escapes_scalar(opp, me),
           "Stacking": sum(max(n - 3, 0) for n in me[:24]),
           "OpponentBackCheckers": sum(opp[18:25]), "HomeCheckers": sum(me[:6]),
           "OutfieldCheckers": sum(me[6:18])}
    for zone, lo, hi, _ in ZONES:
        counts = me[lo - 1:hi]
        out[f"Blots{zone}"] = sum(1 for n in counts if n == 1)
        out[f"Points{zone}"] = sum(1 for n in counts if n >= 2)
        out[f"Spares{zone}"] = sum(max(n - 3, 0) for n in counts)
    return out


def _escapes_scalar(me: tuple[int, ...], opp: tuple[int, ...]) -> float:
    """Rolls that take my rearmost checker (alone, landing on open points) past the furthest
    point the opponent holds within 12 in front of it; my point k is its point 25 - k."""
    rear = max((k for k in range(1, 26) if me[k - 1]), default=0)  # 25 = the bar

    def held(k: int) -> bool:
        return 1 <= k <= 24 and opp[24 - k] >= 2

    blocks = [rear - d for d in range(1, 13) if held(rear - d)]
    if rear == 0 or not blocks:
        return 36.0
    target = min(blocks)  # the furthest held point in front (lowest number)
    count = 0
    for a in range(1, 7):
        for b in range(1, 7):
            orders = [[a, b], [b, a]] if a != b else [[a] * 4]
            ok = False
            for steps in orders:
                at = rear
                for step in steps:
                    at -= step
                    if held(at):
                        break
                    if at < target:
                        ok = True
                        break
            count += ok
    return float(count)


def _prime_in_front(me: tuple[int, ...], rearmost: int) -> int:
    """Longest run of my points numbered above the opponent's rearmost checker."""
    best = run = 0
    for k in range(1, 25):
        run = run + 1 if me[k - 1] >= 2 and k > rearmost else 0
        best = max(best, run)
    return best


def _check_against_scalar(positions: list[Position]) -> FloatArray:
    got = position_features(positions)
    for row, p in zip(got, positions, strict=True):
        want = _scalar(p) | _scalar_more(p)
        turned = Position(p.opp, p.me)  # the opponent's counts, from its side
        want |= {f"Their{k}": v for k, v in (_scalar(turned) | _scalar_more(turned)).items()
                 if k in MIRRORED}
        assert row.tolist() == pytest.approx([want[n] for n in FEATURE_NAMES], abs=1e-9), p
    return got


def test_features_equal_scalar_counts_on_random_positions() -> None:
    """Positions of random games, from both sides, and boards no game need reach (many on
    the bar, bear-offs, a side with every checker off)."""
    played = random_positions(600, seed=5)
    got = _check_against_scalar(played + [p.flip() for p in played])
    for j, f in enumerate(FEATURES):  # the ranges the rule bases assume, in games
        assert f.lo <= got[:, j].min() and got[:, j].max() <= f.hi, f.name
    _check_against_scalar(random_boards(600, seed=6))


@st.composite
def _boards(draw: st.DrawFn) -> Position:
    """Any position: each side's checkers (up to 15) on points or the bar, the opponent's
    only where none of mine stand."""
    me, opp = [0] * 25, [0] * 25
    for where in draw(st.lists(st.integers(0, BAR), max_size=15)):
        me[where] += 1
    for where in draw(st.lists(st.integers(0, BAR), max_size=15)):
        if where == BAR or not me[23 - where]:
            opp[where] += 1
    return Position(tuple(me), tuple(opp))


@settings(max_examples=150, deadline=None)
@given(st.lists(_boards(), min_size=1, max_size=3))
def test_features_equal_scalar_counts_on_any_boards(positions: list[Position]) -> None:
    """Several at once: one call computes every candidate of a decision."""
    _check_against_scalar(positions)


def test_features_of_no_positions_and_of_subsets() -> None:
    assert position_features([]).shape == (0, len(FEATURE_NAMES))
    positions = random_positions(30, seed=8)
    every = position_features(positions)
    names = ("Shots", "PipCount", "SinglePieces")
    assert np.array_equal(position_features(positions, names),
                          every[:, [FEATURE_NAMES.index(n) for n in names]])
    with pytest.raises(ValueError, match=r"unknown backgammon features.*'Pips'"):
        position_features(positions, ("PipCount", "Pips"))


def test_the_side_to_rolls_pips_and_checkers_off_counted_by_hand() -> None:
    """Fig. 4's board: the opponent's 6 x 5 + 8 x 3 + 13 x 5 + 25 x 2 = 169 pips, none off;
    a race where it has 4 x 2 + 1 x 3 = 11 pips left and 10 checkers off, I 3 x 4 = 12 and 11."""
    names = ("PipCount", "OpponentPipCount", "BorneOff", "OpponentBorneOff", "RaceLead")
    fig4 = Position(side({2: 1, 5: 1, 10: 1, 6: 4, 8: 4, 13: 4}), side({6: 5, 8: 3, 13: 5}, bar=2))
    race = Position(side({3: 4}), side({4: 2, 1: 3}))
    assert position_features([fig4, race], names).tolist() == [
        [2 + 5 + 10 + 24 + 32 + 52, 169, 0, 0, 169 - 125], [12, 11, 11, 10, -1]]
    # its side of Fig. 4: points 6, 8 and 13 (no two together), 5 checkers home, 3 + 5 on
    # its 7-18, two beyond three on the 6 and the 13
    theirs = ("TheirPointsOwned", "TheirStrongestConsecutiveBlockade", "TheirHomeCheckers",
              "TheirOutfieldCheckers", "TheirStacking", "TheirPointsHighHome")
    assert position_features([fig4], theirs).tolist() == [[3, 1, 5, 8, 4, 1]]


def test_shots_agree_with_the_opponents_legal_plays() -> None:
    """An independent count: rolls on which some legal play of the opponent hits a blot.
    Shots ignores the must-use-both-dice rule, so it may count a roll the rules forbid, never
    miss one; the two agree almost always (opponent not on the bar)."""
    positions = [p for p in random_positions(600, seed=11)
                 if p.opp[BAR] == 0 and 1 in p.me[:24]][:300]
    shots = position_features(positions, ("Shots",))[:, 0]
    same = 0
    for p, counted in zip(positions, shots, strict=True):
        legal = sum(
            any(step[2] for play in plays(p.flip(), (a, b)) for step in play.steps)
            for a in range(1, 7) for b in range(1, 7)
        )
        assert legal <= counted, p
        same += legal == counted
    assert same >= 0.97 * len(positions)


def test_the_papers_worked_board_grades_763_over_8207_through_the_features() -> None:
    # Three blots, two of them in my home board, two opposing checkers on the bar (Fig. 4).
    me = side({2: 1, 5: 1, 10: 1, 6: 4, 8: 4, 13: 4})
    opp = side({6: 5, 8: 3, 13: 5}, bar=2)
    board = Position(me, opp)
    rb = load_rulebase(ROOT / "rulebases" / "backgammon_simple.yaml")
    grades = FuzzyGrades(rb)
    feats = grades.features(MoveView(board, (1, 1), (board,)))
    assert feats.tolist() == [[3, 2, 2]]
    assert grades(MoveView(board, (1, 1), (board,)))[0] == pytest.approx(
        float(Fraction(763, 8207)), abs=1e-12)


def test_fuzzy_player_plays_its_best_grade_and_refuses_unknown_inputs(tmp_path: Path) -> None:
    player = make_player("fuzzy")
    plays = legal_moves(START, (6, 4))
    view = MoveView(START, (6, 4), tuple(p for _, p in plays))
    best = plays[int(np.argmax(player.grades(view)))][1]
    assert player.choose(START, (6, 4), np.random.default_rng(0)) == best
    bad = tmp_path / "bad.yaml"
    bad.write_text((ROOT / "rulebases" / "backgammon_simple.yaml").read_text()
                   .replace("OpponentOnBar", "OpponentsOnBar"))
    with pytest.raises(ValueError, match="OpponentsOnBar"):
        make_player("fuzzy", rulebase=str(bad))


def test_moves_command_ranks_every_play_and_explains() -> None:
    res = CliRunner().invoke(app, ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31",
                                   "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["plays"][0]["play"] == "8/5 6/5" and len(data["plays"]) == 16
    after = dict(legal_moves(START, (3, 1)))["8/5 6/5"]
    assert data["plays"][0]["position_id"] == position_id(after.flip())
    grades = [r["grade"] for r in data["plays"]]
    assert grades == sorted(grades, reverse=True)
    fuzzy = CliRunner().invoke(app, ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31",
                                     "-p", "fuzzy:rulebase=backgammon_simple", "--explain",
                                     "--json"])
    assert fuzzy.exit_code == 0, fuzzy.output
    assert len(json.loads(fuzzy.stdout)["explanation"]["rules"]) == 7
    for args, token in ((["4HPwATDgc/AB", "--dice", "31"], "4HPwATDgc/AB"),
                        (["4HPwATDgc/ABMA", "--dice", "71"], "71")):
        bad = CliRunner().invoke(app, ["backgammon", "moves", *args])
        assert bad.exit_code == 2 and token in bad.output


def test_only_the_rule_base_player_logs_features_and_backgammon_calibrates(
        tmp_path: Path) -> None:
    from fuzzeval.games.backgammon.game import GAME
    from fuzzeval.learn.calibration_rounds import CalibrationSettings, run_calibration
    from fuzzeval.play.match import MatchSpec, play_indexed
    from fuzzeval.play.spec import PlayerSpec
    from fuzzeval.play.store import History, read_decisions

    rec = play_indexed(GAME, MatchSpec("backgammon", PlayerSpec("fuzzy"),
                                       PlayerSpec("pubeval"), 1, 2), 0)
    fuzzy_rows = [d for d in rec.decisions if d.seat == 0]
    assert fuzzy_rows and all(set(d.features) == set(FEATURE_NAMES) for d in fuzzy_rows)
    assert all(d.features == {} for d in rec.decisions if d.seat == 1)
    source = (ROOT / "rulebases" / "backgammon_simple.yaml").read_text()
    db = tmp_path / "bg.sqlite"
    # Seed 2: the fuzzy player wins 2 of the 4 games against pubeval (seed 1 wins none, and
    # with no winning decisions nothing would move).
    with History(db) as h:
        cal = run_calibration(h, GAME, CalibrationSettings("backgammon", "pubeval", 4, 2),
                              source, rounds=1)
    (first,) = cal.finished_rounds
    won = read_decisions(db)
    won = won[(won.match_id == first.match_id) & (won.seat == 0) & won.game_won]
    assert first.wins == won.game.nunique() > 0
    assert {m.samples for m in first.moves} == {len(won)}
    target = won["SinglePieces"].mean()
    # Eq. 1 by hand on both adjustable points (Few ends at 4, Many starts at 2).
    want = {("Few", "right"): 4 + 0.1 * (target - 4), ("Many", "left"): 2 + 0.1 * (target - 2)}
    assert {(m.term, m.point): m.after for m in first.moves} == pytest.approx(want)
    assert all(m.variable == "SinglePieces" and m.target == pytest.approx(target)
               and m.shift != 0 and not m.stopped for m in first.moves)
    blots = cal.final_rulebase().input("SinglePieces")
    assert (blots.term("Few").triangle.right, blots.term("Many").triangle.left) == \
        pytest.approx((want[("Few", "right")], want[("Many", "left")]))


def test_the_board_selector_sets_aside_plays_that_lost_and_never_all() -> None:
    from fuzzeval.games.backgammon.selector import BoardSelector

    plays = legal_moves(START, (3, 1))
    options = [p for _, p in plays]
    bad = position_id(options[0])
    selector = BoardSelector({bad: (10, 1), position_id(options[1]): (3, 0)})
    keep = selector.keep(options)
    assert not keep[0] and keep[1:].all()  # too few games to judge the second
    everything_bad = BoardSelector({position_id(p): (9, 0) for p in options})
    assert everything_bad.keep(options).all()


def test_selector_counts_come_from_the_history(tmp_path: Path) -> None:
    from fuzzeval.games.backgammon.board import from_position_id
    from fuzzeval.games.backgammon.game import GAME
    from fuzzeval.games.backgammon.moves import parse_dice
    from fuzzeval.games.backgammon.selector import history_record
    from fuzzeval.play.match import MatchSpec
    from fuzzeval.play.match_runs import run_match
    from fuzzeval.play.spec import PlayerSpec
    from fuzzeval.play.store import History, read_decisions

    db = tmp_path / "h.sqlite"
    with History(db) as h:
        run_match(h, GAME, MatchSpec("backgammon", PlayerSpec("fuzzy"), PlayerSpec("pubeval"),
                                     12, 3))
    record = history_record(db)
    rows = read_decisions(db)
    rows = rows[(rows.player == "fuzzy") & (rows.seq < 16)]
    want: dict[str, set[tuple[int, bool]]] = {}
    for _, r in rows.iterrows():
        after = dict(legal_moves(from_position_id(r.position), parse_dice(r.dice)))[r.choice]
        want.setdefault(position_id(after), set()).add((r.game, bool(r.game_won)))
    assert record == {k: (len(v), sum(w for _, w in v)) for k, v in want.items()}
    player = make_player("fuzzy", selector=str(db), selector_games="1",
                         selector_win_rate="0.5")
    assert player.selector is not None and player.selector.record == record


def test_the_taught_refined_base_plays_the_book_openings() -> None:
    """Opening plays every modern book agrees on (point-making rolls, the 6-5 run)."""
    player = make_player("fuzzy", rulebase="backgammon_refined")
    book = {(3, 1): "8/5 6/5", (6, 1): "13/7 8/7", (4, 2): "8/4 6/4", (5, 3): "8/3 6/3",
            (6, 5): "24/13"}
    for dice, play in book.items():
        chosen = player.choose(START, dice, np.random.default_rng(0))
        assert chosen == dict(legal_moves(START, dice))[play], dice


def test_option_features_computed_once_agree_with_a_fresh_computation() -> None:
    options = random_positions(40, seed=9)
    shared = OptionFeatures(options)
    some = ("Shots", "PointsOwned", "BlotsFarOutfield")
    want = position_features(options)
    assert shared.columns(some) == pytest.approx(want[:, [FEATURE_NAMES.index(n) for n in some]])
    assert shared([3, 7]) == pytest.approx(want[[3, 7]])  # cached and fresh columns mixed
    assert shared.columns(FEATURE_NAMES) == pytest.approx(want)


def _digest(player: str, opponent: str, seed: int, index: int) -> str:
    from fuzzeval.games.backgammon.game import GAME
    from fuzzeval.play.match import MatchSpec, play_indexed
    from fuzzeval.play.spec import PlayerSpec

    spec = MatchSpec("backgammon", PlayerSpec.parse(player), PlayerSpec.parse(opponent),
                     index + 1, seed)
    rec = play_indexed(GAME, spec, index)
    text = "\n".join(f"{d.seat} {d.record['position']} {d.record['dice']} {d.index} {d.choice}"
                     for d in rec.decisions)
    text += f"\n{rec.outcome.winner} {rec.outcome.points} {rec.moves}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize(("player", "opponent", "index", "digest"), [
    ("fuzzy:rulebase=backgammon_refined", "pubeval", 0, "0f0accedb3568cfa"),
    ("fuzzy:rulebase=backgammon_refined", "pubeval", 1, "cc6d0c52d4f2f44f"),
    ("fuzzy:rulebase=backgammon_refined", "pubeval", 2, "0efbfd827013abad"),
    ("fuzzy:rulebase=backgammon_refined", "pubeval", 3, "484df1657beb2531"),
    ("fuzzy:rulebase=backgammon_simple", "pubeval", 0, "4543d76ce14e5c77"),
    ("fuzzy", "pubeval", 0, "05bf724c42b95184"),  # the default, backgammon_td, as shipped
    ("pubeval", "pubeval", 0, "3efc9cb7c75b6455"),
    ("pubeval", "pubeval", 1, "a16616149bea7212"),
])
def test_seeded_games_are_the_games_played_before(player: str, opponent: str, index: int,
                                                  digest: str) -> None:
    """Every decision (position, dice, play chosen) and the result of a few seeded games,
    as the pure-Python search and numpy features played them (seed 1): compiling them
    changed no game (nor did it on 200 games of each match, compared in full); the default
    player's game as `backgammon_td` first played it."""
    assert _digest(player, opponent, 1, index) == digest
