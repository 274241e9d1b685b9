"""A large project's recovery copy is copied and encoded off the GUI thread (benchmarks/
bench_judge_spans.py: encoding the TED MQM import stalled the window a second after every
rating; copying a 250,000-segment project 0.1-0.3 s), checked against the edits made meanwhile."""

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


def test_a_large_project_is_copied_and_encoded_on_another_thread(qtbot, tmp_path, monkeypatch):
    """Nothing of a large project's copy is made on the GUI thread (copying a 250,000-segment
    project stalled it 0.1-0.3 s); the copy restores exactly what a save would hold."""
    project = load_bundle(demo_project_path())
    project.set_reference_text(project.references[0].id, project.segment_ids[0], "Änderung 変更 изменение تعديل")
    copiers, encoders = [], []
    real_of, real_encode = Snapshot.of, recovery_writer.encode_pieces

    def copying(cls, p):
        copiers.append(threading.current_thread())
        return real_of(p)

    def encoding(document):
        encoders.append(threading.current_thread())
        return real_encode(document)

    def joined(document):
        raise AssertionError("a large project's pieces are written one by one, never joined into one copy")

    monkeypatch.setattr(recovery_writer, "BACKGROUND_ITEMS", 0)  # every project counts as large
    monkeypatch.setattr(Snapshot, "of", classmethod(copying))
    monkeypatch.setattr(recovery_writer, "encode_pieces", encoding)
    monkeypatch.setattr(recovery_writer, "encode", joined)
    bundle = tmp_path / "p.mtwb.json"
    writer = RecoveryWriter(lambda: (project, bundle))
    with qtbot.waitSignal(writer.written, timeout=10_000):
        writer.write_now()
    assert copiers and encoders and all(t is not threading.main_thread() for t in copiers + encoders)
    assert recovery_target(bundle).read_bytes() == dumps(project).encode("utf-8")
    assert dumps(load_bundle(recovery_target(bundle))) == dumps(project)


def test_a_change_other_than_a_text_while_copying_makes_the_copy_again(qtbot, tmp_path, monkeypatch):
    """A judge added between two parts of the copy could leave it inconsistent: it is taken again."""
    project = load_bundle(demo_project_path())
    real_of = Snapshot.of
    calls = []

    def copying_while_the_gui_edits(cls, p):
        snapshot = real_of(p)
        calls.append(1)
        if len(calls) == 1:
            p.add_judge("später")  # emitted as the GUI thread would, while this copy was taken
        return snapshot

    monkeypatch.setattr(recovery_writer, "BACKGROUND_ITEMS", 0)
    monkeypatch.setattr(Snapshot, "of", classmethod(copying_while_the_gui_edits))
    bundle = tmp_path / "p.mtwb.json"
    writer = RecoveryWriter(lambda: (project, bundle))
    with qtbot.waitSignal(writer.written, timeout=10_000):
        writer.write_now()
    assert len(calls) == 2
    assert "später" in load_bundle(recovery_target(bundle)).judges
    assert recovery_target(bundle).read_bytes() == dumps(project).encode("utf-8")


def test_a_text_edit_while_copying_keeps_the_copy_and_reaches_the_next_one(qtbot, tmp_path, monkeypatch):
    """A text edited during an autosave: the copy under way is still consistent (old or new text),
    and the edit - which schedules a write, as the undo stack does - is in the next copy."""
    project = load_bundle(demo_project_path())
    reference, segment = project.references[0].id, project.segment_ids[0]
    real_encode = recovery_writer.encode_pieces
    encoding, edited = threading.Event(), threading.Event()

    def slow_encode(document):
        encoding.set()
        edited.wait(10)  # the GUI thread edits while this copy is encoded
        return real_encode(document)

    monkeypatch.setattr(recovery_writer, "BACKGROUND_ITEMS", 0)
    monkeypatch.setattr(recovery_writer, "DELAY_MS", 10)
    monkeypatch.setattr(recovery_writer, "encode_pieces", slow_encode)
    bundle = tmp_path / "p.mtwb.json"
    writer = RecoveryWriter(lambda: (project, bundle))
    writes = []
    writer.written.connect(writes.append)
    writer.write_now()
    assert encoding.wait(10)
    copies = []
    project.set_reference_text(reference, segment, "während des Schreibens 書き込み中")
    writer.schedule()  # what the undo stack's change does
    qtbot.wait(50)  # the timer fires while the first write is under way: it waits for it
    copies.append(len(writes))
    edited.set()
    qtbot.waitUntil(lambda: len(writes) == 2, timeout=10_000)
    assert copies == [0]
    assert load_bundle(recovery_target(bundle)).reference_text(reference, segment) == "während des Schreibens 書き込み中"
    assert recovery_target(bundle).read_bytes() == dumps(project).encode("utf-8")


