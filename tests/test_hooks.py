"""The optional hooks of games and players are declared once (``GameHooks`` and
``PlayerHooks`` in fuzzeval/play/game.py) and looked up only through ``hook``: the list
matches what the shipped games and players offer, no module looks a hook up by a name of
its own, and ``check_game`` refuses a game whose hook breaks its contract."""

from __future__ import annotations

import ast
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from fuzzeval.play.export import LineFormat
from fuzzeval.play.game import (
    BridgeHooks,
    Feature,
    GameHooks,
    HiddenInformationHooks,
    Hook,
    Payoff,
    PlayerHooks,
    hook,
    hooks_of,
    offered,
)
from fuzzeval.play.match import make_player
from fuzzeval.play.registry import load_game
from fuzzeval.play.testing import ConformanceError, check_bridge, check_game, check_player
from tests.toy import ToyGame, ToyHooks, ToyState

ROOT = Path(__file__).resolve().parent.parent

GAME_HOOKS = ("features", "logged_kinds_for", "tournament_players", "play_rulebase",
              "implied_options", "hidden_information", "sampling_rollout", "payoff_so_far",
              "learning_game", "lookahead_value", "option_count", "play_interface",
              "chance_events", "export_formats", "rulebase_measure")
PLAYER_HOOKS = ("decide", "logged_kinds", "logs_features", "rulebase", "estimate", "evaluator",
                "rows", "payoff", "settings")
HIDDEN_HOOKS = ("simulator",)
BRIDGE_HOOKS = ("search_state", "resample")
KINDS = ((GameHooks, GAME_HOOKS), (PlayerHooks, PLAYER_HOOKS),
         (HiddenInformationHooks, HIDDEN_HOOKS), (BridgeHooks, BRIDGE_HOOKS))


def test_each_hook_is_declared_once_under_its_own_name() -> None:
    for kind, names in KINDS:
        hooks = hooks_of(kind)
        assert tuple(h.name for h in hooks) == names
        assert all(getattr(kind, h.name) is h for h in hooks)
        assert all(h.contract and "\n" not in h.contract for h in hooks)


#: the hooks each shipped game offers (docs/plugins.md's table says the same)
OFFERED = {
    "cribbage": ("tournament_players", "play_rulebase", "implied_options", "play_interface",
                 "chance_events", "rulebase_measure"),
    "backgammon": ("features", "play_rulebase", "lookahead_value", "play_interface",
                   "chance_events"),
    "hearts": ("features", "logged_kinds_for", "tournament_players", "hidden_information",
               "payoff_so_far", "option_count", "play_interface", "chance_events"),
    "holdem": ("features", "hidden_information", "sampling_rollout", "play_interface",
               "chance_events", "export_formats", "rulebase_measure"),
    "hearts_positions": ("features", "payoff_so_far", "learning_game"),
}


def test_the_shipped_games_offer_these_hooks_and_every_hook_is_offered() -> None:
    got = {name: tuple(h.name for h in offered(load_game(name), GameHooks)) for name in OFFERED}
    assert got == OFFERED
    assert {h for hooks in got.values() for h in hooks} == set(GAME_HOOKS)


#: a shipped player for each player hook: what it offers
PLAYERS = {
    ("cribbage", "sampling"): ("decide", "logged_kinds"),
    ("cribbage", "fuzzy"): ("decide", "logged_kinds", "rulebase"),
    ("backgammon", "random"): ("logs_features",),
    ("backgammon", "fuzzy"): ("logs_features", "rulebase"),
    ("hearts", "fuzzy"): ("logs_features", "rulebase", "evaluator"),
    ("holdem", "fuzzy"): ("rulebase", "evaluator"),
    ("hearts", "sampling"): ("decide", "settings"),
    ("hearts", "td"): ("estimate", "evaluator", "rows", "payoff"),
}


def test_shipped_players_offer_every_player_hook_in_its_shape() -> None:
    got = {(game, name): check_player(make_player(load_game(game), name), name)
           for game, name in PLAYERS}
    assert got == PLAYERS
    assert {h for hooks in got.values() for h in hooks} == set(PLAYER_HOOKS)


