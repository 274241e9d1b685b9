"""The GTM bitext grid and GTM 1.4's greedy run selection (package-private).

The grid has the hypothesis tokens on one axis and all references, each
followed by a barrier cell that never matches, on the other. A *hit* is a cell
whose two tokens are equal. Hits form maximal diagonal *runs*; GTM 1.4's
candidate list is every sub-run (start cell, length) of every maximal run,
ordered longer first and then by the larger key ``i * X + j`` (X = width of the
reference axis), and a greedy walk takes each candidate whose cells are still
free until the budget ``min(|hyp|, mean reference length)`` is spent.

Enumerating and sorting all sub-runs costs O(sum of squared run lengths).
:func:`greedy_select` visits the same candidates in the same order without
listing them: per length level it keeps, for every maximal run that can still
hold a free window of that length, a pointer to its next window from the top,
and a heap merges the runs by key. A window found blocked skips every window
that contains the blocking cell, so each level touches each cell of a run at
most once, and a run whose longest free stretch is shorter than the level
waits in a bucket until that level comes.
"""

from __future__ import annotations

import heapq
import math
import re
from dataclasses import dataclass, field

# Java's String.trim() drops every char <= U+0020 at both ends; StringTokenizer's
# default delimiters are exactly space, tab, LF, CR and form feed.
_JAVA_TRIM = "".join(chr(c) for c in range(0x21))
_JAVA_DELIMS = re.compile(r"[ \t\n\r\f]+")


# The characters str.split() splits on that StringTokenizer keeps inside tokens
# (every str.isspace() character but its five delimiters; a test checks the list).
PYTHON_ONLY_SPACE = "\x0b\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_PYTHON_ONLY_SPACE = re.compile(f"[{PYTHON_ONLY_SPACE}]")


def gtm_tokens(text: str) -> list[str]:
    """GTM 1.4's tokens: trim as Java does, split on runs of `` \\t\\n\\r\\f`` only."""
    text = text.strip(_JAVA_TRIM)
    if not text:
        return []
    if _PYTHON_ONLY_SPACE.search(text) is None:
        return text.split()  # the same split here, in C, without the list of separators
    return [t for t in _JAVA_DELIMS.split(text) if t]


@dataclass
class Grid:
    """Hits of one segment as maximal diagonal runs.

    Run r covers cells ``(run_i[r] + t, run_j[r] + t)`` for ``t < run_len[r]``.
    """

    n_hyp: int
    width: int  # X: concatenated reference tokens plus one barrier per reference
    barriers: tuple[int, ...]
    run_i: list[int] = field(default_factory=list)
    run_j: list[int] = field(default_factory=list)
    run_len: list[int] = field(default_factory=list)

    @property
    def n_hits(self) -> int:
        return sum(self.run_len)


# Above this many hits the grid is built with numpy (one vectorised pass)
# rather than by walking the hits in Python.
_VECTOR_HITS = 20_000
# The most hits (equal token pairs) one segment may have: the grid keeps only its
# hits, so a long segment of mostly different words costs memory in proportion to
# its length; a long repetitive one (every token equal) has a quadratic number of
# hits and is refused with this limit named rather than exhausting memory.
MAX_HITS = 5_000_000


class GridTooLarge(ValueError):
    """A segment with more hits than ``MAX_HITS``."""

    def __init__(self, hits: int, n_hyp: int, width: int) -> None:
        self.hits = hits
        super().__init__(
            f"{hits:,} equal token pairs between a {n_hyp:,}-token hypothesis and {width - 1:,} reference "
            f"tokens; GTM handles at most {MAX_HITS:,} a segment (split the segment)"
        )


