"""Drawing a judge's work queue: which (system, segment) to rate, in which order,
against which reference, with which repeats and quality-control items.

Everything is drawn from a seed, so the same project, judge and settings always
give the same queue (``build_queue``); a relative-ranking queue groups several
systems an item (``build_ranking_queue``). The result is a ``JudgeQueue`` record
(``core.queue_state``); nothing here changes the project.

Turian et al. (Evaluation of machine translation and its evaluation) judged every sentence of a document against one
reference translation; ``reference_mode="per-document"`` reproduces that.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mtworkbench.core.model import ModelError, Project
from mtworkbench.core.quality_control import plan_bad_items
from mtworkbench.core.queue_batches import check_batching, cut_batches
from mtworkbench.core.queue_state import (
    BAD_PROTOCOLS,
    DA_BASES,
    MQM_MAX_ERRORS,
    QUEUE_FORMAT,
    QUEUE_PROTOCOLS,
    RANK_MAX_SYSTEMS,
    REFERENCE_MODES,
    SUGGESTION_PROTOCOLS,
    JudgeQueue,
    QueueEntry,
)
from mtworkbench.core.suggested_spans import SuggestedSpan


@dataclass(frozen=True)
class QueueConfig:
    """How a judge's queue is drawn.

    ``repeat_share`` is the number of repeated items as a share of the
    distinct items (0.1 = one repeat per ten items), used to measure
    intra-judge consistency; a repeat comes at least ``min_repeat_gap`` items
    after its original where the queue is long enough, and is shown against
    the same reference. ``systems``/``documents`` restrict the items (None =
    all). ``reference_mode`` chooses the reference shown: one per document
    (as Turian et al. did), a fresh draw per segment, or ``reference`` for everything.
    ``show_source`` and ``highlight_overlap`` are part of the protocol (they
    change what the judge sees), so they are stored with the queue.
    ``bad_rate`` (DA, ESA) adds BAD copies as a share of the distinct items
    (WMT used about 12%), each at least ``min_repeat_gap`` items after its original.
    ``batch_size`` serves the queue in batches of that many distinct items, or whole
    documents with ``batch_unit="documents"`` (``core.queue_batches``; 0: one batch).
    ``suggest_spans`` (ESA, MQM): the spec of a span-marking metric whose error spans the items
    start with, pre-marked (``with_suggestions``; the caller runs the metric, the core cannot).
    """

    seed: int = 0
    repeat_share: float = 0.1
    min_repeat_gap: int = 5
    reference_mode: str = "per-document"
    reference: str | None = None
    systems: tuple[str, ...] | None = None
    documents: tuple[str, ...] | None = None
    show_source: bool = False
    highlight_overlap: bool = False
    protocol: str = "ldc"
    da_basis: str = "reference"
    max_errors: int = MQM_MAX_ERRORS
    max_systems: int = RANK_MAX_SYSTEMS  # relative ranking: systems side by side (core.ranking)
    bad_rate: float = 0.0
    batch_size: int = 0
    batch_unit: str = "items"
    suggest_spans: str = ""


class Draws:
    """Seeded draws that depend only on ``random.Random.random()``.

    CPython promises that ``random()`` gives the same sequence for the same
    seed in every version; ``shuffle``/``randrange`` carry no such promise, so
    the queue derives everything from ``random()`` to stay reproducible.
    """

    def __init__(self, seed: int, judge: str, purpose: str) -> None:
        digest = hashlib.sha256(f"{seed}\0{judge}\0{purpose}".encode()).digest()
        self._rng = random.Random(int.from_bytes(digest[:8], "big"))

    def below(self, n: int) -> int:
        return min(int(self._rng.random() * n), n - 1)

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def check_config(project: Project, config: QueueConfig) -> None:
    if not 0 <= config.repeat_share <= 1:
        raise ModelError(f"repeat share must be between 0 and 1, not {config.repeat_share!r}")
    if config.min_repeat_gap < 0:
        raise ModelError("the gap before a repeated item must not be negative")
    if config.reference_mode not in REFERENCE_MODES:
        raise ModelError(
            f"unknown reference mode {config.reference_mode!r}; expected one of {', '.join(REFERENCE_MODES)}"
        )
    if config.protocol not in QUEUE_PROTOCOLS:
        raise ModelError(f"unknown protocol {config.protocol!r}; expected one of {', '.join(QUEUE_PROTOCOLS)}")
    if config.da_basis not in DA_BASES:
        raise ModelError(f"unknown DA basis {config.da_basis!r}; expected one of {', '.join(DA_BASES)}")
    if config.max_errors < 1:
        raise ModelError("the maximum of errors per segment must be at least 1")
    if isinstance(config.bad_rate, bool) or not isinstance(config.bad_rate, (int, float)) \
            or not 0 <= config.bad_rate <= 1:
        raise ModelError(f"the BAD rate must be a share between 0 and 1, not {config.bad_rate!r}")
    if config.bad_rate and config.protocol not in BAD_PROTOCOLS:
        raise ModelError(f"BAD items are for {' and '.join(p.upper() for p in BAD_PROTOCOLS)} queues, "
                         f"not {config.protocol.upper()}")
    check_batching(config.batch_size, config.batch_unit)
    if config.reference_mode == "fixed":
        if config.reference is None:
            raise ModelError("reference mode 'fixed' needs a reference id")
        project.reference(config.reference)
    for system_id in config.systems or ():
        project.system(system_id)
    for document_id in config.documents or ():
        project.document(document_id)


def choose_references(
    project: Project, judge: str, config: QueueConfig, pairs: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], str | None]:
    """The reference each (system, segment) is judged against."""
    ref_ids = [r.id for r in project.references]
    chosen: dict[tuple[str, str], str | None] = {}
    if config.reference_mode == "fixed":
        return {pair: config.reference for pair in pairs}
    if config.reference_mode == "per-document":
        draws = Draws(config.seed, judge, "reference-per-document")
        per_doc: dict[str, int] = {}
        # One draw per document in document order, so the choice for a
        # document does not depend on which systems are in the queue.
        for doc in project.documents:
            per_doc[doc.id] = draws.below(len(ref_ids)) if ref_ids else 0
        for system_id, segment_id in pairs:
            start = per_doc[project.document_of(segment_id)]
            chosen[(system_id, segment_id)] = first_with_text(project, ref_ids, start, segment_id)
        return chosen
    draws = Draws(config.seed, judge, "reference-per-segment")
    for system_id, segment_id in pairs:
        start = draws.below(len(ref_ids)) if ref_ids else 0
        chosen[(system_id, segment_id)] = first_with_text(project, ref_ids, start, segment_id)
    return chosen


def first_with_text(project: Project, ref_ids: list[str], start: int, segment_id: str) -> str | None:
    # A reference may lack a segment (variable number of references): fall
    # through to the next one in a fixed order, so the choice stays reproducible.
    for k in range(len(ref_ids)):
        ref_id = ref_ids[(start + k) % len(ref_ids)]
        if project.reference_text(ref_id, segment_id) is not None:
            return ref_id
    return None


def build_queue(project: Project, judge: str, config: QueueConfig = QueueConfig()) -> JudgeQueue:
    """A fresh queue state for ``judge``: pure, the project is not changed.

    The order depends on (seed, judge), so two judges with the same seed do
    not see the items in the same order.
    """
    check_config(project, config)
    if config.protocol == "rank":  # several systems an item: its own queue builder
        return build_ranking_queue(project, judge, config)
    systems = list(config.systems) if config.systems is not None else [s.id for s in project.systems]
    segments = queue_segments(project, config)
    pairs = [(system_id, segment_id) for system_id in systems for segment_id in segments]
    references = choose_references(project, judge, config, pairs)

    order = list(range(len(pairs)))
    Draws(config.seed, judge, "order").shuffle(order)
    distinct = [QueueEntry(pairs[k][0], pairs[k][1], references[pairs[k]]) for k in order]

    def checked(items: list[QueueEntry], batch: str) -> list[QueueEntry]:
        items = with_repeats(items, config, judge, f"repeats{batch}")
        if config.bad_rate:
            items = with_bad_items(project, items, config.bad_rate, f"{config.seed}\0{judge}\0bad{batch}",
                                   config.min_repeat_gap)
        return items

    items, batches = in_batches(project, distinct, config, judge, checked)
    return new_queue_state(config, items, protocol=config.protocol, bad_rate=config.bad_rate, batches=batches)


def in_batches(project: Project, distinct: list[QueueEntry], config: QueueConfig, judge: str,
               checked: Callable[[list[QueueEntry], str], list[QueueEntry]]
               ) -> tuple[list[QueueEntry], list[int] | None]:
    """The queue's items, each batch with its own repeats and BAD items (``checked``, given
    the batch's items and a suffix for its seeded draws), and the batch sizes (None: one batch).
    Without batches the draws are those of a queue drawn before batches existed."""
    if not config.batch_size:
        return checked(distinct, ""), None
    items: list[QueueEntry] = []
    sizes: list[int] = []
    batches = cut_batches(project, distinct, config.batch_size, config.batch_unit,
                          Draws(config.seed, judge, "batch-documents").shuffle)
    for number, batch in enumerate(batches, 1):
        batch = checked(batch, f"\0batch {number}")
        items.extend(batch)
        sizes.append(len(batch))
    return items, sizes


def queue_segments(project: Project, config: QueueConfig) -> list[str]:
    """The segments a queue draws from: those of ``config.documents``, or all."""
    if config.documents is None:
        return project.segment_ids
    wanted = set(config.documents)
    return [s.id for s in project.segments if project.document_of(s.id) in wanted]


def with_repeats(items: list[QueueEntry], config: QueueConfig, judge: str, purpose: str) -> list[QueueEntry]:
    """``items`` with ``repeat_share`` of them shown again (``repeat=True``, same
    systems and reference), each at least ``min_repeat_gap`` items after its original
    where the queue is long enough; ``purpose`` names the seeded draws."""
    n_repeats = int(round(config.repeat_share * len(items)))
    if not n_repeats:
        return items
    draws = Draws(config.seed, judge, purpose)
    originals = list(range(len(items)))
    draws.shuffle(originals)
    n = len(items)
    # Base item i sorts at i; a repeat of item p goes just before base item
    # t (t = n: at the end), t drawn from [p + 1 + gap, n], so at least
    # ``gap`` items separate it from its original when the queue allows.
    keyed: list[tuple[float, int, QueueEntry]] = [(float(i), 0, item) for i, item in enumerate(items)]
    for k, p in enumerate(sorted(originals[:n_repeats]), 1):
        low = min(p + 1 + config.min_repeat_gap, n)
        t = low + draws.below(n - low + 1)
        shown = items[p].systems  # a ranking item's systems: a list of its own
        keyed.append((t - 0.5, k, replace(items[p], repeat=True, systems=None if shown is None else list(shown))))
    keyed.sort(key=lambda entry: (entry[0], entry[1]))
    return [item for _, _, item in keyed]


def new_queue_state(config: QueueConfig, items: list[QueueEntry], **fields: Any) -> JudgeQueue:
    """A fresh queue state (position 0) of ``items`` drawn with ``config``;
    ``fields`` are the protocol's own (``protocol``, ``bad_rate``, ``max_systems``)."""
    return JudgeQueue(
        format=QUEUE_FORMAT,
        seed=config.seed,
        repeat_share=config.repeat_share,
        min_repeat_gap=config.min_repeat_gap,
        reference_mode=config.reference_mode,
        reference=config.reference,
        systems=None if config.systems is None else list(config.systems),
        documents=None if config.documents is None else list(config.documents),
        show_source=config.show_source,
        highlight_overlap=config.highlight_overlap,
        items=items,
        position=0,
        da_basis=config.da_basis,
        max_errors=config.max_errors,
        batch_size=config.batch_size,
        batch_unit=config.batch_unit,
        **fields,
    )


