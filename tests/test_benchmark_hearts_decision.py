"""benchmarks/hearts_decision.py times the Monte-Carlo player on the bases it is given:
naming the shipped bases is the default player, and a base that is not one is a usage
error in one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import hearts_decision  # noqa: E402

ARGS = ["--hands", "1", "--warm", "0", "--searched", "0", "--deals", "2"]


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         *extra: str) -> tuple[str, str]:
    monkeypatch.setattr(sys, "argv", ["hearts_decision.py", *ARGS, *extra])
    hearts_decision.main()
    out = capsys.readouterr().out.splitlines()
    return out[0], out[1]


def test_the_shipped_bases_named_choose_as_the_default(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The same decisions, the same generators: the same cards, and the heading names the
    bases given."""
    head, default = _run(monkeypatch, capsys)
    named_head, named = _run(monkeypatch, capsys, "--queen", "hearts_positions_td_queen",
                             "--hearts", "hearts_positions_td_hearts")
    assert head.startswith("maxn:values=learned,deals=2: ")
    assert named_head.startswith("maxn:values=learned,deals=2,queen=hearts_positions_td_queen,"
                                 "hearts=hearts_positions_td_hearts: ")
    assert named == default and default.startswith("choices: ")
    assert len(default.split()) > 2  # seat 0 had cards to choose


@pytest.mark.parametrize(("base", "said"), [
    ("/nonexistent.yaml", "/nonexistent.yaml: no such rule-base file"),
    ("backgammon_td", "are not hearts_positions features"),
])
def test_a_base_that_is_not_one_of_positions_is_a_usage_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        base: str, said: str) -> None:
    monkeypatch.setattr(sys, "argv", ["hearts_decision.py", *ARGS, "--queen", base])
    with pytest.raises(SystemExit) as stop:
        hearts_decision.main()
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert said in err[-1] and err[-1].startswith("hearts_decision.py: error: ")
