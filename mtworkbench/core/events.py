"""What a ``Project`` tells its listeners after each change: one class per kind.

Every mutator of :class:`~mtworkbench.core.model.Project` emits exactly one of
these, with the changed object as typed fields. Listeners test the class
(``isinstance(event, SpanAdded)``) or one of the categories below, which are
defined here once so that the score cache and every view agree on what a
change touches:

- ``AFFECTS_SCORES``: the texts, references, systems and entity spans that
  metrics have read (``SYSTEM_SCOPED`` ones change a single system's inputs and
  name it in ``system_id``);
- ``AFFECTS_ANNOTATIONS``: entity spans and the reference texts they sit in;
- ``AFFECTS_JUDGMENTS``: the set of human judgments (``JUDGE_ROSTER`` is the
  list of judges, ``QUEUE_EVENTS`` a judge's work queue).

``kind`` is a readable name (``"span_added"``) for messages and logs; decide
with classes, not by parsing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # the names are for annotations only
    from mtworkbench.core.records import EntitySpan, Judgment, Reference, Segment, System


@dataclass(frozen=True)
class ProjectEvent:
    """Base of every project change event."""

    kind: ClassVar[str] = "project_changed"


# --- sources --------------------------------------------------------------------------
@dataclass(frozen=True)
class SegmentChanged(ProjectEvent):
    kind: ClassVar[str] = "segment_changed"
    segment: Segment


# --- references -----------------------------------------------------------------------
@dataclass(frozen=True)
class ReferenceAdded(ProjectEvent):
    kind: ClassVar[str] = "reference_added"
    reference: Reference


@dataclass(frozen=True)
class ReferenceRemoved(ProjectEvent):
    kind: ClassVar[str] = "reference_removed"
    reference: Reference


@dataclass(frozen=True)
class ReferenceChanged(ProjectEvent):
    """One reference text of one segment was set or cleared."""

    kind: ClassVar[str] = "reference_changed"
    reference_id: str
    segment_id: str


# --- systems --------------------------------------------------------------------------
@dataclass(frozen=True)
class SystemAdded(ProjectEvent):
    kind: ClassVar[str] = "system_added"
    system: System


@dataclass(frozen=True)
class SystemRemoved(ProjectEvent):
    kind: ClassVar[str] = "system_removed"
    system: System

    @property
    def system_id(self) -> str:
        return self.system.id


@dataclass(frozen=True)
class SystemChanged(ProjectEvent):
    """One system text of one segment was replaced."""

    kind: ClassVar[str] = "system_changed"
    system_id: str
    segment_id: str


# --- entity spans ---------------------------------------------------------------------
@dataclass(frozen=True)
class SpanAdded(ProjectEvent):
    kind: ClassVar[str] = "span_added"
    span: EntitySpan


@dataclass(frozen=True)
class SpanRemoved(ProjectEvent):
    kind: ClassVar[str] = "span_removed"
    span: EntitySpan


@dataclass(frozen=True)
class SpanChanged(ProjectEvent):
    """A span was retyped; ``span`` is the new one (same id and place)."""

    kind: ClassVar[str] = "span_changed"
    span: EntitySpan


@dataclass(frozen=True)
class RelationChanged(ProjectEvent):
    """A relation between two spans was added, removed or retyped (``relation`` as it is now,
    or as it was when removed)."""

    kind: ClassVar[str] = "relation_changed"
    relation: Any


@dataclass(frozen=True)
class AnnotationsReset(ProjectEvent):
    """Many spans came back at once (a reference restored): re-read them all."""

    kind: ClassVar[str] = "annotations_reset"


# --- judges, judgments and queues -----------------------------------------------------
@dataclass(frozen=True)
class JudgeAdded(ProjectEvent):
    kind: ClassVar[str] = "judge_added"
    judge: str


@dataclass(frozen=True)
class JudgeRemoved(ProjectEvent):
    kind: ClassVar[str] = "judge_removed"
    judge: str


@dataclass(frozen=True)
class JudgeQueueChanged(ProjectEvent):
    """A judge's work queue was started, replaced, dropped or had a display option changed."""

    kind: ClassVar[str] = "judge_queue_changed"
    judge: str


@dataclass(frozen=True)
class JudgeQueueMoved(ProjectEvent):
    """A judge's queue position moved, or an item recorded the judgment it produced."""

    kind: ClassVar[str] = "judge_queue_moved"
    judge: str