def build_grid(hyp: list[str], refs: list[list[str]]) -> Grid:
    """The runs of hits between ``hyp`` and the references concatenated with barriers.

    Only the hits are visited (never the hyp x reference cells), so time and memory
    grow with the number of hits; more than ``MAX_HITS`` raises ``GridTooLarge``."""
    positions, j, barriers, hits = _positions(hyp, refs)
    if hits > MAX_HITS:
        raise GridTooLarge(hits, len(hyp), j)
    if hits > _VECTOR_HITS:
        return _build_grid_numpy(hyp, refs)
    grid = Grid(n_hyp=len(hyp), width=j, barriers=tuple(barriers))
    run_i, run_j, run_len = grid.run_i, grid.run_j, grid.run_len
    previous: dict[int, int] = {}  # ref column -> run index, for hits of the previous row
    for i, tok in enumerate(hyp):
        current: dict[int, int] = {}
        cols = positions.get(tok)
        if cols:
            for col in cols:
                r = previous.get(col - 1)
                if r is None:
                    r = len(run_len)
                    run_i.append(i)
                    run_j.append(col)
                    run_len.append(1)
                else:
                    run_len[r] += 1
                current[col] = r
        previous = current
    return grid


def _positions(hyp: list[str], refs: list[list[str]]) -> tuple[dict[str, list[int]], int, list[int], int]:
    """Each reference token's columns, the width, the barrier columns and the number of hits."""
    positions: dict[str, list[int]] = {}
    barriers = []
    j = 0
    for ref in refs:
        for tok in ref:
            positions.setdefault(tok, []).append(j)
            j += 1
        barriers.append(j)  # the barrier cell itself is never entered in `positions`
        j += 1
    hits = 0
    for tok in hyp:
        cols = positions.get(tok)
        if cols:
            hits += len(cols)
    return positions, j, barriers, hits


def _build_grid_numpy(hyp: list[str], refs: list[list[str]]) -> Grid:
    """The same runs as the Python walk, from the list of hits (i, j) in numpy: hits
    sorted by diagonal and row; a run starts where a hit does not follow the one before."""
    import numpy as np  # only for large grids: `score --metric gtm` on ordinary text needs none

    positions, width, barriers, hits = _positions(hyp, refs)
    if hits > MAX_HITS:
        raise GridTooLarge(hits, len(hyp), width)

    tokens = list(positions)
    ids = {tok: k for k, tok in enumerate(tokens)}
    columns = np.fromiter((c for tok in tokens for c in positions[tok]), dtype=np.int64, count=sum(
        len(positions[tok]) for tok in tokens))
    counts = np.fromiter((len(positions[tok]) for tok in tokens), dtype=np.int64, count=len(tokens))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])) if len(tokens) else np.zeros(0, dtype=np.int64)
    h = np.fromiter((ids.get(tok, -1) for tok in hyp), dtype=np.int64, count=len(hyp))
    rows = np.nonzero(h >= 0)[0]
    per_row = counts[h[rows]]
    hit_i = np.repeat(rows, per_row)
    first = np.repeat(starts[h[rows]], per_row)
    offset = np.arange(hits, dtype=np.int64) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    hit_j = columns[first + offset]
    diagonal = hit_j - hit_i
    order = np.lexsort((hit_i, diagonal))
    di, dd = hit_i[order], diagonal[order]
    new_run = np.ones(hits, dtype=bool)
    new_run[1:] = (dd[1:] != dd[:-1]) | (di[1:] != di[:-1] + 1)
    run_start = np.nonzero(new_run)[0]
    lengths = np.diff(np.append(run_start, hits))
    si = di[run_start]
    sj = si + dd[run_start]
    row_major = np.lexsort((sj, si))  # runs in the order the Python walk finds them
    grid = Grid(n_hyp=len(hyp), width=width, barriers=tuple(barriers))
    grid.run_i = si[row_major].tolist()
    grid.run_j = sj[row_major].tolist()
    grid.run_len = lengths[row_major].tolist()
    return grid


@dataclass(frozen=True)
class Block:
    """An aligned block: ``cells`` cells from (hyp_start, ref_start) down the
    diagonal, counted with ``weight`` (= cells, or less for the run the cap cut)."""

    hyp_start: int
    ref_start: int
    cells: int
    weight: float


@dataclass(frozen=True)
class Rejection:
    """A candidate window turned down because ``blocked_at`` (i, j) was taken;
    every candidate of the same run and level containing that cell falls with it."""

    hyp_start: int
    ref_start: int
    length: int
    blocked_at: tuple[int, int]


@dataclass
class Selection:
    score: float  # sum of weight ** e in selection order (GTM's "maximum matching")
    blocks: list[Block]
    rejections: list[Rejection] | None = None


