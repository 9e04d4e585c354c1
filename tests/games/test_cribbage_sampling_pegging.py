"""Values, not only the form, of cribbage's sampling, pegging features, fingerprints and the
``peg`` command. Every expected value is worked out here by hand from the rules, by
enumeration, or with the plain-Python scorer of ``cribbage_reference`` -- never by the
code under test."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from itertools import combinations

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage import sampling as S
from fuzzeval.games.cribbage.cards import parse_cards, value
from fuzzeval.games.cribbage.discard import THROWS
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.pegging.features import PEG_FEATURE_NAMES, peg_features
from fuzzeval.games.cribbage.pegging.policies import PegView
from fuzzeval.games.cribbage.players import DiscardView
from fuzzeval.games.cribbage.weights import opponent_weights
from fuzzeval.play.match import MatchSpec, fingerprint
from fuzzeval.play.spec import PlayerSpec
from tests.games.cribbage_reference import fifteens, pairs, runs

pytestmark = pytest.mark.pinned

JACK = 10


def view(kept: str, played: str, count: str, hand: str, thrown: str = "6C 6D",
         starter: str = "AS", my_crib: bool = False,
         scores: tuple[int, int] = (0, 0)) -> PegView:
    h = parse_cards(hand)
    c = parse_cards(count) if count else ()
    return PegView(options=tuple(x for x in h if sum(value(y) for y in c) + value(x) <= 31),
                   hand=h, kept=parse_cards(kept), count_cards=c,
                   played=parse_cards(played) if played else (),
                   starter=parse_cards([starter])[0], my_crib=my_crib,
                   thrown=parse_cards(thrown), scores=scores)


# --- the pegging features: low_cards_left counts fours ----------------------------------

def features(v: PegView) -> dict[str, list[float]]:
    f = peg_features(v)
    return {name: f[:, i].tolist() for i, name in enumerate(PEG_FEATURE_NAMES)}


def test_low_cards_left_counts_the_cards_worth_four_or_less_fours_included() -> None:
    # rulebases/cribbage_pegging.yaml: "Cards worth 4 or less left in hand after this one".
    # Leading from 4C 4D AS KH: after a four, the other four and the ace are left (2);
    # after the ace, both fours (2); after the king, all three (3).
    lead = view("4C 4D AS KH", "", "", "4C 4D AS KH", starter="9S")
    f = features(lead)
    assert f["low_cards_left"] == [2, 2, 2, 3]
    # A five is not low; a three, a four and an ace are.
    f = features(view("5C 4D 3S TH", "", "", "5C 4D 3S TH", starter="9S"))
    assert f["low_cards_left"] == [2, 1, 1, 2]
    f = features(view("AC 2D 3S 4H", "", "", "AC 2D 3S 4H", starter="9S"))
    assert f["low_cards_left"] == [3, 3, 3, 3]


def test_the_other_pegging_features_of_a_lead_by_hand() -> None:
    lead = view("4C 4D AS KH", "", "", "4C 4D AS KH", starter="9S")
    f = features(lead)
    assert f["points_now"] == [0, 0, 0, 0]
    assert f["count_after"] == [4, 4, 1, 10] == f["card_value"]
    assert f["pair_backup"] == [1, 1, 0, 0]  # a four led with the other behind it
    # Unseen by me: 52 less my four and the starter = 47 cards. A four is answered by a
    # pair (2 points) with one of the 2 unseen fours; the ace by one of 3 unseen aces; the
    # king by one of 3 kings (a pair) or of 4 fives (fifteen-two).
    risk = [2 * 2 / 47, 2 * 2 / 47, 2 * 3 / 47, (2 * 3 + 2 * 4) / 47]
    assert f["reply_risk"] == pytest.approx(risk, abs=1e-12)
    assert f["net_points"] == pytest.approx([-r for r in risk], abs=1e-12)


# --- the discard simulation's exact expectation: whose crib ------------------------------

@cache
def rank_points(ranks: tuple[int, ...]) -> int:
    return fifteens(ranks) + pairs(ranks) + runs(ranks)


def crib_expectation(thrown: tuple[int, int], six: tuple[int, ...]) -> float:
    """The crib's expected show when the opponent's two cards and the starter are any three
    of the unseen cards, all alike (uniform weights); the two thrown cards are of different
    suits, so a crib is never a flush. Plain enumeration with the reference scorer."""
    assert thrown[0] % 4 != thrown[1] % 4
    unseen = [c for c in range(52) if c not in six]
    total, n = 0.0, 0
    for starter in unseen:
        rest = [c for c in unseen if c != starter]
        for a, b in combinations(rest, 2):
            ranks = tuple(sorted(c // 4 for c in (*thrown, a, b, starter)))
            nobs = any(c // 4 == JACK and c % 4 == starter % 4 for c in (*thrown, a, b))
            total += rank_points(ranks) + nobs
            n += 1
    assert n == 46 * 45 * 44 // 2
    return total / n


def test_the_discard_simulation_takes_the_crib_as_whoever_owns_it() -> None:
    # 5C 5D 5H 5S 2C 3D, throwing 2C 3D: the four fives score 20 (six pairs, four fifteens
    # of three fives) with any starter, 28 with a ten-card (four more fifteens): 16 of the
    # 46 unseen cards are ten-cards, so the hand is worth (16 * 28 + 30 * 20) / 46.
    six = tuple(sorted(parse_cards("5C 5D 5H 5S 2C 3D")))
    thrown = tuple(parse_cards("2C 3D"))
    t = THROWS.index((six.index(thrown[0]), six.index(thrown[1])))
    hand = (16 * 28 + 30 * 20) / 46
    crib = crib_expectation(thrown, six)  # type: ignore[arg-type]
    mine = S.discard_setup(DiscardView(six, True, (0, 0)), "uniform")
    theirs = S.discard_setup(DiscardView(six, False, (0, 0)), "uniform")
    assert mine.ev is not None and theirs.ev is not None
    assert mine.ev[t] == pytest.approx(hand + crib, abs=1e-9)
    assert theirs.ev[t] == pytest.approx(hand - crib, abs=1e-9)
    assert (mine.dealer, theirs.dealer) == (0, 1)  # my crib: I deal


# --- the opponent's hidden cards: the thrown pair among the cards not in hand -----------

# I led KS, they laid QH (20), I laid 9C (29); they could not lay at 29 (neither could I),
# so they hold nothing worth 2 or less. A new count: their 8H, my 4C, their 3H. They hold
# one card; I hold 2D. Unseen: 52 - my six - the starter AS - their three = 42 cards, of
# which the 3 aces and 3 twos left cannot be the one in their hand: 36 can.
LATE = view("KS 9C 4C 2D", "KS QH 9C 8H 4C 3H", "8H 4C 3H", "2D", thrown="6C 6D",
            starter="AS")


def hidden_samples(weights: str, n: int, seed: int) -> tuple[list[int], list[tuple[int, int]]]:
    setup = S.peg_setup(LATE, weights)  # type: ignore[arg-type]
    rests, pairs_ = [], []
    for u in np.random.default_rng(seed).random((n, S.UNIFORMS)):
        rest, pair = S.sample_hidden(setup, u)
        assert len(rest) == 1
        rests.append(rest[0])
        pairs_.append(pair)
    return rests, pairs_


def test_the_hidden_card_and_thrown_pair_under_uniform_weights() -> None:
    assert S.opponent_go_room(LATE) == 2
    seen = {*LATE.kept, *LATE.thrown, LATE.starter, *LATE.played}
    unseen = [c for c in range(52) if c not in seen]
    eligible = [c for c in unseen if value(c) > 2]
    assert (len(unseen), len(eligible)) == (42, 36)
    n = 36_000
    rests, pairs_ = hidden_samples("uniform", n, 0)
    assert all(r not in p for r, p in zip(rests, pairs_, strict=True))  # drawn jointly
    assert all(a in unseen and b in unseen and a != b for a, b in pairs_)
    # Every (card in hand, pair) of disjoint unseen cards, the card one of the 36, equally
    # likely: the card in hand is each of the 36 with chance 1/36, and a card is in the
    # thrown pair with chance 2/41 given that it is not the one in hand: (35/36)(2/41) for
    # the 36, 2/41 for the aces and twos.
    in_hand = np.array([rests.count(c) for c in unseen]) / n
    in_pair = np.array([sum(c in p for p in pairs_) for c in unseen]) / n
    want_hand = np.array([1 / 36 if c in eligible else 0.0 for c in unseen])
    want_pair = np.array([(35 / 36 if c in eligible else 1.0) * 2 / 41 for c in unseen])
    # Each frequency within 5 binomial standard errors (42 cells each: a false alarm has a
    # chance below 1e-4 even before the seed is fixed).
    for got, want in ((in_hand, want_hand), (in_pair, want_pair)):
        se = np.sqrt(want * (1 - want) / n)
        assert np.all(np.abs(got - want) <= 5 * se + 1e-12), np.abs(got - want) / (se + 1e-12)


def test_the_thrown_pair_follows_the_expert_weights_among_the_cards_not_in_hand() -> None:
    # Given the card in hand c, a pair {a, b} of the other unseen cards is thrown with
    # chance w(a, b) / (the sum of w over those pairs): each card's share of the pairs
    # predicted from the sampled cards in hand, against its share in the samples.
    seen = {*LATE.kept, *LATE.thrown, LATE.starter, *LATE.played}
    unseen = [c for c in range(52) if c not in seen]
    w = opponent_weights("expert", LATE.my_crib)
    n = 36_000
    rests, pairs_ = hidden_samples("expert", n, 1)
    assert all(r not in p for r, p in zip(rests, pairs_, strict=True))
    index = {c: i for i, c in enumerate(unseen)}
    share = {}
    for c in set(rests):
        p = np.zeros(len(unseen))
        others = [x for x in unseen if x != c]
        weight = {(a, b): w[a // 4, b // 4, int(a % 4 == b % 4)]
                  for a, b in combinations(others, 2)}
        total = sum(weight.values())
        for (a, b), x in weight.items():
            p[index[a]] += x / total
            p[index[b]] += x / total
        share[c] = p
    want = sum(rests.count(c) * share[c] for c in share) / n
    got = np.array([sum(c in p for p in pairs_) for c in unseen]) / n
    se = np.sqrt(want * (1 - want) / n)
    assert np.all(np.abs(got - want) <= 5 * se), np.abs(got - want) / se
    # The weights matter: the expert shares differ from the uniform 2/41 by more than the
    # noise for some cards (else this test could not tell the two apart).
    assert np.max(np.abs(want - 2 / 41) / se) > 7


# --- the fingerprint of fuzzy rollouts ----------------------------------------------------

def test_fuzzy_rollouts_of_the_sampling_pegging_record_the_pegging_base() -> None:
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.formats.yaml_write import rulebase_to_yaml
    from fuzzeval.resources import find_rulebase

    # What the fingerprint is documented to hold for a rule base: the first 16 hex digits of
    # the SHA-256 of its canonical YAML; fuzzy rollouts read the shipped pegging base.
    canonical = rulebase_to_yaml(load_rulebase(find_rulebase("cribbage_pegging")))
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def prints(player: str, opponent: str = "exhaustive") -> object:
        spec = MatchSpec("cribbage", PlayerSpec.parse(player), PlayerSpec.parse(opponent), 2, 1)
        return json.loads(fingerprint(spec, GAME))

    fuzzy = "sampling:pegging=sampling,rollout=fuzzy"
    assert prints(fuzzy) == {"player": {"peg_rulebase": digest}}
    assert prints("exhaustive", fuzzy) == {"opponent": {"peg_rulebase": digest}}
    assert prints("sampling:rollout=fuzzy") == {"player": {"peg_rulebase": digest}}
    # Greedy rollouts, or no simulated pegging, read no file.
    assert prints("sampling:pegging=sampling") == {}
    assert prints("sampling:pegging=sampling,rollout=greedy") == {}
    assert prints("sampling:pegging=greedy") == {}


# --- the peg command: my score and theirs -------------------------------------------------

def peg_json(score: int, opponent_score: int) -> dict[str, object]:
    # They led the king of hearts; I hold 5C 9D KS QH, my crib. The five makes fifteen-two.
    args = ["cribbage", "peg", "5C", "9D", "KS", "QH", "--count", "KH", "--starter", "AS",
            "--thrown", "2C 2D", "--crib", "mine", "--score", str(score),
            "--opponent-score", str(opponent_score), "-p", "sampling:trials=40,stop=none",
            "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_peg_reads_my_score_as_mine_and_theirs_as_theirs() -> None:
    # At 119 the five's fifteen-two takes me to 121: the game is won at once, in every
    # simulated deal, and a won game is worth 1 near the end (a chance of winning).
    mine = peg_json(119, 0)
    rows = {row["card"]: row for row in mine["table"]}  # type: ignore[attr-defined]
    assert mine["lay"] == "5C"
    assert rows["5C"]["mean"] == 1.0 and rows["5C"]["sd"] == 0.0
    # The other way round, they are at 119 and I at 0: no card of mine can win this deal
    # (0 + 2 now is far from 121), and they win unless they score under 2 points in the
    # rest of the play and their hand (counted first: they are pone) -- no card of mine is
    # worth anywhere near a sure win.
    theirs = peg_json(0, 119)
    means = [row["mean"] for row in theirs["table"]]  # type: ignore[attr-defined]
    assert len(means) == 4 and max(means) < 0.5


# --- the peg command's table, worked by hand -----------------------------------------------

# Pone led 6C, I laid 5C, pone 4D: count 15, my turn with KC, 3D and 7S (tests of the peg
# command use this view and, until now, accepted either of 7S and 3D).
PEG = ["cribbage", "peg", "KC", "3D", "7S", "--count", "6C 5C 4D", "--mine", "5C",
       "--starter", "KH", "--crib", "mine", "--thrown", "9C 9D"]


def hand_worked_features() -> dict[str, dict[str, float]]:
    """Unseen by me: 52 less my four, their 6C and 4D and the starter: 45 cards (the two I
    threw count as unseen: the features do not use them). Ranks still unseen: four 2s, 8s
    and 9s, three 3s, 5s, 6s and 7s. A reply scores a run when the last cards laid, the
    reply among them, are distinct ranks in sequence.
    7S: 4-5-6-7, a run of four (4), count 22. Their replies: a 9 makes 31 (2); an 8 or a 3
      a run of five (5); a 6 the run 4-5-6-7 again (5 4 7 6: 4); a 7 a pair (2):
      (4*2 + 4*5 + 3*5 + 3*4 + 3*2) / 45 = 61/45.
    3D: 3-4-5-6, a run of four (4), count 18. A 2 or a 7 makes a run of five (5); a 6 the
      run 3-4-5-6 (5 4 3 6: 4); a 5 the run 3-4-5 (4 3 5: 3); a 3 a pair (2):
      (4*5 + 3*5 + 3*4 + 3*3 + 3*2) / 45 = 62/45.
    KC: count 25, nothing. Only a 6 fits (31 for 2): 3*2 / 45.
    Cards worth 4 or less left: the 3 after the 7 or the king, none after the 3."""
    return {
        "7S": {"points_now": 4, "reply_risk": 61 / 45, "count_after": 22, "card_value": 7,
               "pair_backup": 0, "low_cards_left": 1},
        "3D": {"points_now": 4, "reply_risk": 62 / 45, "count_after": 18, "card_value": 3,
               "pair_backup": 0, "low_cards_left": 0},
        "KC": {"points_now": 0, "reply_risk": 6 / 45, "count_after": 25, "card_value": 10,
               "pair_backup": 0, "low_cards_left": 1},
    }


def test_the_peg_tables_features_and_grades_are_the_hand_worked_ones() -> None:
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.resources import find_rulebase
    from tests.independent_engine import compile_plain

    want = hand_worked_features()
    for f in want.values():
        f["net_points"] = f["points_now"] - f["reply_risk"]
    # Greedy pegging lays the best net: 7S (4 - 61/45) over 3D (4 - 62/45).
    greedy = json.loads(CliRunner().invoke(app, [*PEG, "--json"]).stdout)
    assert greedy["lay"] == "7S"
    fuzzy = json.loads(CliRunner().invoke(app, [*PEG, "-p", "exhaustive:pegging=fuzzy",
                                                "--json"]).stdout)
    rows = {r["card"]: r for r in fuzzy["table"]}
    assert set(rows) == set(want)
    for card, f in want.items():
        for name, v in f.items():
            assert rows[card][name] == pytest.approx(v, abs=1e-6), (card, name)
    # The pegging base's grades of the hand-worked features, by the independent reference
    # engine; the command lays the best of them.
    rb = load_rulebase(find_rulebase("cribbage_pegging"))
    cards = list(want)
    x = [[want[c][name] for name in rb.input_names] for c in cards]
    grades = compile_plain(rb).grade(x)
    for card, g in zip(cards, grades, strict=True):
        assert rows[card]["grade"] == pytest.approx(g, abs=1e-6), card
    assert fuzzy["lay"] == cards[int(np.argmax(grades))]
    assert abs(np.sort(grades)[-1] - np.sort(grades)[-2]) > 1e-3  # a clear choice


# --- a pegging simulation's means: the deal's exact expectation ---------------------------

def test_a_pegging_simulation_ends_at_the_deals_exact_expectation() -> None:
    from tests.games.cribbage_reference import show_total

    # I deal. They led 9H, I laid KS (19), they QD (29); I said go (8D 7S 3H all worth
    # more than 2), they laid 2C for 31 (2). I led 8D, they laid 7C for fifteen (2). They
    # have laid all four; I hold 7S and 3H at 15.
    v = view("KS 8D 7S 3H", "9H KS QD 2C 8D 7C", "8D 7C", "7S 3H", thrown="5C 6C",
             starter="AS", my_crib=True)
    assert v.options == parse_cards("7S 3H")
    # 7S pairs their 7 (2) and I lay the 3 after it (25) for the last card (1): 3. The 3
    # first (18) scores nothing, nor the 7 after it (25, on a 3): the last card, 1.
    play = [3, 1]
    starter = parse_cards(["AS"])[0]
    mine = show_total(parse_cards("KS 8D 7S 3H"), starter, False)
    theirs = show_total(parse_cards("9H QD 2C 7C"), starter, False)
    # The crib: my 5C 6C and their two, any two of the 41 cards I have not seen (uniform
    # weights), every pair alike.
    seen = {*v.kept, *v.thrown, v.starter, *v.played}
    unseen = [c for c in range(52) if c not in seen]
    cribs = np.array([show_total((*parse_cards("5C 6C"), a, b), starter, True)
                      for a, b in combinations(unseen, 2)], dtype=np.float64)
    assert cribs.size == 41 * 40 // 2
    exact = [p + mine - theirs + cribs.mean() for p in play]
    n = 12_000  # 5 standard errors: 0.16 points (a crib's four-card flush is worth 0.22)
    values = S.pegging_simulator(v, "uniform")(n, np.random.default_rng(5))
    assert values.shape == (n, 2)
    assert np.all(values[:, 0] - values[:, 1] == 2)  # the same crib in each trial
    se = cribs.std() / np.sqrt(n)
    assert np.abs(values.mean(axis=0) - exact).max() < 5 * se, (values.mean(axis=0), exact)
    # Every trial's value is one of the crib's possible scores, shifted.
    assert set(values[:, 1] - (1 + mine - theirs)) <= set(cribs)
