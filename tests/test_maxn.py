"""Maxⁿ (``fuzzeval.search.maxn``): a textbook three-seat tree worked by hand, Hearts tricks
worked by hand (Sturtevant & White's search to the end of the trick, rules without
restrictions), depth one is the greedy choice, determinism, and refusals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import QUEEN_SPADES, card_str, mask_of, parse_cards
from fuzzeval.games.hearts.game import GAME, State
from fuzzeval.games.hearts.trick import points_taken, search_trick, trick_over
from fuzzeval.play.game import Candidates, Payoff
from fuzzeval.search.maxn import FloatArray, maxn

# A game given as a tree: a state is the path of choices so far; the seats move in turn,
# 0, 1, 2, 0, ...; ``TREE`` says how many options each path has, and a path not in it is
# over. Payoffs: more is better.
TREE: dict[tuple[int, ...], int] = {(): 2, (0,): 2, (1,): 2}
#: the leaves' vectors (seat 0, 1, 2)
LEAVES: dict[tuple[int, ...], tuple[int, int, int]] = {
    (0, 0): (3, 3, 3), (0, 1): (4, 2, 1), (1, 0): (1, 5, 2), (1, 1): (6, 1, 4)}


class TreeGame:
    payoff = Payoff("points", higher_is_better=True)
    seats = 3

    def to_move(self, state: tuple[int, ...]) -> int | None:
        return len(state) % 3 if state in TREE else None

    def candidates(self, state: tuple[int, ...]) -> Candidates:
        return Candidates("move", tuple(map(str, range(TREE[state]))), np.zeros((TREE[state], 0)))

    def apply(self, state: tuple[int, ...], choice: int, rng: np.random.Generator
              ) -> tuple[int, ...]:
        return (*state, choice)


def tree_values(leaves: Sequence[tuple[int, ...]]) -> FloatArray:
    return np.array([LEAVES[leaf] for leaf in leaves], dtype=np.float64)


def never(state: Any) -> bool:
    return False


def test_a_three_seat_tree_is_backed_up_by_each_seat_s_own_value() -> None:
    # Seat 1 chooses at (0,): (3,3,3) or (4,2,1) -> its own 3 > 2: (3,3,3).
    #                at (1,): (1,5,2) or (6,1,4) -> its own 5 > 1: (1,5,2).
    # Seat 0 at the root: 3 (option 0) > 1 (option 1): option 0, worth (3,3,3). A seat 0
    # that assumed seat 1 would help it (maximising seat 0's sum) would pick option 1 for 6.
    result = maxn(TreeGame(), (), tree_values, never)  # type: ignore[arg-type]
    assert result.choice == 0
    assert result.value.tolist() == [3.0, 3.0, 3.0]
    assert result.options.tolist() == [[3.0, 3.0, 3.0], [1.0, 5.0, 2.0]]
    assert result.leaves == 4


def test_until_stops_the_search_where_it_says() -> None:
    # Stopping after one ply: the leaves are (0,) and (1,), valued by a table of their own.
    table = {(0,): (1, 0, 0), (1,): (2, 0, 0)}
    result = maxn(TreeGame(), (), lambda ls: np.array([table[s] for s in ls]),  # type: ignore[arg-type]
                  lambda s: len(s) == 1)
    assert (result.choice, result.value.tolist(), result.leaves) == (1, [2.0, 0.0, 0.0], 2)


def test_ties_go_to_the_first_option() -> None:
    result = maxn(TreeGame(), (), lambda ls: np.ones((len(ls), 3)), never)  # type: ignore[arg-type]
    assert (result.choice, result.options.tolist()) == (0, [[1.0] * 3, [1.0] * 3])


# Hearts positions, Sturtevant & White's rules (no restrictions on leads or points).

def position(hands: tuple[str, str, str, str], leader: int, trick: str = "",
             taken: rules.Four = (0, 0, 0, 0),
             options: rules.Options = rules.STURTEVANT_WHITE) -> State:
    """A hand late in play: each seat holds ``hands[seat]``, ``leader`` led the cards of
    ``trick`` (the others following in turn), every other card was laid before."""
    masks = [mask_of(parse_cards(h)) for h in hands]
    held: rules.Four = (masks[0], masks[1], masks[2], masks[3])
    on_table = tuple(parse_cards(trick))
    left = len(parse_cards(hands[leader])) + bool(on_table)
    played = ((1 << 52) - 1) ^ (held[0] | held[1] | held[2] | held[3])
    before = [c for c in range(52) if played >> c & 1 and c not in on_table]
    laid = (*((0, c) for c in before),
            *(((leader + i) % 4, c) for i, c in enumerate(on_table)))
    hand = rules.State(options, 0, rules.NO_PASS, held, held,
                       ((), (), (), ()), "play", (leader + len(on_table)) % 4, leader,
                       on_table, played, laid, (leader,) * (13 - left), (0, 0, 0, 0),
                       taken, True)
    return State(hand)


def card(state: State, choice: int) -> str:
    return card_str(rules.legal(state.hand)[choice])


def test_the_last_seat_ducks_under_the_queen() -> None:
    # 10S led by seat 0, seat 1 laid the QS, seat 2 the 2S; seat 3 holds 3S AS 4H and
    # must follow in spades: 3S leaves the QS with seat 1 (the highest spade):
    # (2, 0+13, 5, 1); AS takes it: (2, 0, 5, 1+13). Seat 3 (cost 1 < 14) ducks.
    state = position(("9C", "8C", "7C", "3S AS 4H"), 0, "TS QS 2S", taken=(2, 0, 5, 1))
    result = search_trick(state)
    assert card(state, result.choice) == "3S"
    assert result.value.tolist() == [2.0, 13.0, 5.0, 1.0]
    assert result.options.tolist() == [[2.0, 13.0, 5.0, 1.0], [2.0, 0.0, 5.0, 14.0]]
    assert result.leaves == 2


def test_the_last_seat_holding_only_higher_spades_must_take_the_queen() -> None:
    # The same trick; seat 3 holds KS AS 4H: either spade wins the QS (1 + 13 = 14), a
    # tie that goes to the first legal card, the KS.
    state = position(("9C", "8C", "7C", "KS AS 4H"), 0, "TS QS 2S", taken=(2, 0, 5, 1))
    result = search_trick(state)
    assert card(state, result.choice) == "KS"
    assert result.options.tolist() == [[2.0, 0.0, 5.0, 14.0]] * 2


def holding_queen(leaves: Sequence[State]) -> FloatArray:
    """A crude value of a position: the points taken, and half the QS's 13 to a seat that
    still holds it (what a learned value of the position would know better)."""
    values = points_taken(leaves)
    for i, leaf in enumerate(leaves):
        for seat in range(4):
            if leaf.hand.hands[seat] >> QUEEN_SPADES & 1:
                values[i, seat] += 6.5
    return values


def test_a_seat_void_in_the_suit_led_dumps_the_queen_on_the_winner() -> None:
    # 5D led by seat 0, 9D by seat 1, 7D by seat 2: seat 1 wins the trick as it stands.
    # Seat 3, void in diamonds, holds 2C 3H QS (that order): with ``holding_queen``
    # 2C: (0, 0, 0, 6.5); 3H: (0, 1, 0, 6.5); QS: (0, 13, 0, 0). Seat 3 dumps the QS.
    state = position(("8C", "6C", "4C", "2C 3H QS"), 0, "5D 9D 7D")
    result = search_trick(state, holding_queen)
    assert card(state, result.choice) == "QS"
    assert result.value.tolist() == [0.0, 13.0, 0.0, 0.0]
    assert result.options.tolist() == [[0, 0, 0, 6.5], [0, 1, 0, 6.5], [0, 13, 0, 0]]
    # Valued by the points alone, all three cost seat 3 nothing: the tie goes to the 2C.
    assert card(state, search_trick(state).choice) == "2C"


def test_the_third_seat_keeps_the_queen_when_the_last_can_duck() -> None:
    # JS led by seat 0, 3S by seat 1; seat 2 holds 2S QS; seat 3 holds 4S 5H and must
    # follow with its 4S. 2S: seat 0 wins a pointless trick and seat 2 keeps the QS:
    # (0, 0, 6.5, 0); QS: seat 2 wins its own queen: (0, 0, 13, 0). Maxⁿ keeps it (2S);
    # the greedy one-ply choice, blind to seat 3's reply, dumps it (6.5 > 0 as it stands).
    state = position(("9C", "8C", "2S QS", "4S 5H"), 0, "JS 3S")
    result = search_trick(state, holding_queen)
    assert card(state, result.choice) == "2S"
    assert result.options.tolist() == [[0, 0, 6.5, 0], [0, 0, 13, 0]]
    greedy = maxn(GAME, state, holding_queen, lambda s: True)
    assert card(state, greedy.choice) == "QS"


def test_a_lead_where_the_search_beats_the_first_card() -> None:
    # Seat 0 leads from 2D 3S; seat 1 holds 4H QS, seat 2 5H 6H, seat 3 7H 8H, all void
    # in diamonds. 2D: nobody follows, seat 0 wins; seat 1 discards 4H (0 either way: the
    # tie goes to the 4H, before the QS), seats 2 and 3 their first hearts: seat 0 takes
    # 4H 5H 7H = (3, 0, 0, 0). 3S: seat 1 must lay its QS, the only other spade, and wins
    # it with two hearts: (0, 15, 0, 0). Seat 0 leads the 3S; the greedy one-ply choice
    # sees no points yet and keeps the first card, the 2D.
    state = position(("2D 3S", "4H QS", "5H 6H", "7H 8H"), 0)
    result = search_trick(state)
    assert card(state, result.choice) == "3S"
    assert result.value.tolist() == [0.0, 15.0, 0.0, 0.0]
    assert result.options.tolist() == [[3.0, 0.0, 0.0, 0.0], [0.0, 15.0, 0.0, 0.0]]
    assert result.leaves == 2 * 2 * 2 + 1 * 2 * 2
    assert card(state, maxn(GAME, state, points_taken, lambda s: True).choice) == "2D"


def dealt(seed: int, cards: int) -> State:
    """A one-hand game of Sturtevant & White's rules after ``cards`` random cards."""
    rng = np.random.default_rng(seed)
    state: State = GAME.new_game(rng, 0, rules="sturtevant-white")
    for _ in range(cards):
        state = GAME.apply(state, int(rng.integers(len(GAME.candidates(state)))), rng)
    return state


