"""Meteor's sufficient statistics and its score formula (shared by both aligners).

A row has Meteor's 23 ``-ssOut`` columns (module slots by module name, unused
ones 0) plus ``perfect``: 1 when the segment is a perfect match in one chunk.
Meteor leaves such a segment's chunk out of corpus sums, so the effective
chunk count of any sum of rows is ``chunks - perfect``; for a single row this
gives the same score as Meteor's own "frag = 0 when test = ref" rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads with the first array: `score --metric meteor` on files needs none
    import numpy as np

SLOT_MODULES = ("exact", "stem", "synonym", "paraphrase")

STAT_NAMES: tuple[str, ...] = (
    "tst_len",
    "ref_len",
    "tst_function_words",
    "ref_function_words",
    *(
        f"{module}_{name}"
        for module in SLOT_MODULES
        for name in ("tst_content", "ref_content", "tst_function", "ref_function")
    ),
    "chunks",
    "tst_word_matches",
    "ref_word_matches",
    "perfect",
)
N_STATS = len(STAT_NAMES)
CHUNKS, TST_WORDS, REF_WORDS, PERFECT = 20, 21, 22, 23


def slot_column(module: str) -> int:
    return 4 + 4 * SLOT_MODULES.index(module)


def count_chunks(links: Sequence[tuple[int, int, int]]) -> int:
    """Maximal runs contiguous in both strings (links sorted by reference position)."""
    chunks = 0
    prev_ref: int | None = None
    prev_hyp: int | None = None
    for i, j, _ in links:
        if prev_ref is None or prev_hyp is None or j != prev_ref + 1 or i != prev_hyp + 1:
            chunks += 1
        prev_ref, prev_hyp = j, i
    return chunks


def chunk_spans(links: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The chunks as (hyp_start, hyp_end, ref_start, ref_end), ends exclusive."""
    spans: list[list[int]] = []
    for i, j, _ in links:
        if spans and spans[-1][3] == j and spans[-1][1] == i:
            spans[-1][1] += 1
            spans[-1][3] += 1
        else:
            spans.append([i, i + 1, j, j + 1])
    return [tuple(s) for s in spans]  # type: ignore[misc]


def statistics_row(
    hyp: Sequence[str],
    ref: Sequence[str],
    links: Sequence[tuple[int, int, int]],
    modules: Sequence[str],
    function_words: frozenset[str],
) -> list[float]:
    """One row of sufficient statistics for an alignment (links as (hyp, ref, slot))."""
    row = [0.0] * N_STATS
    hyp_fw = [w.lower() in function_words for w in hyp]
    ref_fw = [w.lower() in function_words for w in ref]
    row[0], row[1] = len(hyp), len(ref)
    row[2], row[3] = sum(hyp_fw), sum(ref_fw)
    for i, j, slot in links:
        col = slot_column(modules[slot])
        row[col + (2 if hyp_fw[i] else 0)] += 1
        row[col + (3 if ref_fw[j] else 1)] += 1
    chunks = count_chunks(links)
    row[CHUNKS] = chunks
    row[TST_WORDS] = row[REF_WORDS] = len(links)
    if len(links) == len(hyp) and len(links) == len(ref) and chunks == 1:
        row[PERFECT] = 1
    return [float(x) for x in row]