def test_every_game_s_rule_base_player_names_its_rule_base_by_one_hook() -> None:
    bases = {"cribbage": "cribbage_linguistic_tuned", "backgammon": "backgammon_td",
             "hearts": "hearts", "holdem": "holdem", "hearts_positions": ""}
    assert set(bases) == set(OFFERED)
    for name, base in bases.items():
        game = load_game(name)
        assert game.rulebase_player == ("" if not base else game.rulebase_player)
        if base:  # hearts_positions has none: its cards are laid by the game
            rb = hook(make_player(game, game.rulebase_player), PlayerHooks.rulebase)
            assert rb is not None and rb.name == base


#: names the core looks up with getattr/hasattr that are no game's or player's hook
NOT_HOOKS = {
    "help", "commands", "ctx", "finite", "format_message", "exit_code",  # click's objects
    "columns",  # a pandas DataFrame's, for grading one
    "_max_workers", "_client", "_processes", "_result_queue", "_reader",  # executors'
    "F_SETPIPE_SZ", "O_BINARY", "O_NONBLOCK",  # the platform's flags
    "advisors",  # check_game's look at a PlayInterface
}


def literal_lookups(path: Path) -> list[tuple[int, str]]:
    """The lines and names of a file's getattr/hasattr calls with a literal name."""
    return [(node.lineno, node.args[1].value)
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)]


def test_hooks_are_looked_up_only_through_hook() -> None:
    hooks = {name for _, names in KINDS for name in names}
    assert not hooks & NOT_HOOKS
    helper = ROOT / "fuzzeval" / "play" / "game.py"
    core = [p for p in (ROOT / "fuzzeval").rglob("*.py")
            if "games" not in p.relative_to(ROOT / "fuzzeval").parts and p != helper]
    games = list((ROOT / "games").rglob("*.py"))
    assert len(core) > 50 and len(games) > 50
    undeclared = [f"{p.relative_to(ROOT)}:{line}: {name}" for p in core
                  for line, name in literal_lookups(p) if name not in NOT_HOOKS]
    assert undeclared == []
    by_name = [f"{p.relative_to(ROOT)}:{line}: {name}" for p in games
               for line, name in literal_lookups(p)
               if name in hooks]
    assert by_name == []


def test_the_plugin_page_lists_every_hook_with_its_contract_and_games() -> None:
    rows = [line.strip("|").split(" | ")
            for line in (ROOT / "docs" / "plugins.md").read_text().splitlines()
            if line.startswith("| `")]
    tables = {cells[0].strip(" `"): (cells[1], cells[2].strip()) for cells in rows
              if len(cells) == 3}  # the hooks' tables: hook, contract, who offers it
    for h in hooks_of(GameHooks):
        games = ", ".join(g for g, hooks in OFFERED.items() if h.name in hooks)
        assert tables.pop(h.name) == (h.contract, games)
    for h in hooks_of(PlayerHooks):
        assert tables.pop(h.name)[0] == h.contract
    assert tables.pop("simulator") == (HiddenInformationHooks.simulator.contract, "holdem")
    assert tables.pop("search_state") == (BridgeHooks.search_state.contract, "hearts")
    assert tables.pop("resample") == (BridgeHooks.resample.contract, "cribbage")
    assert tables == {}


# Toy games whose one hook breaks its contract.

FEATURE = Feature("value", 0, 10, "the number on offer")


class Hooked(ToyGame):
    """The toy game with a hook of each kind that speaks of states, kept."""

    name = "hooked toy"
    features = (FEATURE,)
    tournament_players = ("random",)
    sampling_rollout = "random"

    @property
    def hidden_information(self) -> Any:
        return ToyHooks(ToyState(0, 0, (1, 2, 3), (0, 0)))

    def payoff_so_far(self, state: ToyState, seat: int) -> float:
        return float(state.sums[seat])

    def option_count(self, state: ToyState) -> int:
        return len(state.offers)

    def chance_events(self, before: ToyState | None, after: ToyState) -> list[dict[str, Any]]:
        return [{"chance": "offers", "numbers": list(after.offers)}]

    def logged_kinds_for(self, **options: Any) -> frozenset[str]:
        return self.logged_kinds


def test_a_game_that_keeps_its_hooks_conforms_and_they_are_reported() -> None:
    report = check_game(Hooked(), games=3, seed=1)
    assert report.hooks == ("features", "logged_kinds_for", "tournament_players",
                            "hidden_information", "sampling_rollout", "payoff_so_far",
                            "option_count", "chance_events")
    assert check_game(ToyGame(), games=1).hooks == ()


class NotText(ToyGame):
    play_rulebase = 3


