"""Clipped n-gram matches of a whole corpus at once, with numpy.

BLEU's hot loop (count every hypothesis n-gram, clip by the largest count in
any single reference) done as array operations over the corpus instead of a
Python loop over n-grams:

- tokens get integer ids from the reference vocabulary (a hypothesis token that
  no reference contains gets -1 and can never match);
- an n-gram's id is the id of the pair (id of its (n-1)-gram prefix, id of its
  last token), looked up in the sorted table of the pairs that occur in the
  references, so ids stay small for every order (up to 16);
- per order, (segment, n-gram id) keys are counted with ``np.unique``, clip
  counts looked up with ``np.searchsorted``, and the clipped minimum summed per
  segment with ``np.bincount``.

The reference side is built once per reference set and reused for every system.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, repeat

import numpy as np


def _sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` without its check for masked arrays, which imports
    numpy.ma (~9 ms of a one-shot CLI run)."""
    ordered = np.sort(values)
    if len(ordered) == 0:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


@dataclass
class _Order:
    pair_keys: np.ndarray  # sorted prefix_id * V + token_id of the order's n-grams
    n_grams: int  # number of distinct reference n-grams of this order
    clip_keys: np.ndarray  # sorted segment * n_grams + ngram_id
    clip_counts: np.ndarray  # max count in any single reference, aligned with clip_keys


def _flatten(
    token_lists: Sequence[Sequence[str]], vocab: dict[str, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Token ids of all lists concatenated (-1 for tokens not in ``vocab``), the
    list index of each position, its position within its list, and list lengths."""
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
    total = int(lengths.sum())
    ids = np.fromiter(
        map(vocab.get, chain.from_iterable(token_lists), repeat(-1)), dtype=np.int64, count=total
    )
    owner = np.repeat(np.arange(len(token_lists), dtype=np.int64), lengths)
    starts = np.cumsum(lengths) - lengths
    position = np.arange(total, dtype=np.int64) - np.repeat(starts, lengths)
    return ids, owner, position, lengths


class ReferenceNgrams:
    """Reference n-gram clip counts for every segment, orders 1..max_order."""

    def __init__(self, references: Sequence[Sequence[Sequence[str]]], max_order: int) -> None:
        """``references[i]`` are the token lists of segment i's references."""
        self.max_order = max_order
        self.n_segments = len(references)
        streams: list[Sequence[str]] = []  # one token list per (segment, reference)
        owners: list[int] = []  # segment of each of those lists
        for i, refs in enumerate(references):
            for tokens in refs:
                streams.append(tokens)
                owners.append(i)
        # ids in order of first occurrence; dict.fromkeys dedupes at C speed
        vocab = {t: i for i, t in enumerate(dict.fromkeys(chain.from_iterable(streams)))}
        self.vocab = vocab
        self.vocab_size = max(1, len(vocab))
        ids, ref_index, position, lengths = _flatten(streams, vocab)
        owner = np.asarray(owners, dtype=np.int64)
        self.orders: list[_Order] = []
        gram = ids  # id of the n-gram starting at each position (-1 = none)
        for n in range(1, max_order + 1):
            if n == 1:
                valid = np.ones(len(ids), dtype=bool)
                # every vocabulary id occurs in the references (the vocabulary is
                # built from them), so the sorted unigram ids are 0..V-1 and a
                # token's unigram id is its token id: no look-up needed
                pair_keys = np.arange(len(vocab), dtype=np.int64)
                gram = ids
            else:
                valid = position + n <= lengths[ref_index]
                last = np.full(len(ids), -1, dtype=np.int64)
                last[: max(0, len(ids) - n + 1)] = ids[n - 1 :]
                raw = np.where(valid, gram * self.vocab_size + np.maximum(last, 0), -1)
                pair_keys = _sorted_unique(raw[valid])
                gram = np.where(valid, np.searchsorted(pair_keys, raw), -1)
            n_grams = max(1, len(pair_keys))
            # count per (reference, n-gram), then keep the max per (segment, n-gram)
            ref_keys, counts = np.unique(
                ref_index[valid] * n_grams + gram[valid], return_counts=True
            )
            seg_keys = owner[ref_keys // n_grams] * n_grams + ref_keys % n_grams
            order = np.argsort(seg_keys, kind="stable")
            seg_keys, counts = seg_keys[order], counts[order]
            clip_keys, first = np.unique(seg_keys, return_index=True)
            clip_counts = np.maximum.reduceat(counts, first) if len(counts) else counts
            self.orders.append(_Order(pair_keys, n_grams, clip_keys, clip_counts))

    def clipped_matches(self, hypotheses: Sequence[list[str]]) -> np.ndarray:
        """(n_segments, max_order) clipped match counts of the hypotheses."""
        if len(hypotheses) != self.n_segments:
            raise ValueError("one hypothesis per reference segment is needed")
        ids, segment, position, lengths = _flatten(hypotheses, self.vocab)
        correct = np.zeros((self.n_segments, self.max_order))
        gram = ids
        for n, table in enumerate(self.orders, start=1):
            if n == 1:
                gram = ids  # unigram ids are token ids (see ReferenceNgrams.__init__); -1 unknown
            else:
                valid = position + n <= lengths[segment]
                last = np.full(len(ids), -1, dtype=np.int64)
                last[: max(0, len(ids) - n + 1)] = ids[n - 1 :]
                if len(table.pair_keys) == 0:
                    break
                ok = valid & (gram >= 0) & (last >= 0)
                raw = gram * self.vocab_size + np.maximum(last, 0)
                where = np.minimum(np.searchsorted(table.pair_keys, raw), len(table.pair_keys) - 1)
                gram = np.where(ok & (table.pair_keys[where] == raw), where, -1)
            present = gram >= 0
            if not present.any():
                # no n-gram of this order can match, so neither can longer ones
                break
            keys, counts = np.unique(
                segment[present] * table.n_grams + gram[present], return_counts=True
            )
            at = np.searchsorted(table.clip_keys, keys)
            at_c = np.minimum(at, len(table.clip_keys) - 1)
            hit = table.clip_keys[at_c] == keys
            clip = np.where(hit, table.clip_counts[at_c], 0)
            matched = np.minimum(counts, clip)
            correct[:, n - 1] = np.bincount(
                keys // table.n_grams, weights=matched, minlength=self.n_segments
            )
        return correct