def test_a_project_that_keeps_changing_is_left_to_the_next_write(qtbot, tmp_path, monkeypatch):
    """Every try spans a change: nothing is written and nothing reported; the next write,
    the project quiet again, holds every change."""
    project = load_bundle(demo_project_path())
    real_of = Snapshot.of
    busy = [f"judge-{i}" for i in range(recovery_writer.SNAPSHOT_TRIES)]

    def always_changing(cls, p):
        snapshot = real_of(p)
        if busy:
            p.add_judge(busy.pop())
        return snapshot

    monkeypatch.setattr(recovery_writer, "BACKGROUND_ITEMS", 0)
    monkeypatch.setattr(recovery_writer, "DELAY_MS", 10)
    monkeypatch.setattr(Snapshot, "of", classmethod(always_changing))
    bundle = tmp_path / "p.mtwb.json"
    writer = RecoveryWriter(lambda: (project, bundle))
    failures, writes = [], []
    writer.failed.connect(failures.append)
    writer.written.connect(writes.append)
    writer.write_now()
    qtbot.waitUntil(lambda: len(writes) == 1, timeout=10_000)
    assert not failures and not busy
    assert {f"judge-{i}" for i in range(recovery_writer.SNAPSHOT_TRIES)} <= set(load_bundle(recovery_target(bundle)).judges)
    assert project._listeners == [] or all(not isinstance(x, recovery_writer.ChangesWhileCopying)
                                           for x in project._listeners)


def test_small_projects_are_still_written_at_once(qtbot, tmp_path):
    project = load_bundle(demo_project_path())
    assert recovery_writer.project_items(project) < recovery_writer.BACKGROUND_ITEMS
    bundle = tmp_path / "p.mtwb.json"
    writer = RecoveryWriter(lambda: (project, bundle))
    writer.write_now()
    assert recovery_target(bundle).exists()  # no thread: written before write_now returned


def test_an_error_while_copying_is_retried_only_when_a_change_explains_it(qtbot, tmp_path, monkeypatch):
    project = load_bundle(demo_project_path())
    real_of = Snapshot.of
    calls = []

    def broken_by_a_change(cls, p):
        calls.append(1)
        if len(calls) == 1:
            p.add_judge("mitten drin")  # a change the copy ran into
            raise AttributeError("half-built record")
        return real_of(p)

    monkeypatch.setattr(recovery_writer, "BACKGROUND_ITEMS", 0)
    monkeypatch.setattr(Snapshot, "of", classmethod(broken_by_a_change))
    bundle = tmp_path / "p.mtwb.json"
    writer = RecoveryWriter(lambda: (project, bundle))
    with qtbot.waitSignal(writer.written, timeout=10_000):
        writer.write_now()
    assert len(calls) == 2 and "mitten drin" in load_bundle(recovery_target(bundle)).judges

    def broken(cls, p):
        raise AttributeError("a bug, no change")

    monkeypatch.setattr(Snapshot, "of", classmethod(broken))
    with qtbot.waitSignal(writer.failed, timeout=10_000) as failure:
        writer.write_now()
    assert "a bug, no change" in failure.args[0]
