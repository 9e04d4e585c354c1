"""The documented Python API: each package's ``__all__`` names exactly what docs/python-api.md
documents, every name resolves, and importing a game package stays cheap."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

GAME_PACKAGES = ("fuzzeval.games.cribbage", "fuzzeval.games.backgammon")


@pytest.mark.parametrize("package", ("fuzzeval", *GAME_PACKAGES))
def test_every_exported_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__all__ == sorted(module.__all__, key=lambda n: (not n.isupper(), n))
    for name in module.__all__:
        obj = getattr(module, name)
        assert obj is not None
        home = getattr(obj, "__module__", None)
        if home is not None:  # a function or class: defined in this package, not re-exported
            assert home.startswith(package), (name, home)


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
    code = ("import sys, fuzzeval.games.cribbage, fuzzeval.games.backgammon; "
            "print(sorted(m for m in sys.modules if m.startswith('fuzzeval.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert eval(out) == ["fuzzeval.games.backgammon", "fuzzeval.games.cribbage"]
