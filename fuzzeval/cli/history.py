"""``fuzzeval history show DB``: a stored game told move by move.

A game stored with its choices (history version 3 on) is played again from the match's
seed (``fuzzeval.play.replay``) and told by the game's play interface: every decision, who
made it, what they held or saw, what they chose, the points it scored and the running
scores. The replay is checked against what the history logged (each logged decision must
be one of its moves, in order, and the result must be the stored one), so a rule change
since the game was stored is reported, never told as if it had happened. A game stored
before version 3 shows its logged decisions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table

from fuzzeval.cli.common import command_group, console, fold, user_errors

if TYPE_CHECKING:
    from fuzzeval.play.game import Outcome
    from fuzzeval.play.replay import Move
    from fuzzeval.play.store import History, StoredMatch

app = command_group("Stored matches and games: show a game move by move, or export "
                    "games as JSON.")


def say(text: str) -> None:
    """A line of the story, in 80 columns (``fold``)."""
    for line in fold(text):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


@app.command()
def show(
    db: Annotated[Path, typer.Argument(help="History database (SQLite).")],
    match_id: Annotated[int | None, typer.Option(
        "--match", min=1, help="Match id (default: the latest match with a game stored).")]
    = None,
    game: Annotated[int | None, typer.Option(
        min=0, help="Game index, from 0 as stored (default: list the match's games).")]
    = None,
) -> None:
    """A stored game move by move, or without --game the games of a match."""
    from fuzzeval.errors import NotFound

    with user_errors():
        if not db.is_file():
            raise NotFound(f"{db}: no such history database")
        _show(db, match_id, game)


@app.command()
def export(
    db: Annotated[Path, typer.Argument(help="History database (SQLite).")],
    match_id: Annotated[int | None, typer.Option(
        "--match", min=1, help="Match id (default: every match).")] = None,
    fmt: Annotated[str, typer.Option(
        "--format", help="jsonl (one JSON object a game, a line each), json (one array), "
                         "or a game's own log format (holdem: acpc, a line a hand, numbered "
                         "on through the matches exported).")]
    = "jsonl",
    out: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Output file (default: standard output).")] = None,
) -> None:
    """Every stored game as JSON: seats, every chance event and decision, payoffs."""
    from fuzzeval.cli.outputs import Input, Output, check_outputs
    from fuzzeval.errors import NotFound, UsageError
    from fuzzeval.play.export import export_lines, line_formats
    from fuzzeval.play.store import History

    with user_errors():
        if fmt not in ("jsonl", "json") and fmt not in (known := line_formats()):
            raise UsageError(f"--format {fmt!r}: jsonl or json, or a game's log format "
                             f"({', '.join(known)})")
        if not db.is_file():
            raise NotFound(f"{db}: no such history database")
        if out is not None:
            check_outputs([Output("--output", out, "table")], [Input("DB", db)])
        with History(db, readonly=True) as history:
            ids = ([match_id] if match_id is not None else
                   [int(i) for i in history.matches()["id"]])
            if not ids:  # as show says it: a tuning's or an empty history's database
                raise NotFound(f"{db}: no match stored")
            lines = export_lines(history, ids, fmt)
        text = "[" + ",\n".join(lines) + "]\n" if fmt == "json" else \
            "\n".join(lines) + "\n" if lines else ""
        if out is None:
            typer.echo(text, nl=False)
        else:
            out.parent.mkdir(parents=True, exist_ok=True)  # as every output's folder
            out.write_text(text)


def _show(db: Path, match_id: int | None, game: int | None) -> None:
    from fuzzeval.play.store import History

    with History(db, readonly=True) as history:
        match = history.stored_match(match_id)
        if game is None:
            _list_games(history, match)
            return
        _show_game(history, match, game)


def _lineup(match: StoredMatch) -> tuple[str, ...]:
    """Every seat's player, seat 0 first (the game says how many seats)."""
    from fuzzeval.play.registry import load_game

    return tuple(map(str, match.spec.lineup(load_game(match.spec.game).seats)))


def _names(match: StoredMatch) -> tuple[str, ...]:
    """Each seat's name as shown: its player, with the seat where two play alike."""
    lineup = _lineup(match)
    return tuple(name if lineup.count(name) == 1 else f"{name} (seat {k})"
                 for k, name in enumerate(lineup))


def _players(match: StoredMatch) -> str:
    """``A (seat 0) against B (seat 1)``, or every seat of a larger table, each once."""
    lineup = _lineup(match)
    if len(lineup) == 2:
        return f"{lineup[0]} (seat 0) against {lineup[1]} (seat 1)"
    return ", ".join(f"{name} (seat {k})" for k, name in enumerate(lineup))