class Strangers(ToyGame):
    tournament_players = ("random", "ghost")


class UnknownRollout(ToyGame):
    sampling_rollout = "ghost"


class TwiceListed(ToyGame):
    features = (FEATURE, FEATURE)


class Unlisted(ToyGame):
    features = (Feature("other", 0, 1, "not what the candidates carry"),)


class ShortPayoff(ToyGame):
    def payoff_so_far(self, state: ToyState) -> float:
        return 0.0


class TextPayoff(ToyGame):
    def payoff_so_far(self, state: ToyState, seat: int) -> Any:
        return "0"


class Miscounted(ToyGame):
    def option_count(self, state: ToyState) -> int:
        return 2


class ChanceNotListed(ToyGame):
    def chance_events(self, before: ToyState | None, after: ToyState) -> Any:
        return {"chance": "offers"}


class ChanceNotJson(ToyGame):
    def chance_events(self, before: ToyState | None, after: ToyState) -> Any:
        return [{"chance": "offers", "numbers": after.offers, "rng": np.int8(1)}]


class HalfHidden(ToyGame):
    hidden_information = object()


class KindsNotLogged(ToyGame):
    def logged_kinds_for(self, **options: Any) -> frozenset[str]:
        return frozenset({"bid"})


class KindsWithoutOptions(ToyGame):
    def logged_kinds_for(self) -> frozenset[str]:
        return self.logged_kinds


class NoInterface(ToyGame):
    def play_interface(self) -> Any:
        return object()


class ImpliedList(ToyGame):
    def implied_options(self, name: str, options: Any) -> Any:
        return list(options)


class ShortMeasure(ToyGame):
    def rulebase_measure(self, inputs: tuple[str, ...], deals: int) -> None:
        return None


class PlainFormats(ToyGame):
    export_formats = MappingProxyType({"plain": str})


@pytest.mark.parametrize(("game", "message"), [
    (NotText(), "play_rulebase: 3 is not a non-empty string"),
    (Strangers(), "tournament_players: names ghost, not among its players"),
    (UnknownRollout(), "sampling_rollout: 'ghost' is not one of its players"),
    (TwiceListed(), "features: features value are listed twice"),
    (Unlisted(), "features: pick candidates have features value it does not list"),
    (ShortPayoff(), "payoff_so_far: does not take (state, seat)"),
    (TextPayoff(), "payoff_so_far: (state, 0) gives '0', not a number"),
    (Miscounted(), "option_count: gives 2 where there are 3 candidates"),
    (ChanceNotListed(), "chance_events: gives {'chance': 'offers'}, not a list of JSON "
                        "objects"),
    (HalfHidden(), "hidden_information: object has no determinize, finished, value"),
    (KindsNotLogged(), "logged_kinds_for: () gives frozenset({'bid'}), not some of "
                       "logged_kinds ['pick']"),
    (KindsWithoutOptions(), "logged_kinds_for: does not take (**options)"),
    (NoInterface(), "play_interface: () gives a object, not a PlayInterface (it lacks "
                    "start, situation, prompt, parse, narrate, advise, spot, advisors, "
                    "spot_fields)"),
    (ImpliedList(), "implied_options: ('rulebase', {}) gives [], not a mapping"),
    (ShortMeasure(), "rulebase_measure: does not take (inputs, deals, seed, executor, "
                     "cache_dir, progress)"),
    (PlainFormats(), "export_formats: mappingproxy({'plain': <class 'str'>}) is not a "
                     "mapping of names to LineFormat"),
], ids=lambda v: type(v).__name__ if not isinstance(v, str) else "")
def test_a_hook_that_breaks_its_contract_is_refused_naming_it(game: ToyGame,
                                                               message: str) -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(game, games=2, seed=1)
    assert str(caught.value) == f"toy: hook {message}"


def test_a_hook_that_gives_what_json_cannot_write_is_refused() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(ChanceNotJson(), games=1, seed=1)
    assert str(caught.value).startswith("toy: hook chance_events: gives [{'chance': 'offers'")
    assert str(caught.value).endswith("}], not JSON")


class Bragging:
    """A player whose hooks are not what their contracts say."""

    logs_features = "no"

    def choose(self, candidates: Any, rng: np.random.Generator) -> int:
        return 0


def test_a_player_hook_of_the_wrong_shape_is_refused_naming_it() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_player(Bragging(), "bragging")
    assert str(caught.value) == "player bragging: hook logs_features: 'no' is not True or False"


