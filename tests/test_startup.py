"""Start-up: the command line imports a heavy library only for a command that uses it.

Each case runs in a fresh interpreter and lists ``sys.modules`` after the command; nothing
is timed here (``python benchmarks/startup.py`` measures the CPU seconds). ``--help`` needs
neither numpy nor the engine; advising one hand with the exhaustive player needs numpy, but
not pandas (its table is built without a DataFrame), the engine, numba or the history store.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval import compile_rulebase, load_rulebase
from fuzzeval.engine.rulebase import RuleBase
from tests.conftest import RULEBASES
from tests.strategies import rulebases

HAND = ["5H", "5S", "JD", "QC", "4S", "9C"]
#: never imported by a command that does not use them
HEAVY = {"pandas", "numba", "matplotlib", "scipy", "skfuzzy", "dask", "distributed", "cma",
         "fuzzeval.engine.evaluator", "fuzzeval.play.store", "rich.progress", "pydantic",
         "starlette", "uvicorn", "fuzzeval.studio"}
RUN = """
import json, sys
out, sys.argv = sys.argv[2], ["fuzzeval", *json.loads(sys.argv[1])]
from fuzzeval.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(out, "w") as f:
    json.dump({"code": code, "modules": sorted(sys.modules)}, f)
"""


def imported(tmp_path: Path, args: list[str]) -> tuple[set[str], str]:
    """The modules a fresh process holds after ``fuzzeval ARGS``, and what it printed."""
    out = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", RUN, json.dumps(args), str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["code"] in (0, None), (done.stdout, done.stderr)
    return set(result["modules"]), done.stdout


def loaded(modules: set[str], names: set[str]) -> list[str]:
    """Which of ``names`` (packages or modules) are among ``modules``."""
    return sorted(m for m in modules if m in names or m.split(".")[0] in names)


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["cribbage", "--help"],
                                  ["cribbage", "discard", "--help"], ["match", "--help"]])
def test_help_imports_neither_numpy_nor_the_engine(tmp_path: Path, args: list[str]) -> None:
    modules, shown = imported(tmp_path, args)
    assert shown.strip()
    assert loaded(modules, HEAVY | {"numpy"}) == []


@pytest.mark.parametrize("extra", [[], ["--json"], ["--crib", "theirs", "--weights", "expert"]])
def test_one_exhaustive_discard_imports_numpy_only(tmp_path: Path, extra: list[str]) -> None:
    modules, shown = imported(tmp_path, ["cribbage", "discard", "--crib", "mine", *HAND, *extra])
    assert "9C" in shown
    assert "numpy" in modules
    assert loaded(modules, HEAVY) == []


def test_counting_a_hand_imports_numpy_only(tmp_path: Path) -> None:
    modules, shown = imported(tmp_path, ["cribbage", "score", "5H", "5D", "5S", "JC", "5C"])
    assert "29" in shown
    assert loaded(modules, HEAVY) == []


def test_a_short_match_imports_neither_pandas_nor_scipy(tmp_path: Path) -> None:
    """A match stores its games without a DataFrame, and its interval's t quantile is a
    constant (fuzzeval.stats.T95): pandas and scipy cost a command 0.3 s each to import."""
    modules, shown = imported(tmp_path, ["match", "cribbage", "-p", "greedy", "--opponent",
                                         "random", "-n", "2", "-w", "1", "--db",
                                         str(tmp_path / "m.sqlite"), "--json"])
    assert '"games": 2' in shown
    assert "fuzzeval.play.store" in modules
    assert loaded(modules, {"pandas", "scipy"}) == []


def test_importing_the_package_is_cheap() -> None:
    """``import fuzzeval`` loads no numpy and reads no package metadata; the names still
    resolve on first use."""
    code = ("import sys, fuzzeval; before = sorted(m for m in sys.modules if m == 'numpy' or "
            "m.startswith(('fuzzeval.', 'importlib.metadata'))); "
            "from fuzzeval import compile_rulebase, __version__; "
            "print(before, 'fuzzeval.engine.evaluator' in sys.modules, bool(__version__))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "['fuzzeval.lazy'] True True"


# --- the fuzzy advisor is fast from the first hand ---------------------------------------

FUZZY = ["cribbage", "discard", "--crib", "mine", *HAND, "-p", "fuzzy"]
#: what the fuzzy advice may load: it grades with the engine, from a YAML rule base
FUZZY_HEAVY = HEAVY - {"fuzzeval.engine.evaluator"}


@pytest.mark.parametrize("extra", [[], ["--json"], ["--explain"],
                                   ["-p", "fuzzy:rulebase=cribbage_linguistic"]])
def test_one_fuzzy_discard_loads_no_numba(tmp_path: Path, extra: list[str]) -> None:
    """The grades come from the engine's numpy path: numba's import and first call cost
    about a second of CPU, twenty times the hand's work."""
    modules, shown = imported(tmp_path, [*FUZZY, *extra])
    assert "4S 9C" in shown  # the fuzzy player's throw (docs/results.md's hand)
    assert "fuzzeval.engine.evaluator" in modules
    assert loaded(modules, FUZZY_HEAVY) == []