@dataclass(frozen=True)
class JudgmentAdded(ProjectEvent):
    kind: ClassVar[str] = "judgment_added"
    judgment: Judgment


@dataclass(frozen=True)
class JudgmentRemoved(ProjectEvent):
    kind: ClassVar[str] = "judgment_removed"
    judgment: Judgment


@dataclass(frozen=True)
class JudgmentChanged(ProjectEvent):
    """A judgment was replaced by one with the same id; ``judgment`` is the new one."""

    kind: ClassVar[str] = "judgment_changed"
    judgment: Judgment


@dataclass(frozen=True)
class JudgmentsReset(ProjectEvent):
    """Many judgments came back at once (a system restored): re-read them all."""

    kind: ClassVar[str] = "judgments_reset"


# --- settings and the learned model ---------------------------------------------------
@dataclass(frozen=True)
class SettingsChanged(ProjectEvent):
    kind: ClassVar[str] = "settings_changed"
    name: str  # the field of ``Settings`` that changed


@dataclass(frozen=True)
class LearnedModelChanged(ProjectEvent):
    """The trained parameters of the learned metric were set or dropped."""

    kind: ClassVar[str] = "learned_model_changed"


@dataclass(frozen=True)
class TargetLanguageChanged(ProjectEvent):
    """The target language, whose defaults pick tokenizers and METEOR's settings, changed."""

    kind: ClassVar[str] = "target_language_changed"
    language: str


# --- categories (the one place that says what a change touches) -----------------------
REFERENCE_EVENTS: frozenset[type[ProjectEvent]] = frozenset({ReferenceAdded, ReferenceRemoved, ReferenceChanged})
SYSTEM_EVENTS: frozenset[type[ProjectEvent]] = frozenset({SystemAdded, SystemRemoved, SystemChanged})
SPAN_EVENTS: frozenset[type[ProjectEvent]] = frozenset({SpanAdded, SpanRemoved, SpanChanged, AnnotationsReset})

# Texts and entity spans: everything a metric reads (the learned metric also reads its
# model). Adding a system is not here: it changes no score computed already.
AFFECTS_SCORES: frozenset[type[ProjectEvent]] = frozenset(
    {SegmentChanged, LearnedModelChanged, SystemRemoved, SystemChanged, TargetLanguageChanged}
    | REFERENCE_EVENTS | SPAN_EVENTS
)
# Of those, the ones that change one system's inputs only (they carry ``system_id``).
SYSTEM_SCOPED: frozenset[type[ProjectEvent]] = frozenset({SystemChanged, SystemRemoved})
# Which references and systems exist (lists of choices must be rebuilt).
MEMBERSHIP_EVENTS: frozenset[type[ProjectEvent]] = frozenset(
    {ReferenceAdded, ReferenceRemoved, SystemAdded, SystemRemoved}
)
# Source, reference and system texts of the segments shown.
TEXT_EVENTS: frozenset[type[ProjectEvent]] = frozenset({SegmentChanged, ReferenceChanged, SystemChanged})

# Relations between spans: annotation work that no metric reads.
RELATION_EVENTS: frozenset[type[ProjectEvent]] = frozenset({RelationChanged})
AFFECTS_ANNOTATIONS: frozenset[type[ProjectEvent]] = SPAN_EVENTS | REFERENCE_EVENTS
AFFECTS_JUDGMENTS: frozenset[type[ProjectEvent]] = frozenset(
    {JudgmentAdded, JudgmentRemoved, JudgmentChanged, JudgmentsReset}
)
JUDGE_ROSTER: frozenset[type[ProjectEvent]] = frozenset({JudgeAdded, JudgeRemoved})
QUEUE_EVENTS: frozenset[type[ProjectEvent]] = frozenset({JudgeQueueChanged, JudgeQueueMoved})

ALL_EVENTS: frozenset[type[ProjectEvent]] = (
    AFFECTS_SCORES | MEMBERSHIP_EVENTS | AFFECTS_JUDGMENTS | JUDGE_ROSTER | QUEUE_EVENTS | RELATION_EVENTS
    | frozenset({SettingsChanged})
)


def is_in(event: ProjectEvent, category: frozenset[type[ProjectEvent]]) -> bool:
    """True when the event's class belongs to the category."""
    return type(event) in category