def holding(leaves: Sequence[State]) -> FloatArray:
    """Points taken and a hundredth of the ranks held: a value that tells moves apart."""
    values = points_taken(leaves)
    for i, leaf in enumerate(leaves):
        for seat in range(4):
            values[i, seat] += sum(c // 4 for c in range(52)
                                   if leaf.hand.hands[seat] >> c & 1) / 100
    return values


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 50))
def test_one_ply_is_the_greedy_choice(seed: int, cards: int) -> None:
    state = dealt(seed, cards)
    seat = GAME.to_move(state)
    assert seat is not None
    after = [GAME.apply(state, c, np.random.default_rng(0))
             for c in range(len(GAME.candidates(state)))]
    own = holding(after)[:, seat]
    result = maxn(GAME, state, holding, lambda s: True)
    assert result.choice == int(np.argmin(own))
    assert result.options.tolist() == holding(after).tolist()


def test_a_search_is_deterministic() -> None:
    for seed in range(5):
        state = dealt(seed, 4 * seed + 1)
        first, again = search_trick(state), search_trick(state)
        assert first.choice == again.choice and first.leaves == again.leaves
        assert np.array_equal(first.options, again.options)
        assert trick_over(state) is False


class Uncounted:
    """Hearts without its ``option_count`` hook: maxⁿ counts the candidates instead."""

    payoff, seats = GAME.payoff, GAME.seats
    to_move, candidates, apply = GAME.to_move, GAME.candidates, GAME.apply


