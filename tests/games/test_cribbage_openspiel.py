"""Hand and pegging scores cross-checked against OpenSpiel's ``cribbage`` (package
open_spiel), where its rules are right, and tests that document where they are not:
it scores a four-card flush in the crib, and it counts the show in player order.

OpenSpiel's card ids are suit * 13 + rank (suits C D H S); ours are rank * 4 + suit.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyspiel

from fuzzeval.games.cribbage import rules
from fuzzeval.games.cribbage.cards import JACK, parse_cards
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.scoring import score_hand, score_pegging

PASS = 2756
DATA = Path(__file__).resolve().parent.parent / "data"


def to_os(card: int) -> int:
    return (card % 4) * 13 + card // 4


def from_os(card: int) -> int:
    return (card % 13) * 4 + card // 13


def _discard_action(state: pyspiel.State, a: int, b: int) -> int:
    """The legal discard action for our cards a, b (OpenSpiel orders the pair itself)."""
    x, y = to_os(a), to_os(b)
    for action in (52 + 52 * x + y, 52 + 52 * y + x):
        if action in state.legal_actions():
            return action
    raise AssertionError(f"no legal discard for {a}, {b}")


def _deal(state: pyspiel.State, hands: tuple[list[int], list[int]], throws: list[list[int]],
          starter: int) -> None:
    for card in hands[0] + hands[1]:  # the first six go to player 0
        state.apply_action(to_os(card))
    for p in (0, 1):
        state.apply_action(_discard_action(state, *throws[p]))
    state.apply_action(to_os(starter))


def _play_one_deal(rng: np.random.Generator) -> dict[str, int]:
    """Deal, throw and peg at random in OpenSpiel; check every pegging reward and the show."""
    state = pyspiel.load_game("cribbage").new_initial_state()
    deck = rng.permutation(52).tolist()
    hands = (deck[:6], deck[6:12])
    throws = [list(rng.choice(h, 2, replace=False)) for h in hands]
    keeps = [[c for c in h if c not in t] for h, t in zip(hands, throws, strict=True)]
    starter = deck[12]
    _deal(state, hands, throws, starter)
    crib = throws[0] + throws[1]  # player 0 deals the first hand
    checked = {"pegging": 0, "crib_flush_4": 0, "last_card_31": 0, "last_go": 0}
    sequence: list[int] = []
    passed: set[int] = set()
    last_player = -1
    last_count: list[int] = []  # the count as it stood when the last card was laid
    while True:
        player = state.current_player()
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        rewards = state.rewards()
        show_done = state.is_chance_node() or state.is_terminal()
        if action != PASS:
            sequence.append(from_os(action))
            last_player, last_count = player, list(sequence)
            if not show_done:
                assert rewards[player] == score_pegging(sequence), sequence
                checked["pegging"] += 1
            if sum(min(c // 4 + 1, 10) for c in sequence) == 31:
                sequence, passed = [], set()
        else:
            passed.add(player)
            if len(passed) == 2:
                sequence, passed = [], set()
        if show_done:
            break
    # The show: our hand scores; OpenSpiel scores the crib like a hand (a 4-card flush counts).
    show = [score_hand(keeps[p], starter) for p in (0, 1)]
    crib_os_rule = score_hand(crib, starter, crib=False)
    if crib_os_rule != score_hand(crib, starter, crib=True):
        checked["crib_flush_4"] += 1
        assert crib_os_rule - score_hand(crib, starter, crib=True) == 4
    show[0] += crib_os_rule
    extra = [rewards[p] - show[p] for p in (0, 1)]
    # What is left over is the last card's pegging, for the side that laid it and only it:
    # one for last card, unless the count made 31 (two for the 31 instead, no go). When the
    # last card itself ended the play (it made 31), its points for pairs, runs and fifteen
    # come with the show; otherwise they came when it was laid (checked above).
    made_31 = sum(min(c // 4 + 1, 10) for c in last_count) == 31
    ended_by_the_card = action != PASS
    last = (score_pegging(last_count) if ended_by_the_card else 0) + (0 if made_31 else 1)
    assert extra == [last if p == last_player else 0 for p in (0, 1)], (extra, last_player)
    checked["last_card_31" if made_31 else "last_go"] += 1
    return checked


def test_random_deals_agree_with_openspiel() -> None:
    rng = np.random.default_rng(2024)
    totals = {"pegging": 0, "crib_flush_4": 0, "last_card_31": 0, "last_go": 0}
    for _ in range(400):
        for key, n in _play_one_deal(rng).items():
            totals[key] += n
    assert totals["pegging"] > 2000  # every card laid before the show was checked
    # Both endings of the play came up, so the last card was compared both ways.
    assert totals["last_card_31"] > 0 and totals["last_go"] > 0
    assert totals["last_card_31"] + totals["last_go"] == 400


def test_openspiel_scores_a_four_card_crib_flush() -> None:
    """Deviation (a): pagat's rules give a crib of four clubs with a diamond starter no flush."""
    state = pyspiel.load_game("cribbage").new_initial_state()
    hands = (list(parse_cards("AC 3C 2D 7H 9S JS")), list(parse_cards("8C QC 4H 6H TS KH")))
    throws = [list(parse_cards("AC 3C")), list(parse_cards("8C QC"))]
    starter = parse_cards(["KD"])[0]
    _deal(state, hands, throws, starter)
    assert score_hand(parse_cards("AC 3C 8C QC"), starter, crib=True) == 0
    last_player, last_action = -1, -1
    while not (state.is_chance_node() or state.is_terminal()):
        player, last_action = state.current_player(), min(state.legal_actions())
        state.apply_action(last_action)
        last_player = player if last_action != PASS else last_player
    assert last_action == PASS  # so the last card is worth exactly one point
    rewards = state.rewards()
    keeps = [[c for c in h if c not in t] for h, t in zip(hands, throws, strict=True)]
    show = [score_hand(keeps[p], starter) + (p == last_player) for p in (0, 1)]
    # The dealer (player 0) also receives 4 for a crib that scores 0 under pagat's rules.
    assert rewards[1] == show[1]
    assert rewards[0] == show[0] + 4


