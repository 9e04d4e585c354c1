"""The 1-ply search (fuzzeval/games/backgammon/lookahead.py): against a brute force
written here (every ordered roll of the 36, every reply graded on its own), over exact
bear-off values, and over GNU Backgammon's 0-ply equity against its own 1-ply."""

from __future__ import annotations

import dataclasses

import gnubg
import numpy as np
import pytest

from fuzzeval import load_rulebase
from fuzzeval.engine.evaluator import compile_rulebase
from fuzzeval.formats.loading import load_rulebase_text
from fuzzeval.games.backgammon import make_player
from fuzzeval.games.backgammon.board import START, Boards, Position
from fuzzeval.games.backgammon.features import FEATURE_NAMES
from fuzzeval.games.backgammon.lookahead import ROLL_SHARE, ROLLS, LookaheadGrades
from fuzzeval.games.backgammon.moves import legal_moves, plays
from fuzzeval.games.backgammon.players import (
    BackgammonPlayer,
    FuzzyGrades,
    GnubgGrades,
    MoveView,
)
from fuzzeval.play.game import Candidates
from fuzzeval.resources import find_rulebase
from tests.games.backgammon_bearoff import bearoff_table
from tests.games.backgammon_helpers import random_positions, side

#: a taught base: its grades rank plays, so a win is worth more than any grade
TAUGHT = "backgammon_refined"


def _grader(width: int) -> LookaheadGrades:
    grader = make_player("fuzzy", rulebase=TAUGHT, lookahead=1, width=width).grader
    assert isinstance(grader, LookaheadGrades) and grader.width == width
    return grader


def _view(position: Position, dice: tuple[int, int]) -> MoveView:
    return MoveView(position, dice, tuple(p for _, p in legal_moves(position, dice)))


def _brute(grades: FuzzyGrades, play: Position) -> float:
    """Minus the mean over the 36 ordered rolls of the opponent's best reply's grade."""
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            replies = [p for _, p in legal_moves(play.flip(), (a, b))]
            best = max(
                (np.inf if sum(r.me) == 0 else
                 float(grades(MoveView(play.flip(), (a, b), (r,)))[0])) for r in replies)
            total += best
    return -total / 36


@pytest.mark.parametrize("dice", [(3, 1), (6, 5), (4, 4)])
def test_values_are_minus_the_mean_best_reply_over_the_36_rolls(dice: tuple[int, int]) -> None:
    grader = _grader(3)
    grades = make_player("fuzzy", rulebase=TAUGHT).grader
    assert isinstance(grades, FuzzyGrades)
    view = _view(random_positions(40, 3)[17], dice)
    got = grader(view)
    zero = grades(view)
    looked = np.argsort(-zero, kind="stable")[:3]
    assert np.isfinite(got[looked]).all()
    assert (got[np.setdiff1d(np.arange(len(got)), looked)] == -np.inf).all()
    for i in looked:
        assert got[i] == pytest.approx(_brute(grades, view.options[int(i)]),
                                       rel=1e-12, abs=1e-12)


def test_a_play_that_bears_off_the_last_checker_wins_outright() -> None:
    # My last two checkers on my 1 and 2 points; a 2-1 bears both off (or 1 and 2 only one).
    position = Position(side({1: 1, 2: 1}), side({6: 5, 8: 3, 13: 5}))
    view = _view(position, (2, 1))
    got = _grader(4)(view)
    done = [i for i, p in enumerate(view.options) if sum(p.me) == 0]
    assert done and got[done[0]] == np.inf
    player = make_player("fuzzy", rulebase=TAUGHT, lookahead=1)
    assert sum(player.choose(position, (2, 1)).me) == 0
    # It is looked at whatever the values say: they are never asked about a game's end.
    asked: list[int] = []

    def values(boards: Boards) -> np.ndarray:
        asked.extend(boards.me.sum(axis=1).tolist())
        return np.full(len(boards), 5.0)

    got = LookaheadGrades(values, width=1)(view)
    assert got[done[0]] == 1.0 and np.isinf(np.delete(got, done[0])).all() and 0 not in asked


