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


GAMES = ("cribbage", "backgammon", "hearts", "holdem")


def test_one_game_does_not_import_another() -> None:
    for game in GAMES:
        others = [f"fuzzeval.games.{g}" for g in GAMES if g != game]
        for p in (ROOT / "games" / game).rglob("*.py"):
            assert not any(m.startswith(o) for o in others for m in imported_modules(p)), p


#: docs/architecture.md: the base (fuzzeval's top-level modules: errors, resources, ...)
#: <- engine <- formats <- the curated API (fuzzeval/__init__.py, names imported on first
#: use) <- play <- search, learn (not each other) <- plots, interop, cli, studio
LAYERS = {"base": 0, "engine": 1, "formats": 2, "__init__": 3, "play": 4, "search": 5,
          "learn": 5, "plots": 6, "interop": 6, "cli": 6, "studio": 6, "__main__": 6}
TOP = 6
#: imports that reach up (none: a player for any game is a plug-in, found by name)
UPWARD: set[tuple[str, str]] = set()


def layer_of(module: str) -> str:
    """The layer of a fuzzeval module (``fuzzeval.play.match`` -> ``play``; ``fuzzeval``
    itself, its curated names, -> ``__init__``)."""
    part = module.split(".")[1] if "." in module else "__init__"
    return part if part in LAYERS else "base"


def test_fuzzeval_imports_point_down() -> None:
    files = [p for p in (ROOT / "fuzzeval").rglob("*.py")
             if "games" not in p.relative_to(ROOT / "fuzzeval").parts]
    found = set()
    for p in files:
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        mine = layer_of(name)
        for m in imported_modules(p):
            if m.split(".")[0] != "fuzzeval" or m.startswith("fuzzeval.games"):
                continue
            theirs = layer_of(m)
            if LAYERS[theirs] > LAYERS[mine] or (LAYERS[theirs] == LAYERS[mine] != TOP
                                                and theirs != mine):
                found.add((str(p.relative_to(ROOT)), m))
    assert found == UPWARD
    assert layer_of("fuzzeval.learn.tune") == "learn"
    assert layer_of("fuzzeval.engine.evaluator") == "engine"
    assert layer_of("fuzzeval.formats.loading") == "formats"
    assert layer_of("fuzzeval.studio.app") == "studio"
    assert layer_of("fuzzeval.errors") == "base" and layer_of("fuzzeval") == "__init__"


def test_the_studio_calls_the_library_never_the_cli() -> None:
    """The studio sits on top beside the command line, and neither imports the other's
    modules at import time except the command that starts it (fuzzeval/cli/studio.py)."""
    files = list((ROOT / "fuzzeval" / "studio").rglob("*.py"))
    assert len(files) >= 5
    assert {str(p.relative_to(ROOT)): m for p in files for m in imported_modules(p)
            if m.startswith("fuzzeval.cli")} == {}
