"""One atomic writer: kills at any moment leave the old or the new file, a whole .bak, and no leftovers."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest

from mtworkbench.core import atomic
from mtworkbench.core.atomic import atomic_write_bytes, atomic_write_text, remove_stale_temp_files
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

from .helpers import env, project, temp_leftovers

KILLS = 12

# Saves versions v0, v1, v2, ... of one bundle as fast as it can until killed.
_SAVER = """
import sys
from mtworkbench.io.bundle.bundle import save_bundle
sys.path.insert(0, sys.argv[2])
from tests.safety.helpers import project
p = project(n_segments=1500, n_systems=4, text_len=200)
print("ready", flush=True)
i = 0
while True:
    i += 1
    p.name = f"{sys.argv[3]}-v{i}"
    save_bundle(p, sys.argv[1])
"""


@pytest.mark.slow
def test_killed_writers_leave_old_or_new_bundle_and_next_write_cleans_up(tmp_path):
    root = str(__import__("pathlib").Path(__file__).resolve().parents[2])
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(name="v0"), bundle)
    rng = random.Random(20)
    for kill in range(KILLS):
        before = load_bundle(bundle).name
        child = subprocess.Popen([sys.executable, "-c", _SAVER, str(bundle), root, f"k{kill}"], env=env(),
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.6))
        child.send_signal(signal.SIGKILL)
        child.wait()
        after = load_bundle(bundle)  # a complete bundle, never a torn one
        assert after.name == before or after.name.startswith(f"k{kill}-v")  # the old version or a new one
        backup = tmp_path / "b.mtwb.json.bak"
        if backup.exists():
            load_bundle(backup)  # the backup is always whole too
    # The next write (here: this process, under the bundle's lock) removes every leftover.
    final = project(name="final")
    save_bundle(final, bundle)
    assert temp_leftovers(tmp_path) == []
    assert load_bundle(bundle).name == "final"
    assert load_bundle(tmp_path / "b.mtwb.json.bak").name.startswith("k")


def test_backup_is_replaced_atomically_not_copied_in_place(tmp_path, monkeypatch):
    path = tmp_path / "f.json"
    atomic_write_text(path, "one")
    atomic_write_text(path, "two")
    assert (tmp_path / "f.json.bak").read_text() == "one"
    # A failure while the backup is being made leaves both the old file and the old backup whole.
    def explode(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(atomic.os, "link", explode)
    real_copy = atomic.shutil.copyfileobj
    def half_copy(src, dst, *a):
        dst.write(src.read(1))
        raise OSError("disk full")
    monkeypatch.setattr(atomic.shutil, "copyfileobj", half_copy)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(path, "three")
    assert path.read_text() == "two"
    assert (tmp_path / "f.json.bak").read_text() == "one"
    assert temp_leftovers(tmp_path) == []
    # Where hard links are not possible, the copy fallback still gives a whole backup.
    monkeypatch.setattr(atomic.shutil, "copyfileobj", real_copy)
    atomic_write_text(path, "three")
    assert (tmp_path / "f.json.bak").read_text() == "two"


def test_stale_temp_files_are_removed_ours_only(tmp_path):
    path = tmp_path / "b.mtwb.json"
    old = time.time() - 3600
    ours = [tmp_path / ".b.mtwb.json.abc123_x.tmp", tmp_path / ".b.mtwb.json.bak.0a1b2c3d.tmp"]
    not_ours = [tmp_path / ".other.json.abc123_x.tmp", tmp_path / "b.mtwb.json.tmp",
                tmp_path / ".b.mtwb.json.notours.tmp", tmp_path / ".b.mtwb.json.abc123_x.tmp.keep"]
    for p in ours + not_ours:
        p.write_text("partial")
        os.utime(p, (old, old))
    fresh = tmp_path / ".b.mtwb.json.fresh123.tmp"  # a concurrent writer's, younger than this process
    fresh.write_text("in progress")
    atomic_write_bytes(path, b"new", keep_backup=False)
    assert all(not p.exists() for p in ours)
    assert all(p.exists() for p in not_ours)
    assert fresh.exists()  # not stale by age: left to its writer
    # A caller holding the bundle's lock knows every leftover is stale.
    assert remove_stale_temp_files(path, all_stale=True) == [fresh]


def test_failed_write_leaves_no_temp_and_keeps_mode(tmp_path):
    path = tmp_path / "f.txt"
    atomic_write_text(path, "one", keep_backup=False)
    os.chmod(path, 0o640)

    def boom(handle):
        handle.write(b"partial")
        raise RuntimeError("writer failed")

    with pytest.raises(RuntimeError):
        atomic.atomic_write_stream(path, boom)
    assert path.read_text() == "one" and temp_leftovers(tmp_path) == []
    atomic_write_text(path, "two", keep_backup=False)
    assert path.stat().st_mode & 0o777 == 0o640


def test_wordnet_cache_uses_the_shared_writer():
    import inspect

    from mtworkbench.metrics import wordnet_data

    source = inspect.getsource(wordnet_data)
    assert "atomic_write_stream" in source and "mkstemp" not in source and "os.replace" not in source


def test_a_backup_left_as_a_link_of_the_file_leaves_no_temporary_file(tmp_path):
    # A writer killed after making the backup (a hard link of the file) and before replacing
    # the file leaves both names on one file; rename() between two links of one file does
    # nothing, so linking a new backup over it left its temporary name behind.
    path = tmp_path / "f.json"
    atomic_write_text(path, "one")
    os.link(path, tmp_path / "f.json.bak")
    atomic_write_text(path, "two")
    assert path.read_text() == "two"
    assert (tmp_path / "f.json.bak").read_text() == "one"
    assert temp_leftovers(tmp_path) == []


def test_a_refusal_just_before_the_replace_keeps_the_old_file(tmp_path):
    """``before_replace`` runs once the new content is on disk; what it raises leaves the old file."""
    target = tmp_path / "b.mtwb.json"
    target.write_bytes("alt „Ü“ 旧".encode())
    seen = []

    def refuse() -> None:
        seen.append(sorted(p.name for p in tmp_path.iterdir()))  # the temporary file is written by now
        raise RuntimeError("changed meanwhile")

    with pytest.raises(RuntimeError, match="changed meanwhile"):
        atomic_write_bytes(target, "neu 新".encode(), before_replace=refuse)
    assert len(seen[0]) == 2 and any(name.endswith(".tmp") for name in seen[0])
    assert target.read_bytes() == "alt „Ü“ 旧".encode()
    assert not temp_leftovers(tmp_path) and not (tmp_path / "b.mtwb.json.bak").exists()
    atomic_write_bytes(target, "neu 新".encode(), before_replace=lambda: None)
    assert target.read_bytes() == "neu 新".encode()
