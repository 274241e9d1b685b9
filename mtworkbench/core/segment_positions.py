"""Segment id -> position in document order, built in bounded steps.

One ``dict(zip(...))`` over a quarter of a million segments is one C call that held the
interpreter's lock for a few hundred milliseconds; the app builds a large project on a worker
thread while its window must keep answering, so the index is built ``INDEX_CHUNK`` at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

INDEX_CHUNK = 20_000


def segment_positions(segments: Sequence[Any]) -> dict[str, int]:
    """Each segment's ``id`` -> its position (a repeated id keeps its last, as ``dict`` does)."""
    index: dict[str, int] = {}
    for start in range(0, len(segments), INDEX_CHUNK):
        chunk = segments[start:start + INDEX_CHUNK]
        index.update(zip(map(attrgetter("id"), chunk), range(start, start + len(chunk))))
    return index
