"""The judge's work queue: which (system, segment) to rate next, against which reference.

A queue is built once per judge from a seed, so the same project, judge and
settings always give the same order (``build_queue``). Its whole state -- the
settings, the items with the reference each is shown against, the judgment
each produced and the judge's position -- is a ``JudgeQueue`` record
(``core.queue_state``) kept in ``project.judge_queues[judge]`` and changed only
through the project's queue mutators (each emits ``JudgeQueueChanged`` or
``JudgeQueueMoved``); it is saved with the bundle, so stopping and
resuming loses nothing (``JudgeSession(project, judge)`` picks up where the
judge left off).

An item counts as done while the project holds the judgment recorded for it,
so undoing the added judgment makes the item pending again without touching
the queue.

The session only *computes* changes: ``submit`` returns the ``Judgment`` to
add (or, for an item already judged, the replacement with the same id). The
caller applies it -- the GUI inside an undo command -- with
``apply_judgment``/``revert_judgment``, which are each other's inverse.

A DA or ESA queue may hide quality-control items among the others
(``bad_rate``): degraded copies of items ("BAD references", WMT) that a rater
paying attention scores lower. The queue entry records that it is one and the
text it shows; the rater sees it like any other item; its judgment carries
``qc="bad"`` and that text, so it feeds ``analysis.quality_control`` and never
the human scores.

Turian, Shen & Melamed 2003 judged every sentence of a document against one
reference translation; ``reference_mode="per-document"`` reproduces that.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, UTC
from typing import Any

from mtworkbench.core.model import ErrorSpan, Judgment, ModelError, Project
from mtworkbench.core.quality_control import plan_bad_items
from mtworkbench.core.queue_state import (
    BAD_PROTOCOLS,
    DA_BASES,
    DISPLAY_OPTIONS,
    MQM_MAX_ERRORS,
    QUEUE_PROTOCOLS,
    RANK_MAX_SYSTEMS,
    QUEUE_FORMAT,
    REFERENCE_MODES,
    JudgeQueue,
    QueueEntry,
)

# LDC (TIDES) 5-point scales, best first, as the judge sees them.
ADEQUACY_LABELS: dict[int, str] = {
    5: "All of the meaning",
    4: "Most of the meaning",
    3: "Much of the meaning",
    2: "Little of the meaning",
    1: "None of the meaning",
}
FLUENCY_LABELS: dict[int, str] = {
    5: "Flawless English",
    4: "Good English",
    3: "Non-native English",
    2: "Disfluent English",
    1: "Incomprehensible English",
}
_FLUENCY_GRADES: dict[int, str] = {
    5: "Flawless",
    4: "Good",
    3: "Non-native",
    2: "Disfluent",
    1: "Incomprehensible",
}


def fluency_labels(language: str | None) -> dict[int, str]:
    """The LDC fluency scale for the project's target language: "Flawless German",
    "Flawless Chinese"; "Flawless in the target language" when it is unknown."""
    from mtworkbench.core.language import display_name

    name = display_name(language)
    if name is None:
        return {k: f"{grade} in the target language" for k, grade in _FLUENCY_GRADES.items()}
    return {k: f"{grade} {name}" for k, grade in _FLUENCY_GRADES.items()}


ADEQUACY_QUESTION = "How much of the meaning of the reference is expressed in the translation?"
FLUENCY_QUESTION = "How fluent is the translation?"
RATINGS: tuple[int, ...] = (5, 4, 3, 2, 1)



@dataclass(frozen=True)
class QueueConfig:
    """How a judge's queue is drawn.

    ``repeat_share`` is the number of repeated items as a share of the
    distinct items (0.1 = one repeat per ten items), used to measure
    intra-judge consistency; a repeat comes at least ``min_repeat_gap`` items
    after its original where the queue is long enough, and is shown against
    the same reference. ``systems``/``documents`` restrict the items (None =
    all). ``reference_mode`` chooses the reference shown: one per document
    (Turian, Shen & Melamed 2003), a fresh draw per segment, or ``reference`` for everything.
    ``show_source`` and ``highlight_overlap`` are part of the protocol (they
    change what the judge sees), so they are stored with the queue.
    ``bad_rate`` (DA, ESA) adds BAD copies as a share of the distinct items
    (WMT used about 12%), each at least ``min_repeat_gap`` items after its original.
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


