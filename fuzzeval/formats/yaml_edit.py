"""Write moved points back into a rule base's own YAML text, keeping its comments that
are still true.

The calibrator and the tuner change numbers, not structure, so instead of dumping a new
document we replace the number scalars of each input term's points where they stand in the
original text (PyYAML's node tree knows every scalar's position). A comment must not keep
stating a number that was changed, so two kinds of comment go with the old number: a
comment after a changed number on its line, when it states any number, and a paragraph of
comment lines (or a comment after other text) that names a changed term and states its old
number, in digits or words, within two lines. The name and ``made_by:`` (where the rule
base came from) are written too; anything else is left as written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import yaml

from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.formats.loading import parse_rulebase

#: number words a comment may state a value in ("four points, five one time in five")
NUMBER_WORDS = {w: float(i) for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty"))} | {"half": 0.5}
NUMBER_RE = re.compile(r"(?<![\w.])[-+−]?\d+(?:\.\d+)?(?![\w.]*\w)")
_WORDS_RE = re.compile(r"(?<![\w-])(?:" + "|".join(NUMBER_WORDS) + r")(?![\w-])", re.IGNORECASE)


def numbers_in(text: str) -> list[float]:
    """The numbers ``text`` states, in digits (a minus sign, ASCII or not, included) or in
    words (zero to twenty, half)."""
    return ([float(m.group().replace("−", "-")) for m in NUMBER_RE.finditer(text)]
            + [NUMBER_WORDS[m.group().lower()] for m in _WORDS_RE.finditer(text)])


def states_a_number(text: str) -> bool:
    return bool(numbers_in(text))


def _number(x: float) -> str:
    """As YAML 1.1 reads it back as the same float: 1e-05 would be a string there, so an
    exponent always comes with a decimal point (1.0e-05)."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = repr(float(x))
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def _value(mapping: yaml.Node | None, key: str) -> yaml.Node | None:
    if not isinstance(mapping, yaml.MappingNode):
        return None
    for k, v in mapping.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            node: yaml.Node = v
            return node
    return None


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    new: str
    term: str = ""  # the term whose number this is
    old: float = 0.0

    @property
    def changed(self) -> bool:
        return self.term != "" and float(self.new) != self.old


def _scalar_edit(node: yaml.ScalarNode, x: float, term: str) -> _Edit:
    old = yaml.safe_load(node.value)
    return _Edit(node.start_mark.index, node.end_mark.index, _number(x), term,
                 float(old) if isinstance(old, (int, float)) else float("nan"))


def _number_edits(root: yaml.Node | None, rb: RuleBase) -> list[_Edit]:
    inputs = _value(root, "inputs")
    edits: list[_Edit] = []
    for var in rb.inputs:
        terms = _value(_value(inputs, var.name), "terms")
        for term in var.terms:
            node = _value(terms, term.name)
            if isinstance(node, yaml.MappingNode):
                node = _value(node, "points")
            if not isinstance(node, yaml.SequenceNode) or len(node.value) != 3:
                raise ValueError(f"inputs.{var.name}.terms.{term.name}: no points to rewrite")
            for scalar, x in zip(node.value, term.triangle.points, strict=True):
                edits.append(_scalar_edit(scalar, x, term.name))
    output_terms = _value(_value(root, "output"), "terms")
    for term in rb.output.terms:
        node = _value(output_terms, term.name)
        if isinstance(node, yaml.MappingNode):
            node = _value(node, "points")
        if isinstance(node, yaml.ScalarNode):  # a singleton written as one number
            edits.append(_scalar_edit(node, term.triangle.peak, term.name))
        elif isinstance(node, yaml.SequenceNode) and len(node.value) == 3:
            for scalar, x in zip(node.value, term.triangle.points, strict=True):
                edits.append(_scalar_edit(scalar, x, term.name))
        else:
            raise ValueError(f"output.terms.{term.name}: no points to rewrite")
    return edits


