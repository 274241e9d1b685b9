"""Word n-gram counting shared by BLEU and NIST.

N-grams are tuples of tokens. Counting goes through ``Counter.update`` over
``zip`` of shifted token lists, which runs the inner loop in C.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

Ngram = tuple[str, ...]


def ngram_counts(tokens: Sequence[str], max_order: int, min_order: int = 1) -> Counter[Ngram]:
    """Counts of every n-gram of order min_order..max_order in ``tokens``."""
    counts: Counter[Ngram] = Counter()
    for n in range(min_order, min(max_order, len(tokens)) + 1):
        counts.update(zip(*[tokens[i:] for i in range(n)]))
    return counts


def max_counts(counters: Iterable[Counter[Ngram]]) -> dict[Ngram, int]:
    """For each n-gram, the largest count in any single counter (BLEU's clip)."""
    merged: dict[Ngram, int] = {}
    for counts in counters:
        if not merged:
            merged = dict(counts)
            continue
        get = merged.get
        for gram, count in counts.items():
            if count > get(gram, 0):
                merged[gram] = count
    return merged


def closest_length(hyp_len: int, ref_lens: Sequence[int]) -> tuple[int, int]:
    """(index, length) of the reference length closest to ``hyp_len``; ties go
    to the shorter reference, then to the earlier one (sacrebleu's rule)."""
    best_index, best_len = -1, -1
    for index, ref_len in enumerate(ref_lens):
        diff = abs(hyp_len - ref_len)
        best_diff = abs(hyp_len - best_len)
        if best_index < 0 or diff < best_diff or (diff == best_diff and ref_len < best_len):
            best_index, best_len = index, ref_len
    return best_index, best_len
