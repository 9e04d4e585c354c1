"""``fuzzeval cribbage``: ``discard`` (the discard advisor), ``peg`` (which card to lay),
``score`` (the hand counter), ``report`` (every player's discards on the same deals),
``pegging`` (two players' pegging on the same deals) and ``train-es`` (Kendall & Shaw's
evolution-strategy table).

Errors in cards give one line naming the token and exit code 2. ``discard`` and ``score``
take ``--batch FILE``: one hand per line in, one JSON object per line out (a bad line, or
one that is not UTF-8, an error object naming its line; exit 2 after all lines), so
thousands of hands cost one start: the player (a rule base loaded and compiled, a table
read) is built once per run, and the fuzzy and ES players judge the hands of a batch
together, with the same output as one by one.
"""

from __future__ import annotations

import codecs
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from fuzzeval.cli.common import (
    DEALS_MAX,
    GAMES_MAX,
    SEED_MAX,
    JsonOpt,
    WorkersOpt,
    columns_that_fit,
    command_group,
    console,
    json_line,
    picture_option,
    player_list,
    print_json,
    progress_bar,
    say_files,
    usage_error,
    user_errors,
)
from fuzzeval.cli.outputs import Output, check_outputs
from fuzzeval.errors import FuzzevalError
from fuzzeval.games.cribbage.lineup import NAMES, PLAYERS

# Each command imports what it uses when it runs: ``fuzzeval --help`` and the exhaustive
# ``discard`` of one hand start without the engine, pandas or matplotlib.
if TYPE_CHECKING:
    from fuzzeval.games.cribbage.discard import CribOwner
    from fuzzeval.games.cribbage.players import CribbagePlayer
    from fuzzeval.games.cribbage.weights import Weighting
    from fuzzeval.play.spec import PlayerSpec

app = command_group("Cribbage: counting, discard and pegging advice, the players' reports, "
                    "ES training.")

#: --crib always says whose crib it is; score's switch is --as-crib, train-es's --with-crib.
#: No default: a player asked what to throw first asks whose crib it is (docs/cli.md)
CRIB_HELP = "Whose crib: mine or theirs."
BatchOpt = Annotated[
    Path | None, typer.Option(help="One hand per line in, one JSON object per line out.")
]


Handle = Callable[[list[str]], dict[str, Any]]
#: many lines' tokens -> per line its object (or its JSON line), or the error it raised
Answer = dict[str, Any] | str | FuzzevalError | ValueError
HandleMany = Callable[[list[list[str]]], list[Answer]]
BATCH_CHUNK = 4096  # lines judged together by a HandleMany


def _batch(path: Path, handle: Handle, many: HandleMany | None = None) -> None:
    """Run ``handle`` on each non-empty line (or ``many`` on chunks of lines, the same
    output); a bad line gives an error object, exit 2."""
    failed = False
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise usage_error(f"{path}: {exc.strerror}") from None
    pending: list[tuple[int, str, list[str]]] = []

    def write(number: int, line: str, out: Answer) -> None:
        nonlocal failed
        if isinstance(out, (FuzzevalError, ValueError)):
            out = {"line": number, "input": line.strip(), "error": str(out)}
            failed = True
        sys.stdout.write((out if isinstance(out, str) else json_line(out)) + "\n")

    def flush() -> None:
        if many is not None and pending:
            results = many([tokens for _, _, tokens in pending])
            for (number, line, _), out in zip(pending, results, strict=True):
                write(number, line, out)
        pending.clear()

    for number, raw in enumerate(data.removeprefix(codecs.BOM_UTF8).splitlines(), 1):
        try:  # line by line: one line that is not UTF-8 is that line's error
            line = raw.decode()
        except UnicodeDecodeError as exc:
            flush()  # the lines before it first: the output keeps the file's order
            write(number, raw.decode(errors="backslashreplace"),
                  ValueError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column "
                             f"{exc.start + 1})"))
            continue
        tokens = line.replace(",", " ").split()
        if not tokens or tokens[0].startswith("#"):
            continue
        if many is not None:
            pending.append((number, line, tokens))
            if len(pending) >= BATCH_CHUNK:
                flush()
            continue
        try:
            out: dict[str, Any] | FuzzevalError | ValueError = handle(tokens)
        except (FuzzevalError, ValueError) as exc:
            out = exc
        write(number, line, out)
    flush()
    if failed:
        raise typer.Exit(2)


