"""Hand logs in the ACPC format, the field's standard for hand histories: one line a hand,

    STATE:<hand>:<betting>:<cards>:<chips>:<names>

e.g. ``STATE:3:rc/crc/c/rc:AsKd|2c2h/3c4c5c/6d/7h:-50|50:alice|bob``, where the betting is
written round by round (``/`` between rounds; ``f``, ``c``, ``r``), the cards are each
position's hole cards (``|`` between them) and then the board by round, as far as it was
dealt; the chips are what each position won and the names who sat there, position 0 (the
big blind) first. The ACPC dealer numbers a match's hands 0, 1, 2, ... and ends its log
with ``SCORE:<chips>:<names>``, the totals.

``format_line`` writes a hand; ``read_log`` reads a log (UTF-8 text), checks every action
and the chips against the rules, that the hands run 0, 1, 2, ... with none missing or
repeated and that two players play them, and adds up each player's chips; a line that does
not read is reported with its number and the next is read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fuzzeval.errors import NotationError
from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.cards import parse_card, parse_cards
from fuzzeval.games.holdem.rules import BOARD_SIZE, Betting, Deal
from fuzzeval.play.export import LineFormat

#: a player's name in a log: no field or position separators, no spaces
_UNSAFE = re.compile(r"[:|\s]+")
#: the letter of each action word of the game's candidates
LETTERS = {"fold": "f", "check": "c", "call": "c", "bet": "r", "raise": "r"}


@dataclass(frozen=True)
class Hand:
    """One logged hand: its number, betting, cards (the board as far as shown), the chips
    each position won and the players' names, by position."""

    number: int
    betting: Betting
    deal: Deal
    chips: tuple[int, int]
    names: tuple[str, str]


def log_name(name: str) -> str:
    """A player's name as a log may hold it (``fuzzy:rulebase=x`` -> ``fuzzy_rulebase=x``)."""
    return _UNSAFE.sub("_", name.strip()) or "_"


def format_line(number: int, deal: Deal, betting: Betting, names: tuple[str, str]) -> str:
    """The ACPC line of a finished hand (the board as far as the betting went)."""
    won = rules.chips(deal, betting)
    shown = Deal(deal.holes, deal.board_at(betting.round))
    return (f"STATE:{number}:{betting}:{shown}:{won[0]}|{won[1]}:"
            f"{log_name(names[0])}|{log_name(names[1])}")


def record_line(record: Mapping[str, Any], number: int) -> str:
    """The ACPC line of a hand exported by ``fuzzeval history export`` (its events) as hand
    ``number`` of the log (the exporter numbers a log's hands on through its matches); two
    seats with one name get ``-seat0``/``-seat1``."""
    events = record.get("events")
    if not events:
        raise ValueError(f"game {record.get('index')} has no events to log")
    holes: dict[int, tuple[int, int]] = {}
    seat_position: dict[int, int] = {}
    board: list[int] = []
    b = rules.START
    for e in events:
        if e.get("chance") == "deal":
            cards = tuple(parse_card(c) for c in e["cards"])
            holes[int(e["position"])] = (cards[0], cards[1])
            seat_position[int(e["seat"])] = int(e["position"])
        elif "chance" in e:
            board += [parse_card(c) for c in e["cards"]]
        else:
            b = rules.act(b, LETTERS[e["choice"]])
    seats = [str(s) for s in record["seats"]]
    if seats[0] == seats[1]:
        seats = [f"{s}-seat{k}" for k, s in enumerate(seats)]
    by_position = {p: s for s, p in seat_position.items()}
    deal = Deal((holes[0], holes[1]), tuple(board))
    line = format_line(number, deal, b,
                       (seats[by_position[0]], seats[by_position[1]]))
    won = rules.chips(deal, b)
    stored = record.get("scores")
    if stored is not None and [won[seat_position[s]] for s in (0, 1)] != list(stored):
        raise ValueError(f"game {record['index']} replays to chips {won}, stored {stored}")
    return line


#: ``fuzzeval history export --format acpc``: a hand a line; ``#`` lines are comments, as in
#: the ACPC dealer's logs
LOG_FORMAT = LineFormat(record_line, "# ")


def _chips(text: str) -> tuple[float, float]:
    parts = text.split("|")
    if len(parts) != 2:
        raise NotationError(text, "the chips are two numbers, position 0's first, e.g. "
                                  "-20|20")
    values = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            raise NotationError(part, "chips are a number, e.g. -20") from None
        if not math.isfinite(value):
            raise NotationError(part, "chips are a finite number")
        values.append(value)
    return values[0], values[1]


def _names(text: str) -> tuple[str, str]:
    names = text.split("|")
    if len(names) != 2 or not all(n.strip() for n in names):
        raise NotationError(text, "the names are two, position 0's first, e.g. alice|bob")
    return names[0].strip(), names[1].strip()


def _deal(text: str, betting: Betting) -> Deal:
    """The cards field; the board must show at least the rounds the betting reached."""
    hole_text, *rounds = text.split("/")
    holes = hole_text.split("|")
    if len(holes) != 2:
        raise NotationError(hole_text, "the hole cards are two pairs, position 0's first, "
                                       "e.g. AsKd|2c2h")
    if len(rounds) > 3:
        raise NotationError(text, "a board has three rounds of cards (flop/turn/river)")
    taken: list[int] = []
    pairs = []
    for hole in holes:
        pair = parse_cards(hole, 2, taken)
        taken += pair
        pairs.append((pair[0], pair[1]))
    board: list[int] = []
    for r, part in enumerate(rounds, 1):
        board += parse_cards(part, BOARD_SIZE[r] - BOARD_SIZE[r - 1], [*taken, *board])
    reached = betting.round if betting.folded is not None else rules.ROUNDS - 1
    if len(rounds) < reached:
        raise NotationError(text, f"the betting reached the {rules.ROUND_NAMES[reached]}, "
                                  f"but the board shows {len(board)} cards")
    return Deal((pairs[0], pairs[1]), tuple(board))


