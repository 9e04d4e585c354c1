"""What a named player throws from a hand, and why, as plain data (for the CLI and JSON).

The exhaustive player's table is ``discard.discard_table``; the others show their own
reasons: the fuzzy player its grades (and, asked, the explanation of the chosen grade),
the ES player the value of each card, the greedy player the expected hand.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np

from fuzzeval.games.cribbage.cards import card_str, parse_cards
from fuzzeval.games.cribbage.discard import KEEPS, THROWS, CribOwner
from fuzzeval.games.cribbage.features import discard_features
from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard
from fuzzeval.games.cribbage.players import CribbagePlayer, DiscardView, player_from_spec
from fuzzeval.play.spec import PlayerSpec

if TYPE_CHECKING:
    from fuzzeval.games.cribbage.sampling import SamplingDiscard


def _es_module() -> ModuleType | None:
    """The ES player's module when an ES player exists: making one imports it, so advice by
    another player never pays for its tables."""
    return sys.modules.get("fuzzeval.games.cribbage.es")


def _samples(discarder: object) -> TypeGuard[SamplingDiscard]:
    """Whether ``discarder`` is the sampling player. Its module (kernels, tables) is
    imported by the players that sample, not by this one's import: the fuzzy advice on
    one hand would pay for it."""
    module = sys.modules.get("fuzzeval.games.cribbage.sampling")
    return module is not None and isinstance(discarder, module.SamplingDiscard)


def _all_labels(hand: tuple[int, ...]) -> list[tuple[str, str]]:
    """(thrown, kept) as card strings for the 15 throws, in THROWS order."""
    c = [card_str(x) for x in hand]
    return [(f"{c[a]} {c[b]}", f"{c[k[0]]} {c[k[1]]} {c[k[2]]} {c[k[3]]}")
            for (a, b), k in zip(THROWS, KEEPS, strict=True)]


Hand = tuple[int, ...]


def player_advice(tokens: list[str], crib: CribOwner, player: str, explain: bool = False,
                  seed: int = 0) -> dict[str, Any]:
    """The throw of ``player`` (``NAME[:key=value,...]``) from six cards, with its reasons."""
    hand = tuple(sorted(parse_cards(tokens, 6)))
    return advice_many(player_from_spec(player), PlayerSpec.parse(player), [hand], crib,
                       explain, seed)[0]


def advice_many(player: CribbagePlayer, spec: PlayerSpec, hands: Sequence[Hand],
                crib: CribOwner, explain: bool = False, seed: int = 0) -> list[dict[str, Any]]:
    """``player_advice`` for many hands (sorted card ids) with one built player: the fuzzy
    and ES players judge them all in one call (grades do not depend on how many are graded
    together), the others one at a time, as in a game."""
    mine = crib == "mine"
    n = len(hands)
    arr = np.array(hands, dtype=np.intp).reshape(n, 6)
    mines = np.full(n, mine)
    outs: list[dict[str, Any]] = [
        {"hand": " ".join(card_str(c) for c in hand), "crib": crib, "player": str(spec)}
        for hand in hands]
    labels = [_all_labels(hand) for hand in hands]
    discarder = player.discarder
    choices: list[int]
    if isinstance(discarder, FuzzyDiscard):
        rb = discarder.rulebase
        names = rb.input_names
        grades, feats = discarder.judge(arr, mines)
        orders = np.argsort(-grades, axis=1, kind="stable")
        choices = [int(o[0]) for o in orders]
        keys = ("discard", "keep", "grade", *names)
        rounded = np.round(grades, 6).tolist(), np.round(feats, 6).tolist()
        for lab, out, g, f, order in zip(labels, outs, *rounded, orders.tolist(), strict=True):
            out["rulebase"] = rb.name
            out["made_by"] = rb.made_by
            out["table"] = [dict(zip(keys, (*lab[t], g[t], *f[t]), strict=True))
                            for t in order]
        if explain:
            for hand, out, choice in zip(hands, outs, choices, strict=True):
                out["explanation"] = discarder.explain(hand, mine, choice).to_dict()
    elif (es := _es_module()) is not None and isinstance(discarder, es.ESDiscard):
        values = discarder.values[int(mine), es.hand_index(arr // 4)]  # (n, 6)
        choices = [int(c) for c in discarder.throws(arr, mines)]
        for hand, out, vs in zip(hands, outs, values.tolist(), strict=True):
            out["table"] = [{"card": card_str(c), "value": round(v, 6)}
                            for c, v in sorted(zip(hand, vs, strict=True),
                                               key=lambda cv: cv[1])]
    elif _samples(discarder):  # each throw's mean and deviation
        choices = []
        for hand, lab, out in zip(hands, labels, outs, strict=True):
            choice, result = discarder.decide(DiscardView(hand, mine, (0, 0)),
                                              np.random.default_rng(seed))
            choices.append(int(choice))
            out["sampling"] = {"trials": result.trials, "stopped": result.stopped,
                               "stop": discarder.settings.stop}
            out["table"] = [{"discard": lab[t][0], "keep": lab[t][1],
                             "mean": round(float(result.means[t]), 6),
                             "sd": round(float(result.sds[t]), 6)}
                            for t in np.argsort(-result.means, kind="stable")]
    else:  # one hand at a time, as a game asks it
        choices = [discarder(DiscardView(hand, mine, (0, 0)), np.random.default_rng(seed))
                   for hand in hands]
        if spec.name == "greedy":
            for hand, lab, out in zip(hands, labels, outs, strict=True):
                hv = discard_features([hand], [mine], ("hand_value",))[0, :, 0]
                out["table"] = [{"discard": lab[t][0], "keep": lab[t][1],
                                 "hand_value": round(float(hv[t]), 6)}
                                for t in np.argsort(-hv, kind="stable")]
    for out, lab, choice in zip(outs, labels, choices, strict=True):
        throw, keep = lab[choice]
        out["discard"] = throw.split()
        out["keep"] = keep.split()
    return outs