def _one_or_batch(
    cards: list[str] | None,
    batch: Path | None,
    json_out: bool,
    handle: Handle,
    many: HandleMany | None = None,
) -> dict[str, Any] | None:
    """Run ``handle`` on a batch file (``many`` on chunks of it, when given) or on one hand;
    None when the output is already written."""
    if batch is not None:
        if cards:
            raise usage_error(f"give cards or --batch FILE, not both (got {' '.join(cards)} "
                              f"and --batch {batch})")
        _batch(batch, handle, many)
        return None
    try:
        data = handle(cards or [])
    except (FuzzevalError, ValueError) as exc:
        raise usage_error(str(exc)) from None
    if json_out:
        print_json(data)
        return None
    return data


#: an advice table's columns shown at any width, and those as wide as four cards
ALWAYS_SHOWN = ("discard", "keep", "card", "grade")
WIDE = ("discard", "keep")

#: discard_table's columns: (name, float); floats are shown rounded to 6 decimals
DISCARD_COLUMNS = (("hand_mean", True), ("crib_mean", True), ("ev", True), ("hand_min", False),
                   ("hand_max", False), ("crib_min", False), ("crib_max", False),
                   ("net_min", False), ("net_max", False))


def _discard_json(tokens: list[str], crib: CribOwner, weights: Weighting) -> dict[str, Any]:
    """The rows of ``discard_table`` (best first, ties in THROWS order), built without
    pandas: a command that advises one hand should not cost the DataFrame's import."""
    import numpy as np

    from fuzzeval.games.cribbage.cards import card_str, cards_str, parse_cards
    from fuzzeval.games.cribbage.discard import KEEPS, THROWS, evaluate_discards
    from fuzzeval.games.cribbage.weights import opponent_weights

    cards = parse_cards(tokens, 6)
    stats = evaluate_discards(cards, crib, opponent_weights(weights, crib == "mine"))
    columns = {name: (np.round(getattr(stats, name), 6) if is_float
                      else getattr(stats, name)).tolist() for name, is_float in DISCARD_COLUMNS}
    ev = stats.ev.tolist()
    order = sorted(range(len(THROWS)), key=lambda i: -ev[i])  # stable: pandas' descending
    table = [{"discard": cards_str([cards[j] for j in THROWS[i]]),
              "keep": cards_str([cards[j] for j in KEEPS[i]]),
              **{name: values[i] for name, values in columns.items()}} for i in order]
    return {
        "hand": " ".join(card_str(c) for c in cards),
        "crib": crib,
        "weights": weights,
        "discard": table[0]["discard"].split(),
        "ev": round(ev[order[0]], 6),
        "table": table,
    }


@app.command()
def discard(
    crib: Annotated[str, typer.Option(help=CRIB_HELP)],
    cards: Annotated[list[str] | None, typer.Argument(help="Six cards, e.g. 5H 5S JD QC 4S 9C")]
    = None,
    player: Annotated[str, typer.Option(
        "--player", "-p",
        help="Player: exhaustive (exact EV table), random, greedy, es, fuzzy or sampling; "
             "NAME:key=value,... for options, e.g. fuzzy:rulebase=my.yaml")] = "exhaustive",
    weights: Annotated[
        str, typer.Option(help="Exhaustive player: opponent's throws uniform, or expert.")
    ] = "uniform",
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: the fuzzy player's memberships and rule strengths of the "
                          "chosen throw; sampling: how it was chosen.")]
    = False,
    json_out: JsonOpt = False,
    batch: BatchOpt = None,
) -> None:
    """Which two cards to throw, and why.

    The exhaustive player shows its exact EV table; another player its choice with its
    reasons (fuzzy: grades, and with --explain the rules that fired).
    """
    if crib not in ("mine", "theirs"):
        raise usage_error(f"--crib must be mine or theirs (got {crib!r})")
    _advise(cards, "theirs" if crib == "theirs" else "mine", player, weights, explain,
            json_out, batch)