def _outcome(history: History, match: StoredMatch, index: int) -> Outcome:
    return dict(zip(sorted(history.finished(match.id)), history.outcomes(match.id),
                    strict=True))[index]


def _list_games(history: History, match: StoredMatch) -> None:
    spec = match.spec
    names = _names(match)
    say(f"match {match.id}: {spec.game}, {_players(match)}, seed {spec.seed}")
    table = Table(box=box.SIMPLE_HEAD)
    for col in ("game", "first", "winner", "score", "result"):
        table.add_column(col, justify="right" if col == "game" else "left")
    indices = sorted(history.finished(match.id))
    for index, o in zip(indices, history.outcomes(match.id), strict=True):
        first, _ = history.game_choices(match.id, index)
        table.add_row(str(index), names[first], _winner(names, o),
                      "–".join(map(str, o.scores)), o.result)
    console.print(table)
    say(f"show one: fuzzeval history show {history.path} --match {match.id} --game N")


def _show_game(history: History, match: StoredMatch, index: int) -> None:
    from fuzzeval.play.game import GameHooks, hook
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.replay import ReplayError, initial_state, replay

    spec = match.spec
    names = _names(match)
    first, choices = history.game_choices(match.id, index)
    outcome = _outcome(history, match, index)
    logged = history.game_decisions(match.id, index)
    options = dict(spec.options)
    extra = f", options {' '.join(f'{k}={v}' for k, v in spec.options)}" if options else ""
    header = (f"match {match.id}, game {index}: {spec.game}, {_players(match)}, "
              f"seed {spec.seed}{extra}")
    game = load_game(spec.game)
    make_interface = hook(game, GameHooks.play_interface)
    if choices is None or make_interface is None:
        say(header)
        why = ("it was stored before histories kept every choice (version 3)"
               if choices is None else f"{spec.game} has no play interface")
        say(f"only the logged decisions can be shown: {why}")
        for number, (seat, unit, kind, choice, context) in enumerate(logged, 1):
            seen = ", ".join(f"{k} {v}" for k, v in context.items())
            say(f"{number:>4}. {names[seat]} ({kind}, {game.unit_name or 'unit'} "
                f"{unit + 1}; {seen}): {choice}")
        _result(names, outcome)
        return
    interface = make_interface()
    try:
        moves = list(replay(game, spec.seed, index, first, choices, options, spec.duplicate))
        _check(game, moves, logged, outcome)
    except ReplayError as exc:
        raise ReplayError(f"{history.path}: match {match.id}, game {index} does not replay "
                          f"as stored ({exc}); the rules may have changed since") from None
    say(header)
    for line in interface.start(initial_state(game, spec.seed, index, first, options,
                                              spec.duplicate),
                                names):
        say(f"      {line}")
    for move in moves:
        lines = interface.narrate(move.before, move.choice, move.after, names, None)
        for k, line in enumerate(lines):
            say(f"{move.number:>4}. {line}" if k == 0 else f"      {line}")
    _result(names, outcome)


def _check(game: Any, moves: list[Move], logged: list[tuple[int, int, str, str, Any]],
           outcome: Outcome) -> None:
    """Each logged decision is one of the moves, in order; the result is the stored one."""
    from fuzzeval.play.replay import ReplayError

    found = iter(moves)
    for number, (seat, _, kind, choice, _) in enumerate(logged, 1):
        if not any(m.seat == seat and m.kind == kind and m.label == choice for m in found):
            raise ReplayError(f"logged decision {number}, {kind} {choice!r} by seat {seat}, "
                              "is not among its moves")
    end = game.outcome(moves[-1].after)
    if (end.winner, end.scores) != (outcome.winner, outcome.scores):
        raise ReplayError(f"it ends {'–'.join(map(str, end.scores))}, stored "
                          f"{'–'.join(map(str, outcome.scores))}")


def _result(names: Sequence[str], o: Outcome) -> None:
    final = ", ".join(f"{name} {score}" for name, score in zip(names, o.scores, strict=True))
    if o.winner is None:  # a game that pays every seat, without a winner
        say(f"final score {final}")
        return
    points = "1 point" if o.points == 1 else f"{o.points} points"
    say(f"{_winner(names, o)} won ({o.result}, {points}); final score {final}")


def _winner(names: Sequence[str], o: Outcome) -> str:
    """Who won, as shown: the winning seat's name ("nobody" in a game without winners)."""
    return "nobody" if o.winner is None else names[o.winner]
