"""No lost update: bundle writers lock from read to write; a saver can check the file is unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

from mtworkbench.core.errors import BundleChangedOnDisk, BundleLocked, DataError
from mtworkbench.io.bundle import locking
from mtworkbench.io.bundle.bundle import (
    bundle_transaction,
    content_hash,
    disk_hash,
    load_bundle,
    read_bundle,
    save_bundle,
)
from mtworkbench.io.bundle.locking import bundle_lock, read_holder

from .helpers import cli, env, project, temp_leftovers

WRITERS = 8
ROUNDS = 5


def _judgments_csv(path, judge: str, n_segments: int) -> None:
    rows = ["judge,system,segment,reference,adequacy,fluency,seconds,comment"]
    rows += [f"{judge},sys1,s{i},r1,{1 + i % 5},,1.5,by {judge}" for i in range(1, n_segments + 1)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


# A writer process as light as possible (the CLI's `judgments import` body), so 40 of them stay quick.
_WRITER = """
import sys
from mtworkbench.io.bundle.bundle import bundle_transaction
from mtworkbench.io.judgments.judgments import import_judgments
with bundle_transaction(sys.argv[1]) as project:
    plan = import_judgments(project, sys.argv[2])
print(len(plan.judgments))
"""


def _run_writers(bundle, files, command) -> None:
    procs = [subprocess.Popen(command(f), env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for f in files]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err


def _assert_all_present(bundle, judges, n_segments) -> None:
    final = load_bundle(bundle)
    for judge in judges:
        mine = [j for j in final.judgments if j.judge == judge]
        assert len(mine) == n_segments, f"{judge} lost: {len(mine)} of {n_segments} judgments"


@pytest.mark.slow
def test_concurrent_writers_lose_no_update(tmp_path):
    """8 writer processes at once into one bundle, 5 rounds: every judgment of every writer arrives."""
    n_segments = 40
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(n_segments=n_segments, n_systems=2, text_len=2000), bundle)
    files = []
    for w in range(WRITERS * ROUNDS):
        f = tmp_path / f"w{w}.csv"
        _judgments_csv(f, f"judge{w}", n_segments)
        files.append(f)
    for r in range(ROUNDS):
        _run_writers(bundle, files[r * WRITERS:(r + 1) * WRITERS],
                     lambda f: [sys.executable, "-c", _WRITER, str(bundle), str(f)])
    _assert_all_present(bundle, [f"judge{w}" for w in range(WRITERS * ROUNDS)], n_segments)
    assert len(load_bundle(bundle).judgments) == 1 + WRITERS * ROUNDS * n_segments
    assert temp_leftovers(tmp_path) == []
    assert load_bundle(tmp_path / "b.mtwb.json.bak").judgments  # the backup is a whole bundle


@pytest.mark.slow
def test_concurrent_cli_imports_lose_no_update(tmp_path):
    """The command itself: 4 `judgments import` at once, each reports and keeps its judgments."""
    n_segments = 10
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(n_segments=n_segments), bundle)
    files = []
    for w in range(4):
        f = tmp_path / f"w{w}.csv"
        _judgments_csv(f, f"judge{w}", n_segments)
        files.append(f)
    _run_writers(bundle, files,
                 lambda f: [sys.executable, "-m", "mtworkbench", "judgments", "import", str(bundle), str(f)])
    _assert_all_present(bundle, [f"judge{w}" for w in range(4)], n_segments)


def test_concurrent_threads_through_transactions_lose_no_update(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    errors = []

    def add(judge: str) -> None:
        try:
            with bundle_transaction(bundle) as p:
                p.add_judge(judge)
                time.sleep(0.01)  # widen the read-modify-write window
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=add, args=(f"t{i}",)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert {f"t{i}" for i in range(12)} <= set(load_bundle(bundle).judges)


def test_transaction_writes_only_on_change_and_never_on_error(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    before = bundle.stat().st_mtime_ns, bundle.read_bytes()
    with bundle_transaction(bundle):
        pass
    assert (bundle.stat().st_mtime_ns, bundle.read_bytes()) == before
    with pytest.raises(RuntimeError):
        with bundle_transaction(bundle) as p:
            p.add_judge("half-done")
            raise RuntimeError("stop")
    assert bundle.read_bytes() == before[1]
    with bundle_transaction(bundle) as p:
        p.add_judge("done")
    assert "done" in load_bundle(bundle).judges


def test_second_writer_times_out_naming_the_holder(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\nfrom mtworkbench.io.bundle.locking import bundle_lock\n"
         "with bundle_lock(sys.argv[1]):\n    print('locked', flush=True)\n    time.sleep(60)\n",
         str(bundle)],
        env=env(), stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        info = read_holder(bundle)
        assert info is not None and info.pid == holder.pid and info.host and info.user and info.since
        with pytest.raises(BundleLocked) as caught:
            with bundle_transaction(bundle, timeout=0.5):
                pass
        with pytest.raises(BundleLocked):
            save_bundle(project(), bundle, timeout=0.2)
        message = str(caught.value)
        assert f"pid {holder.pid}" in message and info.host in message and "b.mtwb.json" in message
        # The CLI: one line, exit 1, nothing written.
        before = bundle.read_bytes()
        other = tmp_path / "j.csv"
        _judgments_csv(other, "late", 3)
        e = env()
        e["MTWB_LOCK_TIMEOUT"] = "0.5"
        result = subprocess.run([sys.executable, "-m", "mtworkbench", "judgments", "import", str(bundle), str(other)],
                                capture_output=True, text=True, env=e, timeout=120)
        assert result.returncode == 1
        assert result.stderr.count("\n") == 1 and f"pid {holder.pid}" in result.stderr
        assert "Traceback" not in result.stderr
        assert bundle.read_bytes() == before
    finally:
        holder.kill()
        holder.wait()
    # The kernel released the killed holder's lock: the next writer goes ahead at once.
    with bundle_transaction(bundle, timeout=5) as p:
        p.add_judge("after")
    assert "after" in load_bundle(bundle).judges


def test_lock_is_reentrant_in_one_process(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    with bundle_lock(bundle, timeout=1):
        with bundle_transaction(bundle, timeout=1) as p:
            p.add_judge("inner")
        save_bundle(load_bundle(bundle), bundle)  # takes the lock again: no deadlock
    assert not locking.info_path(bundle).exists()  # the holder's description goes with the lock


def test_expected_hash_refuses_to_overwrite_a_changed_file(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    loaded = read_bundle(bundle)
    assert loaded.sha256 == content_hash(bundle.read_bytes()) == disk_hash(bundle)
    # Another program adds a judge meanwhile.
    with bundle_transaction(bundle) as p:
        p.add_judge("cli")
    changed = bundle.read_bytes()
    loaded.project.add_judge("app")
    with pytest.raises(BundleChangedOnDisk, match="changed by another program") as caught:
        save_bundle(loaded.project, bundle, expected_hash=loaded.sha256)
    assert isinstance(caught.value, DataError)
    assert caught.value.actual == content_hash(changed) and caught.value.expected == loaded.sha256
    assert bundle.read_bytes() == changed
    # Unchanged on disk: the save goes ahead and returns the next expected hash.
    fresh = read_bundle(bundle)
    fresh.project.add_judge("app")
    new_hash = save_bundle(fresh.project, bundle, expected_hash=fresh.sha256)
    assert new_hash == disk_hash(bundle)
    assert {"cli", "app"} <= set(load_bundle(bundle).judges)
    # A deleted file is a change too.
    bundle.unlink()
    with pytest.raises(BundleChangedOnDisk, match="deleted"):
        save_bundle(fresh.project, bundle, expected_hash=new_hash)


def test_holder_info_is_json_with_who_and_when(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    with bundle_lock(bundle):
        raw = json.loads(locking.info_path(bundle).read_text(encoding="utf-8"))
        assert set(raw) >= {"pid", "user", "host", "since", "program"}


def test_cli_import_scores_and_train_keep_concurrent_judges(tmp_path):
    """import-scores goes through the transaction too: its judge and a concurrent one both stay."""
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(n_segments=3), bundle)
    scores = tmp_path / "s.txt"
    scores.write_text("0.5\n-1\n0.25\n", encoding="utf-8")
    result = cli("judgments", "import-scores", str(bundle), "--judge", "da", "--system", "sys0",
                 "--scores", str(scores), "--scale", "da-z")
    assert result.returncode == 0, result.stderr
    assert sum(1 for j in load_bundle(bundle).judgments if j.judge == "da") == 3


def test_open_marker_flags_another_instance(tmp_path):
    from mtworkbench.io.bundle.locking import mark_open, open_elsewhere, open_marker_path, unmark_open

    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    mark_open(bundle)
    assert open_elsewhere(bundle) is None  # this process's own marker
    other = subprocess.run(
        [sys.executable, "-c",
         "import sys, json\nfrom mtworkbench.io.bundle.locking import open_elsewhere\n"
         "h = open_elsewhere(sys.argv[1])\nprint(json.dumps(None if h is None else [h.pid, h.user, h.host]))",
         str(bundle)], env=env(), capture_output=True, text=True, timeout=120)
    pid, user, host = json.loads(other.stdout)
    assert pid == __import__("os").getpid() and user and host
    unmark_open(bundle)
    assert not open_marker_path(bundle).exists()
    # A marker of a process that died (a crash) is not "open elsewhere".
    dead = subprocess.run([sys.executable, "-c", "import sys\nfrom mtworkbench.io.bundle.locking import mark_open\n"
                           "mark_open(sys.argv[1])", str(bundle)], env=env(), timeout=120)
    assert dead.returncode == 0 and open_marker_path(bundle).exists()
    assert open_elsewhere(bundle) is None


def test_a_symlinked_bundle_shares_the_lock_and_stays_a_link(tmp_path):
    real = tmp_path / "real.mtwb.json"
    save_bundle(project(), real)
    link = tmp_path / "link.mtwb.json"
    link.symlink_to(real)
    assert locking.lock_path(link) == locking.lock_path(real)
    with bundle_transaction(link) as p:
        p.add_judge("via-link")
    assert link.is_symlink() and "via-link" in load_bundle(real).judges


def test_a_changed_file_is_refused_after_the_new_one_is_written_aside_and_nothing_is_left(tmp_path):
    """The old file is hashed while the new bytes are written to a temporary file: a change
    found then removes that file and keeps the changed one and its backup as they were."""
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    loaded = read_bundle(bundle)
    with bundle_transaction(bundle) as p:
        p.add_judge("другой")
    changed = bundle.read_bytes()
    backup = (tmp_path / "b.mtwb.json.bak").read_bytes()
    loaded.project.add_judge("アプリ")
    with pytest.raises(BundleChangedOnDisk):
        save_bundle(loaded.project, bundle, expected_hash=loaded.sha256)
    assert bundle.read_bytes() == changed and (tmp_path / "b.mtwb.json.bak").read_bytes() == backup
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_failed_write_of_a_changed_file_reports_the_change_first(tmp_path, monkeypatch):
    """A full disk while the file was changed by another program: the saver hears of the change."""
    import errno

    from mtworkbench.io.bundle import streamed_write as bundle_module  # where the bundle's atomic write is made

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(target))

    target = tmp_path / "b.mtwb.json"
    save_bundle(project(), target)
    loaded = read_bundle(target)
    monkeypatch.setattr(bundle_module, "atomic_write_stream", full)
    with pytest.raises(OSError, match="No space left"):  # unchanged on disk: the write's own error
        save_bundle(loaded.project, target, expected_hash=loaded.sha256)
    monkeypatch.undo()
    with bundle_transaction(target) as p:
        p.add_judge("Zweiter")
    monkeypatch.setattr(bundle_module, "atomic_write_stream", full)
    with pytest.raises(BundleChangedOnDisk):
        save_bundle(loaded.project, target, expected_hash=loaded.sha256)


def test_the_returned_hash_is_the_written_files(tmp_path):
    from mtworkbench.io.bundle.bundle import write_bundle

    target = tmp_path / "b.mtwb.json"
    new_hash, data = write_bundle(project(), target)
    assert data == target.read_bytes() and new_hash == content_hash(data) == disk_hash(target)