def _advise(cards: list[str] | None, owner: CribOwner, player: str, weights: str,
            explain: bool, json_out: bool, batch: Path | None) -> None:
    """discard's work, once --crib is known."""
    if weights not in ("uniform", "expert"):
        raise usage_error(f"--weights must be uniform or expert (got {weights!r})")
    weighting: Weighting = "expert" if weights == "expert" else "uniform"
    if player.strip() == "exhaustive":  # the default: no player module to import
        name = "exhaustive"
    else:
        from fuzzeval.play.spec import PlayerSpec

        try:
            name = PlayerSpec.parse(player).name
        except FuzzevalError as exc:
            raise usage_error(f"--player {player}: {exc}") from None
    if name != "exhaustive":
        _player_discard(cards, owner, player, explain, json_out, batch)
        return
    if ":" in player:  # its options checked as the player's (weights=uniform|expert)
        from fuzzeval.games.cribbage.players import ExhaustiveDiscard, player_from_spec

        try:
            discarder = player_from_spec(player).discarder
        except (FuzzevalError, ValueError) as exc:
            raise usage_error(f"--player {player}: {exc}") from None
        assert isinstance(discarder, ExhaustiveDiscard)
        weighting = discarder.weights
    data = _one_or_batch(cards, batch, json_out, lambda t: _discard_json(t, owner, weighting))
    if data is None:
        return
    sign = "+" if owner == "mine" else "−"
    table = Table(
        title=f"{data['hand']}, {'my' if owner == 'mine' else 'their'} crib, {weighting} "
              f"opponent throws\nhand, crib: exact averages over every starter and opponent "
              f"throw; EV = hand {sign} crib;\nthen the min–max of the hand, the crib and the "
              "net",
        title_justify="left", box=box.SIMPLE_HEAD,
    )
    for col in ("discard", "keep", "hand", "crib", "EV", "hand ", "crib ", "net"):
        table.add_column(col, justify="left" if col in ("discard", "keep") else "right",
                         no_wrap=True)
    for i, row in enumerate(data["table"]):
        table.add_row(
            row["discard"], row["keep"], f"{row['hand_mean']:.2f}", f"{row['crib_mean']:.2f}",
            f"{row['ev']:.2f}", f"{row['hand_min']}–{row['hand_max']}",
            f"{row['crib_min']}–{row['crib_max']}", f"{row['net_min']}–{row['net_max']}",
            style="bold" if i == 0 else None,
        )
    console.print(table)
    if explain:
        from fuzzeval.games.cribbage.advice import DISCARD_HOW

        console.print(f"why {data['table'][0]['discard']}: {DISCARD_HOW['exhaustive']}",
                      highlight=False)


def _print_origin(reader: object) -> None:
    """The advice header's second line: the rule base ``reader`` (a player, or its pegging
    policy) plays from, if any, and where it came from."""
    from fuzzeval.play.game import PlayerHooks, hook

    rb = hook(reader, PlayerHooks.rulebase)
    if rb is not None:
        console.print(rb.origin, markup=False, highlight=False)


