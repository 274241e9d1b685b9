"""A write killed mid-way leaves a temporary file; the next writer of that file takes it
away, also when the writer was started before the kill (an app open all along) and when
the next command changes nothing in the bundle."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import bundle_transaction, save_bundle

KILLED_WRITER = """
import sys, time
from mtworkbench.core.atomic import atomic_write_stream
def write(handle):
    handle.write(b"half a bundle")
    handle.flush()
    print("writing", flush=True)
    time.sleep(60)
atomic_write_stream(sys.argv[1], write, keep_backup=True, locked=True)
"""


def small_bundle(path):
    segs = [Segment("1", "今天天气很好。"), Segment("2", "Guten Morgen, Welt.")]
    project = Project([Document("d", [Paragraph("p", segs)])], target_language="en")
    project.add_reference(Reference("r1", texts={"1": "The weather is nice today.", "2": "Good morning, world."}))
    project.add_system(System("mt", texts={"1": "Weather is good today.", "2": "Good morning world."}))
    save_bundle(project, path)
    return path


def kill_a_write(path) -> list[str]:
    """Start a writer of ``path`` in another process and kill it mid-write; its leftovers."""
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return [n for n in os.listdir(path.parent) if n.endswith(".tmp")]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_transaction_that_writes_nothing_still_removes_a_killed_writers_file(tmp_path):
    bundle = small_bundle(tmp_path / "p.mtwb.json")
    left = kill_a_write(bundle)
    assert len(left) == 1 and left[0].startswith(".p.mtwb.json.")
    # this process started before the killed writer: only the lock tells that the file is stale
    with bundle_transaction(bundle):
        pass  # nothing changes, nothing is written
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_the_next_import_over_the_bundle_removes_the_killed_imports_file(tmp_path, capsys):
    bundle = small_bundle(tmp_path / "p.mtwb.json")
    assert kill_a_write(bundle)
    src, ref = tmp_path / "src.txt", tmp_path / "ref.txt"
    src.write_text("你好。\n", encoding="utf-8")
    ref.write_text("Hello.\n", encoding="utf-8")
    assert main(["import", "--format", "plain", "--source", str(src), "--ref", str(ref), "-o", str(bundle)]) == 0
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_the_next_save_of_a_score_file_removes_a_killed_saves_file(tmp_path, capsys):
    bundle = small_bundle(tmp_path / "p.mtwb.json")
    stale = tmp_path / "p.mtwb.scores.npz.0123456789ab.tmp"  # what a killed score save leaves
    stale.write_bytes(b"half a score file")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    assert main(["score", str(bundle), "--metric", "bleu", "--jobs", "1"]) == 0
    assert (tmp_path / "p.mtwb.scores.npz").exists()
    assert not stale.exists()
