"""The values a project is made of: documents, texts, entity spans, judgments and their
error spans, settings; and the checks a judgment passes on its own.

``core.model.Project`` holds them and keeps their ids consistent.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import msgspec

from mtworkbench.core.errors import DataError
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY, Typology
from mtworkbench.core.queue_state import MQM_MAX_ERRORS
from mtworkbench.core.suggested_spans import SpanOutcome

MUC7_TYPES: tuple[str, ...] = (
    "PERSON",
    "ORGANIZATION",
    "LOCATION",
    "DATE",
    "TIME",
    "MONEY",
    "PERCENT",
)
SYSTEM_KINDS = ("machine", "human")
RATING_RANGE = (1, 5)
RANK_RANGE = (1, 5)  # relative ranking: 1 best .. 5 worst, ties allowed (Appraise, WMT 2013-2016)


class ModelError(DataError):
    """A change would make the project inconsistent (unknown id, duplicate, range)."""


class Segment(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A source segment. A record the bundle reader's decoder builds itself, with its
    checks (both fields strings, no other field): one object per segment, no copy. Its
    fields are strings, so it never takes part in a reference cycle (``gc=False``)."""

    id: str
    source: str


@dataclass
class Paragraph:
    id: str
    segments: list[Segment] = field(default_factory=list)


@dataclass
class Document:
    id: str
    paragraphs: list[Paragraph] = field(default_factory=list)
    # Free attributes from the corpus file (e.g. SGML/XML origlang, genre).
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass
class Reference:
    """A human reference translation; ``texts`` maps segment id -> text.

    A segment missing from ``texts`` has no reference from this translator
    (variable number of references per segment).
    """

    id: str
    translator: str = ""
    texts: dict[str, str] = field(default_factory=dict)


@dataclass
class System:
    """A candidate translation of every segment, by a machine or a human."""

    id: str
    kind: str = "machine"
    texts: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FileOrigin:
    """Where an annotation came from in a standoff file it was imported from (brat): its id
    there, the line it was on, for a relation its two argument roles as written, and the
    lines that only annotate it (attributes, normalisations, notes) with their line
    numbers. An export writes them back, so a file read and written again keeps its ids and
    lines (a round trip is diff-clean for brat users)."""

    id: str
    line: int = 0
    roles: tuple[str, str] = ("Arg1", "Arg2")
    notes: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class EntitySpan:
    """A span of a span layer (entities by default): characters ``[start, end)`` of
    one segment's text.

    ``reference`` names the text: a reference id for layers on references, a system
    id for layers on outputs, "" for layers on sources. A discontinuous span lists
    its ``fragments`` (sorted, disjoint, at least two); ``start``/``end`` are then the
    first fragment's start and the last one's end. ``fragments`` is empty for a
    contiguous span.
    """

    id: str
    reference: str
    segment: str
    start: int
    end: int
    type: str
    annotator: str
    layer: str = "entities"
    fragments: tuple[tuple[int, int], ...] = ()
    # Its id and lines in the file it was imported from (None: made here, or a format without ids).
    origin: FileOrigin | None = None

    @property
    def parts(self) -> tuple[tuple[int, int], ...]:
        """Every ``[start, end)`` piece: the fragments, or the one range."""
        return self.fragments or ((self.start, self.end),)


PROTOCOLS: tuple[str, ...] = ("ldc", "da", "esa", "mqm", "rank", "scalar")
"""How a judgment was made: LDC adequacy/fluency 1-5; DA 0-100 slider; ESA error spans
then a 0-100 score; MQM error spans with category and severity (the score follows
from the spans and the weights); relative ranking (``score`` = rank, 1 best); and
``scalar``, a segment score imported on a named scale with no protocol of its own."""

SPAN_PROTOCOLS = ("mqm", "esa")


def protocol_for_scale(scale: str | None) -> str:
    """The protocol a numeric score on ``scale`` belongs to (bundles of version 1 and
    pseudo-judge imports name only a scale: ``mqm``, ``da-z``, ``esa``, ``rank``...)."""
    name = (scale or "").strip().lower()
    for protocol in ("mqm", "esa", "da", "rank"):
        if name.startswith(protocol):
            return protocol
    return "scalar"


@dataclass(frozen=True)
class ErrorSpan:
    """One error a rater marked (MQM, ESA).

    ``start``/``end`` are character offsets ``[start, end)`` into the translation
    the rater was shown; both None for an error with no place in it (an omission).
    An error marked in the source instead (MQM source-side spans) has
    ``source_start``/``source_end`` into the segment's source. One end None and
    the other set: only that end was marked (the span reaches the text's edge). ``severity`` keeps
    the spelling of the data (``Major``, ``minor``...); ``category`` is empty for ESA.
    """

    start: int | None
    end: int | None
    severity: str
    category: str = ""
    comment: str = ""
    source_start: int | None = None
    source_end: int | None = None


