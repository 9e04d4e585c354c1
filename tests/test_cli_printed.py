"""What the commands print, pinned line by line where mutation testing found only the form
checked (docs/checking.md): the tables of ``rulebase show`` and ``evaluate --explain``
(their values worked by hand from rulebases/tipping.yaml), a game that no longer replays,
the games of a match, a tournament's measure, and smaller behaviours beside them."""

from __future__ import annotations

import codecs
import io
import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

pytestmark = pytest.mark.pinned

runner = CliRunner()


def test_rulebase_show_lists_each_term_under_its_variable() -> None:
    """tipping.yaml: quality's terms poor (0, 0, 5), average (0, 5, 10; its peak
    adjustable) and good (5, 10, 10); the title left-aligned over the table."""
    out = runner.invoke(app, ["rulebase", "show", "tipping"]).output.splitlines()
    at = out.index("input quality [0, 10] — Food quality, 0   ")
    assert out[at:at + 9] == [
        "input quality [0, 10] — Food quality, 0   ",
        "(inedible) to 10 (excellent).             ",
        "┏━━━━━━━━━┳━━━━━━┳━━━━━━┳━━━━━━━┳━━━━━━━━┓",
        "┃ term    ┃ left ┃ peak ┃ right ┃ adjust ┃",
        "┡━━━━━━━━━╇━━━━━━╇━━━━━━╇━━━━━━━╇━━━━━━━━┩",
        "│ poor    │    0 │    0 │     5 │        │",
        "│ average │    0 │    5 │    10 │ peak   │",
        "│ good    │    5 │   10 │    10 │        │",
        "└─────────┴──────┴──────┴───────┴────────┘"]
    head = next(line for line in out if line.startswith("┃ # ┃ rule"))
    assert head.endswith("┃ weight ┃")
    assert "│ 4 │ if quality is good then tip is high" in "\n".join(out)
    assert next(line for line in out if line.startswith("│ 4 │")).endswith("│    0.5 │")


def test_explain_shows_each_output_term_s_activation() -> None:
    """quality 6.5, service 9.8: average 0.7 and good 0.3; service average 0.04, good
    0.96. Rule 2 (or) 0.7 to medium; rule 3 (good and not poor) 0.96 and rule 4 (good,
    weight 0.5) 0.15 to high, which takes the larger."""
    done = runner.invoke(app, ["evaluate", "tipping", "--explain", "-i", "quality=6.5",
                               "-i", "service=9.8"])
    assert done.exit_code == 0, done.output
    out = done.output.splitlines()
    assert out[0] == "rule base tipping: written by hand"
    at = out.index("output tip                                           ")
    assert out[at + 2:at + 8] == [
        "┃ term   ┃ peak ┃ activation ┃                      ┃",
        "┡━━━━━━━━╇━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━┩",
        "│ low    │    0 │     0.0000 │ ···················· │",
        "│ medium │   13 │     0.7000 │ ██████████████······ │",
        "│ high   │   25 │     0.9600 │ ███████████████████· │",
        "└────────┴──────┴────────────┴──────────────────────┘"]
    assert "│ quality │   6.5 │ poor    │     0.0000 │" in done.output
    assert "│         │       │ average │     0.7000 │" in done.output


def _stored_match(tmp_path: Path) -> Path:
    db = tmp_path / "m.sqlite"
    done = runner.invoke(app, ["match", "cribbage", "-p", "greedy", "--opponent", "random",
                               "-n", "2", "-w", "1", "--db", str(db)])
    assert done.exit_code == 0, done.output
    return db


def test_the_games_of_a_match_are_numbered_on_the_right(tmp_path: Path) -> None:
    db = _stored_match(tmp_path)
    out = runner.invoke(app, ["history", "show", str(db)]).output.splitlines()
    head = next(k for k, line in enumerate(out) if line.strip().startswith("game"))
    assert out[head].startswith("  game   first    winner")
    assert out[head + 2].startswith("     0   ") and out[head + 3].startswith("     1   ")


def test_a_game_that_no_longer_replays_names_both_scores(tmp_path: Path) -> None:
    db = _stored_match(tmp_path)
    with sqlite3.connect(db) as conn:
        s0, s1 = conn.execute("SELECT score0, score1 FROM games WHERE idx = 0").fetchone()
        conn.execute("UPDATE games SET score0 = ?, scores = ? WHERE idx = 0",
                     (s0 + 1, f"[{s0 + 1}, {s1}]"))
    done = runner.invoke(app, ["history", "show", str(db), "--game", "0"])
    assert done.exit_code == 1
    assert (f"match 1, game 0 does not replay as stored (it ends {s0}–{s1}, stored "
            f"{s0 + 1}–{s1}); the rules may have changed since") in done.output


