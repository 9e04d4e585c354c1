"""Rule bases of conjunctions: atoms, pruning by firing share, and the
generated base read back as an ordinary rule base."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.engine.rulebase import And, Is
from fuzzeval.formats.loading import load_rulebase_text
from fuzzeval.formats.yaml_write import rulebase_to_yaml
from fuzzeval.learn.conjunctions import (
    Atom,
    atom_memberships,
    atom_terms,
    atom_variables,
    conjunction_rulebase,
    frequent_conjunctions,
)
from fuzzeval.play.game import Feature

LEAD = Feature("leading", 0, 1, "we lead")
RANK = Feature("rank", 0, 12, "the card's rank")
QUEEN = Feature("queen_here", 0, 1, "we hold the QS")


def test_atoms_are_crisp_for_a_yes_no_feature_and_three_triangles_otherwise() -> None:
    no, yes = atom_terms(LEAD)
    assert (no.name, yes.name) == ("no", "yes")
    assert no.triangle.points == (0, 0, 1) and yes.triangle.points == (0, 1, 1)
    low, mid, high = atom_terms(RANK)
    assert [t.triangle.points for t in (low, mid, high)] == [(0, 0, 6), (0, 6, 12),
                                                              (6, 12, 12)]
    variables = atom_variables([LEAD, RANK])
    atoms, mu = atom_memberships(variables, np.array([[0, 3], [1, 9], [1, 15]], float))
    assert atoms == [Atom("leading", "no"), Atom("leading", "yes"), Atom("rank", "low"),
                     Atom("rank", "mid"), Atom("rank", "high")]
    # rank 3: low 0.5, mid 0.5; rank 9: mid 0.5, high 0.5; 15 is clipped to 12: high 1
    np.testing.assert_allclose(mu, [[1, 0, 0.5, 0.5, 0], [0, 1, 0, 0.5, 0.5],
                                    [0, 1, 0, 0, 1]])
    np.testing.assert_allclose(mu[:, 2:].sum(axis=1), 1)


def test_conjunctions_join_different_features_and_keep_those_that_fire_often_enough() -> None:
    atoms = [Atom("a", "no"), Atom("a", "yes"), Atom("b", "no"), Atom("b", "yes"),
             Atom("c", "yes")]
    # ten decisions; columns as the atoms
    fires = np.array([[1, 0, 1, 0, 1]] * 4 + [[0, 1, 1, 0, 1]] * 3 + [[0, 1, 0, 1, 0]] * 2
                     + [[0, 1, 0, 1, 1]], dtype=bool)
    # counts: a.no 4, a.yes 6, b.no 7, b.yes 3, c 8; pairs (different features only):
    # a.no&b.no 4, a.no&c 4, a.yes&b.no 3, a.yes&b.yes 3, a.yes&c 4, b.no&c 7, b.yes&c 1;
    # triples: a.no&b.no&c 4, a.yes&b.no&c 3, a.yes&b.yes&c 1
    got = frequent_conjunctions(atoms, fires, [0.3, 0.35, 0.3])
    assert got == [(0,), (1,), (2,), (3,), (4,),
                   (0, 2), (0, 4), (1, 4), (2, 4),  # 4 or more of 10
                   (0, 2, 4)]  # its pairs all kept; (1, 2, 4) is not: (1, 2) was dropped
    assert frequent_conjunctions(atoms, fires, [0.75]) == [(4,)]


def test_the_generated_base_reads_back_as_the_same_rule_base() -> None:
    rng = np.random.default_rng(3)
    samples = np.column_stack([rng.integers(0, 2, 400), rng.integers(0, 13, 400),
                               rng.integers(0, 2, 400)]).astype(float)
    samples[:, 2] *= samples[:, 0]  # we hold the queen only when we lead
    rb = conjunction_rulebase("tiny", [LEAD, RANK, QUEEN], samples, "points",
                              "points per hand", 26, min_share=0.05, triple_share=0.1,
                              made_by="a test")
    assert rb.defuzzifier == "weighted_sum" and rb.default == 0
    assert (rb.output.name, rb.output.lo, rb.output.hi) == ("points", -26, 26)
    assert all(t.triangle.points == (0, 0, 0) for t in rb.output.terms)
    assert [r.output_term for r in rb.rules] == [f"r{k + 1}" for k in range(len(rb.rules))]
    conditions = [r.condition for r in rb.rules]
    assert Is("leading", "yes") in conditions
    assert And((Is("leading", "yes"), Is("queen_here", "yes"))) in conditions
    # never seen: holding the queen without the lead
    assert And((Is("leading", "no"), Is("queen_here", "yes"))) not in conditions
    assert max(len(c.operands) if isinstance(c, And) else 1 for c in conditions) == 3
    again = load_rulebase_text(rulebase_to_yaml(rb))
    assert again == rb


def test_too_many_rules_or_bad_settings_are_refused_before_learning() -> None:
    samples = np.array([[0, 3, 0], [1, 9, 1]], float)
    with pytest.raises(ValueError, match=r"more than the 5 rules a learned base may have"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, limit=5)
    with pytest.raises(ValueError, match=r"join 1 to 4 atoms \(got 5\)"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, max_order=5)
    with pytest.raises(ValueError, match=r"join 1 to 4 atoms \(got 0\)"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, max_order=0)
    with pytest.raises(ValueError, match=r"in \(0, 1\) \(got 1\)"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, quad_share=1)
    with pytest.raises(ValueError, match=r"in \(0, 1\) \(got 0\)"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, quad_share=0)
    # each decision fires 4 atoms (rank 3: low and mid; 9: mid and high): 7 atoms in all,
    # 5 pairs and 2 triples of different features each, mid shared: 7 + 10 + 4 = 21
    with pytest.raises(ValueError, match=r"^21 conjunctions fire often enough \(0.50% of the "
                       r"sampled decisions, triples 15.00%\): more than the 5 rules"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, limit=5)
    with pytest.raises(ValueError, match=r"^21 conjunctions fire often enough \(0.50% of "
                       r"the sampled decisions, triples 15.00%, quadruples 40.00%\): more"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, limit=5,
                             max_order=4, quad_share=0.4)
    with pytest.raises(ValueError, match=r"in \(0, 1\) \(got 0\)"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, min_share=0)
    with pytest.raises(ValueError, match=r"samples must be \(n > 0, 3\)"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples[:, :2], "p", "u", 1)


def test_conjunctions_come_once_each_their_atoms_ascending() -> None:
    """Where every atom fires everywhere, every conjunction of atoms of different features
    is kept, each once, written in ascending order: 5 singles, 8 pairs, 4 triples."""
    atoms = [Atom("a", "no"), Atom("a", "yes"), Atom("b", "no"), Atom("b", "yes"),
             Atom("c", "yes")]
    got = frequent_conjunctions(atoms, np.ones((10, 5), dtype=bool), [0.5, 0.5, 0.5])
    assert got == [(0,), (1,), (2,), (3,), (4,),
                   (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 4), (3, 4),
                   (0, 2, 4), (0, 3, 4), (1, 2, 4), (1, 3, 4)]


def test_a_split_base_has_a_group_of_rules_for_each_atom_of_the_split_feature() -> None:
    """Split by ``leading``: each group's shares are counted among its own rows, so the
    rare group (2 of 10 rows) keeps rules the whole sample would drop, and every rule
    leads with its group's atom, the atom alone first."""
    samples = np.array([[0, 0, 0], [0, 12, 0]] + [[1, 6, 0]] * 7 + [[1, 6, 1]], float)
    # not leading (2 rows, a share of 0.3 needs 1): rank low and high once each, queen
    # no twice; leading (8 rows, needs 3): rank mid 8, queen no 7, queen yes 1 (dropped)
    rb = conjunction_rulebase("split", [LEAD, RANK, QUEEN], samples, "points", "u", 26,
                              max_order=2, min_share=0.3, split="leading")
    no, yes = Is("leading", "no"), Is("leading", "yes")
    low, mid, high = (Is("rank", t) for t in ("low", "mid", "high"))
    away = Is("queen_here", "no")
    assert [r.condition for r in rb.rules] == [
        no, And((no, low)), And((no, high)), And((no, away)), And((no, low, away)),
        And((no, high, away)),
        yes, And((yes, mid)), And((yes, away)), And((yes, mid, away))]
    whole = conjunction_rulebase("whole", [LEAD, RANK, QUEEN], samples, "points", "u", 26,
                                 max_order=2, min_share=0.3)
    assert Is("rank", "low") not in [r.condition for r in whole.rules]  # 1 of 10 rows
    assert load_rulebase_text(rulebase_to_yaml(rb)) == rb
    leads = conjunction_rulebase("leads", [LEAD, RANK, QUEEN], samples[2:], "points", "u",
                                 26, max_order=2, min_share=0.3, split="leading")
    assert [r.condition for r in leads.rules] == [r.condition for r in rb.rules[6:]]
    with pytest.raises(ValueError, match=r"cannot split the rules by 'lead': no feature of "
                                         r"that name \(features: leading, queen_here, "
                                         r"rank\)"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1, split="lead")


