"""Hearts cards and rules: notation, hand-worked tricks, passing, points, moon shots, the
game to 100, and invariants of random hands (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.errors import NotationError
from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import (
    card_str,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
)
from fuzzeval.games.hearts.rules import STANDARD, STURTEVANT_WHITE, Options, State


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def names(cards: list[int]) -> str:
    return " ".join(card_str(c) for c in cards)


#: the "void on the first trick" deal: seat 0 clubs 2-8 and diamonds 2-7; seat 1 clubs 9-A
#: and hearts 2-8; seat 2 diamonds 8-A and spades 2-7; seat 3 hearts 9-A and spades 8-A
SPLIT = (
    hand("2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D"),
    hand("9C TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H"),
    hand("2S 3S 4S 5S 6S 7S 8D 9D TD JD QD KD AD"),
    hand("9H TH JH QH KH AH 8S 9S TS JS QS KS AS"),
)
#: the moon deal: seat 0 holds every club, seat 1 every heart, 2 diamonds, 3 spades
SUITED = tuple(mask_of(4 * r + s for r in range(13)) for s in (0, 2, 1, 3))
#: seat 1 takes the first three tricks with AC KC QC, then holds only hearts
HEARTS_ONLY = (
    hand("2C 3C 4C 5C QH KH AH 2D 3D 4D 5D 6D 7D"),
    hand("AC KC QC 2H 3H 4H 5H 6H 7H 8H 9H TH JH"),
    hand("6C 7C 8C 8D 9D TD JD QD KD AD 2S 3S 4S"),
    hand("9C TC JC 5S 6S 7S 8S 9S TS JS QS KS AS"),
)
#: the same, but seat 1 keeps the QS and nine hearts (seat 3 the JH)
QUEEN_AND_HEARTS = (
    HEARTS_ONLY[0], hand("AC KC QC QS 2H 3H 4H 5H 6H 7H 8H 9H TH"), HEARTS_ONLY[2],
    hand("9C TC JC 5S 6S 7S 8S 9S TS JS JH KS AS"),
)
#: seat 1 holds the QS and twelve hearts: only points cards on the first trick
ALL_POINTS = (
    SUITED[0], hand("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"), SUITED[2],
    hand("AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"),
)
CLUB_TRICKS = ["2C", "AC", "6C", "9C", "KC", "7C", "TC", "3C", "QC", "8C", "JC", "4C"]


def play(state: State, *tokens: str) -> State:
    for token in tokens:
        state = rules.apply(state, parse_card(token))
    return state


def test_card_ids_are_openspiels() -> None:
    assert parse_card("2C") == 0 and parse_card("2D") == 1 and parse_card("3C") == 4
    assert parse_card("QS") == 43 and parse_card("AS") == 51 and parse_card("AH") == 50
    assert parse_card("10H") == parse_card("TH") == parse_card("th") == 34
    assert card_str(43) == "QS" and card_str(0) == "2C"
    assert parse_cards("QS, 10h 2C") == (43, 34, 0)


@pytest.mark.parametrize(("token", "says"), [
    ("1C", "unknown rank"), ("QX", "unknown suit"), ("Q", "a rank and a suit"),
    (52, r"from 0 \(2C\) to 51"), (3.5, "written like"), ("11S", "unknown rank")])
def test_bad_cards_name_the_token(token: object, says: str) -> None:
    with pytest.raises(NotationError, match=says) as error:
        parse_card(token)  # type: ignore[arg-type]
    assert str(token) in str(error.value) or repr(token) in str(error.value)


def test_duplicate_and_count() -> None:
    with pytest.raises(NotationError, match=r"'QS'.*twice"):
        parse_cards("QS 2C qs")
    with pytest.raises(NotationError, match="expected 3 cards"):
        parse_cards("QS 2C", count=3)


def test_trick_winner_is_the_highest_of_the_led_suit() -> None:
    # seat 2 leads 5D; AS and AH are off-suit and cannot win; KD (seat 0) wins
    trick = parse_cards("5D AS KD AH")
    assert rules.trick_winner(2, trick) == 0
    assert rules.trick_winner(3, parse_cards("2C 3D 4H 5S")) == 3


def test_first_trick_void_and_queen_breaking_hearts() -> None:
    state = rules.new_hand(SPLIT, STANDARD, hand_number=3)  # hand 3: no passing
    assert state.phase == "play" and state.to_move == 0
    assert names(rules.legal(state)) == "2C"
    state = play(state, "2C", "9C")
    assert names(rules.legal(state)) == "2S 3S 4S 5S 6S 7S 8D 9D TD JD QD KD AD"
    state = play(state, "2S")
    # void in clubs on the first trick: no heart, no QS while another card is there
    assert names(rules.legal(state)) == "8S 9S TS JS KS AS"
    state = play(state, "8S")
    assert state.winners == (1,) and state.to_move == 1 and state.voids == (0, 0, 1, 1)
    # hearts not broken: seat 1 must lead a club
    assert names(rules.legal(state)) == "TC JC QC KC AC"
    state = play(state, "TC", "8D", "QS")
    assert state.broken  # the QS broke hearts
    state = play(state, "3C")
    assert state.taken == (0, 13, 0, 0) and state.to_move == 1
    assert names(rules.legal(state)) == "2H 3H 4H 5H 6H 7H 8H JC QC KC AC"


def test_sturtevant_white_variant_has_no_restrictions_but_a_club_lead() -> None:
    state = rules.new_hand(SPLIT, STURTEVANT_WHITE)
    assert names(rules.legal(state)) == "2C 3C 4C 5C 6C 7C 8C"
    state = play(state, "8C", "9C", "2S")
    assert names(rules.legal(state)) == "8S 9H 9S TH TS JH JS QH QS KH KS AH AS"
    state = play(state, "QS")
    assert state.taken == (0, 13, 0, 0)
    # hearts may be led at once in the variant
    assert "2H" in names(rules.legal(state))


def test_moon_shot_and_only_points_on_the_first_trick() -> None:
    state = rules.new_hand(SUITED, STANDARD, hand_number=3)
    assert state.to_move == 0
    state = play(state, "2C")
    # seat 1 has only hearts: it may play one on the first trick
    assert len(rules.legal(state)) == 13
    state = play(state, "2H", "2D")
    assert "QS" not in names(rules.legal(state))
    state = play(state, "2S")
    for r in "3456789TJQKA":
        state = play(state, r + "C")
        for _ in range(3):
            state = rules.apply(state, rules.legal(state)[-1])  # highest (QS at last)
    assert state.phase == "over" and state.winners == (0,) * 13
    assert state.taken == (26, 0, 0, 0)
    assert rules.hand_points(state) == (0, 26, 26, 26) == rules.points(state)


def test_a_leader_with_only_hearts_may_lead_them_and_the_queen_comes_first() -> None:
    state = play(rules.new_hand(HEARTS_ONLY, STANDARD, 3), *CLUB_TRICKS[:4])
    assert names(rules.legal(state)) == "QC KC"  # hearts not broken
    state = play(state, *CLUB_TRICKS[4:])
    assert not state.broken and state.to_move == 1
    assert names(rules.legal(state)) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH"
    state = play(rules.new_hand(QUEEN_AND_HEARTS, STANDARD, 3), *CLUB_TRICKS)
    assert names(rules.legal(state)) == "QS"  # hearts and the QS: the QS
    state = play(state, "QS")
    assert state.broken


def test_only_points_on_the_first_trick_the_queen_included() -> None:
    state = play(rules.new_hand(ALL_POINTS, STANDARD, 3), "2C")
    assert len(rules.legal(state)) == 13 and "QS" in names(rules.legal(state))
    state = play(state, "QS", "2D")
    assert names(rules.legal(state)) == "2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"  # not AH


def test_a_finished_game_takes_no_card() -> None:
    state = rules.new_hand(SUITED, STANDARD, 3)
    while state.phase != "over":
        state = rules.apply(state, rules.legal(state)[0])
    assert rules.legal(state) == []
    with pytest.raises(NotationError, match="the game is over"):
        rules.apply(state, 0)
    with pytest.raises(ValueError, match="over"):
        _ = state.kind
    with pytest.raises(ValueError, match="not over"):
        rules.points(rules.new_hand(SUITED, STANDARD, 3))


def test_options_refuse_a_negative_target() -> None:
    with pytest.raises(ValueError, match="target"):
        Options(target=-1)


def test_passing_goes_left_right_across_then_none() -> None:
    directions = [rules.new_hand(SPLIT, STANDARD, h).direction for h in range(5)]
    assert directions == [rules.LEFT, rules.RIGHT, rules.ACROSS, rules.NO_PASS, rules.LEFT]
    assert rules.new_hand(SPLIT, STURTEVANT_WHITE, 0).phase == "play"
    state = rules.new_hand(SPLIT, STANDARD, 0)  # left: seat s gives to seat s + 1
    chosen = ["2C 7D 6D", "AC KC 8H", "AD KD QD", "QS AS AH"]
    for seat in range(4):
        assert state.phase == "pass" and state.to_move == seat
        for token in chosen[seat].split():
            state = rules.apply(state, parse_card(token))
    assert state.phase == "play"
    assert state.hands[1] & hand("2C 7D 6D") == hand("2C 7D 6D")
    assert state.hands[0] & hand("QS AS AH") == hand("QS AS AH")
    assert state.to_move == 1  # the 2C went left to seat 1, who leads
    assert state.passed[0] == parse_cards("2C 7D 6D")


def test_an_illegal_card_is_refused_with_the_legal_ones() -> None:
    state = rules.new_hand(SPLIT, STANDARD, 3)
    with pytest.raises(NotationError, match=r"'3C'.*seat 0 may play 2C"):
        rules.apply(state, parse_card("3C"))
    with pytest.raises(NotationError, match="'9C'"):
        rules.apply(state, parse_card("9C"))  # not in seat 0's hand


def test_a_bad_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="four hands of 13"):
        rules.new_hand((SPLIT[0], SPLIT[0], SPLIT[2], SPLIT[3]))


def test_play_to_100_adds_hands_until_a_total_reaches_it() -> None:
    rng = np.random.default_rng(7)
    options = Options(target=100)
    state = rules.new_game(rng, options)
    hands_seen = []
    while state.phase != "over":
        hands_seen.append(state.hand_number)
        state = random_hand_step(state, rng)
    totals = rules.points(state)
    assert max(totals) >= 100
    assert hands_seen == sorted(hands_seen) and hands_seen[0] == 0
    numbers = sorted(set(hands_seen))
    assert numbers == list(range(len(numbers))) and len(numbers) >= 4
    # every hand is worth 26 points, or 78 after a moon shot
    assert sum(totals) % 26 == 0 and len(numbers) * 26 <= sum(totals)
    stuck = rules.new_hand(SUITED, Options(target=100, passing=False))
    with pytest.raises(ValueError, match="needs an rng"):
        while stuck.phase != "over":
            stuck = rules.apply(stuck, rules.legal(stuck)[0])


def random_hand_step(state: State, rng: np.random.Generator) -> State:
    options = rules.legal(state)
    return rules.apply(state, options[int(rng.integers(len(options)))], rng)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.booleans(), number=st.integers(0, 3))
def test_random_hands_keep_the_invariants(seed: int, variant: bool, number: int) -> None:
    rng = np.random.default_rng(seed)
    options = STURTEVANT_WHITE if variant else STANDARD
    state = rules.new_hand(rules.deal(rng), options, number)
    while state.phase != "over":
        legal = rules.legal(state)
        assert legal and all(state.hands[state.to_move] >> c & 1 for c in legal)
        if state.phase == "play":
            held = [h.bit_count() for h in state.hands]
            assert sum(held) + state.played.bit_count() == 52
        state = rules.apply(state, legal[int(rng.integers(len(legal)))])
    assert sum(state.taken) == 26 and state.played == (1 << 52) - 1
    assert sorted(c for _, c in state.laid) == list(range(52))
    assert sum(rules.hand_points(state)) in (26, 78)
    assert cards_of(state.played) == list(range(52))


def test_hearts_imports_only_errors_numpy_and_itself() -> None:
    """The library stays below the core being rewritten: fuzzeval.errors, numpy, the
    standard library, and pyspiel inside the OpenSpiel bridge's functions only."""
    import ast
    import sys
    from pathlib import Path

    folder = Path(rules.__file__).parent
    # fuzzeval.engine.kernels.jit (numba on first call) stands on the standard library alone
    # fuzzeval.play.game: the plug-in protocol's types (a Feature), nothing that plays;
    # fuzzeval.lazy: the package's exports imported on first use (the standard library alone)
    allowed = {"fuzzeval.errors", "fuzzeval.games.cards", "fuzzeval.engine.kernels.jit",
               "fuzzeval.play.game", "fuzzeval.lazy", "numpy", "numpy.typing", "__future__"}
    # the plug-in and what stands on it (players from rule bases, sampling, the search to
    # the end of the trick, the learned values of positions and the Monte-Carlo player, the
    # CLI, the OpenSpiel bot, the perfect-information game the values are learned in) use
    # the core; the library below them does not
    above = {"game.py", "cli.py", "fuzzy.py", "sampling.py", "openspiel.py", "play.py",
             "monte_carlo.py", "trick.py", "position_values.py", "positions_game.py"}
    for path in (p for p in folder.glob("*.py") if p.name not in above):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                top = name.split(".")[0]
                ok = (name in allowed or name.startswith("fuzzeval.games.hearts")
                      or top in sys.stdlib_module_names
                      or top == "mutmut"  # its trampolines, in mutation testing's copy
                      or (name == "pyspiel" and path.name == "openspiel.py"))
                assert ok, (path.name, name)