def test_a_two_seat_tournament_with_winners_measures_win_rates(tmp_path: Path) -> None:
    done = runner.invoke(app, ["tournament", "cribbage", "-p", "random", "-p", "greedy",
                               "--games", "2", "-w", "1", "--db", str(tmp_path / "t.sqlite"),
                               "--plot", str(tmp_path / "t.png")])
    assert done.exit_code == 0, done.output
    assert "the row player's win rate against each column's" in " ".join(done.output.split())


def test_a_learn_with_no_block_is_refused_by_its_option(tmp_path: Path) -> None:
    done = runner.invoke(app, ["learn", "hearts", "--block", "0", "--db",
                               str(tmp_path / "l.sqlite")])
    assert done.exit_code == 2
    assert done.output.strip() == "error: --block must be at least 1 (got 0)"


def test_a_batch_file_saved_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text("5H 5S JD QC 4S 9C\nAS 2S 3S 4S 5S 6S\n")
    marked.write_bytes(codecs.BOM_UTF8 + plain.read_bytes())
    base = ["cribbage", "discard", "--crib", "mine", "--json", "--batch"]
    a = runner.invoke(app, [*base, str(plain)])
    b = runner.invoke(app, [*base, str(marked)])
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    assert a.stdout == b.stdout and a.stdout.count("\n") == 2


def test_the_starter_is_a_chance_event_of_the_last_discard() -> None:
    """Chance brings each deal's 12 cards and, once both have thrown, the starter."""
    from fuzzeval.games.cribbage.cards import card_str
    from fuzzeval.games.cribbage.game import GAME

    rng = np.random.default_rng(3)
    state = GAME.new_game(rng, 0)
    starters: list[object] = []
    while GAME.to_move(state) is not None and len(starters) < 3:
        before = state
        state = GAME.apply(state, 0, rng)
        events = GAME.chance_events(before, state)
        if before.phase == "discard" and state.phase != "discard":
            assert events == [{"chance": "starter", "card": card_str(state.starter)}]
            starters.append(events[0]["card"])
        else:
            assert all(e["chance"] == "deal" for e in events)
    assert len(starters) == 3


def test_points_taken_are_refused_with_their_form() -> None:
    from fuzzeval.errors import FuzzevalError
    from fuzzeval.games.hearts.advice import parse_taken

    with pytest.raises(FuzzevalError) as caught:
        parse_taken("1,2")
    assert str(caught.value) == ("'1,2': points taken are four whole numbers, "
                                 "me,left,across,right, e.g. 0,13,0,0")


def test_hearts_advice_explains_only_when_asked() -> None:
    from fuzzeval.games.hearts.advice import advise, position
    from fuzzeval.games.hearts.fuzzy import fuzzy_player

    state = position("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", rules_name="standard")
    player = fuzzy_player()
    plain = advise(state, player, "fuzzy")
    asked = advise(state, player, "fuzzy", explain=True)
    assert "explanation" not in plain and "explanation" in asked
    assert plain["play"] == asked["play"] == "2C"  # the 2C leads the first trick


def test_a_long_value_in_a_bad_place_is_shown_cut_at_40_characters() -> None:
    from fuzzeval.errors import FuzzevalError
    from fuzzeval.formats.loading import load_rulebase_text
    from fuzzeval.resources import default_rulebase

    text = default_rulebase("tipping").read_text()
    bad = re.sub(r"(?m)^inputs:\n", "inputs: " + "x" * 50 + "\nzzz:\n", text, count=1)
    with pytest.raises(FuzzevalError) as caught:
        load_rulebase_text(bad, "t.yaml")
    assert f"t.yaml:11: inputs: must be a mapping (got '{'x' * 40}...')" in str(caught.value)


def test_a_generated_start_concludes_a_value() -> None:
    from fuzzeval.formats.loading import load_rulebase_text
    from fuzzeval.games.hearts.game import GAME
    from fuzzeval.learn.td_runs import LearnSettings, start_source

    rb = load_rulebase_text(start_source(GAME, LearnSettings("hearts", order=1,
                                                             sample_games=2), "a test"))
    assert (rb.output.name, rb.name, rb.made_by) == ("value", "hearts_td", "a test")


