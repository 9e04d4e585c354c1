"""Dependencies point down: the engine never imports a game, and games reach each other
only through the engine's registry."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    """Absolute module names a file imports (relative imports are inside its package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_engine_never_imports_a_game() -> None:
    core = [p for p in (ROOT / "fuzzeval").rglob("*.py")
            if "games" not in p.relative_to(ROOT / "fuzzeval").parts]
    assert len(core) > 20
    offenders = {str(p.relative_to(ROOT)): sorted(m for m in imported_modules(p)
                                                  if m.split(".")[:2] == ["fuzzeval", "games"]
                                                  or m.split(".")[0] == "games")
                 for p in core}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_games_import_by_their_installed_name_only() -> None:
    """A bare ``import games...`` works only in a checkout; the wheel has fuzzeval.games."""
    files = list((ROOT / "games").rglob("*.py")) + list((ROOT / "tests").rglob("*.py"))
    files += list((ROOT / "benchmarks").rglob("*.py"))
    bare = {str(p.relative_to(ROOT)) for p in files
            if any(m.split(".")[0] == "games" for m in imported_modules(p))}
    assert bare == set()


def test_one_game_does_not_import_another() -> None:
    for game in ("cribbage", "backgammon"):
        other = {"cribbage": "backgammon", "backgammon": "cribbage"}[game]
        for p in (ROOT / "games" / game).rglob("*.py"):
            assert not any(m.startswith(f"fuzzeval.games.{other}") for m in imported_modules(p)), p