def _top_edits(text: str, root: yaml.Node | None, rb: RuleBase) -> list[_Edit]:
    """The name and ``made_by:`` of ``rb``: rewritten where they stand, ``made_by:`` added
    after the name (or the description) when the text has none."""
    edits: list[_Edit] = []
    name = _value(root, "name")
    if isinstance(name, yaml.ScalarNode) and name.value != rb.name:
        edits.append(_Edit(name.start_mark.index, name.end_mark.index, _scalar(rb.name)))
    made = _value(root, "made_by")
    if isinstance(made, yaml.ScalarNode) and not rb.made_by:  # the whole line goes
        start = text.rfind("\n", 0, made.start_mark.index) + 1
        end = text.find("\n", made.end_mark.index)
        edits.append(_Edit(start, len(text) if end < 0 else end + 1, ""))
    elif isinstance(made, yaml.ScalarNode):
        if made.value != rb.made_by:
            edits.append(_Edit(made.start_mark.index, made.end_mark.index,
                               _scalar(rb.made_by)))
    elif rb.made_by:
        after = _value(root, "description") or name
        if after is None:
            raise ValueError("no name to write made_by: after")
        end = text.find("\n", after.end_mark.index)
        end = len(text) if end < 0 else end + 1
        prefix = "" if end > 0 and text[end - 1] == "\n" else "\n"
        edits.append(_Edit(end, end, f"{prefix}made_by: {_scalar(rb.made_by)}\n"))
    return edits


def _scalar(text: str) -> str:
    """``text`` as a YAML scalar: as it is where YAML reads it back so, else quoted."""
    try:
        plain = yaml.safe_load(f"k: {text}") == {"k": text}
    except yaml.YAMLError:
        plain = False
    return text if plain and text == text.strip() else json.dumps(text)


def _names(comment: str, term: str) -> bool:
    """Whether the comment names the term (in any case: prose capitalises it)."""
    return re.search(rf"(?<![\w.]){re.escape(term)}(?!\w)", comment, re.IGNORECASE) is not None


def _states_old(comment: str, changed: list[_Edit]) -> bool:
    """Whether the comment names a changed term and states that term's old number."""
    found = numbers_in(comment)
    return any(e.old in found and _names(comment, e.term) for e in changed)


def _comment_edits(text: str, numbers: list[_Edit]) -> list[_Edit]:
    """Deletions of the comments that state changed numbers (see the module's docstring)."""
    changed = [e for e in numbers if e.changed]
    if not changed:
        return []
    changed_lines = {text.count("\n", 0, e.start) for e in changed}
    edits: list[_Edit] = []
    offset = 0
    paragraph: list[tuple[int, int]] = []  # (start, end) of its lines, newline included

    def close() -> None:
        lines = [text[a:b] for a, b in paragraph]  # a statement may run onto the next line
        if any(_states_old(" ".join(lines[i:i + 2]), changed) for i in range(len(lines))):
            edits.append(_Edit(paragraph[0][0], paragraph[-1][1], ""))
        paragraph.clear()

    for number, line in enumerate(text.splitlines(keepends=True)):
        start, offset = offset, offset + len(line)
        stripped = line.strip()
        if stripped.startswith("#") and stripped.lstrip("#").strip():
            paragraph.append((start, offset))
            continue
        if stripped == "#" and paragraph:  # the paragraph and the blank line after it
            close_at = len(edits)
            close()
            if len(edits) > close_at:
                edits[-1] = _Edit(edits[-1].start, offset, "")
            continue
        close()
        hit = re.search(r"\s#", line)
        if hit is None or stripped.startswith("#"):
            continue
        comment = line[hit.start():].rstrip("\n")
        if (number in changed_lines and states_a_number(comment)) or _states_old(comment,
                                                                                   changed):
            cut = len(line[:hit.start()].rstrip())  # the spaces before it go too
            edits.append(_Edit(start + cut, start + hit.start() + len(comment), ""))
    close()
    return edits


def rewrite_points(text: str, rb: RuleBase) -> str:
    """``text`` (a rule base) with every input term's points, every output singleton, the
    name and ``made_by:`` set to those of ``rb``, and the comments stating changed numbers
    left out.

    Raises ValueError when the text is not the same rule base apart from those.
    """
    if any(isinstance(e, yaml.AliasEvent) for e in yaml.parse(text, Loader=yaml.SafeLoader)):
        raise ValueError("the rule base uses YAML anchors and aliases (&name, *name), so one "
                         "written number stands for several points; write the shared terms "
                         "out in full to have its points moved")
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    numbers = _number_edits(root, rb)
    edits = numbers + _top_edits(text, root, rb) + _comment_edits(text, numbers)
    out = text
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        out = out[:e.start] + e.new + out[e.end:]
    back, problems = parse_rulebase(out)
    if (back is None or back.inputs != rb.inputs or back.output != rb.output
            or back.name != rb.name or back.made_by != rb.made_by):
        raise ValueError("the rewritten text does not give the moved rule base back"
                         + (": " + "; ".join(str(p) for p in problems) if problems else ""))
    return out
