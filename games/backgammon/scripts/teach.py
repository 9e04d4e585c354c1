"""Write the refined backgammon rule base from GNU Backgammon's preferences.

The rules are fixed by hand in form: for each feature of the contact stage (and a few of
the race) three rules, "if Contact is Present and Shots is Few / Some / Many then
BoardStrength is ...". What each rule concludes is taught: games are played (pubeval
against itself, or a given player against pubeval, with some random plays for variety),
every candidate play of every decision is valued by GNU Backgammon 0-ply, and
``fuzzeval.learn.teach`` picks the output term of each rule so that the rule base chooses as gnubg
does (or, ``--fit equity``, reproduces gnubg's equity differences between the plays).
"Few" always concludes Neutral (a feature's three rules can all be shifted together without
changing any choice).

    python -m fuzzeval.games.backgammon.scripts.teach --games 3000 --data runs/teach.npz \
        --out rulebases/backgammon_refined.yaml

Needs the optional ``gnubg`` package (in the ``dev`` and ``gnubg`` extras).
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from fuzzeval import compile_rulebase, parse_rulebase
from fuzzeval.errors import FuzzevalError
from fuzzeval.games.backgammon.board import START
from fuzzeval.games.backgammon.features import FEATURE_NAMES, FEATURES, position_features
from fuzzeval.games.backgammon.game import opening_roll, roll
from fuzzeval.games.backgammon.moves import plays
from fuzzeval.games.backgammon.players import GnubgGrades, MoveView, make_player
from fuzzeval.learn.teach import (
    Normal,
    firing_shares,
    fit_choices,
    refine_choices,
    snap_to_terms,
    taught_levels,
)
from fuzzeval.play.spec import PlayerSpec

FloatArray = npt.NDArray[np.float64]

RACE_INPUTS = ("PipCount", "BorneOff", "Stacking", "HomeCheckers", "OutfieldCheckers",
               "BlotsLowHome", "PointsLowHome", "SparesLowHome", "BlotsHighHome",
               "PointsHighHome", "SparesHighHome")
#: my side's counts as the refined base was taught them (not the side to roll's, added since)
CONTACT_INPUTS = tuple(n for n in FEATURE_NAMES[:FEATURE_NAMES.index("OpponentPipCount")]
                       if n not in ("Contact", "PipCount", "BorneOff"))
#: inputs whose "Some" peak the calibrator may move. Not PipLoss: eq. 1 pulls its peak
#: toward what winners leave (7.5 -> 5.0 in five rounds) and that alone cost 0.0008 equity
#: a decision against gnubg (the four others moved cost nothing), about two points of win
#: rate against pubeval.
ADJUSTABLE = ("Shots", "BackEscapes", "OpponentEscapes", "RaceLead")
PER_SIDE = 15  #: output terms Bad15 .. Bad1, Neutral, Good1 .. Good15, their values taught


def term_names(levels: Sequence[float]) -> list[str]:
    """BadK .. Bad1, Neutral, Good1 .. GoodK for output values sorted with one zero."""
    bad = sum(1 for v in levels if v < 0)
    good = len(levels) - bad - 1
    return [*(f"Bad{k}" for k in range(bad, 0, -1)), "Neutral",
            *(f"Good{k}" for k in range(1, good + 1))]


@dataclass(frozen=True)
class Decisions:
    """Candidate plays of many decisions: features, gnubg equity, decision index."""

    features: FloatArray  # (n, len(FEATURE_NAMES))
    equity: FloatArray
    groups: npt.NDArray[np.intp]

    @classmethod
    def load(cls, path: Path) -> Decisions:
        with np.load(path) as z:
            return cls(z["features"], z["equity"], z["groups"])

    def save(self, path: Path) -> None:
        np.savez_compressed(path, features=self.features, equity=self.equity,
                            groups=self.groups)

    def __add__(self, other: Decisions) -> Decisions:
        """Both sets of decisions (the other's renumbered after this one's)."""
        return Decisions(np.concatenate([self.features, other.features]),
                         np.concatenate([self.equity, other.equity]),
                         np.concatenate([self.groups, other.groups + self.groups.max() + 1]))


def _game(seed: int, player: str, exploration: float) -> tuple[FloatArray, FloatArray,
                                                                 list[int]]:
    """One game: the features and gnubg equities of every decision's candidates."""
    rng = np.random.default_rng(seed)
    teacher = GnubgGrades()
    spec = PlayerSpec.parse(player)
    movers = (make_player(spec.name, **dict(spec.options)), make_player("pubeval"))
    rows, equity, sizes = [], [], []
    position, seat = START, 0
    dice = opening_roll(rng)
    for _ in range(1000):
        options = tuple(p.position for p in plays(position, dice))
        view = MoveView(position, dice, options)
        pick = 0
        if len(options) > 1:
            rows.append(position_features(list(options)))
            equity.append(teacher(view))
            sizes.append(len(options))
            if rng.random() < exploration:
                pick = int(rng.integers(len(options)))
            else:
                pick = int(np.argmax(movers[seat].grades(view)))
        after = options[pick]
        if sum(after.me) == 0:
            break
        position, seat = after.flip(), 1 - seat
        dice = roll(rng)
    return np.concatenate(rows), np.concatenate(equity), sizes


