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
    out: list[str] = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        part = [lines[i]]  # a rule the writer wrapped goes on in lines indented by two
        while (lines[i].startswith("- if ") and i + 1 < len(lines)
               and lines[i + 1].startswith("  ") and not lines[i + 1].startswith("    ")):
            i += 1
            part.append(lines[i])
        whole = " ".join(p.strip() for p in part)
        m = _TERM.match(part[0]) or _RULE.match(whole)
        if m is None or int(m[1]) <= keep:
            out.extend(part)
        i += 1
    return "".join(out)


def shipped_texts() -> list[str]:
    """Every shipped rule base's text, learned ones shortened."""
    return [shortened(p.read_text()) for p in sorted((ROOT / "rulebases").glob("*.yaml"))]
