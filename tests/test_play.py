"""``fuzzeval play``: a person's input read and checked, advice on '?', clean stops, and a
whole scripted game stored as the transcript told it."""

from __future__ import annotations

import builtins
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.cli.common import named_player
from fuzzeval.errors import NotationError
from fuzzeval.games.backgammon.board import START, Position
from fuzzeval.games.backgammon.game import GAME as BACKGAMMON
from fuzzeval.games.backgammon.play import BackgammonPlay, parse_play
from fuzzeval.games.cribbage.cards import card_str as _str
from fuzzeval.games.cribbage.cards import parse_card, parse_cards
from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.games.cribbage.pegging.policies import PegView
from fuzzeval.games.cribbage.play import CribbagePlay, peg_reason
from fuzzeval.games.cribbage.players import DiscardView
from fuzzeval.games.cribbage.scoring import score_pegging
from fuzzeval.play.game import Advice, Candidates
from fuzzeval.play.match import make_player, play_game
from fuzzeval.play.store import History, read_games

runner = CliRunner()


class FirstOption:
    """Takes option 0 and notes what a person would type for it (its label)."""

    def __init__(self) -> None:
        self.typed: list[str] = []

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        if len(candidates) > 1:  # one option is taken without asking
            self.typed.append(candidates.labels[0])
        return 0


def _advice(game: object, play: object, candidates: Candidates) -> list[Advice]:
    """What the interface's advisors would choose, as ``?`` asks them."""
    return [play.advise(candidates, named_player(game, name), name)  # type: ignore[attr-defined]
            for name in play.advisors]  # type: ignore[attr-defined]


# --- reading what a person types --------------------------------------------------------
def _discard(hand: str) -> Candidates:
    six = tuple(sorted(parse_cards(hand)))
    return Candidates("discard", ("",) * 15, np.zeros((15, 0)), view=DiscardView(six, True,
                                                                                  (0, 0)))


def _peg(hand: str, count: str, options: str) -> Candidates:
    held = parse_cards(hand)
    view = PegView(parse_cards(options), held, held, parse_cards(count), parse_cards(count),
                   parse_card("2S"), False)
    return Candidates("play", ("",) * len(view.options), np.zeros((len(view.options), 0)),
                      view=view)


def test_a_discard_is_two_cards_of_the_hand_in_any_order() -> None:
    play = CribbagePlay()
    cands = _discard("AC 3D 5H 5S JD KC")  # sorted: AC 3D 5H 5S JD KC
    # THROWS lists pairs of positions (0,1), (0,2), ... : 5H 5S are positions 2 and 3
    assert play.parse("5s 5h", cands) == play.parse("5H 5S", cands) == 9
    assert play.parse("AC 3D", cands) == 0
    for text, message in (("5X 5S", "unknown suit 'X'"), ("5H", "throw exactly two cards"),
                          ("5H 5S JD", "throw exactly two cards"),
                          ("5H 6S", "'6S': not in your hand (AC 3D 5H 5S JD KC)")):
        with pytest.raises(NotationError, match=re.escape(message)):
            play.parse(text, cands)


def test_a_card_that_would_pass_31_is_refused_naming_the_count() -> None:
    play = CribbagePlay()
    cands = _peg("2C 9S", "TD JH 5C", "2C")  # count 25: 2C fits, 9S would make 34
    assert play.parse("2c", cands) == 0
    with pytest.raises(NotationError, match="would make the count 34, over 31; you may lay 2C"):
        play.parse("9S", cands)
    with pytest.raises(NotationError, match="not in your hand"):
        play.parse("3C", cands)


@pytest.mark.parametrize(("cards", "points", "said"), [
    ("7C 8D", 2, "fifteen for 2"),
    ("5C 5D 5H", 8, "fifteen and pair royal for 8"),  # 5 + 5 + 5 = 15, and three fives
    ("4C 5D 6H", 5, "fifteen and a run of three for 5"),  # 4 + 5 + 6 = 15, and 4-5-6
    ("5C 5D", 2, "a pair for 2"),
    ("3C 4D 2H AS", 4, "a run of four for 4"),
    ("3C 4D 2H AS 5S", 7, "fifteen and a run of five for 7"),  # 15, and A-2-3-4-5
    ("3C 4D 2H 6S 5S", 5, "a run of five for 5"),  # 2-3-4-5-6, 20
    ("3C 4D 2H 6S 5S 7H", 6, "a run of six for 6"),
    ("KC QD TH AS", 2, "thirty-one for 2"),
])
def test_what_a_card_scores_in_the_play_is_named(cards: str, points: int, said: str) -> None:
    seq = parse_cards(cards)
    assert score_pegging(seq) == points  # the scorer agrees with the hand count
    assert peg_reason(seq, points) == said


