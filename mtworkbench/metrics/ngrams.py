"""Word n-gram counting shared by BLEU and NIST.

N-grams are tuples of tokens. Counting goes through ``Counter.update`` over
``zip`` of shifted token lists, which runs the inner loop in C.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

Ngram = tuple[str, ...]


def ngram_counts(tokens: Sequence[str], max_order: int, min_order: int = 1) -> Counter[Ngram]:
    """Counts of every n-gram of order min_order..max_order in ``tokens``."""
    counts: Counter[Ngram] = Counter()
    for n in range(min_order, min(max_order, len(tokens)) + 1):
        counts.update(zip(*[tokens[i:] for i in range(n)]))
    return counts


def max_counts(counters: Iterable[Counter[Any]]) -> dict[Any, int]:
    """For each n-gram, the largest count in any single counter (BLEU's clip)."""
    merged: dict[Any, int] = {}
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


def clipped_matches(hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int) -> list[int]:
    """BLEU's matches per order 1..max_order: each hypothesis n-gram counted at
    most as often as in the reference that has it most often.

    For plain Python speed (``score`` on files without numpy): every clip is at
    least 1 wherever there is a match, so each distinct matched n-gram counts
    once through a set intersection, done in C; only matched n-grams the
    hypothesis repeats need counters for their further copies. An order without
    matches ends the search: a longer n-gram cannot match if none of its parts did.
    """
    correct = [0] * max_order
    for n in range(1, min(max_order, len(hyp)) + 1):
        grams: Sequence[object] = hyp if n == 1 else list(zip(*[hyp[i:] for i in range(n)]))
        distinct = set(grams)
        if len(refs) == 1:
            matched = distinct.intersection(_order_grams(refs[0], n))
        else:
            matched = set()
            for ref in refs:
                matched |= distinct.intersection(_order_grams(ref, n))
        if not matched:
            break
        found = len(matched)
        if len(distinct) != len(grams):
            # a repeated n-gram counts up to its clip: count the copies beyond the first
            counts = Counter(grams)
            repeated = [gram for gram in matched if counts[gram] > 1]
            if repeated:
                clip = max_counts(Counter(_order_grams(ref, n)) for ref in refs)
                found += sum(min(counts[gram], clip[gram]) - 1 for gram in repeated)
        correct[n - 1] = found
    return correct


def _order_grams(tokens: Sequence[str], n: int) -> Iterable[object]:
    """The n-grams of ``tokens``: the tokens themselves for n = 1, else tuples."""
    return tokens if n == 1 else zip(*[tokens[i:] for i in range(n)])