def test_the_option_count_hook_changes_nothing_but_the_speed() -> None:
    for seed in range(5):
        state = dealt(seed, 3 * seed)
        counted = search_trick(state)
        uncounted = maxn(Uncounted(), state, points_taken, trick_over)  # type: ignore[arg-type]
        assert (counted.choice, counted.leaves) == (uncounted.choice, uncounted.leaves)
        assert np.array_equal(counted.options, uncounted.options)


def test_refusals() -> None:
    state = position(("9C", "8C", "7C", "3S AS 4H"), 0, "TS QS 2S")
    with pytest.raises(ValueError, match=r"leaf values have shape \(2, 3\), not \(2, 4\)"):
        maxn(GAME, state, lambda ls: np.zeros((len(ls), 3)), trick_over)
    with pytest.raises(ValueError, match="leaf 1 is worth nan to seat 2; every value"):
        maxn(GAME, state, lambda ls: np.array([[0, 0, 0, 0], [0, 0, np.nan, 0]]),
             trick_over)
    with pytest.raises(ValueError, match="more than 1 leaves; the search must stop sooner"):
        maxn(GAME, state, points_taken, trick_over, max_leaves=1)
    over = GAME.apply(position(("", "", "", "3S"), 0, "TS QS 2S"), 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="maxn: the game is over, nobody to move"):
        maxn(GAME, over, points_taken, trick_over)


