"""What any player would choose at one decision, and what it weighed, for a person: the
advice on ``?`` at ``fuzzeval play`` and the advice commands' tables, for players of
every kind.

A game judges its own players (it knows their tables); this module judges any other from
what the player offers, so that a player installed for every game (``sampling``, ``td``)
is advised the moment it plays one: a simulation's record (``decide``: each option's mean
and deviation over the playouts), a learned rule base (``evaluator`` and ``rows``: each
option's value, and the rules behind the chosen one), or, for any other, its choice alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval.engine.evaluator import Evaluator, Explanation
from fuzzeval.play.game import Advice, Candidates, Player, PlayerHooks, hook

#: the seed of the generator an advisor draws from: asked twice, it says the same
ADVICE_SEED = 0
TOP = 8  # rows of a table of advice at the terminal


@dataclass(frozen=True)
class Judgement:
    """One player's choice at one decision and what it weighed: for each option the
    numbers it compared (named by ``columns``; none for a player that compares none),
    the options best first, one line on how it judged them, and for a rule base the
    explanation of the chosen option's grade."""

    choice: int
    how: str
    columns: tuple[str, ...] = ()
    values: tuple[tuple[float, ...], ...] = ()  # values[i]: option i's, one per column
    order: tuple[int, ...] = ()  # the options best first; () when there are no values
    explanation: tuple[Evaluator, Explanation] | None = None


def judge(player: Player, candidates: Candidates, rng: np.random.Generator) -> Judgement:
    """What ``player`` would choose among ``candidates``, with what it says of its choice."""
    decide = hook(player, PlayerHooks.decide)
    if decide is not None:
        choice, record = decide(candidates, rng)
        if "means" in record:
            return simulated(int(choice), record, hook(player, PlayerHooks.settings))
        return Judgement(int(choice), NO_VALUES)
    if hook(player, PlayerHooks.evaluator) is not None and \
            hook(player, PlayerHooks.rows) is not None:
        return learned(player, candidates, rng)
    return Judgement(int(player.choose(candidates, rng)), NO_VALUES)


#: what is said of a player that weighs nothing it can show
NO_VALUES = "it shows no values, only its choice"


def simulated(choice: int, record: Any, settings: Any = None) -> Judgement:
    """A simulation's choice: each option's mean and deviation over its playouts (from the
    record a sampling player keeps in the history)."""
    means = [float(x) for x in str(record["means"]).split()]
    sds = [float(x) for x in str(record["sds"]).split()]
    order = tuple(int(i) for i in np.argsort(-np.array(means), kind="stable"))
    how = how_simulated({"trials": record["trials"], "stopped": bool(int(record["stopped"])),
                         "stop": "" if settings is None else settings.stop}, "playouts")
    return Judgement(choice, how, ("mean", "sd"), tuple(zip(means, sds, strict=True)), order)


def how_simulated(sim: Mapping[str, Any], unit: str) -> str:
    """How a simulated choice was made: its trials (``unit``: what one simulates) and
    whether the stop rule fired."""
    rule = f"the {sim['stop']} rule" if sim["stop"] else "its stop rule"
    early = (f"stopped early by {rule}" if sim["stopped"]
             else f"ran every trial (stop rule: {sim['stop'] or 'none'})")
    return f"the highest mean over {sim['trials']} simulated {unit}, {early}"


def learned(player: Any, candidates: Candidates, rng: np.random.Generator) -> Judgement:
    """A learned rule base's choice (``td``): each option's value, the best taken (the most,
    or the least where the game pays less as better)."""
    ev: Evaluator = player.evaluator
    rows = player.rows(candidates)
    grades = ev.grade(rows)
    payoff = hook(player, PlayerHooks.payoff)
    higher = payoff is None or payoff.higher_is_better
    choice = int(player.choose(candidates, rng))
    order = np.argsort(-grades if higher else grades, kind="stable")
    word = "most" if higher else "least"
    how = (f"the {word} value of the rule base {ev.rulebase.name} (what the game will pay "
           "from here on)")
    return Judgement(choice, how, (ev.rulebase.output.name,),
                     tuple((float(g),) for g in grades), tuple(int(i) for i in order),
                     (ev, ev.explain(rows[choice])))


def advice(name: str, judgement: Judgement, labels: Sequence[str], what: str = "option",
           top: int | None = TOP) -> Advice:
    """A judgement as ``?`` shows it: the best ``top`` options (None: every one) with
    their values."""
    j = judgement
    top = len(j.order) if top is None else top
    rows = tuple((labels[i], *(f"{v:.4g}" for v in j.values[i])) for i in j.order[:top])
    more = f"; {len(j.order) - top} more" if len(j.order) > top else ""
    return Advice(name, labels[j.choice], (what, *j.columns) if j.columns else (), rows,
                  j.how + more, j.explanation)


def explain_option(evaluator: Evaluator, candidates: Candidates, option: int) -> Explanation:
    """Why a rule base grades ``option`` as it does: its features as the candidates carry
    them, the evaluator's inputs picked by name (any option, not only the one chosen)."""
    names = candidates.feature_names
    missing = [n for n in evaluator.input_names if n not in names]
    if missing:
        raise ValueError(f"the options carry no feature {missing[0]!r} of the rule base "
                         f"{evaluator.rulebase.name}")
    row = candidates.feature_rows([option])[0]
    return evaluator.explain(row[[names.index(n) for n in evaluator.input_names]])
