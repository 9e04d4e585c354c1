"""Heads-up limit hold'em as a fuzzeval game plug-in: two seats, one hand a game, each seat
paid the chips it won in small bets (10 chips), without a winner (a hand pays chips).

The seat ``first`` to move has the button (position 1: it posts the small blind and acts
first preflop), so the button goes round the table from game to game. The nine cards are
drawn from the chance stream when the hand starts, by position: position 0's two, position
1's two, then the board (OpenSpiel's order). The two games of a duplicate block share
their chance stream, so the same cards go to the same positions while the seats change
places: each seat plays each hand of a deal, in the same position the other played it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.acpc import LOG_FORMAT
from fuzzeval.games.holdem.cards import DECK, card_str, cards_str
from fuzzeval.games.holdem.features import FEATURE_NAMES, FEATURES, decision_features
from fuzzeval.games.holdem.players import PLAYERS, Decision
from fuzzeval.games.options import check_keys
from fuzzeval.games.players import PolicyPlayer
from fuzzeval.play.export import LineFormat
from fuzzeval.play.game import Candidates, FloatArray, Outcome, Payoff, Player

#: the words for each ACPC action, facing a bet or not
_WORDS = {("f", True): "fold", ("c", False): "check", ("c", True): "call",
          ("r", False): "bet", ("r", True): "raise"}


@dataclass(frozen=True, slots=True)
class State:
    """A hand in progress: its deal (by position), the betting, and the seat with the
    button (position 1)."""

    deal: rules.Deal
    betting: rules.Betting
    button: int

    def seat(self, position: int) -> int:
        """The seat playing ``position``."""
        return self.button if position == rules.BUTTON else 1 - self.button

    def position(self, seat: int) -> int:
        return rules.BUTTON if seat == self.button else rules.BIG


def action_word(b: rules.Betting, action: str) -> str:
    """How a player says an ACPC action here: fold, check, call, bet or raise."""
    return _WORDS[action, bool(b.to_call) or (b.round == 0 and action == "r")]


def deal_cards(rng: np.random.Generator) -> rules.Deal:
    """Nine distinct cards: the two hole cards of positions 0 and 1, then the board."""
    return rules.deal_of(rng.permutation(DECK)[:9].tolist())


def decision_candidates(view: Decision) -> Candidates:
    """The options of the seat deciding ``view``: in a game, or a spot written by hand
    (``fuzzeval holdem act``)."""
    b = view.betting

    def features(indices: Sequence[int]) -> FloatArray:  # computed when asked for
        rows: FloatArray = decision_features(view)[list(indices)]
        return rows
    return Candidates("bet", tuple(action_word(b, a) for a in view.actions), features,
                      FEATURE_NAMES, view, {"round": rules.ROUND_NAMES[b.round],
                                            "betting": str(b), "hole": cards_str(view.hole),
                                            "board": cards_str(view.board)})


class HoldemGame:
    name = "holdem"
    seats = 2
    payoff = Payoff("small bets per hand")
    logged_kinds = frozenset({"bet"})
    unit_name = "hand"
    player_names: tuple[str, ...] = (*PLAYERS, "fuzzy")
    rulebase_player = "fuzzy"
    default_rulebase = "holdem"
    default_opponent = "acpc-example"
    #: the sampling player's playouts: Billings et al. (1999)'s simulations, the ProbTriple in
    sampling_rollout = "fuzzy"
    #: the features of its candidates (``games/holdem/features.py``)
    features = FEATURES
    #: ``fuzzeval history export --format acpc``: a hand a line, as the ACPC dealer logs it
    export_formats: Mapping[str, LineFormat] = MappingProxyType({"acpc": LOG_FORMAT})

    def prepare(self) -> None:
        pass

    @property
    def hidden_information(self) -> Any:
        """Billings et al. (1999)'s selective sampling: the opponent's cards from its modelled
        range."""
        from fuzzeval.games.holdem.sampling import HIDDEN

        return HIDDEN

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> State:
        check_keys("unknown holdem options", options, ())
        return State(deal_cards(rng), rules.START, first)

    def to_move(self, state: State) -> int | None:
        position = state.betting.to_move
        return None if position is None else state.seat(position)

    def candidates(self, state: State) -> Candidates:
        b = state.betting
        position = b.to_move
        assert position is not None
        return decision_candidates(Decision(position, state.deal.holes[position],
                                            state.deal.board_at(b.round), b, rules.legal(b)))

    def apply(self, state: State, choice: int, rng: np.random.Generator) -> State:
        actions = rules.legal(state.betting)
        if not 0 <= choice < len(actions):
            raise ValueError(f"action choice {choice} is not in 0..{len(actions) - 1}")
        return State(state.deal, rules.act(state.betting, actions[choice]), state.button)

    def unit(self, state: State) -> int:
        return 0

    def outcome(self, state: State) -> Outcome:
        won = rules.chips(state.deal, state.betting)
        scores = (won[state.position(0)], won[state.position(1)])
        return Outcome(None, scores, "", 0, (scores,), {},
                       (scores[0] / rules.SMALL_BET, scores[1] / rules.SMALL_BET))

    def chance_events(self, before: State | None, after: State) -> list[dict[str, Any]]:
        """Each seat's hole cards when the hand starts; the flop, turn and river as they
        come."""
        if before is None:
            return [{"chance": "deal", "seat": s, "position": after.position(s),
                     "cards": [card_str(c) for c in after.deal.holes[after.position(s)]]}
                    for s in range(2)]
        b = after.betting
        if b.over or b.round == before.betting.round:
            return []
        lo, hi = rules.BOARD_SIZE[b.round - 1], rules.BOARD_SIZE[b.round]
        return [{"chance": rules.ROUND_NAMES[b.round],
                 "cards": [card_str(c) for c in after.deal.board[lo:hi]]}]

    def play_interface(self) -> Any:
        """How a person plays hold'em at a terminal (``fuzzeval play``), and how a stored
        hand is told (``fuzzeval history show``)."""
        from fuzzeval.games.holdem.play import HoldemPlay

        return HoldemPlay()

    def rulebase_measure(self, inputs: tuple[str, ...], deals: int, seed: int,
                         executor: Any = None, cache_dir: Any = None,
                         progress: Callable[[int], None] | None = None) -> Any:
        """Small bets a hand of the fuzzy player against the triple as written on ``deals``
        duplicate deals (``games/holdem/measure.py``); None for inputs that are not
        hold'em features."""
        if any(n not in FEATURE_NAMES for n in inputs):
            return None
        from fuzzeval.games.holdem.measure import PANEL, holdem_measure

        return holdem_measure(self, PANEL, deals, seed, progress)

    def make_player(self, name: str, **options: Any) -> Player:
        if name == "fuzzy":  # rulebase=NAME|PATH, temperature=T
            from fuzzeval.games.holdem.fuzzy import fuzzy_player

            check_keys("player 'fuzzy' does not take options", options,
                       ("rulebase", "temperature"))
            return fuzzy_player(**options)
        if name not in PLAYERS:
            raise ValueError(f"unknown holdem player {name!r} (players: "
                             f"{', '.join(self.player_names)})")
        check_keys(f"player {name!r} does not take options", options, ())
        return PolicyPlayer(PLAYERS[name], Decision)


GAME = HoldemGame()