@dataclass(frozen=True)
class QueueItem:
    """One item as the workspace shows it. ``system`` and ``qc`` are for bookkeeping,
    never displayed; ``candidate`` is a BAD item's degraded text."""

    index: int
    system: str
    segment: str
    document: str
    reference: str | None
    repeat: bool
    candidate: str
    reference_text: str | None
    source: str
    judgment: Judgment | None  # the stored judgment when the item was rated already
    qc: str = ""


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    position: int  # 0-based index of the current item; == total when finished

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0


@dataclass
class RatingEntry:
    """The keyboard protocol of the workspace, without Qt: digits 1-5 rate
    adequacy, then fluency; Enter submits once both are set. A digit after
    both are set starts again with adequacy, so a slip is fixed by typing on.
    """

    adequacy: int | None = None
    fluency: int | None = None

    @classmethod
    def from_judgment(cls, judgment: Judgment | None) -> RatingEntry:
        """Pre-filled with a stored judgment (after going back), or empty."""
        if judgment is None:
            return cls()
        return cls(judgment.adequacy, judgment.fluency)

    def press(self, digit: int) -> None:
        check_rating("rating key", digit)
        if self.adequacy is None or self.fluency is not None:
            self.adequacy, self.fluency = digit, None
        else:
            self.fluency = digit

    def clear(self) -> None:
        self.adequacy = self.fluency = None

    @property
    def complete(self) -> bool:
        return self.adequacy is not None and self.fluency is not None

    @property
    def expecting(self) -> str | None:
        """Which scale the next digit rates: 'adequacy', 'fluency', or None when complete."""
        if self.adequacy is None:
            return "adequacy"
        return "fluency" if self.fluency is None else None


class ItemClock:
    """Time spent on the current item; paused while the window is inactive.

    ``now`` is injectable for tests (default ``time.monotonic``).
    """

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._spent = 0.0
        self._since: float | None = None

    def start(self) -> None:
        """Begin timing a new item from zero."""
        self._spent = 0.0
        self._since = self._now()

    def pause(self) -> None:
        if self._since is not None:
            self._spent += self._now() - self._since
            self._since = None

    def resume(self) -> None:
        if self._since is None:
            self._since = self._now()

    @property
    def seconds(self) -> float:
        running = self._now() - self._since if self._since is not None else 0.0
        return self._spent + running


class _Draws:
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


def _check_config(project: Project, config: QueueConfig) -> None:
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
    if config.reference_mode == "fixed":
        if config.reference is None:
            raise ModelError("reference mode 'fixed' needs a reference id")
        project.reference(config.reference)
    for system_id in config.systems or ():
        project.system(system_id)
    for document_id in config.documents or ():
        project.document(document_id)


def _choose_references(
    project: Project, judge: str, config: QueueConfig, pairs: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], str | None]:
    """The reference each (system, segment) is judged against."""
    ref_ids = [r.id for r in project.references]
    chosen: dict[tuple[str, str], str | None] = {}
    if config.reference_mode == "fixed":
        return {pair: config.reference for pair in pairs}
    if config.reference_mode == "per-document":
        draws = _Draws(config.seed, judge, "reference-per-document")
        per_doc: dict[str, int] = {}
        # One draw per document in document order, so the choice for a
        # document does not depend on which systems are in the queue.
        for doc in project.documents:
            per_doc[doc.id] = draws.below(len(ref_ids)) if ref_ids else 0
        for system_id, segment_id in pairs:
            start = per_doc[project.document_of(segment_id)]
            chosen[(system_id, segment_id)] = _first_with_text(project, ref_ids, start, segment_id)
        return chosen
    draws = _Draws(config.seed, judge, "reference-per-segment")
    for system_id, segment_id in pairs:
        start = draws.below(len(ref_ids)) if ref_ids else 0
        chosen[(system_id, segment_id)] = _first_with_text(project, ref_ids, start, segment_id)
    return chosen


