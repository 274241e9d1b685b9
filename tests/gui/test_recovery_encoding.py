"""A large project's recovery copy is encoded off the GUI thread, from a snapshot taken
on it (benchmarks/bench_judge_spans.py: encoding the TED MQM import stalled the window
a second after every rating)."""

from __future__ import annotations

import threading

from mtworkbench.gui import recovery_writer
from mtworkbench.gui.recovery_writer import RecoveryWriter, Snapshot, encode, recovery_target
from mtworkbench.io.bundle.bundle import dumps, load_bundle, project_to_dict
from mtworkbench.resources import demo_project_path


def test_encode_writes_what_a_saved_bundle_holds():
    project = load_bundle(demo_project_path())
    assert encode(project_to_dict(project)) == dumps(project).encode("utf-8")


def queued_project():
    """The demo with a judge halfway through a queue of every item."""
    from mtworkbench.core.judging import QueueConfig, build_queue

    project = load_bundle(demo_project_path())
    project.add_judge("q")
    project.set_judge_queue("q", build_queue(project, "q", QueueConfig(seed=2)))
    project.move_judge_queue("q", 3)
    return project


def test_a_snapshot_writes_what_a_saved_bundle_holds_and_ignores_later_edits():
    project = queued_project()
    expected = dumps(project).encode("utf-8")
    snapshot = Snapshot.of(project)
    project.move_judge_queue("q", 5)  # edits after the snapshot, as the GUI thread goes on
    project.record_queue_judgment("q", 4, "j-later")
    project.set_reference_text(project.references[0].id, project.segment_ids[0], "later")
    assert snapshot.encode() == expected


def test_a_large_project_is_encoded_on_another_thread_from_the_snapshot(qtbot, tmp_path, monkeypatch):
    project = load_bundle(demo_project_path())
    reference, segment = project.references[0].id, project.segment_ids[0]
    before = project.reference_text(reference, segment)
    encoders, edited = [], threading.Event()

    def slow_encode(document):
        encoders.append(threading.current_thread())
        edited.wait(10)  # the GUI thread edits the project before this encodes
        return encode(document)

    monkeypatch.setattr(recovery_writer, "BACKGROUND_ITEMS", 0)  # every project counts as large
    monkeypatch.setattr(recovery_writer, "encode", slow_encode)
    bundle = tmp_path / "p.mtwb.json"
    writer = RecoveryWriter(lambda: (project, bundle))
    with qtbot.waitSignal(writer.written, timeout=10_000):
        writer.write_now()
        project.set_reference_text(reference, segment, "an edit after the snapshot")
        edited.set()
    assert encoders and encoders[0] is not threading.main_thread()
    assert load_bundle(recovery_target(bundle)).reference_text(reference, segment) == before


def test_small_projects_are_still_written_at_once(qtbot, tmp_path):
    project = load_bundle(demo_project_path())
    assert recovery_writer.project_items(project) < recovery_writer.BACKGROUND_ITEMS
    bundle = tmp_path / "p.mtwb.json"
    writer = RecoveryWriter(lambda: (project, bundle))
    writer.write_now()
    assert recovery_target(bundle).exists()  # no thread: written before write_now returned