def _player_discard(cards: list[str] | None, crib: CribOwner, player: str, explain: bool,
                    json_out: bool, batch: Path | None) -> None:
    from fuzzeval.games.cribbage.advice import advice_many
    from fuzzeval.games.cribbage.players import player_from_spec
    from fuzzeval.play.spec import PlayerSpec

    try:
        built = player_from_spec(player)  # once: a rule base is loaded and compiled here
        spec = PlayerSpec.parse(player)
    except (FuzzevalError, ValueError) as exc:
        raise usage_error(f"--player {player}: {exc}") from None

    def one(tokens: list[str]) -> dict[str, Any]:
        return advice_many(built, spec, [_six(tokens)], crib, explain)[0]

    def many(lines: list[list[str]]) -> list[Answer]:
        return _advice_lines(built, spec, lines, crib, explain)

    data = _one_or_batch(cards, batch, json_out, one, many)
    if data is None:
        return
    who = "my" if crib == "mine" else "their"
    console.print(f"{data['hand']}, {who} crib, player {escape(data['player'])}: throw "
                  f"[bold]{' '.join(data['discard'])}[/bold], keep {' '.join(data['keep'])}")
    _print_origin(built)
    rows = data.get("table", [])
    if rows:
        width = min(80, console.width)  # fewer columns on a narrower terminal
        shown, hidden = columns_that_fit(list(rows[0]), width, ALWAYS_SHOWN, WIDE)
        table = Table(box=box.SIMPLE_HEAD)
        for col in shown:
            table.add_column(col, justify="left" if col in ("discard", "keep", "card")
                             else "right", no_wrap=True)
        for i, row in enumerate(rows):
            table.add_row(*(f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c])
                            for c in shown),
                          style="bold" if i == 0 and "card" not in row else None)
        console.print(table)
        if hidden:
            console.print(f"not shown, to fit {width} columns: {', '.join(hidden)} "
                          "(--json lists every input)", highlight=False)
    if explain and "sampling" in data:
        console.print(f"why {' '.join(data['discard'])}: {_simulated(data['sampling'])}; "
                      "a deal's value is the "
                      "play simulated (greedy pegging on both sides) plus the exact expected "
                      "hand and crib, or, from 61 points on, my chance of winning after the "
                      "whole deal simulated", highlight=False)
        return
    if explain and "explanation" not in data:
        from fuzzeval.games.cribbage.advice import discard_how

        console.print(f"why {' '.join(data['discard'])}: {discard_how(built, data)}",
                      highlight=False)
        return
    if explain:
        from fuzzeval.cli.evaluate import print_explanation
        from fuzzeval.games.cribbage.cards import parse_cards
        from fuzzeval.games.cribbage.discard import THROWS
        from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard

        fz = built.discarder
        assert isinstance(fz, FuzzyDiscard)
        hand = tuple(sorted(parse_cards(cards or [], 6)))
        choice = THROWS.index(tuple(sorted(hand.index(c) for c in parse_cards(data["discard"]))))
        console.print(f"why {' '.join(data['discard'])}:")
        print_explanation(fz.evaluator, fz.explain(hand, crib == "mine", choice))


def _simulated(sim: dict[str, Any]) -> str:
    """How a simulated choice was made: its trials and whether the stop rule fired."""
    from fuzzeval.play.advice import how_simulated

    return how_simulated(sim, "deals")


def _six(tokens: list[str]) -> tuple[int, ...]:
    from fuzzeval.games.cribbage.cards import parse_cards

    return tuple(sorted(parse_cards(tokens, 6)))


def _advice_lines(player: CribbagePlayer, spec: PlayerSpec, lines: list[list[str]],
                  crib: CribOwner, explain: bool) -> list[Answer]:
    """``advice_many`` for the good lines of a batch, at once (its JSON lines where
    ``advice_lines`` writes them); a bad line gets its error."""
    from fuzzeval.games.cribbage.advice import advice_lines, advice_many

    parsed: list[tuple[int, ...] | FuzzevalError | ValueError] = []
    for tokens in lines:
        try:
            parsed.append(_six(tokens))
        except (FuzzevalError, ValueError) as exc:
            parsed.append(exc)
    hands = [p for p in parsed if isinstance(p, tuple)]
    answers: Sequence[Answer] = []
    if hands:
        answers = ((None if explain else advice_lines(player, spec, hands, crib))
                   or advice_many(player, spec, hands, crib, explain))
    each = iter(answers)
    return [next(each) if isinstance(p, tuple) else p for p in parsed]


def _score_json(tokens: list[str], starter: str | None, crib: bool) -> dict[str, Any]:
    from fuzzeval.games.cribbage.cards import card_str, parse_cards
    from fuzzeval.games.cribbage.scoring import score_breakdown, score_hand, spoken_count

    cards = parse_cards(tokens)
    hand: tuple[int, ...]
    if starter is None:
        if len(cards) != 5:
            raise ValueError(f"give four cards and --starter, or five cards with the starter "
                             f"last (got {len(cards)})")
        hand, start = cards[:4], cards[4]
    else:
        hand, start = parse_cards(tokens, 4), parse_cards([starter], 1)[0]
    items = score_breakdown(hand, start, crib=crib)
    return {
        "hand": [card_str(c) for c in hand],
        "starter": card_str(start),
        "crib": crib,
        "points": score_hand(hand, start, crib=crib),
        "count": spoken_count(items),
        "items": [{"kind": i.kind, "cards": [card_str(c) for c in i.cards], "points": i.points}
                  for i in items],
    }


