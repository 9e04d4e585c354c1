"""``hearts_positions``: the perfect-information Hearts that ``fuzzeval learn`` learns the
value of a position in, as Sturtevant & White (2006) learned theirs (all four hands seen,
values only of the positions between two tricks).

A game is one hand. At each position between two tricks (the first lead's included) every
seat in turn is asked for its one option, the position itself, so that each seat's game is
the episode of the positions it went through, with the features of each from its own
view (``positions.POSITION_FEATURES``) and the points it took in between. What is learned
is the value of a position to each seat when the hand is played out so (the points still
to come), the value a search to the end of the trick then compares. Option ``play`` says
who lays the cards: ``heuristic`` (the default), or ``search``, as the paper learned: each
card chosen by maxⁿ to the end of the trick in the one deal (``trick_search``), every seat
valuing the leaves by the values of positions (``position_values``). In a learn those are
the values being learned for the kind of points paid (``learning_game``: the learn's
conclusions of each game) and a fixed base for the other kind, named by option ``queen``
or ``hearts`` (the shipped bases by default); elsewhere both bases. The passes are
``heuristic``'s either way.

Option ``points`` says which points are paid, and so learned: ``queen`` (the Q♠, 13 or
0), ``hearts`` (one a heart), or ``all`` (not with ``play=search``, which sums the two
values); Sturtevant & White learned the Q♠ and the hearts as two values. A moon shot is
not counted: each seat is paid the points it took (the paper learned with the moon off).
Option ``rules`` as Hearts' (``standard``, ``sturtevant-white``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import QUEEN_SPADES
from fuzzeval.games.hearts.game import GAME as HEARTS_GAME
from fuzzeval.games.hearts.players import heuristic_player
from fuzzeval.games.hearts.position_values import (
    HEARTS_BASE,
    QUEEN_BASE,
    PositionValues,
    position_values,
)
from fuzzeval.games.hearts.positions import (
    POSITION_FEATURES,
    POSITION_NAMES,
    FloatArray,
    features_of,
)
from fuzzeval.games.hearts.trick_search import search_deals
from fuzzeval.games.hearts.view import view
from fuzzeval.games.options import check_keys
from fuzzeval.play.game import Candidates, Outcome, Payoff, Player

POINTS = ("all", "queen", "hearts")
PLAY = ("heuristic", "search")
OPTIONS = ("points", "rules", "play", "queen", "hearts")


@dataclass(frozen=True, slots=True)
class PositionState:
    """A hand between two tricks, which points are paid, how many seats have been asked at
    this position, and the values the search lays the cards by (None: ``heuristic`` lays
    them)."""

    hand: rules.State
    points: str = "all"
    asked: int = 0
    search: PositionValues | None = None


def queen_taker(hand: rules.State) -> int:
    """The seat that took the Q♠ in a finished trick, -1 while nobody has."""
    for i, (_seat, card) in enumerate(hand.laid):
        if card == QUEEN_SPADES:
            trick = i // rules.SEATS
            return hand.winners[trick] if trick < len(hand.winners) else -1
    return -1


def counted(hand: rules.State, points: str) -> tuple[int, int, int, int]:
    """Each seat's points of the kind paid (``points``) taken so far, no moon."""
    queen = queen_taker(hand)
    q = tuple(13 * (s == queen) for s in range(rules.SEATS))
    if points == "queen":
        return q[0], q[1], q[2], q[3]
    if points == "hearts":
        h = tuple(t - x for t, x in zip(hand.taken, q, strict=True))
        return h[0], h[1], h[2], h[3]
    return hand.taken


def play_trick(hand: rules.State, rng: np.random.Generator,
               search: PositionValues | None = None) -> rules.State:
    """The hand after the passes still to make and the next trick, laid by ``heuristic``,
    or with ``search`` each card by maxⁿ to the end of the trick over those values (the
    fewest points to the seat laying it, the first legal card on ties)."""
    done = len(hand.winners)
    while hand.phase != "over" and (hand.phase == "pass" or len(hand.winners) == done):
        cards = rules.legal(hand)
        if len(cards) == 1:
            pick = 0
        elif search is None or hand.phase == "pass":
            pick = heuristic_player(view(hand), cards, rng)
        else:
            pick = int(np.argmin(search_deals([hand], search).points[0]))
        hand = rules.apply(hand, cards[pick], rng)
    return hand


@lru_cache(maxsize=4)
def _bases(queen: str, hearts: str) -> PositionValues:
    """``position_values`` of two bases, loaded once a process."""
    return position_values(queen, hearts)


