"""Checking the options users give players and games (``NAME:key=value,...``, ``--option``).

Values arrive as the CLI parses them (``fuzzeval.play.spec.parse_value``: true/false, yes/no
and on/off as booleans, numbers as int or float, anything else a string) or as Python
values. Every check names the option, what was given and what is valid, in one line.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

#: the words a boolean option accepts, with the values the CLI has already turned them into
BOOL_WORDS: dict[str, bool] = {"true": True, "yes": True, "on": True, "1": True,
                               "false": False, "no": False, "off": False, "0": False}
BOOL_HELP = "true or false (also yes/no, on/off, 1/0)"


def check_keys(refusal: str, options: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse keys not in ``known``: ``refusal`` (e.g. "player 'random' does not take
    options"), the unknown keys, and the known ones."""
    allowed = sorted(known)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        valid = ", ".join(allowed) if allowed else "none"
        raise ValueError(f"{refusal} {unknown} (options: {valid})")


def as_bool(what: str, value: Any) -> bool:
    """A boolean option: ``BOOL_HELP``; anything else (a typo like 'flase') is refused."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in BOOL_WORDS:
        return BOOL_WORDS[value.strip().lower()]
    raise ValueError(f"{what} must be {BOOL_HELP} (got {shown(value)})")


def as_choice(what: str, value: Any, allowed: Iterable[str]) -> str:
    """One of ``allowed`` (exactly, as written)."""
    choices = tuple(allowed)
    text = str(value).strip() if isinstance(value, str) else None
    if text not in choices:
        raise ValueError(f"{what} must be {_one_of(choices)} (got {shown(value)})")
    assert text is not None
    return text


def as_text(what: str, value: Any, meaning: str) -> str:
    """A non-empty string option (a name or a path), ``meaning`` saying which."""
    if isinstance(value, bool) or not str(value).strip():
        raise ValueError(f"{what} must be {meaning} (got {shown(value)})")
    return str(value).strip()


def as_int(what: str, value: Any, minimum: int, maximum: int | None = None) -> int:
    """A whole number >= ``minimum`` and, if given, <= ``maximum`` (an integral float like
    5.0 is refused too)."""
    number: int | None = None
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        number = int(value)
    elif isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            number = None
    if maximum is not None and (number is None or not minimum <= number <= maximum):
        raise ValueError(f"{what} must be a whole number from {minimum:,} to {maximum:,} "
                         f"(got {shown(value)})")
    if number is None or number < minimum:
        raise ValueError(f"{what} must be a whole number >= {minimum} (got {shown(value)})")
    return number


def _number(value: Any) -> float | None:
    """A number as an option gives it (a number or its text), or None."""
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def as_fraction(what: str, value: Any) -> float:
    """A number from 0 to 1."""
    number = _number(value)
    if number is None or not 0.0 <= number <= 1.0:  # NaN fails both comparisons
        raise ValueError(f"{what} must be a number from 0 to 1 (got {shown(value)})")
    return number


def as_positive(what: str, value: Any) -> float:
    """A finite number above 0 (``inf`` and ``nan`` are numbers to Python, not to an
    option)."""
    number = _number(value)
    if number is None or not 0.0 < number < math.inf:  # NaN fails both comparisons
        raise ValueError(f"{what} must be a finite number above 0 (got {shown(value)})")
    return number


def _one_of(choices: tuple[str, ...]) -> str:
    if len(choices) == 1:
        return repr(choices[0])
    return ", ".join(repr(c) for c in choices[:-1]) + f" or {choices[-1]!r}"


def shown(value: Any) -> str:
    """A value as the user wrote it: strings quoted, booleans as true/false."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value)).lower()
    return repr(value) if isinstance(value, str) else str(value)