# The Hearts binding's leaf values (``hearts.trick.points_taken``).

def test_the_last_trick_is_valued_as_the_hand_scores_it_a_moon_shot_included() -> None:
    # One card each; seat 0, on 25 points, leads the AH and nobody can follow: it takes
    # the 26th and shoots the moon: 0 to it, 26 to each other seat.
    state = position(("AH", "2C", "3C", "4C"), 0, taken=(25, 0, 0, 0))
    result = search_trick(state)
    assert (result.choice, result.leaves) == (0, 1)
    assert result.value.tolist() == [0.0, 26.0, 26.0, 26.0]


def test_a_longer_game_s_last_trick_is_valued_by_the_hand_it_ends() -> None:
    # The same trick in a game to 100: the next hand is dealt (its taken points all 0),
    # and the leaf is worth what the hand just ended scored.
    options = rules.Options(False, False, False, True, target=100)
    state = position(("AH", "2C", "3C", "4C"), 0, taken=(25, 0, 0, 0), options=options)
    result = search_trick(state)
    assert result.value.tolist() == [0.0, 26.0, 26.0, 26.0]
    after, rng = state, np.random.default_rng(0)
    for _ in range(4):
        after = GAME.apply(after, 0, rng)
    assert (after.hand.hand_number, after.hand.taken, after.past) == (1, (0, 0, 0, 0),
                                                                      ((0, 26, 26, 26),))
    assert points_taken([after]).tolist() == [[0.0, 26.0, 26.0, 26.0]]


def test_the_pass_has_no_trick_to_search() -> None:
    state = GAME.new_game(np.random.default_rng(0), 0)
    assert state.hand.phase == "pass"
    with pytest.raises(ValueError, match="search_trick: the hand is in its pass phase, "
                                         "not in a trick"):
        search_trick(state)


# Pinned after mutation testing (docs/checking.md): each fails with its mutant applied.

class ChanceGame:
    """One move of seat 0's, options 0 and 1, each bringing a draw of chance: the state
    it leads to is (option, the draw), over; a leaf is worth its draw to the seat."""

    payoff = Payoff("points", higher_is_better=True)
    seats = 1

    def to_move(self, state: tuple[float, ...]) -> int | None:
        return 0 if state == () else None

    def candidates(self, state: tuple[float, ...]) -> Candidates:
        return Candidates("move", ("0", "1"), np.zeros((2, 0)))

    def apply(self, state: tuple[float, ...], choice: int, rng: np.random.Generator
              ) -> tuple[float, ...]:
        return (choice, float(rng.random()))


