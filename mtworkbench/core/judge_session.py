"""A judge working through their queue (``JudgeSession``), and submitting an item as one
undoable edit.

The queue's whole state lives in ``project.judge_queues[judge]`` (``core.queue_state``)
and changes only through the project's queue mutators, so stopping and resuming loses
nothing (``JudgeSession(project, judge)`` picks up where the judge left off). An item
counts as done while the project holds the judgment recorded for it.

The session only *computes* changes: ``rate`` (and ``rate_scored``) return a
``RatingEdit`` whose ``redo`` does the whole submit (note the judgment in the queue,
move on, store the judgment) and whose ``undo`` reverses it exactly; the GUI wraps
it in an undo command. ``submit`` is the same for callers without an undo stack: it
moves the queue now and returns the judgment to apply with ``apply_judgment``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from mtworkbench.core.model import ErrorSpan, Judgment, ModelError, Project
from mtworkbench.core.queue_batches import batch_at
from mtworkbench.core.queue_drawing import QueueConfig, build_queue, config_of
from mtworkbench.core.queue_state import DISPLAY_OPTIONS, JudgeQueue
from mtworkbench.core.suggested_spans import SpanOutcome, SuggestedSpan

RATINGS: tuple[int, ...] = (5, 4, 3, 2, 1)


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
    suggested: tuple[SuggestedSpan, ...] = ()  # a model's error spans to show pre-marked


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    position: int  # 0-based index of the current item; == total when finished
    # The batch of the current item (core.queue_batches): number of count, its items done of all.
    batch: int = 1
    batches: int = 1
    batch_done: int = 0
    batch_total: int = 0

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0


def check_rating(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in RATINGS:
        raise ModelError(f"{name} must be an integer from 1 to 5, not {value!r}")
    return value


def check_seconds(seconds: Any) -> None:
    """Time spent on an item: a non-negative number (ModelError otherwise)."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0:
        raise ModelError(f"seconds must be a non-negative number, not {seconds!r}")


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class JudgeSession:
    """A judge working through their queue; a thin handle over ``project.judge_queues[judge]``."""

    def __init__(self, project: Project, judge: str, clock: Callable[[], str] = utc_now) -> None:
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
        clock: Callable[[], str] = utc_now,
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

    def done_flags(self) -> list[bool]:
        """Whether each item is done, in queue order."""
        return [self.is_done(i) for i in range(self.total)]

    @property
    def done(self) -> int:
        return sum(1 for i in range(self.total) if self.is_done(i))

    @property
    def progress(self) -> Progress:
        done = self.done_flags()
        where = batch_at(self.state, self.position)
        return Progress(sum(done), self.total, self.position, where.number, where.count,
                        sum(done[where.start:where.end]), where.end - where.start)

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
            suggested=tuple(raw.suggested or ()),
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
    def rate(self, adequacy: int, fluency: int, comment: str = "", seconds: float = 0.0) -> RatingEdit:
        """The LDC rating of the current item as one edit (``RatingEdit``), not yet applied.

        For an item not yet judged the judgment is new; for one judged already it has
        the stored judgment's id and replaces it, its time added to the time spent
        before. The edit's ``redo`` records the judgment id in the queue, moves to the
        next item in queue order and stores the judgment; its ``undo`` reverses all three.
        """
        if self.finished:
            raise ModelError("the queue is finished; there is no item to rate")
        check_rating("adequacy", adequacy)
        check_rating("fluency", fluency)
        return self._rating_edit(seconds, comment, adequacy=adequacy, fluency=fluency)

    def submit(self, adequacy: int, fluency: int, comment: str = "", seconds: float = 0.0) -> Judgment:
        """Rate the current item and move on; returns the judgment to apply.

        As ``rate``, but the queue records the judgment id and moves on now; the item
        counts as done once the judgment is applied (``apply_judgment``).
        """
        return self._step(self.rate(adequacy, fluency, comment, seconds)).judgment

    def _step(self, edit: RatingEdit) -> RatingEdit:
        edit.step.take(self.project)
        return edit

    def _rating_edit(self, seconds: float, comment: str, reference: bool = True, **rating: Any) -> RatingEdit:
        """The judgment of the current item with ``rating``'s fields (``rate`` and
        ``rate_scored``): a new id or the stored judgment's, its time added to the
        time spent before; with the queue's step to the next item."""
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
        step = QueueStep(self.judge, index, judgment.id, index, self._next_position(index))
        return RatingEdit(self.project, step, judgment, replacing=previous is not None)

    def _next_position(self, index: int) -> int:
        """Where Enter goes after rating ``index``: the next item in queue order while
        undone items lie ahead (so a judge who went back reviews every following
        item in turn); otherwise the first one still undone (:meth:`_next_pending`:
        a skipped item, or the end)."""
        if any(not self.is_done(i) for i in range(index + 1, self.total)):
            return index + 1
        return self._next_pending(index)

    def rate_scored(
        self, score: float | None, errors: Sequence[ErrorSpan] = (), comment: str = "", seconds: float = 0.0,
        suggestions: Sequence[SpanOutcome] = (),
    ) -> RatingEdit:
        """The rating of the current item under the queue's protocol (DA, ESA, MQM), as ``rate``.

        DA and ESA need a 0-100 ``score`` (ESA with its error spans); MQM takes
        the spans and no score (its score comes from the weights). ``suggestions``: what
        became of each span the model pre-marked (``core.span_draft.SpanDraft.outcomes``).
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
        return self._rating_edit(
            seconds, comment,
            reference=protocol != "da" or self.state.da_basis == "reference",
            score=None if score is None else float(score),
            scale=None if score is None else protocol,
            protocol=protocol,
            errors=tuple(errors),
            suggestions=tuple(suggestions),
        )

    def submit_scored(
        self, score: float | None, errors: Sequence[ErrorSpan] = (), comment: str = "", seconds: float = 0.0,
        suggestions: Sequence[SpanOutcome] = (),
    ) -> Judgment:
        """Rate the current item under the queue's protocol and move on, as ``submit``."""
        return self._step(self.rate_scored(score, errors, comment, seconds, suggestions)).judgment

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


