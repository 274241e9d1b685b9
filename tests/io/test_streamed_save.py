"""A bundle saved while it is encoded: its pieces written, hashed and synced as they are made.

The bytes are the very ones ``json.dumps`` writes (also where the fast encoder gives up after
pieces already went to the file), the save stays atomic whatever fails mid-way, the file is
synced as it grows, and the replaced backup is freed off the saver's thread.
"""

from __future__ import annotations

import errno
import hashlib
import os
import threading
import time

import pytest

from mtworkbench.core import atomic, writeback
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle import json_writer, streamed_write
from mtworkbench.io.bundle.bundle import content_hash, project_to_dict, read_bundle, save_bundle, write_bundle
from mtworkbench.io.bundle.json_writer import dumps_text

TEXTS = ["Der Bär läuft „schnell“.", "这是一个测试。", "これはテストです。", "Это тест.", "هذا اختبار.",
         "quote\" back\\ nl\n ls\u2028 😀"]


def big_project(n: int = 60) -> Project:
    segs = [Segment(f"s{i}", TEXTS[i % len(TEXTS)] + f" {i}") for i in range(n)]
    p = Project([Document("d1", [Paragraph("p1", segs)], {"domain": "新闻"})], name="wörld",
                source_language="de", target_language="zh")
    p.add_reference(Reference("r1", "Übersetzerin", {s.id: s.source[::-1] for s in segs}))
    p.add_system(System("mt", "machine", {s.id: s.source.upper() for s in segs}))
    p.add_judge("ann")
    p.add_judgment(Judgment("j1", "ann", "mt", "s1", "r1", score=1e16, scale="da", seconds=1e-05))
    p.add_judgment(Judgment("j2", "ann", "mt", "s2", "r1", score=-0.0, scale="da", seconds=0.1 + 0.2))
    return p


@pytest.fixture
def pieces(monkeypatch):
    """Pieces of 5 values: a small project is written as a big one is, in many pieces."""
    monkeypatch.setattr(json_writer, "PIECE_ITEMS", 5)


def slow_encoder(monkeypatch) -> list:
    """The encoder pauses after each piece (as a big project's takes time): the writer gets them
    one by one, not in one batch. Returns the pieces made."""
    made: list = []
    real = streamed_write.stream_dumps

    def slow(piece):
        made.append(piece)
        time.sleep(0.002)

    monkeypatch.setattr(streamed_write, "stream_dumps",
                        lambda value, out: real(value, lambda piece: (slow(piece), out(piece))))
    return made


def expected_bytes(project: Project) -> bytes:
    return dumps_text(project_to_dict(project)).encode("utf-8")


def test_the_streamed_bytes_are_json_dumps_bytes_and_the_hash_is_theirs(tmp_path, pieces):
    target = tmp_path / "b.mtwb.json"
    project = big_project()
    new_hash, data = write_bundle(project, target)
    assert data == target.read_bytes() == expected_bytes(project)
    assert new_hash == content_hash(data) == save_bundle(project, target)
    assert read_bundle(target).project.system("mt").texts == project.system("mt").texts


def test_what_the_fast_encoder_gives_up_on_late_is_rewritten_the_exact_way(tmp_path, pieces):
    """An integer beyond 64 bits at the document's end: the texts before it were already written;
    the file is emptied and written again with the bytes json.dumps writes."""
    target = tmp_path / "b.mtwb.json"
    project = big_project()
    project.learned_model = {"Gewichte": [2**70, 0.5, "中"]}
    new_hash, data = write_bundle(project, target)
    assert data == target.read_bytes() == expected_bytes(project)
    assert new_hash == hashlib.sha256(data).hexdigest()
    assert save_bundle(project, target) == new_hash


def test_a_value_json_dumps_refuses_fails_the_save_and_keeps_the_old_file(tmp_path, pieces):
    target = tmp_path / "b.mtwb.json"
    save_bundle(big_project(), target)
    before = target.read_bytes()
    project = big_project()
    project.learned_model = {"nan": float("nan")}
    with pytest.raises(ValueError):
        save_bundle(project, target)
    assert target.read_bytes() == before
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_full_disk_mid_write_stops_the_encoder_and_keeps_both_files(tmp_path, pieces, monkeypatch):
    target = tmp_path / "b.mtwb.json"
    save_bundle(big_project(), target)
    save_bundle(big_project(61), target)
    before, backup = target.read_bytes(), (tmp_path / "b.mtwb.json.bak").read_bytes()
    all_pieces: list = []
    json_writer.stream_dumps(project_to_dict(big_project(62)), all_pieces.append)

    def full(path, size):
        raise OSError(errno.ENOSPC, "No space left on device")

    made = slow_encoder(monkeypatch)
    monkeypatch.setattr(streamed_write, "check_output_size", full)
    with pytest.raises(OSError, match="No space left") as caught:
        save_bundle(big_project(62), target)
    assert caught.value.filename == str(target)  # named by the bundle, not its temporary file
    assert target.read_bytes() == before and (tmp_path / "b.mtwb.json.bak").read_bytes() == backup
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert not any(t.name.startswith("mtwb-save") for t in threading.enumerate())  # the encoder ended
    assert 0 < len(made) < len(all_pieces)  # ... at its next piece, not at the document's end
    monkeypatch.undo()
    assert save_bundle(big_project(62), target) == content_hash(target.read_bytes())


