"""The project model keeps ids consistent and every mutator has an inverse."""

from __future__ import annotations

import pytest

from mtworkbench.core.model import (
    Document,
    EntitySpan,
    Judgment,
    ModelError,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.io.bundle.bundle import project_to_dict


@pytest.fixture
def project() -> Project:
    doc = Document("d", [Paragraph("p", [Segment("1", "Üks"), Segment("2", "Kaks")])])
    p = Project([doc])
    p.add_reference(Reference("r", "A", {"1": "John Smith went to Paris.", "2": "Two"}))
    p.add_system(System("mt", "machine", {"1": "John went Paris", "2": "2"}))
    p.add_judge("ann")
    return p


def test_span_add_remove_are_inverse(project):
    before = project_to_dict(project)
    span = EntitySpan("e1", "r", "1", 0, 10, "PERSON", "ann")
    project.add_span(span)
    assert project.spans_for("r", "1") == [span]
    assert project.remove_span("e1") == span
    assert project_to_dict(project) == before


def test_overlapping_span_refused_with_the_other_entity_named(project):
    project.settings.span_layers[0].nesting = project.settings.span_layers[0].overlap = False  # a flat layer
    project.add_span(EntitySpan("e1", "r", "1", 0, 10, "PERSON", "ann"))
    with pytest.raises(ModelError, match=r"overlaps the PERSON entity 0-10 \('John Smith'\)"):
        project.add_span(EntitySpan("e2", "r", "1", 5, 12, "LOCATION", "ann"))
    # another annotator's layer may overlap: it is a separate annotation
    project.add_span(EntitySpan("e3", "r", "1", 5, 12, "LOCATION", "other"))


@pytest.mark.parametrize(
    "span,words",
    [
        (EntitySpan("x", "r", "1", 3, 3, "PERSON", "ann"), "outside the text"),
        (EntitySpan("x", "r", "1", 0, 99, "PERSON", "ann"), "outside the text"),
        (EntitySpan("x", "zz", "1", 0, 2, "PERSON", "ann"), "unknown reference"),
        (EntitySpan("x", "r", "9", 0, 2, "PERSON", "ann"), "unknown segment"),
        (EntitySpan("x", "r", "1", 0, 2, "FRUIT", "ann"), "unknown entity type"),
        (EntitySpan("x", "r", "1", 0, 2, "PERSON", ""), "needs an annotator"),
    ],
)
def test_bad_spans_refused(project, span, words):
    with pytest.raises(ModelError, match=words):
        project.add_span(span)
    assert project.spans == []


def test_retype_returns_old_type(project):
    project.add_span(EntitySpan("e1", "r", "1", 20, 25, "PERSON", "ann"))
    assert project.set_span_type("e1", "LOCATION") == "PERSON"
    assert project.span("e1").type == "LOCATION"


def test_remove_system_cascades_and_restores(project):
    project.add_judgment(Judgment("j", "ann", "mt", "1", "r", adequacy=3, fluency=4))
    before = project_to_dict(project)
    removal = project.remove_system("mt")
    assert project.judgments == [] and project.systems == []
    project.restore_system(removal)
    assert project_to_dict(project) == before


def test_remove_reference_cascades_and_restores(project):
    project.add_span(EntitySpan("e1", "r", "1", 0, 4, "PERSON", "ann"))
    project.add_judgment(Judgment("j", "ann", "mt", "1", "r", adequacy=3))
    before = project_to_dict(project)
    removal = project.remove_reference("r")
    assert project.spans == [] and project.judgments == []
    project.restore_reference(removal)
    assert project_to_dict(project) == before


def test_judgment_checks(project):
    with pytest.raises(ModelError, match="unknown judge"):
        project.add_judgment(Judgment("j", "bob", "mt", "1", adequacy=3))
    with pytest.raises(ModelError, match="from 1 to 5"):
        project.add_judgment(Judgment("j", "ann", "mt", "1", adequacy=0))
    with pytest.raises(ModelError, match="needs adequacy, fluency or a score"):
        project.add_judgment(Judgment("j", "ann", "mt", "1"))
    project.add_judgment(Judgment("j", "ann", "mt", "1", adequacy=2))
    old = project.replace_judgment(Judgment("j", "ann", "mt", "1", adequacy=5))
    assert old.adequacy == 2 and project.judgment("j").adequacy == 5
    with pytest.raises(ModelError, match="has judgments"):
        project.remove_judge("ann")


def test_reference_text_change_may_not_cut_an_entity(project):
    project.add_span(EntitySpan("e1", "r", "1", 0, 10, "PERSON", "ann"))
    with pytest.raises(ModelError, match="would move or cut the PERSON entity 'John Smith'"):
        project.set_reference_text("r", "1", "Jon Smith went to Paris.")
    old = project.set_reference_text("r", "1", "John Smith went to Rome.")
    assert old == "John Smith went to Paris."


def test_system_must_cover_every_segment():
    doc = Document("d", [Paragraph("p", [Segment("1", "a"), Segment("2", "b")])])
    p = Project([doc])
    with pytest.raises(ModelError, match="no text for segment '2'"):
        p.add_system(System("s", "machine", {"1": "x"}))


def test_duplicate_segment_ids_refused():
    doc = Document("d", [Paragraph("p", [Segment("1", "a"), Segment("1", "b")])])
    with pytest.raises(ModelError, match="duplicate segment id"):
        Project([doc])


def test_events_tell_listeners_what_changed(project):
    seen = []
    project.subscribe(lambda e: seen.append(e.kind))
    project.add_span(EntitySpan("e1", "r", "1", 0, 4, "PERSON", "ann"))
    project.set_span_type("e1", "LOCATION")
    project.remove_span("e1")
    assert seen == ["span_added", "span_changed", "span_removed"]


def test_clear_reference_text_is_refused_under_entities(project):
    project.add_span(EntitySpan("e1", "r", "2", 0, 3, "PERSON", "ann"))
    with pytest.raises(ModelError, match="has entities"):
        project.clear_reference_text("r", "2")
    project.remove_span("e1")
    assert project.clear_reference_text("r", "2") == "Two"
    assert project.reference_text("r", "2") is None
    assert project.span_count == 0
