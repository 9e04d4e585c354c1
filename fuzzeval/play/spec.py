"""How a player or a game option is written on a command line and stored in a history:
``name`` or ``name:key=value,...``, and ``key=value``. A module of its own, light to import:
advice for one hand parses a player without loading the match runner."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fuzzeval.errors import UsageError

OptionValue = str | int | float | bool
Options = tuple[tuple[str, OptionValue], ...]
#: seeds are stored as SQLite integers (64-bit signed); any non-negative one up to this works
SEED_MAX = 2**63 - 1
#: the most games a run plays: at about 4 KB a stored game, 400 GB of history, and years
#: of play on one machine; a larger number is a typo, not a plan
GAMES_MAX = 100_000_000
#: the most deals a measure computes exactly, or a run plays apart from its games: their
#: exact values take about 400 bytes a deal (a million: 0.4 GB; a trillion asked for 378 TiB)
DEALS_MAX = 1_000_000


def check_seed(seed: int) -> None:
    """A run's seed, refused as the command line's ``--seed`` refuses it (the same words),
    so that a library caller is refused before numpy fails on it later."""
    if not 0 <= seed <= SEED_MAX:
        raise UsageError(f"Invalid value for '--seed': {seed} is not in the range "
                         f"0<=x<={SEED_MAX}.")


def check_held_out(deals: int) -> None:
    """The held-out deals a tuning or a calibration measures: 0 (none) to ``DEALS_MAX``."""
    if deals < 0:
        raise UsageError(f"--held-out-deals must be at least 0 (got {deals})")
    if deals > DEALS_MAX:
        raise UsageError(f"--held-out-deals must be at most {DEALS_MAX:,} (got {deals:,})")


def shown(value: object) -> str:
    """A value as a refusal shows it: its type and repr (``str '10'``, ``float 1.5``)."""
    return f"{type(value).__name__} {value!r}"


def check_int(owner: str, name: str, value: object, low: int, high: int | None = None) -> None:
    """A library caller's whole-number argument, refused as the command line refuses it:
    TypeError for another type (a bool, '10', 1.5), UsageError outside [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{owner} {name} must be an int, not {shown(value)}")
    if value < low or (high is not None and value > high):
        valid = f">= {low}" if high is None else f"from {low} to {high}"
        raise UsageError(f"{owner} {name} must be a whole number {valid} (got {value})")


def check_options(owner: str, options: object) -> None:
    """Options as ``parse_options`` makes them: a tuple of (key, value) pairs, each key a
    non-empty str given once (a second would silently win), each value a str, int, float
    or bool. TypeError for another shape, UsageError for a blank or repeated key."""
    if not isinstance(options, tuple):
        raise TypeError(f"{owner} options must be a tuple of (key, value) pairs, not "
                        f"{shown(options)}")
    seen: set[str] = set()
    for i, pair in enumerate(options):
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                and isinstance(pair[1], str | int | float)):
            raise TypeError(f"{owner} options[{i}] must be a (str, str | int | float | bool) "
                            f"pair, not {shown(pair)}")
        key = pair[0]
        if not key.strip():
            raise UsageError(f"{owner} options[{i}]: an option's key must not be blank "
                             f"(got {key!r})")
        if key in seen:
            raise UsageError(f"{owner} option {key!r} given twice; give each option once")
        seen.add(key)


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

    def __post_init__(self) -> None:
        """Refuse what would not read back as written (``str`` then ``parse``)."""
        name: object = self.name
        if not isinstance(name, str):
            raise TypeError(f"PlayerSpec name must be a str, not {shown(name)}")
        if not name or name != name.strip() or ":" in name:
            raise UsageError(f"PlayerSpec name must be a player's name, without ':' or "
                             f"spaces around it (got {name!r})")
        check_options(f"PlayerSpec {name!r}", self.options)

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        if not isinstance(text, str):
            raise TypeError(f"PlayerSpec.parse text must be a str (NAME or "
                            f"NAME:key=value,...), not {shown(text)}")
        name, _, rest = text.partition(":")
        if not name.strip():
            raise UsageError(f"player {text!r}: a player is written name or name:key=value,...")
        items = [s for s in rest.split(",") if s.strip()] if rest else []
        return cls(name.strip(), parse_options(items, f"player {name.strip()!r}"))

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={show_value(v)}" for k, v in self.options)


def check_player(what: str, value: object) -> None:
    """A TypeError naming ``what`` unless ``value`` is a PlayerSpec (a name passed as it
    is, 'fuzzy', would otherwise fail far from here)."""
    if not isinstance(value, PlayerSpec):
        raise TypeError(f"{what} must be a PlayerSpec (PlayerSpec.parse('NAME:key=value') "
                        f"reads one), not {shown(value)}")


def show_value(value: OptionValue) -> str:
    """An option's value as it is typed (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