def test_a_backgammon_play_is_found_by_the_position_it_reaches() -> None:
    start = START
    after = parse_play("8/5 6/5", start)
    me = list(start.me)
    me[7], me[5], me[4] = 2, 4, 2  # by hand: one checker from 8 and one from 6 to the 5 point
    assert after == Position(tuple(me), start.opp)
    assert parse_play("6/5 8/5", start) == after  # order does not matter
    assert parse_play("13/10/9", start) == parse_play("13/9", start)
    cands = BACKGAMMON.candidates(BACKGAMMON.new_game(np.random.default_rng(0), 0))
    dice = cands.view.dice
    for text, message in (("7/1", "no checker of yours on point 7"), ("x", "a move is FROM/TO"),
                          ("1/3", "checkers move down"), ("6/1", "point 1 is held"),
                          ("6/off", f"not a legal play of {dice[0]}{dice[1]}")):
        with pytest.raises(NotationError, match=re.escape(message)):
            BackgammonPlay().parse(text, cands)


def test_every_play_a_game_lists_reads_back_as_that_play() -> None:
    """The notation the move generator writes, typed back, reaches the same position."""
    play = BackgammonPlay()
    players = (BACKGAMMON.make_player("pubeval"), BACKGAMMON.make_player("random"))
    record = play_game(BACKGAMMON, players, 5, 0)
    state = BACKGAMMON.new_game(np.random.default_rng(0), 0)
    from fuzzeval.play.replay import replay

    read = 0
    for move in replay(BACKGAMMON, 5, 0, record.first, record.choices):
        state = move.before
        cands = BACKGAMMON.candidates(state)
        for i, label in enumerate(cands.labels):
            if label != "(no move)":
                assert cands.view.options[play.parse(label, cands)] == cands.view.options[i]
                read += 1
    assert read > 300


# --- the command ------------------------------------------------------------------------
def _play(tmp_path: Path, typed: str, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *args, "--db", str(tmp_path / "p.sqlite")],
                           input=typed)
    return result.exit_code, result.output


def test_bad_input_gets_one_line_and_the_prompt_again_and_eof_stops(tmp_path: Path) -> None:
    code, out = _play(tmp_path, "5X 5S\nAC\n?\n", "cribbage", "--opponent", "exhaustive",
                      "--seed", "11")
    # seed 11, game 0: the person deals and holds 2D 4H 5S 8C 8D QS (history show pins it)
    assert "your hand: 2D 4H 5S 8C 8D QS" in out
    assert "error: '5X': unknown suit 'X' (suits: C D H S); try again" in out
    assert "error: 'AC': throw exactly two cards (got 1); try again" in out
    assert out.count("throw two cards to the crib") == 4  # asked again after each
    assert "fuzzy (cribbage_linguistic_tuned) would choose" in out
    assert "exhaustive would choose" in out
    assert "Traceback" not in out
    assert code == 1
    assert " ".join(out.split()).endswith(  # in 80 columns: the words, however folded
        f"end of input: 0 of 1 games are stored in {tmp_path / 'p.sqlite'} (match 1); the "
        "game in progress is not kept")
    # in 80 columns, but for a word longer than a line (the test's long tmp path)
    assert all(len(line) <= 80 or len(line.split()) == 1 for line in out.splitlines()), out
    assert read_games(tmp_path / "p.sqlite").empty


def test_the_exhaustive_advice_is_the_best_exact_ev() -> None:
    from fuzzeval.games.cribbage.discard import evaluate_discards
    from fuzzeval.games.cribbage.weights import opponent_weights

    hand = tuple(sorted(parse_cards("2D 4H 5S 8C 8D QS")))
    stats = evaluate_discards(hand, "mine", opponent_weights("uniform", True))
    from fuzzeval.games.cribbage.discard import THROWS

    advice = _advice(CRIBBAGE, CribbagePlay(), _discard("2D 4H 5S 8C 8D QS"))
    assert [a.advisor.split()[0] for a in advice] == ["fuzzy", "exhaustive"]
    a, b = THROWS[int(np.argmax(stats.ev))]
    assert advice[1].choice == f"{_str(hand[a])} {_str(hand[b])}"
    assert float(advice[1].rows[0][4]) == pytest.approx(float(stats.ev.max()), abs=0.005)
    assert advice[0].explanation is not None
    # each row's hand mean, counted here by the plain scorer over the 46 starters left
    from tests.test_cli_history_show import show_points

    for throw, keep, shown_hand, *_ in advice[1].rows:
        kept = tuple(parse_cards(keep))
        starters = [c for c in range(52) if c not in hand]
        mean = sum(show_points(kept, s, False) for s in starters) / len(starters)
        assert float(shown_hand) == pytest.approx(mean, abs=0.005), throw


