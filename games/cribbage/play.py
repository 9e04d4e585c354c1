"""Cribbage for a person at a terminal, and stored games told move by move.

What a seat sees at a prompt comes from its view (its hand, the count, the starter, the
scores); what happened in a move is read off the states before and after it, with the
points named by the scorer (``scoring``: a show is spoken as ``fuzzeval cribbage score``
speaks it) and the running scores checked against the rules' own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from fuzzeval.errors import NotationError
from fuzzeval.games.cribbage import rules
from fuzzeval.games.cribbage.cards import JACK, card_str, cards_str, parse_cards, value
from fuzzeval.games.cribbage.discard import KEEPS, THROWS, CribOwner, evaluate_discards
from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard
from fuzzeval.games.cribbage.pegging.policies import PegView
from fuzzeval.games.cribbage.players import CribbagePlayer, DiscardView, ExhaustiveDiscard
from fuzzeval.games.cribbage.rules import HEELS, PEG, WIN, State
from fuzzeval.games.cribbage.scoring import (
    peg_points,
    score_breakdown,
    show_points,
    spoken_count,
)
from fuzzeval.games.cribbage.weights import Weighting, opponent_weights
from fuzzeval.play.advice import ADVICE_SEED, advice, judge
from fuzzeval.play.advice import TOP as ADVICE_TOP
from fuzzeval.play.game import Advice, Candidates, Player

#: the advisors behind '?': the rule bases (the fuzzy player's discard base, the pegging
#: base) and the exhaustive player (exact discard EVs, greedy pegging)
FUZZY = "fuzzy:pegging=fuzzy"
EXHAUSTIVE = "exhaustive"
TOP = 5  # rows of an advisor's table
_PAIRS = {2: "a pair", 3: "pair royal", 4: "double pair royal"}
_PAIR_POINTS = {2: 2, 3: 6, 4: 12}
_WORDS = ("", "", "", "three", "four", "five", "six", "seven")


def possessive(name: str) -> str:
    return "your" if name == "you" else f"{name}'s"


def scores_text(scores: tuple[int, int], names: tuple[str, str]) -> str:
    return f"[{names[0]} {scores[0]}, {names[1]} {scores[1]}]"


def peg_reason(count_cards: tuple[int, ...], points: int) -> str:
    """What the last card of a count scored, in words ('fifteen and a pair for 4')."""
    total = sum(value(c) for c in count_cards)
    parts = []
    if total in (15, 31):
        parts.append("fifteen" if total == 15 else "thirty-one")
    same = 1
    while same < len(count_cards) and count_cards[-1 - same] // 4 == count_cards[-1] // 4:
        same += 1
    if same >= 2:
        parts.append(_PAIRS[same])
    run = points - 2 * (total in (15, 31)) - _PAIR_POINTS.get(same, 0)
    if run not in (0, 3, 4, 5, 6, 7):
        raise ValueError(f"{cards_str(count_cards)} cannot score {points} in the play")
    if run:
        parts.append(f"a run of {_WORDS[run]}")
    return f"{' and '.join(parts)} for {points}"


class CribbagePlay:
    """Cribbage's ``PlayInterface``."""

    def start(self, state: State, names: tuple[str, str]) -> list[str]:
        return [f"deal 1: {names[state.dealer]} dealt (the crib is the dealer's)"]

    # --- a seat deciding -------------------------------------------------------------------
    def situation(self, candidates: Candidates, names: tuple[str, str], seat: int
                  ) -> list[str]:
        view = candidates.view
        me, them = names[seat], names[1 - seat]
        if isinstance(view, DiscardView):
            crib = "yours" if view.my_crib else possessive(them)
            return [f"scores: {me} {view.scores[0]}, {them} {view.scores[1]}; the crib is "
                    f"{crib}", f"your hand: {cards_str(view.hand)}"]
        assert isinstance(view, PegView)
        count = cards_str(view.count_cards) if view.count_cards else "(a new count)"
        earlier = view.played[:len(view.played) - len(view.count_cards)]
        lines = [f"scores: {me} {view.scores[0]}, {them} {view.scores[1]}; starter "
                 f"{card_str(view.starter)}"]
        if earlier:
            lines.append(f"laid before this count: {cards_str(earlier)}")
        lines.append(f"count {view.count}: {count}")
        hand = f"your hand: {cards_str(view.hand)}"
        if view.options != view.hand:
            hand += f" (you may lay {cards_str(view.options)})"
        return [*lines, hand]

    def prompt(self, candidates: Candidates) -> str:
        if candidates.kind == "discard":
            return "throw two cards to the crib (e.g. " + \
                " ".join(candidates.labels[0].split()[:2]) + ")"
        return "lay a card"

    def parse(self, text: str, candidates: Candidates) -> int:
        view = candidates.view
        if isinstance(view, DiscardView):
            cards = parse_cards(text)
            if len(cards) != 2:
                raise NotationError(text.strip(), f"throw exactly two cards (got {len(cards)})")
            stray = [card_str(c) for c in cards if c not in view.hand]
            if stray:
                raise NotationError(" ".join(stray), f"not in your hand "
                                                     f"({cards_str(view.hand)})")
            return rules.throw_index(view.hand, cards)
        assert isinstance(view, PegView)
        cards = parse_cards(text)
        if len(cards) != 1:
            raise NotationError(text.strip(), f"lay one card (got {len(cards)})")
        card = cards[0]
        if card not in view.hand:
            raise NotationError(card_str(card), f"not in your hand ({cards_str(view.hand)})")
        if card not in view.options:
            raise NotationError(card_str(card), f"would make the count "
                                                f"{view.count + value(card)}, over 31; you "
                                                f"may lay {cards_str(view.options)}")
        return view.options.index(card)

    # --- what happened ---------------------------------------------------------------------
    def narrate(self, before: State, choice: int, after: State, names: tuple[str, str],
                viewer: int | None) -> list[str]:
        if before.phase == "discard":
            return self._discarded(before, choice, after, names, viewer)
        return self._laid(before, choice, after, names)

    def _discarded(self, before: State, choice: int, after: State, names: tuple[str, str],
                   viewer: int | None) -> list[str]:
        seat = before.to_move
        six = before.hands[seat]
        thrown = cards_str([six[i] for i in THROWS[choice]])
        kept = cards_str([six[i] for i in KEEPS[choice]])
        lines = [f"{names[seat]} held {cards_str(six)}; threw {thrown} to the crib, kept "
                 f"{kept}" if viewer in (None, seat) else
                 f"{names[seat]} threw two cards to the crib"]
        if seat == before.dealer:  # both have thrown: the cut
            line = f"starter {card_str(before.starter)}"
            if before.starter // 4 == JACK:
                line += f": two for his heels to {names[before.dealer]} " + \
                    scores_text(after.scores, names)
            _check(after.tally[before.dealer][HEELS] - before.tally[before.dealer][HEELS],
                   2 if before.starter // 4 == JACK else 0)
            lines.append(line)
        return lines

    def _laid(self, before: State, choice: int, after: State, names: tuple[str, str]
              ) -> list[str]:
        seat, other = before.to_move, 1 - before.to_move
        who = names[seat]
        card = rules.playable(before, seat)[choice]
        count_cards = (*before.count_cards, card)
        total = before.count + value(card)
        points = peg_points(count_cards, total)
        counted = before.peg_counts
        running = list(before.scores)
        line = f"{who} laid {card_str(card)}: count {total}"
        if points:
            running[seat] += points if counted else 0
            line += f", {peg_reason(count_cards, points)}"
            line += f" {scores_text((running[0], running[1]), names)}" if counted else \
                " (pegging not counted)"
        lines = [line]
        extra = after.tally[seat][PEG] - before.tally[seat][PEG] - points
        last_card = len(before.in_hand[0]) + len(before.in_hand[1]) == 1
        if extra:
            _check(extra, 1)
            running[seat] += 1 if counted else 0
            what = "the last card" if last_card else "the go"
            go = "" if last_card or not before.in_hand[other] else f"{names[other]}: go; "
            lines.append(f"{go}one for {what} to {who}" + (
                f" {scores_text((running[0], running[1]), names)}" if counted
                else " (pegging not counted)"))
        elif after.phase == "play" and after.to_move == seat and before.in_hand[other]:
            lines.append(f"{names[other]}: go")
        if last_card and max(running) < WIN:
            lines += self._show(before, names, running)
        _check(tuple(running), after.scores)
        if after.phase == "discard":
            lines.append(f"deal {rules.deal_of(after) + 1}: {names[after.dealer]} dealt")
        return lines

    def _show(self, state: State, names: tuple[str, str], running: list[int]) -> list[str]:
        """Pone's hand, the dealer's, the crib, each spoken, until someone reaches 121."""
        pone, dealer = state.pone, state.dealer
        lines = []
        for seat, cards, crib in ((pone, state.hands[pone], False),
                                  (dealer, state.hands[dealer], False),
                                  (dealer, state.crib, True)):
            points = show_points(cards, state.starter, crib=crib)
            running[seat] += points
            spoken = spoken_count(score_breakdown(cards, state.starter, crib=crib))
            what = "crib" if crib else "hand"
            lines.append(f"{possessive(names[seat])} {what} {cards_str(cards)} + "
                         f"{card_str(state.starter)}: {points} ({spoken}) "
                         f"{scores_text((running[0], running[1]), names)}")
            if running[seat] >= WIN:
                break
        return lines

    # --- advice ----------------------------------------------------------------------------
    advisors = (FUZZY, EXHAUSTIVE)

    # --- a decision typed by a person (the studio) -----------------------------------------
    spot_fields = (("hand", "six cards, e.g. 5H 5S JD QC 4S 9C"),
                   ("crib", "whose crib: mine or theirs"))

    def spot(self, fields: Mapping[str, str]) -> Candidates:
        """A six-card hand to throw from, as ``fuzzeval cribbage discard`` reads it."""
        from fuzzeval.games.cribbage.game import discard_candidates

        crib = fields.get("crib", "").strip()
        if crib not in ("mine", "theirs"):
            raise NotationError(crib, "whose crib: mine or theirs")
        six = tuple(sorted(parse_cards(fields.get("hand", ""), 6)))
        return discard_candidates(six, crib == "mine")


    def advise(self, candidates: Candidates, player: Player, name: str,
               every: bool = False) -> Advice:
        view = candidates.view
        top = None if every else TOP
        if not isinstance(player, CribbagePlayer):  # a player of every game
            rng = np.random.default_rng(ADVICE_SEED)
            return advice(name, judge(player, candidates, rng), candidates.labels,
                          top=None if every else ADVICE_TOP)
        if isinstance(view, DiscardView):
            return _discard_advice(view, player, name, top)
        assert isinstance(view, PegView)
        return _peg_advice(candidates, view, player, name, top)


def _discard_advice(view: DiscardView, player: CribbagePlayer, name: str,
                    top: int | None) -> Advice:
    """A cribbage player's throw: the rule base's grades and why, the exact EVs, a
    simulation's means, or what else the player weighs (``advice_many``'s table)."""
    from fuzzeval.games.cribbage.advice import advice_many, discard_how
    from fuzzeval.play.spec import PlayerSpec

    crib: CribOwner = "mine" if view.my_crib else "theirs"
    fz = player.discarder
    if isinstance(fz, ExhaustiveDiscard):
        return _exhaustive_discard(view, fz.weights, name, top)
    spec = PlayerSpec.parse(name)
    out = advice_many(player, spec, [view.hand], crib, seed=ADVICE_SEED)[0]
    rows = out.get("table", [])
    if isinstance(fz, FuzzyDiscard):
        choice = rules.throw_index(view.hand, parse_cards(out["discard"]))
        return Advice(
            f"{spec.name} ({out['rulebase']})", " ".join(out["discard"]),
            ("throw", "keep", "grade"),
            tuple((r["discard"], r["keep"], f"{r['grade']:.3f}") for r in rows[:top]),
            "the rule base's grade of each throw",
            (fz.evaluator, fz.explain(view.hand, view.my_crib, choice)))
    return _table_advice(name, " ".join(out["discard"]), rows, discard_how(player, out), top)


def _table_advice(name: str, choice: str, rows: list[dict[str, Any]], note: str,
                  top: int | None) -> Advice:
    """Advice from a table of dicts (an advice command's rows), its first ``top`` rows
    shown (None: all)."""
    columns = tuple(rows[0]) if rows else ()
    return Advice(name, choice, columns,
                  tuple(tuple(f"{r[c]:.3f}" if isinstance(r[c], float) else str(r[c])
                              for c in columns) for r in rows[:top]), note)


def _peg_advice(candidates: Candidates, view: PegView, player: CribbagePlayer,
                name: str, top: int | None) -> Advice:
    """A cribbage player's card in the play: the pegging rule base's grades and why,
    greedy pegging's points, a simulation's means, or the choice alone."""
    from fuzzeval.games.cribbage.advice import peg_how
    from fuzzeval.games.cribbage.fuzzy import FuzzyPegging
    from fuzzeval.games.cribbage.pegging.advice import peg_advice, peg_view
    from fuzzeval.games.cribbage.sampling import SamplingPegging
    from fuzzeval.play.spec import PlayerSpec

    policy = player.policy
    if not isinstance(policy, (FuzzyPegging, SamplingPegging)) and player.pegging != "greedy":
        rng = np.random.default_rng(ADVICE_SEED)
        return advice(name, judge(player, candidates, rng), candidates.labels, "card",
                      None if top is None else ADVICE_TOP)
    seat = _seat(view)
    data = peg_advice(player, name, seat, ADVICE_SEED)
    rows = data["table"]
    if isinstance(policy, FuzzyPegging):
        return Advice(
            f"{PlayerSpec.parse(name).name} ({data['rulebase']})", data["lay"],
            ("card", "grade", "net points"),
            tuple((r["card"], f"{r['grade']:.3f}", f"{r['net_points']:.2f}")
                  for r in rows[:top]),
            "the pegging rule base's grade of each card",
            (policy.evaluator, policy.explain(peg_view(seat), data["options"].index(
                data["lay"]))))
    if isinstance(policy, SamplingPegging):
        return _table_advice(name, data["lay"], rows, peg_how(player, data), top)
    return Advice(
        f"{name} (greedy pegging)", data["lay"],
        ("card", "points now", "reply risk", "net points"),
        tuple((r["card"], f"{r['points_now']:.0f}", f"{r['reply_risk']:.2f}",
               f"{r['net_points']:.2f}") for r in rows[:top]),
        peg_how(player, data))


def _exhaustive_discard(view: DiscardView, weights: Weighting, name: str,
                        top: int | None) -> Advice:
    crib: CribOwner = "mine" if view.my_crib else "theirs"
    stats = evaluate_discards(view.hand, crib, opponent_weights(weights, view.my_crib))
    order = np.argsort(-stats.ev, kind="stable")[:top]
    rows = tuple((cards_str([view.hand[i] for i in THROWS[t]]),
                  cards_str([view.hand[i] for i in KEEPS[t]]), f"{stats.hand_mean[t]:.2f}",
                  f"{stats.crib_mean[t]:.2f}", f"{stats.ev[t]:.2f}") for t in order)
    sign = "+" if view.my_crib else "-"
    return Advice(name, rows[0][0], ("throw", "keep", "hand", "crib", "EV"), rows,
                  f"exact averages over every starter and opponent throw; EV = hand {sign} "
                  "crib")


def _seat(view: PegView) -> Any:
    """The view as ``fuzzeval cribbage peg`` reads it (card strings)."""
    from fuzzeval.games.cribbage.pegging.advice import Seat

    earlier = view.played[:len(view.played) - len(view.count_cards)]
    mine = [c for c in view.kept if c not in view.hand]
    return Seat(cards_str(view.hand), cards_str(view.count_cards), cards_str(earlier),
                cards_str(mine), card_str(view.starter), "mine" if view.my_crib else "theirs",
                cards_str(view.thrown), view.scores)


def _check(told: object, rules_say: object) -> None:
    """The story must add up to the rules' own state: a RuntimeError if it does not."""
    if told != rules_say:
        raise RuntimeError(f"cribbage narration: told {told}, the rules have {rules_say}")