@dataclass(frozen=True)
class Judgment:
    """One human rating of a system's segment, made against one reference.

    LDC adequacy and fluency are 1-5. Scores on other scales (direct
    assessment z-scores, MQM) are kept in ``score`` with ``scale`` naming it.
    ``protocol`` says how the rating was made (see ``PROTOCOLS``); left empty it
    is inferred: ``ldc`` for adequacy/fluency, else from the scale. MQM and ESA
    judgments carry their ``errors``; an MQM judgment without errors means "rated,
    no errors". ``qc`` is ``"bad"`` for a DA quality-control item (a degraded copy),
    whose shown text is ``text``; ``text`` is None when the rater saw the system's output.
    ``ranking`` is, for a relative-ranking judgment (protocol ``rank``, ``score`` = the
    rank), the id shared by the judgments of the systems ranked together on one screen
    (``core.ranking`` groups them); empty otherwise. ``suggestions``: the error spans a model
    pre-marked for the rater and what became of each (``core.suggested_spans``).
    """

    id: str
    judge: str
    system: str
    segment: str
    reference: str | None = None
    adequacy: int | None = None
    fluency: int | None = None
    score: float | None = None
    scale: str | None = None
    timestamp: str = ""
    seconds: float = 0.0
    comment: str = ""
    protocol: str = ""
    errors: tuple[ErrorSpan, ...] = ()
    qc: str = ""
    text: str | None = None
    ranking: str = ""
    suggestions: tuple[SpanOutcome, ...] = ()  # a model's pre-marked spans and what the judge did with each

    def __post_init__(self) -> None:
        if not self.protocol:
            inferred = "ldc" if self.adequacy is not None or self.fluency is not None or self.score is None \
                else protocol_for_scale(self.scale)
            object.__setattr__(self, "protocol", inferred)
        if not isinstance(self.errors, tuple):
            object.__setattr__(self, "errors", tuple(self.errors))
        if not isinstance(self.suggestions, tuple):
            object.__setattr__(self, "suggestions", tuple(self.suggestions))


QC_KINDS = ("", "bad")


def check_ranked(j: Judgment) -> None:
    """A judgment of a relative ranking: protocol ``rank`` and a whole rank in ``RANK_RANGE``."""
    lo, hi = RANK_RANGE
    if j.protocol != "rank":
        raise ModelError(f"judgment {j.id!r} belongs to ranking {j.ranking!r} but its protocol is {j.protocol!r}, not 'rank'")
    if j.score is None or not lo <= j.score <= hi or j.score != int(j.score):
        raise ModelError(f"rank must be a whole number from {lo} to {hi}, not {j.score!r}")
    if j.errors or j.qc:
        raise ModelError(f"a ranking judgment carries no error spans and no quality-control role ({j.id!r})")


@dataclass
class EntityTypeStyle:
    """How the annotation editor shows and keys an entity type."""

    name: str
    key: str
    color: str


DEFAULT_ENTITY_TYPES: tuple[EntityTypeStyle, ...] = (
    EntityTypeStyle("PERSON", "P", "#e6194b"),
    EntityTypeStyle("ORGANIZATION", "O", "#4363d8"),
    EntityTypeStyle("LOCATION", "L", "#3cb44b"),
    EntityTypeStyle("DATE", "D", "#f58231"),
    EntityTypeStyle("TIME", "T", "#911eb4"),
    EntityTypeStyle("MONEY", "M", "#9a6324"),
    EntityTypeStyle("PERCENT", "C", "#469990"),
)

# --- layers (``core.layers`` holds their rules) ----------------------------------------
ENTITIES = "entities"
RELATIONS = "relations"
LAYER_TARGETS: tuple[str, ...] = ("reference", "source", "output")


@dataclass
class SpanLayer:
    """One span layer. The "entities" layer's types are ``Settings.entity_types``
    (so the annotation tools that predate layers keep working); other layers
    carry their own ``types``."""

    name: str
    on: str = "reference"
    types: list[EntityTypeStyle] = field(default_factory=list)
    nesting: bool = True
    overlap: bool = True


@dataclass
class RelationLayer:
    """One relation layer: its types, the span layers whose spans it links (empty: any),
    and whether a relation goes from its source to its target or links the two either way
    (undirected: A-B and B-A are the same relation)."""

    name: str = RELATIONS
    types: list[EntityTypeStyle] = field(default_factory=list)
    connects: list[str] = field(default_factory=list)
    directed: bool = True


@dataclass(frozen=True)
class Relation:
    """A typed, directed link from span ``source`` to span ``target`` (span ids)."""

    id: str
    type: str
    source: str
    target: str
    annotator: str
    layer: str = RELATIONS
    origin: FileOrigin | None = None  # its id and line in the file it was imported from


DEFAULT_RELATION_TYPES: tuple[EntityTypeStyle, ...] = (
    EntityTypeStyle("translation-of", "R", "#808000"),
    EntityTypeStyle("part-of", "W", "#000075"),
)


def default_span_layers() -> list[SpanLayer]:
    return [SpanLayer(ENTITIES)]


