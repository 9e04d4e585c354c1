"""Teaching the refined backgammon rule base from GNU Backgammon (gnubg, dev extra)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from fuzzeval import compile_rulebase, parse_rulebase
from fuzzeval.games.backgammon.features import FEATURE_NAMES
from fuzzeval.games.backgammon.scripts.teach import Decisions, collect, main, teach

pytest.importorskip("gnubg")


@functools.cache  # two tests read the 4 games of one worker: played once (1 s)
def _last(games: int, workers: int) -> Decisions:
    done: list[int] = []
    out = collect(games, seed=3, workers=workers, progress=done.append)
    assert done == list(range(1, games + 1))
    return out


def test_same_seed_same_decisions_whatever_the_workers() -> None:
    one, two = _last(4, 1), _last(4, 2)
    assert np.array_equal(one.features, two.features)
    assert np.array_equal(one.equity, two.equity)
    assert np.array_equal(one.groups, two.groups)
    assert one.features.shape[1] == len(FEATURE_NAMES)
    assert np.all(np.diff(one.groups) >= 0) and one.groups[-1] > 20


def test_taught_rule_base_reads_as_rules_and_prefers_gnubgs_plays() -> None:
    decisions = _last(10, 1)  # 2 workers: the test above
    text = teach(decisions)
    rb, problems = parse_rulebase(text, "taught.yaml")
    assert rb is not None, problems
    names = {t.name for t in rb.output.terms}
    assert "Neutral" in names and {n[:3] for n in names} <= {"Bad", "Neu", "Goo"}
    for line in (ln for ln in text.splitlines() if ln.lstrip().startswith("- if")):
        then = line.rsplit(" is ", 1)[1]
        assert then in names
        if " is Few then " in line:
            assert then == "Neutral"
    ev = compile_rulebase(rb)
    x = decisions.features[:, [FEATURE_NAMES.index(n) for n in rb.input_names]]
    grade = ev.grade(x)
    g = decisions.groups
    agree = []
    for k in range(int(g.max()) + 1):
        rows = np.where(g == k)[0]
        agree.append(rows[np.argmax(grade[rows])] == rows[np.argmax(decisions.equity[rows])])
    # gnubg's best among ~20 plays: a blind pick finds it about one time in ten.
    assert np.mean(agree) > 0.35


@pytest.mark.parametrize(("args", "says"), [
    (["--player", "bogus"], "--player bogus: unknown backgammon player"),
    (["--also", "no-such.npz"], "--also no-such.npz: no such file"),
])
def test_bad_arguments_are_refused_before_any_game(args: list[str], says: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert says in err[-1] and "Traceback" not in "\n".join(err)


def test_also_adds_the_saved_decisions_to_those_played(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """--data reuses saved decisions (no play) and each --also adds its own, renumbered
    after them: the taught base's header counts both, and names the --also files."""
    whole = _last(4, 1)
    cut = int(np.searchsorted(whole.groups, whole.groups.max() // 2))
    first = Decisions(whole.features[:cut], whole.equity[:cut], whole.groups[:cut])
    rest = Decisions(whole.features[cut:], whole.equity[cut:],
                     whole.groups[cut:] - whole.groups[cut])
    first.save(tmp_path / "a.npz")
    rest.save(tmp_path / "b.npz")
    out = tmp_path / "taught.yaml"
    main(["--games", "4", "--data", str(tmp_path / "a.npz"), "--also", str(tmp_path / "b.npz"),
          "--out", str(out)])
    head = out.read_text().splitlines()
    decisions = int(whole.groups.max()) + 1
    assert f"# ({len(whole.equity):,} candidate plays of {decisions:,} decisions valued by " \
           "GNU Backgammon 0-ply)" in head
    assert any(line.startswith("# Taught by: ") and line.endswith(f"--also {tmp_path}/b.npz")
               for line in head)
