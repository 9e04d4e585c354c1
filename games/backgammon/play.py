"""Backgammon for a person at a terminal, and stored games told move by move.

A play is typed in GNU Backgammon's notation from the mover's side (``8/5 6/5``,
``13/7/5``, ``bar/22*``, ``6/off``, ``8/5(2)``): its steps are made on the board and the
position they reach must be one the rules allow for the dice (``moves.plays``), so the
rules of legality live in one place and any order or spelling of the same play will do.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping

import numpy as np

from fuzzeval.errors import NotationError
from fuzzeval.games.backgammon.board import BAR, Position, position_id
from fuzzeval.games.backgammon.features import position_features
from fuzzeval.games.backgammon.game import RESULTS, State
from fuzzeval.games.backgammon.players import BackgammonPlayer, FuzzyGrades, MoveView
from fuzzeval.play.advice import ADVICE_SEED, Judgement, advice, judge
from fuzzeval.play.game import Advice, Candidates, Player, PlayerHooks, hook
from fuzzeval.play.spec import PlayerSpec

TOP = 8  # rows of an advisor's ranking
_TOKEN = re.compile(r"^((?:bar|b|\d{1,2})(?:/(?:\d{1,2}|off)\*?)+)(?:\((\d)\))?$")


def board_lines(position: Position, names: tuple[str, str]) -> list[str]:
    """The board from the side to move (X, its points 1-24; O the other side)."""

    def cell(point: int) -> str:
        mine, theirs = position.me[point - 1], position.opp[24 - point]
        return f"X{mine}" if mine else f"O{theirs}" if theirs else "."

    def row(points: range) -> str:
        cells = [f"{cell(p):>3}" for p in points]
        return "".join(cells[:6]) + " |" + "".join(cells[6:])

    def numbers(points: range) -> str:
        cells = [f"{p:>3}" for p in points]
        return "".join(cells[:6]) + " |" + "".join(cells[6:])

    pips = position.pips()
    off = position.off
    return [numbers(range(13, 25)), row(range(13, 25)), row(range(12, 0, -1)),
            numbers(range(12, 0, -1)),
            f"X = {names[0]}, O = {names[1]}; bar X {position.me[BAR]}, O "
            f"{position.opp[BAR]}; off X {off[0]}, O {off[1]}; pips X {pips[0]}, O {pips[1]}"]


def parse_play(text: str, position: Position) -> Position:
    """The position a typed play reaches from ``position`` (steps made as written, a lone
    opposing checker hit where one lands); a NotationError names what cannot be done."""
    me, opp = list(position.me), list(position.opp)
    tokens = text.replace(",", " ").lower().split()
    if not tokens:
        raise NotationError(text, "type a play, e.g. 8/5 6/5")
    for token in tokens:
        found = _TOKEN.match(token)
        if found is None:
            raise NotationError(token, "a move is FROM/TO, e.g. 8/5, 13/7/5, bar/22, 6/off, "
                                       "8/5(2)")
        points = found.group(1).replace("*", "").split("/")
        for _ in range(int(found.group(2) or 1)):
            for src_text, dst_text in itertools.pairwise(points):
                src = BAR if src_text in ("bar", "b") else int(src_text) - 1
                dst = -1 if dst_text == "off" else int(dst_text) - 1
                if not 0 <= src <= BAR or not -1 <= dst < 24:
                    raise NotationError(token, "points are 1 to 24 (bar, off)")
                if dst >= src:
                    raise NotationError(token, "checkers move down, from higher points to "
                                               "lower (e.g. 13/7)")
                if me[src] == 0:
                    where = "on the bar" if src == BAR else f"on point {src + 1}"
                    raise NotationError(token, f"no checker of yours {where}")
                me[src] -= 1
                if dst >= 0:
                    if opp[23 - dst] >= 2:
                        raise NotationError(token, f"point {dst + 1} is held by the other "
                                                   "side")
                    if opp[23 - dst] == 1:
                        opp[23 - dst], opp[BAR] = 0, opp[BAR] + 1
                    me[dst] += 1
    return Position.trusted(tuple(me), tuple(opp))


class BackgammonPlay:
    """Backgammon's ``PlayInterface``."""

    def start(self, state: State, names: tuple[str, str]) -> list[str]:
        return [f"first to move: {names[state.seat]}"]

    def situation(self, candidates: Candidates, names: tuple[str, str], seat: int
                  ) -> list[str]:
        view = candidates.view
        assert isinstance(view, MoveView)
        shown = (names[seat], names[1 - seat])
        return [*board_lines(view.position, shown),
                f"you rolled {view.dice[0]}{view.dice[1]}; position "
                f"{position_id(view.position)}"]

    def prompt(self, candidates: Candidates) -> str:
        return f"your play (e.g. {candidates.labels[0]})"

    def parse(self, text: str, candidates: Candidates) -> int:
        view = candidates.view
        assert isinstance(view, MoveView)
        reached = parse_play(text, view.position)
        for i, option in enumerate(view.options):
            if option.me == reached.me and option.opp == reached.opp:
                return i
        some = ", ".join(candidates.labels[i] for i in range(min(3, len(candidates))))
        raise NotationError(text.strip(), f"not a legal play of {view.dice[0]}{view.dice[1]} "
                                          f"(legal: {some}, ...; ? ranks them all)")

    def narrate(self, before: State, choice: int, after: State, names: tuple[str, str],
                viewer: int | None) -> list[str]:
        from fuzzeval.games.backgammon.moves import plays

        seat = before.seat
        play = plays(before.position, before.dice)[choice]
        saw = "" if viewer is not None else f" from {position_id(before.position)}"
        line = (f"{names[seat]} rolled {before.dice[0]}{before.dice[1]}{saw}: "
                f"{play.notation}")
        if after.winner >= 0:
            points = "1 point" if after.points == 1 else f"{after.points} points"
            return [line, f"{names[seat]} bore off the last checker: a "
                          f"{RESULTS[after.points]} game, {points}"]
        mover, other = after.position.pips()[1], after.position.pips()[0]
        pips = (mover, other) if seat == 0 else (other, mover)
        return [f"{line} (pips {names[0]} {pips[0]}, {names[1]} {pips[1]})"]


    spot_fields = (("position", "GNU Backgammon position ID, the side on roll to move "
                                "(start: 4HPwATDgc/ABMA)"), ("dice", "the roll, e.g. 31"))

    def spot(self, fields: Mapping[str, str]) -> Candidates:
        """Every play of a position and roll, as ``fuzzeval backgammon moves`` reads them."""
        from fuzzeval.games.backgammon.board import check_not_finished, from_position_id
        from fuzzeval.games.backgammon.game import GAME
        from fuzzeval.games.backgammon.moves import parse_dice

        given = fields.get("position", "")
        start = from_position_id(given)
        try:
            check_not_finished(start)
        except ValueError as exc:
            raise ValueError(f"position {given.strip()!r}: {exc}") from None
        return GAME.candidates(State(start, 0, parse_dice(fields.get("dice", ""))))

    advisors = ("fuzzy", "pubeval")

    def advise(self, candidates: Candidates, player: Player, name: str,
               every: bool = False) -> Advice:
        j = judgement(player, candidates, np.random.default_rng(ADVICE_SEED))
        rb = hook(player, PlayerHooks.rulebase)
        if rb is not None:
            name = f"{PlayerSpec.parse(name).name} ({rb.name})"
        return advice(name, j, candidates.labels, "play", None if every else TOP)


def judgement(player: Player, candidates: Candidates, rng: np.random.Generator) -> Judgement:
    """What ``player`` would play: a backgammon player's grade of each resulting position,
    the best taken (a rule base: the rules behind it); any other player as
    ``fuzzeval.play.advice`` judges it."""
    if not isinstance(player, BackgammonPlayer):  # a player of every game (td)
        return judge(player, candidates, rng)
    view = candidates.view
    assert isinstance(view, MoveView)
    grades = np.asarray(player.grades(view), dtype=np.float64)
    order = tuple(int(i) for i in np.argsort(-grades, kind="stable"))
    grader = player.grader
    explanation = None
    how = "the best grade of the position each play leads to"
    if isinstance(grader, FuzzyGrades):
        feats = position_features([view.options[order[0]]], grader.rulebase.input_names)[0]
        explanation = (grader.evaluator, grader.evaluator.explain(feats))
        how += f", by the rule base {grader.rulebase.name}"
    return Judgement(order[0], how, ("grade",), tuple((float(g),) for g in grades), order,
                     explanation)