def collect(games: int, seed: int = 1, player: str = "pubeval", exploration: float = 0.1,
            workers: int = 2, progress: Callable[[int], None] | None = None) -> Decisions:
    """Play ``games`` games (``player`` against pubeval) and value their decisions; game i
    uses seed ``SeedSequence(seed).spawn(games)[i]``, so workers do not change the result.
    ``progress(games done)`` is called as games finish."""
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(games)]
    feats: list[FloatArray] = []
    eqs: list[FloatArray] = []
    sizes: list[int] = []
    with ProcessPoolExecutor(workers) as pool:
        results = pool.map(_game, seeds, [player] * games, [exploration] * games,
                           chunksize=8)
        for done, (f, e, s) in enumerate(results, 1):
            feats.append(f)
            eqs.append(e)
            sizes.extend(s)
            if progress is not None:
                progress(done)
    groups = np.repeat(np.arange(len(sizes)), sizes)
    return Decisions(np.concatenate(feats), np.concatenate(eqs), groups)


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(float(x), 2)


def skeleton(decisions: Decisions) -> tuple[str, list[str], dict[str, tuple[float, ...]]]:
    """Rule base text with every rule concluding Neutral, the rule conditions, and the
    terms (lo, mid, hi) of each input: the range seen in the data, "Some" peaking at the
    median over all candidate plays of the stage (or at lo + 1 when the median sits at an
    end). The median of the teacher's chosen plays instead made a weaker player (49.7%
    against 52.6% for the same 4,000 games)."""
    x = decisions.features
    contact = x[:, FEATURE_NAMES.index("Contact")] > 0.5
    points: dict[str, tuple[float, ...]] = {}
    for name in sorted(set(CONTACT_INPUTS) | set(RACE_INPUTS), key=FEATURE_NAMES.index):
        col = x[:, FEATURE_NAMES.index(name)]
        stage = col[contact] if name in CONTACT_INPUTS else col[~contact]
        lo, hi = float(np.floor(col.min())), float(np.ceil(col.max()))
        if hi <= lo:
            hi = lo + 1
        mid = float(np.round(np.median(stage) * 2) / 2) if stage.size else lo
        if not lo < mid < hi:
            mid = lo + 1 if hi - lo >= 2 else (lo + hi) / 2
        points[name] = (lo, mid, hi)
    conditions = [f"Contact is Present and {n} is {t}"
                  for n in CONTACT_INPUTS for t in ("Few", "Some", "Many")]
    conditions += [f"Contact is Absent and {n} is {t}"
                   for n in RACE_INPUTS for t in ("Few", "Some", "Many")]
    return render(points, conditions, ["Neutral"] * len(conditions)), conditions, points


