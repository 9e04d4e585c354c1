"""The shipped rule bases as fuzzing corpora: a learned base (thousands of rules, one
output term each) is cut to its first rules and their terms, so an example parses in
milliseconds and the fuzzers spend their examples on the grammar, not on re-reading the
same 4,000 rules."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: rules a learned base keeps as a corpus
KEEP = 40
_TERM = re.compile(r"^    r(\d+): ")
_RULE = re.compile(r"^- if .* then value is r(\d+)$")


def shortened(text: str, keep: int = KEEP) -> str:
    """``text`` without the learned rules ``r{keep+1}``... and their terms (a base written
    by ``fuzzeval learn``); any other text as it is."""
    out = []
    for line in text.splitlines(keepends=True):
        m = _TERM.match(line) or _RULE.match(line.rstrip("\n"))
        if m is None or int(m[1]) <= keep:
            out.append(line)
    return "".join(out)


def shipped_texts() -> list[str]:
    """Every shipped rule base's text, learned ones shortened."""
    return [shortened(p.read_text()) for p in sorted((ROOT / "rulebases").glob("*.yaml"))]