def test_a_split_by_two_features_makes_a_group_for_each_pair_of_their_atoms() -> None:
    samples = np.array([[0, 0, 0], [0, 12, 0]] + [[1, 6, 0]] * 7 + [[1, 6, 1]], float)
    rb = conjunction_rulebase("two", [LEAD, RANK, QUEEN], samples, "points", "u", 26,
                              max_order=2, min_share=0.3, split="leading,queen_here")
    no, yes = Is("leading", "no"), Is("leading", "yes")
    away, here = Is("queen_here", "no"), Is("queen_here", "yes")
    # (no, away) 2 rows: rank low, high once each; (no, here) never: no group; (yes, away)
    # 7 rows, a share of 0.3 needs 3: rank mid; (yes, here) 1 row, needs 1: rank mid
    assert [r.condition for r in rb.rules] == [
        And((no, away)), And((no, away, Is("rank", "low"))),
        And((no, away, Is("rank", "high"))),
        And((yes, away)), And((yes, away, Is("rank", "mid"))),
        And((yes, here)), And((yes, here, Is("rank", "mid")))]
    with pytest.raises(ValueError, match="names a feature twice"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1,
                             split="leading,leading")


def test_a_group_narrowed_to_some_features_draws_its_conjunctions_only_from_them() -> None:
    """The same samples as above; the leads' group narrowed to queen_here keeps its constant
    and (yes, away), not rank mid; the follows' group is untouched; a base without groups
    refuses the narrowing."""
    samples = np.array([[0, 0, 0], [0, 12, 0]] + [[1, 6, 0]] * 7 + [[1, 6, 1]], float)
    rb = conjunction_rulebase("n", [LEAD, RANK, QUEEN], samples, "points", "u", 26,
                              max_order=2, min_share=0.3, split="leading",
                              group_features=["leading=yes:queen_here"])
    no, yes = Is("leading", "no"), Is("leading", "yes")
    low, high, away = Is("rank", "low"), Is("rank", "high"), Is("queen_here", "no")
    assert [r.condition for r in rb.rules] == [
        no, And((no, low)), And((no, high)), And((no, away)), And((no, low, away)),
        And((no, high, away)), yes, And((yes, away))]
    kw = {"max_order": 2, "min_share": 0.3, "split": "leading,queen_here"}
    two = conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "points", "u", 26,
                               group_features=["leading=yes,queen_here=no:rank"], **kw)
    assert two.rules == conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "points",
                                             "u", 26, **kw).rules  # rank is all there is
    with pytest.raises(ValueError, match=r"'queen_here=no' is not an atom of leading "
                                         r"\(leading=no, leading=yes\)"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1,
                             group_features=["queen_here=no,leading=yes:rank"], **kw)
    with pytest.raises(ValueError, match="features of a group need groups"):
        conjunction_rulebase("t", [LEAD, RANK, QUEEN], samples, "p", "u", 1,
                             group_features=["leading=yes:rank"])


