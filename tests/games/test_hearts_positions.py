"""Features of the position a trick leaves, and the perfect-information game they are
learned in: hand-worked positions with exact values."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import mask_of, parse_cards
from fuzzeval.games.hearts.positions import POSITION_NAMES, features_of, position_features
from fuzzeval.games.hearts.positions_game import GAME, counted, queen_taker
from fuzzeval.play.match import play_game

#: seat 0: A-K-3-2 of spades and nine clubs; seat 1: the Q with one backer, four high
#: clubs, seven low diamonds; seat 2: three spades, six high diamonds, the four lowest
#: hearts; seat 3: the J-8 of spades and the nine highest hearts
DEAL = ("AS KS 2S 3S 2C 3C 4C 5C 6C 7C 8C 9C TC", "QS 4S JC QC KC AC 2D 3D 4D 5D 6D 7D 8D",
        "5S 6S 7S 9D TD JD QD KD AD 2H 3H 4H 5H", "8S 9S TS JS 6H 7H 8H 9H TH JH QH KH AH")


def _start() -> rules.State:
    hands = tuple(mask_of(parse_cards(h)) for h in DEAL)
    return rules.new_hand((hands[0], hands[1], hands[2], hands[3]), rules.STURTEVANT_WHITE)


def _seat(f: np.ndarray, seat: int) -> dict[str, float]:
    return {n: float(f[seat, k]) for k, n in enumerate(POSITION_NAMES)}


def test_the_first_lead_s_position_from_each_seat_worked_by_hand() -> None:
    f = features_of([_start()])[0]
    common = {"tricks_left": 13, "hearts_left": 13, "hearts_broken": 1}
    assert _seat(f, 0) == {**common, "leading": 1, "queen_here": 0, "queen_other": 1,
                           "spades_low": 2, "queen_guards": 1, "ace_spades": 1,
                           "king_spades": 1, "clubs": 9, "diamonds": 0, "hearts": 0,
                           "spades": 4, "exit_clubs": 1, "exit_diamonds": 0,
                           "exit_hearts": 0, "exit_spades": 1, "high_hearts": 0,
                           "others_void_hearts": 1, "others_void_spades": 0,
                           "leader_void_spades": 0}
    assert _seat(f, 1) == {**common, "leading": 0, "queen_here": 1, "queen_other": 0,
                           "spades_low": 1, "queen_guards": 0, "ace_spades": 0,
                           "king_spades": 0, "clubs": 4, "diamonds": 7, "hearts": 0,
                           "spades": 2, "exit_clubs": 0, "exit_diamonds": 1,
                           "exit_hearts": 0, "exit_spades": 0, "high_hearts": 0,
                           "others_void_hearts": 1, "others_void_spades": 0,
                           "leader_void_spades": 0}
    assert _seat(f, 2)["exit_hearts"] == 1 and _seat(f, 2)["others_void_hearts"] == 2
    assert _seat(f, 2)["exit_diamonds"] == 0 and _seat(f, 2)["spades_low"] == 3
    three = _seat(f, 3)
    assert (three["high_hearts"], three["hearts"], three["exit_hearts"]) == (9, 9, 0)
    assert (three["spades_low"], three["queen_guards"], three["others_void_hearts"]) == (
        4, 1, 2)


def test_a_later_position_the_queen_laid_and_a_void_leader() -> None:
    # seat 0's 2C..4C went, the QS and three low hearts were laid, seat 3 now leads
    # holding no spade
    start = _start()
    gone = mask_of(parse_cards("QS 2H 3H 4H 8S 9S TS JS"))
    hands = tuple(h & ~gone for h in start.hands)
    later = dataclasses.replace(start, hands=hands, played=gone, leader=3, to_move=3,
                                winners=(3, 3))
    f = features_of([later])[0]
    zero = _seat(f, 0)
    assert (zero["queen_here"], zero["queen_other"], zero["queen_guards"]) == (0, 0, 0)
    assert (zero["leader_void_spades"], zero["leading"], zero["tricks_left"]) == (1, 0, 11)
    assert zero["hearts_left"] == 10 and zero["others_void_spades"] == 1
    assert _seat(f, 3)["leader_void_spades"] == 0  # it leads itself
    assert _seat(f, 2)["high_hearts"] == 0 and _seat(f, 3)["high_hearts"] == 9


def test_a_batch_is_its_positions_one_by_one() -> None:
    start = _start()
    later = rules.apply(start, parse_cards("2C")[0])
    batch = features_of([start, later, start])
    assert np.array_equal(batch[0], features_of([start])[0])
    assert np.array_equal(batch[2], batch[0])
    assert features_of([]).shape == (0, 4, len(POSITION_NAMES))


def test_one_seat_s_view_is_that_seat_s_column() -> None:
    """As worked by hand above: seat 3 leads, seat 0 sees a leader void in spades."""
    start = _start()
    gone = mask_of(parse_cards("QS 2H 3H 4H 8S 9S TS JS"))
    hands = [h & ~gone for h in start.hands]
    args = ([hands], [gone], [3], [False], [2])
    every = position_features(*args)
    for seats in ((0,), (3,), (2, 0)):
        assert np.array_equal(position_features(*args, seats), every[:, list(seats)])
    zero = position_features(*args, (0,))[0, 0]
    assert zero[POSITION_NAMES.index("leader_void_spades")] == 1
    assert zero[POSITION_NAMES.index("tricks_left")] == 11


def test_the_queen_and_the_hearts_are_counted_apart() -> None:
    hand = _start()
    for card in ("2C", "JC", "9D", "6H"):  # seat 1's JC takes a heart
        hand = rules.apply(hand, parse_cards(card)[0])
    for card in ("4S", "5S", "8S", "2S"):  # seat 1 leads; seat 3's 8S wins
        hand = rules.apply(hand, parse_cards(card)[0])
    assert hand.winners == (1, 3) and queen_taker(hand) == -1
    assert counted(hand, "queen") == (0, 0, 0, 0)
    assert counted(hand, "hearts") == (0, 1, 0, 0) == counted(hand, "all")
    for card in ("9S", "AS", "QS", "6S"):  # seat 3 leads; seat 0's AS takes the QS
        hand = rules.apply(hand, parse_cards(card)[0])
    assert queen_taker(hand) == 0
    assert counted(hand, "queen") == (13, 0, 0, 0)
    assert counted(hand, "hearts") == (0, 1, 0, 0)
    assert counted(hand, "all") == (13, 1, 0, 0)


def test_every_seat_is_asked_at_every_position_and_paid_the_kind_of_points() -> None:
    seen: list[tuple[int, int]] = []
    record = play_game(GAME, [GAME.make_player("watch")] * 4, 1, 0, {"points": "queen"},
                       on_move=lambda state, seat, choice, after: seen.append(
                           (seat, len(state.hand.winners))))
    assert seen == [(s, t) for t in range(13) for s in range(4)]
    assert sorted(record.outcome.payoffs) == [0, 0, 0, 13]
    hearts = play_game(GAME, [GAME.make_player("watch")] * 4, 1, 0, {"points": "hearts"})
    assert sum(hearts.outcome.payoffs) == 13


def test_bad_options_and_players_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="points must be one of all, queen, hearts"):
        GAME.new_game(np.random.default_rng(0), 0, points="spades")
    with pytest.raises(ValueError, match="unknown hearts_positions player 'heuristic'"):
        GAME.make_player("heuristic")


def test_the_game_keeps_every_contract_of_a_plug_in() -> None:
    from fuzzeval.play.testing import check_game

    report = check_game(GAME)
    assert report.hooks == ("features", "payoff_so_far", "learning_game")
    assert report.decisions == 20 * 13 * 4 and report.kinds == {"position"}


def test_a_learn_of_position_values_is_the_same_bytes_with_one_worker_or_two(
        tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    texts = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.yaml"
        done = CliRunner().invoke(app, [
            "learn", "hearts_positions", "--option", "points=queen", "-n", "40", "--order",
            "1", "--update", "2", "--block", "20", "--sample-games", "10",
            "--measure-every", "0", "-w", workers, "--db", str(tmp_path / "learn.sqlite"
                                                               if workers == "1" else
                                                               tmp_path / "two.sqlite"),
            "-o", str(out)])
        assert done.exit_code == 0, done.output
        texts.append(out.read_text().split("\n", 1)[1])  # the name is the database's
    assert texts[0] == texts[1]
    from fuzzeval.formats.loading import load_rulebase

    learned = load_rulebase(tmp_path / "w1.yaml")
    assert "queen_here" in learned.input_names
    assert any(t.triangle.peak != 0 for t in learned.output.terms)  # it learned


def test_the_search_lays_the_cards_by_the_values_being_learned_and_a_fixed_base() -> None:
    """``play=search``: in a learn, the kind of points paid is valued by the conclusions
    being learned (``learning_game``), the other kind by the shipped base; outside a learn
    by both shipped bases; ``heuristic`` (the default) searches nothing."""
    from fuzzeval.games.hearts.position_values import position_values

    learning = position_values().hearts  # any evaluator of position features
    rng = np.random.default_rng(0)
    queen = GAME.learning_game(learning).new_game(rng, 0, points="queen", play="search")
    assert queen.search is not None and queen.search.queen is learning
    assert queen.search.hearts.rulebase.name == "hearts_positions_td_hearts"
    hearts = GAME.learning_game(learning).new_game(rng, 0, points="hearts", play="search")
    assert hearts.search is not None and hearts.search.hearts is learning
    assert hearts.search.queen.rulebase.name == "hearts_positions_td_queen"
    alone = GAME.new_game(rng, 0, points="hearts", play="search").search
    assert alone is not None and alone.hearts.rulebase.name == "hearts_positions_td_hearts"
    assert GAME.learning_game(learning).new_game(rng, 0, points="queen").search is None


def test_the_search_shoots_the_moon_where_it_is_cheaper() -> None:
    # One trick after this one: seat 3 has taken the Q and twelve hearts (25), seat 0 led
    # 5C, seat 1 shed the last heart, seat 2 laid 3C. Seat 3's 2C gives seat 0 the heart
    # (seat 3 keeps 25); its 9C takes all 26 points: the moon, 0 to it. The search shoots.
    from fuzzeval.games.hearts.position_values import position_values
    from fuzzeval.games.hearts.positions_game import play_trick
    from tests.test_maxn import position

    hand = position(("6D", "7D", "8D", "2C 9C"), 0, "5C 2H 3C", taken=(0, 0, 0, 25)).hand
    after = play_trick(hand, np.random.default_rng(0), position_values())
    assert after.winners[-1] == 3 and after.taken == (0, 0, 0, 26)
    assert after.laid[-1] == (3, parse_cards("9C")[0]) and not after.trick


@pytest.mark.parametrize(("options", "message"), [
    ({"play": "random"}, "play must be one of heuristic, search (got 'random')"),
    ({"queen": "mine.yaml"}, "queen: the bases the search values positions by need "
                             "play=search"),
    ({"play": "search"}, "give points=queen or points=hearts"),
])
def test_bad_play_options_are_refused_in_one_line(options: dict[str, str],
                                                  message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        GAME.new_game(np.random.default_rng(0), 0, **options)


def test_a_learn_under_the_search_is_the_same_bytes_with_two_workers_and_resumed(
        tmp_path: Path) -> None:
    """Learned with the search laying the cards: the same base with one worker, two, and
    stopped after its first block then resumed; not the base ``heuristic``'s play gives."""
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    def learn(name: str, games: int, workers: int, *more: str) -> str:
        done = CliRunner().invoke(app, [
            "learn", "hearts_positions", "--option", "points=queen", "-n", str(games),
            "--order", "1", "--update", "2", "--block", "12", "--sample-games", "4",
            "--measure-every", "0", "-w", str(workers), "--db",
            str(tmp_path / f"{name}.sqlite"), "-o", str(tmp_path / f"{name}.yaml"), *more])
        assert done.exit_code == 0, done.output
        return (tmp_path / f"{name}.yaml").read_text().split("\n", 1)[1]  # name: the db's

    search = ("--option", "play=search")
    one = learn("a", 24, 1, *search)
    assert learn("b", 24, 2, *search) == one
    learn("c", 12, 1, *search)
    assert learn("c", 24, 2, *search, "--resume") == one
    assert learn("d", 24, 1) != one


def test_a_match_without_a_player_names_the_one_to_use_and_with_watch_plays(
        tmp_path: Path) -> None:
    """-p's default, fuzzy, is no player of this game: one line naming its players; with
    ``-p watch`` the match plays (it stopped on a traceback: the game had no prepare)."""
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    db = ["--db", str(tmp_path / "m.sqlite"), "-w", "1", "-n", "4", "--json"]
    none = CliRunner().invoke(app, ["match", "hearts_positions", *db])
    assert none.exit_code == 2
    assert none.stderr == ("error: hearts_positions has no fuzzy player (-p's default): name "
                           "one with -p (players: watch, td)\n")
    done = CliRunner().invoke(app, ["match", "hearts_positions", "-p", "watch", *db])
    assert done.exit_code == 0, done.output
    assert '"games": 4' in done.stdout
