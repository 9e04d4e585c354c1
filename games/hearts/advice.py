"""One Hearts decision from what a seat can see, and a named player's answer with its
reasons, as plain data (for ``fuzzeval hearts card`` and its ``--json``).

The seat asking is seat 0; left, across and right are seats 1, 2 and 3 (the order of
play). A position is the hand, the cards on the trick (the lead first), the cards laid in
the tricks before (complete tricks), the voids shown, the points each seat has taken, and
the rules; or, with a pass direction, the pass of a 13-card hand. Who laid each card laid
earlier and who won each trick follow from the cards, read backwards from the seat that
leads the current trick; the voids the tricks show are added to those given. Each
inconsistency is refused with a ``NotationError`` naming the token.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from fuzzeval.errors import NotationError
from fuzzeval.games.cards import SUITS
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import (
    POINTS,
    POINTS_MASK,
    card_str,
    cards_of,
    cards_str,
    mask_of,
    parse_cards,
)
from fuzzeval.games.hearts.view import view

SEAT_NAMES = ("me", "left", "across", "right")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
PASS_NAMES = {"left": rules.LEFT, "right": rules.RIGHT, "across": rules.ACROSS}
RULES = {"standard": rules.STANDARD, "sturtevant-white": rules.STURTEVANT_WHITE}


def parse_voids(text: str) -> rules.Four:
    """``left:S,across:HD`` -> each seat's void bits (suit s: bit s); me has none."""
    voids = [0, 0, 0, 0]
    for item in text.replace(" ", "").split(","):
        if not item:
            continue
        seat, sep, suits = item.partition(":")
        if not sep or seat not in SEAT_NAMES[1:] or not suits:
            raise NotationError(item, "a void is SEAT:SUITS, seats left, across, right, "
                                      "e.g. left:S,across:HD")
        for s in suits.upper():
            if s not in SUITS:
                raise NotationError(item, f"unknown suit {s!r} (suits: C D H S)")
            voids[SEAT_NAMES.index(seat)] |= 1 << SUITS.index(s)
    return voids[0], voids[1], voids[2], voids[3]


