"""Our Hearts rules against OpenSpiel's ``hearts`` (pyspiel, a dev extra): replay our hands
there (dealt by ``hearts.openspiel.pyspiel_hand``) and check that both sides agree on
every legal move and on the points. OpenSpiel's ``returns()`` are 26 minus the points
each seat takes. With ``pass_cards=false`` its ``chance_outcomes()`` still lists all
four directions: we apply 0 ourselves.

    python -m fuzzeval.games.hearts.scripts.check_openspiel --games 5000

plays that many random games per configuration (standard and Sturtevant & White's) and prints the
counts of games and decisions compared (``--player heuristic``: heuristic play, which
reaches other positions: the QS dumped, hearts kept back).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import numpy as np

from fuzzeval.games.hearts.cards import cards_str
from fuzzeval.games.hearts.openspiel import pyspiel_hand
from fuzzeval.games.hearts.players import PLAYERS, Policy, random_player
from fuzzeval.games.hearts.rules import (
    MOON,
    STANDARD,
    STURTEVANT_WHITE,
    Options,
    apply,
    deal,
    hand_points,
    legal,
    new_hand,
)
from fuzzeval.games.hearts.view import view


@dataclass(frozen=True)
class Agreement:
    games: int
    decisions: int
    passes: int
    moons: int


def replay(hands: tuple[int, int, int, int], options: Options, hand_number: int,
           rng: np.random.Generator, policy: Policy = random_player) -> tuple[int, int, bool]:
    """Play one hand on our side (``policy`` in every seat), step pyspiel along;
    AssertionError on the first difference. Returns (decisions, passes, moon shot)."""
    ours = new_hand(hands, options, hand_number)
    theirs = pyspiel_hand(ours)
    decisions = passes = 0
    while ours.phase != "over":
        mine = legal(ours)
        if theirs.current_player() != ours.to_move or sorted(theirs.legal_actions()) != mine:
            raise AssertionError(
                f"decision {decisions}: seat {ours.to_move} may play {cards_str(mine)}; "
                f"OpenSpiel: seat {theirs.current_player()} "
                f"{cards_str(theirs.legal_actions())}\n{theirs}")
        card = mine[policy(view(ours), mine, rng)]
        passes += ours.phase == "pass"
        decisions += 1
        ours = apply(ours, card)
        theirs.apply_action(card)
    points = hand_points(ours)
    returns = [MOON - p for p in points]
    if not theirs.is_terminal() or list(theirs.returns()) != returns:
        raise AssertionError(f"points {points}; OpenSpiel returns {theirs.returns()}\n{theirs}")
    return decisions, passes, MOON in ours.taken


def agree(games: int, options: Options, seed: int = 0, progress: bool = False,
          policy: Policy = random_player) -> Agreement:
    """``games`` hands (hand numbers 0, 1, 2, ... so every pass direction comes up)."""
    rng = np.random.default_rng(seed)
    decisions = passes = moons = 0
    for g in range(games):
        d, p, moon = replay(deal(rng), options, g, rng, policy)
        decisions += d
        passes += p
        moons += moon
        if progress and (g + 1) % 1000 == 0:
            print(f"  {g + 1} games", file=sys.stderr)
    return Agreement(games, decisions, passes, moons)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per configuration")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--player", choices=sorted(PLAYERS), default="random",
                        help="who plays every seat on our side")
    args = parser.parse_args(argv)
    print(f"{'configuration':<16} {'games':>7} {'decisions':>10} {'passes':>8} "
          f"{'moons':>6} {'seconds':>8}")
    for name, options in (("standard", STANDARD), ("sturtevant-white", STURTEVANT_WHITE)):
        start = time.perf_counter()
        result = agree(args.games, options, args.seed, True, PLAYERS[args.player])
        print(f"{name:<16} {result.games:>7} {result.decisions:>10} {result.passes:>8} "
              f"{result.moons:>6} {time.perf_counter() - start:>8.1f}")
    print("every legal-move list and every hand's points agree with OpenSpiel")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