def test_ctrl_c_exits_130_and_quit_exits_0(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _play(tmp_path, "quit\n", "cribbage", "--opponent", "greedy", "--seed", "2")
    assert code == 0 and "quit: 0 of 1 games are stored" in out

    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupted)
    code, out = _play(tmp_path, "", "cribbage", "--opponent", "greedy", "--seed", "2")
    assert code == 130 and "interrupted: 0 of 1 games are stored" in out


def test_advice_names_its_rule_base_and_the_rules_that_moved_the_grade(tmp_path: Path) -> None:
    """Seed 7, game 0: the person deals and holds AS 2C 7S 9H 9S TC. The fuzzy advice now
    says where its base came from, and its 'why' leads with what moved the grade, 0.343:
    rule 2 fires at 1 concluding 2 (1 x 1.657), rule 32 at 0.67 concluding 1.6774
    (0.67 x 1.334 = 0.89), each rule concluding 0 at 1 (1 x 0.343); before, six rules that
    conclude nothing came first, ranked by strength alone."""
    code, out = _play(tmp_path, "?\nquit\n", "cribbage", "--opponent", "greedy", "--seed", "7")
    assert code == 0 and "your hand: AS 2C 7S 9H 9S TC" in out
    lines = out.splitlines()
    at = lines.index("fuzzy (cribbage_linguistic_tuned) would choose AS 2C: the rule base's "
                     "grade of")
    # within 80 columns, a long line folded under its indent, four spaces further in
    assert lines[at + 1:at + 5] == [
        "    each throw",
        "  rule base cribbage_linguistic_tuned: tuned by `fuzzeval tune cribbage",
        "      --rulebase cribbage_linguistic --training-deals 3000 --budget 8000 --seed",
        "      1` (CMA-ES, 7,580 evaluations)"]
    why = next(i for i in range(at, len(lines)) if lines[i].startswith("why AS 2C: "))
    assert lines[why + 2] == "  1.00  rule 2: if kept_points is two then worth is two (two = 2)"
    assert lines[why + 3:why + 5] == [
        "  0.67  rule 32: if crib_ownership is mine and thrown_gap is near then worth is",
        "      near_to_me (near_to_me = 1.6774)"]
    assert lines[why + 5].endswith("then worth is nothing (nothing = 0)")
    advice = lines[at:lines.index("exhaustive would choose 2C 7S: exact averages over every "
                                  "starter and opponent") + 2]
    assert max(map(len, advice)) <= 80


