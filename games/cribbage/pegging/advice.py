"""Which card to lay in the play, and why, as plain data (for ``fuzzeval cribbage peg``).

The seat's view is written as a player says it: the cards in hand, the cards of the
current count, the cards laid earlier this deal, which laid cards were mine, the starter,
whose crib, the two I threw and the scores. Every card that can be laid is shown with
what the chosen player weighs: the features (points now, the expected reply, their net --
greedy's own score --, ...) and the rule base's grade; the sampling player each card's
simulated mean and deviation, its trials and whether the stop rule fired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval.games.cribbage.cards import card_str, parse_cards, value
from fuzzeval.games.cribbage.fuzzy import FuzzyPegging
from fuzzeval.games.cribbage.pegging.features import PEG_FEATURE_NAMES, peg_features
from fuzzeval.games.cribbage.pegging.policies import POLICIES, PegView
from fuzzeval.games.cribbage.players import CribbagePlayer
from fuzzeval.games.cribbage.sampling import (
    Play,
    SamplingPegging,
    opponent_cards,
    opponent_laid,
    read_play,
)


@dataclass(frozen=True)
class Seat:
    """What the seat has seen, as card strings."""

    hand: str  # still in hand
    count: str = ""  # the current count, in play order
    earlier: str = ""  # laid earlier this deal, before the current count, in play order
    mine: str = ""  # which of the laid cards are mine
    starter: str = ""
    crib: str | None = None  # mine or theirs; None: worked out from who led (crib_of_play)
    thrown: str = ""
    scores: tuple[int, int] = (0, 0)


def crib_of_play(played: tuple[int, ...], mine: tuple[int, ...]) -> str:
    """Whose crib it is, from the play: the dealer's opponent (the pone) lays the deal's
    first card, so the crib is mine when the first card laid is theirs; with nothing laid
    yet it is my turn to lead, so the crib is theirs."""
    return "mine" if played and played[0] not in mine else "theirs"


def _cards(cards: tuple[int, ...]) -> str:
    """Cards as the options take them, to name them in an error."""
    return " ".join(card_str(c) for c in cards)


def _check_count(play: Play, count: tuple[int, ...]) -> None:
    """--count must be the count the cards laid make: a count runs until 31 or until
    neither seat can lay, so a card that fits on --earlier's last count goes on with it."""
    if count and play.count_cards != count:
        valid = (f"give --count {_cards(play.count_cards)!r} and the cards before with "
                 "--earlier" if play.count_cards else "give them with --earlier, none with "
                                                      "--count")
        raise ValueError(f"--count {_cards(count)}: the cards laid make a count of "
                         f"{sum(value(c) for c in play.count_cards)}, not "
                         f"{sum(value(c) for c in count)}, since a count runs until 31 or "
                         f"until neither seat can lay: {valid}")


def _check_gos(play: Play, hand: tuple[int, ...], kept: tuple[int, ...],
               earlier: tuple[int, ...], count: tuple[int, ...]) -> None:
    """No seat says go holding a card that fits: at each go the play shows, the cards that
    seat still holds or lays later must all be worth more than the room left to 31."""
    played = (*earlier, *count)
    for go in play.gos:
        later = tuple(c for c in played[go.at:] if (c in kept) == (go.seat == 0))
        fits = [c for c in ((*hand, *later) if go.seat == 0 else later)
                if value(c) <= 31 - go.count]
        if not fits:
            continue
        rule = f"a seat says go only when nothing it holds is worth {31 - go.count} or less"
        if go.at == len(played):  # my go, the one that ended --earlier's last count
            raise ValueError(f"--count is empty, so --earlier's last count, {go.count}, ended "
                             f"with both saying go, yet I hold {card_str(fits[0])}, which "
                             f"fits: {rule}; give that count's cards with --count")
        card, before = played[go.at], played[go.at - 1]
        why = (f"{card_str(card)} does not fit on it" if go.count + value(card) > 31 else
               f"{card_str(before)} then {card_str(card)}, both "
               f"{'mine' if go.seat == 1 else 'theirs'}")
        where = (f"--earlier {_cards(earlier)}" if go.at < len(earlier) else
                 f"--count {_cards(count)}")
        raise ValueError(f"{where}: {'I' if go.seat == 0 else 'the opponent'} said go on "
                         f"{go.count} ({why}), yet held {card_str(fits[0])}, which fits: "
                         f"{rule}")


