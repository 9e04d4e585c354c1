"""What a named player throws from a hand, and why, as plain data (for the CLI and JSON).

The exhaustive player's table is ``discard.discard_table``; the others show their own
reasons: the fuzzy player its grades (and, asked, the explanation of the chosen grade),
the ES player the value of each card, the greedy player the expected hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fuzzeval.match import PlayerSpec
from games.cribbage.cards import card_str, parse_cards
from games.cribbage.discard import KEEPS, THROWS, CribOwner
from games.cribbage.es import ESDiscard, hand_index
from games.cribbage.features import discard_features
from games.cribbage.fuzzy import FuzzyDiscard
from games.cribbage.players import DiscardView, player_from_spec


def _labels(hand: tuple[int, ...], t: int) -> tuple[str, str]:
    return (" ".join(card_str(hand[i]) for i in THROWS[t]),
            " ".join(card_str(hand[i]) for i in KEEPS[t]))


def player_advice(tokens: list[str], crib: CribOwner, player: str, explain: bool = False,
                  seed: int = 0) -> dict[str, Any]:
    """The throw of ``player`` (``NAME[:key=value,...]``) from six cards, with its reasons."""
    spec = PlayerSpec.parse(player)
    hand = tuple(sorted(parse_cards(tokens, 6)))
    mine = crib == "mine"
    discarder = player_from_spec(player).discarder
    out: dict[str, Any] = {"hand": " ".join(card_str(c) for c in hand), "crib": crib,
                           "player": str(spec)}
    if isinstance(discarder, FuzzyDiscard):
        rb = discarder.rulebase
        grades = discarder.grades([hand], [mine])[0]
        feats = discard_features([hand], [mine], rb.input_names)[0]
        order = np.argsort(-grades, kind="stable")
        out["rulebase"] = rb.name
        out["table"] = [{"discard": _labels(hand, t)[0], "keep": _labels(hand, t)[1],
                         "grade": round(float(grades[t]), 6),
                         **{n: round(float(v), 6) for n, v in zip(rb.input_names, feats[t],
                                                                  strict=True)}}
                        for t in order]
        choice = int(order[0])
        if explain:
            out["explanation"] = discarder.explain(hand, mine, choice).to_dict()
    elif isinstance(discarder, ESDiscard):
        values = discarder.values[int(mine), hand_index(np.array(hand) // 4)]
        choice = int(discarder.throws([hand], [mine])[0])
        out["table"] = [{"card": card_str(c), "value": round(float(v), 6)}
                        for c, v in sorted(zip(hand, values, strict=True), key=lambda cv: cv[1])]
    else:
        view = DiscardView(hand, mine, (0, 0))
        choice = discarder(view, np.random.default_rng(seed))
        if spec.name == "greedy":
            hv = discard_features([hand], [mine], ("hand_value",))[0, :, 0]
            out["table"] = [{"discard": _labels(hand, t)[0], "keep": _labels(hand, t)[1],
                             "hand_value": round(float(hv[t]), 6)}
                            for t in np.argsort(-hv, kind="stable")]
    out["discard"] = _labels(hand, choice)[0].split()
    out["keep"] = _labels(hand, choice)[1].split()
    return out
