"""A judge's queue served in batches of N items or N whole documents, of chosen documents:
each batch complete with its own repeats and BAD items, the progress naming the batch."""

from __future__ import annotations

import json

import pytest

from mtworkbench.core.errors import BundleError
from mtworkbench.core.judging import JudgeSession, QueueConfig, apply_judgment, build_queue
from mtworkbench.core.model import ModelError
from mtworkbench.core.queue_batches import batch_at
from mtworkbench.core.queue_state import JudgeQueue
from tests.core.test_judging import fixed_clock, make_project


def batches_of(state: JudgeQueue) -> list[list]:
    out, at = [], 0
    for size in state.batches or [len(state.items)]:
        out.append(state.items[at:at + size])
        at += size
    return out


def test_item_batches_hold_n_distinct_items_each_with_its_own_repeats():
    project = make_project(n_docs=3, per_doc=4)  # 2 systems x 12 segments = 24 items
    state = build_queue(project, "ann", QueueConfig(seed=5, repeat_share=0.25, min_repeat_gap=1, batch_size=10))
    batches = batches_of(state)
    assert [sum(not e.repeat for e in b) for b in batches] == [10, 10, 4]
    assert [sum(e.repeat for e in b) for b in batches] == [2, 2, 1]  # round(0.25 * n) of each batch
    for batch in batches:  # a repeat repeats an item of its own batch
        originals = {(e.system, e.segment) for e in batch if not e.repeat}
        assert all((e.system, e.segment) in originals for e in batch if e.repeat)
    distinct = [(e.system, e.segment) for e in state.items if not e.repeat]
    assert sorted(distinct) == sorted((s, seg) for s in ("A", "B") for seg in project.segment_ids)


def test_document_batches_keep_whole_documents_together():
    project = make_project(n_docs=5, per_doc=3)
    state = build_queue(project, "ann", QueueConfig(seed=2, repeat_share=0.0, batch_size=2, batch_unit="documents"))
    docs = [{project.document_of(e.segment) for e in b} for b in batches_of(state)]
    assert [len(d) for d in docs] == [2, 2, 1]
    assert set().union(*docs) == {f"d{k}" for k in range(1, 6)} and sum(len(d) for d in docs) == 5
    assert [len(b) for b in batches_of(state)] == [12, 12, 6]  # every system's segments of the documents
    # Drawn from the seed and the judge: the same settings give the same batches.
    again = build_queue(project, "ann", QueueConfig(seed=2, repeat_share=0.0, batch_size=2, batch_unit="documents"))
    assert again == state


def test_chosen_documents_only():
    project = make_project(n_docs=4, per_doc=2)
    state = build_queue(project, "ann", QueueConfig(documents=("d2", "d4"), repeat_share=0.0, batch_size=1,
                                                    batch_unit="documents"))
    assert {project.document_of(e.segment) for e in state.items} == {"d2", "d4"}
    assert state.batches == [4, 4]


def test_bad_items_stay_in_their_batch():
    project = make_project(n_docs=4, per_doc=5)
    state = build_queue(project, "ann", QueueConfig(seed=1, repeat_share=0.0, protocol="da", bad_rate=0.2,
                                                    batch_size=20))
    for batch in batches_of(state):
        shown = {(e.system, e.segment) for e in batch if not e.qc}
        bad = [e for e in batch if e.qc == "bad"]
        assert bad and all((e.system, e.segment) in shown for e in bad)


def test_without_batches_the_queue_is_drawn_as_before_and_written_without_batch_fields():
    project = make_project()
    plain = build_queue(project, "ann", QueueConfig(seed=4))
    assert plain.batches is None
    written = plain.to_json()
    assert not {"batch_size", "batch_unit", "batches"} & set(written)
    one_batch = build_queue(project, "ann", QueueConfig(seed=4, batch_size=1000))
    assert one_batch.batches == [len(one_batch.items)]


def test_progress_names_the_batch_and_counts_within_it():
    project = make_project(n_docs=2, per_doc=3)  # 12 items
    session = JudgeSession.start(project, "ann", QueueConfig(seed=1, repeat_share=0.0, batch_size=5),
                                 clock=fixed_clock)
    progress = session.progress
    assert (progress.batch, progress.batches, progress.batch_done, progress.batch_total) == (1, 3, 0, 5)
    for _ in range(5):
        apply_judgment(project, session.submit(4, 4))
    progress = session.progress
    assert (progress.batch, progress.batches, progress.batch_done, progress.batch_total) == (2, 3, 0, 5)
    assert progress.done == 5
    session.back()
    assert (session.progress.batch, session.progress.batch_done) == (1, 5)
    assert batch_at(session.state, session.total).number == 3  # finished: the last batch


def test_batches_round_trip_and_bad_batch_sizes_are_named():
    project = make_project()
    session = JudgeSession.start(project, "ann", QueueConfig(seed=3, batch_size=1, batch_unit="documents"))
    raw = json.loads(json.dumps(session.state.to_json()))
    assert JudgeQueue.from_json(raw) == session.state
    assert JudgeSession(project, "ann").config.batch_unit == "documents"
    with pytest.raises(BundleError, match=r"\$\.batches"):
        JudgeQueue.from_json({**raw, "batches": [1, 2]})
    with pytest.raises(BundleError, match=r"\$\.batch_unit"):
        JudgeQueue.from_json({**raw, "batch_unit": "pages"})
    with pytest.raises(ModelError, match="batch size"):
        build_queue(project, "ann", QueueConfig(batch_size=-1))
    with pytest.raises(ModelError, match="batch unit"):
        build_queue(project, "ann", QueueConfig(batch_size=3, batch_unit="pages"))


def test_ranking_queue_in_batches():
    project = make_project(n_docs=3, per_doc=2, systems=("A", "B", "C"))
    state = build_queue(project, "ann", QueueConfig(protocol="rank", repeat_share=0.0, batch_size=2,
                                                    batch_unit="documents"))
    assert state.batches == [4, 2]
    assert [len({project.document_of(e.segment) for e in b}) for b in batches_of(state)] == [2, 1]
