"""The documented Python API: each package's ``__all__`` names exactly what docs/python-api.md
documents, every name resolves, and importing a game package stays cheap."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

GAME_PACKAGES = ("fuzzeval.games.cribbage", "fuzzeval.games.backgammon",
                 "fuzzeval.games.hearts", "fuzzeval.games.holdem")


@pytest.mark.parametrize("package", ("fuzzeval", *GAME_PACKAGES))
def test_every_exported_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__all__ == sorted(module.__all__, key=lambda n: (not n.isupper(), n))
    for name in module.__all__:
        obj = getattr(module, name)
        assert obj is not None
        home = getattr(obj, "__module__", None)
        if home is not None:  # a function or class: defined in this package, not re-exported
            # (or the card notation every card game binds from games/cards.py)
            shared = package.startswith("fuzzeval.games.") and home == "fuzzeval.games.cards"
            assert home.startswith(package) or shared, (name, home)


@pytest.mark.parametrize("package", ("fuzzeval", *GAME_PACKAGES))
def test_lazy_exports_are_what_the_package_names(package: str) -> None:
    module = importlib.import_module(package)
    assert sorted(module._WHERE) == sorted(module.__all__)
    assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError, match="no attribute 'discard_tables'"):
        _ = module.discard_tables


def test_documented_names() -> None:
    from fuzzeval.games import backgammon, cribbage

    for name in ("discard_table", "make_player", "score_hand", "discard_features"):
        assert name in cribbage.__all__
    for name in ("make_player", "legal_moves", "from_gnubg", "to_gnubg", "position_id",
                 "from_position_id"):
        assert name in backgammon.__all__
    assert cribbage.score_hand("5H 5C 5S JD", "5D") == 29
    start = backgammon.from_position_id("4HPwATDgc/ABMA")
    assert backgammon.position_id(start) == "4HPwATDgc/ABMA"
    # By hand: the 1 plays 24/23, 8/7 or 6/5 (13/12 is their midpoint), the 3 plays from
    # 24, 13, 8 or 6 (3 x 4 = 12), or one checker takes both: 24/20, 13/9, 8/4, 6/2.
    assert len(backgammon.legal_moves(start, (3, 1))) == 16


def test_importing_a_game_package_does_not_load_its_tables() -> None:
    code = (f"import sys, {', '.join(GAME_PACKAGES)}; "
            "print(sorted(m for m in sys.modules if m.startswith('fuzzeval.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert eval(out) == sorted(GAME_PACKAGES)


def _tipping() -> object:
    import fuzzeval

    return fuzzeval.compile_rulebase(fuzzeval.load_rulebase("tipping"))


@pytest.mark.parametrize(("call", "message"), [
    (lambda f, ev: f.compile_rulebase("tipping"),
     "compile_rulebase(rb): expected RuleBase, got str 'tipping'; read one first: "
     "compile_rulebase(load_rulebase('tipping'))"),
    (lambda f, ev: f.load_rulebase(123),
     "load_rulebase(source): expected str or PathLike, got int 123; give a path or a shipped "
     "rule base's name"),
    (lambda f, ev: f.parse_rulebase(b"name: x"),
     "parse_rulebase(text): expected str, got bytes b'name: x'; give the YAML text; "
     "load_rulebase reads a file"),
    (lambda f, ev: f.check_rulebase(None),
     "check_rulebase(path): expected str or PathLike, got NoneType None"),
    (lambda f, ev: f.dump_rulebase("tipping", "x.yaml"),
     "dump_rulebase(rb): expected RuleBase, got str 'tipping'"),
    (lambda f, ev: f.rulebase_to_yaml(ev),
     "rulebase_to_yaml(rb): expected RuleBase, got Evaluator "),
    (lambda f, ev: ev.grade({"quality": 1}),
     "grade(x): expected numbers, an array of shape (n, 2) with columns quality, service "
     "(got dict {'quality': 1})"),
    (lambda f, ev: ev.strengths("6.5,9.8"),
     "strengths(x): expected numbers, an array of shape (n, 2) with columns quality, service "
     "(got str '6.5,9.8')"),
    (lambda f, ev: ev.explain({"quality": "6.5", "service": 9.8}),
     "explain(x): input 'quality': expected a number, got str '6.5'"),
])
def test_a_wrong_type_is_a_type_error_naming_the_argument(call: object, message: str) -> None:
    """An AttributeError from deep inside ('str' object has no attribute 'rules') named
    nothing the caller wrote."""
    import fuzzeval

    with pytest.raises(TypeError) as caught:
        call(fuzzeval, _tipping())  # type: ignore[operator]
    assert str(caught.value).startswith(message), str(caught.value)


def test_a_table_with_named_columns_is_read_by_its_names() -> None:
    """A DataFrame whose columns were in another order was graded by position: quality 9,
    service 1 where the table said service 9, quality 1."""
    import pandas as pd

    import fuzzeval

    ev = fuzzeval.compile_rulebase(fuzzeval.load_rulebase("tipping"))
    table = pd.DataFrame({"service": [9.0, 2.0], "quality": [1.0, 7.0]})
    assert ev.grade(table).tolist() == ev.grade([[1.0, 9.0], [7.0, 2.0]]).tolist()
    assert ev.grade(table).tolist() != ev.grade(table.to_numpy()).tolist()
    with pytest.raises(ValueError, match=r"^grade\(x\): the table has no column service "):
        ev.grade(pd.DataFrame({"quality": [1.0]}))


@pytest.mark.mutation_pin
def test_lazy_exports_import_on_first_use_and_refuse_other_names() -> None:
    import fuzzeval.engine.evaluator
    from fuzzeval.lazy import lazy_exports

    get, names = lazy_exports("fuzzeval", {"compile_rulebase": "engine.evaluator"})
    assert get("compile_rulebase") is fuzzeval.engine.evaluator.compile_rulebase
    with pytest.raises(AttributeError, match=r"^module 'fuzzeval' has no attribute 'nope'$"):
        get("nope")
    assert "compile_rulebase" in names() and names() == sorted(names())