def with_bad_items(project: Project, items: list[QueueEntry], rate: float, seed: str,
                   min_gap: int) -> list[QueueEntry]:
    """``items`` with BAD copies of ``rate`` of its first showings (not repeats) inserted
    (``core.quality_control``): the system's text degraded by a stretch of another
    segment's translation, placed at least ``min_gap`` items after the original."""
    texts = [project.system(e.system).texts.get(e.segment, "") for e in items]
    bad = plan_bad_items(items, texts, rate, seed, groups=[e.segment for e in items],
                         eligible=[not e.repeat and not e.qc for e in items], min_gap=min_gap)
    out = list(items)
    for b in bad:  # ascending positions in the final order
        out.insert(b.position, replace(b.item, judgment=None, qc="bad", text=b.copy.text))
    return out


def config_of(state: JudgeQueue) -> QueueConfig:
    """The settings a queue state was built with."""
    return QueueConfig(
        seed=state.seed,
        repeat_share=state.repeat_share,
        min_repeat_gap=state.min_repeat_gap,
        reference_mode=state.reference_mode,
        reference=state.reference,
        systems=None if state.systems is None else tuple(state.systems),
        documents=None if state.documents is None else tuple(state.documents),
        show_source=state.show_source,
        highlight_overlap=state.highlight_overlap,
        protocol=state.protocol,
        da_basis=state.da_basis,
        max_errors=state.max_errors,
        max_systems=state.max_systems,
        bad_rate=state.bad_rate,
        batch_size=state.batch_size,
        batch_unit=state.batch_unit,
        suggest_spans=state.suggestions,
    )


