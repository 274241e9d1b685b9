"""The values a campaign is made of (items, merges, conflicts, progress) and the keys that
say whether two pieces of work are the same.

``core.campaign`` plans campaigns, builds packages and merges them back;
``core.campaign_json`` reads and writes the bundle's ``campaign`` object.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import EntitySpan, Judgment

BY_KINDS = ("annotator", "judge")
ANNOTATION_PROTOCOL = "entities"
DEFAULT_JUDGE_PROTOCOL = "ldc"


class CampaignError(DataError):
    """A split or merge cannot be done as asked; the message says why."""


# --- values -------------------------------------------------------------------------------
@dataclass(frozen=True)
class CampaignItem:
    """One unit of work. ``system`` is None for annotation items; ``reference`` is None
    for a judge item of a segment no reference translates."""

    id: str
    segment: str
    reference: str | None
    system: str | None
    people: tuple[str, ...]


@dataclass
class MergeRecord:
    """Provenance of one merged package: who, when, which file, what it brought."""

    package: str
    person: str
    sha256: str
    merged_at: str
    spans: list[str] = field(default_factory=list)
    judgments: list[str] = field(default_factory=list)
    removed_spans: list[str] = field(default_factory=list)
    removed_judgments: list[str] = field(default_factory=list)
    conflicts: int = 0
    # kind -> package id -> [project id, digest]: what this merge made of the package's work.
    sources: dict[str, dict[str, list[str]]] = field(default_factory=dict)


@dataclass
class Conflict:
    """Work that could not be applied: the package's version, and the project's kept one."""

    kind: str  # "span" or "judgment"
    package: str
    person: str
    reason: str
    theirs: dict[str, Any] | None
    kept: dict[str, Any] | None


@dataclass
class Campaign:
    id: str
    by: str
    protocol: str
    seed: int
    overlap: float
    people: list[str]
    items: list[CampaignItem]
    package: str | None = None  # the person this package is for; None in the team's project
    base: dict[str, dict[str, str]] = field(default_factory=lambda: {"spans": {}, "judgments": {}})
    merges: list[MergeRecord] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    # person -> item ids they marked done with nothing to add (a segment without entities).
    done: dict[str, list[str]] = field(default_factory=dict)
    bad_rate: float = 0.0  # BAD items in each judge's queue, as a share of their items (DA, ESA)

    def items_of(self, person: str) -> list[CampaignItem]:
        return [item for item in self.items if person in item.people]


@dataclass(frozen=True)
class PersonProgress:
    """Items done / assigned for one person and protocol; ``shared`` items have 2+ people."""

    person: str
    protocol: str
    done: int
    assigned: int
    shared: int

    @property
    def fraction(self) -> float:
        return self.done / self.assigned if self.assigned else 1.0


@dataclass
class MergeReport:
    """What one package brought; ``already_merged`` when its exact content was merged before."""

    package: str
    person: str
    already_merged: bool = False
    added_spans: int = 0
    changed_spans: int = 0
    removed_spans: int = 0
    added_judgments: int = 0
    changed_judgments: int = 0
    removed_judgments: int = 0
    done_marks: int = 0
    conflicts: list[Conflict] = field(default_factory=list)

    @property
    def changes(self) -> int:
        return (self.added_spans + self.changed_spans + self.removed_spans + self.added_judgments
                + self.changed_judgments + self.removed_judgments + self.done_marks)


# --- what makes two pieces of work the same --------------------------------------------------
def content_key(thing: EntitySpan | Judgment) -> str:
    """Everything but the id, canonically: two equal keys are the same piece of work."""
    data = asdict(thing)
    data.pop("id")
    if data.get("origin", 0) is None:  # a span made here keeps the key it had before spans had origins
        del data["origin"]
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def digest(thing: EntitySpan | Judgment) -> str:
    return hashlib.sha256(content_key(thing).encode("utf-8")).hexdigest()[:16]


def protocol_of(j: Judgment) -> str:
    """The judgment's protocol (the field where the model has one, else from its values)."""
    protocol = getattr(j, "protocol", "")
    if protocol:
        return protocol
    if j.adequacy is not None or j.fluency is not None:
        return "ldc"
    return (j.scale or "score").lower()
