"""Rule text -> condition tree.

    rule      := "if" or_expr "then" NAME "is" NAME
    or_expr   := and_expr ("or" and_expr)*
    and_expr  := unary ("and" unary)*
    unary     := "not" unary | "(" or_expr ")" | NAME "is" ["not"] NAME

``and`` binds tighter than ``or``; ``not`` applies to the one condition (or
parenthesised group) after it. Keywords are case-insensitive, names are not.
``not`` and parentheses nest at most MAX_NESTING levels deep (the parser, and everything
that walks a condition tree, recurses once per level).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fuzzeval.engine.rulebase import And, Condition, Is, Not, Or

KEYWORDS = frozenset({"if", "then", "is", "and", "or", "not"})
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_TOKEN = re.compile(r"\s*(?:([()])|([A-Za-z_][A-Za-z0-9_]*)|(\S+))")
#: how deep ``not`` and parentheses may nest: far more than a person writes, far less than
#: Python's recursion limit (the parser takes about 3 frames a level)
MAX_NESTING = 100


class RuleSyntaxError(ValueError):
    """Rule text that does not follow the grammar; ``column`` is 1-based."""

    def __init__(self, message: str, column: int) -> None:
        self.column = column
        super().__init__(f"{message} at column {column}")


@dataclass(frozen=True)
class ParsedRule:
    condition: Condition
    output_variable: str
    output_term: str


@dataclass(frozen=True, slots=True)
class _Tok:
    text: str
    column: int
    kind: str  # "paren" | "word" | "bad" | "end"
    keyword: str | None  # the keyword a word is, lower-cased (looked up once: a 100,000-rule
    # base asks two million times)


def _keyword(word: str | None) -> str | None:
    low = word.lower() if word else None
    return low if low in KEYWORDS else None


def _tokens(text: str) -> list[_Tok]:
    toks = []
    pos = 0
    end = len(text.rstrip())  # (not text[pos:].strip() in the loop: quadratic in long rules)
    while pos < end:
        m = _TOKEN.match(text, pos)
        assert m is not None  # the pattern accepts any non-blank text
        paren, word, bad = m.groups()
        kind = "paren" if paren else "word" if word else "bad"
        tok = paren or word or bad
        toks.append(_Tok(tok, m.start(m.lastindex or 0) + 1, kind, _keyword(word)))
        pos = m.end()
    toks.append(_Tok("end of rule", len(text) + 1, "end", None))
    return toks


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def fail(self, expected: str) -> RuleSyntaxError:
        text = self.tok.text
        shown = text if len(text) <= 40 else text[:40] + "..."
        return RuleSyntaxError(f"expected {expected} (got {shown!r})", self.tok.column)

    def deeper(self) -> None:
        """Enter one more level of ``not`` or parentheses (the current token opens it)."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise RuleSyntaxError(
                f"'not' and parentheses may nest at most {MAX_NESTING} levels deep "
                f"(got level {self.depth})",
                self.tok.column,
            )

    def keyword(self, word: str) -> None:
        if self.tok.keyword != word:
            raise self.fail(f"'{word}'")
        self.i += 1

    def name(self, what: str) -> str:
        if self.tok.kind != "word" or self.tok.keyword:
            raise self.fail(what)
        self.i += 1
        return self.toks[self.i - 1].text

    def rule(self) -> ParsedRule:
        self.keyword("if")
        cond = self.or_expr()
        self.keyword("then")
        out_var = self.name("the output variable's name")
        self.keyword("is")
        out_term = self.name("an output term")
        if self.tok.kind != "end":
            raise self.fail("end of rule")
        return ParsedRule(cond, out_var, out_term)

    def or_expr(self) -> Condition:
        items = [self.and_expr()]
        while self.tok.keyword == "or":
            self.i += 1
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_expr(self) -> Condition:
        items = [self.unary()]
        while self.tok.keyword == "and":
            self.i += 1
            items.append(self.unary())
        return items[0] if len(items) == 1 else And(tuple(items))

    def unary(self) -> Condition:
        if self.tok.keyword == "not":
            self.deeper()
            self.i += 1
            negated = Not(self.unary())
            self.depth -= 1
            return negated
        if self.tok.text == "(":
            self.deeper()
            self.i += 1
            inner = self.or_expr()
            if self.tok.text != ")":
                raise self.fail("')'")
            self.i += 1
            self.depth -= 1
            return inner
        var = self.name("a condition 'variable is term'")
        self.keyword("is")
        negate = self.tok.keyword == "not"
        if negate:
            self.i += 1
        cond: Condition = Is(var, self.name("a term name"))
        return Not(cond) if negate else cond


def parse_rule(text: str) -> ParsedRule:
    """Parse one rule; RuleSyntaxError names the column and what was expected. A rule
    within MAX_NESTING that still runs out of stack (read from a deep call, or with every
    call wrapped, as mutation testing wraps them) is refused as too deep, not raised."""
    parser = _Parser(text)
    try:
        return parser.rule()
    except RecursionError:
        raise RuleSyntaxError("nested too deeply to read (ran out of stack)",
                              parser.tok.column) from None