def split_evenly(items: list[str], most: int) -> list[list[str]]:
    """``items`` cut, in order, into the fewest groups of at most ``most``, sizes differing by at most one."""
    if not items:
        return []
    n_groups = -(-len(items) // most)
    size, extra = divmod(len(items), n_groups)
    out, at = [], 0
    for g in range(n_groups):
        take = size + (1 if g < extra else 0)
        out.append(items[at:at + take])
        at += take
    return out


def build_ranking_queue(project: Project, judge: str, config: QueueConfig) -> JudgeQueue:
    """A fresh relative-ranking queue for ``judge`` (the project is not changed).

    For each segment the systems are shuffled (seed, judge, segment) and cut into
    groups of at most ``config.max_systems``; the items are then shuffled as a
    whole, and ``repeat_share`` of them come again later (same systems, same
    order, same reference) at least ``min_repeat_gap`` items after the first time.
    """
    check_config(project, config)
    if config.max_systems < 2:
        raise ModelError(f"a ranking shows at least 2 systems side by side, not {config.max_systems}")
    systems = list(config.systems) if config.systems is not None else [s.id for s in project.systems]
    if len(systems) < 2:
        raise ModelError("relative ranking needs at least 2 systems")
    segments = queue_segments(project, config)
    groups: list[tuple[str, list[str]]] = []
    for segment in segments:
        present = [s for s in systems if project.system(s).texts.get(segment) is not None]
        if len(present) < 2:
            continue
        Draws(config.seed, judge, f"ranking-systems\0{segment}").shuffle(present)
        groups.extend((segment, group) for group in split_evenly(present, config.max_systems))
    # The reference follows the first system shown (per-document and fixed modes do not
    # depend on the system at all).
    references = choose_references(project, judge, config, [(g[0], seg) for seg, g in groups])
    order = list(range(len(groups)))
    Draws(config.seed, judge, "ranking-order").shuffle(order)
    distinct = [
        QueueEntry(groups[k][1][0], groups[k][0], references[(groups[k][1][0], groups[k][0])],
                   systems=list(groups[k][1]))
        for k in order
    ]
    items, batches = in_batches(project, distinct, config, judge,
                                lambda batch, suffix: with_repeats(batch, config, judge, f"ranking-repeats{suffix}"))
    return new_queue_state(config, items, protocol="rank", max_systems=config.max_systems, batches=batches)


def with_suggestions(project: Project, state: JudgeQueue,
                     spans: Mapping[tuple[str, str], Sequence[SuggestedSpan]], source: str) -> JudgeQueue:
    """``state`` with a model's error spans (by system and segment) on its items, to be shown
    pre-marked: ESA and MQM queues only; a BAD item (a degraded copy the model never saw)
    gets none. A span outside its translation is refused, naming the item."""
    if state.protocol not in SUGGESTION_PROTOCOLS:
        raise ModelError(f"only {' and '.join(p.upper() for p in SUGGESTION_PROTOCOLS)} queues can start from a model's error "
                         f"spans, not {state.protocol.upper()}")
    items = []
    for entry in state.items:
        found = [] if entry.qc else list(spans.get((entry.system, entry.segment), ()))
        length = len(project.system(entry.system).texts.get(entry.segment, ""))
        for s in found:
            if not 0 <= s.start < s.end <= length:
                raise ModelError(f"suggested span {s.start}-{s.end} of {source} is outside the translation of "
                                 f"system {entry.system!r}, segment {entry.segment!r} (0-{length})")
        items.append(replace(entry, suggested=found))
    return replace(state, items=items, suggestions=source)