def _first_with_text(project: Project, ref_ids: list[str], start: int, segment_id: str) -> str | None:
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
    _check_config(project, config)
    if config.protocol == "rank":  # several systems an item: its own queue builder
        from mtworkbench.core.ranking import build_ranking_queue

        return build_ranking_queue(project, judge, config)
    systems = list(config.systems) if config.systems is not None else [s.id for s in project.systems]
    segments = _queue_segments(project, config)
    pairs = [(system_id, segment_id) for system_id in systems for segment_id in segments]
    references = _choose_references(project, judge, config, pairs)

    order = list(range(len(pairs)))
    _Draws(config.seed, judge, "order").shuffle(order)
    items = [QueueEntry(pairs[k][0], pairs[k][1], references[pairs[k]]) for k in order]
    items = _with_repeats(items, config, judge, "repeats")
    if config.bad_rate:
        items = with_bad_items(project, items, config.bad_rate, f"{config.seed}\0{judge}\0bad",
                               config.min_repeat_gap)
    return _queue_state(config, items, protocol=config.protocol, bad_rate=config.bad_rate)


def _queue_segments(project: Project, config: QueueConfig) -> list[str]:
    """The segments a queue draws from: those of ``config.documents``, or all."""
    if config.documents is None:
        return project.segment_ids
    wanted = set(config.documents)
    return [s.id for s in project.segments if project.document_of(s.id) in wanted]


def _with_repeats(items: list[QueueEntry], config: QueueConfig, judge: str, purpose: str) -> list[QueueEntry]:
    """``items`` with ``repeat_share`` of them shown again (``repeat=True``, same
    systems and reference), each at least ``min_repeat_gap`` items after its original
    where the queue is long enough; ``purpose`` names the seeded draws."""
    n_repeats = int(round(config.repeat_share * len(items)))
    if not n_repeats:
        return items
    draws = _Draws(config.seed, judge, purpose)
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


def _queue_state(config: QueueConfig, items: list[QueueEntry], **fields: Any) -> JudgeQueue:
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
    )


