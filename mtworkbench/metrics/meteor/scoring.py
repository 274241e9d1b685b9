"""Meteor's sufficient statistics and its score formula (shared by both aligners).

A row has Meteor's 23 ``-ssOut`` columns (module slots by module name, unused
ones 0) plus ``perfect``: 1 when the segment is a perfect match in one chunk.
Meteor leaves such a segment's chunk out of corpus sums, so the effective
chunk count of any sum of rows is ``chunks - perfect``; for a single row this
gives the same score as Meteor's own "frag = 0 when test = ref" rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtworkbench.metrics.formula import ARRAY, SCALAR, columns

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


def meteor_parts(
    t: Sequence[Any],
    m: Any,
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: dict[str, float],
    module_order: Sequence[str],
) -> dict[str, Any]:
    """Precision, recall, Fmean, frag, penalty and score from (summed) rows, written once
    for both paths (``metrics.formula``: ``t[i]`` a float or an array over leading axes).

    The arithmetic follows Meteor's ``computeMetrics`` operation by operation (same
    order of additions, IEEE division), and 0/0 cases give 0 as there (NaN -> 0,
    score clipped at 0).
    """
    tst_len, ref_len, tst_fw, ref_fw = t[0], t[1], t[2], t[3]
    tst_wlen = delta * (tst_len - tst_fw) + (1.0 - delta) * tst_fw
    ref_wlen = delta * (ref_len - ref_fw) + (1.0 - delta) * ref_fw
    cols = [slot_column(module) for module in module_order]
    tst_wm: Any = 0.0
    ref_wm: Any = 0.0
    for module, c in zip(module_order, cols):
        tst_wm = tst_wm + t[c] * weights[module] * delta
    for module, c in zip(module_order, cols):
        ref_wm = ref_wm + t[c + 1] * weights[module] * delta
    for module, c in zip(module_order, cols):
        tst_wm = tst_wm + t[c + 2] * weights[module] * (1.0 - delta)
    for module, c in zip(module_order, cols):
        ref_wm = ref_wm + t[c + 3] * weights[module] * (1.0 - delta)
    tst_total: Any = 0.0
    ref_total: Any = 0.0
    for c in cols:
        tst_total = tst_total + t[c] + t[c + 2]
        ref_total = ref_total + t[c + 1] + t[c + 3]
    precision = m.ieee_div(tst_wm, tst_wlen)
    recall = m.ieee_div(ref_wm, ref_wlen)
    fmean = m.ieee_div(1.0, m.ieee_div(1.0 - alpha, precision) + m.ieee_div(alpha, recall))
    chunks = t[CHUNKS] - t[PERFECT]
    perfect = (tst_total == tst_len) & (ref_total == ref_len) & (chunks == 1)
    frag = m.where(perfect, 0.0, m.ieee_div(chunks, (t[TST_WORDS] + t[REF_WORDS]) / 2))
    penalty = gamma * m.pow(frag, beta)
    score = fmean * (1.0 - penalty)
    score = m.where(score != score, 0.0, m.maximum(score, 0.0))
    return {
        "precision": precision,
        "recall": recall,
        "fmean": fmean,
        "frag": frag,
        "penalty": penalty,
        "score": score,
    }


def meteor_formula(
    totals: np.ndarray,
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: dict[str, float],
    module_order: Sequence[str],
) -> dict[str, np.ndarray]:
    """``meteor_parts`` of rows, vectorised over leading axes."""
    return meteor_parts(columns(totals), ARRAY, alpha, beta, gamma, delta, weights, module_order)


def meteor_score_scalar(
    row: Sequence[float],
    alpha: float,
    beta: float,
    gamma: float,
    delta: float,
    weights: dict[str, float],
    module_order: Sequence[str],
) -> float:
    """The score of one row with plain floats (``meteor_parts``, bit for bit as
    ``meteor_formula``). Used to pick the best reference, where numpy's per-call
    overhead would dominate the run time, and for corpus scores (``Meteor.corpus_value``)."""
    parts = meteor_parts(row, SCALAR, alpha, beta, gamma, delta, weights, module_order)
    return float(parts["score"])