def render(points: dict[str, tuple[float, ...]], conditions: Sequence[str],
           consequents: Sequence[str], header: str = "",
           levels: Sequence[float] = (0.0,), made_by: str = "") -> str:
    """The rule base as commented YAML; ``levels`` are the output terms' values, ``made_by``
    the command that taught it."""
    meaning = {f.name: f.meaning for f in FEATURES}
    out = [header.rstrip()] if header else []
    out += ["name: backgammon_refined",
            "description: Contact and race rules for backgammon plays, their conclusions "
            "taught by GNU Backgammon 0-ply.",
            *([f"made_by: {made_by}"] if made_by else []),
            "defuzzifier: weighted_average", "default: 0", "inputs:", "  Contact:",
            "    description: 1 while some checker still has an opposing one ahead.",
            "    range: [0, 1]", "    terms:", "      Absent: [0, 0, 1]",
            "      Present: [0, 1, 1]"]
    for name, (lo, mid, hi) in points.items():
        lo_, mid_, hi_ = _number(lo), _number(mid), _number(hi)
        some = f"[{lo_}, {mid_}, {hi_}]"
        if name in ADJUSTABLE:
            some = f"{{points: {some}, adjust: [peak]}}"
        text = meaning[name].replace('"', "'")
        out += [f"  {name}:", f'    description: "{text}"', f"    range: [{lo_}, {hi_}]",
                "    terms:", f"      Few: [{lo_}, {lo_}, {mid_}]", f"      Some: {some}",
                f"      Many: [{mid_}, {hi_}, {hi_}]"]
    out += ["output:", "  name: BoardStrength", "  range: [-1, 1]", "  terms:"]
    used = set(consequents) | {"Neutral"}  # a term no rule concludes on draws a warning
    out += [f"    {t}: {_number(v) if v == 0 else round(float(v), 4)}"
            for t, v in zip(term_names(levels), levels, strict=True) if t in used]
    out += ["rules:"]
    stage = ""
    for cond, then in zip(conditions, consequents, strict=True):
        now = "contact" if "Present" in cond else "race"
        if now != stage:
            stage = now
            out.append("  # Contact: while the sides can still hit each other."
                       if now == "contact" else "  # Race: no contact left.")
        out.append(f"  - if {cond} then BoardStrength is {then}")
    return "\n".join(out) + "\n"