def meteor_formula(
    totals: np.ndarray,
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: dict[str, float],
    module_order: Sequence[str],
) -> dict[str, np.ndarray]:
    """Precision, recall, Fmean, frag, penalty and score from (summed) rows.

    Vectorised over leading axes; the arithmetic follows Meteor's
    ``computeMetrics`` operation by operation (same order of additions), and
    0/0 cases give 0 as there (NaN -> 0, score clipped at 0).
    """
    import numpy as np

    t = np.asarray(totals, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        tst_len, ref_len = t[..., 0], t[..., 1]
        tst_fw, ref_fw = t[..., 2], t[..., 3]
        tst_wlen = delta * (tst_len - tst_fw) + (1.0 - delta) * tst_fw
        ref_wlen = delta * (ref_len - ref_fw) + (1.0 - delta) * ref_fw
        tst_wm = np.zeros(t.shape[:-1])
        ref_wm = np.zeros(t.shape[:-1])
        tst_total = np.zeros(t.shape[:-1])
        ref_total = np.zeros(t.shape[:-1])
        cols = [slot_column(m) for m in module_order]
        for m, c in zip(module_order, cols):
            tst_wm = tst_wm + t[..., c] * weights[m] * delta
        for m, c in zip(module_order, cols):
            ref_wm = ref_wm + t[..., c + 1] * weights[m] * delta
        for m, c in zip(module_order, cols):
            tst_wm = tst_wm + t[..., c + 2] * weights[m] * (1.0 - delta)
        for m, c in zip(module_order, cols):
            ref_wm = ref_wm + t[..., c + 3] * weights[m] * (1.0 - delta)
        for c in cols:
            tst_total = tst_total + t[..., c] + t[..., c + 2]
            ref_total = ref_total + t[..., c + 1] + t[..., c + 3]
        precision = tst_wm / tst_wlen
        recall = ref_wm / ref_wlen
        fmean = 1.0 / (((1.0 - alpha) / precision) + (alpha / recall))
        chunks = t[..., CHUNKS] - t[..., PERFECT]
        perfect = (tst_total == tst_len) & (ref_total == ref_len) & (chunks == 1)
        frag = np.where(perfect, 0.0, chunks / ((t[..., TST_WORDS] + t[..., REF_WORDS]) / 2))
        penalty = gamma * np.power(frag, beta)
        score = fmean * (1.0 - penalty)
        score = np.where(np.isnan(score), 0.0, np.maximum(score, 0.0))
    return {
        "precision": precision,
        "recall": recall,
        "fmean": fmean,
        "frag": frag,
        "penalty": penalty,
        "score": score,
    }


def meteor_score_scalar(
    row: Sequence[float],
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: dict[str, float],
    module_order: Sequence[str],
) -> float:
    """The score of one row with plain floats (same operations as ``meteor_formula``).

    Used to pick the best reference, where numpy's per-call overhead would
    dominate the run time, and for corpus scores (``Meteor.corpus_value``). It
    differs from ``meteor_formula`` only where ``math.pow`` and numpy's vectorised
    power differ, in the last bit.
    """
    tst_len, ref_len, tst_fw, ref_fw = row[0], row[1], row[2], row[3]
    tst_wlen = delta * (tst_len - tst_fw) + (1.0 - delta) * tst_fw
    ref_wlen = delta * (ref_len - ref_fw) + (1.0 - delta) * ref_fw
    cols = [slot_column(m) for m in module_order]
    tst_wm = ref_wm = 0.0
    for m, c in zip(module_order, cols):
        tst_wm += row[c] * weights[m] * delta
    for m, c in zip(module_order, cols):
        ref_wm += row[c + 1] * weights[m] * delta
    for m, c in zip(module_order, cols):
        tst_wm += row[c + 2] * weights[m] * (1.0 - delta)
    for m, c in zip(module_order, cols):
        ref_wm += row[c + 3] * weights[m] * (1.0 - delta)
    tst_total = sum(row[c] + row[c + 2] for c in cols)
    ref_total = sum(row[c + 1] + row[c + 3] for c in cols)
    chunks = row[CHUNKS] - row[PERFECT]
    precision = _ieee_div(tst_wm, tst_wlen)
    recall = _ieee_div(ref_wm, ref_wlen)
    fmean = _ieee_div(1.0, _ieee_div(1.0 - alpha, precision) + _ieee_div(alpha, recall))
    if tst_total == tst_len and ref_total == ref_len and chunks == 1:
        frag = 0.0
    else:
        frag = _ieee_div(chunks, (row[TST_WORDS] + row[REF_WORDS]) / 2)
    penalty = gamma * math.pow(frag, beta)
    score = fmean * (1.0 - penalty)
    if score != score:
        return 0.0
    return max(score, 0.0)


def _ieee_div(a: float, b: float) -> float:
    """``a / b`` as IEEE 754 (and Java, and numpy) divide: x/0 is an infinity, 0/0 NaN,
    where Python raises (the empty and matchless segments)."""
    if b == 0:
        if a == 0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b