class SlowSimulator(ToyHooks):
    """Hidden-information hooks whose compiled simulator forgets the policies."""

    def simulator(self, candidates: Any) -> Any:
        return None


class SlowHidden(ToyGame):
    @property
    def hidden_information(self) -> Any:
        return SlowSimulator(ToyState(0, 0, (1, 2, 3), (0, 0)))


def test_a_hidden_information_hook_that_breaks_its_contract_is_refused_naming_it() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_game(SlowHidden(), games=1, seed=1)
    assert str(caught.value) == ("toy: hook hidden_information.simulator: does not take "
                                 "(candidates, policies)")


class Unread:
    """A player that names, as its rule base, the name of one."""

    rulebase = "hearts"

    def choose(self, candidates: Any, rng: np.random.Generator) -> int:
        return 0


def test_a_rule_base_that_is_a_name_is_refused() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_player(Unread(), "unread")
    assert str(caught.value) == "player unread: hook rulebase: 'hearts' is not a RuleBase"


class SearchingBridge:
    """An OpenSpiel bridge that turns a state for OpenSpiel's search."""

    game = "toy"

    def decide(self, state: Any, choose: Any) -> int:
        return 0

    def restart(self) -> None:
        pass

    def search_state(self, state: Any) -> Any:
        return state


class LooseBridge(SearchingBridge):
    """A bridge whose resampler takes no generator."""

    def resample(self, state: Any, seat: int) -> Any:
        return state


def test_a_bridge_hook_that_breaks_its_contract_is_refused_naming_it() -> None:
    assert check_bridge(SearchingBridge(), "toy") == ("search_state",)
    with pytest.raises(ConformanceError) as caught:
        check_bridge(LooseBridge(), "toy")
    assert str(caught.value) == "bridge toy: hook resample: does not take (state, seat, rng)"


class _Simulation:
    """What ``hidden_information`` must offer; the sampling settings' stop rule."""

    stop = "trials"

    def determinize(self) -> None: ...

    def finished(self) -> None: ...

    def value(self) -> None: ...


def _two(state: object, seat: object) -> float:
    return 0.0


@pytest.mark.mutation_pin
@pytest.mark.parametrize(("which", "value", "said"), [
    (GameHooks.tournament_players, ("greedy", "random"), ""),
    (GameHooks.tournament_players, (), "() is not a non-empty tuple of names"),
    (GameHooks.tournament_players, ("greedy", ""),
     "('greedy', '') is not a non-empty tuple of names"),
    (GameHooks.features, (Feature("a", 0.0, 1.0, "m"),), ""),
    (GameHooks.features, (1,), "(1,) is not a non-empty tuple of Feature"),
    (GameHooks.export_formats, {}, ""),
    (GameHooks.export_formats, {"acpc": LineFormat(lambda e, n: "", "#")}, ""),
    (GameHooks.payoff_so_far, _two, ""),
    (GameHooks.payoff_so_far, 3, "3 is not callable"),
    (GameHooks.payoff_so_far, lambda state: 0.0, "does not take (state, seat)"),
    (GameHooks.learning_game, lambda evaluator: evaluator, ""),
    (GameHooks.learning_game, lambda: 0, "does not take (evaluator)"),
    (GameHooks.lookahead_value, lambda evaluator: evaluator, ""),
    (GameHooks.lookahead_value, lambda: 0, "does not take (evaluator)"),
    (GameHooks.option_count, len, ""),
    (GameHooks.option_count, lambda: 0, "does not take (state)"),
    (GameHooks.logged_kinds_for, lambda **options: frozenset(), ""),
    (GameHooks.hidden_information, _Simulation(), ""),
    (GameHooks.hidden_information, 3, "int has no determinize, finished, value"),
    (PlayerHooks.payoff, Payoff("points"), ""),
    (PlayerHooks.payoff, "points", "'points' is not a Payoff"),
    (PlayerHooks.settings, _Simulation(), ""),
    (PlayerHooks.settings, 3, "3 has no stop rule (stop)"),
])
def test_each_hook_s_shape_takes_its_contract_and_names_what_breaks_it(
        which: Hook[Any], value: object, said: str) -> None:
    """What ``check_game`` and ``check_player`` say of a hook: nothing when it keeps its
    contract, else what is wrong, in words."""
    assert which.shape(value) == said