def test_a_reply_that_wins_is_worth_more_than_any_grade() -> None:
    """The opponent has one checker left on its 2 point and a 6-5 cannot hit it: every roll
    bears it off, so every play of mine is worth minus the win value, whatever the grades
    say."""
    position = Position(START.me, side({2: 1}))
    got = _grader(2)(_view(position, (6, 5)))
    output = make_player("fuzzy", rulebase=TAUGHT).grader.rulebase.output  # type: ignore[attr-defined]
    finite = got[np.isfinite(got)]
    assert finite.size == 2
    assert (finite == -(output.hi + (output.hi - output.lo))).all()


def test_a_value_base_counts_a_game_s_end_as_its_points() -> None:
    """With a learned base (values: the points a game the side that moved expects), a game
    that ends is worth its points on that scale: the opponent's every reply bears off its
    last checker (my 24 point is open, so a 1-1 is not blocked) while I have borne off none
    and have two checkers in its home board (my 19 point): a backgammon, 3 points, whatever
    the values say; with none there a gammon; my own bear-off with 13 of its checkers left
    wins a single point."""
    td = make_player("fuzzy", rulebase="backgammon_td", lookahead=1).grader
    assert isinstance(td, LookaheadGrades)
    view = _view(Position(side({6: 5, 8: 3, 13: 5, 19: 2}), side({2: 1})), (6, 5))
    got = td(view)
    looked = np.flatnonzero(np.isfinite(got))
    # a play that moves both checkers off my 19 point (19/13 19/14) leaves a gammon
    want = [-3.0 if sum(view.options[i].me[18:24]) else -2.0 for i in looked]
    assert got[looked].tolist() == want and len(looked) == 4 and -2.0 in want
    gammon = Position(side({6: 5, 8: 3, 13: 7}), side({2: 1}))  # none in its home board
    assert td(_view(gammon, (6, 5)))[np.isfinite(td(_view(gammon, (6, 5))))].tolist() == [
        -2.0] * 4
    mine = Position(side({1: 1, 2: 1}), side({6: 5, 8: 3, 13: 5}))
    view = _view(mine, (2, 1))
    done = [i for i, p in enumerate(view.options) if sum(p.me) == 0]
    assert td(view)[done].tolist() == [1.0] * len(done) and done
    from fuzzeval.games.backgammon.board import end_points

    loser = np.zeros((4, 25), dtype=np.int64)
    loser[0, 5] = 14  # one borne off: single
    loser[1, 5] = 15  # none borne off, none in the winner's home: gammon
    loser[2, 5], loser[2, 18] = 14, 1  # and one in the winner's home (its 19): backgammon
    loser[3, 5], loser[3, 24] = 14, 1  # or on the bar: backgammon
    assert end_points(loser).tolist() == [1.0, 2.0, 3.0, 3.0]


def test_lookahead_options_are_checked() -> None:
    with pytest.raises(ValueError, match="lookahead must be 0 or 1"):
        make_player("fuzzy", lookahead=2)
    with pytest.raises(ValueError, match="width needs lookahead=1"):
        make_player("fuzzy", width=3)
    with pytest.raises(ValueError, match="width must be a whole number >= 1"):
        make_player("fuzzy", lookahead=1, width=0)
    assert isinstance(make_player("fuzzy", lookahead=0).grader, FuzzyGrades)


# The search checked apart from any rule base: with values that are exact (a bear-off
# solved here), and with GNU Backgammon's own 0-ply equity.

def test_the_bear_off_table_is_exact() -> None:
    """Worked by hand: a lone checker on the 6 point bears off unless the roll is 1-1 or
    totals less than 6 (1-2, 1-3, 1-4, 2-3, each two ways): 27 of the 36; on the 1 point it
    always does. And every position of up to three checkers a side is GNU Backgammon's
    two-sided bear-off database's (stored to about 1e-5)."""
    table = bearoff_table(3)
    six, ace = (table.sides.index((0, 0, 0, 0, 0, 1)), table.sides.index((1, 0, 0, 0, 0, 0)))
    assert table.win[six, ace] == pytest.approx(27 / 36, abs=1e-15)
    assert table.win[ace, six] == 1.0
    k = len(table.sides)
    cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, 0)
    for x in range(1, k):
        for y in range(1, k):
            p = table.position(x, y)
            assert gnubg.evaluate((p.opp, p.me), cube, context)[0] == pytest.approx(
                table.win[x, y], abs=1e-4)


