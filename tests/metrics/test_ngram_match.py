"""The vectorised clipped n-gram matches equal a direct count (clip by the
largest count in any single reference), including empty sides, unknown
hypothesis tokens and repeated words."""

from __future__ import annotations

import random
from collections import Counter

from mtworkbench.metrics.ngram_match import ReferenceNgrams


def _counts(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def test_clipped_matches_equal_direct_counts_on_random_small_corpora() -> None:
    rng = random.Random(1)
    words = list("abcde")
    for _ in range(300):
        n_seg = rng.randint(1, 6)
        refs = [
            [[rng.choice(words) for _ in range(rng.randint(0, 8))] for _ in range(rng.randint(1, 3))]
            for _ in range(n_seg)
        ]
        hyps = [[rng.choice(words + ["z"]) for _ in range(rng.randint(0, 8))] for _ in range(n_seg)]
        matches = ReferenceNgrams(refs, 4).clipped_matches(hyps)
        for i in range(n_seg):
            for n in range(1, 5):
                clip: Counter[tuple[str, ...]] = Counter()
                for ref in refs[i]:
                    clip |= _counts(ref, n)
                expected = sum(min(c, clip[g]) for g, c in _counts(hyps[i], n).items())
                assert matches[i, n - 1] == expected, (refs[i], hyps[i], n)
