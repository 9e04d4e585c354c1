"""Compiled pegging playouts for the sampling player: the rest of a deal's play, then the
show, for many sampled deals and every candidate card, with greedy pegging on both sides.

The rules are those of ``rules.py`` (gos, thirty-one, last card, the show in order, the
game ending the moment a score reaches 121) and the policy is ``policies.greedy``, move
for move (tests/games/test_cribbage_sampling.py plays the same deals through both). Seat 0
is the seat deciding. One kernel file: numba's cache tracks the file a function is in.

A deal is held in small arrays: ``hands`` (2, 4) cards still in hand (-1 past ``held``),
``seq`` the ranks of the current count, ``seen`` (2, 13) the cards of each rank that seat
has seen (its own four, the starter, the other's laid cards: greedy's "unseen" is 4 less).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels.jit import kernel

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
WIN = 121
#: what a won (lost) game is worth in a playout, in points: more than any deal can bring,
#: so a simulation never trades a win for points
WIN_VALUE = 121.0


def _peg_rank_points(seq: IntArray, n: int) -> int:
    """``scoring.peg_rank_points`` of the first ``n`` ranks of ``seq``."""
    if n == 0:
        return 0
    total = 0
    for i in range(n):
        total += min(seq[i] + 1, 10)
    points = 2 if total == 15 or total == 31 else 0
    last = seq[n - 1]
    same = 1
    while same < n and seq[n - 1 - same] == last:
        same += 1
    if same == 2:
        points += 2
    elif same == 3:
        points += 6
    elif same >= 4:
        points += 12
    for length in range(n, 2, -1):
        low = 99
        high = -1
        distinct = True
        for i in range(n - length, n):
            r = seq[i]
            low = min(low, r)
            high = max(high, r)
            for j in range(n - length, i):
                if seq[j] == r:
                    distinct = False
        if distinct and high - low == length - 1:
            points += length
            break
    return points


def _greedy(hands: IntArray, held: IntArray, seat: int, seq: IntArray, n: int, count: int,
            seen: IntArray, scratch: IntArray) -> int:
    """``policies.greedy``: the position in ``hands[seat]`` of the card to lay."""
    total_unseen = 0
    for r in range(13):
        total_unseen += 4 - seen[seat, r]
    total_unseen = max(total_unseen, 1)
    for i in range(n):
        scratch[i] = seq[i]
    best = -1
    best_score = -np.inf
    for i in range(held[seat]):
        card = hands[seat, i]
        v = min(card // 4 + 1, 10)
        if count + v > 31:
            continue
        scratch[n] = card // 4
        gain = peg_rank_points(scratch, n + 1)
        after = count + v
        m = n + 1
        if after == 31:
            after = 0
            m = 0
        room = 31 - after
        danger = 0.0
        for r in range(13):
            left = 4 - seen[seat, r]
            if left > 0 and min(r + 1, 10) <= room:
                scratch[m] = r
                danger += left * peg_rank_points(scratch, m + 1)
        scratch[n] = card // 4  # restore for the next option (a reset used slot 0)
        for j in range(n):
            scratch[j] = seq[j]
        score = gain - danger / total_unseen
        if score > best_score + 1e-12:
            best = i
            best_score = score
    return best


def _show_points(cards: IntArray, starter: int, crib: bool, table: npt.NDArray[np.int8]) -> int:
    """``scoring.show_points`` of four cards with the starter."""
    idx = (((cards[0] // 4 * 13 + cards[1] // 4) * 13 + cards[2] // 4) * 13
           + cards[3] // 4) * 13 + starter // 4
    points = int(table[idx])
    s = cards[0] % 4
    if cards[1] % 4 == s and cards[2] % 4 == s and cards[3] % 4 == s:
        if starter % 4 == s:
            points += 5
        elif not crib:
            points += 4
    for i in range(4):
        if cards[i] // 4 == 10 and cards[i] % 4 == starter % 4:
            points += 1
            break
    return points


def _lay(hands: IntArray, held: IntArray, seat: int, i: int, seq: IntArray, n: int,
         seen: IntArray) -> int:
    """Seat ``seat`` lays its card at position ``i``: out of its hand, seen by the other,
    onto the count; the card is returned."""
    card = int(hands[seat, i])
    for j in range(i, held[seat] - 1):
        hands[seat, j] = hands[seat, j + 1]
    held[seat] -= 1
    hands[seat, held[seat]] = -1
    seen[1 - seat, card // 4] += 1
    seq[n] = card // 4
    return card


def _ended(me: bool, ended: IntArray, wtab: FloatArray) -> float:
    """The worth of a game that has just ended (``ended[0]`` is set): a win or a loss,
    as points (+-WIN_VALUE) or, with a win table (``wtab.size > 0``), as 1 or 0."""
    ended[0] = 1
    if wtab.size > 0:
        return 1.0 if me else 0.0
    return WIN_VALUE if me else -WIN_VALUE


def _deal_over(pts: IntArray, scores: IntArray, dealer: int, wtab: FloatArray) -> float:
    """The worth of a deal the game goes on after: points less the opponent's, or the
    chance of winning from the new scores with the deal passed (a win table)."""
    if wtab.size == 0:
        return float(pts[0] - pts[1])
    return float(wtab[scores[0] + pts[0], scores[1] + pts[1], 1 if dealer == 1 else 0])


def _show_on(pts: IntArray, scores: IntArray, dealer: int, kept: IntArray, crib: IntArray,
             starter: int, table: npt.NDArray[np.int8], wtab: FloatArray,
             ended: IntArray) -> float:
    """The show after the play (pone's hand, the dealer's, the crib), added to ``pts``; the
    deal's worth to seat 0 as ``_play_on`` gives it."""
    pone = 1 - dealer
    for step in range(3):
        who = pone if step == 0 else dealer
        cards = crib if step == 2 else kept[who]
        pts[who] += show_points(cards, starter, step == 2, table)
        if scores[who] + pts[who] >= WIN:
            return ended_value(who == 0, ended, wtab)
    return deal_over(pts, scores, dealer, wtab)


