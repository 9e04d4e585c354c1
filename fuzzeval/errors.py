"""Every error fuzzeval raises on purpose derives from FuzzevalError, so a CLI can
print one line instead of a traceback."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal


class FuzzevalError(Exception):
    """Base of the errors that are the user's to fix (bad file, bad token)."""


class UsageError(FuzzevalError):
    """The command was asked for something that does not exist or cannot be (an unknown
    game, player or option, a bad option value): exit status 2, like a bad flag."""


class MissingExtra(UsageError):
    """A player or option needs an optional extra that is not installed: a usage error
    (exit 2), told in one line with the ``pip install`` that adds it, before any work."""


class GameDidNotEnd(FuzzevalError):
    """A game ran past its rules' turn limit (players that never finish it, say a learner's
    early self-play): one line naming the game, not a traceback."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (what ``timeout``, a CI cancel or a closed terminal send), raised in the main
    thread so that it stops a run the way Ctrl-C does: finished work saved, exit 143."""


@dataclass(frozen=True)
class Problem:
    """One finding about a rule-base file: where it is and what must hold."""

    path: str
    line: int | None
    key: str
    message: str
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        tag = "warning: " if self.severity == "warning" else ""
        return f"{where}: {tag}{self.key}: {self.message}"


class RuleBaseError(FuzzevalError):
    """A rule base that cannot be used; carries every problem found, not only the first."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        errors = [p for p in self.problems if p.severity == "error"]
        super().__init__("\n".join(str(p) for p in errors) or "invalid rule base")


class RuleBaseWarning(UserWarning):
    """A rule base that works but probably not as its author meant (e.g. an unused term)."""


class NotationError(FuzzevalError):
    """A card, move or position token that cannot be read; names the token."""

    def __init__(self, token: str, why: str) -> None:
        self.token = token
        self.why = why
        super().__init__(f"{token!r}: {why}")


class NotFound(UsageError, FileNotFoundError):
    """A file, database or shipped name given on the command line names nothing: a usage
    error (exit 2, fix the command), still a FileNotFoundError to code that catches OSError."""


class GameNotFound(UsageError):
    """No installed game plug-in has this name."""


def expect(value: object, kinds: type | tuple[type, ...], where: str, hint: str = "",
           wanted: str = "") -> None:
    """A value of a wrong type given to the Python API is a TypeError naming the argument
    (``where``: ``compile_rulebase(rb)``) and what it takes (``wanted``, else the types'
    names), not an AttributeError from deep inside."""
    if isinstance(value, kinds):
        return
    wanted = wanted or " or ".join(
        k.__name__ for k in (kinds if isinstance(kinds, tuple) else (kinds,)))
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    raise TypeError(f"{where}: expected {wanted}, got {type(value).__name__} {shown}"
                    + (f"; {hint}" if hint else ""))


def one_line(text: str, limit: int | None = None) -> str:
    """``text`` on one line (line breaks and other control characters escaped), shortened:
    what a Problem's key and message hold."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + "..."
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