def test_membership_panels_show_the_edges_and_many_singletons_get_a_row_each() -> None:
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.plots import membership_figure

    fig = membership_figure(load_rulebase("tipping"))
    assert fig.axes[0].get_xlim() == pytest.approx((-0.3, 10.3))  # 3 % of the range
    assert fig.axes[2].get_xlim() == pytest.approx((-0.75, 25.75))
    rb = load_rulebase("cribbage_linguistic_tuned")
    fig = membership_figure(rb)
    dots = fig.axes[-1]
    spec = dots.get_subplotspec()
    assert spec is not None
    assert list(spec.colspan) == list(range(spec.get_gridspec().ncols))  # the whole width
    assert len(dots.get_yticklabels()) == len(rb.output.terms)


def test_the_schema_says_what_a_bare_number_is() -> None:
    import json

    from fuzzeval.formats.schema import rulebase_schema

    assert json.dumps(rulebase_schema()).count('"description": "A singleton."') == 2
    output = rulebase_schema()["properties"]["output"]
    one_of = output["properties"]["terms"]["additionalProperties"]["oneOf"]
    assert one_of[1] == {"type": "number", "description": "A singleton."}  # a bare number
    assert one_of[2]["properties"]["points"] == {"type": "number",
                                                 "description": "A singleton."}


def test_calibration_rounds_are_a_table_with_each_round_s_shift(tmp_path: Path) -> None:
    """Each round: its win rate with the Wilson interval (3 wins of 3: 43.9 %-100.0 %, or
    0 of 3: 0.0 %-56.1 %), the points it moved and their mean shift."""
    done = runner.invoke(app, ["calibrate", "cribbage", "--opponent", "random", "--rounds",
                               "2", "--games-per-round", "3", "-w", "1",
                               "--held-out-deals", "0", "--db", str(tmp_path / "c.sqlite"),
                               "--plot", str(tmp_path / "c.png")])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    head = lines.index("  round          win rate (95%)   points moved   mean |shift|  ")
    assert set(lines[head + 1].strip()) == {"─"}
    intervals = {3: "(43.9%–100.0%)", 2: "(20.8%–93.9%)", 1: "(6.1%–79.2%)",
                 0: "(0.0%–56.1%)"}
    for k in (1, 2):
        m = re.fullmatch(r" +(\d) +(\d+\.\d)% (\(.*?\)) +(\d+) +(\d\.\d{4}) +", lines[head + 1 + k])
        assert m is not None, lines[head + 1 + k]
        wins = round(float(m[2]) * 3 / 100)
        assert (int(m[1]), m[3]) == (k, intervals[wins])
        assert int(m[4]) > 0 and float(m[5]) > 0


def test_thousands_of_learned_conclusions_are_drawn_as_a_histogram() -> None:
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.plots import membership_figure

    rb = load_rulebase("hearts_td")
    last = membership_figure(rb).axes[-1]
    assert last.get_xlabel() == "output value: the values of its 4,358 conclusions"
    assert sum(p.get_height() for p in last.patches) == len(rb.rules) == 4358


def test_an_openspiel_series_table_right_aligns_its_numbers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`fuzzeval openspiel`'s table (values worked by hand): numbers right-aligned in
    their columns, so that 5.0 % and 55.0 % line up by their last digit."""
    from rich.console import Console

    from fuzzeval.cli import openspiel as cli
    from fuzzeval.interop.openspiel import SeatResult, Series

    console = Console(width=80, record=True, file=io.StringIO())
    monkeypatch.setattr(cli, "console", console)
    rows = (SeatResult(0, "fuzzy", 20, 0.5, -0.1, 1.1, 0.55, 0.34, 0.74),
            SeatResult(1, "fuzzy", 20, -12.25, -20.0, -4.5, 0.05, 0.01, 0.24),
            SeatResult(None, "fuzzy", 40, 150.0, 120.0, 180.0, 1.0, 0.91, 1.0))
    cli._print(Series("cribbage", "fuzzy", "random", 40, 3, 812, rows))
    out = console.export_text().splitlines()
    body = [line.rstrip() for line in out if line.lstrip().startswith(("0 ", "1 ", "all "))]
    assert body == [
        " 0      fuzzy       20   0.500 [-0.100, 1.100]     55.0% [34, 74]",
        " 1      fuzzy       20   -12.2 [-20.0, -4.500]       5.0% [1, 24]",
        " all    fuzzy       40          150 [120, 180]   100.0% [91, 100]"]
    assert out[-1] == "812 decisions, every action legal in OpenSpiel"