@app.command()
def score(
    cards: Annotated[list[str] | None, typer.Argument(help="Four cards (or five, starter last).")]
    = None,
    starter: Annotated[str | None, typer.Option(help="The starter (cut) card.")] = None,
    as_crib: Annotated[bool, typer.Option(
        "--as-crib", help="Count the hand as a crib (a flush needs all five).")] = False,
    json_out: JsonOpt = False,
    batch: BatchOpt = None,
) -> None:
    """Count a hand the way players do."""
    data = _one_or_batch(cards, batch, json_out, lambda t: _score_json(t, starter, as_crib))
    if data is not None:
        console.print(f"{' '.join(data['hand'])} + {data['starter']}"
                      f"{' (crib)' if as_crib else ''}: [bold]{data['points']}[/bold]")
        console.print(data["count"])


@app.command("train-es")
def train_es(
    iterations: Annotated[int, typer.Option(
        "--iterations", "-n", min=1, max=GAMES_MAX,
        help="Iterations: deals to learn from, one each.")]
    = 2_000_000,
    variant: Annotated[str, typer.Option(help="threshold or coevolution.")] = "threshold",
    p: Annotated[float, typer.Option("--p", help="Threshold: success is >= p x the best "
                                     "throw's points for that starter.")] = 0.65,
    bounded: Annotated[bool, typer.Option("--bounded/--unbounded",
                                          help="Keep values in \\[0.1, 0.9].")] = False,
    crib: Annotated[bool, typer.Option(
        "--with-crib/--hand-only", help="Score the hand and the crib (two random cards join "
        "the throw), for or against (the default), or the hand only.")] = True,
    hands: Annotated[int, typer.Option(
        min=0, max=DEALS_MAX, help="Train on this many fixed random hands (the paper's first "
                                   "experiments used 9); 0 = all.")] = 0,
    seed: Annotated[int, typer.Option(
        min=0, max=SEED_MAX, help="Seed of the deals, mutations and start values.")] = 1,
    output: Annotated[Path, typer.Option(
        "--output", "-o", help="Output file: the table (.npz is added if missing).")]
    = Path("es.npz"),
    plot: Annotated[Path | None, typer.Option(help="Learning-curve picture; default "
                                              "plots/<output stem>_curve.png.")] = None,
) -> None:
    """Train Kendall & Shaw's evolution-strategy discard table; use it with -p es:table=FILE."""
    from fuzzeval.games.cribbage.es import ESConfig, learning_curve, save_table, train
    from fuzzeval.plots import Curve, image_path, plot_curves

    if variant not in ("threshold", "coevolution"):
        raise usage_error(f"--variant must be threshold or coevolution (got {variant!r})")
    if not 0 < p <= 1:  # NaN fails too
        raise usage_error(f"--p must be in (0, 1] (got {p:g})")
    if output.is_dir():
        raise usage_error(f"--output {output}: a folder; give a file name, e.g. "
                          f"{output / 'es.npz'}")
    output = output if output.suffix == ".npz" else output.with_name(output.name + ".npz")
    picture_option("--plot", plot)
    picture = image_path(plot or Path("plots") / f"{output.stem}_curve.png")
    with user_errors():
        check_outputs([Output("--output", output, "npz"),
                       Output("--plot" if plot else "the curve", picture, "picture",
                              "" if plot else "--plot")])
    config = ESConfig(variant="coevolution" if variant == "coevolution" else "threshold",
                      p=p, bounded=bounded, crib=crib, hands=hands)
    with progress_bar("training") as bar:
        task = bar.add_task("es", total=iterations)
        result = train(config, iterations, seed,
                       on_batch=lambda k: bar.advance(task, k))
    output.parent.mkdir(parents=True, exist_ok=True)
    save_table(output, result, config, iterations, seed)
    x, y = learning_curve(result.scores)
    label = (f"{variant}, p = {p:g}" if variant == "threshold" else variant) + \
        f", {'bounded' if bounded else 'unbounded'}"
    plot_curves([Curve(label, x.tolist(), y.tolist())], picture,
                title=f"ES discard learning ({'all hands' if not hands else f'{hands} hands'}, "
                      f"{'hand and crib' if crib else 'hand only'}, seed {seed})",
                xlabel="deals played", ylabel=f"average points per deal (window of "
                                               f"{int(x[0]):,})",
                levels={"random throw": result.random_level,
                        "best throw (estimated from the same deals)": result.best_level})
    console.print(f"{iterations:,} deals, {result.mutations:,} mutations; average points: "
                  f"first window {y[0]:.2f}, last window {y[-1]:.2f} (random throw "
                  f"{result.random_level:.2f}, best throw ≈ {result.best_level:.2f})")
    say_files(f"table: {output}  curve: {picture}  use: -p es:table={output}")


