"""``fuzzeval history export``: every stored game as JSON, replayed from its seed, with every
chance event and decision in order, checked against the rules and the stored record."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.backgammon.game import GAME as BACKGAMMON
from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.games.hearts import rules as hearts
from fuzzeval.games.hearts.cards import mask_of, parse_card
from fuzzeval.games.hearts.game import GAME as HEARTS
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_games

DATA = Path(__file__).resolve().parent / "data"


def _history(tmp_path: Path) -> Path:
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        run_match(h, CRIBBAGE, MatchSpec("cribbage", PlayerSpec("greedy"),
                                         PlayerSpec("random"), 2, 3))
        run_match(h, BACKGAMMON, MatchSpec("backgammon", PlayerSpec("pubeval"),
                                           PlayerSpec("random"), 1, 4))
    return db


def _export(*args: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(app, ["history", "export", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_cribbage_game_exports_every_deal_cut_and_card_laid(tmp_path: Path) -> None:
    db = _history(tmp_path)
    games = _export(str(db), "--match", "1")
    stored = read_games(db, match_id=1)
    assert [g["index"] for g in games] == [0, 1]
    for g, row in zip(games, stored.itertuples(), strict=True):
        assert g["seats"] == ["greedy", "random"] and g["unit"] == "game points per game"
        events = g["events"]
        assert isinstance(events, list)
        decisions = [e for e in events if "seat" in e and "kind" in e]
        assert len(decisions) == row.moves  # every choice, not only the logged discards
        won = row.points if row.winner == 0 else -row.points
        assert g["payoffs"] == [won, -won] and g["winner"] == row.winner
        hands: dict[int, set[str]] = {}
        for e in events:
            if e.get("chance") == "deal":
                hands = {} if len(hands) == 2 else hands
                hands[e["seat"]] = set(e["cards"])
                assert len(e["cards"]) == 6
                if len(hands) == 2:
                    assert not hands[0] & hands[1]  # twelve different cards
            elif e.get("chance") == "starter":
                assert all(e["card"] not in h for h in hands.values())
            elif e["kind"] == "discard":
                assert set(e["choice"].split()) <= hands[e["seat"]]
                assert e["options"] == 15  # six cards: fifteen ways to throw two
            elif e["kind"] == "play" and e["choice"] != "go":
                assert e["choice"] in hands[e["seat"]]


def test_a_backgammon_game_exports_the_dice_of_every_turn(tmp_path: Path) -> None:
    db = _history(tmp_path)
    (g,) = _export(str(db), "--match", "2")
    events = g["events"]
    assert isinstance(events, list)
    dice = [e for e in events if e.get("chance") == "dice"]
    moves = [e for e in events if e.get("kind") == "move"]
    assert events[0] == dice[0] and dice[0]["dice"][0] != dice[0]["dice"][1]  # opening
    assert len(dice) == len(moves) == int(read_games(db, match_id=2).moves[0])
    assert [d["seat"] for d in dice] == [m["seat"] for m in moves]
    assert all(1 <= v <= 6 for d in dice for v in d["dice"])
    assert [m["seat"] for m in moves][:4] in ([0, 1, 0, 1], [1, 0, 1, 0])


def test_a_hearts_hand_exports_its_deal_pass_and_every_card_and_replays_by_the_rules(
        tmp_path: Path) -> None:
    """Replayed here from the exported events alone, by the rules: each decision is the
    seat to move's, of the right kind, with as many legal cards as it says, and the
    points taken are the payoffs exported."""
    db = tmp_path / "hearts.sqlite"
    with History(db) as h:
        run_match(h, HEARTS, MatchSpec("hearts", PlayerSpec("heuristic"),
                                       PlayerSpec("random"), 4, 5))
    games = _export(str(db))
    assert [g["index"] for g in games] == [0, 1, 2, 3]
    for g in games:
        events = g["events"]
        assert isinstance(events, list)
        deals = [e for e in events[:4] if e.get("chance") == "deal"]
        assert [d["seat"] for d in deals] == [0, 1, 2, 3]
        dealt = tuple(mask_of(parse_card(c) for c in d["cards"]) for d in deals)
        assert all(m.bit_count() == 13 for m in dealt) and sum(dealt) == (1 << 52) - 1
        assert events[4]["chance"] == "pass"
        direction = hearts.DIRECTION_NAMES.index(events[4]["direction"])
        state = hearts.new_hand(dealt, hearts.STANDARD,  # type: ignore[arg-type]
                                hearts.PASS_CYCLE.index(direction))
        decisions = events[5:]
        assert len(decisions) == (52 if direction == hearts.NO_PASS else 64)
        for e in decisions:
            assert (e["seat"], e["kind"]) == (state.to_move, state.kind)
            assert e["options"] == hearts.legal_mask(state).bit_count()
            state = hearts.apply(state, parse_card(e["choice"]))
        assert state.phase == "over"
        assert g["payoffs"] == list(hearts.points(state))


def test_every_match_exports_and_json_is_one_array(tmp_path: Path) -> None:
    db = _history(tmp_path)
    lines = _export(str(db))
    assert [(g["match"], g["index"]) for g in lines] == [(1, 0), (1, 1), (2, 0)]
    out = tmp_path / "all.json"
    result = CliRunner().invoke(app, ["history", "export", str(db), "--format", "json",
                                      "-o", str(out)])
    assert result.exit_code == 0 and json.loads(out.read_text()) == lines


def test_games_stored_before_their_choices_export_their_logged_decisions(
        tmp_path: Path) -> None:
    old = tmp_path / "v1.sqlite"
    shutil.copy(DATA / "history_v1.sqlite", old)
    g = _export(str(old), "--match", "1")[0]
    assert g["events"] is None
    decisions = g["decisions"]
    assert isinstance(decisions, list) and {d["kind"] for d in decisions} == {"discard"}


def test_bad_export_options_are_one_line(tmp_path: Path) -> None:
    db = _history(tmp_path)
    for args, message in ((["--format", "csv"], "--format 'csv': jsonl or json"),
                          (["-o", str(db)], f"error: --output {db}: the same file as DB "
                                            f"{db}, which this command reads"),
                          (["--match", "9"], "no match 9")):
        result = CliRunner().invoke(app, ["history", "export", str(db), *args])
        assert result.exit_code in (1, 2) and message in result.output, result.output
    result = CliRunner().invoke(app, ["history", "export", str(tmp_path / "none.sqlite")])
    assert result.exit_code == 2 and "no such history database" in result.output  # as show
