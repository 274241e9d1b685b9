"""Meteor 1.x's alignment search, step by step, quirks included.

1. Definite matches: a reference position with exactly one candidate whose two
   words are each touched by no other candidate is fixed before the search.
2. Beam search (beam 40) over reference positions 0..n. A path carries
   ``matches`` (an int), ``chunks``, ``distance``, the hyp end of its open
   chunk (or -1) and the hyp words it used. At each position the paths are
   sorted stably (more matches, fewer chunks, smaller distance) and only the
   first 40 are expanded.
3. The first path after position n is the alignment.

Quirks reproduced on purpose (they change Meteor's numbers):

- ``matches += weight`` is Java ``int += double``: the sum is truncated, and
  with search weights exact 1.0 / others 0.5 a one-word stem or synonym match
  adds nothing to ``matches`` (it still uses the words and may open a chunk);
- distance: the path for the k-th candidate tried at a position is copied from
  its parent BEFORE that candidate's own ``|ref - hyp|`` is added to the
  parent, so it carries candidates 1..k-1's distances, never its own; the
  "skip" path (the parent itself) carries all of them. Fixed matches add their
  own distance normally.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from mtworkbench.metrics.meteor.matchers import Candidates

BEAM_SIZE = 40

# A path is a tuple, cheap to copy:
# (sort_key, matches, chunks, distance, open_end, used_hyp_bitmask, links)
# ``links`` is a cons list (ref, hyp, slot, previous) so paths share their tails.
# ``sort_key`` packs (-matches, chunks, distance) into one int so the stable
# sort compares plain ints: key = (-matches * (n + 2) + chunks) * D + distance,
# with D larger than any distance a path can carry (each candidate's distance
# is added at most once along a path).
_Path = tuple


def definite_matches(cands: Candidates) -> list[tuple[int, int] | None]:
    """Per reference position: the fixed (hyp, slot), or None."""
    fixed: list[tuple[int, int] | None] = [None] * len(cands.by_ref)
    for j, row in enumerate(cands.by_ref):
        if len(row) == 1:
            i, slot = row[0]
            if cands.ref_coverage[j] == 1 and cands.hyp_coverage[i] == 1:
                fixed[j] = (i, slot)
    return fixed


def meteor_search(
    cands: Candidates,
    search_weights: Sequence[float],
    beam_size: int = BEAM_SIZE,
) -> list[tuple[int, int, int]]:
    """The alignment Meteor 1.x chooses, as (hyp, ref, slot) links sorted by ref."""
    n = len(cands.by_ref)
    fixed = definite_matches(cands)
    used0 = 0
    for f in fixed:
        if f is not None:
            used0 |= 1 << f[0]
    D = 1 + sum(abs(j - i) for j, row in enumerate(cands.by_ref) for i, _ in row)
    C = (n + 2) * D

    # key(m, c, d) = -m * C + c * D + d, written out below: a call per path costs
    # an eighth of the search

    first = itemgetter(0)
    paths: list[_Path] = [(0, 0, 0, 0, -1, used0, None)]
    for j in range(n + 1):
        if len(paths) > 1:
            paths.sort(key=first)  # stable: equal keys keep their order
        beam = paths[:beam_size]
        nxt: list[_Path] = []
        if j == n:
            for _, m, c, d, end, used, links in beam:
                if end != -1:
                    c += 1
                nxt.append((-m * C + c * D + d, m, c, d, end, used, links))
            paths = nxt
            break
        f = fixed[j]
        if f is not None:
            i, slot = f
            w = search_weights[slot]
            for _, m, c, d, end, used, links in beam:
                # Java ``int += double``: the sum is truncated.
                m = int(m + w)
                if end != -1 and i != end:
                    c += 1
                d += abs(j - i)
                nxt.append((-m * C + c * D + d, m, c, d, i + 1, used, (j, i, slot, links)))
            paths = nxt
            continue
        row = cands.by_ref[j]
        for _, m, c, d, end, used, links in beam:
            for i, slot in row:
                if used >> i & 1:
                    continue
                m2 = int(m + search_weights[slot])
                c2 = c + 1 if (end != -1 and i != end) else c
                # The new path is copied before this candidate's distance is
                # added to the parent (Meteor's quirk): it carries ``d`` as is.
                nxt.append((-m2 * C + c2 * D + d, m2, c2, d, i + 1, used | 1 << i, (j, i, slot, links)))
                d += abs(j - i)
            # Skip position j: the parent itself, closing its open chunk.
            if end != -1:
                c += 1
            nxt.append((-m * C + c * D + d, m, c, d, -1, used, links))
        paths = nxt
    paths.sort(key=first)
    best = paths[0][6]
    out: list[tuple[int, int, int]] = []
    while best is not None:
        j, i, slot, best = best
        out.append((i, j, slot))
    out.reverse()
    return out
