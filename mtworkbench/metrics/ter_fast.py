"""Translation edit rate of one tokenised segment pair, equal to sacrebleu 2.6's
``lib_ter.translation_edit_rate`` edit for edit, and far faster.

sacrebleu's algorithm (a Tercom variant), restated:

1. The edit cost of a hypothesis is a Levenshtein distance restricted to a beam:
   row ``i`` (hypothesis word ``i``) only fills columns ``j`` with
   ``floor(i * n_ref / n_hyp) - w <= j < floor(i * n_ref / n_hyp) + w``, the last
   row every column; cells outside are infinite. ``w`` is BEAM_WIDTH (25), or
   ``ceil(ratio / 2 + 25)`` when the length ratio is over 50.
2. A trace of that matrix, breaking ties match/substitution first, then the
   step that consumes a hypothesis word, then the one that consumes a reference
   word, gives an alignment and the words in error on each side.
3. Shift candidates: every hypothesis span of 1..MAX_SHIFT_SIZE words equal to a
   reference span starting at most MAX_SHIFT_DIST words away, with an error on
   both sides and not already aligned into itself, moved before each position
   the alignment maps the reference span (or its predecessor) to. The best
   candidate by (cost reduction, span length, earliest start, earliest target)
   is applied while it reduces the cost; after MAX_SHIFT_CANDIDATES candidates
   in all, the search stops without applying the last round's best.
4. Edits = shifts + cost of the final hypothesis.

What makes it fast, without changing a single count:

- Words are ints (interned by the caller), so comparisons and hashing are cheap.
- The beam cannot bind when the plain Levenshtein distance ``d`` is at most
  ``2 (w - 3) - |n_ref - n_hyp|``: every cell of any optimal path then lies
  within ``(d + |n_ref - n_hyp|) / 2`` (+2 for the floor and float rounding) of
  the pseudo-diagonal, so the beam cost equals ``d``, and the beam matrix equals
  the plain one on every optimal path, so the trace is the same too. ``d``
  comes from rapidfuzz (C).
- A candidate only matters if it reduces the cost (a best reduction <= 0 stops
  the search either way), and plain distance is a lower bound of the beam
  cost; so a candidate whose upper-bounded rank cannot beat the best so far is
  counted but not costed, and the rest cost one rapidfuzz call each. Beyond
  that bound, the lower bound is still exact if rapidfuzz's optimal
  alignment stays inside the beam; only otherwise does the beam DP run in
  Python, from the first row the shift changes.
- The trace of a non-binding beam comes from a bit-parallel Levenshtein
  (Hyyroe 2001) over Python ints, one big-int step per hypothesis word, and a
  walk back that reads cell values from the stored bit vectors.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from typing import cast

from rapidfuzz.distance import Levenshtein

BEAM_WIDTH = 25
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000
_INF = 10**16

# Operations of the edit matrix, as sacrebleu's trace names them while it
# rewrites the hypothesis into the reference: DIAG = match or substitution,
# HYP = the step consumes a hypothesis word, REF = it consumes a reference word.
_DIAG, _HYP, _REF, _UNDEF = 0, 1, 2, 3


def translation_edits(hyp: Sequence[int], ref: Sequence[int]) -> int:
    """The number of TER edits (shifts + beam edit cost) turning ``hyp`` into ``ref``."""
    n_ref = len(ref)
    if n_ref == 0:
        return len(hyp)
    return _Search(ref, len(hyp)).run(list(hyp))


class _Search:
    """The shift search for one reference and hypotheses of one length (shifts
    keep the length, so the beam geometry is fixed)."""

    def __init__(self, ref: Sequence[int], n_hyp: int) -> None:
        self.ref = ref = list(ref)
        self.n_ref = n_ref = len(ref)
        self.n_hyp = n_hyp
        ratio = n_ref / n_hyp if n_hyp else 1
        self.beam = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
        # The largest plain distance for which the beam provably cannot bind. A
        # cell (i, j) on an optimal path of cost d has |j - i| + |dn - (j - i)| <= d
        # (dn = n_ref - n_hyp), so it lies within (d + |dn|) / 2 of the line
        # j = i * ratio; 2 more for floor() and float rounding must stay in the beam.
        self.free = 2 * (self.beam - 3) - abs(n_ref - n_hyp)
        bands = [(0, n_ref + 1)]
        for i in range(1, n_hyp + 1):
            diag = math.floor(i * ratio)  # sacrebleu's float arithmetic, on purpose
            lo = max(0, diag - self.beam)
            hi = n_ref + 1 if i == n_hyp else min(n_ref + 1, diag + self.beam)
            bands.append((lo, hi))
        self.bands = bands
        positions: dict[int, list[int]] = {}
        for j, word in enumerate(ref):
            positions.setdefault(word, []).append(j)
        self.positions = positions
        masks: dict[int, int] = {}
        for j, word in enumerate(ref):
            masks[word] = masks.get(word, 0) | (1 << j)
        self.masks = masks
        self.checked = 0
        self.rows: list[list[int]] | None = None  # beam cost rows of the current hypothesis

    # --- the outer loop -----------------------------------------------------------
    def run(self, words: list[int]) -> int:
        shifts = 0
        while True:
            cost, shifted = self._best_shift(words)
            if self.checked >= MAX_SHIFT_CANDIDATES or shifted is None:
                return shifts + cost
            shifts += 1
            words = shifted

    # --- one round of the shift search -------------------------------------------
    def _best_shift(self, words: list[int]) -> tuple[int, list[int] | None]:
        """(cost of ``words``, the best cost-reducing shift of it or None)."""
        ref = self.ref
        plain = Levenshtein.distance(words, ref)
        if plain <= self.free:
            pre = plain
            self.rows = None
            align, ref_err, hyp_err = self._plain_alignment(words, plain)
        else:
            pre, align, ref_err, hyp_err = self._beam_alignment(words)
        if pre == 0:
            return pre, None  # nothing can reduce it; sacrebleu finds no candidate either
        hyp_cum = [0]
        for e in hyp_err:
            hyp_cum.append(hyp_cum[-1] + e)
        ref_cum = [0]
        for e in ref_err:
            ref_cum.append(ref_cum[-1] + e)

        candidates = self._candidates(words, align, hyp_cum, ref_cum)
        if candidates is None:
            return pre, None  # the budget runs out this round: its best is never applied
        free = self.free
        distance = Levenshtein.distance
        # rank of the best candidate so far; a reduction of 0 is as good as none
        # (the search stops either way), so the bar starts above every such rank
        best_key: tuple[int, int, int, int] = (0, MAX_SHIFT_SIZE + 1, 0, 0)
        best_words: list[int] | None = None
        for start_h, length, target in candidates:
            end_h = start_h + length
            # the words after the shift (sacrebleu's three cases, same slicing)
            if target < start_h:
                shifted = words[:target] + words[start_h:end_h] + words[target:start_h] + words[end_h:]
            elif target > end_h:
                shifted = words[:start_h] + words[end_h:target] + words[start_h:end_h] + words[target:]
            else:
                shifted = (
                    words[:start_h] + words[end_h : length + target]
                    + words[start_h:end_h] + words[length + target :]
                )
            lower = distance(shifted, ref)
            key = (pre - lower, length, -start_h, -target)
            if key <= best_key:
                continue  # even at its lower-bound cost it would not win
            if lower > free and not self._plain_path_in_beam(shifted):
                key = (pre - self._beam_cost(shifted, min(start_h, target)), length, -start_h, -target)
                if key <= best_key:
                    continue
            best_key, best_words = key, shifted
        return pre, best_words

    def _candidates(
        self, words: list[int], align: list[int], hyp_cum: list[int], ref_cum: list[int]
    ) -> list[tuple[int, int, int]] | None:
        """The round's shift candidates (start, length, target) in sacrebleu's
        order, counted into ``self.checked``; None when the count reaches
        MAX_SHIFT_CANDIDATES (the search then ends without applying this round's
        best, so no candidate need be costed)."""
        ref = self.ref
        n_hyp, n_ref = self.n_hyp, self.n_ref
        positions = self.positions
        checked = self.checked
        out: list[tuple[int, int, int]] = []
        for start_h in range(n_hyp):
            where = positions.get(words[start_h])
            if where is None:
                continue
            first = bisect_left(where, start_h - MAX_SHIFT_DIST)
            for k in range(first, len(where)):
                start_r = where[k]
                if start_r - start_h > MAX_SHIFT_DIST:
                    break
                # lengths 1..L of the equal run from (start_h, start_r)
                limit = min(MAX_SHIFT_SIZE, n_hyp - start_h, n_ref - start_r)
                run = 1
                while run < limit and words[start_h + run] == ref[start_r + run]:
                    run += 1
                for length in range(1, run + 1):
                    if hyp_cum[start_h + length] == hyp_cum[start_h]:
                        continue  # the hypothesis span is all correct
                    if ref_cum[start_r + length] == ref_cum[start_r]:
                        continue  # the reference span is matched already
                    if start_h <= align[start_r] < start_h + length:
                        continue  # would shift within itself
                    prev_target = -1
                    for offset in range(-1, length):
                        target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                        if target == prev_target:
                            continue
                        prev_target = target
                        out.append((start_h, length, target))
                    # sacrebleu checks its budget after each (start, ref start, length)
                    if checked + len(out) >= MAX_SHIFT_CANDIDATES:
                        self.checked = checked + len(out)
                        return None
        self.checked = checked + len(out)
        return out

    # --- alignment from a plain Levenshtein matrix (beam cannot bind) ------------
    def _plain_alignment(self, words: list[int], dist: int) -> tuple[list[int], list[int], list[int]]:
        """The trace of the plain matrix, read back from bit-parallel columns.

        Row ``i`` (after ``i`` hypothesis words) is kept as two bit vectors over
        the reference: bit ``j-1`` of ``vp[i]`` / ``vn[i]`` is set when
        ``D[i][j] - D[i][j-1]`` is +1 / -1; ``D[i][0] = i``.
        """
        n_ref = self.n_ref
        full = (1 << n_ref) - 1
        masks = self.masks
        pv, mv = full, 0
        vps, vns = [pv], [mv]
        for word in words:
            eq = masks.get(word, 0)
            xv = eq | mv
            xh = (((eq & pv) + pv) ^ pv) | eq
            ph = mv | ~(xh | pv)
            mh = pv & xh
            ph = (ph << 1) | 1
            mh <<= 1
            pv = (mh | ~(xv | ph)) & full
            mv = ph & xv & full
            vps.append(pv)
            vns.append(mv)

        def cell(i: int, j: int) -> int:
            low = (1 << j) - 1
            return i + (vps[i] & low).bit_count() - (vns[i] & low).bit_count()

        ref = self.ref
        i, j, value = len(words), n_ref, dist
        steps: list[int] = []
        while i > 0 or j > 0:
            if i > 0 and j > 0:
                up = cell(i - 1, j)
                bit = 1 << (j - 1)
                diag = up - (1 if vps[i - 1] & bit else -1 if vns[i - 1] & bit else 0)
                if diag + (words[i - 1] != ref[j - 1]) == value:
                    steps.append(_DIAG)
                    i, j, value = i - 1, j - 1, diag
                elif up + 1 == value:
                    steps.append(_HYP)
                    i, value = i - 1, up
                else:
                    steps.append(_REF)
                    j, value = j - 1, value - 1
            elif i > 0:
                steps.append(_HYP)
                i, value = i - 1, value - 1
            else:
                steps.append(_REF)
                j, value = j - 1, value - 1
        steps.reverse()
        return _alignment(steps, words, ref)

    # --- the beam matrix itself (where it can bind) --------------------------------
    def _beam_alignment(self, words: list[int]) -> tuple[int, list[int], list[int], list[int]]:
        """Beam cost and trace of ``words``, sacrebleu's tie-breaking; keeps the
        cost rows so candidates can start from the first row they change."""
        ref = self.ref
        bands = self.bands
        rows: list[list[int]] = [list(range(self.n_ref + 1))]
        ops: list[list[int]] = [[_REF] * (self.n_ref + 1)]
        for i in range(1, len(words) + 1):
            plo = bands[i - 1][0]
            prev = rows[-1]
            n_prev = len(prev)
            lo, hi = bands[i]
            word = words[i - 1]
            row: list[int] = []
            op_row: list[int] = []
            left = _INF
            for j in range(lo, hi):
                k = j - plo
                up = prev[k] + 1 if 0 <= k < n_prev else _INF + 1
                if j == 0:
                    best, op = up, _HYP
                else:
                    best, op = _INF, _UNDEF
                    if 1 <= k <= n_prev:
                        diag = prev[k - 1] + (word != ref[j - 1])
                        if diag < best:
                            best, op = diag, _DIAG
                    if up < best:
                        best, op = up, _HYP
                    if left + 1 < best:
                        best, op = left + 1, _REF
                row.append(best)
                op_row.append(op)
                left = best
            rows.append(row)
            ops.append(op_row)
        self.rows = rows

        i, j = len(words), self.n_ref
        cost = rows[i][j - bands[i][0]]
        steps = []
        while i > 0 or j > 0:
            op = ops[i][j - bands[i][0]]
            steps.append(op)
            if op == _DIAG:
                i, j = i - 1, j - 1
            elif op == _HYP:
                i -= 1
            elif op == _REF:
                j -= 1
            else:  # pragma: no cover - the beam always connects (see BEAM_WIDTH)
                raise AssertionError("TER trace left the beam")
        steps.reverse()
        return (cost, *_alignment(steps, words, ref))

    def _plain_path_in_beam(self, words: list[int]) -> bool:
        """Whether one optimal plain alignment (rapidfuzz's) stays inside the
        beam: then the beam cost equals the plain distance (the beam can only
        remove paths, and this one is still there)."""
        bands = self.bands
        i = j = 0
        # (tag, source position, target position); rapidfuzz's stub types the items loosely
        ops = cast(list[tuple[str, int, int]], Levenshtein.editops(words, self.ref).as_list())
        for tag, src, _ in ops:
            while i < src:  # equal words up to the edit
                i += 1
                j += 1
                lo, hi = bands[i]
                if not lo <= j < hi:
                    return False
            if tag == "replace":
                i += 1
                j += 1
            elif tag == "delete":  # a hypothesis word
                i += 1
            else:  # "insert": a reference word
                j += 1
            lo, hi = bands[i]
            if not lo <= j < hi:
                return False
        while i < self.n_hyp:
            i += 1
            j += 1
            lo, hi = bands[i]
            if not lo <= j < hi:
                return False
        return True

    def _beam_cost(self, words: list[int], start: int) -> int:
        """Beam cost of ``words``, whose first ``start`` words equal the current
        hypothesis's (so its rows up to ``start`` are reused)."""
        assert self.rows is not None
        ref = self.ref
        bands = self.bands
        prev = self.rows[start]
        for i in range(start + 1, len(words) + 1):
            plo = bands[i - 1][0]
            n_prev = len(prev)
            lo, hi = bands[i]
            word = words[i - 1]
            row: list[int] = []
            left = _INF
            for j in range(lo, hi):
                k = j - plo
                best = prev[k] + 1 if 0 <= k < n_prev else _INF
                if j:
                    if 1 <= k <= n_prev:
                        diag = prev[k - 1] + (word != ref[j - 1])
                        if diag < best:
                            best = diag
                    if left + 1 < best:
                        best = left + 1
                if best > _INF:
                    best = _INF
                row.append(best)
                left = best
            prev = row
        return prev[self.n_ref - bands[len(words)][0]]


def _alignment(steps: list[int], words: Sequence[int], ref: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    """sacrebleu's alignment of a trace: for each reference position the
    hypothesis position it aligns to (-1 before the first), and 0/1 error flags
    for every reference and hypothesis word."""
    align: list[int] = []
    ref_err: list[int] = []
    hyp_err: list[int] = []
    pos_h = pos_r = -1
    for op in steps:
        if op == _DIAG:
            pos_h += 1
            pos_r += 1
            err = int(words[pos_h] != ref[pos_r])
            align.append(pos_h)
            hyp_err.append(err)
            ref_err.append(err)
        elif op == _HYP:
            pos_h += 1
            hyp_err.append(1)
        else:
            pos_r += 1
            align.append(pos_h)
            ref_err.append(1)
    return align, ref_err, hyp_err