def parse_taken(text: str) -> rules.Four:
    """``0,13,0,0``: the points taken by me, left, across, right."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        raise NotationError(text, "points taken are four whole numbers, me,left,across,"
                                  "right, e.g. 0,13,0,0")
    a, b, c, d = (int(p) for p in parts)
    return a, b, c, d


def position(hand: Sequence[str] | str, trick: str = "", earlier: str = "",
             voids: str = "", taken: str | None = None, pass_to: str | None = None,
             rules_name: str = "standard") -> rules.State:
    """The state of a hand as seat 0 sees it: the other hands empty (unknown), and the
    cards laid earlier recorded as laid by seat -1 (who laid them is not asked)."""
    if rules_name not in RULES:
        raise NotationError(rules_name, f"rules are {' or '.join(RULES)}")
    options = RULES[rules_name]
    mine = parse_cards(hand if isinstance(hand, str) else list(hand))
    on_trick = parse_cards(trick)
    before = parse_cards(earlier)
    if len(on_trick) > 3:
        raise NotationError(trick, f"a trick holds at most 3 cards before ours "
                                   f"(got {len(on_trick)})")
    seen: dict[int, str] = {}
    for where, cards in (("the hand", mine), ("the trick", on_trick),
                         ("the cards laid earlier", before)):
        for c in cards:
            if c in seen:
                raise NotationError(card_str(c), f"in {seen[c]} and in {where}")
            seen[c] = where
    void_bits = parse_voids(voids)
    if pass_to is not None:
        if pass_to not in PASS_NAMES:
            raise NotationError(pass_to, "the pass goes left, right or across")
        if not options.passing:
            raise NotationError(pass_to, f"{rules_name} rules have no pass")
        if on_trick or before or len(mine) != rules.TRICKS:
            raise NotationError(cards_str(mine), "the pass is from 13 cards, before any "
                                                 "trick")
        hands = (mask_of(mine), 0, 0, 0)
        return rules.State(options, 0, PASS_NAMES[pass_to], hands, hands, ((), (), (), ()),
                           "pass", 0, 0, (), 0, (), (), (0, 0, 0, 0), (0, 0, 0, 0),
                           not options.must_break_hearts)
    if len(before) % 4:
        raise NotationError(earlier, f"cards laid earlier are whole tricks of 4 "
                                     f"(got {len(before)})")
    done = len(before) // 4
    if len(mine) != rules.TRICKS - done:
        raise NotationError(cards_str(mine), f"after {done} tricks a hand holds "
                                             f"{rules.TRICKS - done} cards (got {len(mine)})")
    if done == 0 and not on_trick and 0 not in mine:
        raise NotationError(cards_str(mine), "the first lead is the 2C holder's")
    if done == 0 and on_trick and on_trick[0] != 0 and not (
            options.lead_any_club and on_trick[0] & 3 == 0):
        raise NotationError(card_str(on_trick[0]), "the first trick is led with the 2C"
                                                   + (" (or a club)" if options.lead_any_club
                                                      else ""))
    earned = sum(POINTS[c] for c in before)
    counts = (earned, 0, 0, 0) if taken is None else parse_taken(taken)
    if sum(counts) != earned:
        raise NotationError(taken or "", f"the seats took {sum(counts)} points, the cards "
                                         f"laid earlier hold {earned}")
    laid_mask = mask_of(before) | mask_of(on_trick)
    broken = (not options.must_break_hearts
              or bool(laid_mask & POINTS_MASK))  # a heart or the QS laid breaks them
    leader = -len(on_trick) % 4
    leaders, winners = trick_seats(before, leader)
    laid = tuple(((lead + i) % 4, c) for k, lead in enumerate(leaders)
                 for i, c in enumerate(before[4 * k:4 * k + 4])) + tuple(
        ((leader + i) % 4, c) for i, c in enumerate(on_trick))
    hands = (mask_of(mine), 0, 0, 0)
    return rules.State(options, 0, rules.NO_PASS, hands, hands, ((), (), (), ()), "play", 0,
                       leader, tuple(on_trick), laid_mask, laid, winners,
                       _shown_voids(laid, void_bits, hands[0]), counts, broken)


def trick_seats(before: Sequence[int], leader: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Who led and who won each whole trick of ``before``, read backwards from the seat
    that leads after them (``leader``): a trick's winner leads the next, and its cards say
    where in the trick the winner sat."""
    leaders: list[int] = []
    winners: list[int] = []
    won = leader
    for k in range(len(before) // 4 - 1, -1, -1):
        trick = tuple(before[4 * k:4 * k + 4])
        winners.append(won)
        won = (won - rules.trick_winner(0, trick)) % 4  # its leader, the winner before
        leaders.append(won)
    return tuple(reversed(leaders)), tuple(reversed(winners))


def _shown_voids(laid: Sequence[tuple[int, int]], given: rules.Four, hand: int
                 ) -> rules.Four:
    """The voids given, and those the tricks show: a seat that did not follow suit. A seat
    that lays, or (me) holds, a suit it has shown void in is refused, naming the card."""
    voids = list(given)
    for i, (seat, card) in enumerate(laid):
        if voids[seat] >> (card & 3) & 1:
            who = "I" if seat == 0 else SEAT_NAMES[seat]
            raise NotationError(card_str(card), f"{who} showed a void in "
                                                f"{SUIT_WORDS[card & 3]} before laying it")
        led = laid[i - i % 4][1] & 3
        if card & 3 != led:
            voids[seat] |= 1 << led
    held = [c for c in cards_of(hand) if voids[0] >> (c & 3) & 1]
    if held:
        raise NotationError(card_str(held[0]), f"in my hand, but I did not follow "
                                               f"{SUIT_WORDS[held[0] & 3]} earlier")
    return voids[0], voids[1], voids[2], voids[3]


def advise(state: rules.State, player: Any, name: str, explain: bool = False,
           seed: int = 0) -> dict[str, Any]:
    """The choice of ``player`` (any Hearts player, as ``make_player`` makes it) in
    ``state``: the card to lay, or the three to pass (chosen one at a time, as in a game),
    with what it weighed for the first (the fuzzy player: its grades and their inputs) and,
    asked, the explanation of the first choice."""
    from fuzzeval.games.hearts.fuzzy import FuzzyHearts
    from fuzzeval.games.hearts.game import GAME, State
    from fuzzeval.games.hearts.play import judgement

    rng = np.random.default_rng(seed)
    candidates = GAME.candidates(State(state))
    cards = rules.legal(state)
    out: dict[str, Any] = {"hand": cards_str(cards_of(state.hands[0])),
                           "kind": state.phase, "player": name,
                           "legal": [card_str(c) for c in cards]}
    j = judgement(player, candidates, rng)
    out["how"] = j.how
    if isinstance(player, FuzzyHearts):
        rb = player.rulebase
        feats = player.judge(view(state), cards)[1]
        out["rulebase"] = rb.name
        out["made_by"] = rb.made_by
        out["table"] = [{"card": card_str(cards[i]), rb.output.name: round(j.values[i][0], 6),
                         **{n: round(float(x), 6) for n, x in
                            zip(rb.input_names, feats[i].tolist(), strict=True)}}
                        for i in j.order]
    elif j.columns:
        out["table"] = [{"card": card_str(cards[i]),
                         **{c: round(v, 6) for c, v in zip(j.columns, j.values[i], strict=True)}}
                        for i in j.order]
    if explain and j.explanation is not None:
        out["explanation"] = j.explanation[1].to_dict()
    if state.phase == "pass":
        chosen = [cards[j.choice]]
        while len(chosen) < rules.PASS_COUNT:
            state = rules.apply(state, chosen[-1])
            left = GAME.candidates(State(state))
            chosen.append(rules.legal(state)[player.choose(left, rng)])
        out["pass"] = [card_str(c) for c in chosen]
        out["direction"] = rules.DIRECTION_NAMES[state.direction]
    else:
        out["play"] = card_str(cards[j.choice])
        out["hearts_broken"] = state.broken
        out["trick"] = [card_str(c) for c in state.trick]
    return out