@app.command()
def report(
    deals: Annotated[int, typer.Option(
        min=1, max=DEALS_MAX, help="Deals (random hands), each played to both cribs.")]
    = 20_000,
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX, help="Seed of the deals.")] = 1,
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help=f"A player: {', '.join(NAMES)}; NAME:key=value,... as in "
                               f"match; give -p once per player (default: "
                               f"{', '.join(PLAYERS)}).")] = None,
    workers: WorkersOpt = 2,
    json_out: JsonOpt = False,
    plot: Annotated[Path, typer.Option(help="Bar-chart picture of the discard efficiencies.")]
    = Path("plots/cribbage_report.png"),
) -> None:
    """Discard quality of every player on the same deals, and a bar chart.

    Exact EV achieved, efficiency (EV - random) / (optimal - random), share of optimal
    throws, decisions per second.
    """
    from fuzzeval.games.cribbage.players import player_from_spec
    from fuzzeval.games.cribbage.report import run_report
    from fuzzeval.play.executors import check_workers, executor_for
    from fuzzeval.plots import image_path, plot_bars

    names = player_list(player) or list(PLAYERS)
    picture_option("--plot", plot)
    with user_errors():
        check_outputs([Output("--plot", image_path(plot), "picture")])
        check_workers(workers)
    try:
        for name in names:
            player_from_spec(name)
    except (FuzzevalError, ValueError) as exc:
        raise usage_error(str(exc)) from None
    with executor_for(workers) as pool, progress_bar("{task.description:<34}") as bar:
        tasks: dict[str, Any] = {}

        def progress(what: str, k: int, total: int) -> None:
            if what not in tasks:
                tasks[what] = bar.add_task(what, total=total)
            bar.advance(tasks[what], k)

        result = run_report(deals, seed, names, pool, progress=progress)
    plot_bars([_short(p.player) for p in result.players],
              {"my crib": [p.mine.efficiency for p in result.players],
               "their crib": [p.theirs.efficiency for p in result.players]},
              plot, title=f"Cribbage discard efficiency on {deals:,} deals (seed {seed})\n"
                          "(EV − random) / (optimal − random), exact EV, uniform opponent throws",
              ylabel="discard efficiency")
    if json_out:
        print_json({**result.to_dict(), "plot": str(plot)})
        return
    r, o = result.random, result.optimal
    console.print(f"{deals:,} deals (seed {seed}), each to my crib and to theirs; exact EV "
                  f"with uniform opponent throws. Random throw {r['mine']:.3f} / "
                  f"{r['theirs']:.3f}, optimal {o['mine']:.3f} / {o['theirs']:.3f}. eff = "
                  "(EV - random) / (optimal - random); opt = share of optimal throws; "
                  "decisions per second in one call and one hand at a time.")
    # 80 columns: numbers never wrap; a long player name folds onto a second line
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True)
    table.add_column("player", overflow="fold")
    for col in ("EV\nmine", "eff\nmine", "opt\nmine", "EV\ntheirs", "eff\ntheirs",
                "opt\ntheirs", "dec/s", "1×1/s"):
        table.add_column(col, justify="right", no_wrap=True)
    for p in result.players:
        table.add_row(escape(_short(p.player)), f"{p.mine.ev:.2f}", f"{p.mine.efficiency:.3f}",
                      f"{p.mine.optimal_share:.0%}", f"{p.theirs.ev:.2f}",
                      f"{p.theirs.efficiency:.3f}", f"{p.theirs.optimal_share:.0%}",
                      _rate(p.decisions_per_s), _rate(p.single_per_s))
    console.print(table)
    say_files(f"chart: {plot}")


