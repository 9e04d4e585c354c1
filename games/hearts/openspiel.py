"""The bridge that seats a fuzzeval Hearts player in OpenSpiel's ``hearts`` as a bot
(``fuzzeval.interop.openspiel.make_bot``, entry point group ``fuzzeval.openspiel``,
docs/openspiel.md), and the pyspiel states of our hands that ``hearts.ismcts`` hands to
OpenSpiel's search. It stands on the plug-in (``hearts.game``); the agreement check with
OpenSpiel's rules is a script (``hearts.scripts.check_openspiel``).

Card ids are the same on both sides (rank * 4 + suit). OpenSpiel's first chance node is the
pass direction (our LEFT/ACROSS/RIGHT/NO_PASS numbers are its numbers); then deal action
``c`` gives card c to seat ``(cards dealt so far) % 4``. OpenSpiel's history is replayed
by fuzzeval's rules (so every legal-move list is compared once more), and the player sees
the seat's view only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any

from fuzzeval.games.hearts.cards import cards_of, cards_str
from fuzzeval.games.hearts.game import GAME
from fuzzeval.games.hearts.game import State as GameState
from fuzzeval.games.hearts.record import choices
from fuzzeval.games.hearts.rules import (
    PASS_CYCLE,
    SEATS,
    TRICKS,
    Options,
    State,
    apply,
    legal,
    new_hand,
)
from fuzzeval.play.game import Candidates

#: OpenSpiel's parameters that fuzzeval's rules have no option for, at the value they play
FIXED = {"avoid_all_tricks_bonus": False, "can_lead_hearts_instead_of_qs": False,
         "jd_bonus": False, "qs_breaks_hearts": True}


def options_of(params: dict[str, Any]) -> Options:
    """fuzzeval's rules for an OpenSpiel ``hearts`` game's parameters; a ValueError names
    the parameters it cannot play."""
    wrong = sorted(k for k, v in FIXED.items() if params.get(k, v) != v)
    if wrong:
        raise ValueError("fuzzeval's hearts plays " + ", ".join(
            f"{k}={str(FIXED[k]).lower()}" for k in wrong) + ", not " + ", ".join(
            f"{k}={str(params[k]).lower()}" for k in wrong))
    return Options(passing=params.get("pass_cards", True),
                   must_break_hearts=params.get("must_break_hearts", True),
                   no_points_first_trick=params.get("no_pts_on_first_trick", True),
                   lead_any_club=params.get("can_lead_any_club", False))


@lru_cache(maxsize=8)
def _game(name: str) -> Any:
    import pyspiel

    return pyspiel.load_game(name)


def _deal(name: str, direction: int, dealt: tuple[int, ...]) -> Any:
    """A pyspiel state with the pass direction chosen and ``dealt`` dealt (seat order)."""
    state = _game(name).new_initial_state()
    state.apply_action(direction)
    cards = [cards_of(h) for h in dealt]
    for i in range(TRICKS):
        for seat in range(SEATS):
            state.apply_action(cards[seat][i])
    return state


def pyspiel_hand(state: State) -> Any:
    """A pyspiel state at the start of our hand: the direction chosen, our deal dealt."""
    return _deal(state.options.openspiel(), state.direction, state.dealt)


def pyspiel_position(hand: State) -> tuple[Any, int]:
    """The pyspiel state of ``hand`` for its seat to move, and the seat it sits at there:
    its own seat in the play; seat 0, the deal rotated, in the pass."""
    name = hand.options.openspiel()
    me = hand.to_move
    if hand.phase == "pass":
        dealt = tuple(hand.dealt[(me + j) % SEATS] for j in range(SEATS))
        state = _deal(name, hand.direction, dealt)
        for card in hand.passed[me]:
            state.apply_action(card)
        return state, 0
    state = _deal(name, hand.direction, hand.dealt)
    for card in choices(hand):
        state.apply_action(card)
    return state, me


def ismcts_card(position: Any, seed: int, simulations: int, uct_c: float,
                rollouts: int) -> int:
    """The card OpenSpiel's C++ ISMCTS bot (random-rollout evaluator, both seeded with
    ``seed``, the most visited card) plays at ``position`` (``hearts.ismcts``)."""
    import pyspiel

    bot = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(rollouts, seed), uct_c,
                            simulations, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                            False, False)
    return int(bot.step(position))


class HeartsBridge:
    """Translates OpenSpiel's hearts for one bot: the hand replayed by fuzzeval's rules
    from OpenSpiel's history (the direction, the 52 cards dealt, every card passed or
    laid), the last replay kept so that each step replays only the new actions.

    OpenSpiel's ``pass_cards=false`` still draws a pass direction at its first chance node
    (each with probability 1/4), and a hand whose direction is not 0 is passed: the bridge
    plays the hand OpenSpiel plays, passing included."""

    game = "hearts"

    def __init__(self, options: Options) -> None:
        self._options = options
        self._seen: tuple[list[int], State] | None = None

    def restart(self) -> None:
        self._seen = None

    def hand(self, state: Any) -> State:
        """The hand as fuzzeval's rules hold it at OpenSpiel's ``state``."""
        history = [int(a) for a in state.history()]
        done = 0
        if self._seen is not None and history[:len(self._seen[0])] == self._seen[0]:
            done, ours = len(self._seen[0]), self._seen[1]
        else:
            dealt = [0, 0, 0, 0]
            for i, card in enumerate(history[1:1 + 52]):
                dealt[i % SEATS] |= 1 << card
            # OpenSpiel draws a direction and passes even with pass_cards=false: so do we
            options = replace(self._options, passing=True) if history[0] else self._options
            number = PASS_CYCLE.index(history[0]) if options.passing else 0
            ours = new_hand((dealt[0], dealt[1], dealt[2], dealt[3]), options, number)
            done = 53
        for card in history[done:]:
            ours = apply(ours, card)
        self._seen = (history, ours)
        return ours

    def decide(self, state: Any, choose: Callable[[Candidates], int]) -> int:
        ours = self.hand(state)
        cards = legal(ours)
        if ours.to_move != state.current_player() or cards != sorted(state.legal_actions()):
            raise AssertionError(f"fuzzeval: seat {ours.to_move} may play "
                                 f"{cards_str(cards)}; OpenSpiel: seat "
                                 f"{state.current_player()} "
                                 f"{cards_str(state.legal_actions())}\n{state}")
        return cards[choose(GAME.candidates(GameState(ours)))]

    def search_state(self, state: Any) -> Any:
        """Where OpenSpiel's ISMCTSBot can decide for the seat to move: ``state`` itself,
        but in the pass for a seat other than 0 the deal turned so that the seat passes
        first (OpenSpiel's resampler crashes for a seat whose passer has passed; see
        ``hearts.ismcts``). A pass card is the same action either way."""
        ours = self.hand(state)
        if ours.phase != "pass" or ours.to_move == 0:
            return state
        turned, seat = pyspiel_position(ours)
        assert turned.current_player() == seat
        return turned


def bridge(game: Any) -> HeartsBridge:
    """The bridge for OpenSpiel's ``hearts`` (the variants ``options_of`` takes)."""
    return HeartsBridge(options_of(game.get_parameters()))