def default_relation_layers() -> list[RelationLayer]:
    return [RelationLayer(RELATIONS, [replace(t) for t in DEFAULT_RELATION_TYPES])]


DEFAULT_METRICS: tuple[str, ...] = ("bleu", "chrf", "ter", "nist", "gtm", "meteor")


@dataclass
class Settings:
    metrics: list[str] = field(default_factory=lambda: list(DEFAULT_METRICS))
    baseline: str | None = None
    entity_types: list[EntityTypeStyle] = field(
        default_factory=lambda: [replace(t) for t in DEFAULT_ENTITY_TYPES]
    )
    # The MQM categories raters pick from, and the default most errors a segment
    # for new MQM queues (each queue keeps its own limit once built).
    mqm_typology: Typology = GOOGLE_TYPOLOGY
    mqm_max_errors: int = MQM_MAX_ERRORS
    # Span layers (the first is "entities", whose types are ``entity_types``) and
    # relation layers; ``core.layers`` defines them.
    span_layers: list[SpanLayer] = field(default_factory=lambda: default_span_layers())
    relation_layers: list[RelationLayer] = field(default_factory=lambda: default_relation_layers())


@dataclass
class SystemRemoval:
    """Everything ``remove_system`` took away, so ``restore_system`` can put it back."""

    system: System
    index: int
    judgments: list[Judgment]


@dataclass
class ReferenceRemoval:
    reference: Reference
    index: int
    spans: list[EntitySpan]
    judgments: list[Judgment]
    relations: list[Any] = field(default_factory=list)


def check_judgment_values(j: Judgment) -> None:
    """The checks of a judgment that need nothing but the judgment: ranges, protocol,
    scale, time, quality-control role, ranking (``Project.check_judgment`` adds the ids)."""
    lo, hi = RATING_RANGE
    for name in ("adequacy", "fluency"):
        value = getattr(j, name)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi
        ):
            raise ModelError(f"{name} must be an integer from {lo} to {hi}, not {value!r}")
    if j.protocol not in PROTOCOLS:
        raise ModelError(f"unknown protocol {j.protocol!r}; expected one of {', '.join(PROTOCOLS)}")
    if j.protocol != "mqm" and j.adequacy is None and j.fluency is None and j.score is None:
        raise ModelError("a judgment needs adequacy, fluency or a score")
    if j.score is not None and not j.scale:
        raise ModelError("a numeric score needs its scale named")
    if j.seconds < 0:
        raise ModelError(f"seconds must not be negative, not {j.seconds!r}")
    if j.qc not in QC_KINDS:
        raise ModelError(f"qc must be empty or 'bad', not {j.qc!r}")
    if j.errors and j.protocol not in SPAN_PROTOCOLS:
        raise ModelError(f"a {j.protocol} judgment cannot carry error spans (only {', '.join(SPAN_PROTOCOLS)})")
    if j.ranking:
        check_ranked(j)
    if j.suggestions and j.protocol not in SPAN_PROTOCOLS:
        raise ModelError(f"a {j.protocol} judgment cannot carry suggested error spans")
    for o in j.suggestions:
        if o.error is not None and not 0 <= o.error < len(j.errors):
            raise ModelError(f"judgment {j.id!r}: a suggestion became error {o.error + 1}, but it has "
                             f"{len(j.errors)} errors")


def check_error_spans(j: Judgment, shown: str, source: str) -> None:
    """Every error span of ``j`` lies inside the text it marks: ``shown`` (the translation
    the rater saw) or the segment's ``source``."""
    for k, e in enumerate(j.errors):
        if not e.severity and j.protocol != "mqm":  # Google's MQM files have a few without
            raise ModelError(f"error {k + 1} of judgment {j.id!r} needs a severity")
        for lo, hi, text, where in ((e.start, e.end, shown, "translation"),
                                    (e.source_start, e.source_end, source, "source")):
            # One end None: the data marked only the other end (Google's files have a few
            # lone "<v>"); the span reaches the text's end or start.
            lo_, hi_ = (0 if lo is None else lo), (len(text) if hi is None else hi)
            if (lo is not None or hi is not None) and not (0 <= lo_ <= hi_ <= len(text)):
                raise ModelError(
                    f"error {k + 1} of judgment {j.id!r}: span {lo}-{hi} is outside the {where} "
                    f"of segment {j.segment!r} (0-{len(text)})"
                )


def check_span_in_text(span: EntitySpan, text: str | None, type_names: list[str]) -> str:
    """The checks of an entity span against the text it marks (None: the reference has no
    text for its segment) and the project's entity types; returns the text."""
    if text is None:
        raise ModelError(f"reference {span.reference!r} has no text for segment {span.segment!r}")
    if not (0 <= span.start < span.end <= len(text)):
        raise ModelError(
            f"span {span.start}-{span.end} is outside the text of segment {span.segment!r} (0-{len(text)})"
        )
    if span.type not in type_names:
        raise ModelError(f"unknown entity type {span.type!r}; expected one of {', '.join(type_names)}")
    if not span.annotator:
        raise ModelError("an entity span needs an annotator")
    return text
