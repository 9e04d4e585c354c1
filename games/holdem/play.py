"""Hold'em's ``PlayInterface``: a hand told action by action (``fuzzeval history show``)
and played by a person at the terminal (``fuzzeval play holdem``).

A person types an action as a word (fold, check, call, bet, raise) or its ACPC letter
(f, c, r). The opponent's hole cards stay hidden from the person until a showdown; a
replay (no viewer) shows both hands at the start.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from fuzzeval.errors import NotationError
from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.cards import cards_str
from fuzzeval.games.holdem.evaluate import hand_class, hand_rank
from fuzzeval.games.holdem.fuzzy import TRIPLE, FuzzyPlayer, triple
from fuzzeval.games.holdem.game import State, action_word
from fuzzeval.games.holdem.players import Decision
from fuzzeval.play.advice import ADVICE_SEED, TOP, Judgement, advice, judge
from fuzzeval.play.game import Advice, Candidates, Player, PlayerHooks, hook
from fuzzeval.play.spec import PlayerSpec

POSITIONS = ("big blind", "button")
PAST = {"fold": "folded", "check": "checked", "call": "called", "bet": "bet",
        "raise": "raised"}


class HoldemPlay:
    """Hold'em's ``PlayInterface``."""

    def start(self, state: State, names: tuple[str, str]) -> list[str]:
        button, big = state.seat(rules.BUTTON), state.seat(rules.BIG)
        return [f"button (small blind 5, acts first): {names[button]}; big blind (10): "
                f"{names[big]}"]

    def situation(self, candidates: Candidates, names: tuple[str, str], seat: int
                  ) -> list[str]:
        d = candidates.view
        assert isinstance(d, Decision)
        b = d.betting
        board = cards_str(d.board, " ") or "none"
        return [f"you ({POSITIONS[d.position]}) hold {cards_str(d.hole, ' ')}; board "
                f"{board} ({rules.ROUND_NAMES[b.round]})",
                f"pot {b.pot}, to call {b.to_call}, bets this round {b.bets} of "
                f"{rules.MAX_BETS}; betting so far: {str(b) or 'none'}"]

    def prompt(self, candidates: Candidates) -> str:
        d = candidates.view
        assert isinstance(d, Decision)
        return f"{', '.join(candidates.labels)} ({', '.join(d.actions)})"

    def parse(self, text: str, candidates: Candidates) -> int:
        d = candidates.view
        assert isinstance(d, Decision)
        word = text.strip().lower()
        for i, (label, letter) in enumerate(zip(candidates.labels, d.actions, strict=True)):
            if word in (label, letter):
                return i
        raise NotationError(text.strip(), f"not an action here (legal: "
                                          f"{', '.join(candidates.labels)})")

    def narrate(self, before: State, choice: int, after: State, names: tuple[str, str],
                viewer: int | None) -> list[str]:
        b = before.betting
        position = b.to_move
        assert position is not None
        action = rules.legal(b)[choice]
        lines = []
        if viewer is None and b == rules.START:
            lines.append("hole cards: " + ", ".join(
                f"{names[s]} {cards_str(before.deal.holes[before.position(s)])}"
                for s in (0, 1)))
        seat = before.seat(position)
        lines.append(f"{names[seat]} ({POSITIONS[position]}) {PAST[action_word(b, action)]}")
        a = after.betting
        if not a.over and a.round != b.round:
            lines.append(f"{rules.ROUND_NAMES[a.round]}: "
                         f"{cards_str(after.deal.board_at(a.round), ' ')} (pot {a.pot})")
        if a.over:
            lines += self._settle(after, names)
        return lines

    def _settle(self, state: State, names: tuple[str, str]) -> list[str]:
        b = state.betting
        won = rules.chips(state.deal, b)
        if b.folded is not None:
            winner = state.seat(1 - b.folded)
            return [f"{names[winner]} took the pot of {b.pot} chips ({won[1 - b.folded]:+d})"]
        lines = []
        for s in (0, 1):
            hole = state.deal.holes[state.position(s)]
            rank = hand_rank((*hole, *state.deal.board))
            lines.append(f"showdown: {names[s]} {cards_str(hole, ' ')}, {hand_class(rank)}")
        if won == (0, 0):
            return [*lines, f"the pot of {b.pot} chips was split"]
        winner = state.seat(0 if won[0] > 0 else 1)
        return [*lines, f"{names[winner]} took the pot of {b.pot} chips ({max(won):+d})"]

    advisors = ("fuzzy", "sampling:trials=200")

    spot_fields = (("hole", "my hole cards, e.g. AsKd"),
                   ("board", "the board so far, e.g. 2c3d4h (none preflop)"),
                   ("betting", "the betting so far, ACPC's f c r, rounds split by /, e.g. crc/"))

    def spot(self, fields: Mapping[str, str]) -> Candidates:
        """A spot, as ``fuzzeval holdem act`` reads it."""
        from fuzzeval.games.holdem.game import decision_candidates
        from fuzzeval.games.holdem.spot import read_spot

        return decision_candidates(read_spot(fields.get("hole", ""), fields.get("board", ""),
                                             fields.get("betting", "")))


    def advise(self, candidates: Candidates, player: Player, name: str,
               every: bool = False) -> Advice:
        j = judgement(player, candidates, np.random.default_rng(ADVICE_SEED))
        rb = hook(player, PlayerHooks.rulebase)
        if rb is not None:
            name = f"{PlayerSpec.parse(name).name} ({rb.name})"
        return advice(name, j, candidates.labels, "action", None if every else TOP)


def judgement(player: Player, candidates: Candidates, rng: np.random.Generator,
              chosen: int | None = None) -> Judgement:
    """What ``player`` would do here: the fuzzy triple's likeliest action (or ``chosen``),
    each action's grade and probability, and the rules behind the grade; any other player
    as ``fuzzeval.play.advice`` judges it."""
    if not isinstance(player, FuzzyPlayer):
        return judge(player, candidates, rng)
    d = candidates.view
    assert isinstance(d, Decision)
    ev = player.evaluator
    x = candidates.feature_rows(range(len(candidates)))[
        :, [candidates.feature_names.index(n) for n in ev.input_names]]
    grades = ev.grade(x)
    p = triple(grades, d.actions, player.temperature)
    probs = [p[TRIPLE.index(a)] for a in d.actions]
    best = chosen if chosen is not None else max(range(len(probs)), key=probs.__getitem__)
    order = tuple(sorted(range(len(probs)), key=lambda i: -probs[i]))
    how = (f"the likeliest action of the triple: a softmax of the rule base's grades, "
           f"temperature {player.temperature:g} (the player draws from it)")
    return Judgement(best, how, (ev.rulebase.output.name, "probability"),
                     tuple(zip((float(g) for g in grades), probs, strict=True)), order,
                     (ev, ev.explain(x[best])))
