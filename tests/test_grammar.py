"""Rule grammar: precedence, parentheses, 'not', and located syntax errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzeval.engine.rulebase import And, Is, Not, Or, Rule, render
from fuzzeval.formats.grammar import MAX_NESTING, RuleSyntaxError, parse_rule
from tests.strategies import conditions, variables

A, B, C = Is("a", "x"), Is("b", "y"), Is("c", "z")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("if a is x then o is t", A),
        ("if a is x or b is y and c is z then o is t", Or((A, And((B, C))))),
        ("if (a is x or b is y) and c is z then o is t", And((Or((A, B)), C))),
        ("if not a is x and b is y then o is t", And((Not(A), B))),
        ("if a is not x then o is t", Not(A)),
        ("if not (a is x or b is y) then o is t", Not(Or((A, B)))),
        ("IF a IS x AND b Is y THEN o is t", And((A, B))),
        ("if a is x and b is y and c is z then o is t", And((A, B, C))),
    ],
)
def test_precedence_and_grouping(text: str, expected: object) -> None:
    parsed = parse_rule(text)
    assert parsed.condition == expected
    assert (parsed.output_variable, parsed.output_term) == ("o", "t")


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("a is x then o is t", 1, "expected 'if'"),
        ("if a is x", 10, "expected 'then'"),
        ("if a x then o is t", 6, "expected 'is'"),
        ("if a is x and then o is t", 15, "expected a condition"),
        ("if (a is x then o is t", 12, "expected ')'"),
        ("if a is x then o is t extra", 23, "expected end of rule"),
        ("if a is 3 then o is t", 9, "expected a term name (got '3')"),
        ("if a is x then o is and", 21, "expected an output term"),
    ],
)
def test_syntax_errors_name_column_and_expectation(text: str, column: int, fragment: str) -> None:
    with pytest.raises(RuleSyntaxError, match=re.escape(fragment)) as info:
        parse_rule(text)
    assert info.value.column == column


@given(st.data())
def test_rendered_rules_parse_back_to_the_same_tree(data: st.DataObject) -> None:
    inputs = (data.draw(variables("p")), data.draw(variables("q")))
    cond = data.draw(conditions(inputs))
    text = Rule(cond, "t").text("out")
    parsed = parse_rule(text)
    assert render(parsed.condition) == render(cond)
    assert parse_rule(f"if {render(parsed.condition)} then out is t") == parsed


def test_a_rule_read_from_a_deep_call_that_runs_out_of_stack_is_refused() -> None:
    """A rule within MAX_NESTING needs some hundreds of frames; read from a call that has
    fewer left (or under mutation testing, which wraps every call), it is refused as too
    deep, never a RecursionError."""
    import sys

    text = "if " + "(" * MAX_NESTING + "a is t" + ")" * MAX_NESTING + " then y is o"
    parse_rule(text)  # from a shallow stack: read

    def deep(n: int) -> None:
        if n:
            deep(n - 1)
            return
        with pytest.raises(RuleSyntaxError, match=r"nested too deeply to read \(ran out of "
                                                  r"stack\)"):
            parse_rule(text)

    here = len(__import__("inspect").stack(0))
    deep(sys.getrecursionlimit() - here - 60)
