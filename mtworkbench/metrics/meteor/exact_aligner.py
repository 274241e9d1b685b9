"""The true optimum of Meteor's alignment objective (``aligner=exact``).

Among all one-to-one alignments built from the candidate matches: most
matches (each link counts 1, whatever its module), then fewest chunks, then
least total distance ``sum |ref - hyp|``. Meteor's beam search approximates
this (and its distance and match bookkeeping have quirks, see ``search``).

Dynamic programming over reference positions, left to right. The cost of a
path is the tuple (-matches, chunks, distance); tuples add component-wise and
compare lexicographically, which is compatible with addition, so keeping the
cheapest path per state is exact. A state is (hyp position the open chunk
would continue at, or -1; the hyp words used that later positions could still
want). Forgetting used words no later candidate touches keeps states few.
A pair proposed by several modules takes the first module's label.

Fewest chunks among maximum matchings is NP-hard in general (it contains the
minimum common string partition problem), so a segment with many copies of
the same words on both sides can need very many states. Each layer is capped
at ``max_states``; when the cap bites, the segment is solved instead as an
integer program (scipy's HiGHS): chunks = matches - continuations, where a
continuation is a link (i, j) whose (i-1, j-1) is also a link; first the
most continuations among maximum matchings, then the least distance among
those. Only if HiGHS fails too (time limit) is the capped DP's best returned
with ``proven`` False. On MLQE-PE et-en (2 x 1000 segment pairs, default
modules) the cap bites on 6 pairs; all 2000 end proven optimal.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from mtworkbench.metrics.meteor.matchers import Candidates

MAX_STATES = 2000
# Largest layer of the last search (diagnostics for benchmarks).
_peak = [0]


def last_peak_states() -> int:
    return _peak[0]


def exact_search(cands: Candidates, max_states: int = MAX_STATES) -> list[tuple[int, int, int]]:
    """An optimal alignment as (hyp, ref, slot) links sorted by reference position."""
    return exact_search_with_status(cands, max_states)[0]


def exact_search_with_status(
    cands: Candidates, max_states: int = MAX_STATES
) -> tuple[list[tuple[int, int, int]], bool]:
    """(links, proven): proven is False when the state cap forced a cut."""
    _peak[0] = 0
    n = len(cands.by_ref)
    # Per ref position: unique hyp positions with their first module slot.
    rows: list[list[tuple[int, int]]] = []
    for row in cands.by_ref:
        seen: dict[int, int] = {}
        for i, slot in row:
            seen.setdefault(i, slot)
        rows.append(sorted(seen.items()))
    # future[j]: bitmask of hyp positions some candidate at ref >= j uses.
    future = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        mask = future[j + 1]
        for i, _ in rows[j]:
            mask |= 1 << i
        future[j] = mask

    # suffix_max[j]: most matches ref positions >= j could still get (used words
    # ignored), so a state that cannot reach the global maximum is dropped.
    suffix_max = _suffix_max_matching(rows, n)
    target = suffix_max[0]

    # A quick pass with a tiny state cap gives an incumbent; the full pass then
    # drops every state whose cost so far (a lower bound: chunks and distance
    # only grow) is already worse than it. This keeps pathological segments fast.
    quick_cost, quick_back, quick_proven = _dp(rows, future, suffix_max, min(64, max_states), None)
    if quick_proven:
        return _unwind(quick_back), True
    bound = quick_cost[1:] if -quick_cost[0] == target else None
    cost, back, proven = _dp(rows, future, suffix_max, max_states, bound, give_up=True)
    if proven:
        if quick_cost < cost:
            back = quick_back  # the bound cut every path as good as the incumbent
        return _unwind(back), True
    solved = _integer_program(rows, target)
    if solved is not None:
        return solved, True
    cost, back, proven = _dp(rows, future, suffix_max, max_states, bound)
    if quick_cost < cost:
        back = quick_back
    return _unwind(back), False


_Cost = tuple[int, int, int]  # (-matches, chunks, distance)


def _dp(
    rows: list[list[tuple[int, int]]],
    future: list[int],
    suffix_max: list[int],
    max_states: int,
    bound: tuple[int, int] | None,
    give_up: bool = False,
) -> tuple[_Cost, object, bool]:
    """Forward DP over reference positions; returns (best cost, back pointer, proven).

    With ``give_up`` it stops as soon as a layer outgrows ``max_states``.
    """
    n = len(rows)
    target = suffix_max[0]
    proven = True
    run_sums = _suffix_run_sums(rows) if bound is not None else None
    dist_sums = _suffix_distance_sums(rows) if bound is not None else None
    # (end, used) -> (cost, back pointer); back pointer = (link, previous back pointer)
    layer: dict[tuple[int, int], tuple[_Cost, object]] = {(-1, 0): ((0, 0, 0), None)}
    for j in range(n):
        keep = future[j + 1]
        continues = {i for i, _ in rows[j + 1]} if j + 1 < n else set()
        nxt: dict[tuple[int, int], tuple[_Cost, object]] = {}
        need = target - suffix_max[j]
        for (end, used), (cost, back) in layer.items():
            m, c, d = cost
            if -m < need:
                continue  # can no longer reach the maximum number of matches
            if run_sums is not None and -m < target:
                # Lower bound on chunks still to open: the remaining matches need at
                # least this many runs of candidate-bearing reference positions
                # (an open chunk may continue into the first of them).
                still = target + m
                more = bisect_left(run_sums[j], still) + 1
                if end != -1:
                    more -= 1
                # ... and at least the ``still`` smallest distances left to pay.
                dmin = dist_sums[j][still - 1]  # type: ignore[index]
                if (c + more, d + dmin) > bound:  # type: ignore[operator]
                    continue
            for i, slot in rows[j]:
                if used >> i & 1:
                    continue
                new_cost = (m - 1, c + (0 if i == end else 1), d + abs(j - i))
                if bound is not None and new_cost[1:] > bound:
                    continue
                new_end = i + 1 if (i + 1) in continues else -1
                key = (new_end, (used | 1 << i) & keep)
                old = nxt.get(key)
                if old is None or new_cost < old[0]:
                    nxt[key] = (new_cost, ((i, j, slot), back))
            if bound is not None and -m < target and (c + 1, d) > bound:
                continue  # skipping leaves a new chunk to open later: too costly
            key = (-1, used & keep)
            old = nxt.get(key)
            if old is None or cost < old[0]:
                nxt[key] = (cost, back)
        _peak[0] = max(_peak[0], len(nxt))
        if len(nxt) > max_states:
            proven = False
            if give_up:
                return (1, 0, 0), None, False
            nxt = dict(sorted(nxt.items(), key=lambda kv: kv[1][0])[:max_states])
        layer = nxt
    if not layer:  # the bound cut every path: the caller keeps its incumbent
        return (1, 0, 0), None, proven
    cost, back = min(layer.values(), key=lambda v: v[0])
    if -cost[0] != target:
        proven = False  # only possible when the cap dropped states
    return cost, back, proven


def _integer_program(
    rows: list[list[tuple[int, int]]], target: int, time_limit: float = 20.0
) -> list[tuple[int, int, int]] | None:
    """Exact lexicographic optimum by two integer programs; None if HiGHS gives up."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import lil_matrix

    edges = [(i, j, slot) for j, row in enumerate(rows) for i, slot in row]
    index = {(i, j): k for k, (i, j, _) in enumerate(edges)}
    pairs = [(index[(i - 1, j - 1)], k) for k, (i, j, _) in enumerate(edges) if (i - 1, j - 1) in index]
    ne, npairs = len(edges), len(pairs)
    nvar = ne + npairs
    hyps = sorted({i for i, _, _ in edges})
    hyp_row = {i: r for r, i in enumerate(hyps)}
    nrows = len(hyps) + len(rows) + 2 * npairs + 1
    a = lil_matrix((nrows, nvar))
    lo = np.full(nrows, -np.inf)
    hi = np.zeros(nrows)
    for k, (i, j, _) in enumerate(edges):
        a[hyp_row[i], k] = 1  # each hyp word at most once
        a[len(hyps) + j, k] = 1  # each ref word at most once
    hi[: len(hyps) + len(rows)] = 1
    base = len(hyps) + len(rows)
    for p, (prev, cur) in enumerate(pairs):  # y_p <= x_prev, y_p <= x_cur
        for r, x in ((base + 2 * p, prev), (base + 2 * p + 1, cur)):
            a[r, ne + p] = 1
            a[r, x] = -1
    last = nrows - 1
    a[last, :ne] = 1  # exactly the maximum number of matches
    lo[last] = hi[last] = target
    integrality = np.ones(nvar)
    bounds = Bounds(0, 1)
    options = {"mip_rel_gap": 0.0, "time_limit": time_limit}
    # 1. most continuations (= fewest chunks)
    cost = np.zeros(nvar)
    cost[ne:] = -1
    first = milp(cost, constraints=LinearConstraint(a.tocsr(), lo, hi),
                 integrality=integrality, bounds=bounds, options=options)
    if first.status != 0:
        return None
    best_continuations = round(-first.fun)
    # 2. least distance with that many continuations
    extra = lil_matrix((1, nvar))
    extra[0, ne:] = 1
    cost = np.zeros(nvar)
    cost[:ne] = [abs(j - i) for i, j, _ in edges]
    second = milp(
        cost,
        constraints=[LinearConstraint(a.tocsr(), lo, hi),
                     LinearConstraint(extra.tocsr(), best_continuations, np.inf)],
        integrality=integrality, bounds=bounds, options=options,
    )
    if second.status != 0:
        return None
    chosen = [edges[k] for k in range(ne) if second.x[k] > 0.5]
    return sorted(chosen, key=lambda e: e[1])


