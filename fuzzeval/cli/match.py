"""``fuzzeval match GAME``: a reproducible match into the history database, with a summary."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from fuzzeval.cli.common import (
    GAME_HELP,
    GAMES_MAX,
    SEED_MAX,
    DaskOpt,
    ResumeOpt,
    WorkersOpt,
    console,
    db_option,
    err_console,
    json_option,
    no_o,
    print_json,
    progress_bar,
    say_files,
    stopped,
    stored_run,
    usage_error,
    user_errors,
)
from fuzzeval.cli.outputs import Output, check_outputs

if TYPE_CHECKING:  # the library is imported when the command runs, not at start-up
    from fuzzeval.play.game import Game
    from fuzzeval.play.match import MatchSpec, MatchSummary
    from fuzzeval.play.rows import GameRows
    from fuzzeval.play.spec import PlayerSpec


def match(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    player: Annotated[str, typer.Option(
        "--player", "-p", help="Seat 0, the player under test: NAME or NAME:key=value,... "
                               "(the game's fuzzy player on its default rule base).")
    ] = "fuzzy",
    opponent: Annotated[str | None, typer.Option(
        "--opponent", help="Every other seat: NAME or NAME:key=value,...; default: the "
                           "game's reference opponent (cribbage: exhaustive, backgammon: "
                           "pubeval).")]
    = None,
    seats: Annotated[str | None, typer.Option(
        "--seats", help="Every seat's player, seat 0 first, separated by commas (e.g. "
                        "fuzzy,heuristic,random,heuristic); instead of -p and --opponent.")]
    = None,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="Play each deal once with every seat moving first (games in "
                            "blocks of one per seat), so card luck cancels.")] = False,
    opponent_o: Annotated[str | None, typer.Option(
        "-o", hidden=True, help="Not an option here: refused, saying so.")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=GAMES_MAX,
                                       help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX,
        help="Match seed; game i (from 0, as stored) uses SeedSequence(seed).spawn(n)\\[i].")]
    = 1,
    workers: WorkersOpt = 2,
    dask: DaskOpt = None,
    db: Annotated[Path | None, db_option("runs/GAME.sqlite")] = None,
    resume: ResumeOpt = False,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="Game option key=value, e.g. peg_counts=false.")] = None,
    as_json: Annotated[bool, json_option("the summary")] = False,
) -> None:
    """Play a reproducible match into the history database.

    Seat 0 is the player under test; seat i % SEATS moves (deals) first in game i. Every
    game is committed as it ends; after a crash or Ctrl-C, run the same command again: it
    plays only the games not stored.
    """
    from fuzzeval.play.estimate import Stopwatch
    from fuzzeval.play.executors import executor_for
    from fuzzeval.play.match import MatchSpec, check_players, fingerprint
    from fuzzeval.play.match_runs import MATCHES, games_saved, kept, match_into
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.spec import PlayerSpec, parse_options

    no_o("match", opponent_o)
    with user_errors():
        game = load_game(game_name)
        lineup = _lineup(seats, player, opponent)
        _check_default_player(game, lineup, player)
        spec = MatchSpec(game.name, lineup[0] if lineup else PlayerSpec.parse(player),
                         lineup[1] if lineup else PlayerSpec.parse(
                             opponent or game.default_opponent), games, seed,
                         parse_options(option or [], game.name), lineup, duplicate)
        check_players(game, spec)  # a bad name or option fails before any file is made
        path = db or MATCHES.default_path(game.name)
        check_outputs([Output("--db", path, "database")])
        found = stored_run(path, MATCHES, spec, fingerprint(spec, game), resume,
                           lambda h, i: _Found(i, kept(h, i, spec)), lambda f: f.done, games)
        # the executor first: an unreachable cluster fails before a database is made
        with executor_for(workers, dask) as executor:
            progress = progress_bar(disable=as_json)
            already = 0 if found is None else found.done
            task = progress.add_task(spec.describe(), total=games,
                                     completed=already)
            watch = Stopwatch(0 if as_json else games - already, _say)  # as the bar

            def ended(_record: GameRows) -> None:
                progress.advance(task)
                watch.tick()
            with stopped(path, lambda: f"{games_saved(path, spec)} of {games} games",
                         "run the same command with --resume to finish the match"), progress:
                played = match_into(path, game, spec, executor, resume, ended,
                                    partial(_say_changed, path))
        stored, before, summary = played.match, played.before, played.summary
        names = tuple(map(str, spec.lineup(game.seats)))
        if as_json:
            print_json({"match_id": stored.id, "db": str(path), "player": str(spec.player),
                        "opponent": str(spec.opponent), "seats": list(names),
                        "duplicate": duplicate, "seed": seed, "resumed_games": before,
                        **summary.to_dict()})
        else:
            _print_summary(summary, spec, game.unit_name or "game", path, before, names)


def _lineup(seats: str | None, player: str, opponent: str | None) -> tuple[PlayerSpec, ...]:
    """--seats as player specs (empty without it); it replaces -p and --opponent."""
    from fuzzeval.play.spec import PlayerSpec

    if seats is None:
        return ()
    if player != "fuzzy" or opponent is not None:
        raise usage_error("--seats names every seat's player: give it without -p and "
                          "--opponent")
    names: list[str] = []
    for token in seats.split(","):
        # a player's own options are comma-separated too: key=value after NAME:... is its
        if names and "=" in token and ":" not in token and ":" in names[-1]:
            names[-1] += "," + token
        else:
            names.append(token.strip())
    if len(names) < 2 or not all(names):
        raise usage_error(f"--seats {seats!r}: name every seat's player, separated by "
                          "commas (e.g. fuzzy,heuristic,heuristic,heuristic)")
    return tuple(PlayerSpec.parse(n) for n in names)


def _check_default_player(game: Game, lineup: tuple[PlayerSpec, ...], player: str) -> None:
    """A game with no ``fuzzy`` player (``-p``'s default) names the players it has, in
    one line, rather than failing on a name the user never typed."""
    from fuzzeval.play.registry import all_player_names

    names = all_player_names(game)
    if not lineup and player == "fuzzy" and player not in names:
        raise usage_error(f"{game.name} has no fuzzy player (-p's default): name one with "
                          f"-p (players: {', '.join(names)})")


def _say(line: str) -> None:
    err_console.print(line, markup=False, highlight=False)


@dataclass(frozen=True)
class _Found:
    """The stored match this run goes on with, and how many of its games it keeps."""

    id: int
    done: int


def _say_changed(path: Path, match_id: int) -> None:
    """No match to go on with, but one of these settings stored: its players read other
    files (a rule base, a table), so a new match starts; say so."""
    err_console.print(f"{path}: a file a player reads (a rule base or a table) has changed "
                      f"since match {match_id} was stored with these settings: its games are "
                      "another player's, so a new match starts", markup=False, highlight=False)


def _signed(x: float) -> str:
    """+1.5, -1.5, and +0.0 for anything that rounds to zero (never -0.0)."""
    return f"{round(x, 1) + 0.0:+.1f}"


def _print_summary(s: MatchSummary, spec: MatchSpec, unit: str, path: Path, before: int,
                   seats: tuple[str, ...]) -> None:
    """One column per seat (seat 0 is the player under test): what each was paid per game,
    seat 0's with its 95 % interval, then wins and points by source."""
    lo, hi = s.ci95
    # escaped: a title and a column read rich markup, and a player's name is as typed
    head = Table(title=escape(f"{spec.game}: {spec.describe()}, {s.games} games"
                              f"{' (duplicate)' if spec.duplicate else ''}, seed {spec.seed}"),
                 title_justify="left")
    head.add_column("")
    for k, who in enumerate(seats):
        head.add_column(escape(who if len(seats) == 2 else f"{k}: {who}"), justify="right",
                        overflow="fold")  # a long player's name on two lines, not cut
    rest = [""] * (len(seats) - 1)
    head.add_row(f"{s.unit} (95% interval)", f"{s.mean:.3f} ({lo:.3f} to {hi:.3f})", *rest)
    if len(seats) > 2:
        head.add_row("  each seat", *(f"{side.mean:.3f}" for side in s.sides))
    if s.win_rate is not None:
        head.add_row("wins", *(str(side.wins) for side in s.sides))
        wlo, whi = s.interval
        head.add_row("win rate (95% interval)", f"{s.win_rate:.1%} ({wlo:.1%}–{whi:.1%})",
                     *([f"{1 - s.win_rate:.1%} ({1 - whi:.1%}–{1 - wlo:.1%})"]
                       if len(seats) == 2 else rest))
        kinds = list(dict.fromkeys(k for side in s.sides for k in side.results))
        for kind in kinds:
            head.add_row(f"  won by {kind}",
                         *(str(side.results.get(kind, 0)) for side in s.sides))
        head.add_row("game points", *(str(side.game_points) for side in s.sides))
    if s.mean_margin is not None and s.win_rate is not None:  # final scores of games won
        head.add_row("mean final margin", _signed(s.mean_margin), _signed(-s.mean_margin))
    for name in s.sides[0].per_unit:
        head.add_row(f"{name} per {unit}", *(f"{side.per_unit[name]:.2f}" for side in s.sides))
    console.print(head)
    resumed = f" ({before} games stored before this run)" if before else ""
    say_files(f"{s.units} {unit}s; history in {path}{resumed}")
    if s.games > spec.games:
        console.print(f"(the stored match has {s.games} games, more than the {spec.games} "
                      "asked for: all are summarised)", highlight=False)