def test_one_ply_over_exact_values_is_exact_in_every_bear_off_position() -> None:
    """Every position of up to two checkers a side (the other to roll, after my play): its
    1-ply value over exact values is its exact value, 2 P(win) - 1 for the side that moved.
    The roll weights, whose side a value is, and the game's end all have to be right."""
    table = bearoff_table(2)
    k = len(table.sides)
    search = LookaheadGrades(table.values, width=k)
    mine = np.array([s + (0,) * 19 for s in table.sides[1:]], np.int64)
    for y in range(1, k):
        boards = Boards(mine, np.array([table.sides[y] + (0,) * 19] * (k - 1), np.int64))
        got = search(MoveView(boards[0], (1, 1), boards))
        assert got == pytest.approx(table.values(boards), abs=1e-14)
        assert got.tolist() != [got[0]] * len(got)  # not one value for everything


def test_one_ply_over_exact_values_chooses_an_exact_best_play() -> None:
    """Decisions of up to four checkers a side where the plays' exact values differ: the
    1-ply player (width 4) plays one of the exactly best, and values the position at its
    exact value."""
    table = bearoff_table(4)
    player = BackgammonPlayer("exact 1-ply", LookaheadGrades(table.values))
    rng = np.random.default_rng(5)
    k, checked, close = len(table.sides), 0, 0
    while checked < 150:
        x, y = (int(i) for i in rng.integers(1, k, 2))
        dice = ROLLS[int(rng.integers(len(ROLLS)))]
        position = table.position(x, y)
        options = plays(position, dice).boards
        exact = table.values(options)
        if np.ptp(exact) < 1e-9:  # equal plays (to the last bits of their sums)
            continue
        checked += 1
        close += exact.max() - 0.01 < np.sort(exact)[-2] < exact.max() - 1e-9
        chosen = table.values(Boards.of([player.choose(position, dice)]))[0]
        assert chosen == pytest.approx(exact.max(), abs=1e-14)
    assert close > 10  # some choices are between plays within a hundredth of each other
    # The position's value: the mean over my 36 rolls of my best play's 1-ply value.
    x, y = table.sides.index((0, 1, 0, 1, 1, 1)), table.sides.index((0, 0, 2, 0, 1, 1))
    position = table.position(x, y)
    best = [player.grades(MoveView(position, r, plays(position, r).boards)).max()
            for r in ROLLS]
    assert np.array(best) @ ROLL_SHARE == pytest.approx(2 * table.win[x, y] - 1, abs=1e-14)


def test_one_ply_over_gnubg_s_0_ply_is_gnubg_s_own_1_ply() -> None:
    """Positions from random games, the opponent to roll: our search over gnubg's 0-ply
    equity gives what gnubg's own 1-ply evaluation gives (without its pruning), to gnubg's
    single precision, and differs from the 0-ply equity."""
    player = make_player("gnubg", lookahead=1, width=1)
    zero = GnubgGrades()
    cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, 1, 1, 0)
    moved = 0.0
    for p in random_positions(300, 7)[::15]:
        ours = player.grades(MoveView(p, (1, 1), (p,)))[0]
        assert ours == pytest.approx(-gnubg.evaluate((p.me, p.opp), cube, context)[-1],
                                     abs=2e-6)
        moved += abs(ours - zero.values(Boards.of([p]))[0])
    assert moved > 0.5  # summed over 20 positions: 1-ply is not 0-ply


