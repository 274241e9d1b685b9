"""Typed project events: every mutator emits one, categories cover every kind,
and the judge's queue changes only through the model (with an event)."""

from __future__ import annotations

import json

import pytest

from mtworkbench.core import events as ev
from mtworkbench.core.errors import BundleError
from mtworkbench.core.judging import JudgeSession, QueueConfig, apply_judgment, build_queue
from mtworkbench.core.model import (
    Document,
    EntitySpan,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.core.queue_state import JudgeQueue


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def make_project() -> Project:
    doc = Document("d", [Paragraph("p", [Segment("1", "Eins"), Segment("2", "Zwei")])])
    project = Project([doc], [Reference("r", "t", {"1": "Anna one", "2": "Two"})],
                      [System("A", "machine", {"1": "one", "2": "two"})])
    project.add_judge("ann")
    return project


def test_every_event_class_is_in_a_category_and_has_its_own_kind():
    classes = set(_subclasses(ev.ProjectEvent))
    assert classes == set(ev.ALL_EVENTS)
    kinds = [c.kind for c in classes]
    assert len(set(kinds)) == len(kinds)


def test_score_categories_split_every_event():
    # What does not affect scores is exactly what metrics never read.
    neutral = ev.ALL_EVENTS - ev.AFFECTS_SCORES
    assert neutral == (ev.AFFECTS_JUDGMENTS | ev.JUDGE_ROSTER | ev.QUEUE_EVENTS | ev.RELATION_EVENTS
                       | {ev.SettingsChanged, ev.SystemAdded})
    assert ev.SYSTEM_SCOPED <= ev.AFFECTS_SCORES


def test_each_mutator_emits_its_typed_event_with_the_changed_object():
    project = make_project()
    seen: list[ev.ProjectEvent] = []
    project.subscribe(seen.append)
    span = EntitySpan("e1", "r", "1", 0, 4, "PERSON", "ann")
    project.add_span(span)
    project.set_reference_text("r", "2", "Two!")
    project.set_system_text("A", "1", "One")
    project.set_segment_source("1", "eins")
    removal = project.remove_system("A")
    project.restore_system(removal)
    project.add_judgment(Judgment("j1", "ann", "A", "1", "r", adequacy=3, fluency=4))
    project.set_setting("baseline", "A")
    project.set_learned_model({"kind": "x"})
    assert [type(e) for e in seen] == [
        ev.SpanAdded, ev.ReferenceChanged, ev.SystemChanged, ev.SegmentChanged, ev.SystemRemoved,
        ev.SystemAdded, ev.JudgmentsReset, ev.JudgmentAdded, ev.SettingsChanged, ev.LearnedModelChanged,
    ]
    assert seen[0].span == span
    assert (seen[1].reference_id, seen[1].segment_id) == ("r", "2")
    assert seen[2].system_id == "A" and seen[4].system_id == "A"
    assert seen[8].name == "baseline"


def test_judge_session_changes_the_queue_only_through_the_model():
    project = make_project()
    session = JudgeSession.start(project, "ann", QueueConfig(repeat_share=0))
    seen: list[ev.ProjectEvent] = []
    project.subscribe(seen.append)
    apply_judgment(project, session.submit(4, 3))
    assert project.judge_queues["ann"].position == 1
    assert project.judge_queues["ann"].items[0].judgment is not None
    session.back()
    session.set_option("show_source", True)
    queue_events = [type(e) for e in seen if type(e) in ev.QUEUE_EVENTS]
    # submit: the judgment recorded and the move; back: a move; the option: a change.
    assert queue_events == [ev.JudgeQueueMoved, ev.JudgeQueueMoved, ev.JudgeQueueMoved, ev.JudgeQueueChanged]
    assert all(e.judge == "ann" for e in seen if type(e) in ev.QUEUE_EVENTS)


def test_queue_json_round_trips_exactly():
    project = make_project()
    queue = build_queue(project, "ann", QueueConfig(seed=2, repeat_share=0.5, systems=("A",)))
    text = json.dumps(queue.to_json())
    assert json.dumps(JudgeQueue.from_json(json.loads(text)).to_json()) == text
    assert list(queue.to_json()) == [
        "format", "seed", "repeat_share", "min_repeat_gap", "reference_mode", "reference", "systems",
        "documents", "show_source", "highlight_overlap", "items", "position",
    ]
    assert list(queue.to_json()["items"][0]) == ["system", "segment", "reference", "repeat", "judgment"]


@pytest.mark.parametrize(
    "mutation, path, words",
    [
        (lambda q: q.pop("seed"), "$.q", "missing field 'seed'"),
        (lambda q: q.update(seed="7"), "$.q.seed", "expected an integer"),
        (lambda q: q.update(format=2), "$.q.format", "unsupported queue format"),
        (lambda q: q.update(position=99), "$.q.position", "from 0 to"),
        (lambda q: q.update(reference_mode="random"), "$.q.reference_mode", "per-document"),
        (lambda q: q.update(systems=["A", 3]), "$.q.systems[1]", "expected a string"),
        (lambda q: q.update(show_source="yes"), "$.q.show_source", "true or false"),
        (lambda q: q["items"][1].pop("repeat"), "$.q.items[1]", "missing field 'repeat'"),
        (lambda q: q["items"][0].update(judgment=5), "$.q.items[0].judgment", "expected a string"),
        (lambda q: q.update(colour="red"), "$.q.colour", "unknown field 'colour'"),
    ],
)
def test_garbage_queue_is_refused_with_its_json_path(mutation, path, words):
    data = build_queue(make_project(), "ann", QueueConfig(repeat_share=0)).to_json()
    mutation(data)
    with pytest.raises(BundleError) as info:
        JudgeQueue.from_json(data, "$.q", "p.mtwb.json")
    assert info.value.json_path == path
    assert words in str(info.value) and "p.mtwb.json" in str(info.value)