def test_a_single_feature_s_atoms_join_no_other_feature_s() -> None:
    """Of 10 rows a share of 0.3 needs 3: leading yes (8), rank mid (8) and queen_here no
    (9) fire often enough alone, and each pair of them (8, 7, 7); with queen_here alone
    only the pair without it is left."""
    samples = np.array([[0, 0, 0], [0, 12, 0]] + [[1, 6, 0]] * 7 + [[1, 6, 1]], float)
    yes, mid, away = Is("leading", "yes"), Is("rank", "mid"), Is("queen_here", "no")
    kw = {"max_order": 2, "min_share": 0.3}
    every = conjunction_rulebase("e", [LEAD, RANK, QUEEN], samples, "p", "u", 26, **kw)
    assert [r.condition for r in every.rules] == [
        yes, mid, away, And((yes, mid)), And((yes, away)), And((mid, away))]
    alone = conjunction_rulebase("a", [LEAD, RANK, QUEEN], samples, "p", "u", 26,
                                 single_features=["q*"], **kw)  # a pattern: queen_here
    assert [r.condition for r in alone.rules] == [yes, mid, away, And((yes, mid))]
    with pytest.raises(ValueError, match=r"no feature 'queen' to stand alone \(features: "
                                         r"leading, queen_here, rank\)"):
        conjunction_rulebase("a", [LEAD, RANK, QUEEN], samples, "p", "u", 26,
                             single_features=["queen"], **kw)