def peg_view(seat: Seat) -> PegView:
    """The view a player decides from; a ValueError names what does not add up."""
    hand = parse_cards(seat.hand)
    count = parse_cards(seat.count) if seat.count.strip() else ()
    earlier = parse_cards(seat.earlier) if seat.earlier.strip() else ()
    mine = parse_cards(seat.mine) if seat.mine.strip() else ()
    thrown = parse_cards(seat.thrown) if seat.thrown.strip() else ()
    if not seat.starter.strip():
        raise ValueError("--starter is needed: the cut card")
    (starter,) = parse_cards([seat.starter])
    played = (*earlier, *count)
    parse_cards([*hand, *played, *thrown, starter])  # no card twice
    if not 1 <= len(hand) <= 4:
        raise ValueError(f"a hand in the play holds 1 to 4 cards (got {len(hand)})")
    stray = [card_str(c) for c in mine if c not in played]
    if stray:
        raise ValueError(f"--mine {' '.join(stray)}: not among the cards laid")
    if len(hand) + len(mine) != 4:
        raise ValueError(f"hand and --mine make {len(hand) + len(mine)} cards, not the four "
                         "kept")
    if len(thrown) not in (0, 2):
        raise ValueError(f"--thrown is the two cards thrown to the crib (got {len(thrown)})")
    total = sum(value(c) for c in count)
    if total > 31:
        raise ValueError(f"the count would be {total}, over 31")
    kept = tuple(sorted((*hand, *mine)))
    opponent_laid(played, kept)  # five cards of theirs: said before the gos they imply
    play = read_play(played, kept, count)
    _check_count(play, count)
    _check_gos(play, hand, kept, earlier, count)
    crib = crib_of_play(played, mine)
    if seat.crib is not None and seat.crib not in ("mine", "theirs"):
        raise ValueError(f"--crib must be mine or theirs (got {seat.crib!r})")
    if seat.crib is not None and seat.crib != crib:
        who = (f"{card_str(played[0])}, the first card laid this deal, is "
               f"{'mine' if crib == 'theirs' else 'theirs'}" if played
               else "nothing is laid yet and it is my turn")
        raise ValueError(f"--crib {seat.crib} does not fit the play: {who}, and the dealer's "
                         f"opponent leads, so the crib is {crib} (leave --crib out to have it "
                         "worked out)")
    options = tuple(c for c in hand if total + value(c) <= 31)
    if not options:
        raise ValueError(f"no card in hand fits under 31 (count {total}): that is a go")
    view = PegView(options, hand, kept, count, played, starter, crib == "mine", thrown,
                   seat.scores)
    opponent_cards(view)  # every player, not only the simulating one: a view that can happen
    return view


def peg_advice(player: CribbagePlayer, spec: str, seat: Seat, seed: int = 0) -> dict[str, Any]:
    """The card ``player`` lays from ``seat``, and the table behind it."""
    view = peg_view(seat)
    policy = player.policy if player.policy is not None else POLICIES[player.pegging]  # type: ignore[index]
    cards = [card_str(c) for c in view.options]
    out: dict[str, Any] = {"player": spec, "count": view.count,
                           "options": cards}
    if isinstance(policy, SamplingPegging):  # a simulation
        if len(view.thrown) != 2:
            raise ValueError("the sampling player needs --thrown: the two cards I threw")
        choice, result = policy.weigh(view, np.random.default_rng(seed))
        out["sampling"] = {"trials": result.trials, "stopped": result.stopped,
                           "stop": policy.settings.stop}
        rows = [{"card": c, "mean": round(float(m), 6), "sd": round(float(s), 6)}
                for c, m, s in zip(cards, result.means, result.sds, strict=True)]
        order = np.argsort(-result.means, kind="stable")
    else:
        feats = peg_features(view)
        grades = (policy.judge(view)[0] if isinstance(policy, FuzzyPegging)
                  else feats[:, PEG_FEATURE_NAMES.index("net_points")])
        choice = int(policy(view, np.random.default_rng(seed)))
        fuzzy = isinstance(policy, FuzzyPegging)  # greedy's own score is net_points
        rows = [{"card": c, **({"grade": round(float(g), 6)} if fuzzy else {}),
                 **{n: round(float(v), 6) for n, v in zip(PEG_FEATURE_NAMES, f, strict=True)}}
                for c, g, f in zip(cards, grades, feats, strict=True)]
        order = np.argsort(-grades, kind="stable")
        if isinstance(policy, FuzzyPegging):
            out["rulebase"] = policy.rulebase.name
            out["made_by"] = policy.rulebase.made_by
    out["table"] = [rows[i] for i in order]
    out["lay"] = cards[choice]
    return out
