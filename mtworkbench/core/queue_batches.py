"""A judge's queue served in batches, as Appraise serves its tasks (about 100 items a batch).

A batch holds a number of items or of whole documents (every chosen system's items of
those documents); the judge works through batch 1 first, the rest waits for later
sessions. Each batch is complete on its own: its repeats and BAD items come from its
own items, so a judge who stops after one batch still leaves a measurable batch.

The queue stores the size of every batch (``JudgeQueue.batches``: items, repeats and
BAD copies included) in queue order; ``batch_at`` says where an item falls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mtworkbench.core.model import ModelError, Project
from mtworkbench.core.queue_state import BATCH_UNITS, JudgeQueue, QueueEntry


def check_batching(batch_size: object, batch_unit: object) -> None:
    """A batch size of 0 (everything in one batch) or more, in one of ``BATCH_UNITS``."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 0:
        raise ModelError(f"the batch size must be a whole number of 0 or more, not {batch_size!r}")
    if batch_unit not in BATCH_UNITS:
        raise ModelError(f"unknown batch unit {batch_unit!r}; expected one of {', '.join(BATCH_UNITS)}")


def cut_batches(project: Project, items: list[QueueEntry], size: int, unit: str,
                shuffle: Callable[[list[Any]], None]) -> list[list[QueueEntry]]:
    """``items`` (distinct, in queue order) cut into batches of ``size`` items, or of ``size``
    whole documents (``unit`` "documents") in an order ``shuffle`` draws; each batch keeps
    the queue's order. One batch when the size is 0."""
    if not size:
        return [items] if items else []
    if unit == "items":
        return [items[at:at + size] for at in range(0, len(items), size)]
    present = {project.document_of(item.segment) for item in items}
    # Documents in project order, then shuffled: the order depends on the seed and the
    # judge only, never on the order the items happened to come in.
    documents = [d.id for d in project.documents if d.id in present]
    shuffle(documents)
    batch_of = {document: k // size for k, document in enumerate(documents)}
    batches: list[list[QueueEntry]] = [[] for _ in range(-(-len(documents) // size))]
    for item in items:  # one pass in queue order: each batch keeps it
        batches[batch_of[project.document_of(item.segment)]].append(item)
    return batches


@dataclass(frozen=True)
class BatchPosition:
    """Where an item falls: batch ``number`` (1-based) of ``count``, which spans items
    ``start`` to ``end`` (exclusive) of the queue."""

    number: int
    count: int
    start: int
    end: int


def batch_at(state: JudgeQueue, index: int) -> BatchPosition:
    """The batch of item ``index`` (the last batch once the queue is finished)."""
    sizes = state.batches or [len(state.items)]
    start = 0
    for number, size in enumerate(sizes, 1):
        if index < start + size or number == len(sizes):
            return BatchPosition(number, len(sizes), start, start + size)
        start += size
    return BatchPosition(1, 1, 0, 0)  # no batches at all: an empty queue
