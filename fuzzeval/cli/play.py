"""``fuzzeval play GAME``: a person against any player, at the terminal, into the history.

The person is a player like any other (seat 0, stored as ``human``): it shows what the
game's play interface says the seat sees, reads a choice among the candidates, on ``?``
prints what the advisors (the game's, those named by ``--advisor``, or ``? NAME``'s
player) would do and why, and on ``help`` what can be typed. Games are played by the match
runner with the match's seeding and stored as a match, so ``fuzzeval history show``
replays them like any other.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from fuzzeval.cli.common import (
    GAME_HELP,
    GAMES_MAX,
    SEED_MAX,
    console,
    db_option,
    fold,
    named_player,
    player_option,
    usage_error,
    user_errors,
)
from fuzzeval.cli.outputs import Output, check_outputs
from fuzzeval.errors import FuzzevalError

if TYPE_CHECKING:
    import numpy as np

    from fuzzeval.play.game import Advice, Candidates, Game, Outcome, Player, PlayInterface
    from fuzzeval.play.match import MatchSpec
    from fuzzeval.play.spec import Options
    from fuzzeval.play.store import History, StoredMatch

HUMAN = "human"  # the person's name in the history
YOU = "you"  # and at the terminal
QUIT = ("quit", "exit", "q")


class Quit(Exception):
    """The person typed quit."""


def say(text: str = "") -> None:
    """A line at the terminal, in 80 columns (``fold``)."""
    for line in fold(text):
        typer.echo(line)


def ask(prompt: str) -> str:
    """A line from the person (EOFError at the end of input). Piped input is echoed after
    the prompt, so that a scripted session reads as the dialogue it was."""
    text = input(prompt)
    if not sys.stdin.isatty():
        say(text)
    return text


@dataclass
class HumanPlayer:
    """A Player whose choices a person types, shown and read through the game's
    ``PlayInterface``. One option is taken without asking. ``advisors`` are the players
    ``?`` asks (``? NAME`` asks another), each made once."""

    game: Game
    interface: PlayInterface
    names: tuple[str, ...]
    advisors: tuple[str, ...]
    seat: int = 0
    made: dict[str, Player] = field(default_factory=dict)

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        if len(candidates) == 1:
            say(f"(your only choice: {candidates.labels[0]})")
            return 0
        say()
        for line in self.interface.situation(candidates, self.names, self.seat):
            say(line)
        prompt = f"{self.interface.prompt(candidates)}: "
        while True:
            text = ask(prompt).strip()
            if not text:
                continue
            if text.lower() == HELP:
                say_folded(self.help(candidates))
                continue
            if text.startswith("?"):
                named = text[1:].strip()
                try:
                    show_advice([self.advice(candidates, name)
                                 for name in ((named,) if named else self.advisors)])
                except (FuzzevalError, ValueError, TypeError) as exc:
                    say(f"error: ? {named}: {exc}; try again (help for what to type)")
                continue
            if text.lower() in QUIT:
                raise Quit
            try:
                return self.interface.parse(text, candidates)
            except (FuzzevalError, ValueError) as exc:
                say(f"error: {exc}; try again (? for advice, help for what to type, quit to "
                    "stop)")

    def advice(self, candidates: Candidates, name: str) -> Advice:
        """What the player written ``name`` would choose here (made the first time)."""
        if name not in self.made:
            self.made[name] = named_player(self.game, name)
        return self.interface.advise(candidates, self.made[name], name)

    def help(self, candidates: Candidates) -> str:
        """What can be typed at this prompt."""
        from fuzzeval.play.registry import all_player_names

        labels = list(candidates.labels)
        shown = ", ".join(labels[:HELP_OPTIONS]) + (
            f", ... ({len(labels)} in all)" if len(labels) > HELP_OPTIONS else "")
        return (f"type your choice: {self.interface.prompt(candidates)}; the options now: "
                f"{shown}. ? shows what {' and '.join(self.advisors)} would choose and "
                f"why; ? NAME asks another player ({', '.join(all_player_names(self.game))};"
                " NAME:key=value,... as in match); quit stops.")


HELP = "help"
HELP_OPTIONS = 15  # options listed by help


WHY_RULES = 6  # the rules shown behind a rule base's choice: those that moved its grade most
WIDTH = 80  # the advice's lines, folded with their indent and four spaces more


def say_folded(text: str) -> None:
    """``say`` a line of advice within WIDTH columns: a long one (a rule, a rule base's
    origin, the inputs) goes on under its own indent, four spaces further in."""
    for line in fold(text, 4, WIDTH):
        typer.echo(line)


def show_advice(advice: list[Advice]) -> None:
    """Each advisor's choice and its best options; for a rule base, why: the inputs, the
    rules that moved the grade most (each with its output term's value) and the grade."""
    from rich import box
    from rich.table import Table

    for a in advice:
        say_folded(f"{a.advisor} would choose {a.choice}: {a.note}")
        if a.explanation is not None:
            say_folded(f"  {a.explanation[0].rulebase.origin}")
        if a.columns:
            table = Table(box=box.SIMPLE_HEAD, padding=(0, 1))
            for col in a.columns:
                table.add_column(col, no_wrap=True)
            for row in a.rows:
                table.add_row(*row)
            console.print(table)
        if a.explanation is not None:
            evaluator, exp = a.explanation
            rb = evaluator.rulebase
            peaks = {t.name: t.triangle.peak for t in rb.output.terms}
            # the rules that moved the grade most first: how strongly each fired times how
            # far its conclusion lies from the grade (a rule at the grade moves nothing)
            fired = sorted((r for r in exp.rules if r.strength > 0),
                           key=lambda r: (-r.strength * abs(peaks[r.output_term] - exp.grade),
                                          r.index))
            words = {w for r in fired[:WHY_RULES] for w in r.text.split()}
            say_folded(f"why {a.choice}: " + ", ".join(f"{k} {v:g}" for k, v in exp.inputs.items()
                                                if k in words))
            for r in fired[:WHY_RULES]:
                say_folded(f"  {r.strength:.2f}  rule {r.index + 1}: {r.text} "
                    f"({r.output_term} = {peaks[r.output_term]:g})")
            if len(fired) > WHY_RULES:
                say(f"  ({len(fired) - WHY_RULES} more rules moved it less)")
            how = rb.defuzzifier.replace("_", " ")
            say(f"  {rb.output.name} = {exp.grade:.4g} ({how})" if exp.fired else
                f"  {rb.output.name} = {exp.grade:.4g} (no rule fired: the default)")
        say()


def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    opponent_spec: Annotated[str | None, typer.Option(
        "--opponent", help="Opponent: NAME or NAME:key=value,... as in match (default: the "
                           "game's reference opponent); it plays every other seat.")] = None,
    advisor: Annotated[list[str] | None, typer.Option(
        "--advisor", help="A player ? asks (NAME or NAME:key=value,... as in match); give "
                          "it once per player (default: the game's fuzzy player and a "
                          "reference).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=GAMES_MAX,
                                       help="Games to play.")] = 1,
    seed: Annotated[int | None, typer.Option(
        min=0, max=SEED_MAX, help="Seed of the deals or dice (default: a random one, "
                                  "printed).")] = None,
    db: Annotated[Path | None, db_option("runs/GAME_play.sqlite")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="Game option key=value, e.g. peg_counts=false.")] = None,
) -> None:
    """Play against a player at the terminal; every finished game is stored.

    Type ? at any prompt for what the advisors would do and why, ? NAME for
    another player's advice, help for what can be typed, quit to stop. You sit
    in seat 0 and move (deal) first in the first game, the next seat in the
    next. Replay a stored game with fuzzeval history show.
    """
    import secrets

    from fuzzeval.play.game import GameHooks, hook
    from fuzzeval.play.match import MatchSpec, fingerprint, make_player
    from fuzzeval.play.match_runs import MATCHES
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.spec import PlayerSpec, parse_options
    from fuzzeval.play.store import History

    with user_errors():
        game = load_game(game_name)
        make_interface = hook(game, GameHooks.play_interface)
        if make_interface is None:
            raise usage_error(f"{game.name} has no play interface: it cannot be played at "
                              "the terminal")
        interface: PlayInterface = make_interface()
        who = PlayerSpec.parse(opponent_spec or game.default_opponent)
        try:
            opponents = [make_player(game, who.name, **dict(who.options))
                         for _ in range(game.seats - 1)]
        except (ValueError, TypeError) as exc:
            raise usage_error(f"--opponent {who}: {exc}") from None
        advisors = tuple(a.strip() for a in advisor) if advisor else interface.advisors
        human = HumanPlayer(game, interface, _names(game, str(who)), advisors)
        for name in advisors:
            human.made[name] = player_option(game, name, "--advisor")
        options = parse_options(option or [], game.name)
        seed = secrets.randbelow(2**31) if seed is None else seed
        spec = MatchSpec(game.name, PlayerSpec(HUMAN), who, games, seed, options)
        _check_options(game, options)
        path = db or Path("runs") / f"{game.name}_play.sqlite"
        check_outputs([Output("--db", path, "database")])
        with History(path) as history:
            match = history.create_match(spec, game.unit_name, fingerprint(spec, game))
            with MATCHES.mark(history, match.id):
                _session(game, human, opponents, spec, history, match, path)