def _short(player: str) -> str:
    """exhaustive:weights=expert -> exhaustive (expert); fuzzy:rulebase=cribbage_linguistic
    -> fuzzy (linguistic): in a cribbage report the game's prefix says nothing."""
    from fuzzeval.play.spec import PlayerSpec

    spec = PlayerSpec.parse(player)
    shown = [str(v).removeprefix("cribbage_") for _, v in spec.options]
    return spec.name + (f" ({', '.join(shown)})" if shown else "")


def _rate(per_s: float) -> str:
    """4,634 / 209k / 6.1M."""
    if per_s >= 1e6:
        return f"{per_s / 1e6:.1f}M"
    return f"{per_s / 1e3:.0f}k" if per_s >= 1e4 else f"{per_s:,.0f}"


@app.command()
def pegging(
    player: Annotated[str, typer.Option(
        "--player", "-p", help=f"Player A: {', '.join(NAMES)}; NAME:key=value,... as in "
                               "match: only its pegging is used.")] = "sampling",
    opponent: Annotated[str, typer.Option(
        "--opponent", help="Player B, the one A is measured against (its pegging), as "
                           "--player.")] = "exhaustive",
    deals: Annotated[int, typer.Option(min=1, max=DEALS_MAX,
                                       help="Deals, each played with both seatings.")]
    = 1000,
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX, help="Seed of the deals.")] = 1,
    json_out: JsonOpt = False,
) -> None:
    """Pegging of two players on the same deals and the same (exhaustive) discards.

    Each deal is played with A in either seat; the differential is A's pegging points less
    B's per deal, with its 95 % interval; a simulating player's stops, trials and time.
    """
    from fuzzeval.games.cribbage.pegging.report import compare_pegging
    from fuzzeval.games.cribbage.players import player_from_spec

    built = []
    for option, spec in (("--player", player), ("--opponent", opponent)):
        try:
            built.append(player_from_spec(spec))
        except (FuzzevalError, ValueError) as exc:
            raise usage_error(f"{option} {spec}: {exc}") from None
    with progress_bar() as bar:
        task = bar.add_task("deals", total=deals)
        result = compare_pegging(built[0], built[1], deals, seed,
                                 progress=lambda k: bar.advance(task, k))
    rows = []
    for name, points, side in zip((player, opponent), result.points, result.sides,
                                  strict=True):
        sim = side.simulated
        rows.append({"player": name, "pegging_per_deal": round(points, 4),
                     "decisions": side.decisions,
                     "stopped_share": round(side.stopped / sim, 4) if sim else None,
                     "mean_trials": round(side.trials / sim, 1) if sim else None,
                     "ms_per_decision": round(1000 * side.seconds / max(side.decisions, 1),
                                              3)})
    if json_out:
        print_json({"deals": deals, "seed": seed, "difference": round(result.mean, 4),
                    "interval95": [round(x, 4) for x in result.interval], "players": rows})
        return
    low, high = result.interval
    console.print(f"{deals:,} deals (seed {seed}), each with both seatings, exhaustive "
                  f"discards: A pegs {result.mean:+.3f} points a deal against B "
                  f"(95 %: {low:+.3f} to {high:+.3f}).", highlight=False)
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column("player", overflow="fold")
    for col in ("pegging\n/deal", "decisions", "stopped\nearly", "trials\n(mean)",
                "ms per\ndecision"):
        table.add_column(col, justify="right", no_wrap=True)
    for tag, row in zip("AB", rows, strict=True):
        share, trials = row["stopped_share"], row["mean_trials"]
        table.add_row(tag, escape(_short(str(row["player"]))), f"{row['pegging_per_deal']:.3f}",
                      f"{row['decisions']:,}", "–" if share is None else f"{share:.1%}",
                      "–" if trials is None else f"{trials:.0f}",
                      f"{row['ms_per_decision']:.2f}")
    console.print(table)


