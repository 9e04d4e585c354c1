"""A hand as export events and back: the deal and every decision with its options count,
replayed to the same state; a bad event is refused with its number."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fuzzeval.errors import NotationError
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import parse_cards
from fuzzeval.games.hearts.players import heuristic_player, play_out
from fuzzeval.games.hearts.record import choices, events, from_events, replay
from fuzzeval.games.hearts.rules import SEED003, STANDARD
from tests.games.test_hearts_rules import SPLIT


@pytest.mark.parametrize("options", [STANDARD, SEED003], ids=["standard", "seed003"])
def test_events_replay_to_the_same_state(options: rules.Options) -> None:
    rng = np.random.default_rng(4)
    for number in range(8):
        end = play_out(rules.new_hand(rules.deal(rng), options, number), [heuristic_player] * 4,
                       rng)
        record = events(end)
        passes = 12 if options.passing and number % 4 != 3 else 0
        assert len(record) == 4 + passes + 52
        assert json.loads(json.dumps(record)) == record
        assert from_events(record, options, number) == end
        assert replay(end.dealt, choices(end), options, number) == end


def test_events_of_a_hand_worked_hand() -> None:
    state = rules.new_hand(SPLIT, STANDARD, 3)
    for card in parse_cards("2C 9C 2S 8S"):
        state = rules.apply(state, card)
    record = events(state)
    assert record[0] == {"chance": "deal", "seat": 0, "cards": [
        "2C", "2D", "3C", "3D", "4C", "4D", "5C", "5D", "6C", "6D", "7C", "7D", "8C"]}
    assert record[4:] == [
        {"seat": 0, "kind": "play", "choice": "2C", "options": 1},
        {"seat": 1, "kind": "play", "choice": "9C", "options": 6},
        {"seat": 2, "kind": "play", "choice": "2S", "options": 13},
        {"seat": 3, "kind": "play", "choice": "8S", "options": 6},
    ]


def test_a_bad_event_names_its_number() -> None:
    record = events(rules.new_hand(SPLIT, STANDARD, 3))
    record.append({"seat": 0, "kind": "play", "choice": "3C", "options": 1})
    with pytest.raises(NotationError, match=r"'3C'.*event 5: seat 0 may play 2C"):
        from_events(record, STANDARD, 3)


def test_bytes_per_hand() -> None:
    """The size of a hand's events as compact JSON (reported in docs/hearts.md)."""
    rng = np.random.default_rng(9)
    end = play_out(rules.new_hand(rules.deal(rng), STANDARD, 0), [heuristic_player] * 4, rng)
    size = len(json.dumps(events(end), separators=(",", ":")))
    assert 3000 < size < 4500