def test_a_fuzzy_atom_fires_from_half_its_strength() -> None:
    """Rank 2 is low 2/3 and mid 1/3: only low fires (at 0.5 or more); rank 3 is low and
    mid 1/2 each: both fire; a wide foot alone never does."""
    low, mid = Is("rank", "low"), Is("rank", "mid")
    for rank, fired in ((2, [low]), (3, [low, mid]), (9, [mid, Is("rank", "high")])):
        rb = conjunction_rulebase("t", [RANK], np.full((10, 1), float(rank)), "p", "u", 1,
                                  max_order=1, min_share=0.5)
        assert [r.condition for r in rb.rules] == fired, rank


def test_pairs_are_kept_at_the_atoms_share_and_triples_at_their_own() -> None:
    """Ten decisions, rank always low: a pair needs ``min_share`` (0.1: one decision), a
    triple ``triple_share`` (0.35: four). (leading yes, queen yes) fires twice: kept as a
    pair, dropped as a triple with rank low; the two triples that fire four times stay."""
    samples = np.array([[1, 1, 0]] * 2 + [[1, 0, 0]] * 4 + [[0, 0, 0]] * 4, float)
    rb = conjunction_rulebase("t", [LEAD, QUEEN, RANK], samples, "p", "u", 1,
                              max_order=3, min_share=0.1, triple_share=0.35)
    no, yes = Is("leading", "no"), Is("leading", "yes")
    away, here, low = Is("queen_here", "no"), Is("queen_here", "yes"), Is("rank", "low")
    assert [r.condition for r in rb.rules] == [
        no, yes, away, here, low,
        And((no, away)), And((no, low)), And((yes, away)), And((yes, here)), And((yes, low)),
        And((away, low)), And((here, low)),
        And((no, away, low)), And((yes, away, low))]


VOID = Feature("void", 0, 1, "we hold no spade")


def test_quadruples_are_kept_at_their_share_when_their_four_triples_are_kept() -> None:
    """Ten decisions, rank always low (its mid and high never fire): (leading, queen_here,
    void) is (yes, yes, yes) three times, (yes, no, yes) three, (yes, no, no) twice, (no,
    no, no) twice. Each quadruple is one of these joined with rank low, firing as often.
    At a triple's share of 0.25 (three decisions) the triples (yes, no, no) and (no, no,
    no) fire twice and are dropped, so their quadruples are never considered, even at a
    quadruple's share of 0.2 (two decisions): a quadruple's bar is never below the
    triples'. At 0.2 for both, all four quadruples stay; at 0.4 (four) for quadruples,
    none."""
    samples = np.array([[1, 1, 1, 0]] * 3 + [[1, 0, 1, 0]] * 3 + [[1, 0, 0, 0]] * 2
                       + [[0, 0, 0, 0]] * 2, float)
    yes, no = Is("leading", "yes"), Is("leading", "no")
    here, away = Is("queen_here", "yes"), Is("queen_here", "no")
    void, spades, low = Is("void", "yes"), Is("void", "no"), Is("rank", "low")

    def quadruples(triple_share: float, quad_share: float, order: int = 4) -> list[And]:
        rb = conjunction_rulebase("t", [LEAD, QUEEN, VOID, RANK], samples, "p", "u", 1,
                                  max_order=order, min_share=0.1, triple_share=triple_share,
                                  quad_share=quad_share)
        return [r.condition for r in rb.rules
                if isinstance(r.condition, And) and len(r.condition.operands) == 4]

    kept = [And((yes, away, void, low)), And((yes, here, void, low))]
    assert quadruples(0.25, 0.3) == kept
    assert quadruples(0.25, 0.2) == kept
    assert quadruples(0.2, 0.2) == [And((no, away, spades, low)), And((yes, away, spades, low)),
                                    *kept]
    assert quadruples(0.2, 0.4) == []
    assert quadruples(0.2, 0.2, order=3) == []  # no quadruple below --order 4
    rb = conjunction_rulebase("t", [LEAD, QUEEN, VOID, RANK], samples, "p", "u", 1,
                              max_order=4, min_share=0.1, triple_share=0.25, quad_share=0.3)
    # 7 atoms; 15 pairs (leading and queen_here 3, leading and void 3, queen_here and void
    # 3, each with rank low 2); triples on three: (leading, queen_here, void) 2 of 4,
    # (leading, queen_here, low) 2 of 3, (leading, void, low) 1 of 3, (queen_here, void,
    # low) 3 of 3; the 2 quadruples
    assert len(rb.rules) == 7 + 15 + 8 + 2