def test_the_transcripts_in_docs_play_are_what_play_prints(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/play.md's cribbage transcript went stale when the tuned base was re-made (its
    grades were the old base's); every game's transcript is now made by one script,
    docs/examples/play_transcripts.py, and checked here against a run of it."""
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "play_transcripts", root / "docs" / "examples" / "play_transcripts.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, script)  # its dataclass looks itself up
    spec.loader.exec_module(script)
    shown = script.shown((root / "docs" / "play.md").read_text())
    assert sorted(shown) == ["backgammon", "cribbage", "hearts", "holdem"]
    for session in script.SESSIONS:
        assert script.transcript(session) == shown[session.name], session.name


def test_help_says_what_can_be_typed_not_an_unknown_rank(tmp_path: Path) -> None:
    """`help` at a cribbage prompt was read as cards: "error: 'HEL': unknown rank"."""
    code, out = _play(tmp_path, "help\nquit\n", "cribbage", "--opponent", "greedy", "--seed",
                      "7")
    assert code == 0 and "unknown rank" not in out
    said = " ".join(out[out.index("type your choice"):out.index("quit stops.")].split())
    assert said == ("type your choice: throw two cards to the crib (e.g. AS 2C); the options "
                    "now: AS 2C, AS 7S, AS 9H, AS 9S, AS TC, 2C 7S, 2C 9H, 2C 9S, 2C TC, 7S "
                    "9H, 7S 9S, 7S TC, 9H 9S, 9H TC, 9S TC. ? shows what fuzzy:pegging=fuzzy "
                    "and exhaustive would choose and why; ? NAME asks another player "
                    "(random, greedy, es, fuzzy, exhaustive, sampling; NAME:key=value,... as "
                    "in match);")


def test_a_named_advisor_is_asked_and_a_bad_one_is_one_line(tmp_path: Path) -> None:
    code, out = _play(tmp_path, "? greedy\n? nobody\nquit\n", "cribbage", "--opponent",
                      "greedy", "--seed", "7", "--advisor", "exhaustive")
    assert code == 0, out
    # greedy keeps the best expected hand: 2C 9H 9S TC and AS 9H 9S TC tie at 4.52 (the
    # exact table in docs/play.md says so too), and the first throw of the two is taken
    assert ("greedy would choose AS 7S: the best expected hand over the 46 starters (the "
            "crib ignored)") in " ".join(out.split())
    assert ("error: ? nobody: unknown cribbage player 'nobody' (players: random, greedy, "
            "es, fuzzy, exhaustive, sampling); try again (help for what to type)") in " ".join(
                out.split())
    code, out = _play(tmp_path, "", "cribbage", "--advisor", "nobody")
    assert code == 2 and out.startswith("error: --advisor nobody: unknown cribbage player")


def test_play_s_opponent_is_opponent(tmp_path: Path) -> None:
    """One name, one meaning (docs/cli.md): --opponent, as in match; --against, the spelling
    first proposed, was removed before the first release."""
    code, out = _play(tmp_path, "quit\n", "cribbage", "--opponent", "greedy", "--seed", "2")
    assert code == 0 and "warning" not in out
    code, out = _play(tmp_path, "", "cribbage", "--against", "greedy")
    assert code == 2 and out.startswith("error: No such option: --against")


def test_a_bad_opponent_or_option_is_one_line_exit_2(tmp_path: Path) -> None:
    code, out = _play(tmp_path, "", "cribbage", "--opponent", "nobody")
    assert code == 2 and out.startswith("error: --opponent nobody: unknown cribbage player")
    code, out = _play(tmp_path, "", "cribbage", "--option", "peg_counts=maybe")
    assert code == 2 and out.startswith("error: cribbage --option:")
    assert not (tmp_path / "p.sqlite").exists()


@pytest.mark.parametrize(("game", "opponent", "seed"), [(CRIBBAGE, "exhaustive", 11),
                                                        (BACKGAMMON, "pubeval", 4)])
def test_a_whole_scripted_game_is_stored_as_the_transcript_told_it(
        tmp_path: Path, game: object, opponent: str, seed: int) -> None:
    me = FirstOption()
    expected = play_game(game, (me, make_player(game, opponent)), seed, 0)  # type: ignore[arg-type]
    code, out = _play(tmp_path, "\n".join(me.typed) + "\n", game.name,  # type: ignore[attr-defined]
                      "--opponent", opponent, "--seed", str(seed))
    assert code == 0, out
    with History(tmp_path / "p.sqlite", readonly=True) as h:
        match = h.stored_match(None)
        assert (str(match.spec.player), str(match.spec.opponent)) == ("human", opponent)
        assert match.unit_name == {"cribbage": "deal", "backgammon": ""}[game.name]  # type: ignore[attr-defined]
        first, choices = h.game_choices(match.id, 0)
        assert choices == expected.choices
        (stored,) = h.outcomes(match.id)
    assert stored == expected.outcome
    s0, s1 = stored.scores
    assert f"final score: you {s0}, {opponent} {s1}" in out
    # what the transcript told of the person's moves is what the history keeps
    from fuzzeval.play.replay import replay

    stored_moves = [m.label for m in replay(game, seed, 0, first, choices)  # type: ignore[arg-type]
                    if m.seat == 0]
    told = [next(g for g in m.groups() if g) for m in re.finditer(
        r"^you (?:held [^;]*; threw (\S+ \S+)|laid (\S+):|rolled \d\d: (.*?)(?: \(pips|$))",
        out, re.M)]
    assert told == stored_moves
    assert len(told) >= len(me.typed) > 5


@pytest.mark.parametrize(("dice", "book"), [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"),
                                            ((6, 1), "13/7 8/7")])
def test_backgammon_advice_makes_the_book_opening_points(dice: tuple[int, int],
                                                         book: str) -> None:
    """The openings every backgammon book gives: both advisors make the point."""
    from fuzzeval.games.backgammon.game import State

    advice = _advice(BACKGAMMON, BackgammonPlay(), BACKGAMMON.candidates(State(START, 0, dice)))
    assert [(a.advisor, a.choice, a.rows[0][0]) for a in advice] == [
        ("fuzzy (backgammon_td)", book, book), ("pubeval", book, book)]
    assert advice[0].explanation is not None and advice[1].explanation is None


def test_backgammon_at_the_terminal_shows_the_board_and_advice(tmp_path: Path) -> None:
    code, out = _play(tmp_path, "?\n6/2 6/2 6/2\nquit\n", "backgammon", "--opponent",
                      "pubeval", "--seed", "4")
    assert code == 0, out
    lines = out.splitlines()
    at = lines.index(" 13 14 15 16 17 18 | 19 20 21 22 23 24")
    assert lines[at:at + 4] == [" 13 14 15 16 17 18 | 19 20 21 22 23 24",
                                " X5  .  .  . O3  . | O5  .  .  .  . X2",
                                " O5  .  .  . X3  . | X5  .  .  .  . O2",
                                " 12 11 10  9  8  7 |  6  5  4  3  2  1"]
    assert "you rolled 62; position 4HPwATDgc/ABMA" in out
    assert "fuzzy (backgammon_td) would choose" in out and "pubeval would choose" in out
    assert re.search(r"^why .*: ", out, re.M)
    assert "error: '6/2 6/2 6/2': not a legal play of 62" in out  # three checkers, two dice


def test_a_whole_hearts_hand_at_the_terminal_is_stored_as_it_was_told(tmp_path: Path) -> None:
    """`fuzzeval play hearts` refused to start ("hearts has no play interface"). A hand
    typed card by card, three heuristic players in the other seats, is stored as played,
    and the cards the transcript says you passed and laid are those the history keeps."""
    from fuzzeval.games.hearts.game import GAME as HEARTS
    from fuzzeval.play.replay import replay

    me = FirstOption()
    expected = play_game(HEARTS, (me, *(make_player(HEARTS, "heuristic") for _ in range(3))),
                         3, 0)
    code, out = _play(tmp_path, "\n".join(me.typed) + "\n", "hearts", "--seed", "3")
    assert code == 0, out
    with History(tmp_path / "p.sqlite", readonly=True) as h:
        match = h.stored_match(None)
        first, choices = h.game_choices(match.id, 0)
        (stored,) = h.outcomes(match.id)
    assert choices == expected.choices and stored == expected.outcome
    names = ("you", "heuristic (seat 1)", "heuristic (seat 2)", "heuristic (seat 3)")
    assert ("final score: " + ", ".join(f"{n} {s}" for n, s in zip(names, stored.scores,
                                                                   strict=True))) in " ".join(
        out.split())
    told = [card for m in re.finditer(r"^you (?:passed (\S\S \S\S \S\S) to|laid (\S\S)$)",
                                      out, re.M)
            for card in (m.group(1) or m.group(2)).split()]
    assert told == [m.label for m in replay(HEARTS, 3, 0, first, choices) if m.seat == 0]
    assert len(told) == 16  # three passed, thirteen laid


def test_a_one_hand_hearts_game_does_not_number_its_hand(tmp_path: Path) -> None:
    """A one-hand game draws its pass direction as a hand number: seed 5 said 'hand 3:
    each seat passes three cards across' in a game of one hand."""
    code, out = _play(tmp_path, "quit\n", "hearts", "--seed", "5")
    assert code == 0, out
    assert "the hand: each seat passes three cards across" in out.splitlines()
    assert "hand 3" not in out


def test_a_game_played_without_its_log_is_the_same_game_with_no_decisions() -> None:
    """``log=False`` (what a learner plays) keeps no decisions, and nothing else changes:
    the same moves, the same outcome, as the logged game of the same seed."""
    players = (BACKGAMMON.make_player("pubeval"), BACKGAMMON.make_player("random"))
    logged = play_game(BACKGAMMON, players, 5, 1)
    bare = play_game(BACKGAMMON, players, 5, 1, log=False)
    assert len(logged.decisions) == logged.moves > 20
    assert bare.decisions == ()
    assert (bare.choices, bare.outcome, bare.first, bare.moves) == (
        logged.choices, logged.outcome, logged.first, logged.moves)