def teach(decisions: Decisions, header: str = "", fit: str = "choice", ridge: float = 1e-3,
          focus: float = 0.03, made_by: str = "") -> str:
    """The rule base with every rule's conclusion taught from the decisions.

    ``fit="choice"``: imitate gnubg's choice (``fuzzeval.learn.teach.fit_choices``); the output
    terms' values are then placed where the fitted conclusions cluster (``taught_levels``),
    each rule takes the term nearest its fit by least squares (``snap_to_terms``), and the
    terms are walked one step at a time while that imitates gnubg's choices better
    (``refine_choices``). ``fit="equity"``: least squares on gnubg's equity differences, each
    play weighted exp(-(best equity - its equity) / focus), then the same placing and
    snapping."""
    text, conditions, points = skeleton(decisions)
    rb, problems = parse_rulebase(text, "backgammon_refined.yaml")
    if rb is None:
        raise ValueError(f"generated rule base is invalid: {problems[:3]}")
    evaluator = compile_rulebase(rb)
    x = decisions.features[:, [FEATURE_NAMES.index(n) for n in rb.input_names]]
    few = [i for i, c in enumerate(conditions) if c.endswith(" is Few")]
    g = decisions.groups
    # Chunks of whole decisions keep the float64 work on millions of plays small.
    starts = np.flatnonzero(np.r_[True, np.diff(g) != 0])
    bounds = [int(b) for b in (*starts[::20_000], g.size)]
    parts = [slice(lo, hi) for lo, hi in itertools.pairwise(bounds)]
    shares = np.concatenate([firing_shares(evaluator, x[p]).astype(np.float32) for p in parts])
    if fit == "choice":
        values = fit_choices(shares, g, decisions.equity, fixed=few)
        target = shares @ values.astype(np.float32)
        weight = np.ones(g.size)
    elif fit == "equity":
        best = np.full(int(g.max()) + 1, -np.inf)
        np.maximum.at(best, g, decisions.equity)
        target = decisions.equity
        weight = np.exp(-(best[g] - decisions.equity) / focus) if focus > 0 else np.ones(g.size)
    else:
        raise ValueError(f"fit must be choice or equity (got {fit!r})")
    normal: Normal | None = None
    for p in parts:
        chunk = Normal.build(shares[p].astype(np.float64), g[p], target[p], ridge, weight[p])
        normal = chunk if normal is None else normal + chunk
    assert normal is not None
    if fit == "equity":
        values = normal.solve({i: 0.0 for i in few})
    levels = taught_levels(np.delete(values, few), PER_SIDE)
    neutral = int(np.flatnonzero(levels == 0)[0])
    terms, scale = snap_to_terms(normal, list(levels), {i: neutral for i in few})
    if fit == "choice":
        terms = refine_choices(shares, g, decisions.equity, terms, scale * levels, fixed=few)
    names = term_names(levels.tolist())
    return render(points, conditions, [names[t] for t in terms], header, levels.tolist(),
                  made_by)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default="pubeval",
                        help="who plays against pubeval while the decisions are gathered")
    parser.add_argument("--exploration", type=float, default=0.1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--fit", choices=("choice", "equity"), default="choice",
                        help="imitate gnubg's choices, or fit its equity differences")
    parser.add_argument("--focus", type=float, default=0.03,
                        help="with --fit equity: weight plays by exp(-equity lost / focus)")
    parser.add_argument("--data", type=Path, default=None,
                        help="keep the valued decisions here (.npz); reused when it exists")
    parser.add_argument("--also", type=Path, action="append", default=[],
                        help="more saved decisions (.npz) to learn from as well")
    parser.add_argument("--out", type=Path, default=Path("backgammon_refined.yaml"))
    args = parser.parse_args(argv)
    for path in args.also:  # say so before minutes of play, not after
        if not path.is_file():
            parser.error(f"--also {path}: no such file")
    try:
        spec = PlayerSpec.parse(args.player)
        make_player(spec.name, **dict(spec.options))
    except (ValueError, FuzzevalError) as exc:
        parser.error(f"--player {args.player}: {exc}")
    for path in (args.data, args.out):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    if args.data is not None and args.data.exists():
        decisions = Decisions.load(args.data)
    else:
        decisions = _play(args)
        if args.data is not None:
            decisions.save(args.data)
    for extra in args.also:
        decisions = decisions + Decisions.load(extra)
    also = "".join(f" --also {p}" for p in args.also)
    command = (f"python -m fuzzeval.games.backgammon.scripts.teach --games {args.games} "
               f"--seed {args.seed} --player {args.player} --exploration {args.exploration} "
               f"--fit {args.fit}{also}")
    header = (f"# Taught by: {command}\n"
              f"# ({len(decisions.equity):,} candidate plays of "
              f"{int(decisions.groups.max()) + 1:,} decisions valued by GNU Backgammon 0-ply)")
    made_by = f"taught by `{command}` (conclusions fitted to GNU Backgammon 0-ply's choices)"
    args.out.write_text(teach(decisions, HEADER + header, args.fit, focus=args.focus,
                              made_by=made_by))
    print(f"wrote {args.out}")


def _play(args: argparse.Namespace) -> Decisions:
    from rich.progress import Progress

    with Progress() as bar:
        task = bar.add_task("games (gnubg values every play)", total=args.games)
        return collect(args.games, args.seed, args.player, args.exploration, args.workers,
                       lambda done: bar.update(task, completed=done))


HEADER = """# Fuzzeval's refined backgammon rule base, taught by games/backgammon/scripts/teach.py.
#
# Every play is graded on the position it leads to. Each input has three terms, Few, Some
# and Many (Some peaks at the typical value in play), and three rules per stage: together
# they draw a bent line for that feature, and the grade is the average over the features
# (the weighted-average defuzzifier). "Few" always concludes Neutral; Some and Many say how
# much better or worse than that the position is. The output terms run from Bad15 to
# Good15; their values were taught too (placed where the fitted conclusions cluster), so
# the steps are uneven: read the numbers below.
# Contact is crisp: the contact rules and the race rules never fire together. The peaks of
# "Some" for Shots, BackEscapes, OpponentEscapes and RaceLead are marked adjust: the
# calibrator (fuzzeval calibrate backgammon) may move them toward winning play. (PipLoss's
# is not: moved that way it cost about two points of win rate.)
# The conclusions were chosen by fuzzeval.learn.teach to imitate GNU Backgammon 0-ply's choice of
# play in each decision; edit them by hand as you like.
"""


if __name__ == "__main__":
    main()
