"""The bridge to OpenSpiel's ``cribbage`` (pyspiel, the ``openspiel`` extra): a fuzzeval
cribbage player seated there as a bot (``fuzzeval.interop.openspiel.make_bot``, docs/openspiel.md).

OpenSpiel's card ids are suit * 13 + rank (suits C D H S, ace low); ours are rank * 4 +
suit. Its game: player 0 deals first and the deal alternates; each deal is twelve chance
actions (the first six cards to player 0), the two discards (player 0 first; action
52 + 52 * x + y throws cards x and y, the lower rank first), the starter (a chance
action), then the play, pone leading, a card or ``PASS`` (2756) when none can be laid;
the count starts again at 31 or once both have passed. Its ``returns()`` are the scores
while the game goes on.

The bridge reads only what the seat to move knows (its own six, its throw, the starter,
every card laid, the scores) from the state's history, builds the seat's view as
fuzzeval's rules would show it, and asks the player. Two of OpenSpiel's rules differ from
fuzzeval's (pagat's), and the player plays by fuzzeval's: a four-card flush in the crib
scores 4 there (fuzzeval: a crib flush needs the starter too), and the show is counted in
player order, not pone first (so when both would pass 121 in the show, player 0 wins).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from fuzzeval.games.cribbage import rules
from fuzzeval.games.cribbage.cards import value
from fuzzeval.games.cribbage.discard import THROWS
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.game import Candidates

PASS = 2756
DISCARD_BASE = 52
CHANCE = -1
DEAL = 12  # cards dealt per deal (two players)


def to_openspiel(card: int) -> int:
    """Our card id as OpenSpiel's."""
    return (card % 4) * 13 + card // 4


def from_openspiel(card: int) -> int:
    """OpenSpiel's card id as ours."""
    return (card % 13) * 4 + card // 13


def discard_action(a: int, b: int) -> int:
    """OpenSpiel's action throwing our cards ``a`` and ``b``: 52 + 52 * x + y, the lower
    rank (then suit: our ids' order) first."""
    x, y = (to_openspiel(c) for c in sorted((a, b)))
    return DISCARD_BASE + 52 * x + y


def _deal_start(history: list[tuple[int, int]]) -> tuple[int, int]:
    """The deal in play (from 0) and where its first card is dealt in ``history``."""
    chances = [i for i, (player, _) in enumerate(history) if player == CHANCE]
    deal = (len(chances) - 1) // (DEAL + 1)  # 12 cards and a starter per deal
    return deal, chances[deal * (DEAL + 1)]


def seat_state(state: Any, seat: int) -> rules.State:
    """The state of the deal in play as ``seat`` knows it, in fuzzeval's terms: its own
    cards, its throw, the starter once cut, every card laid, the count and the scores.
    The other seat's cards are left empty and the tallies at zero: a fuzzeval player sees
    the seat's view only (``GAME.candidates``), never those."""
    history = [(pa.player, pa.action) for pa in state.full_history()]
    deal, start = _deal_start(history)
    dealt = [from_openspiel(a) for _, a in history[start:start + DEAL]]
    six = tuple(sorted(dealt[6 * seat:6 * seat + 6]))
    dealer = deal % 2
    scores = tuple(int(r) for r in state.returns())
    thrown: tuple[int, ...] = ()
    starter = -1
    played: list[int] = []
    mine: list[int] = []
    count: list[int] = []
    passed: set[int] = set()
    for player, action in history[start + DEAL:]:
        if player == CHANCE:
            starter = from_openspiel(action)
        elif action == PASS:
            passed.add(player)
            if len(passed) == 2:
                count, passed = [], set()
        elif action >= DISCARD_BASE:
            if player == seat:
                x, y = divmod(action - DISCARD_BASE, 52)
                thrown = tuple(sorted((from_openspiel(x), from_openspiel(y))))
        else:
            card = from_openspiel(action)
            played.append(card)
            count.append(card)
            if player == seat:
                mine.append(card)
            if sum(value(c) for c in count) == 31:
                count, passed = [], set()
    empty: tuple[int, ...] = ()
    kept = tuple(c for c in six if c not in thrown)

    def for_seat(mine_: tuple[int, ...]) -> rules.Hands:
        return (mine_, empty) if seat == 0 else (empty, mine_)

    base = rules.State(scores=(scores[0], scores[1]), dealer=dealer, phase="discard",
                       hands=for_seat(six), crib=(), starter=-1, to_move=seat,
                       in_hand=for_seat(empty), count_cards=(), count=0, played=(), last=-1,
                       deal_points=((0, 0),), tally=((0,) * 4, (0,) * 4))
    if starter < 0:
        return base
    return base.but(phase="play", hands=for_seat(kept), starter=starter,
                    in_hand=for_seat(tuple(c for c in kept if c not in mine)),
                    count_cards=tuple(count), count=sum(value(c) for c in count),
                    played=tuple(played), thrown=for_seat(thrown))