def test_openspiel_counts_the_show_in_player_order() -> None:
    """Deviation (b): with both sides over 121 after the show, OpenSpiel gives the game to
    player 0 even when player 0 deals, although pone counts first and gets there first."""
    actions = json.loads((DATA / "openspiel_show_order_seed12_actions.json").read_text())
    state = pyspiel.load_game("cribbage").new_initial_state()
    for a in actions[:-1]:
        state.apply_action(a)
    before = state.returns()
    state.apply_action(actions[-1])
    assert state.is_terminal()
    after = state.returns()
    assert after[0] > 0 > after[1]  # OpenSpiel: player 0 wins
    # That deal: player 0 deals, scores stand 118-120; pone (player 1) holds 2D 4S 9D KD and the
    # starter is KC: pone counts first, 4 points, 124 -- pone has won before the dealer counts.
    assert before == [118.0, 120.0]
    pone = score_hand(parse_cards("2D 4S 9D KD"), parse_cards(["KC"])[0])
    assert pone == 4 and before[1] + pone >= 121


def _our_first_deal(seed: int) -> tuple[rules.State, rules.State, list[tuple[int, int]]]:
    """Our engine plays one deal (seat 0 deals) with random choices: the state after the
    deal, the state when the play began, and every card laid as (seat, card)."""
    chance, chooser = np.random.default_rng([seed, 0]), np.random.default_rng([seed, 1])
    state = GAME.new_game(chance, 0)
    laid: list[tuple[int, int]] = []
    at_play = state
    while GAME.to_move(state) is not None and rules.deal_of(state) == 0:
        cands = GAME.candidates(state)
        choice = int(chooser.integers(len(cands)))
        if state.phase == "play":
            laid.append((state.to_move, rules.playable(state, state.to_move)[choice]))
        state = GAME.apply(state, choice, chance)
        if state.phase == "play" and not laid:
            at_play = state
    return state, at_play, laid


def test_whole_deals_played_by_our_rules_agree_with_openspiel() -> None:
    """Our game flow (who leads, go, thirty-one, last card, the show) replayed in OpenSpiel:
    the same seat lays each card, and each side ends the deal with the same points."""
    compared = 0
    for seed in range(300):
        after, at_play, laid = _our_first_deal(seed)
        if rules.deal_of(after) == 0:
            continue  # the game ended inside the first deal (cannot happen from 0-0)
        starter = at_play.starter
        crib = at_play.crib
        if starter // 4 == JACK or score_hand(crib, starter) != score_hand(crib, starter, True):
            continue  # his heels, and OpenSpiel's four-card crib flush: compared elsewhere
        state = pyspiel.load_game("cribbage").new_initial_state()
        first = GAME.new_game(np.random.default_rng([seed, 0]), 0)  # the deal as dealt
        throws = [[c for c in first.hands[p] if c not in at_play.hands[p]] for p in (0, 1)]
        _deal(state, (list(first.hands[0]), list(first.hands[1])), throws, starter)
        queue = list(laid)
        while not (state.is_chance_node() or state.is_terminal()):
            if state.legal_actions() == [PASS]:
                state.apply_action(PASS)
                continue
            seat, card = queue.pop(0)
            assert state.current_player() == seat, (seed, seat, card)
            state.apply_action(to_os(card))
        assert not queue
        ours = [sum(after.tally[p]) for p in (0, 1)]
        assert state.returns() == [float(x) for x in ours], seed
        compared += 1
    assert compared > 200