def _suffix_run_sums(rows: list[list[tuple[int, int]]]) -> list[list[int]]:
    """For each j: prefix sums of the lengths, longest first, of the maximal runs of
    reference positions >= j that have candidates (a chunk never spans a gap)."""
    n = len(rows)
    out: list[list[int]] = [[] for _ in range(n + 1)]
    for j in range(n):
        runs: list[int] = []
        length = 0
        for k in range(j, n):
            if rows[k]:
                length += 1
            elif length:
                runs.append(length)
                length = 0
        if length:
            runs.append(length)
        runs.sort(reverse=True)
        total = 0
        sums = []
        for r in runs:
            total += r
            sums.append(total)
        out[j] = sums
    return out


def _suffix_distance_sums(rows: list[list[tuple[int, int]]]) -> list[list[int]]:
    """For each j: prefix sums of the smallest ``|ref - hyp|`` of each reference
    position >= j that has candidates, smallest first."""
    n = len(rows)
    nearest = [min(abs(k - i) for i, _ in rows[k]) if rows[k] else None for k in range(n)]
    out: list[list[int]] = [[] for _ in range(n + 1)]
    for j in range(n):
        total = 0
        sums = []
        for v in sorted(v for v in nearest[j:] if v is not None):
            total += v
            sums.append(total)
        out[j] = sums
    return out


