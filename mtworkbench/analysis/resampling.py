"""Resampling in bounded memory: indices drawn and used a block of resamples at a time.

A bootstrap draws ``n_samples x n`` indices; held at once, 10^6 resamples of a
1,000-segment test set are 8 GB. Here they come in blocks of at most
``CHUNK_VALUES`` numbers, so memory stays bounded whatever ``n_samples`` is.

The numbers stay those of one big draw where that is possible: up to
``CHUNK_VALUES`` values everything is drawn in one call, exactly as before
(every seeded result and golden file unchanged); coin flips (``integers(2,
dtype=bool)``) come in blocks of a multiple of 32 rows, which numpy's generator
fills from the same bits as one call. Above ``CHUNK_VALUES``, bounded integer
draws come in blocks: reproducible for a seed, though numpy may spend its random
bits differently from one giant call. ``MAX_RESAMPLES`` bounds the time.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from mtworkbench.core.scoring_input import MetricError

# The most resamples (bootstrap samples, randomisation trials) a test may ask for.
MAX_RESAMPLES = 1_000_000
# Index values drawn at once: 2^24 int64 = 128 MiB.
CHUNK_VALUES = 1 << 24


def check_resamples(n_samples: int, what: str = "samples") -> None:
    if n_samples > MAX_RESAMPLES:
        raise MetricError(
            f"{n_samples:,} {what} asked for; at most {MAX_RESAMPLES:,} are drawn (the interval's digits "
            "stop changing long before)"
        )


def _rows_per_block(n: int, multiple: int = 1) -> int:
    rows = max(1, CHUNK_VALUES // max(n, 1))
    return max(multiple, rows - rows % multiple)


def choice_blocks(rng: np.random.Generator, n: int, n_samples: int) -> Iterator[np.ndarray]:
    """``rng.choice(n, size=(n_samples, n))`` as consecutive blocks of rows."""
    if n_samples * n <= CHUNK_VALUES:
        yield rng.choice(n, size=(n_samples, n), replace=True)
        return
    rows = _rows_per_block(n)
    for start in range(0, n_samples, rows):
        yield rng.choice(n, size=(min(rows, n_samples - start), n), replace=True)


def integer_blocks(rng: np.random.Generator, n: int, n_samples: int) -> Iterator[np.ndarray]:
    """``rng.integers(0, n, size=(n_samples, n))`` as consecutive blocks of rows."""
    if n_samples * n <= CHUNK_VALUES:
        yield rng.integers(0, n, size=(n_samples, n))
        return
    rows = _rows_per_block(n)
    for start in range(0, n_samples, rows):
        yield rng.integers(0, n, size=(min(rows, n_samples - start), n))


def coin_blocks(rng: np.random.Generator, n: int, n_samples: int) -> Iterator[np.ndarray]:
    """``rng.integers(2, size=(n_samples, n), dtype=bool)`` in blocks of 32k rows (the same bits)."""
    rows = _rows_per_block(n, 32)
    for start in range(0, n_samples, rows):
        yield rng.integers(2, size=(min(rows, n_samples - start), n), dtype=bool)
