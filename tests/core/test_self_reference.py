"""A system that is one of the references is never scored against itself."""

from __future__ import annotations

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.project_input import scoring_input, scoring_reference_ids, self_reference


def project_with(system: System) -> Project:
    doc = Document("d1", [Paragraph("p1", [Segment("s1", "他来了。"), Segment("s2", "我们走吧。")])])
    project = Project([doc], source_language="zh", target_language="en")
    project.add_reference(Reference("refA", texts={"s1": "He came.", "s2": "Let's go."}))
    project.add_reference(Reference("refB", texts={"s1": "He has arrived.", "s2": "Let us leave."}))
    project.add_system(system)
    return project


def test_a_human_system_with_a_references_text_is_that_reference():
    project = project_with(System("translator-2", "human", {"s1": "He has arrived.", "s2": "Let us leave."}))
    assert self_reference(project, "translator-2") == "refB"
    assert scoring_reference_ids(project, "translator-2") == ["refA"]
    data = scoring_input(project, "translator-2")
    assert [list(stream) for stream in data.references] == [["He came.", "Let's go."]]


def test_a_system_named_as_a_reference_is_that_reference():
    project = project_with(System("refA", "human", {"s1": "He came.", "s2": "Let's go."}))
    assert scoring_reference_ids(project, "refA") == ["refB"]


def test_machine_output_or_a_differing_human_translation_keeps_every_reference():
    same_text_machine = project_with(System("mt", "machine", {"s1": "He has arrived.", "s2": "Let us leave."}))
    assert scoring_reference_ids(same_text_machine, "mt") == ["refA", "refB"]
    one_segment_differs = project_with(System("h", "human", {"s1": "He has arrived.", "s2": "Let us go."}))
    assert self_reference(one_segment_differs, "h") is None