@pytest.mark.mutation_pin
def test_plays_tied_at_0_ply_are_looked_at_in_the_game_s_order() -> None:
    """42 plays of 1-1 from the start, the first worth 1 at 0-ply, the next 39 tied at 2:
    a width of 5 looks at the first five of the tied (plays 1 to 5), whatever the sort."""
    view = _view(START, (1, 1))
    assert len(view.options) == 42
    calls: list[int] = []

    def values(boards: Boards) -> np.ndarray:
        calls.append(len(boards))
        if len(calls) == 1:  # the 0-ply values of the 42 plays
            return np.array([1.0] + [2.0] * 39 + [0.0] * 2)
        return np.zeros(len(boards))  # every reply alike

    got = LookaheadGrades(values, width=5)(view)
    assert np.flatnonzero(np.isfinite(got)).tolist() == [1, 2, 3, 4, 5]
    assert got[1:6].tolist() == [-0.0] * 5


@pytest.mark.mutation_pin
def test_a_reply_that_wins_is_worth_the_win_value_not_the_game_s_points() -> None:
    """The opponent's last checker on its 2 point, as in the test of a reply that wins, but
    one of my checkers already borne off: its win would score a single point, yet a taught
    base's grades only rank plays, so a winning reply is worth the win value,
    hi + (hi - lo) = 3 for the default base's output (-1 to 1)."""
    position = Position(side({6: 5, 8: 3, 13: 6}), side({2: 1}))
    got = _grader(2)(_view(position, (6, 5)))
    finite = got[np.isfinite(got)]
    assert finite.tolist() == [-3.0, -3.0]


def _candidates(position: Position, dice: tuple[int, int]) -> Candidates:
    from fuzzeval.games.backgammon.game import GAME, State

    return GAME.candidates(State(position, 0, dice))


def test_the_game_s_lookahead_value_is_the_1_ply_value_of_each_play() -> None:
    """``lookahead_value`` (what ``fuzzeval learn --target lookahead`` steps toward): over
    a learned base's values, minus the mean of the opponent's best reply over the 36
    ordered rolls, graded reply by reply here; a play that bears off my last checker is
    worth its points."""
    from fuzzeval.games.backgammon.game import GAME

    rb = load_rulebase(find_rulebase("backgammon_td"))
    value = GAME.lookahead_value(compile_rulebase(rb))
    grades = FuzzyGrades(rb)
    position = random_positions(40, 3)[17]
    cands = _candidates(position, (3, 1))
    options = cands.view.options
    for i in (0, len(options) - 1):
        assert value(cands, i) == pytest.approx(_brute(grades, options[i]), rel=1e-9, abs=1e-12)
    mine = _candidates(Position(side({1: 1, 2: 1}), side({6: 5, 8: 3, 13: 5})), (2, 1))
    done = [i for i, p in enumerate(mine.view.options) if sum(p.me) == 0]
    assert done and [value(mine, i) for i in done] == [1.0] * len(done)


def _tiny_source() -> str:
    """A base of single atoms of the backgammon features over a few random boards."""
    from fuzzeval.formats.yaml_write import rulebase_to_yaml
    from fuzzeval.games.backgammon.features import FEATURES, position_features
    from fuzzeval.learn.conjunctions import conjunction_rulebase

    rows = position_features(Boards.of(random_positions(200, 8)), FEATURE_NAMES)
    return rulebase_to_yaml(conjunction_rulebase("bg_tiny", FEATURES, rows, "value",
                                                 "points a game", 3, max_order=1))


def test_a_learn_toward_the_1_ply_values_is_the_same_with_any_grouping() -> None:
    """Four games an update, played in one group or in two threads: the same conclusions
    to the bit; and not those learned toward the next choice's value."""
    from concurrent.futures import ThreadPoolExecutor

    from fuzzeval.games.backgammon.game import GAME
    from fuzzeval.learn.td_runs import LearnSettings, play_block

    source = _tiny_source()
    start = np.zeros(len(load_rulebase_text(source).rules))
    searched = LearnSettings("backgammon", target="lookahead", block=4, update=4, seed=3)
    alone, _ = play_block(GAME, source, start, searched, 0, None)
    with ThreadPoolExecutor(2) as pool:
        shared, _ = play_block(GAME, source, start, searched, 0, pool)
    assert alone.tobytes() == shared.tobytes() and np.abs(alone).max() > 0
    nxt, _ = play_block(GAME, source, start, dataclasses.replace(searched, target="next"), 0,
                        None)
    assert not np.array_equal(nxt, alone)