def test_a_fuzzy_batch_loads_no_numba(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("5H 5S JD QC 4S 9C\n" * 300 + "AC 2D 3H 4S 5C 6D\n")
    modules, shown = imported(tmp_path, ["cribbage", "discard", "--crib", "mine",
                                         "--batch", str(hands),
                                         "--json", "-p", "fuzzy"])
    assert len(shown.splitlines()) == 301
    assert json.loads(shown.splitlines()[0])["discard"] == ["4S", "9C"]
    assert loaded(modules, FUZZY_HEAVY) == []


GRADE_TWICE = """
import sys, numpy as np
from fuzzeval.engine.kernels import numpy_twins
from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard, resolve_rulebase
fz = FuzzyDiscard(resolve_rulebase("cribbage_linguistic_tuned"))
hands = np.sort(np.random.default_rng(1).permuted(np.tile(np.arange(52), (15000, 1)),
                                                  axis=1)[:, :6], axis=1)
mine = np.arange(15000) % 2 == 0
first = fz.grades(hands[:1], [True])
print("numba" in sys.modules, numpy_twins._work)
big = fz.grades(hands, mine)  # 225,000 rows: over the budget
more = numpy_twins.grade_wa(fz.judge(hands, mine)[1].reshape(225000, -1),
                              *fz.evaluator._program(), fz.evaluator.values,
                              float(fz.rulebase.default), True)
print("numba" in sys.modules, numpy_twins._work)
print(first.tobytes() == big[:1].tobytes(), big.tobytes() == more.tobytes())
"""


def test_a_process_turns_to_the_compiled_kernels_after_numpy_work() -> None:
    """The first grades are numpy's (one hand: 15 rows + 200 a call); past NUMPY_WORK the
    compiled kernels take over, with the same grades to the bit."""
    from fuzzeval.engine.kernels.numpy_twins import CALL_ROWS, NUMPY_WORK

    assert (CALL_ROWS, NUMPY_WORK) == (200, 200_000)
    out = subprocess.run([sys.executable, "-c", GRADE_TWICE], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[0] == "False 215.0"  # one hand: 15 rows and a call, numpy's
    assert out[1] == "True 225415.0"  # 225,000 rows and a call: compiled (and counted)
    assert out[2] == "True True"  # the compiled grades are numpy's, bit for bit


def test_a_larger_program_counts_its_candidates_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy runs a program an instruction at a time: a candidate of a program of 2,500
    (instructions and registers) counts ten times, one of 250 or fewer once."""
    from fuzzeval.engine.kernels import jit, numpy_twins

    monkeypatch.setattr(jit, "loaded", lambda: False)
    monkeypatch.setattr(numpy_twins, "_work", 0.0)
    assert numpy_twins.use_numpy(15, 2500)
    assert numpy_twins._work == 2150.0
    assert numpy_twins.use_numpy(15, 112)
    assert numpy_twins._work == 2365.0
    assert not numpy_twins.use_numpy(20_000, 2500)  # 202,000 more: past the budget
    from fuzzeval.engine.evaluator import compile_rulebase
    from fuzzeval.formats.loading import load_rulebase

    sizes = {name: compile_rulebase(load_rulebase(name))._size
             for name in ("cribbage_linguistic_tuned", "hearts", "backgammon_refined")}
    assert sizes == {"cribbage_linguistic_tuned": 112, "hearts": 227,
                     "backgammon_refined": 452}


def test_importing_the_games_loads_no_numba() -> None:
    """numba is imported by a kernel's first call, not by the modules that define kernels."""
    code = ("import sys, fuzzeval.engine.kernels.compiled, fuzzeval.games.cribbage.sampling, "
            "fuzzeval.games.backgammon.moves, fuzzeval.games.backgammon.pubeval; "
            "a = 'numba' in sys.modules; from fuzzeval.engine.kernels import compiled; "
            "import numpy as np; "
            "x = np.array([[1.0, np.nan]]); "
            "print(a, compiled.first_nan(x), compiled.first_nan.py_func(x), "
            "'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "1", "1", "True"]


def test_a_kernel_pickles_as_its_plain_function() -> None:
    """An evaluator sent to a worker process carries its kernel by reference; the copy
    grades the same after the original has been compiled."""
    import pickle

    from fuzzeval.engine.kernels import compiled
    from fuzzeval.engine.kernels.jit import Kernel

    first_nan = compiled.first_nan
    assert isinstance(first_nan, Kernel)
    xs = np.array([[1.0, 2.0], [3.0, np.nan]])
    assert first_nan(xs) == 3  # compiled now
    copy = pickle.loads(pickle.dumps(first_nan))
    assert isinstance(copy, Kernel) and copy is not first_nan
    assert copy.py_func is first_nan.py_func
    assert copy(xs) == 3 and copy(xs[:1]) == -1
    ev = compile_rulebase(load_rulebase(RULEBASES / "cribbage_linguistic_tuned.yaml"))
    row = np.linspace(0, 1, ev.n_inputs)[None, :]
    assert pickle.loads(pickle.dumps(ev)).grade(row).tobytes() == ev.grade(row).tobytes()


def _hands(n: int, seed: int) -> npt.NDArray[np.intp]:
    """``n`` random six-card hands, card ids sorted in each."""
    deals = np.random.default_rng(seed).permuted(np.tile(np.arange(52), (n, 1)), axis=1)
    return np.sort(deals[:, :6], axis=1)


@pytest.mark.parametrize("name", ["cribbage_linguistic_tuned", "cribbage_linguistic",
                                  "cribbage_linguistic_calibrated", "cribbage_expected_points",
                                  "cribbage_expected_points_beginner"])
def test_numpy_grades_are_the_compiled_grades_bit_for_bit(name: str) -> None:
    """Every shipped cribbage discard base (all weighted averages) on 4,000 hands, both
    crib owners: the numpy path (a process's first grades) and the compiled kernel give
    the same doubles, and the same rule strengths (``--explain``)."""
    from fuzzeval.engine.kernels import compiled, numpy_twins
    from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard, resolve_rulebase

    fz = FuzzyDiscard(resolve_rulebase(name))
    ev = fz.evaluator
    xs = fz.judge(_hands(4000, 7), np.arange(4000) % 2 == 0)[1].reshape(60_000, -1)
    assert ev.plan is None
    want = np.empty(len(xs))
    assert compiled.grade_wa(xs, want, *ev._program(), ev.values,
                             float(ev.rulebase.default), True) == -1
    got = numpy_twins.grade_wa(xs, *ev._program(), ev.values, float(ev.rulebase.default),
                                 True)
    assert got.tobytes() == want.tobytes()
    chosen = np.empty(len(xs))  # the kernel the evaluator grades with (a flat base's too)
    assert ev._kernel(xs, chosen, *ev._kernel_args) == -1
    assert chosen.tobytes() == want.tobytes()
    assert len(np.unique(got)) > 1000  # many different grades, not a constant
    rules = np.empty((3000, len(ev.rulebase.rules)))
    assert compiled.strengths(xs[:3000], rules, *ev._program(), ev.rule_rows) == -1
    mine = numpy_twins.strengths(xs[:3000], *ev._program(), ev.rule_rows)
    assert mine.tobytes() == rules.tobytes()


@given(rulebases(defuzzifier=["weighted_average", "weighted_sum"], max_rules=8),
       st.integers(0, 2**32 - 1))
@settings(max_examples=60)
def test_numpy_grades_are_the_compiled_grades_on_random_rulebases(rb: RuleBase,
                                                                  seed: int) -> None:
    """Random rule bases (and, or, not, weights, vertical sides), inputs inside and outside
    the ranges, on the terms' vertices too: the same doubles on both paths."""
    from fuzzeval.engine.kernels import compiled, numpy_twins

    ev = compile_rulebase(rb)
    rng = np.random.default_rng(seed)
    lo = np.array([v.lo for v in rb.inputs])
    width = np.array([v.hi - v.lo for v in rb.inputs])
    xs = lo + width * rng.uniform(-0.3, 1.3, (400, len(lo)))
    xs[::2] = lo + width * rng.integers(0, 21, (200, len(lo))) / 20  # on the grid's vertices
    want = np.empty(len(xs))
    assert compiled.grade_wa(xs, want, *ev._program(), ev.values, float(rb.default),
                             ev.normalise) == -1
    got = numpy_twins.grade_wa(xs, *ev._program(), ev.values, float(rb.default),
                                 ev.normalise)
    assert got.tobytes() == want.tobytes()
    chosen = np.empty(len(xs))  # the kernel the evaluator grades with (a flat base's too)
    assert ev._kernel(xs, chosen, *ev._kernel_args) == -1
    assert chosen.tobytes() == want.tobytes()
    rules = np.empty((len(xs), len(rb.rules)))
    compiled.strengths(xs, rules, *ev._program(), ev.rule_rows)
    assert numpy_twins.strengths(xs, *ev._program(), ev.rule_rows).tobytes() \
        == rules.tobytes()


def test_the_numpy_path_refuses_nan_as_the_kernel_does() -> None:
    from fuzzeval.engine.kernels import numpy_twins

    rb = load_rulebase(RULEBASES / "cribbage_linguistic_tuned.yaml")
    ev = compile_rulebase(rb)
    xs = np.zeros((3, ev.n_inputs))
    xs[2, 1] = np.nan
    assert numpy_twins.first_nan(xs) == 2 * ev.n_inputs + 1
    assert numpy_twins.first_nan(xs[:2]) == -1
    with pytest.raises(ValueError, match=rf"input '{ev.input_names[1]}' is NaN \(row 2\)"):
        ev.grade(xs)


def test_the_four_card_table_is_every_ordered_tuple_counted() -> None:
    """The table counted once per ascending tuple is what was counted, before, for every
    ordered 4-tuple and its 13 starters by ``rank_parts`` (exactly); a tuple counted on its
    own (a process's first hands) reads the same row."""
    from fuzzeval.games.cribbage.features import (
        _five_table,
        _four_card_parts,
        _four_card_table,
    )
    from fuzzeval.games.cribbage.scoring import rank_parts, rank_table

    ranks4 = np.indices((13,) * 4).reshape(4, -1).T
    ranks5 = np.indices((13,) * 5).reshape(5, -1).T
    f5, _, r5 = (p.reshape(13**4, 13) for p in rank_parts(ranks5))
    f4, p4, r4 = rank_parts(ranks4)
    table = _four_card_table()
    assert table.shape == (13**4, 5)
    assert np.array_equal(table[:, :3], np.stack([f4 / 2, p4 / 2, r4], axis=1))
    assert np.array_equal(table[:, 3], (f5 > f4[:, None]).sum(axis=1))
    assert np.array_equal(table[:, 4], (r5 > r4[:, None]).sum(axis=1))
    assert np.array_equal(_five_table(), rank_table().reshape(13**4, 13))
    some = np.random.default_rng(3).integers(0, 13**4, 500)
    assert _four_card_parts(ranks4[some]).tobytes() == table[some].tobytes()
    # 4 5 6 K, counted by hand in any order: fifteens 5+K and 4+5+6, the run 4-5-6;
    # a 3 or 7 lengthens the run and a 4, 5 or 6 doubles it; an A (14 = 4+K), 4 (11 = 5+6),
    # 5 (10 = K), 6 (9 = 4+5), 9 (6) or a ten-card (5) makes a new fifteen
    for kept in ([3, 4, 5, 12], [12, 5, 3, 4]):
        assert table[np.array(kept) @ 13 ** np.arange(3, -1, -1)].tolist() == [2, 0, 3, 9, 5]


FEATURES_TWICE = """
import numpy as np
from fuzzeval.games.cribbage import features
hands = np.sort(np.random.default_rng(5).permuted(np.tile(np.arange(52), (400, 1)),
                                                  axis=1)[:, :6], axis=1)
mine = np.arange(400) % 3 == 0
alone = [features.discard_features(hands[i:i + 1], mine[i:i + 1]) for i in range(100)]
print(features._four_card_table.cache_info().currsize, features._counted_alone)
tabled = features.discard_features(hands, mine)
print(features._four_card_table.cache_info().currsize,
      np.concatenate(alone).tobytes() == tabled[:100].tobytes())
"""


def test_features_are_the_same_before_and_after_the_table() -> None:
    """A fresh process counts its first hands' kept fours on their own, then builds the
    table: the features are the same doubles either way."""
    out = subprocess.run([sys.executable, "-c", FEATURES_TWICE], capture_output=True,
                         text=True, check=True).stdout.split("\n")
    assert out[0] == "0 1500"  # 100 hands x 15 throws, counted one hand at a time
    assert out[1] == "1 True"
