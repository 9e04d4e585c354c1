"""Hearts for a person at a terminal, and stored games told card by card.

The person sits in seat 0; the seats after it play in turn (seat 1 on its left, seat 2
across, seat 3 on its right). A card is typed as ``fuzzeval hearts card`` reads it
(``QS``, ``TH`` or ``10H``, any case), one at a time, the pass too. What a seat sees comes
from its view (``view.View``): its hand, the trick, the points taken; the other seats'
passes stay hidden from it, and a replay (no viewer) shows every card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from fuzzeval.errors import NotationError
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import POINTS, card_str, cards_of, cards_str, parse_cards
from fuzzeval.games.hearts.fuzzy import FuzzyHearts
from fuzzeval.games.hearts.game import Decision, State
from fuzzeval.games.hearts.monte_carlo import MaxnHearts
from fuzzeval.games.hearts.view import View
from fuzzeval.play.advice import ADVICE_SEED, TOP, Judgement, advice, judge
from fuzzeval.play.game import Advice, Candidates, Player, PlayerHooks, hook
from fuzzeval.play.spec import PlayerSpec

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def _points(taken: rules.Four, names: tuple[str, ...], first: int = 0) -> str:
    """Each seat's points, from seat ``first`` on in the order of play."""
    return ", ".join(f"{names[(first + k) % rules.SEATS]} {taken[(first + k) % rules.SEATS]}"
                     for k in range(rules.SEATS))


def _passing(direction: int) -> str:
    return (f"each seat passes three cards {rules.DIRECTION_NAMES[direction]}"
            if direction != rules.NO_PASS else "no passing")


def _hand(state: rules.State) -> str:
    """"hand 3" in a game to a target; "the hand" in a one-hand game, whose number only
    draws its pass direction (it is not the third hand of anything)."""
    return f"hand {state.hand_number + 1}" if state.options.target else "the hand"