def _play_on(hands: IntArray, held: IntArray, seq: IntArray, n: int, count: int, last: int,
             to_move: int, seen: IntArray, dealer: int, scores: IntArray, pts: IntArray,
             kept: IntArray, crib: IntArray, starter: int, table: npt.NDArray[np.int8],
             scratch: IntArray, show: bool, wtab: FloatArray, ended: IntArray) -> float:
    """Play the deal out greedily from just after a lay or from the start of the play
    (arrays are changed; ``pts`` holds the points since the decision), then the show
    (unless ``show`` is false: then the play's points less the opponent's); its worth to
    seat 0: ``_deal_over``, or ``_ended`` when the game ends in the deal."""
    while True:
        if held[0] == 0 and held[1] == 0:  # the end of the play, then the show
            if last >= 0:
                pts[last] += 1
                if scores[last] + pts[last] >= WIN:
                    return ended_value(last == 0, ended, wtab)
            if not show:
                return float(pts[0] - pts[1])
            return show_on(pts, scores, dealer, kept, crib, starter, table, wtab, ended)
        if can_lay(hands, held, to_move, count):
            seat = to_move
            i = greedy(hands, held, seat, seq, n, count, seen, scratch)
            card = lay(hands, held, seat, i, seq, n, seen)
            n += 1
            count += min(card // 4 + 1, 10)
            pts[seat] += peg_rank_points(seq, n)
            if scores[seat] + pts[seat] >= WIN:
                return ended_value(seat == 0, ended, wtab)
            last = seat
            to_move = 1 - seat
            if count == 31:  # scored above; the count starts again, no go point
                n = 0
                count = 0
                last = -1
            continue
        if can_lay(hands, held, 1 - to_move, count):  # "go": the other lays on
            to_move = 1 - to_move
            continue
        pts[last] += 1  # neither can lay: one for the go
        if scores[last] + pts[last] >= WIN:
            return ended_value(last == 0, ended, wtab)
        n = 0
        count = 0
        to_move = 1 - last
        last = -1


def _can_lay(hands: IntArray, held: IntArray, seat: int, count: int) -> bool:
    for i in range(held[seat]):  # noqa: SIM110 (a generator does not compile)
        if count + min(hands[seat, i] // 4 + 1, 10) <= 31:
            return True
    return False


def _sample_opponent(pool: IntArray, eligible: IntArray, need: int, pair_a: IntArray,
                     pair_b: IntArray, pair_w: FloatArray, u: FloatArray,
                     out: IntArray, crib2: IntArray, taken: IntArray) -> None:
    """The opponent's ``need`` cards still in hand, uniformly among ``eligible`` (positions
    in ``pool`` its gos allow), then its two thrown cards among the rest of ``pool``, a pair
    in proportion to ``pair_w`` (the selective bias); ``u`` holds need + 1 uniforms."""
    m = eligible.size
    order = eligible.copy()
    for k in range(need):  # a partial Fisher-Yates shuffle
        j = k + int(u[k] * (m - k))
        j = min(j, m - 1)
        order[k], order[j] = order[j], order[k]
        out[k] = pool[order[k]]
    taken[:] = 0
    for k in range(need):
        taken[order[k]] = 1
    total = 0.0
    for p in range(pair_a.size):
        if taken[pair_a[p]] == 0 and taken[pair_b[p]] == 0:
            total += pair_w[p]
    target = u[need] * total
    acc = 0.0
    chosen = -1
    for p in range(pair_a.size):
        if taken[pair_a[p]] == 0 and taken[pair_b[p]] == 0:
            acc += pair_w[p]
            chosen = p
            if acc > target:
                break
    crib2[0] = pool[pair_a[chosen]]
    crib2[1] = pool[pair_b[chosen]]


def _pegging_trials(u: FloatArray, options: IntArray, my_hand: IntArray, my_kept: IntArray,
                    my_thrown: IntArray, opp_laid: IntArray, pool: IntArray,
                    eligible: IntArray, pair_a: IntArray, pair_b: IntArray,
                    pair_w: FloatArray, seq0: IntArray, count0: int, seen0: IntArray,
                    dealer: int, scores: IntArray, starter: int,
                    table: npt.NDArray[np.int8], wtab: FloatArray) -> FloatArray:
    """Values (n, k) of laying each of ``options`` (cards of ``my_hand``) in n trials, each
    trial one sampled opponent hand and thrown pair (``u[t]``), the same for every option."""
    n_trials = u.shape[0]
    k = options.size
    need = 4 - opp_laid.size
    out = np.empty((n_trials, k))
    rest = np.empty(max(need, 1), dtype=np.int64)
    crib2 = np.empty(2, dtype=np.int64)
    taken = np.zeros(pool.size, dtype=np.int64)
    kept = np.empty((2, 4), dtype=np.int64)
    crib = np.empty(4, dtype=np.int64)
    hands = np.empty((2, 4), dtype=np.int64)
    held = np.empty(2, dtype=np.int64)
    seq = np.empty(16, dtype=np.int64)
    scratch = np.empty(16, dtype=np.int64)
    seen = np.empty((2, 13), dtype=np.int64)
    ended = np.zeros(1, dtype=np.int64)
    for t in range(n_trials):
        sample_opponent(pool, eligible, need, pair_a, pair_b, pair_w, u[t], rest, crib2,
                         taken)
        # The opponent's four, sorted, and its cards still in hand, sorted.
        for j in range(4):
            kept[0, j] = my_kept[j]
        for j in range(opp_laid.size):
            kept[1, j] = opp_laid[j]
        for j in range(need):
            kept[1, opp_laid.size + j] = rest[j]
        kept[1] = np.sort(kept[1])
        crib[0] = my_thrown[0]
        crib[1] = my_thrown[1]
        crib[2] = crib2[0]
        crib[3] = crib2[1]
        crib[:] = np.sort(crib)
        opp_rest = np.sort(rest[:need])
        for c in range(k):
            hands[:] = -1
            held[0] = my_hand.size
            held[1] = need
            for j in range(my_hand.size):
                hands[0, j] = my_hand[j]
            for j in range(need):
                hands[1, j] = opp_rest[j]
            seen[:] = seen0
            for j in range(4):
                seen[1, kept[1, j] // 4] += 1  # the opponent's own four
            for j in range(seq0.size):
                seq[j] = seq0[j]
            # Lay the option, then play the deal out.
            out[t, c] = after_lay(options[c], hands, held, seq, seq0.size, count0, seen,
                                  dealer, scores, kept, crib, starter, table, scratch, wtab,
                                  ended)
    return out


def _after_lay(card: int, hands: IntArray, held: IntArray, seq: IntArray, n: int,
               count: int, seen: IntArray, dealer: int, scores: IntArray, kept: IntArray,
               crib: IntArray, starter: int, table: npt.NDArray[np.int8],
               scratch: IntArray, wtab: FloatArray, ended: IntArray) -> float:
    """Seat 0 lays ``card`` (in its hand), then the deal is played out greedily."""
    i = 0
    while hands[0, i] != card:
        i += 1
    lay(hands, held, 0, i, seq, n, seen)
    n += 1
    count += min(card // 4 + 1, 10)
    pts = np.zeros(2, dtype=np.int64)
    pts[0] = peg_rank_points(seq, n)
    if scores[0] + pts[0] >= WIN:
        return ended_value(True, ended, wtab)
    last = 0
    if count == 31:
        n = 0
        count = 0
        last = -1
    return play_on(hands, held, seq, n, count, last, 1, seen, dealer, scores, pts, kept, crib,
                   starter, table, scratch, True, wtab, ended)


def _discard_trials(u: FloatArray, six: IntArray, throws: IntArray, pool: IntArray,
                    pair_a: IntArray, pair_b: IntArray, pair_cum: FloatArray, dealer: int,
                    scores: IntArray, table: npt.NDArray[np.int8],
                    wtab: FloatArray) -> FloatArray:
    """Values (n, 15, 2) of each throw of ``six`` (``throws``: positions, (15, 2)) in n
    trials: [..., 0] the whole deal (the play greedily, then the show), [..., 1] the play
    alone. Each trial (``u[t]``: 6 uniforms) draws the opponent's thrown pair among the
    pairs of ``pool`` (the 46 unseen cards; positions ``pair_a``, ``pair_b``, cumulative
    weights ``pair_cum``: the exhaustive evaluator's model of the opponent's throw), then
    its four from the rest and the starter, the same for every throw. His heels counts in
    both."""
    n_trials = u.shape[0]
    out = np.empty((n_trials, throws.shape[0], 2))
    order = np.empty(pool.size - 2, dtype=np.int64)
    opp_keep = np.empty(4, dtype=np.int64)
    kept = np.empty((2, 4), dtype=np.int64)
    crib = np.empty(4, dtype=np.int64)
    hands = np.empty((2, 4), dtype=np.int64)
    held = np.empty(2, dtype=np.int64)
    seq = np.empty(16, dtype=np.int64)
    scratch = np.empty(16, dtype=np.int64)
    seen = np.empty((2, 13), dtype=np.int64)
    pts = np.zeros(2, dtype=np.int64)
    ended = np.zeros(1, dtype=np.int64)
    for t in range(n_trials):
        p = np.searchsorted(pair_cum, u[t, 0] * pair_cum[-1], side="right")
        p = min(p, pair_cum.size - 1)
        thrown_a = pool[pair_a[p]]
        thrown_b = pool[pair_b[p]]
        m = 0
        for j in range(pool.size):
            if j != pair_a[p] and j != pair_b[p]:
                order[m] = pool[j]
                m += 1
        for k in range(5):  # the opponent's four, then the starter
            j = min(k + int(u[t, 1 + k] * (order.size - k)), order.size - 1)
            order[k], order[j] = order[j], order[k]
        opp_keep[:] = np.sort(order[:4])
        starter = order[4]
        for c in range(throws.shape[0]):
            m = 0
            for j in range(6):
                if j != throws[c, 0] and j != throws[c, 1]:
                    kept[0, m] = six[j]
                    m += 1
            kept[1] = opp_keep
            crib[0] = six[throws[c, 0]]
            crib[1] = six[throws[c, 1]]
            crib[2] = thrown_a
            crib[3] = thrown_b
            crib[:] = np.sort(crib)
            hands[:] = kept
            held[:] = 4
            seen[:] = 0
            for s in range(2):
                seen[s, starter // 4] += 1
                for j in range(4):
                    seen[s, kept[s, j] // 4] += 1
            pts[:] = 0
            if starter // 4 == 10:  # his heels: 2 to the dealer
                pts[dealer] = 2
            ended[0] = 0
            if scores[dealer] + pts[dealer] >= WIN:
                out[t, c, 0] = out[t, c, 1] = ended_value(dealer == 0, ended, wtab)
                continue
            play = play_on(hands, held, seq, 0, 0, -1, 1 - dealer, seen, dealer, scores, pts,
                           kept, crib, starter, table, scratch, False, wtab, ended)
            out[t, c, 1] = play
            if ended[0] == 1:
                out[t, c, 0] = play
            else:
                out[t, c, 0] = show_on(pts, scores, dealer, kept, crib, starter, table, wtab,
                                       ended)
    return out


peg_rank_points = kernel(_peg_rank_points)
greedy = kernel(_greedy)
show_points = kernel(_show_points)
ended_value = kernel(_ended)
deal_over = kernel(_deal_over)
show_on = kernel(_show_on)
can_lay = kernel(_can_lay)
lay = kernel(_lay)
play_on = kernel(_play_on)
sample_opponent = kernel(_sample_opponent)
after_lay = kernel(_after_lay)
pegging_trials = kernel(_pegging_trials)
discard_trials = kernel(_discard_trials)