@pytest.mark.mutation_pin
def test_chance_inside_the_search_is_drawn_from_its_generator_seed_0_by_default() -> None:
    def drawn(leaves: Sequence[tuple[float, float]]) -> FloatArray:
        return np.array([[leaf[1]] for leaf in leaves])

    for rng, seed in ((None, 0), (np.random.default_rng(5), 5)):
        result = maxn(ChanceGame(), (), drawn, never, rng)  # type: ignore[arg-type]
        draws = np.random.default_rng(seed).random(2)  # option 0's draw, then option 1's
        assert result.options.tolist() == [[draws[0]], [draws[1]]]
        assert result.choice == int(draws[1] > draws[0])


class Counted(TreeGame):
    """The tree game with an ``option_count`` hook: its candidates are never needed."""

    def option_count(self, state: tuple[int, ...]) -> int:
        return TREE[state]

    def candidates(self, state: tuple[int, ...]) -> Candidates:
        raise AssertionError("the search built the candidates: option_count was not used")


@pytest.mark.mutation_pin
def test_a_game_s_option_count_hook_counts_the_options_instead_of_its_candidates() -> None:
    result = maxn(Counted(), (), tree_values, never)  # type: ignore[arg-type]
    assert (result.choice, result.options.tolist(), result.leaves) == (
        0, [[3.0, 3.0, 3.0], [1.0, 5.0, 2.0]], 4)


@pytest.mark.mutation_pin
def test_the_refusal_of_a_finished_game_is_its_whole_line() -> None:
    over = GAME.apply(position(("", "", "", "3S"), 0, "TS QS 2S"), 0, np.random.default_rng(0))
    with pytest.raises(ValueError) as exc:
        maxn(GAME, over, points_taken, trick_over)
    assert str(exc.value) == "maxn: the game is over, nobody to move"


@pytest.mark.mutation_pin
def test_a_longer_game_s_later_hand_values_a_trick_by_that_hand_s_points() -> None:
    # The first test's trick, in the second hand of a game to 100 (the first hand scored
    # 0, 26, 26, 26): the leaves are worth this hand's points so far, not the last hand's.
    options = rules.Options(False, False, False, True, target=100)
    hand = position(("9C", "8C", "7C", "3S AS 4H"), 0, "TS QS 2S", taken=(2, 0, 5, 1),
                    options=options).hand
    state = State(hand, ((0, 26, 26, 26),))
    assert points_taken([state]).tolist() == [[2.0, 0.0, 5.0, 1.0]]
    result = search_trick(state)
    assert (card(state, result.choice), result.value.tolist()) == ("3S", [2.0, 13.0, 5.0, 1.0])


@pytest.mark.mutation_pin
def test_an_inner_seat_takes_its_best_option_and_keeps_the_first_of_a_tie() -> None:
    # Seat 1 at (0,): its own 1 or 2 -> the second option, (4, 2, 1); at (1,): its own 5 or
    # 5 -> a tie, the first kept, (1, 5, 2) (the second, (6, 5, 4), would pay seat 0 more).
    # Seat 0: 4 > 1, option 0.
    leaves = {(0, 0): (3, 1, 3), (0, 1): (4, 2, 1), (1, 0): (1, 5, 2), (1, 1): (6, 5, 4)}
    result = maxn(TreeGame(), (), lambda ls: np.array([leaves[leaf] for leaf in ls]),  # type: ignore[arg-type]
                  never)
    assert (result.choice, result.options.tolist()) == (0, [[4.0, 2.0, 1.0], [1.0, 5.0, 2.0]])
    # the values given as Python ints come back as float64, the results' type
    assert result.options.dtype == result.value.dtype == np.float64
