"""Hearts as a fuzzeval game plug-in: four seats, no winner, each seat paid the points it
took (fewer is better), per hand.

A game is one hand by default, as Sturtevant & White (2006) measure it; option
``target=100`` plays hands until a seat's total reaches it, and a seat is then paid its
total over the hands played (still points per hand). Option ``rules=sturtevant-white``
plays their variant (no passing, no restrictions on leads or on points in the first
trick). The deal goes round the table:
seat ``first`` receives the deal's first hand (``(s - first) % 4`` for seat ``s``), so the
four games of a duplicate block give each seat every hand of one deal. A one-hand game
draws its pass direction by chance after the deal (OpenSpiel's first chance node), so a
block passes the same way in each of its games; a longer game passes left, right, across,
then keeps, from its first hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval.extras import OPENSPIEL
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import card_str, cards_of
from fuzzeval.games.hearts.features import FEATURE_NAMES, FEATURES, FloatArray, candidate_features
from fuzzeval.games.hearts.fuzzy import fuzzy_player
from fuzzeval.games.hearts.players import PLAYERS, Policy
from fuzzeval.games.hearts.view import View, view
from fuzzeval.games.options import check_keys
from fuzzeval.games.players import PolicyPlayer
from fuzzeval.play.game import Candidates, Outcome, Payoff, Player

GAME_OPTIONS = ("rules", "target")
RULES = {"standard": rules.STANDARD, "sturtevant-white": rules.STURTEVANT_WHITE}


@dataclass(frozen=True, slots=True)
class State:
    """A game in progress: the hand being played (``hearts.rules``), and the points of each
    hand finished before it (a longer game's units)."""

    hand: rules.State
    past: tuple[rules.Four, ...] = ()


@dataclass(frozen=True)
class Decision:
    """What a Hearts player sees (``Candidates.view``): the seat's view and its legal cards,
    in the order of the candidates."""

    view: View
    cards: tuple[int, ...]


def _options(rules_name: Any, target: Any) -> rules.Options:
    if rules_name not in RULES:
        raise ValueError(f"rules must be one of {', '.join(RULES)} (got {rules_name!r})")
    if isinstance(target, bool) or not isinstance(target, int) or target < 0:
        raise ValueError(f"target is a whole number of points >= 0, 0 for one hand "
                         f"(got {target!r})")
    base = RULES[rules_name]
    return rules.Options(base.passing, base.must_break_hearts, base.no_points_first_trick,
                         base.lead_any_club, target)


@dataclass(frozen=True)
class _Asked:
    """A rule of thumb of ``hearts.players`` asked about a decision: the seat's view and its
    legal cards (``PolicyPlayer``'s policy)."""

    policy: Policy

    def __call__(self, d: Decision, rng: np.random.Generator) -> int:
        return self.policy(d.view, d.cards, rng)


class HeartsGame:
    name = "hearts"
    #: the features of its candidates, with their ranges (what ``fuzzeval learn`` joins)
    features = FEATURES
    seats = 4
    payoff = Payoff("points per hand", higher_is_better=False)
    logged_kinds = frozenset({"pass", "play"})
    unit_name = "hand"
    player_names: tuple[str, ...] = ("random", "heuristic", "fuzzy", "ismcts", "maxn")
    #: a default round robin's players: not ismcts, OpenSpiel's search (slow, and its ties
    #: fall in hash-map order, so its games do not repeat from their seed), nor maxn (slow)
    tournament_players: tuple[str, ...] = ("random", "heuristic", "fuzzy")
    rulebase_player = "fuzzy"
    default_rulebase = "hearts"  # rulebases/hearts.yaml: play and calibration start there
    default_opponent = "heuristic"

    def prepare(self) -> None:
        pass

    def logged_kinds_for(self, **options: Any) -> frozenset[str]:
        """The kinds of decision a game with these options logs: Sturtevant & White's
        variant has no passing, so no passes (what ``fuzzeval learn --monte-carlo`` may name)."""
        opts = _options(options.get("rules", "standard"), options.get("target", 0))
        return self.logged_kinds if opts.passing else frozenset({"play"})

    @property
    def hidden_information(self) -> Any:
        from fuzzeval.games.hearts.sampling import HIDDEN

        return HIDDEN

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> State:
        check_keys("unknown hearts options", options, GAME_OPTIONS)
        opts = _options(options.get("rules", "standard"), options.get("target", 0))
        dealt = rules.deal(rng)
        hands = (dealt[(0 - first) % 4], dealt[(1 - first) % 4], dealt[(2 - first) % 4],
                 dealt[(3 - first) % 4])
        number = 0 if opts.target else int(rng.integers(4))
        return State(rules.new_hand(hands, opts, number))

    def to_move(self, state: State) -> int | None:
        return None if state.hand.phase == "over" else state.hand.to_move

    def candidates(self, state: State) -> Candidates:
        hand = state.hand
        cards = tuple(rules.legal(hand))
        v = view(hand)

        def features(indices: Sequence[int]) -> FloatArray:
            return candidate_features(v, [cards[i] for i in indices])
        return Candidates(hand.kind, tuple(card_str(c) for c in cards), features,
                          FEATURE_NAMES, Decision(v, cards),
                          {"passing": rules.DIRECTION_NAMES[hand.direction],
                           "trick": hand.tricks_done + 1})

    def option_count(self, state: State) -> int:
        """How many cards the seat to move may choose: what maxⁿ counts, without the
        candidates' view and labels."""
        return rules.legal_mask(state.hand).bit_count()

    def apply(self, state: State, choice: int, rng: np.random.Generator) -> State:
        hand = state.hand
        cards = rules.legal(hand)
        if not 0 <= choice < len(cards):
            raise ValueError(f"card choice {choice} is not in 0..{len(cards) - 1}")
        after = rules.apply(hand, cards[choice], rng)
        if after.hand_number != hand.hand_number or (after.phase == "over"
                                                       and hand.options.target):
            done = tuple(a - b for a, b in zip(after.totals, hand.totals, strict=True))
            return State(after, (*state.past, (done[0], done[1], done[2], done[3])))
        return State(after, state.past)

    def unit(self, state: State) -> int:
        """The hand being played: always 0 in a one-hand game."""
        return state.hand.hand_number if state.hand.options.target else 0

    def outcome(self, state: State) -> Outcome:
        hand = state.hand
        units = state.past if hand.options.target else (rules.hand_points(hand),)
        scores = rules.points(hand)
        return Outcome(None, scores, "", 0, units, {},
                       tuple(s / len(units) for s in scores))

    def chance_events(self, before: State | None, after: State) -> list[dict[str, Any]]:
        """Each seat's thirteen cards when a hand is dealt, and its pass direction."""
        new = before is None or after.hand.hand_number != before.hand.hand_number
        if not new or (after.hand.phase == "over" and before is not None):
            return []
        h = after.hand
        return [{"chance": "deal", "seat": s, "cards": [card_str(c) for c in
                                                        cards_of(h.dealt[s])]}
                for s in range(4)] + [{"chance": "pass",
                                       "direction": rules.DIRECTION_NAMES[h.direction]}]

    def payoff_so_far(self, state: State, seat: int) -> float:
        """The points ``seat`` has taken so far in a one-hand game (what TD(λ) learning
        counts as paid on the way); a longer game pays at its end."""
        return float(state.hand.taken[seat]) if state.hand.options.target == 0 else 0.0

    def play_interface(self) -> Any:
        """How a person plays Hearts at a terminal (``fuzzeval play``), and how a stored
        game is told (``fuzzeval history show``)."""
        from fuzzeval.games.hearts.play import HeartsPlay

        return HeartsPlay()

    def make_player(self, name: str, **options: Any) -> Player:
        if name == "ismcts":  # OpenSpiel's bot: refused here without it, not in a game
            OPENSPIEL.require("hearts player 'ismcts'")
            from fuzzeval.games.hearts.ismcts import ismcts_player

            return ismcts_player(**options)
        if name == "fuzzy":  # rulebase=NAME|PATH, the shipped base by default
            return fuzzy_player(**options)
        if name == "maxn":  # Monte-Carlo over the search to the end of the trick
            from fuzzeval.games.hearts.monte_carlo import maxn_player

            return maxn_player(**options)
        if name not in PLAYERS:
            raise ValueError(f"unknown hearts player {name!r} (players: "
                             f"{', '.join(self.player_names)}, sampling)")
        check_keys(f"player {name!r} does not take options", options, ())
        return PolicyPlayer(_Asked(PLAYERS[name]), Decision)


GAME = HeartsGame()