def greedy_select(
    grid: Grid, budget: float, e: float, record_rejections: bool = False
) -> Selection:
    """GTM 1.4's greedy, candidate for candidate, without listing the candidates."""
    state = _Greedy(grid, budget, e, record_rejections)
    state.run()
    return Selection(state.score, state.blocks, state.rejections)


class _Greedy:
    def __init__(self, grid: Grid, budget: float, e: float, record: bool) -> None:
        self.grid = grid
        self.budget = float(budget)
        self.e = e
        self.row_used = bytearray(grid.n_hyp)
        self.col_used = bytearray(grid.width)
        self.score = 0.0
        self.blocks: list[Block] = []
        self.rejections: list[Rejection] | None = [] if record else None

    # --- helpers ------------------------------------------------------------
    def _key(self, r: int, t: int) -> int:
        return (self.grid.run_i[r] + t) * self.grid.width + self.grid.run_j[r] + t

    def _free_flags(self, r: int) -> list[bool]:
        if not self.blocks:  # nothing taken yet: skip the cell-by-cell look
            return [True] * self.grid.run_len[r]
        i0, j0 = self.grid.run_i[r], self.grid.run_j[r]
        ru, cu = self.row_used, self.col_used
        return [not (ru[i0 + t] or cu[j0 + t]) for t in range(self.grid.run_len[r])]

    def _longest_free(self, r: int) -> int:
        if not self.blocks:
            return self.grid.run_len[r]
        best = cur = 0
        for free in self._free_flags(r):
            cur = cur + 1 if free else 0
            if cur > best:
                best = cur
        return best

    def _take(self, r: int, t: int, cells: int, weight: float) -> None:
        i0, j0 = self.grid.run_i[r] + t, self.grid.run_j[r] + t
        for q in range(cells):
            self.row_used[i0 + q] = 1
            self.col_used[j0 + q] = 1
        self.blocks.append(Block(i0, j0, cells, weight))
        self.budget -= weight
        self.score += weight**self.e

    # --- the walk -----------------------------------------------------------
    def run(self) -> None:
        grid = self.grid
        if self.budget <= 0 or not grid.run_len:
            return
        level = max(grid.run_len)
        buckets: dict[int, list[int]] | None = None
        bound: int | None = None  # phase B at `level`: only keys below this remain
        while self.budget > 0 and level >= 1:
            if level > self.budget:
                if self._capped_pass(level, bound):
                    return
                # Nothing fit while the budget was below the level: continue at
                # the first level that fits the budget with full windows again.
                level = math.floor(self.budget)
                bound = None
                buckets = self._buckets(level)
                continue
            if buckets is None:
                buckets = self._buckets(level)
            bound = self._full_level(level, buckets.pop(level, []), buckets)
            if bound is None:
                level -= 1
            # else: the budget fell below `level` mid-level; finish it capped.

    def _buckets(self, level: int) -> dict[int, list[int]]:
        """Runs by the longest free window they may hold (capped at ``level``)."""
        buckets: dict[int, list[int]] = {}
        if not self.blocks:  # all free: a run's longest free window is the run
            for r, m in enumerate(self.grid.run_len):
                buckets.setdefault(m if m < level else level, []).append(r)
            return buckets
        for r in range(len(self.grid.run_len)):
            m = min(self._longest_free(r), level)
            if m >= 1:
                buckets.setdefault(m, []).append(r)
        return buckets

    def _full_level(self, level: int, runs: list[int], buckets: dict[int, list[int]]) -> int | None:
        """Candidates of length ``level`` while the budget covers whole windows.

        Returns None when the level is done, or the key of the window whose
        acceptance left 0 < budget < level (the rest of the level is capped).
        """
        if level == 1:
            return self._single_cells(runs)
        grid = self.grid
        run_i, run_j, run_len, width = grid.run_i, grid.run_j, grid.run_len, grid.width
        ru, cu = self.row_used, self.col_used
        pointer: dict[int, int] = {}
        heap: list[tuple[int, int]] = []
        for r in runs:
            t = run_len[r] - level
            pointer[r] = t
            heap.append((-((run_i[r] + t) * width + run_j[r] + t), r))
        heapq.heapify(heap)
        while heap:
            neg_key, r = heapq.heappop(heap)
            t = pointer[r]
            i0, j0 = run_i[r] + t, run_j[r] + t
            blocked = -1
            for q in range(level - 1, -1, -1):  # from the top: the skip is longest
                if ru[i0 + q] or cu[j0 + q]:
                    blocked = q
                    break
            if blocked < 0:
                self._take(r, t, level, float(level))
                if self.budget <= 0:
                    return None
                if self.budget < level:
                    return -neg_key
                t -= level
            else:
                if self.rejections is not None:
                    self.rejections.append(
                        Rejection(i0, j0, level, (i0 + blocked, j0 + blocked))
                    )
                t += blocked - level  # next window that avoids the blocked cell
            if t >= 0:
                pointer[r] = t
                heapq.heappush(heap, (-((run_i[r] + t) * width + run_j[r] + t), r))
            else:
                # Every window of this length is taken or blocked now, so the
                # run's longest free stretch is shorter than `level`.
                m = self._longest_free(r) if level > 1 else 0
                if m >= 1:
                    buckets.setdefault(m, []).append(r)
        return None

    def _single_cells(self, runs: list[int]) -> int | None:
        """Level 1: every free cell is a candidate; one sort replaces the heap."""
        grid = self.grid
        width = grid.width
        ru, cu = self.row_used, self.col_used
        keep_all = self.rejections is not None  # list blocked cells as rejected too
        cells = []
        for r in runs:
            i0, j0 = grid.run_i[r], grid.run_j[r]
            for t in range(grid.run_len[r]):
                if keep_all or not (ru[i0 + t] or cu[j0 + t]):
                    cells.append(((i0 + t) * width + j0 + t, i0 + t, j0 + t))
        cells.sort(reverse=True)
        for key, i, j in cells:
            if ru[i] or cu[j]:
                if self.rejections is not None:
                    self.rejections.append(Rejection(i, j, 1, (i, j)))
                continue
            ru[i] = cu[j] = 1
            self.blocks.append(Block(i, j, 1, 1.0))
            self.budget -= 1.0
            self.score += 1.0
            if self.budget <= 0:
                return None
            if self.budget < 1:
                return key
        return None

    def _capped_pass(self, level: int, bound: int | None) -> bool:
        """Budget below ``level``: a candidate of length l > budget counts the
        budget and needs only its first ceil(budget) cells free, so the first
        such candidate in GTM's order ends the walk. Candidates with l <= budget
        are left to the full-window levels. Returns True if one was taken."""
        budget = self.budget
        need = math.ceil(budget)
        lowest = math.floor(budget) + 1  # the levels l > budget
        grid = self.grid
        best_key, best = -1, None  # over the candidates at the current level
        # For each run: the offsets whose first `need` cells are free.
        starts: list[list[int]] = []
        for r in range(len(grid.run_len)):
            flags = self._free_flags(r)
            ok = []
            streak = 0
            for t in range(len(flags) - 1, -1, -1):
                streak = streak + 1 if flags[t] else 0
                if streak >= need:
                    ok.append(t)  # descending offsets
            starts.append(ok)
        # The current level (below `bound` when entered mid-level).
        for r, ok in enumerate(starts):
            top = grid.run_len[r] - level
            for t in ok:
                if t > top:
                    continue
                key = self._key(r, t)
                if bound is not None and key >= bound:
                    continue
                if key > best_key:
                    best_key, best = key, (r, t)
                break
        if best is None:
            # Lower levels admit more offsets per run (t <= len - l); the first
            # level with any is the highest len - min(offset) over the runs.
            reach = [grid.run_len[r] - ok[-1] for r, ok in enumerate(starts) if ok]
            next_level = min(level - 1, max(reach, default=0))
            if next_level < lowest:
                return False
            for r, ok in enumerate(starts):
                top = grid.run_len[r] - next_level
                for t in ok:
                    if t <= top:
                        key = self._key(r, t)
                        if key > best_key:
                            best_key, best = key, (r, t)
                        break
        if best is None:
            return False
        r, t = best
        self._take(r, t, need, budget)
        return True