def _names(game: Game, opponent: str) -> tuple[str, ...]:
    """The seats' names at the terminal: you, then the opponent, with its seat at a larger
    table (as ``fuzzeval history show`` names them)."""
    if game.seats == 2:
        return (YOU, opponent)
    return (YOU, *(f"{opponent} (seat {k})" for k in range(1, game.seats)))


def _check_options(game: Game, options: Options) -> None:
    import numpy as np

    try:
        game.new_game(np.random.default_rng(0), 0, **dict(options))
    except (ValueError, TypeError) as exc:
        raise usage_error(f"{game.name} --option: {exc}") from None


def _session(game: Game, human: HumanPlayer, opponents: Sequence[Player], spec: MatchSpec,
             history: History, match: StoredMatch, path: Path) -> None:
    """The games one after another, each stored as it ends; a stop keeps those."""
    from fuzzeval.cli.common import stop_code, stop_told
    from fuzzeval.play.match import play_game
    from fuzzeval.play.replay import initial_state

    interface, names = human.interface, human.names
    paid, unpaid = 0.0, 0  # what seat 0 was paid; games paid without a winner
    game.prepare()
    seats = "" if game.seats == 2 else f" at seats 1 to {game.seats - 1}"
    say(f"{game.name}: you against {spec.opponent}{seats}, seed {spec.seed}")
    say("type ? at a prompt for advice, help for what to type, quit to stop")
    won = 0
    index = 0

    def show_move(before: Any, seat: int, choice: int, after: Any) -> None:
        for line in interface.narrate(before, choice, after, names, 0):
            say(line)

    try:
        for index in range(spec.games):
            first = index % game.seats
            say()
            say(f"game {index + 1} of {spec.games}")
            for line in interface.start(initial_state(game, spec.seed, index, first,
                                                      dict(spec.options)), names):
                say(line)
            record = play_game(game, (human, *opponents), spec.seed, index, dict(spec.options),
                               on_move=show_move)
            history.save_game(match, record)
            o = record.outcome
            won += o.winner == 0
            paid += o.payoffs[0]
            final = "final score: " + ", ".join(f"{n} {s}" for n, s in zip(names, o.scores,
                                                                           strict=True))
            if o.winner is None:  # a game paid without a winner (hold'em: chips)
                unpaid += 1
                better = "" if game.payoff.higher_is_better else "; fewer is better"
                say(f"{final}; you were paid {o.payoffs[0]:+g} ({game.payoff.unit}{better})")
                continue
            points = "1 point" if o.points == 1 else f"{o.points} points"
            say(f"{_winner(names, o)} won ({o.result}, {points}); {final}")
    except (KeyboardInterrupt, EOFError, Quit) as exc:
        if isinstance(exc, KeyboardInterrupt):
            why, code = stop_code(exc)
        else:
            why, code = ("end of input", 1) if isinstance(exc, EOFError) else ("quit", 0)
        say()
        line = (f"{why}: {index} of {spec.games} games are stored in {path} (match "
                f"{match.id}); the game in progress is not kept")
        say(line)
        stop_told(line)
        raise typer.Exit(code) from None
    say()
    result = (f"you were paid {paid / spec.games:+.3g} {game.payoff.unit} over "
              f"{spec.games}" if unpaid else f"you won {won} of {spec.games}")
    say(f"{result}; stored in {path} as match {match.id}; replay a "
        f"game with: fuzzeval history show {path} --match {match.id} --game 0")


def _winner(names: Sequence[str], o: Outcome) -> str:
    """Who won, as shown: the winning seat's name ("nobody" in a game without winners)."""
    return "nobody" if o.winner is None else names[o.winner]
