"""Suggested spans from a model, and what the annotator made of each (no Qt).

A suggestion is a span with a label from a named source (a spaCy pipeline, a neural metric's
error spans for MQM/ESA with a severity), offered in a text the annotator works on; the annotator
accepts it as it is, corrects it (another label or other boundaries) or rejects it, one by one or
all at once, as Prodigy's ``ner.correct`` and INCEpTION's recommenders work. The decisions are
kept (``SuggestionDecision``) so the accept rate per label can be shown and the provenance of
each accepted span is known.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from mtworkbench.core.model import EntitySpan, Project

DECISIONS = ("accepted", "corrected", "rejected")
# OntoNotes labels (spaCy's English and Chinese pipelines) onto the MUC-7 entity types.
ONTONOTES_TO_MUC = {"PERSON": "PERSON", "PER": "PERSON", "ORG": "ORGANIZATION", "GPE": "LOCATION",
                    "LOC": "LOCATION", "DATE": "DATE", "TIME": "TIME", "MONEY": "MONEY", "PERCENT": "PERCENT"}


@dataclass(frozen=True)
class Suggestion:
    """One suggested span: characters ``[start, end)`` of ``segment``'s text in ``target``
    (a reference id), with the source's ``label`` and, for error spans, a ``severity``."""

    target: str
    segment: str
    start: int
    end: int
    label: str
    source: str
    severity: str = ""
    score: float | None = None

    def key(self) -> tuple[str, str, int, int, str]:
        return self.target, self.segment, self.start, self.end, self.label


@dataclass(frozen=True)
class SuggestionDecision:
    """What the annotator did with a suggestion; ``span`` is the span it became (None: rejected)."""

    suggestion: Suggestion
    decision: str
    span_id: str | None = None
    label: str = ""  # the label kept (a corrected suggestion's new one)

    def __post_init__(self) -> None:
        if self.decision not in DECISIONS:
            raise ValueError(f"unknown decision {self.decision!r}; expected one of {', '.join(DECISIONS)}")


@dataclass(frozen=True)
class AcceptRate:
    label: str
    accepted: int
    corrected: int
    rejected: int

    @property
    def decided(self) -> int:
        return self.accepted + self.corrected + self.rejected

    @property
    def rate(self) -> float | None:
        """Accepted as suggested, of those decided (None before any decision)."""
        return self.accepted / self.decided if self.decided else None


def accept_rates(decisions: Iterable[SuggestionDecision]) -> list[AcceptRate]:
    """Per suggested label (sorted), how many were accepted, corrected and rejected."""
    counts: dict[str, list[int]] = {}
    for d in decisions:
        row = counts.setdefault(d.suggestion.label, [0, 0, 0])
        row[DECISIONS.index(d.decision)] += 1
    return [AcceptRate(label, *row) for label, row in sorted(counts.items())]


def as_span(project: Project, suggestion: Suggestion, annotator: str, label: str | None = None,
            start: int | None = None, end: int | None = None) -> EntitySpan:
    """The span a suggestion becomes in ``annotator``'s layer (with a corrected label or boundaries)."""
    return EntitySpan(project.new_id("e"), suggestion.target, suggestion.segment,
                      suggestion.start if start is None else start, suggestion.end if end is None else end,
                      label or suggestion.label, annotator)


def decide(project: Project, suggestion: Suggestion, annotator: str, label: str | None = None,
           start: int | None = None, end: int | None = None) -> tuple[EntitySpan, SuggestionDecision]:
    """Accept a suggestion, or correct it when the label or boundaries differ."""
    span = as_span(project, suggestion, annotator, label, start, end)
    same = span.type == suggestion.label and (span.start, span.end) == (suggestion.start, suggestion.end)
    return span, SuggestionDecision(suggestion, "accepted" if same else "corrected", span.id, span.type)


def reject(suggestion: Suggestion) -> SuggestionDecision:
    return SuggestionDecision(suggestion, "rejected")


def open_suggestions(project: Project, suggestions: Sequence[Suggestion], annotator: str,
                     decided: Iterable[SuggestionDecision] = ()) -> list[Suggestion]:
    """The suggestions still to decide: not decided before, and not already a span of the
    annotator's with the same place and label (accepting it would add a duplicate)."""
    done = {d.suggestion.key() for d in decided}
    have = {(s.reference, s.segment, s.start, s.end, s.type) for s in project.spans if s.annotator == annotator}
    return [s for s in suggestions if s.key() not in done and s.key() not in have]


def relabelled(suggestions: Iterable[Suggestion], mapping: dict[str, str]) -> list[Suggestion]:
    """Suggestions with the source's labels mapped onto the project's (unmapped labels kept)."""
    return [replace(s, label=mapping.get(s.label, s.label)) for s in suggestions]
