"""Suggested spans: accepted, corrected or rejected, and the accept rate per label."""

from __future__ import annotations

import pytest

from mtworkbench.core.model import Document, EntitySpan, Paragraph, Project, Reference, Segment
from mtworkbench.core.suggestions import (
    Suggestion,
    SuggestionDecision,
    accept_rates,
    decide,
    open_suggestions,
    reject,
    relabelled,
)


def project() -> Project:
    p = Project(documents=[Document("d", [Paragraph("p", [Segment("1", "x"), Segment("2", "x")])])])
    p.add_reference(Reference("r", texts={"1": "李雷住在北京。", "2": "Иван живёт в Москве."}))
    return p


def test_decisions_and_accept_rates():
    p = project()
    person = Suggestion("r", "1", 0, 2, "PERSON", "spacy:zh")
    place = Suggestion("r", "1", 4, 6, "LOCATION", "spacy:zh")
    moscow = Suggestion("r", "2", 13, 19, "LOCATION", "spacy:zh")
    span, accepted = decide(p, person, "ann")
    assert accepted.decision == "accepted" and span.type == "PERSON" and span.annotator == "ann"
    span2, corrected = decide(p, place, "ann", label="ORGANIZATION")
    assert corrected.decision == "corrected" and corrected.label == "ORGANIZATION" and span2.start == 4
    _, moved = decide(p, moscow, "ann", start=13, end=18)
    assert moved.decision == "corrected"
    rates = {r.label: r for r in accept_rates([accepted, corrected, moved, reject(person)])}
    assert (rates["PERSON"].accepted, rates["PERSON"].rejected, rates["PERSON"].rate) == (1, 1, 0.5)
    assert (rates["LOCATION"].corrected, rates["LOCATION"].rate) == (2, 0.0)


def test_open_suggestions_leave_out_decided_and_present():
    p = project()
    a = Suggestion("r", "1", 0, 2, "PERSON", "m")
    b = Suggestion("r", "1", 4, 6, "LOCATION", "m")
    c = Suggestion("r", "2", 13, 19, "LOCATION", "m")
    p.add_span(EntitySpan("e1", "r", "1", 4, 6, "LOCATION", "ann"))
    assert open_suggestions(p, [a, b, c], "ann", [reject(c)]) == [a]
    assert open_suggestions(p, [a, b, c], "ben") == [a, b, c]


def test_relabel_and_unknown_decision():
    s = Suggestion("r", "1", 0, 2, "GPE", "m")
    assert relabelled([s], {"GPE": "LOCATION"})[0].label == "LOCATION"
    with pytest.raises(ValueError, match="unknown decision"):
        SuggestionDecision(s, "maybe")
