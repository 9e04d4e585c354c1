"""What a named player throws from a hand, and why, as plain data (for the CLI and JSON).

The exhaustive player's table is ``discard.discard_table``; the others show their own
reasons: the fuzzy player its grades (and, asked, the explanation of the chosen grade),
the ES player the value of each card, the greedy player the expected hand.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np

from fuzzeval.games.cribbage.cards import card_str, parse_cards
from fuzzeval.games.cribbage.discard import KEEPS, THROWS, CribOwner
from fuzzeval.games.cribbage.features import discard_features
from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard
from fuzzeval.games.cribbage.grade_table import GradeTable
from fuzzeval.games.cribbage.players import (
    CribbagePlayer,
    DiscardView,
    ExhaustiveDiscard,
    player_from_spec,
)
from fuzzeval.play.advice import NO_VALUES, how_simulated
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
#: how a discard strategy without a rule base or a simulation judges a throw
DISCARD_HOW = {"exhaustive": "the best exact EV: the hand and the crib averaged over every "
                             "starter and opponent throw",
               "greedy": "the best expected hand over the 46 starters (the crib ignored)",
               "es": "the evolved table's value of each card; the two lowest are thrown"}
#: how a pegging policy without a rule base or a simulation judges a card
PEG_HOW = {"greedy": "the most points now less the points the reply is expected to score "
                     "(net_points)",
           "basic": "a fifteen if it can, a lead from a pair, else the first card; it shows "
                    "no values"}


def discard_how(player: CribbagePlayer, out: dict[str, Any]) -> str:
    """How ``player`` chose the throw of ``out`` (``advice_many``'s), in one line."""
    if "sampling" in out:
        return how_simulated(out["sampling"], "deals")
    if "rulebase" in out:
        return "the rule base's grade of each throw"
    if isinstance(player.discarder, ExhaustiveDiscard):
        return DISCARD_HOW["exhaustive"]
    return DISCARD_HOW.get(player.name, NO_VALUES)


def peg_how(player: CribbagePlayer, data: dict[str, Any]) -> str:
    """How ``player`` chose the card of ``data`` (``peg_advice``'s), in one line."""
    if "sampling" in data:
        return how_simulated(data["sampling"], "deals")
    if "rulebase" in data:
        return "the pegging rule base's grade of each card"
    return PEG_HOW.get(player.pegging, NO_VALUES)


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
    outs, fuzzy, labels = _advice(player, spec, hands, crib, explain, seed)
    if fuzzy is not None:
        for out, rows in zip(outs, fuzzy.rows(labels), strict=True):
            out["table"] = rows
    return outs


def advice_lines(player: CribbagePlayer, spec: PlayerSpec, hands: Sequence[Hand],
                 crib: CribOwner) -> list[str] | None:
    """``advice_many``'s answers (without explanations) as lines of JSON, the bytes
    ``json.dumps`` writes of them, the fuzzy player's tables written from its arrays
    (``GradeTable.json``: a batch's cost); None for another player, or for a table holding
    a number that JSON cannot write."""
    if not isinstance(player.discarder, FuzzyDiscard):
        return None
    outs, fuzzy, labels = _advice(player, spec, hands, crib)
    texts = None if fuzzy is None else fuzzy.json(labels)
    if texts is None:
        return None
    return [_json_with(out, "table", f"[{text}]") for out, text in zip(outs, texts, strict=True)]


def _json_with(data: dict[str, Any], key: str, text: str) -> str:
    """``json.dumps(data)``, with ``text`` written as the JSON of ``data[key]``."""
    keys = list(data)
    at = keys.index(key)
    before, after = (json.dumps({k: data[k] for k in part}, allow_nan=False)[1:-1]
                     for part in (keys[:at], keys[at + 1:]))
    middle = f"{json.dumps(key)}: {text}"
    return "{" + ", ".join(part for part in (before, middle, after) if part) + "}"


def _advice(player: CribbagePlayer, spec: PlayerSpec, hands: Sequence[Hand], crib: CribOwner,
            explain: bool = False, seed: int = 0
            ) -> tuple[list[dict[str, Any]], GradeTable | None, list[list[tuple[str, str]]]]:
    """``advice_many``'s answers, the fuzzy player's "table" left to its GradeTable (the
    rows, or their JSON), and each hand's (thrown, kept) labels."""
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
    fuzzy: GradeTable | None = None
    if isinstance(discarder, FuzzyDiscard):
        rb = discarder.rulebase
        fuzzy = GradeTable.of(*discarder.judge(arr, mines), rb.input_names)
        choices = fuzzy.choices
        for out in outs:
            out["rulebase"] = rb.name
            out["made_by"] = rb.made_by
            out["table"] = None  # in its place: advice_many's rows or advice_lines' JSON
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
            choice, result = discarder.weigh(DiscardView(hand, mine, (0, 0)),
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
    return outs, fuzzy, labels