def check_rating(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in RATINGS:
        raise ModelError(f"{name} must be an integer from 1 to 5, not {value!r}")
    return value


def check_seconds(seconds: Any) -> None:
    """Time spent on an item: a non-negative number (ModelError otherwise)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0:
        raise ModelError(f"seconds must be a non-negative number, not {seconds!r}")


def _utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class JudgeSession:
    """A judge working through their queue; a thin handle over ``project.judge_queues[judge]``."""

    def __init__(self, project: Project, judge: str, clock: Callable[[], str] = _utc_now) -> None:
        if judge not in project.judges:
            raise ModelError(f"unknown judge {judge!r}")
        if judge not in project.judge_queues:
            raise ModelError(f"judge {judge!r} has no queue yet; start one first")
        state = project.judge_queues[judge]
        # The queue names systems, segments and references by id; one removed
        # since (remove_system does not edit queues) cannot be shown any more.
        for i, raw in enumerate(state.items):
            if not project.has_system(raw.system) or not project.has_segment(raw.segment) or (
                raw.reference is not None and not project.has_reference(raw.reference)
            ):
                raise ModelError(
                    f"the queue of judge {judge!r} refers (item {i + 1}) to a system, segment or "
                    "reference no longer in the project; start a new queue"
                )
        self.project = project
        self.judge = judge
        self._clock = clock

    @classmethod
    def start(
        cls,
        project: Project,
        judge: str,
        config: QueueConfig = QueueConfig(),
        clock: Callable[[], str] = _utc_now,
    ) -> JudgeSession:
        """Build a new queue for ``judge`` (replacing any old one) and open it.

        Judgments made from an old queue stay in the project.
        """
        if judge not in project.judges:
            raise ModelError(f"unknown judge {judge!r}")
        project.set_judge_queue(judge, build_queue(project, judge, config))
        return cls(project, judge, clock)

    # --- state ------------------------------------------------------------------
    @property
    def state(self) -> JudgeQueue:
        return self.project.judge_queues[self.judge]

    @property
    def config(self) -> QueueConfig:
        return config_of(self.state)

    @property
    def total(self) -> int:
        return len(self.state.items)

    @property
    def position(self) -> int:
        return self.state.position

    def stored_judgment(self, index: int) -> Judgment | None:
        """The judgment item ``index`` produced, if the project still holds it."""
        item = self.state.items[index]
        judgment_id = item.judgment
        if judgment_id is None:
            return None
        try:
            j = self.project.judgment(judgment_id)
        except ModelError:
            return None  # the add was undone, or the judgment removed
        if (j.judge, j.system, j.segment, j.qc) != (self.judge, item.system, item.segment, item.qc):
            return None
        return j

    def is_done(self, index: int) -> bool:
        return self.stored_judgment(index) is not None

    @property
    def done(self) -> int:
        return sum(1 for i in range(self.total) if self.is_done(i))

    @property
    def progress(self) -> Progress:
        return Progress(self.done, self.total, self.position)

    @property
    def finished(self) -> bool:
        return self.position >= self.total

    def item(self, index: int) -> QueueItem:
        raw = self.state.items[index]
        reference = raw.reference
        return QueueItem(
            index=index,
            system=raw.system,
            segment=raw.segment,
            document=self.project.document_of(raw.segment),
            reference=reference,
            repeat=raw.repeat,
            candidate=raw.text if raw.text is not None else self.project.system_text(raw.system, raw.segment),
            reference_text=None if reference is None else self.project.reference_text(reference, raw.segment),
            source=self.project.segment(raw.segment).source,
            judgment=self.stored_judgment(index),
            qc=raw.qc,
        )

    @property
    def current(self) -> QueueItem | None:
        return None if self.finished else self.item(self.position)

    def first_pending(self, excluding: int | None = None) -> int | None:
        for i in range(self.total):
            if i != excluding and not self.is_done(i):
                return i
        return None

    def index_of_judgment(self, judgment_id: str) -> int | None:
        for i, raw in enumerate(self.state.items):
            if raw.judgment == judgment_id:
                return i
        return None

    DISPLAY_OPTIONS = DISPLAY_OPTIONS

    def set_option(self, name: str, value: bool) -> bool:
        """Turn showing the source or highlighting word overlap on or off; returns the old value."""
        return self.project.set_queue_option(self.judge, name, value)

    # --- moving -----------------------------------------------------------------
    def go_to(self, index: int) -> None:
        self.project.move_judge_queue(self.judge, index)

    def back(self) -> QueueItem | None:
        """Step to the previous item (its stored judgment can then be changed)."""
        if self.position > 0:
            self.project.move_judge_queue(self.judge, self.position - 1)
        return self.current

    def forward(self) -> QueueItem | None:
        if self.position < self.total:
            self.project.move_judge_queue(self.judge, self.position + 1)
        return self.current

    # --- rating -------------------------------------------------------------------
    def submit(self, adequacy: int, fluency: int, comment: str = "", seconds: float = 0.0) -> Judgment:
        """Rate the current item and move on; returns the judgment to apply.

        For an item not yet judged this is a new judgment (``project.add_judgment``);
        for one judged already it has the stored judgment's id and replaces it
        (``project.replace_judgment``), its time added to the time spent before.
        ``apply_judgment`` does the right one. The queue records the judgment id
        and moves to the next item in queue order now; the item counts as done once the
        judgment is applied. (An undo command may restore ``position`` with ``go_to``.)
        """
        if self.finished:
            raise ModelError("the queue is finished; there is no item to rate")
        check_rating("adequacy", adequacy)
        check_rating("fluency", fluency)
        return self._rate_current(seconds, comment, adequacy=adequacy, fluency=fluency)

    def _rate_current(self, seconds: float, comment: str, reference: bool = True, **rating: Any) -> Judgment:
        """The judgment of the current item with ``rating``'s fields (``submit`` and
        ``submit_scored``): a new id or the stored judgment's, its time added to the
        time spent before; recorded in the queue, which moves on."""
        check_seconds(seconds)
        index = self.position
        raw = self.state.items[index]
        previous = self.stored_judgment(index)
        judgment = Judgment(
            id=previous.id if previous is not None else self.project.new_id("j"),
            judge=self.judge,
            system=raw.system,
            segment=raw.segment,
            reference=raw.reference if reference else None,
            timestamp=self._clock(),
            seconds=float(seconds) + (previous.seconds if previous is not None else 0.0),
            comment=comment,
            qc=raw.qc,
            text=raw.text,
            **rating,
        )
        self.project.check_judgment(judgment, replacing=previous.id if previous is not None else None)
        self.project.record_queue_judgment(self.judge, index, judgment.id)
        self.project.move_judge_queue(self.judge, self._next_position(index))
        return judgment

    def _next_position(self, index: int) -> int:
        """Where Enter goes after rating ``index``: the next item in queue order while
        undone items lie ahead (so a judge who went back reviews every following
        item in turn); otherwise the first one still undone (:meth:`_next_pending`:
        a skipped item, or the end)."""
        if any(not self.is_done(i) for i in range(index + 1, self.total)):
            return index + 1
        return self._next_pending(index)

    def submit_scored(
        self, score: float | None, errors: Sequence[ErrorSpan] = (), comment: str = "", seconds: float = 0.0
    ) -> Judgment:
        """Rate the current item under the queue's protocol (DA, ESA, MQM) and move on.

        DA and ESA need a 0-100 ``score`` (ESA with its error spans); MQM takes
        the spans and no score (its score comes from the weights). Otherwise as ``submit``.
        """
        if self.finished:
            raise ModelError("the queue is finished; there is no item to rate")
        protocol = self.state.protocol
        if protocol == "ldc":
            raise ModelError("an LDC queue is rated with adequacy and fluency")
        if protocol == "rank":
            raise ModelError("a ranking queue is rated by ranking its systems (core.ranking.RankingSession)")
        if protocol == "mqm":
            if score is not None:
                raise ModelError("an MQM rating has no score of its own; its errors make it")
        elif isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 100:
            raise ModelError(f"a {protocol.upper()} score must be a number from 0 to 100, not {score!r}")
        if protocol == "da" and errors:
            raise ModelError("a DA rating carries no error spans")
        if protocol == "mqm" and len(errors) > self.state.max_errors:
            raise ModelError(f"at most {self.state.max_errors} errors a segment in this queue, not {len(errors)}")
        return self._rate_current(
            seconds, comment,
            reference=protocol != "da" or self.state.da_basis == "reference",
            score=None if score is None else float(score),
            scale=None if score is None else protocol,
            protocol=protocol,
            errors=tuple(errors),
        )

    def _next_pending(self, index: int) -> int:
        """The first undone item after ``index``, wrapping round to the start
        (holes left by an undo); ``total`` when everything else is done.

        Used after the last item, to come back round to what an undo left undone.
        """
        for i in [*range(index + 1, self.total), *range(index)]:
            if not self.is_done(i):
                return i
        return self.total


def apply_judgment(project: Project, judgment: Judgment) -> Judgment | None:
    """Add the judgment, or replace the one with its id; returns what it replaced."""
    try:
        project.judgment(judgment.id)
    except ModelError:
        project.add_judgment(judgment)
        return None
    return project.replace_judgment(judgment)


def revert_judgment(project: Project, judgment: Judgment, replaced: Judgment | None) -> None:
    """The inverse of ``apply_judgment(project, judgment)`` that returned ``replaced``."""
    if replaced is None:
        project.remove_judgment(judgment.id)
    else:
        project.replace_judgment(replaced)
