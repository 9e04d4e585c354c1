"""Rule bases generated from a game's features: one rule per conjunction of atoms
(Sturtevant & White 2006).

Sturtevant & White build their Hearts evaluator from *atomic features* ("we have the lead",
"the Q♠ player has 2 backers") and every pair, triple and quadruple of them joined by AND,
each with a learned weight. A fuzzy rule says the same: its condition is a conjunction of
``variable is term`` atoms, its conclusion a value, and with the ``weighted_sum``
defuzzifier the grade is the paper's linear model, sum over rules of strength x value.

The atoms of a feature are terms over its range (``atom_terms``): a 0/1 feature has ``no``
[0, 0, 1] and ``yes`` [0, 1, 1], crisp at 0 and 1; any other feature has ``low``, ``mid`` and
``high``, three triangles that add up to 1 across the range. Conjunctions join atoms of
different features (two terms of one feature would only narrow a range). All of them
are generated, single atoms, pairs, triples and (``max_order`` 4) quadruples, then pruned
to those that fire (strength at least 0.5: a fuzzy atom's wide feet do not count) on at
least a share of the sampled decisions: ``min_share`` (0.5 %) for atoms and pairs,
``triple_share`` (15 %) for triples, ``quad_share`` (25 %) for quadruples. A rule that
never fires learns nothing, many conjunctions are impossible (a card cannot be the queen
and a heart), and the triples are many: 82 Hearts atoms make 62,000 triples that fire on
0.5 % of the decisions of heuristic play, 13,000 that fire on 15 %, and the engine grades
every rule of every candidate. A conjunction of k atoms is considered only when its k
conjunctions of k - 1 atoms are kept (it fires no more often than any of them), so a
quadruple's bar is never below the triples'.
"""

from __future__ import annotations

import dataclasses
import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, product

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.membership import Triangle, membership
from fuzzeval.engine.rulebase import And, Condition, Is, Rule, RuleBase, Term, Variable
from fuzzeval.play.game import Feature

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: the largest generated rule base learned: about a tenth of a millisecond to grade the
#: ~10 candidates of a decision on one core at this size (docs/learning.md)
MAX_RULES = 20_000
#: share of sampled decisions an atom or a pair must fire on to be kept; a triple's; a
#: quadruple's (Hearts' positions, the Q♠'s points: about 5,300 quadruples on 25 %)
MIN_SHARE = 0.005
TRIPLE_SHARE = 0.15
QUAD_SHARE = 0.25
#: the most atoms a conjunction joins: Sturtevant & White's Q♠ needed four
MAX_ORDER = 4
#: the strength at which a conjunction counts as firing on a decision
FIRES_AT = 0.5


@dataclass(frozen=True)
class Atom:
    """``feature is term``: one condition of a conjunction."""

    feature: str
    term: str


def atom_terms(feature: Feature) -> tuple[Term, ...]:
    """The terms a feature's atoms use: no/yes for a 0/1 feature, else low/mid/high."""
    lo, hi = float(feature.lo), float(feature.hi)
    if (lo, hi) == (0.0, 1.0):
        return (Term("no", Triangle(0.0, 0.0, 1.0)), Term("yes", Triangle(0.0, 1.0, 1.0)))
    mid = (lo + hi) / 2
    return (Term("low", Triangle(lo, lo, mid)), Term("mid", Triangle(lo, mid, hi)),
            Term("high", Triangle(mid, hi, hi)))


def atom_variables(features: Sequence[Feature]) -> tuple[Variable, ...]:
    """Every feature as an input variable with its atoms' terms."""
    return tuple(Variable(f.name, float(f.lo), float(f.hi), atom_terms(f), f.meaning)
                 for f in features)


def atom_memberships(variables: Sequence[Variable], samples: FloatArray
                     ) -> tuple[list[Atom], FloatArray]:
    """Every atom and its membership in each sample (n, atoms); ``samples`` has one column
    per variable, in order, and is clipped to the ranges as the engine clips inputs."""
    atoms: list[Atom] = []
    columns: list[FloatArray] = []
    for j, v in enumerate(variables):
        x = np.clip(samples[:, j], v.lo, v.hi)
        for t in v.terms:
            atoms.append(Atom(v.name, t.name))
            columns.append(membership(x, t.triangle, v.width))
    return atoms, np.stack(columns, axis=1) if columns else np.zeros((len(samples), 0))