@dataclass(frozen=True)
class QueueStep:
    """What submitting item ``index`` does to the queue: note ``recorded`` (the judgment
    or ranking id it produced) and move the position from ``before`` to ``after``."""

    judge: str
    index: int
    recorded: str
    before: int
    after: int

    def take(self, project: Project) -> str | None:
        """Move on and note the id; returns the id noted before (``take_back``'s argument)."""
        project.move_judge_queue(self.judge, self.after)
        return project.record_queue_judgment(self.judge, self.index, self.recorded)

    def take_back(self, project: Project, previous: str | None) -> None:
        project.move_judge_queue(self.judge, self.before)
        project.record_queue_judgment(self.judge, self.index, previous)


class QueueEdit:
    """Submitting one queue item as one undoable edit: ``redo`` notes what the item
    produced, moves the queue and stores the work (``_apply``); ``undo`` reverses all
    of it, leaving the project as it was before ``redo``.

    The position moves before the judgments change, so views refreshing on the
    judgment events already see the new position; undo shows the item it took back.
    """

    def __init__(self, project: Project, step: QueueStep) -> None:
        self.project = project
        self.step = step
        self._previous: str | None = None

    def redo(self) -> None:
        self._previous = self.step.take(self.project)
        self._apply()

    def undo(self) -> None:
        self.step.take_back(self.project, self._previous)
        self._revert()

    def _apply(self) -> None:
        raise NotImplementedError

    def _revert(self) -> None:
        raise NotImplementedError


class RatingEdit(QueueEdit):
    """Submit a rating: add ``judgment`` (or, ``replacing``, replace the stored one with its id)."""

    def __init__(self, project: Project, step: QueueStep, judgment: Judgment, replacing: bool) -> None:
        super().__init__(project, step)
        self.judgment = judgment
        self.replacing = replacing
        self._replaced: Judgment | None = None

    def _apply(self) -> None:
        self._replaced = apply_judgment(self.project, self.judgment)

    def _revert(self) -> None:
        revert_judgment(self.project, self.judgment, self._replaced)