def _unwind(back: Any) -> list[tuple[int, int, int]]:
    """Links from a back-pointer chain ``(link, (link, (... None)))``."""
    links: list[tuple[int, int, int]] = []
    while back is not None:
        link: tuple[int, int, int]
        link, back = back
        links.append(link)
    links.reverse()
    return links


def _suffix_max_matching(rows: list[list[tuple[int, int]]], n: int) -> list[int]:
    """Maximum bipartite matching size of ref positions j..n-1, for every j.

    Adding one ref vertex raises the maximum by at most one, found by one
    augmenting-path search from it (Kuhn), so all suffixes cost one pass.
    """
    hyp_of: dict[int, int] = {}  # hyp position -> ref position it is matched to
    sizes = [0] * (n + 1)

    def augment(j: int, seen: set[int]) -> bool:
        for i, _ in rows[j]:
            if i in seen:
                continue
            seen.add(i)
            if i not in hyp_of or augment(hyp_of[i], seen):
                hyp_of[i] = j
                return True
        return False

    for j in range(n - 1, -1, -1):
        sizes[j] = sizes[j + 1] + (1 if augment(j, set()) else 0)
    return sizes


def objective(links: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    """(matches, chunks, distance) of an alignment, links sorted by reference position."""
    from mtworkbench.metrics.meteor.scoring import count_chunks

    return (len(links), count_chunks(links), sum(abs(j - i) for i, j, _ in links))