_LAST: list[tuple[rules.State, FloatArray]] = []


def _features(hand: rules.State) -> FloatArray:
    """``features_of`` the position, computed once for the four seats asked in turn."""
    if not _LAST or _LAST[0][0] is not hand:
        _LAST[:] = [(hand, features_of([hand]))]
    return _LAST[0][1]


@dataclass(frozen=True)
class Watch:
    """The one player of this game: each decision has one option, the position."""

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        return 0


class PositionsGame:
    """The game (module doc); ``learning``: the values being learned, which
    ``play=search`` lays the cards by (None outside a learn)."""

    name = "hearts_positions"
    features = POSITION_FEATURES
    seats = 4
    payoff = Payoff("points per hand", higher_is_better=False)
    logged_kinds = frozenset({"position"})
    unit_name = "hand"
    player_names: tuple[str, ...] = ("watch",)
    rulebase_player = ""
    default_rulebase = ""
    default_opponent = "watch"

    def __init__(self, learning: Evaluator | None = None) -> None:
        self.learning = learning

    def learning_game(self, evaluator: Evaluator) -> PositionsGame:
        """This game in a learn: ``play=search`` values the kind of points paid by
        ``evaluator``, the conclusions being learned."""
        return PositionsGame(evaluator)

    def prepare(self) -> None:
        """Nothing to build: the bases are loaded at the first game that needs them."""

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> PositionState:
        check_keys("unknown hearts_positions options", options, OPTIONS)
        points = options.get("points", "all")
        if points not in POINTS:
            raise ValueError(f"points must be one of {', '.join(POINTS)} (got {points!r})")
        search = self._search(points, options)
        start = HEARTS_GAME.new_game(rng, first, rules=options.get("rules", "standard"))
        hand = start.hand
        while hand.phase == "pass":  # the passes, then the first lead's position
            cards = rules.legal(hand)
            hand = rules.apply(hand, cards[heuristic_player(view(hand), cards, rng)], rng)
        return PositionState(hand, points, search=search)

    def _search(self, points: str, options: dict[str, Any]) -> PositionValues | None:
        """The values ``play`` lays the cards by (module doc), None for ``heuristic``."""
        play = options.get("play", "heuristic")
        if play not in PLAY:
            raise ValueError(f"play must be one of {', '.join(PLAY)} (got {play!r})")
        named = [k for k in ("queen", "hearts") if k in options]
        if play == "heuristic":
            if named:
                raise ValueError(f"{', '.join(named)}: the bases the search values positions "
                                 "by need play=search")
            return None
        if points == "all":
            raise ValueError("play=search values the Q♠ and the hearts apart: give "
                             "points=queen or points=hearts")
        fixed = _bases(str(options.get("queen", QUEEN_BASE)),
                       str(options.get("hearts", HEARTS_BASE)))
        if self.learning is None:
            return fixed
        return replace(fixed, **{points: self.learning})

    def to_move(self, state: PositionState) -> int | None:
        return None if state.hand.phase == "over" else state.asked

    def candidates(self, state: PositionState) -> Candidates:
        seat = state.asked

        def rows(indices: Any) -> FloatArray:
            return np.repeat(_features(state.hand)[:, seat], len(indices), axis=0)
        return Candidates("position", ("position",), rows, POSITION_NAMES, state.hand,
                          {"trick": len(state.hand.winners) + 1})

    def apply(self, state: PositionState, choice: int, rng: np.random.Generator
              ) -> PositionState:
        if choice != 0:
            raise ValueError(f"choice {choice}: a position has one option, 0")
        if state.asked < rules.SEATS - 1:
            return replace(state, asked=state.asked + 1)
        return PositionState(play_trick(state.hand, rng, state.search), state.points,
                             search=state.search)

    def unit(self, state: PositionState) -> int:
        return 0

    def outcome(self, state: PositionState) -> Outcome:
        scores = counted(state.hand, state.points)
        return Outcome(None, scores, "", 0, (scores,), {}, tuple(float(s) for s in scores))

    def payoff_so_far(self, state: PositionState, seat: int) -> float:
        """The points of the kind paid that ``seat`` has taken (TD(λ)'s rewards)."""
        return float(counted(state.hand, state.points)[seat])

    def make_player(self, name: str, **options: Any) -> Player:
        if name != "watch":
            raise ValueError(f"unknown hearts_positions player {name!r} (players: watch, "
                             "td): the cards are laid by heuristic")
        check_keys("player 'watch' does not take options", options, ())
        return Watch()


GAME = PositionsGame()