class CribbageBridge:
    """Translates OpenSpiel's cribbage for one bot; for an ISMCTS bot, redeals what its
    seat has not seen (``resample``)."""

    game = "cribbage"

    def __init__(self) -> None:
        self._base: tuple[list[int], Any] | None = None  # the state before this deal

    def restart(self) -> None:
        self._base = None

    def resample(self, state: Any, seat: int, rng: np.random.Generator) -> Any:
        """A state ``seat`` cannot tell from ``state`` (OpenSpiel's cribbage has no
        ResampleFromInfostate; its Python ISMCTSBot takes this one): in the deal in play,
        the other seat's cards not yet laid are drawn again from those ``seat`` has not
        seen, and its throw from those; the deals before are as they were (every card is
        shown at their show)."""
        history = [(pa.player, pa.action) for pa in state.full_history()]
        _, start = _deal_start(history)
        before = [a for _, a in history[:start]]
        if self._base is None or self._base[0] != before:
            base = state.get_game().new_initial_state()
            for action in before:
                base.apply_action(action)
            self._base = (before, base)
        other = 1 - seat
        dealt = [a for _, a in history[start:start + DEAL]]
        rest = history[start + DEAL:]
        laid = [a for p, a in rest if p == other and a < DISCARD_BASE]
        seen = {*dealt[6 * seat:6 * seat + 6], *laid,
                *(a for p, a in rest if p == CHANCE)}
        unseen = [c for c in range(52) if c not in seen]
        drawn = [int(c) for c in rng.choice(unseen, 6 - len(laid), replace=False)]
        six = laid + drawn
        redealt = dealt[:6] + six if seat == 0 else six + dealt[6:]  # player 0's six first
        out = self._base[1].clone()
        for action in redealt:
            out.apply_action(action)
        for player, action in rest:
            if player == other and DISCARD_BASE <= action < PASS:
                x, y = rng.choice(drawn, 2, replace=False)
                action = discard_action(from_openspiel(int(x)), from_openspiel(int(y)))
            out.apply_action(action)
        return out

    def decide(self, state: Any, choose: Callable[[Candidates], int]) -> int:
        legal = state.legal_actions()
        if legal == [PASS]:
            return PASS  # a go: fuzzeval's rules say it without asking the player
        ours = seat_state(state, state.current_player())
        candidates = GAME.candidates(ours)
        if ours.phase == "discard":
            six = ours.hands[ours.to_move]
            actions = [discard_action(six[a], six[b]) for a, b in THROWS]
        else:
            actions = [to_openspiel(c) for c in rules.playable(ours, ours.to_move)]
        if sorted(actions) != sorted(legal):
            raise AssertionError(f"fuzzeval's {len(actions)} options are not OpenSpiel's "
                                 f"{len(legal)} legal actions:\n{state}")
        return actions[choose(candidates)]


def bridge(game: Any) -> CribbageBridge:
    """The bridge for OpenSpiel's ``cribbage`` game (two players only)."""
    players = game.get_parameters().get("players", 2)
    if players != 2:
        raise ValueError(f"fuzzeval's cribbage is for two players (players=2), not "
                         f"players={players}")
    return CribbageBridge()
