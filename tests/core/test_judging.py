"""The judge's work queue: reproducible order, repeats, references, resume, submit/back."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from mtworkbench.core.judging import (
    ADEQUACY_LABELS,
    FLUENCY_LABELS,
    JudgeSession,
    QueueConfig,
    apply_judgment,
    build_queue,
    revert_judgment,
)
from mtworkbench.core.model import Document, ModelError, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.queue_state import JudgeQueue


def make_project(n_docs: int = 3, per_doc: int = 4, n_refs: int = 3, systems: tuple[str, ...] = ("A", "B")) -> Project:
    docs, seg_ids = [], []
    for d in range(1, n_docs + 1):
        segs = [Segment(f"d{d}s{k}", f"source {d}.{k}") for k in range(1, per_doc + 1)]
        seg_ids += [s.id for s in segs]
        docs.append(Document(f"d{d}", [Paragraph(f"d{d}p1", segs)]))
    refs = [Reference(f"r{k}", texts={sid: f"ref{k} of {sid}" for sid in seg_ids}) for k in range(1, n_refs + 1)]
    syss = [System(name, texts={sid: f"{name} says {sid}" for sid in seg_ids}) for name in systems]
    project = Project(documents=docs, references=refs, systems=syss)
    project.add_judge("ann")
    project.add_judge("bob")
    return project


def fixed_clock() -> str:
    return "2026-01-01T00:00:00Z"


def test_ldc_labels():
    assert [ADEQUACY_LABELS[k] for k in (5, 4, 3, 2, 1)] == [
        "All of the meaning",
        "Most of the meaning",
        "Much of the meaning",
        "Little of the meaning",
        "None of the meaning",
    ]
    assert [FLUENCY_LABELS[k] for k in (5, 4, 3, 2, 1)] == [
        "Flawless English",
        "Good English",
        "Non-native English",
        "Disfluent English",
        "Incomprehensible English",
    ]


def test_queue_covers_every_item_once_plus_repeats():
    project = make_project()
    state = build_queue(project, "ann", QueueConfig(seed=3, repeat_share=0.25, min_repeat_gap=2))
    items = state.items
    originals = [(it.system, it.segment) for it in items if not it.repeat]
    # 2 systems x 12 segments, each exactly once, plus round(0.25 * 24) = 6 repeats.
    assert Counter(originals) == Counter((s, g) for s in ("A", "B") for g in project.segment_ids)
    assert len(items) == 24 + 6
    repeats = [i for i, it in enumerate(items) if it.repeat]
    assert len(repeats) == 6
    for i in repeats:
        rep = items[i]
        first = next(k for k, it in enumerate(items) if not it.repeat and (it.system, it.segment) == (rep.system, rep.segment))
        assert i - first > 2  # at least min_repeat_gap items in between
        assert items[first].reference == rep.reference  # same stimulus
    assert len({(items[i].system, items[i].segment) for i in repeats}) == 6


def test_queue_is_reproducible_and_depends_on_seed_and_judge():
    project = make_project()
    config = QueueConfig(seed=7, repeat_share=0.1)
    a1 = build_queue(project, "ann", config)
    a2 = build_queue(project, "ann", config)
    assert a1 == a2
    order = lambda s: [(it.system, it.segment, it.repeat) for it in s.items]  # noqa: E731
    assert order(build_queue(project, "ann", QueueConfig(seed=8, repeat_share=0.1))) != order(a1)
    assert order(build_queue(project, "bob", config)) != order(a1)
    # Not the document order: the queue is shuffled.
    assert order(a1)[:24] != [(s, g, False) for s in ("A", "B") for g in project.segment_ids]


def test_reference_fixed_per_document():
    project = make_project(n_docs=6)
    chosen_overall = set()
    for seed in range(4):
        state = build_queue(project, "ann", QueueConfig(seed=seed, reference_mode="per-document"))
        per_doc: dict[str, set[str]] = {}
        for it in state.items:
            per_doc.setdefault(project.document_of(it.segment), set()).add(it.reference)
        assert all(len(refs) == 1 for refs in per_doc.values()), per_doc
        chosen_overall |= {r for refs in per_doc.values() for r in refs}
    # The choice is drawn, not always the first reference.
    assert len(chosen_overall) > 1


def test_reference_per_segment_and_fixed():
    project = make_project(n_docs=2, per_doc=10)
    state = build_queue(project, "ann", QueueConfig(seed=1, reference_mode="per-segment", repeat_share=0))
    per_doc: dict[str, set[str]] = {}
    for it in state.items:
        per_doc.setdefault(project.document_of(it.segment), set()).add(it.reference)
    assert any(len(refs) > 1 for refs in per_doc.values())
    fixed = build_queue(project, "ann", QueueConfig(reference_mode="fixed", reference="r2"))
    assert {it.reference for it in fixed.items} == {"r2"}
    with pytest.raises(ModelError, match="unknown reference"):
        build_queue(project, "ann", QueueConfig(reference_mode="fixed", reference="nope"))
    with pytest.raises(ModelError, match="repeat share"):
        build_queue(project, "ann", QueueConfig(repeat_share=1.5))


def test_reference_falls_back_when_missing_for_a_segment():
    project = make_project(n_docs=1, per_doc=3, n_refs=2)
    # r1 lacks every segment: every item must show r2 whatever is drawn.
    project.references[0].texts.clear()
    for seed in range(5):
        state = build_queue(project, "ann", QueueConfig(seed=seed))
        assert {it.reference for it in state.items} == {"r2"}


def test_restrict_systems_and_documents():
    project = make_project()
    state = build_queue(project, "ann", QueueConfig(systems=("B",), documents=("d2",), repeat_share=0))
    assert sorted((it.system, it.segment) for it in state.items) == [
        ("B", f"d2s{k}") for k in range(1, 5)
    ]


def test_submit_computes_then_apply_adds_and_progress_counts():
    project = make_project(n_docs=1, per_doc=3)
    session = JudgeSession.start(project, "ann", QueueConfig(seed=2, repeat_share=0), clock=fixed_clock)
    assert (session.progress.done, session.progress.total) == (0, 6)
    first = session.current
    assert first is not None and first.judgment is None
    assert first.candidate == f"{first.system} says {first.segment}"
    assert first.reference_text == f"ref{first.reference[1:]} of {first.segment}"
    j = session.submit(4, 3, "ok", seconds=2.5)
    # Computed, not applied: the project is unchanged, the queue has moved on.
    assert project.judgments == []
    assert session.done == 0 and session.position == 1
    assert (j.judge, j.system, j.segment, j.reference) == ("ann", first.system, first.segment, first.reference)
    assert (j.adequacy, j.fluency, j.comment, j.seconds, j.timestamp) == (4, 3, "ok", 2.5, "2026-01-01T00:00:00Z")
    assert apply_judgment(project, j) is None
    assert session.done == 1
    assert session.progress.fraction == pytest.approx(1 / 6)


def test_back_and_change_a_rating_replaces_it():
    project = make_project(n_docs=1, per_doc=3)
    session = JudgeSession.start(project, "ann", QueueConfig(seed=2, repeat_share=0), clock=fixed_clock)
    j1 = session.submit(4, 3, seconds=2.0)
    apply_judgment(project, j1)
    j2 = session.submit(2, 2, seconds=1.0)
    apply_judgment(project, j2)
    assert session.position == 2
    item = session.back()
    assert item is not None and item.index == 1 and item.judgment == j2
    changed = session.submit(5, 5, "changed my mind", seconds=3.0)
    assert changed.id == j2.id
    assert changed.seconds == 4.0  # time spent on the item in total
    replaced = apply_judgment(project, changed)
    assert replaced == j2
    assert project.judgment(j2.id).adequacy == 5
    assert len(project.judgments) == 2 and session.done == 2
    assert session.position == 2
    revert_judgment(project, changed, replaced)
    assert project.judgment(j2.id) == j2
    # Two steps back and a change: Enter goes to the next item in queue order
    # (rated already: the judge reviews it), then on to where they left off.
    session.back()
    assert session.back().index == 0
    session.submit(1, 1)
    assert session.position == 1 and session.current.judgment is not None
    apply_judgment(project, session.submit(2, 2))
    assert session.position == 2 and session.current.judgment is None


def test_undoing_an_add_makes_the_item_pending_again():
    project = make_project(n_docs=1, per_doc=1)  # 2 items
    session = JudgeSession.start(project, "ann", QueueConfig(repeat_share=0), clock=fixed_clock)
    j1 = session.submit(3, 3)
    replaced = apply_judgment(project, j1)
    revert_judgment(project, j1, replaced)  # undo
    assert session.done == 0 and session.is_done(0) is False
    j2 = session.submit(1, 1)
    apply_judgment(project, j2)
    # At the end of the queue the judge is sent to what is left undone.
    assert session.position == 0 and session.current.judgment is None
    j1b = session.submit(2, 2)
    assert j1b.id != j2.id
    apply_judgment(project, j1b)
    assert session.finished and session.current is None
    assert session.done == session.total == 2
    with pytest.raises(ModelError, match="finished"):
        session.submit(3, 3)


@pytest.mark.parametrize("bad", [0, 6, True, "3", 2.5, None])
def test_ratings_must_be_one_to_five(bad):
    project = make_project(n_docs=1, per_doc=1)
    session = JudgeSession.start(project, "ann", QueueConfig(repeat_share=0))
    with pytest.raises(ModelError, match="integer from 1 to 5"):
        session.submit(bad, 3)
    with pytest.raises(ModelError, match="integer from 1 to 5"):
        session.submit(3, bad)
    with pytest.raises(ModelError, match="seconds"):
        session.submit(3, 3, seconds=-1)
    assert session.position == 0


def test_unknown_judge_or_missing_queue():
    project = make_project()
    with pytest.raises(ModelError, match="unknown judge"):
        JudgeSession(project, "zoe")
    with pytest.raises(ModelError, match="no queue"):
        JudgeSession(project, "ann")


def test_state_is_plain_json_and_resume_loses_nothing():
    project = make_project()
    session = JudgeSession.start(project, "ann", QueueConfig(seed=5, repeat_share=0.2, show_source=True), clock=fixed_clock)
    for a, f in [(5, 4), (3, 3), (1, 2)]:
        apply_judgment(project, session.submit(a, f, seconds=1.5))
    session.back()
    text = json.dumps({judge: queue.to_json() for judge, queue in project.judge_queues.items()})
    # A new session over the same data (as after saving and reopening) is where the judge stopped.
    project.set_judge_queue("ann", JudgeQueue.from_json(json.loads(text)["ann"]))
    resumed = JudgeSession(project, "ann")
    assert resumed.position == 2 and resumed.done == 3
    assert resumed.current.judgment.adequacy == 1
    assert resumed.config.show_source is True and resumed.config.seed == 5


def test_resume_through_a_saved_bundle(tmp_path):
    bundle = pytest.importorskip("mtworkbench.io.bundle.bundle")
    project = make_project()
    session = JudgeSession.start(project, "bob", QueueConfig(seed=9), clock=fixed_clock)
    done = [session.submit(4, 4, "x", seconds=2) for _ in range(3)]
    for j in done:
        apply_judgment(project, j)
    expected_next = session.current
    path = tmp_path / "p.mtwb.json"
    bundle.save_bundle(project, path)
    reopened = bundle.load_bundle(path)
    resumed = JudgeSession(reopened, "bob")
    assert resumed.progress == session.progress
    assert resumed.current == expected_next
    assert [reopened.judgment(j.id) for j in done] == done


def test_rating_entry_one_key_per_scale_then_enter():
    from mtworkbench.core.judging import RatingEntry

    entry = RatingEntry()
    assert entry.expecting == "adequacy" and not entry.complete
    entry.press(4)
    assert (entry.adequacy, entry.fluency, entry.expecting) == (4, None, "fluency")
    entry.press(2)
    assert entry.complete and (entry.adequacy, entry.fluency) == (4, 2) and entry.expecting is None
    entry.press(5)  # typing on after both: starts again with adequacy
    assert (entry.adequacy, entry.fluency) == (5, None)
    with pytest.raises(ModelError):
        entry.press(0)
    project = make_project(n_docs=1, per_doc=1)
    session = JudgeSession.start(project, "ann", QueueConfig(repeat_share=0))
    apply_judgment(project, session.submit(3, 1))
    prefilled = RatingEntry.from_judgment(session.back().judgment)
    assert (prefilled.adequacy, prefilled.fluency) == (3, 1)
    assert RatingEntry.from_judgment(None) == RatingEntry()


def test_item_clock_counts_only_active_time():
    from mtworkbench.core.judging import ItemClock

    now = [100.0]
    clock = ItemClock(now=lambda: now[0])
    clock.start()
    now[0] = 104.0
    clock.pause()
    now[0] = 200.0  # away from the window: not counted
    clock.resume()
    now[0] = 201.5
    assert clock.seconds == 5.5
    clock.start()
    assert clock.seconds == 0.0


def test_queue_naming_a_removed_system_is_reported():
    project = make_project(n_docs=1, per_doc=2)
    JudgeSession.start(project, "ann", QueueConfig(repeat_share=0))
    project.remove_system("B")
    with pytest.raises(ModelError, match="no longer in the project; start a new queue"):
        JudgeSession(project, "ann")


def test_display_options_default_off_and_toggle():
    project = make_project(n_docs=1, per_doc=1)
    session = JudgeSession.start(project, "ann", QueueConfig(repeat_share=0))
    assert session.config.highlight_overlap is False and session.config.show_source is False
    assert session.set_option("highlight_overlap", True) is False
    assert session.config.highlight_overlap is True
    assert project.judge_queues["ann"].highlight_overlap is True
    with pytest.raises(ModelError, match="unknown option"):
        session.set_option("colour", True)


def test_fluency_labels_name_the_target_language():
    from mtworkbench.core.judging import fluency_labels

    assert fluency_labels("en") == FLUENCY_LABELS
    assert fluency_labels("de")[5] == "Flawless German"
    assert fluency_labels("zh-CN")[1] == "Incomprehensible Chinese"
    assert fluency_labels(None)[3] == "Non-native in the target language"