@app.command()
def peg(
    hand: Annotated[list[str] | None, typer.Argument(help="The cards still in hand, e.g. KC 3D")]
    = None,
    count: Annotated[str, typer.Option(help="The current count's cards, in play order.")] = "",
    earlier: Annotated[str, typer.Option(
        help="Cards laid earlier this deal, before the current count, in play order.")] = "",
    mine: Annotated[str, typer.Option(help="Which of the laid cards are mine.")] = "",
    starter: Annotated[str, typer.Option(help="The starter (the cut card).")] = "",
    crib: Annotated[str | None, typer.Option(
        help=f"{CRIB_HELP} Default: worked out from the play (the dealer's opponent "
             "leads).")] = None,
    thrown: Annotated[str, typer.Option(
        help="The two cards I threw to the crib (the sampling player needs them).")] = "",
    score: Annotated[int, typer.Option(min=0, max=120, help="My score.")] = 0,
    opponent_score: Annotated[int, typer.Option(min=0, max=120, help="Theirs.")] = 0,
    player: Annotated[str, typer.Option(
        "--player", "-p", help=f"Player whose pegging: {', '.join(NAMES)}; NAME:key=value,... "
                               "as in match, e.g. exhaustive:pegging=fuzzy (the pegging rule "
                               "base; the default pegging is greedy)")] = "exhaustive",
    explain: Annotated[bool, typer.Option(
        "--explain", help="Why: the rule base's memberships and rule strengths of the "
                          "chosen card; sampling: how the card was chosen.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Which card to lay in the play, and why.

    Every card that fits under 31 with what the player weighs: the features and the grade
    (greedy: points now less the expected reply; the rule base: its grade), or each card's
    simulated mean and deviation (sampling).
    """
    from fuzzeval.games.cribbage.pegging.advice import Seat, peg_advice, peg_view
    from fuzzeval.games.cribbage.players import player_from_spec

    try:
        built = player_from_spec(player)
    except (FuzzevalError, ValueError) as exc:
        raise usage_error(f"--player {player}: {exc}") from None
    from fuzzeval.games.cribbage.fuzzy import FuzzyPegging

    seat = Seat(" ".join(hand or []), count, earlier, mine, starter, crib, thrown,
                (score, opponent_score))
    try:
        data = peg_advice(built, player, seat)
    except (FuzzevalError, ValueError) as exc:
        raise usage_error(str(exc)) from None
    if json_out:
        print_json(data)
        return
    console.print(f"count {data['count']}, player {escape(data['player'])}: lay "
                  f"[bold]{data['lay']}[/bold]", highlight=False)
    _print_origin(built.policy)
    rows = data["table"]
    width = min(80, console.width)  # fewer columns on a narrower terminal
    shown, hidden = columns_that_fit(list(rows[0]), width, ALWAYS_SHOWN, WIDE)
    table = Table(box=box.SIMPLE_HEAD)
    for col in shown:
        table.add_column(col, justify="left" if col == "card" else "right", no_wrap=True)
    for row in rows:
        table.add_row(*(f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c])
                        for c in shown))
    console.print(table)
    if hidden:
        console.print(f"not shown, to fit {width} columns: {', '.join(hidden)} (--json lists "
                      "every input)", highlight=False)
    if not explain:
        return
    if "sampling" in data:
        console.print(f"why {data['lay']}: {_simulated(data['sampling'])}; "
                      "a deal's value is my points less theirs to its end "
                      "(the play by the rollout policy on both sides, then the show), or, "
                      "from 61 points on, my chance of winning after it", highlight=False)
        return
    policy = built.policy
    if not isinstance(policy, FuzzyPegging):
        from fuzzeval.games.cribbage.advice import peg_how

        console.print(f"why {data['lay']}: {peg_how(built, data)}", highlight=False)
        return
    from fuzzeval.cli.evaluate import print_explanation

    console.print(f"why {data['lay']}:")
    print_explanation(policy.evaluator, policy.explain(peg_view(seat),
                                                       data["options"].index(data["lay"])))