def test_the_file_is_synced_as_it_grows_off_the_writers_thread(tmp_path, pieces, monkeypatch):
    synced = []
    real = writeback._sync

    def record(fd):
        synced.append((threading.current_thread().name, os.fstat(fd).st_size))
        real(fd)

    monkeypatch.setattr(writeback, "WRITEBACK_STEP", 512)
    monkeypatch.setattr(writeback, "_sync", record)
    slow_encoder(monkeypatch)
    target = tmp_path / "b.mtwb.json"
    project = big_project(200)
    save_bundle(project, target)
    assert target.read_bytes() == expected_bytes(project)
    assert len(synced) >= 3 and {name for name, _ in synced} == {"mtwb-early-sync"}
    assert all(0 < size < len(target.read_bytes()) for _, size in synced)  # while it was written


def test_an_early_sync_that_fails_fails_the_save(tmp_path, pieces, monkeypatch):
    """Once the kernel has reported a write error it reports it no more: the early sync's must count."""
    target = tmp_path / "b.mtwb.json"
    save_bundle(big_project(), target)
    before = target.read_bytes()

    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(writeback, "WRITEBACK_STEP", 512)
    monkeypatch.setattr(writeback, "_sync", broken)
    slow_encoder(monkeypatch)
    with pytest.raises(OSError, match="Input/output error"):
        save_bundle(big_project(200), target)
    assert target.read_bytes() == before
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_the_replaced_backup_is_freed_off_the_savers_thread(tmp_path, monkeypatch):
    target = tmp_path / "b.mtwb.json"
    for n in (3, 4, 5):
        save_bundle(big_project(n), target)
    old_backup = (tmp_path / "b.mtwb.json.bak").stat()
    closed = []
    real = atomic._close_quietly

    def record(fd):
        info = os.fstat(fd)
        closed.append((threading.current_thread().name, info.st_ino, info.st_nlink))
        real(fd)

    monkeypatch.setattr(atomic, "HOLD_MIN_BYTES", 0)
    monkeypatch.setattr(atomic, "_close_quietly", record)
    save_bundle(big_project(6), target)
    for thread in threading.enumerate():
        if thread.name == "mtwb-free-old-file":
            thread.join(5)
    # the old backup, no longer named, was held open across its rename and closed on its own thread
    assert (threading.main_thread().name, old_backup.st_ino, 0) not in closed
    assert ("mtwb-free-old-file", old_backup.st_ino, 0) in closed
    assert read_bundle(tmp_path / "b.mtwb.json.bak").project.segment_ids == big_project(5).segment_ids


def test_only_a_big_regular_file_with_one_name_is_held(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "HOLD_MIN_BYTES", 4)
    plain = tmp_path / "plain"
    plain.write_bytes("größer 大".encode())
    fd = atomic.hold_last_name(plain)
    assert fd is not None
    os.close(fd)
    small = tmp_path / "small"
    small.write_bytes(b"ab")
    linked = tmp_path / "linked"
    linked.write_bytes(b"zwei Namen")
    os.link(linked, tmp_path / "second")
    (tmp_path / "symlink").symlink_to(plain)
    os.mkfifo(tmp_path / "fifo")  # opened, it would wait for a writer
    for name in ("small", "linked", "symlink", "fifo", "missing"):
        assert atomic.hold_last_name(tmp_path / name) is None, name


def test_the_bytes_kept_are_the_files_however_they_are_read_back(tmp_path, pieces, monkeypatch):
    """Read back in short reads (a read returns at most 2 GiB), or kept from the pieces where
    the system has no positioned read: the same bytes either way."""
    project = big_project(80)
    real = os.pread
    monkeypatch.setattr(streamed_write.os, "pread", lambda fd, size, offset: real(fd, min(size, 1000), offset))
    data = write_bundle(project, tmp_path / "a.mtwb.json")[1]
    assert len(data) > 5000 and data == (tmp_path / "a.mtwb.json").read_bytes() == expected_bytes(project)
    monkeypatch.delattr(streamed_write.os, "pread")
    data = write_bundle(project, tmp_path / "b.mtwb.json")[1]
    assert data == (tmp_path / "b.mtwb.json").read_bytes() == expected_bytes(project)
