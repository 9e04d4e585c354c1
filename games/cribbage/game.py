"""Cribbage as a fuzzeval game plug-in (``GAME``, entry point group ``fuzzeval.games``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import numpy as np

from fuzzeval.errors import FuzzevalError
from fuzzeval.games.cribbage import rules
from fuzzeval.games.cribbage.cards import card_str, cards_str
from fuzzeval.games.cribbage.discard import THROWS
from fuzzeval.games.cribbage.features import FEATURE_NAMES, discard_features
from fuzzeval.games.cribbage.fuzzy import (
    DEFAULT_RULEBASE,
    PEG_RULEBASE,
    PLAY_RULEBASE,
    resolve_rulebase,
)
from fuzzeval.games.cribbage.measure import DiscardMeasure, discard_measure
from fuzzeval.games.cribbage.pegging.features import PEG_FEATURE_NAMES, peg_features
from fuzzeval.games.cribbage.pegging.policies import PegView
from fuzzeval.games.cribbage.players import (
    DISCARDERS,
    CribbagePlayer,
    DiscardView,
    grades_plays,
    make_player,
)
from fuzzeval.games.cribbage.rules import State
from fuzzeval.games.cribbage.scoring import rank_table
from fuzzeval.games.options import as_bool, check_keys
from fuzzeval.play.game import WIN_POINTS, Candidates, Outcome

GAME_OPTIONS = ("peg_counts",)



def discard_candidates(six: tuple[int, ...], my_crib: bool, scores: tuple[int, int] = (0, 0)
                       ) -> Candidates:
    """The 15 throws of a six-card hand (sorted card ids): in a game, or a hand typed by
    a person (``fuzzeval cribbage discard``, the studio)."""
    return Candidates(
        kind="discard",
        labels=tuple(f"{card_str(six[a])} {card_str(six[b])}" for a, b in THROWS),
        features=discard_features([six], [my_crib])[0],
        feature_names=FEATURE_NAMES,
        view=DiscardView(six, my_crib, scores),
        record={"hand": cards_str(six), "crib": "mine" if my_crib else "theirs",
                "score": scores[0], "opponent_score": scores[1]},
    )


class CribbageGame:
    """Two-player six-card cribbage to 121. Option ``peg_counts=False`` plays the pegging
    but leaves its points off the board (Kendall & Shaw's rematch), to compare discards alone;
    it is true or false (also yes/no, on/off, 1/0), anything else is refused."""

    name = "cribbage"
    seats = 2
    #: the points of a win (single 1, skunk 2, double skunk 3), the loser losing them
    payoff = WIN_POINTS
    logged_kinds = frozenset({"discard"})
    unit_name = "deal"
    player_names = (*DISCARDERS, "sampling")
    #: a default round robin's players: all but sampling, which simulates every decision
    #: (about a second a game, 50 times the others), so a default tournament takes minutes
    tournament_players = tuple(DISCARDERS)
    rulebase_player = "fuzzy"
    default_rulebase = DEFAULT_RULEBASE  # calibration and tuning start from the draft
    play_rulebase = PLAY_RULEBASE  # the fuzzy player plays the strongest
    default_opponent = "exhaustive"

    def prepare(self) -> None:
        rank_table()

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> State:
        check_keys("unknown cribbage options", options, GAME_OPTIONS)
        peg_counts = as_bool("peg_counts", options.get("peg_counts", True))
        return rules.new_game(rng, first, peg_counts=peg_counts)

    def to_move(self, state: State) -> int | None:
        return None if state.phase == "over" else state.to_move

    def candidates(self, state: State) -> Candidates:
        seat = state.to_move
        if state.phase == "discard":
            return discard_candidates(state.hands[seat], seat == state.dealer,
                                      (state.scores[seat], state.scores[1 - seat]))
        if state.phase == "play":
            options = rules.playable(state, seat)
            view = PegView(options, state.in_hand[seat], state.hands[seat], state.count_cards,
                           state.played, state.starter, seat == state.dealer,
                           state.thrown[seat], (state.scores[seat], state.scores[1 - seat]))
            return Candidates(
                kind="play",
                labels=tuple(card_str(c) for c in options),
                features=lambda rows: peg_features(view)[list(rows)],  # on demand
                feature_names=PEG_FEATURE_NAMES,
                view=view,
                record={"hand": cards_str(state.in_hand[seat]), "count": state.count,
                        "score": state.scores[seat],
                        "opponent_score": state.scores[1 - seat]},
            )
        raise ValueError("the game is over: no candidates")

    def apply(self, state: State, choice: int, rng: np.random.Generator) -> State:
        if state.phase == "discard":
            if not 0 <= choice < len(THROWS):
                raise ValueError(f"discard choice {choice} is not in 0..14")
            return rules.discard(state, choice, rng)
        if state.phase == "play":
            options = rules.playable(state, state.to_move)
            if not 0 <= choice < len(options):
                raise ValueError(f"play choice {choice} is not in 0..{len(options) - 1}")
            return rules.lay(state, options[choice], rng)
        raise ValueError("the game is over: no move")

    def unit(self, state: State) -> int:
        return rules.deal_of(state)

    def chance_events(self, before: State | None, after: State) -> list[dict[str, Any]]:
        """What chance brought between two states (``before`` None: the first deal): each
        seat's six cards when a deal is dealt (pone first, as dealt), and the starter when
        it is cut after both discards."""
        dealt = len(after.deal_points) > (0 if before is None else len(before.deal_points))
        if dealt:
            return [{"chance": "deal", "seat": seat, "cards": [card_str(c) for c in
                                                              after.hands[seat]]}
                    for seat in (after.pone, after.dealer)]
        if before is not None and before.phase == "discard" and after.phase != "discard":
            return [{"chance": "starter", "card": card_str(after.starter)}]
        return []

    def outcome(self, state: State) -> Outcome:
        kind, points = rules.result(state)
        return Outcome(
            winner=state.winner,
            scores=state.scores,
            result=kind,
            points=points,
            unit_points=state.deal_points,
            stats={name: (state.tally[0][i], state.tally[1][i])
                   for i, name in enumerate(rules.SOURCES)},
        )

    def rulebase_measure(self, inputs: tuple[str, ...], deals: int, seed: int,
                         executor: Executor | None = None, cache_dir: Path | None = None,
                         progress: Callable[[int], None] | None = None
                         ) -> DiscardMeasure | None:
        """Discard efficiency with each crib owner on ``deals`` seeded hands (exact EVs,
        computed once and cached in ``cache_dir``); None for a pegging rule base (compare
        its pegging with ``fuzzeval cribbage pegging`` instead)."""
        if inputs and all(n in PEG_FEATURE_NAMES for n in inputs):
            return None
        return discard_measure(inputs, deals, seed, executor, cache_dir, progress)

    def implied_options(self, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options a player really reads, defaults filled in, for a match's fingerprint:
        the shipped pegging rule base behind pegging=fuzzy and fuzzy rollouts."""
        out = dict(options)
        if out.get("pegging") == "fuzzy" or (name == "sampling" and out.get("pegging") in
                                             (None, "sampling") and
                                             out.get("rollout") == "fuzzy"):
            out.setdefault("peg_rulebase", PEG_RULEBASE)
        if name == "fuzzy" and "rulebase" in out and "pegging" not in out:
            try:  # a pegging base: the player discards with the default discard base
                if grades_plays(resolve_rulebase(str(out["rulebase"]))):
                    out.setdefault("discard_rulebase", PLAY_RULEBASE)
            except (OSError, FuzzevalError):
                pass  # building the player reports it
        return out

    def make_player(self, name: str, **options: Any) -> CribbagePlayer:
        return make_player(name, **options)

    def play_interface(self) -> Any:
        """How a person plays cribbage at a terminal (``fuzzeval play``), and how a stored
        game is told (``fuzzeval history show``)."""
        from fuzzeval.games.cribbage.play import CribbagePlay

        return CribbagePlay()


GAME = CribbageGame()
