"""Our hold'em rules against OpenSpiel's ``universal_poker`` (pyspiel, a dev extra): play
our hands there too and check that both sides agree on who acts, on every legal action
and on the chips.

OpenSpiel's game string is the bridge's (``holdem.openspiel.GAME_STRING``, the ACPC
``holdem.limit.2p.reverse_blinds`` structure). Its chance actions are card ids (ours):
position 0's two hole cards, position 1's two, then each board card as its round comes;
its actions are 0 fold, 1 check/call, 2 bet/raise; its ``returns()`` are the chips each
position wins.

    python -m fuzzeval.games.holdem.scripts.check_openspiel --hands 10000

plays that many seeded hands with uniformly random legal actions, and as many without
folds (to reach more showdowns), and prints the hands and decisions compared.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.game import deal_cards
from fuzzeval.games.holdem.openspiel import ACTION_IDS, GAME_STRING
from fuzzeval.games.holdem.rules import Betting, Deal


@lru_cache(maxsize=1)
def _game() -> Any:
    import pyspiel

    return pyspiel.load_game(GAME_STRING)


@dataclass(frozen=True)
class Agreement:
    hands: int
    decisions: int
    showdowns: int
    splits: int
    capped: int  # decisions where the cap ruled a raise out


def _deal_board(theirs: Any, deal: Deal, dealt: int) -> int:
    """Deal OpenSpiel's chance nodes from our board; how many board cards are out."""
    while theirs.is_chance_node():
        theirs.apply_action(deal.board[dealt])
        dealt += 1
    return dealt


def replay(deal: Deal, actions: str) -> tuple[Betting, int]:
    """Play ``actions`` (ACPC letters, no '/') on both sides; AssertionError at the first
    difference. Returns our betting and the decisions compared."""
    theirs = _game().new_initial_state()
    for card in (*deal.holes[0], *deal.holes[1]):
        theirs.apply_action(card)
    b = rules.START
    dealt = 0
    for number, action in enumerate(actions):
        _check(theirs, b, number)
        b = rules.act(b, action)
        theirs.apply_action(ACTION_IDS[action])
        dealt = _deal_board(theirs, deal, dealt)
    _settle(theirs, b, deal)
    return b, len(actions)


def _check(theirs: Any, b: Betting, number: int) -> None:
    ours = sorted(ACTION_IDS[a] for a in rules.legal(b))
    if theirs.current_player() != b.to_move or sorted(theirs.legal_actions()) != ours:
        raise AssertionError(f"decision {number} after {b}: position {b.to_move} may "
                             f"{ours}; OpenSpiel: player {theirs.current_player()} "
                             f"{theirs.legal_actions()}\n{theirs}")


def _settle(theirs: Any, b: Betting, deal: Deal) -> None:
    won = rules.chips(deal, b)
    if not theirs.is_terminal() or [int(r) for r in theirs.returns()] != list(won):
        raise AssertionError(f"{b}: chips {won}; OpenSpiel {theirs.returns()}\n{theirs}")


def play(deal: Deal, rng: np.random.Generator, folds: bool = True
         ) -> tuple[Betting, int, int]:
    """One hand of uniformly random legal actions on both sides (``folds=False``: never a
    fold, so that more hands reach the river and the showdown), compared at every
    decision. Returns our betting, the decisions and how many were capped."""
    theirs = _game().new_initial_state()
    for card in (*deal.holes[0], *deal.holes[1]):
        theirs.apply_action(card)
    b = rules.START
    dealt = decisions = capped = 0
    while not b.over:
        _check(theirs, b, decisions)
        legal = rules.legal(b) if folds else rules.legal(b).replace(rules.FOLD, "")
        capped += rules.RAISE not in legal
        action = legal[int(rng.integers(len(legal)))]
        b = rules.act(b, action)
        theirs.apply_action(ACTION_IDS[action])
        dealt = _deal_board(theirs, deal, dealt)
        decisions += 1
    _settle(theirs, b, deal)
    return b, decisions, capped


def agree(hands: int, seed: int = 0, folds: bool = True) -> Agreement:
    """``hands`` seeded random hands, each compared with OpenSpiel."""
    rng = np.random.default_rng(seed)
    decisions = showdowns = splits = capped = 0
    for _ in range(hands):
        deal = deal_cards(rng)
        b, d, c = play(deal, rng, folds)
        decisions += d
        capped += c
        if b.folded is None:
            showdowns += 1
            splits += rules.chips(deal, b) == (0, 0)
    return Agreement(hands, decisions, showdowns, splits, capped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    print(f"{'actions':<12} {'hands':>7} {'decisions':>10} {'capped':>7} {'showdowns':>10} "
          f"{'splits':>7} {'seconds':>8}")
    for name, folds in (("random", True), ("no folds", False)):
        start = time.perf_counter()
        r = agree(args.hands, args.seed, folds)
        print(f"{name:<12} {r.hands:>7} {r.decisions:>10} {r.capped:>7} {r.showdowns:>10} "
              f"{r.splits:>7} {time.perf_counter() - start:>8.1f}")
    print("every player to act, legal-action list and hand's chips agree with OpenSpiel")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
