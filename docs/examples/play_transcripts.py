"""The transcripts of docs/play.md, made by playing each game at the terminal with a fixed
seed and typed input, as ``fuzzeval play`` prints them, so that they stay true.

    python docs/examples/play_transcripts.py           # rewrite them in docs/play.md
    python docs/examples/play_transcripts.py --check   # exit 1 naming each stale one

Each transcript in docs/play.md follows a line ``<!-- transcript: NAME -->`` in a text
block; the tests check that every one is what this script makes now.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "play.md"


@dataclass(frozen=True)
class Session:
    """One game at the terminal: its command's arguments and what the person types."""

    name: str
    args: tuple[str, ...]
    typed: tuple[str, ...]


SESSIONS = (
    Session("cribbage", ("cribbage", "--opponent", "sampling", "--seed", "7"),
            ("help", "9X 9S", "?", "2C 7S", "9H", "KH", "9S", "quit")),
    Session("backgammon", ("backgammon", "--opponent", "pubeval", "--seed", "4"),
            ("24/22 24/18", "?", "8/5 7/1", "bar/21 18/16", "quit")),
    Session("hearts", ("hearts", "--seed", "3"),
            ("?", "KS", "QS", "JH", "AC", "? td", "9S", "TD", "quit")),
    Session("holdem", ("holdem", "--opponent", "fuzzy", "--seed", "2"),
            ("?", "raise", "help", "bet")),
)
_BLOCK = re.compile(r"(<!-- transcript: (\S+) -->\n\n```text\n)(.*?)(^```)", re.S | re.M)


def transcript(session: Session) -> str:
    """What ``fuzzeval play`` prints for ``session``, run in an empty folder (its history
    goes to runs/ there), each line without trailing blanks."""
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    here = Path.cwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            result = CliRunner().invoke(app, ["play", *session.args],
                                        input="".join(f"{t}\n" for t in session.typed))
        finally:
            os.chdir(here)
    if result.exit_code not in (0, 1) or (result.exception and not isinstance(
            result.exception, SystemExit)):
        raise RuntimeError(f"{session.name}: exit {result.exit_code}\n{result.output}")
    return "".join(f"{line.rstrip()}\n" for line in result.output.splitlines())


def shown(text: str) -> dict[str, str]:
    """The transcripts a page shows, by name."""
    return {m.group(2): m.group(3) for m in _BLOCK.finditer(text)}


def rewritten(text: str, made: dict[str, str]) -> str:
    """``text`` with each transcript replaced by the one made."""
    return _BLOCK.sub(lambda m: m.group(1) + made.get(m.group(2), m.group(3)) + m.group(4),
                      text)


def main(argv: list[str]) -> int:
    text = PAGE.read_text(encoding="utf-8")
    made = {s.name: transcript(s) for s in SESSIONS}
    missing = sorted(set(made) - set(shown(text)))
    if missing:
        print(f"error: {PAGE}: no transcript block for {', '.join(missing)}", file=sys.stderr)
        return 1
    stale = [name for name, block in shown(text).items() if made.get(name) != block]
    if "--check" in argv:
        for name in stale:
            print(f"{PAGE}: the {name} transcript is stale: run python "
                  "docs/examples/play_transcripts.py", file=sys.stderr)
        return 1 if stale else 0
    PAGE.write_text(rewritten(text, made), encoding="utf-8")
    print(f"{PAGE}: {len(stale)} of {len(made)} transcripts rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
