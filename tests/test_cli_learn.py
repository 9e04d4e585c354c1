"""``fuzzeval learn`` and ``fuzzeval rulebase top``: a learn stored
once, run again or extended, its files, its curve, its bad options; the top rules in words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.engine.rulebase import And, Is
from fuzzeval.formats.loading import load_rulebase, load_rulebase_text
from fuzzeval.learn.td_runs import LearnSettings, made_by

runner = CliRunner()
SMALL = ["learn", "hearts", "-n", "16", "--block", "8", "--measure-every", "1",
         "--measure-games", "8", "--sample-games", "4", "--order", "1", "-w", "1"]


def _files(tmp_path: Path) -> list[str]:
    return ["--db", str(tmp_path / "l.sqlite"), "-o", str(tmp_path / "l.yaml"),
            "--plot", str(tmp_path / "curve.png")]


def test_a_learn_writes_its_base_and_curve_and_runs_again_or_further(tmp_path: Path) -> None:
    args = [*SMALL, *_files(tmp_path)]
    first = runner.invoke(app, [*args, "--json"])
    assert first.exit_code == 0, first.output
    got = json.loads(first.stdout)
    assert (got["games"], got["blocks"], len(got["curve"])) == (16, 2, 2)
    assert got["learned"] == str(tmp_path / "l.yaml")
    assert (tmp_path / "curve.png").stat().st_size > 10_000
    rb = load_rulebase(tmp_path / "l.yaml")
    assert rb.defuzzifier == "weighted_sum" and rb.name == "hearts_td_l"  # l.sqlite's
    assert rb.made_by.startswith("learned by `fuzzeval learn hearts --games 16 --block 8 "
                                 "--update 1 --lambda 0.75 --alpha 0.1 --opponent self "
                                 "--seed 1 "
                                 "--order 1")
    assert any(t.triangle.peak != 0 for t in rb.output.terms)
    text = (tmp_path / "l.yaml").read_text()
    again = runner.invoke(app, [*args, "--json"])
    assert again.exit_code == 0, again.output
    assert "already holds learn 1 with these settings, all 16 games" in again.stderr
    assert json.loads(again.stdout)["curve"] == got["curve"]
    assert (tmp_path / "l.yaml").read_text() == text
    more = runner.invoke(app, [*args[:3], "24", *args[4:], "--json"])
    assert more.exit_code == 0, more.output
    assert "16 of 24 games: learning only the 8 it lacks" in more.stderr
    assert json.loads(more.stdout)["curve"][:2] == got["curve"]


def test_a_learned_base_is_named_for_its_run_and_explains_itself_so(tmp_path: Path) -> None:
    """A learned base was named as the start it came from, hearts_td, the shipped base's
    name: two bases explained themselves under one name. It is named for its run, the
    start's name then its database's stem (one learn a database)."""
    learned = tmp_path / "mine.learned.yaml"
    done = runner.invoke(app, [*SMALL[:3], "8", "--block", "8", "--measure-every", "0",
                               "--sample-games", "4", "--order", "1", "-w", "1",
                               "--db", str(tmp_path / "mine.sqlite")])
    assert done.exit_code == 0, done.output
    rb = load_rulebase(learned)
    assert rb.name == "hearts_td_mine"
    shown = runner.invoke(app, ["rulebase", "show", str(learned)])
    assert shown.exit_code == 0 and shown.stdout.split()[0] == "hearts_td_mine"
    inputs = [f"--input={v.name}={v.lo:g}" for v in rb.inputs]
    explained = runner.invoke(app, ["evaluate", str(learned), *inputs, "--explain"])
    assert explained.exit_code == 0, explained.output
    assert explained.stdout.startswith("rule base hearts_td_mine: learned by `fuzzeval "
                                       "learn hearts --games 8 --block 8 ")


def test_the_learned_name_adds_the_run_to_the_start_s_once() -> None:
    from fuzzeval.learn.td_runs import learned_name

    assert learned_name("hearts_td", "hearts_learn") == "hearts_td_hearts_learn"
    assert learned_name("backgammon_td", "bg") == "backgammon_td_bg"
    assert learned_name("hearts_td_bg", "bg") == "hearts_td_bg"  # learned again, kept
    assert learned_name("hearts_td", "hearts_td") == "hearts_td"  # benchmarks/figures.py's


@pytest.mark.parametrize(("extra", "message"), [
    (["--lambda", "1.5"], "error: --lambda must be in [0, 1] (got 1.5)"),
    (["--alpha", "0"], "error: --alpha must be in (0, 1]: a step of 1 moves a value all the "
                       "way to its target, more overshoots it (got 0)"),
    (["--alpha", "1.5"], "error: --alpha must be in (0, 1]: a step of 1 moves a value all "
                         "the way to its target, more overshoots it (got 1.5)"),
    (["--alpha", "inf"], "error: Invalid value for '--alpha': 'inf' is not a finite number "
                         "(see fuzzeval learn --help)"),
    (["--scale", "1e400"], "error: Invalid value for '--scale': '1e400' is not a finite "
                           "number (see fuzzeval learn --help)"),
    (["--scale", "1e20"], "error: --scale must be from 1e-06 to 1e+12 (got 1e+20)"),
    (["--block", "5"], "error: --games 16 is not a whole number of blocks of --block 5"),
    (["--update", "3"], "error: --block 8 is not a whole number of updates of --update 3"),
    (["--update", "0"], "error: --update must be at least 1 (got 0)"),
    (["-n", "0"], "error: --games must be at least 1 (got 0)"),
    (["--halving", "-1"], "error: --halving must be at least 0 (got -1)"),
    (["--order", "5"], "error: --order must be 1, 2, 3 or 4 (got 5)"),
    (["--quad-share", "0"], "error: --quad-share must be in (0, 1) (got 0)"),
    (["--triple-share", "1"], "error: --triple-share must be in (0, 1) (got 1)"),
    (["--opponent", "nobody"], "error: --opponent nobody: unknown hearts player 'nobody'"),
    (["--measure-opponent", "self"], "error: --measure-opponent self: unknown hearts player"),
    (["--average", "3"], "error: --average 3 is more than the 2 blocks of --games 16"),
    (["--average", "0"], "error: --average must be at least 1 (got 0)"),
    (["--split", "lead"], "error: --split lead: cannot split the rules by 'lead': no "
                          "feature of that name (features: rank, "),
    (["--split", "leading,leading"], "error: --split leading,leading: split by "
                                     "'leading,leading' names a feature twice"),
    (["--group-features", "leading=no:rank"],
     "error: --group-features narrows groups of --split; give --split"),
    (["--split", "leading", "--group-features", "leading=maybe:rank"],
     "error: --group-features 'leading=maybe:rank': 'leading=maybe' is not an atom of "
     "leading (leading=no, leading=yes)"),
    (["--split", "leading", "--group-features", "leading=no"],
     "error: --group-features 'leading=no': a group's features are GROUP:FEATURES, e.g. "
     "leading=no:"),
    (["--split", "leading", "--group-features", "leading=no,rank=low:rank"],
     "error: --group-features 'leading=no,rank=low:rank': a group is one atom of each of "
     "leading, e.g. leading=no"),
    (["--split", "leading", "--group-features", "leading=no:leading"],
     "error: --group-features 'leading=no:leading': 'leading' is not a feature outside "
     "the split (features: "),
    (["--split", "leading", "--group-features", "leading=no:rank",
      "--group-features", "leading=no:queen_here"],
     "error: --group-features 'leading=no:queen_here': the group leading=no is given twice"),
    (["--single-features", "rank,zz*"], "error: --single-features rank,zz*: no "
                                           "feature 'zz*' to stand alone (features: "),
    (["--single-features", "rank", "--rulebase", "hearts_td"],
     "error: --single-features shapes a generated start; --rulebase gives the start"),
    (["--split", "leading", "--rulebase", "hearts_td"],
     "error: --split shapes a generated start; --rulebase gives the start"),
    (["--monte-carlo", "discard"], "error: --monte-carlo discard: not a kind of decision "
                                   "hearts logs (kinds: pass, play)"),
    (["--monte-carlo", "pass", "--option", "rules=sturtevant-white"],
     "error: --monte-carlo pass: not a kind of decision hearts logs with --option "
     "rules=sturtevant-white (kinds: play)"),
    (["--monte-carlo", "pass", "--monte-carlo", "pass"],
     "error: --monte-carlo pass: given twice; give each kind once"),
    (["--option", "rules=nope"], "error: hearts --option: rules must be one of standard, "
                                 "sturtevant-white (got 'nope')"),
    (["--option", "bogus=1"], "error: hearts --option: unknown hearts options ['bogus'] "
                              "(options: rules, target)"),
    (["--option", "rules"], "error: hearts option 'rules': write it as key=value"),
    (["--target", "deeper"], "error: --target must be one of next, lookahead (got "
                             "'deeper')"),
    (["--target", "lookahead"], "error: --target lookahead: hearts has no search a ply "
                                "deeper (its lookahead_value hook); --target next learns "
                                "without one"),
    (["--option", "rules=sturtevant-white", "--option", "rules=standard"],
     "error: hearts option 'rules' given twice ('rules=sturtevant-white' and 'rules=standard')"),
])
def test_bad_options_are_one_line_and_write_nothing(tmp_path: Path, extra: list[str],
                                                    message: str) -> None:
    result = runner.invoke(app, [*SMALL, *_files(tmp_path), *extra])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[0].startswith(message), result.stderr
    assert not list(tmp_path.iterdir())


def test_a_game_without_features_or_a_missing_learn_to_resume(tmp_path: Path) -> None:
    result = runner.invoke(app, ["learn", "cribbage", *_files(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == ("error: cribbage lists no features to learn from; give "
                             "--rulebase\n")
    result = runner.invoke(app, [*SMALL, *_files(tmp_path), "--resume"])
    assert result.exit_code == 1 and "nothing to resume" in result.stderr, result.stderr
    assert not list(tmp_path.iterdir())


TOP = """\
name: worth
defuzzifier: weighted_sum
default: 0
inputs:
  lead: {range: [0, 1], terms: {theirs: [0, 0, 1], ours: [0, 1, 1]}}
  queen: {range: [0, 1], terms: {away: [0, 0, 1], here: [0, 1, 1]}}