class HeartsPlay:
    """Hearts' ``PlayInterface``."""

    advisors = ("fuzzy", "heuristic")

    spot_fields = (("hand", "my cards, e.g. QS KS 2H 5C"),
                   ("trick", "cards on the trick, the lead first, e.g. 5S,KS"),
                   ("earlier", "cards laid earlier this hand, whole tricks, e.g. 2C,AC,5C,9C"),
                   ("voids", "voids shown, e.g. left:S,across:HD"),
                   ("taken", "points taken by me,left,across,right, e.g. 0,13,0,0"),
                   ("pass", "left, right or across: the first card to pass, from 13"),
                   ("rules", "standard or sturtevant-white"))

    def spot(self, fields: Mapping[str, str]) -> Candidates:
        """A hand as seat 0 sees it, as ``fuzzeval hearts card`` reads it."""
        from fuzzeval.games.hearts.advice import position
        from fuzzeval.games.hearts.game import GAME

        def given(name: str) -> str | None:
            return fields.get(name, "").strip() or None

        return GAME.candidates(State(position(
            fields.get("hand", ""), fields.get("trick", ""), fields.get("earlier", ""),
            fields.get("voids", ""), given("taken"), given("pass"),
            given("rules") or "standard")))


    def start(self, state: State, names: tuple[str, ...]) -> list[str]:
        return [f"seats in the order of play: {', '.join(names)}",
                f"{_hand(state.hand)}: {_passing(state.hand.direction)}"]

    # --- a seat deciding -------------------------------------------------------------------
    def situation(self, candidates: Candidates, names: tuple[str, ...], seat: int
                  ) -> list[str]:
        d = candidates.view
        assert isinstance(d, Decision)
        v = d.view
        hand = f"your hand: {cards_str(cards_of(v.hand))}"
        if v.kind == "pass":
            way = rules.DIRECTION_NAMES[v.direction]
            whom = names[(seat + v.direction) % rules.SEATS]
            to = "" if whom == way else f" to {whom}"  # seats named by where they sit: once
            chosen = f" (chosen: {cards_str(v.passed)})" if v.passed else ""
            return [hand, f"pass three cards {way}{to}{chosen}"]
        broken = "hearts broken" if v.broken else "hearts not broken"
        on = ", ".join(f"{names[(v.leader + i) % rules.SEATS]} {card_str(c)}"
                       for i, c in enumerate(v.trick)) or "you lead"
        if set(d.cards) != set(cards_of(v.hand)):
            hand += f" (you may lay {cards_str(d.cards)})"
        return [f"points taken: {_points(v.taken, names, seat)}; {broken}",
                f"trick {v.tricks_done + 1}: {on}", hand]

    def prompt(self, candidates: Candidates) -> str:
        d = candidates.view
        assert isinstance(d, Decision)
        if d.view.kind == "pass":
            return f"pass a card ({len(d.view.passed) + 1} of {rules.PASS_COUNT})"
        return "lay a card"

    def parse(self, text: str, candidates: Candidates) -> int:
        d = candidates.view
        assert isinstance(d, Decision)
        v = d.view
        verb = "pass" if v.kind == "pass" else "lay"
        cards = parse_cards(text)
        if len(cards) != 1:
            raise NotationError(text.strip(), f"{verb} one card (got {len(cards)})")
        card = cards[0]
        if not v.hand >> card & 1:
            raise NotationError(card_str(card), f"not in your hand "
                                                f"({cards_str(cards_of(v.hand))})")
        if card not in d.cards:
            raise NotationError(card_str(card), f"{_why_not(v, card)}; you may lay "
                                                f"{cards_str(d.cards)}")
        return d.cards.index(card)

    # --- what happened ---------------------------------------------------------------------
    def narrate(self, before: State, choice: int, after: State, names: tuple[str, ...],
                viewer: int | None) -> list[str]:
        h, a = before.hand, after.hand
        seat = h.to_move
        card = rules.legal(h)[choice]
        if h.phase == "pass":
            return self._passed(h, a, card, names, viewer)
        lines = [f"{names[seat]} laid {card_str(card)}"]
        if len(h.trick) < rules.SEATS - 1:
            return lines
        trick = (*h.trick, card)
        winner = rules.trick_winner(h.leader, trick)
        points = sum(POINTS[c] for c in trick)
        taken = list(h.taken)
        taken[winner] += points
        line = f"{names[winner]} took the trick"
        if points:
            line += f" and {points} point{'s' if points > 1 else ''} " \
                    f"[{_points((taken[0], taken[1], taken[2], taken[3]), names)}]"
        lines.append(line)
        if len(h.winners) == rules.TRICKS - 1:
            lines += self._hand_over(h, (taken[0], taken[1], taken[2], taken[3]), a, names)
        return lines

    def _passed(self, h: rules.State, a: rules.State, card: int, names: tuple[str, ...],
                viewer: int | None) -> list[str]:
        """A seat's pass, told once its three cards are chosen (to the viewer: only its
        own and what it receives)."""
        seat = h.to_move
        passed = (*h.passed[seat], card)
        lines = []
        if len(passed) == rules.PASS_COUNT:
            to = names[(seat + h.direction) % rules.SEATS]
            lines.append(f"{names[seat]} passed {cards_str(passed)} to {to}"
                         if viewer in (None, seat) else f"{names[seat]} passed three cards "
                                                        f"to {to}")
        if a.phase == "play" and viewer is not None:
            giver = (viewer - h.direction) % rules.SEATS
            lines.append(f"{names[viewer]} received {cards_str(a.passed[giver])} from "
                         f"{names[giver]}")
        return lines

    def _hand_over(self, h: rules.State, taken: rules.Four, a: rules.State,
                   names: tuple[str, ...]) -> list[str]:
        """The hand's points (a moon shot said), and a longer game's next hand."""
        moon = [s for s in range(rules.SEATS) if taken[s] == rules.MOON]
        points = rules.hand_points(replace(h, taken=taken))
        lines = [f"{names[moon[0]]} shot the moon: {rules.MOON} points to every other seat"
                 ] if moon else []
        lines.append(f"{_hand(h)} over: {_points(points, names)}")
        if a.phase != "over":
            lines.append(f"hand {a.hand_number + 1}: {_passing(a.direction)}; totals "
                         f"{_points(a.totals, names)}")
        return lines

    # --- advice ----------------------------------------------------------------------------
    def advise(self, candidates: Candidates, player: Player, name: str,
               every: bool = False) -> Advice:
        j = judgement(player, candidates, np.random.default_rng(ADVICE_SEED))
        rb = hook(player, PlayerHooks.rulebase)
        if rb is not None:
            name = f"{PlayerSpec.parse(name).name} ({rb.name})"
        return advice(name, j, candidates.labels, "card", None if every else TOP)


def judgement(player: Player, candidates: Candidates, rng: np.random.Generator) -> Judgement:
    """What ``player`` would lay or pass here: the fuzzy player's grade of each card and
    the rules behind its choice, ``maxn``'s mean points of each card over its deals; any
    other player as ``fuzzeval.play.advice`` judges it."""
    if isinstance(player, MaxnHearts):
        return player.judge(candidates, rng)
    if not isinstance(player, FuzzyHearts):
        return judge(player, candidates, rng)
    d = candidates.view
    assert isinstance(d, Decision)
    grades, _ = player.judge(d.view, d.cards)
    choice = player.choose(candidates, rng)
    order = tuple(int(i) for i in np.argsort(-grades, kind="stable"))
    return Judgement(choice, "the rule base's grade of each card",
                     (player.rulebase.output.name,), tuple((float(g),) for g in grades),
                     order, (player.evaluator, player.explain(d.view, d.cards, choice)))


def _why_not(v: View, card: int) -> str:
    """Why a card in the hand may not be laid now (the rule that forbids it)."""
    if v.kind == "play" and v.trick and card & 3 != v.trick[0] & 3:
        return f"you must follow {SUIT_NAMES[v.trick[0] & 3]}"
    if not v.laid:
        return "the first trick is led with the 2C" + (
            " (or a club)" if v.options.lead_any_club else "")
    if v.tricks_done == 0 and POINTS[card]:
        return "no points on the first trick while you hold another card"
    return "hearts are not broken: lead another suit"