def _number(text: str) -> int:
    """The hand number field of a ``STATE`` line."""
    if not (text.isascii() and text.isdigit()):
        raise NotationError(text, "a hand number is a whole number >= 0")
    return int(text)


def _fields(line: str) -> list[str]:
    """The six fields of a ``STATE`` line."""
    fields = line.strip().split(":")
    if fields[0] != "STATE" or len(fields) != 6:
        raise NotationError(line.strip()[:40], "not an ACPC log line "
                                               "(STATE:hand:betting:cards:chips:names)")
    return fields


def parse_line(line: str) -> Hand:
    """One ``STATE`` line, checked: every action legal, the hand finished, the cards
    distinct and the chips those the rules give. NotationError names the bad field."""
    _, number_text, betting_text, cards_text, chips_text, names_text = _fields(line)
    number = _number(number_text)
    betting = rules.parse_betting(betting_text)
    if not betting.over:
        raise NotationError(betting_text, "the hand is not finished: "
                                          f"{'position ' + str(betting.to_move)} to act")
    deal = _deal(cards_text, betting)
    chips = _chips(chips_text)
    won = rules.chips(deal, betting)
    if chips != (float(won[0]), float(won[1])):
        raise NotationError(chips_text, f"the rules give {won[0]}|{won[1]}")
    return Hand(number, betting, deal, won, _names(names_text))


@dataclass
class Totals:
    """What a log adds up to: each player's hands and chips, and the bad lines."""

    hands: dict[str, int] = field(default_factory=dict)
    chips: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    count: int = 0  # hands read

    def add(self, hand: Hand) -> None:
        """Count a hand in; a NotationError if it brings a third player (heads-up)."""
        players = {*self.hands, *hand.names}
        if len(players) > 2:
            raise NotationError("|".join(hand.names),
                                "a third player: a heads-up log has two, and the hands "
                                f"above name {' and '.join(self.hands)}")
        self.count += 1
        for name, won in zip(hand.names, hand.chips, strict=True):
            self.hands[name] = self.hands.get(name, 0) + 1
            self.chips[name] = self.chips.get(name, 0) + won


def _score(line: str, totals: Totals) -> None:
    """A ``SCORE`` line: it must agree with the hands read so far."""
    fields = line.strip().split(":")
    if len(fields) != 3:
        raise NotationError(line.strip()[:40], "a SCORE line is SCORE:chips:names")
    chips = _chips(fields[1])
    names = _names(fields[2])
    for name, value in zip(names, chips, strict=True):
        if float(totals.chips.get(name, 0)) != value:
            raise NotationError(fields[1], f"the hands above give {name} "
                                           f"{totals.chips.get(name, 0)}")


@dataclass
class _Order:
    """The hand numbers read so far, each with its line: the dealer numbers a match's hands
    0, 1, 2, ..., so a gap is a hand dropped and a repeat a hand written twice."""

    lines: dict[int, int] = field(default_factory=dict)
    last: int = -1

    def check(self, hand: int, line: int) -> None:
        """Note hand ``hand`` on ``line``; a NotationError if it is not the next one."""
        if hand in self.lines:
            raise NotationError(str(hand), f"hand {hand} again: line {self.lines[hand]} is "
                                           f"hand {hand} too")
        self.lines[hand] = line
        expected, self.last = self.last + 1, hand
        if hand > expected:
            missing = (f"hand {expected} is" if hand == expected + 1 else
                       f"hands {expected} to {hand - 1} are")
            raise NotationError(str(hand), f"{missing} missing: an ACPC log numbers its "
                                           "hands 0, 1, 2, ... with none left out")
        if hand < expected:
            raise NotationError(str(hand), f"hand {hand} after hand {expected - 1}: an ACPC "
                                           "log numbers its hands 0, 1, 2, ... in order")


def _text(line: str | bytes) -> str:
    """A line as text; a UnicodeDecodeError names the first byte that is not UTF-8."""
    return line if isinstance(line, str) else line.decode("utf-8")


def read_log(lines: Iterable[str | bytes], path: str) -> Totals:
    """Every hand of a log, checked; a bad line is one ``PATH:LINE: ...`` error in
    ``errors`` and reading goes on. Blank lines and ``#`` comments are skipped. Lines
    given as bytes must be UTF-8: a byte that is not is the line's error, never replaced
    (a name with it would count as another player)."""
    totals = Totals()
    order = _Order()
    for number, line in enumerate(lines, 1):
        try:
            text = _text(line).strip()
            if not text or text.startswith("#"):
                continue
            if text.startswith("SCORE:"):
                _score(text, totals)
            else:
                order.check(_number(_fields(text)[1]), number)  # a bad hand keeps its place
                totals.add(parse_line(text))
        except NotationError as error:
            totals.errors.append(f"{path}:{number}: {error}")
        except UnicodeDecodeError as error:
            totals.errors.append(f"{path}:{number}: byte {error.start + 1} of the line, "
                                 f"0x{error.object[error.start]:02x}, is not UTF-8: an "
                                 "ACPC log is UTF-8 text")
    return totals
