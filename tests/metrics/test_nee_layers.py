"""NEE over span layers: outermost spans by default, a chosen span layer by name."""

from __future__ import annotations

import pytest

from mtworkbench.core.layers import SpanLayer
from mtworkbench.core.model import (
    Document,
    EntitySpan,
    EntityTypeStyle,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.core.project_input import scoring_input
from mtworkbench.metrics.base import MetricError
from mtworkbench.metrics.nee import NEE


def project() -> Project:
    doc = Document("d", [Paragraph("p", [Segment("1", "x")])])
    p = Project([doc], target_language="en")
    p.add_reference(Reference("r", "", {"1": "He studied at Peking University in Beijing ."}))
    p.add_system(System("mt", "machine", {"1": "He studied at Beijing University in Peking ."}))
    p.add_span(EntitySpan("a", "r", "1", 14, 31, "ORGANIZATION", "ann"))  # Peking University
    p.add_span(EntitySpan("b", "r", "1", 14, 20, "LOCATION", "ann"))  # Peking, nested
    p.settings.span_layers.append(SpanLayer("places", "reference", [EntityTypeStyle("GPE", "G", "#000000")]))
    p.add_span(EntitySpan("c", "r", "1", 35, 42, "GPE", "geo", layer="places"))  # Beijing
    return p


def test_outermost_by_default_counts_each_entity_once():
    data = scoring_input(project(), "mt")
    default = NEE().score(data).corpus
    every = NEE(nested="all").score(data).corpus
    # Outermost: only "Peking University", which the output lacks (its words are not together);
    # all: the nested LOCATION "Peking" counts as a second entity, and the output has it.
    assert default == 0.0
    assert every == pytest.approx(0.5)


def test_a_span_layer_by_name():
    data = scoring_input(project(), "mt")
    by_layer = NEE(layer="places").score(data).corpus
    by_spans = NEE(spans="places").score(data).corpus
    assert by_layer == by_spans == 1.0  # Beijing is in the output
    assert "spans" not in NEE().signature_for(data)
    with pytest.raises(MetricError, match="no such span layer"):
        NEE(spans="nope").score(data)