def frequent_conjunctions(atoms: Sequence[Atom], fires: BoolArray,
                          shares: Sequence[float], alone: frozenset[str] = frozenset()
                          ) -> list[tuple[int, ...]]:
    """Conjunctions (tuples of atom indices, ascending) of 1..``len(shares)`` atoms of
    different features that fire together on at least ``shares[k - 1]`` of the rows of
    ``fires`` (n, atoms) for k atoms: singles first, then pairs, then triples and so on,
    each in index order. The atoms of the features in ``alone`` are singles only."""
    n = fires.shape[0]
    needs = [max(1, int(np.ceil(share * n))) for share in shares]
    packed = np.packbits(fires, axis=0)  # (n/8, atoms): a conjunction is an AND of columns
    counts = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).sum(axis=1)

    def support(bits: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        return counts[bits].sum(axis=0)  # type: ignore[no-any-return]

    singles: list[tuple[int, ...]] = [(int(i),) for i in
                                      np.flatnonzero(support(packed) >= needs[0])]
    kept: list[tuple[int, ...]] = list(singles)
    level = singles
    for need in needs[1:]:
        known = set(level)
        nxt: list[tuple[int, ...]] = []
        for combo in level:
            used = {atoms[i].feature for i in combo}
            if used & alone:
                continue
            tails = [k for k in range(combo[-1] + 1, len(atoms)) if atoms[k].feature not in used
                     and atoms[k].feature not in alone
                     and all(tuple(sorted((*sub, k))) in known
                             for sub in combinations(combo, len(combo) - 1))]
            if not tails:
                continue
            both = np.bitwise_and.reduce(packed[:, list(combo)], axis=1)
            ok = support(both[:, None] & packed[:, tails]) >= need
            nxt += [(*combo, k) for k, good in zip(tails, ok, strict=True) if good]
        kept += nxt
        level = nxt
    return kept


def conjunction_rulebase(name: str, features: Sequence[Feature], samples: FloatArray,
                         output: str, unit: str, scale: float, max_order: int = 3,
                         min_share: float = MIN_SHARE, triple_share: float = TRIPLE_SHARE,
                         quad_share: float = QUAD_SHARE,
                         limit: int = MAX_RULES, made_by: str = "",
                         split: str = "", group_features: Sequence[str] = (),
                         single_features: Sequence[str] = ()) -> RuleBase:
    """A ``weighted_sum`` rule base with one rule per frequent conjunction of atoms over
    ``samples`` (sampled decisions' features, one column per feature), every conclusion
    0 to start (its own singleton term ``rK`` for rule K) on an output named ``output``
    whose range is +-``scale`` (conclusions are kept in it). Refused (ValueError) beyond
    ``limit`` rules, before anything is learned.

    With ``split`` (a feature's name) the base is one group of rules per atom of that
    feature (backgammon's ``Contact``: a contact group and a race group; Hearts'
    ``leading``: leads and follows): the group's conjunctions are found among the samples
    where its atom fires, with the shares counted there, and each is joined with that
    atom, so no rule of one group fires in another and each group learns its own values.
    Several features, separated by commas, make a group for each combination of their
    atoms. ``max_order`` counts the atoms beside the group's. ``group_features`` narrows
    some groups to the features their conjunctions draw on (``parse_group_features``):
    backgammon's race group, both sides' pips and checkers off alone, so that one roll
    ahead, from the other side's view, the plays of a roll are still told apart. The atoms
    of ``single_features`` are joined with no other feature's atoms (a group's only): many
    features for the price of a few rules each (backgammon's side to roll's counts)."""
    if not 1 <= max_order <= MAX_ORDER:
        raise ValueError(f"conjunctions join 1 to {MAX_ORDER} atoms (got {max_order})")
    for share in (min_share, triple_share, quad_share):
        if not 0 < share < 1:
            raise ValueError(f"the share a conjunction must fire on is in (0, 1) (got {share})")
    if samples.ndim != 2 or samples.shape[1] != len(features) or len(samples) == 0:
        raise ValueError(f"samples must be (n > 0, {len(features)}) (got {samples.shape})")
    variables = atom_variables(features)
    atoms, mu = atom_memberships(variables, samples)
    shares = (min_share, min_share, triple_share, quad_share)[:max_order]
    if group_features and not split:
        raise ValueError("features of a group need groups: name the split feature")
    only = parse_group_features(group_features, split, features) if split else {}
    alone = matching_features(single_features, [f.name for f in features])
    combos = _grouped(atoms, mu >= FIRES_AT, shares, split, only, alone) if split else \
        frequent_conjunctions(atoms, mu >= FIRES_AT, shares, alone)
    if len(combos) > limit:
        quads = f", quadruples {quad_share:.2%}" if max_order == 4 else ""
        raise ValueError(f"{len(combos):,} conjunctions fire often enough ({min_share:.2%} "
                         f"of the sampled decisions, triples {triple_share:.2%}{quads}): "
                         "more than "
                         f"the {limit:,} rules a learned base may have; raise the shares or "
                         "join fewer atoms")
    if not combos:
        raise ValueError(f"no atom fires on {min_share:.2%} of the sampled decisions")
    rules = tuple(Rule(_condition([atoms[i] for i in combo]), f"r{k + 1}")
                  for k, combo in enumerate(combos))
    out = Variable(output, -float(scale), float(scale),
                   tuple(Term(f"r{k + 1}", Triangle(0.0, 0.0, 0.0)) for k in range(len(rules))),
                   unit)
    used = {(atoms[i].feature, atoms[i].term) for combo in combos for i in combo}
    inputs = tuple(dataclasses.replace(v, terms=tuple(t for t in v.terms
                                                      if (v.name, t.name) in used))
                   for v in variables if any(name == v.name for name, _ in used))
    return RuleBase(name, "weighted_sum", 0.0, inputs,
                    out, rules, description=f"{len(rules)} rules, each a conjunction of atoms "
                    f"of the inputs, concluding what it adds to the {unit}", made_by=made_by)


def matching_features(patterns: Sequence[str], features: Sequence[str]) -> frozenset[str]:
    """The features named by ``patterns``, each a name or a shell pattern (``Their*``); a
    ValueError names the first that matches none."""
    out: set[str] = set()
    for pattern in patterns:
        found = fnmatch.filter(features, pattern)
        if not found:
            raise ValueError(f"no feature {pattern!r} to stand alone (features: "
                             f"{', '.join(sorted(features))})")
        out.update(found)
    return frozenset(out)


def split_features(split: str, features: Sequence[str]) -> list[str]:
    """The features of ``split`` (names separated by commas), each one of ``features``
    and named once; a ValueError names the first that is not."""
    names = split.split(",")
    for name in names:
        if name not in features:
            raise ValueError(f"cannot split the rules by {name!r}: no feature of that name "
                             f"(features: {', '.join(features)})")
    if len(set(names)) < len(names):
        raise ValueError(f"split by {split!r} names a feature twice")
    return names


def parse_group_features(specs: Sequence[str], split: str, features: Sequence[Feature]
                         ) -> dict[tuple[Atom, ...], frozenset[str]]:
    """Each spec ``F=term[,G=term]:A,B,...`` (the group by one atom of each split feature,
    in the split's order, then the features its conjunctions draw on) as the group's atoms
    and the features; a ValueError names what is wrong and what is valid."""
    names = split_features(split, sorted(f.name for f in features))
    by_name = {f.name: f for f in features}
    out: dict[tuple[Atom, ...], frozenset[str]] = {}
    for spec in specs:
        head, colon, tail = spec.partition(":")
        if not colon or not tail:
            raise ValueError(f"{spec!r}: a group's features are GROUP:FEATURES, e.g. "
                             f"{names[0]}={atom_terms(by_name[names[0]])[0].name}:"
                             f"{next(f.name for f in features if f.name not in names)}")
        if len(head.split(",")) != len(names):
            raise ValueError(f"{spec!r}: a group is one atom of each of {', '.join(names)}, "
                             f"e.g. {names[0]}={atom_terms(by_name[names[0]])[0].name}")
        group: list[Atom] = []
        for part, name in zip(head.split(","), names, strict=True):
            feature, _, term = part.partition("=")
            terms = [t.name for t in atom_terms(by_name[name])]
            if feature != name or term not in terms:
                raise ValueError(f"{spec!r}: {part!r} is not an atom of {name} "
                                 f"({', '.join(f'{name}={t}' for t in terms)})")
            group.append(Atom(name, term))
        drawn = tail.split(",")
        for name in drawn:
            if name not in by_name or name in names:
                raise ValueError(f"{spec!r}: {name!r} is not a feature outside the split "
                                 f"(features: {', '.join(sorted(set(by_name) - set(names)))})")
        if tuple(group) in out:
            raise ValueError(f"{spec!r}: the group {head} is given twice")
        out[tuple(group)] = frozenset(drawn)
    return out


def _grouped(atoms: Sequence[Atom], fires: BoolArray, shares: Sequence[float],
             split: str, only: dict[tuple[Atom, ...], frozenset[str]],
             alone: frozenset[str] = frozenset()) -> list[tuple[int, ...]]:
    """The conjunctions of each group of ``split`` (features separated by commas: a group
    for each combination of one atom of each, in order): each group's frequent
    conjunctions among the rows where its atoms fire together, over the other features'
    atoms (those ``only`` names for the group, where it does), led by the group's atoms,
    after the group's atoms alone (its own constant)."""
    names = split_features(split, sorted({a.feature for a in atoms}))
    out: list[tuple[int, ...]] = []
    for group in product(*([i for i, a in enumerate(atoms) if a.feature == name]
                           for name in names)):
        drawn = only.get(tuple(atoms[g] for g in group))
        rest = [i for i, a in enumerate(atoms) if a.feature not in names
                and (drawn is None or a.feature in drawn)]
        rows = np.logical_and.reduce([fires[:, g] for g in group])
        if not rows.any():
            continue  # a group that never occurs in sampled play learns nothing
        found = frequent_conjunctions([atoms[i] for i in rest], fires[rows][:, rest], shares,
                                      alone)
        out += [group, *((*group, *(rest[i] for i in combo)) for combo in found)]
    return out


def _condition(atoms: Sequence[Atom]) -> Condition:
    parts = tuple(Is(a.feature, a.term) for a in atoms)
    return parts[0] if len(parts) == 1 else And(parts)