output:
  name: points
  description: points per hand
  range: [-20, 20]
  terms: {a: 4.5, b: -2, c: 13, d: 0, e: -7.25}
rules:
  - if lead is ours then points is a
  - if lead is theirs then points is b
  - if lead is ours and queen is here then points is c
  - rule: if queen is away then points is c
    weight: 0.5
  - if queen is here then points is d
  - if lead is theirs and queen is here then points is e
"""


def test_rulebase_top_lists_each_way_in_words(tmp_path: Path) -> None:
    path = tmp_path / "worth.yaml"
    path.write_text(TOP)
    result = runner.invoke(app, ["rulebase", "top", str(path), "-n", "2", "--json"])
    assert result.exit_code == 0, result.output
    # weighted: rule 4 adds 13 x 0.5 = 6.5; the most: rules 3 (13), 4 (6.5); rule 1 (4.5)
    # is third; the least: rules 6 (-7.25), 2 (-2); rule 5 (0) is in neither
    assert json.loads(result.stdout) == {
        "rulebase": "worth", "unit": "points per hand",
        "most": [{"rule": 3, "adds": 13.0, "if": "lead is ours and queen is here"},
                 {"rule": 4, "adds": 6.5, "if": "queen is away"}],
        "least": [{"rule": 6, "adds": -7.25, "if": "lead is theirs and queen is here"},
                  {"rule": 2, "adds": -2.0, "if": "lead is theirs"}]}
    table = runner.invoke(app, ["rulebase", "top", str(path), "-n", "1"], env={"COLUMNS": "80"})
    assert table.exit_code == 0
    lines = [line.strip() for line in table.stdout.splitlines() if line.strip()]
    assert "3   +13.000   lead is ours and queen is here" in lines
    assert "6   -7.250   lead is theirs and queen is here" in lines
    assert lines[0] == "worth: 1 rule adding the most to points (points per"
    centroid = runner.invoke(app, ["rulebase", "top", "tipping"])
    assert centroid.exit_code == 2
    assert centroid.stderr.startswith("error: tipping: rule base 'tipping' concludes on "
                                      "triangles (centroid)")


def test_rulebase_top_with_an_atom_ranks_only_the_rules_that_assert_it(tmp_path: Path) -> None:
    """``--with 'queen is here'``: rules 3 (13), 5 (0) and 6 (-7.25) say it; rule 4 says
    ``queen is away``. Two atoms: only rule 6 says both."""
    path = tmp_path / "worth.yaml"
    path.write_text(TOP)

    def top(*atoms: str) -> dict[str, object]:
        args = [a for atom in atoms for a in ("--with", atom)]
        result = runner.invoke(app, ["rulebase", "top", str(path), "-n", "3", "--json", *args])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)  # type: ignore[no-any-return]

    here = top("queen is here")
    assert here["most"] == [{"rule": 3, "adds": 13.0, "if": "lead is ours and queen is here"}]
    assert here["least"] == [{"rule": 6, "adds": -7.25,
                              "if": "lead is theirs and queen is here"}]
    both = top("lead is theirs", "queen is here")
    assert both["most"] == [] and [r["rule"] for r in both["least"]] == [6]  # type: ignore[index, union-attr]
    ours = top("lead is ours")
    assert [r["rule"] for r in ours["most"]] == [3, 1] and ours["least"] == []  # type: ignore[index, union-attr]
    table = runner.invoke(app, ["rulebase", "top", str(path), "-n", "1", "--with",
                                "queen is here"], env={"COLUMNS": "80"})
    title = " ".join(line.strip() for line in table.stdout.splitlines()[:3])
    assert title.startswith("worth: 1 rule adding the most to points (points per hand), of "
                            "those with queen is here ")
    for atom, message in (
            ("queen here", "error: --with 'queen here': an atom is 'VARIABLE is TERM', e.g. "
                           "'lead is theirs'"),
            ("king is here", "error: --with 'king is here': rule base 'worth' has no input "
                             "'king' (inputs: lead, queen)"),
            ("queen is gone", "error: --with 'queen is gone': input 'queen' has no term "
                              "'gone' (terms: away, here)")):
        refused = runner.invoke(app, ["rulebase", "top", str(path), "--with", atom])
        assert refused.exit_code == 2
        assert refused.stderr.strip() == message


def test_a_given_start_is_checked_first_and_is_part_of_the_learn(tmp_path: Path) -> None:
    """A start TD(λ) cannot learn is refused before any file; a learn from a given start
    is not continued by the same command without it (the start is in its settings)."""
    first = runner.invoke(app, [*SMALL, *_files(tmp_path)])
    assert first.exit_code == 0, first.output
    start = tmp_path / "start.yaml"
    start.write_text((tmp_path / "l.yaml").read_text())
    other = tmp_path / "other"
    other.mkdir()
    given = runner.invoke(app, [*SMALL, *_files(other), "--rulebase", str(start)])
    assert given.exit_code == 0, given.output
    again = runner.invoke(app, [*SMALL, *_files(other)])
    assert again.exit_code == 1
    assert "holds learn 1, with other settings or another start" in again.stderr
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "avg.yaml").write_text(start.read_text().replace("weighted_sum",
                                                            "weighted_average"))
    refused = runner.invoke(app, [*SMALL, *_files(bad), "--rulebase", str(bad / "avg.yaml")])
    assert refused.exit_code == 2
    assert "is weighted_average: TD(λ) learns the conclusions of a weighted_sum base" \
        in refused.stderr
    assert sorted(p.name for p in bad.iterdir()) == ["avg.yaml"]


def test_explain_of_a_weighted_sum_adds_each_terms_rules(tmp_path: Path) -> None:
    """lead 1, queen 0.5: rule 1 (a, 4.5) fires 1; rule 3 (c) min(1, 0.5) = 0.5 and rule 4
    (c, weight 0.5) 0.5 x 0.5 = 0.25, so c's rules add 13 x 0.75 = 9.75; rule 5 (d, 0)
    0.5; the grade 4.5 + 9.75 = 14.25 (a maximum per term would show 13 x 0.5)."""
    path = tmp_path / "worth.yaml"
    path.write_text(TOP)
    result = runner.invoke(app, ["evaluate", str(path), "-i", "lead=1", "-i", "queen=0.5",
                                 "--explain"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.replace("│", " ").split()) for line in result.stdout.splitlines()]
    assert "a 4.5 1.0000 +4.5000" in lines
    assert "c 13 0.7500 +9.7500" in lines
    assert "d 0 0.5000 +0.0000" in lines
    assert not any(line.startswith(("b ", "e ")) for line in lines)  # fired nothing
    assert "points = 14.25 (weighted sum)" in lines


def test_the_defaults_and_messages_of_a_learn_name_their_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Values the other tests leave unread (mutation testing found them): the default
    picture plots/<db>_curve.png, the table's curve line, the JSON curve's games, the
    database named when it is shown again, a given start named in its errors and kept
    apart from the outputs."""
    monkeypatch.chdir(tmp_path)
    args = [*SMALL, "--db", "l.sqlite", "-o", "l.yaml"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert (tmp_path / "plots" / "l_curve.png").stat().st_size > 10_000
    assert "learning curve: plots/l_curve.png" in first.stdout
    again = runner.invoke(app, [*args, "--json"])
    assert "l.sqlite already holds learn 1 with these settings" in again.stderr
    assert [p["games"] for p in json.loads(again.stdout)["curve"]] == [8, 16]
    start = tmp_path / "start.yaml"
    start.write_text((tmp_path / "l.yaml").read_text())
    clash = runner.invoke(app, [*SMALL, "--db", "s.sqlite", "-o", "start.yaml",
                                "--rulebase", "start.yaml"])
    assert clash.exit_code == 2 and "--rulebase" in clash.stderr, clash.stderr
    given = [*SMALL, "--db", "g.sqlite", "-o", "g.yaml", "--rulebase", "start.yaml"]
    assert runner.invoke(app, given).exit_code == 0
    shown = runner.invoke(app, given)
    assert shown.exit_code == 0 and "already holds learn 1" in shown.stderr, shown.output
    (tmp_path / "broken.yaml").write_text("name: x\n")
    broken = runner.invoke(app, [*SMALL, "--db", "b.sqlite", "--rulebase", "broken.yaml"])
    assert broken.exit_code == 1, broken.stderr  # a bad rule base file, as in evaluate
    assert "broken.yaml:1: " in broken.stderr
    block = runner.invoke(app, [*SMALL[:4], "--block", "0", "--db", "z.sqlite"])
    assert block.exit_code == 2 and "--block" in block.stderr, block.stderr


def test_the_table_and_the_curve_say_what_they_show(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's numbers end under their headings; the curve is drawn over the games
    learned from, in the payoff's unit, fewer better in Hearts."""
    import fuzzeval.plots

    drawn: list[tuple[str, str, str]] = []
    bands: list[object] = []
    original = fuzzeval.plots.plot_curves

    def spy(curves: list[fuzzeval.plots.Curve], path: Path, title: str, xlabel: str,
            ylabel: str, **kw: object) -> Path:
        drawn.append((title, xlabel, ylabel))
        bands.extend((c.x, c.y, c.band) for c in curves)
        return original(curves, path, title, xlabel, ylabel, **kw)  # type: ignore[arg-type]
    monkeypatch.setattr(fuzzeval.plots, "plot_curves", spy)
    done = runner.invoke(app, [*SMALL, *_files(tmp_path)])
    assert done.exit_code == 0, done.output
    assert drawn == [("hearts: TD(λ = 0.75) against heuristic (fewer is better)",
                      "games learned from", "points per hand")]
    again = runner.invoke(app, [*SMALL, *_files(tmp_path), "--json"])  # shown, not learnt
    curve = json.loads(again.stdout)["curve"]
    # the band is each point's mean -+ its half-width, as stored (a zero-width band once)
    assert bands[0] == ([p["games"] for p in curve], [p["mean"] for p in curve],
                        ([p["mean"] - p["half"] for p in curve],
                         [p["mean"] + p["half"] for p in curve]))
    assert all(p["half"] > 0 for p in curve)
    lines = done.output.splitlines()
    head = next(k for k, line in enumerate(lines) if line.strip().startswith("games"))
    ends = [lines[head].index(h) + len(h) for h in ("games", "seats' mean", "heuristic",
                                                     "interval")]
    for row in lines[head + 2:head + 4]:
        assert [m.end() for m in re.finditer(r"\S+(?: \S+)?", row)] == ends, row
    assert lines[head + 3].split()[0] == "16"


def test_a_default_output_that_is_a_database_is_named_by_what_it_is(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "d.sqlite"
    with sqlite3.connect(tmp_path / "d.learned.yaml") as conn:
        conn.execute("CREATE TABLE t (x)")
    done = runner.invoke(app, [*SMALL, "--db", str(db), "--plot", str(tmp_path / "d.png")])
    assert done.exit_code == 2
    assert done.output.strip() == (
        f"error: the learned rule base {tmp_path / 'd.learned.yaml'}: an existing file that "
        "is an SQLite database, not a text file; it is not replaced: change -o or remove it")
    assert not db.exists()


def test_a_split_learn_groups_its_rules_and_says_so_in_made_by(tmp_path: Path) -> None:
    result = runner.invoke(app, [*SMALL, *_files(tmp_path), "--split", "leading"])
    assert result.exit_code == 0, result.output
    rb = load_rulebase(tmp_path / "l.yaml")
    assert rb.made_by.endswith("--sample-games 4 --scale 100 --split leading "
                               "--measure-every 1 --measure-games 8`")
    assert "--block 8 --update 1" in rb.made_by  # no --average: the last block's
    again = runner.invoke(app, [*SMALL, *_files(tmp_path), "--split", "leading",
                                "--average", "2"])
    assert again.exit_code == 0, again.output
    assert "--block 8 --average 2 --update 1" in load_rulebase(tmp_path / "l.yaml").made_by
    firsts = {r.condition.operands[0] if isinstance(r.condition, And) else r.condition
              for r in rb.rules}
    assert firsts == {Is("leading", "no"), Is("leading", "yes")}
    assert rb.rules[0].condition == Is("leading", "no")


def test_a_learn_with_every_option_writes_a_made_by_line_its_base_can_hold() -> None:
    """Backgammon's race learn with every option says a command of over 400 characters; the loader
    refused a made_by line over 300 characters, so the learned base did not load."""
    settings = LearnSettings(
        "backgammon", halving=1000, order=2, split="Contact", measure_opponent="pubeval",
        group_features=("Contact=no:PipCount,OpponentPipCount,BorneOff,OpponentBorneOff",),
        options=(("seed_of", 1),))
    line = made_by(settings, 200000, None, 50)
    assert len(line) > 400
    base = ("name: t\nmade_by: '" + line.replace("'", "''") + "'\n"
            "defuzzifier: weighted_sum\ndefault: 0\n"
            "inputs:\n  x:\n    range: [0, 1]\n    terms:\n      a: [0, 0, 1]\n"
            "output:\n  name: y\n  range: [0, 1]\n  terms:\n    r1: [0, 0, 0]\n"
            "rules:\n- if x is a then y is r1\n")
    assert load_rulebase_text(base).made_by == line


def test_a_learn_toward_the_searched_values_says_so_in_made_by() -> None:
    searched = made_by(LearnSettings("backgammon", target="lookahead"), 100, "td.yaml", 1)
    assert " --seed 1 --target lookahead --rulebase td.yaml " in searched
    assert "--target" not in made_by(LearnSettings("backgammon"), 100, "td.yaml", 1)


def test_a_learn_of_quadruples_says_their_share_in_made_by() -> None:
    """--order 4's made_by line names --quad-share, as it names --triple-share; a learn of
    pairs leaves it out, as its made_by line was before quadruples."""
    quads = LearnSettings("hearts_positions", order=4, block=500, measure_every=0)
    assert ("--order 4 --min-share 0.005 --triple-share 0.15 --quad-share 0.25 "
            "--sample-games 200 --scale 100 --measure-every 0") in made_by(quads, 60000, None,
                                                                           40)
    pairs = LearnSettings("hearts_positions", order=2, block=500, measure_every=0)
    assert ("--order 2 --min-share 0.005 --triple-share 0.15 --sample-games 200 --scale 100 "
            "--measure-every 0") in made_by(pairs, 60000, None, 40)
    odd = LearnSettings("hearts_positions", order=2, quad_share=0.5)
    assert "--triple-share 0.15 --quad-share 0.5 --sample-games" in made_by(odd, 100, None, 1)


def test_a_group_narrowed_to_some_features_draws_only_on_them(tmp_path: Path) -> None:
    """--group-features leading=no:rank: the follows' rules are about the rank alone; the
    leads' group is as without it; the option is in made_by, so the same command resumes."""
    narrowed = ["--split", "leading", "--group-features", "leading=no:rank"]
    result = runner.invoke(app, [*SMALL, *_files(tmp_path), *narrowed])
    assert result.exit_code == 0, result.output
    rb = load_rulebase(tmp_path / "l.yaml")
    assert "--split leading --group-features leading=no:rank --measure-every" in rb.made_by
    follows = [r.condition for r in rb.rules if (r.condition.operands[0] if isinstance(
        r.condition, And) else r.condition) == Is("leading", "no")]
    assert follows[0] == Is("leading", "no") and len(follows) > 1
    assert all(isinstance(c, And) and len(c.operands) == 2 and c.operands[1].variable == "rank"
               for c in follows[1:]), follows
    whole = runner.invoke(app, [*SMALL, "--db", str(tmp_path / "w.sqlite"), "-o",
                                str(tmp_path / "w.yaml"), "--plot", str(tmp_path / "w.png"),
                                "--split", "leading"])
    assert whole.exit_code == 0, whole.output
    wrules = load_rulebase(tmp_path / "w.yaml").rules
    leads = [r.condition for r in rb.rules if r.condition not in follows]
    assert leads == [r.condition for r in wrules if (r.condition.operands[0] if isinstance(
        r.condition, And) else r.condition) == Is("leading", "yes")]
    assert len(wrules) > len(rb.rules)
    again = runner.invoke(app, [*SMALL, *_files(tmp_path), *narrowed, "-n", "24", "--resume"])
    assert again.exit_code == 0, again.output


def test_a_learn_plays_the_game_options_it_is_given_and_says_so(tmp_path: Path) -> None:
    """--option rules=sturtevant-white (no passing): no pass is sampled, so no rule is about one,
    where the standard game's learn has rules for passes; the option is in made_by; a
    learn of other options is refused a database that holds another learn."""
    standard = runner.invoke(app, [*SMALL, *_files(tmp_path)])
    assert standard.exit_code == 0, standard.output
    text = (tmp_path / "l.yaml").read_text()
    assert Is("passing", "yes") in {r.condition for r in load_rulebase(tmp_path / "l.yaml").rules}
    refused = runner.invoke(app, [*SMALL, *_files(tmp_path), "--option", "rules=sturtevant-white"])
    assert refused.exit_code == 1
    assert refused.stderr == (f"error: {tmp_path / 'l.sqlite'} holds learn 1, with other "
                              "settings or another start: one learn to a database; give "
                              "another --db\n")
    assert (tmp_path / "l.yaml").read_text() == text
    other = tmp_path / "sturtevant-white"
    other.mkdir()
    variant = runner.invoke(app, [*SMALL, *_files(other), "--option", "rules=sturtevant-white"])
    assert variant.exit_code == 0, variant.output
    rb = load_rulebase(other / "l.yaml")
    assert "--seed 1 --option rules=sturtevant-white --order 1" in rb.made_by
    conditions = {r.condition for r in rb.rules}  # --order 1: one atom each
    assert Is("passing", "yes") not in conditions and Is("leading", "yes") in conditions
    assert (other / "l.yaml").read_text() != text


def test_passes_learned_from_the_hands_points_are_another_learn(tmp_path: Path) -> None:
    """--monte-carlo pass changes what the rule about passes concludes, is part of the
    learn's settings (an older learn's are written without it) and of made_by."""
    from fuzzeval.learn.td_runs import LearnSettings
    from fuzzeval.play.runs import settings_from_json

    def pass_value(folder: Path) -> float:
        rb = load_rulebase(folder / "l.yaml")
        values = {t.name: t.triangle.peak for t in rb.output.terms}
        (term,) = [r.output_term for r in rb.rules if r.condition == Is("passing", "yes")]
        return values[term]

    plain = runner.invoke(app, [*SMALL, *_files(tmp_path)])
    assert plain.exit_code == 0, plain.output
    other = tmp_path / "mc"
    other.mkdir()
    mc = runner.invoke(app, [*SMALL, *_files(other), "--monte-carlo", "pass"])
    assert mc.exit_code == 0, mc.output
    assert "--seed 1 --monte-carlo pass --order 1" in load_rulebase(other / "l.yaml").made_by
    assert pass_value(other) != pass_value(tmp_path)
    s = LearnSettings("hearts", monte_carlo=("pass",))
    assert settings_from_json(LearnSettings, s.to_json()) == s
    assert "monte_carlo" not in LearnSettings("hearts").to_json()


def test_made_by_is_the_command_that_makes_the_same_base_again(tmp_path: Path) -> None:
    """Its numbers are never rounded (0.12345678 was written 0.123457, and that command
    learned another base), and the learning curve's settings are in it, so the same
    command into the same database goes on with the stored learn (it was refused)."""
    import shlex

    args = [*SMALL, *_files(tmp_path), "--alpha", "0.12345678", "--lambda", "0.987654321",
            "--min-share", "0.00123456789"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    made_by = load_rulebase(tmp_path / "l.yaml").made_by
    assert "--lambda 0.987654321 --alpha 0.12345678 " in made_by
    assert "--min-share 0.00123456789 " in made_by
    assert made_by.endswith(" --measure-every 1 --measure-games 8`")
    words = shlex.split(made_by.removeprefix("learned by `").removesuffix("`"))
    assert words[:3] == ["fuzzeval", "learn", "hearts"]
    again = runner.invoke(app, [*words[1:], "-w", "1", *_files(tmp_path)])
    assert again.exit_code == 0, again.output
    assert "already holds learn 1 with these settings, all 16 games" in again.stderr
    other = tmp_path / "fresh"
    other.mkdir()
    fresh = runner.invoke(app, [*words[1:], "-w", "1", *_files(other)])
    assert fresh.exit_code == 0, fresh.output
    assert (other / "l.yaml").read_text() == (tmp_path / "l.yaml").read_text()


def test_fewer_games_than_stored_write_the_base_as_it_was_then(tmp_path: Path) -> None:
    """-n 8 after a 16-game learn: the conclusions after its first block, as a learn of 8
    games writes them (it wrote the 16-game base, saying 8 games)."""
    assert runner.invoke(app, [*SMALL, *_files(tmp_path)]).exit_code == 0
    sixteen = (tmp_path / "l.yaml").read_text()
    short = [*SMALL[:2], "-n", "8", *SMALL[4:]]
    cut = runner.invoke(app, [*short, *_files(tmp_path), "--json"])
    assert cut.exit_code == 0, cut.output
    assert "all 8 games" in cut.stderr
    got = json.loads(cut.stdout)
    assert (got["games"], got["blocks"], len(got["curve"])) == (8, 1, 1)
    other = tmp_path / "eight"
    other.mkdir()
    assert runner.invoke(app, [*short, *_files(other)]).exit_code == 0
    assert (tmp_path / "l.yaml").read_text() == (other / "l.yaml").read_text() != sixteen
    assert "--games 8 " in load_rulebase(tmp_path / "l.yaml").made_by


def test_another_learn_is_refused_before_its_start_is_sampled(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fuzzeval.learn.td_runs as learning

    assert runner.invoke(app, [*SMALL, *_files(tmp_path)]).exit_code == 0

    def never(*args: object, **kwargs: object) -> str:
        raise AssertionError("sampled the start of a learn the database refuses")

    monkeypatch.setattr(learning, "start_source", never)
    refused = runner.invoke(app, [*SMALL, *_files(tmp_path), "--seed", "2"])
    assert refused.exit_code == 1, refused.output
    assert refused.stderr == (f"error: {tmp_path / 'l.sqlite'} holds learn 1, with other "
                              "settings or another start: one learn to a database; give "
                              "another --db\n")


def test_rulebase_top_of_a_weighted_average_base_ranks_what_rules_pull_toward(
        tmp_path: Path) -> None:
    """Each rule pulls the grade toward its conclusion, as hard as its weight: the
    highest values, then the lowest (it showed value x weight, and no lowest at all
    where every value is 0 or more)."""
    path = tmp_path / "pull.yaml"
    path.write_text(TOP.replace("weighted_sum", "weighted_average"))
    result = runner.invoke(app, ["rulebase", "top", str(path), "-n", "2", "--json"])
    assert result.exit_code == 0, result.output
    # values a 4.5, b -2, c 13, d 0, e -7.25 on rules 1-6 (rule 4: c, weight 0.5)
    assert json.loads(result.stdout) == {
        "rulebase": "worth", "unit": "points per hand",
        "most": [{"rule": 3, "toward": 13.0, "weight": 1.0,
                  "if": "lead is ours and queen is here"},
                 {"rule": 4, "toward": 13.0, "weight": 0.5, "if": "queen is away"}],
        "least": [{"rule": 6, "toward": -7.25, "weight": 1.0,
                   "if": "lead is theirs and queen is here"},
                  {"rule": 2, "toward": -2.0, "weight": 1.0, "if": "lead is theirs"}]}
    table = runner.invoke(app, ["rulebase", "top", str(path), "-n", "1"], env={"COLUMNS": "80"})
    lines = [line.strip() for line in table.stdout.splitlines() if line.strip()]
    assert lines[0] == "worth: 1 rule pulling points (points per hand) the highest"
    assert "3   +13.000        1   lead is ours and queen is here" in lines


@pytest.mark.pinned
def test_a_learn_with_no_block_is_refused_by_its_option(tmp_path: Path) -> None:
    done = runner.invoke(app, ["learn", "hearts", "--block", "0", "--db",
                               str(tmp_path / "l.sqlite")])
    assert done.exit_code == 2
    assert done.output.strip() == "error: --block must be at least 1 (got 0)"
