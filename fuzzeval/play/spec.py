"""How a player or a game option is written on a command line and stored in a history:
``name`` or ``name:key=value,...``, and ``key=value``. A module of its own, light to import:
advice for one hand parses a player without loading the match runner."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fuzzeval.errors import UsageError

OptionValue = str | int | float | bool
Options = tuple[tuple[str, OptionValue], ...]


def parse_value(text: str) -> OptionValue:
    """'true'/'false', integers and decimals as such; anything else stays a string."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_options(items: Iterable[str], what: str) -> Options:
    """``key=value`` items, sorted by key; a clear error names the bad item, or the key
    given twice (the last would silently win)."""
    out: dict[str, OptionValue] = {}
    given: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"{what} option {item!r}: write it as key=value")
        if key in given:
            raise UsageError(f"{what} option {key!r} given twice ({given[key]!r} and "
                             f"{item!r}); give each option once")
        given[key] = item
        out[key] = parse_value(value)
    return tuple(sorted(out.items()))


@dataclass(frozen=True)
class PlayerSpec:
    """A player by name and options, written ``name`` or ``name:key=value,key=value``."""

    name: str
    options: Options = ()

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        name, _, rest = text.partition(":")
        if not name.strip():
            raise UsageError(f"player {text!r}: a player is written name or name:key=value,...")
        items = [s for s in rest.split(",") if s.strip()] if rest else []
        return cls(name.strip(), parse_options(items, f"player {name.strip()!r}"))

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={show_value(v)}" for k, v in self.options)


def show_value(value: OptionValue) -> str:
    """An option's value as it is typed (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
