"""Commands that hold two bundles' locks take them in one global order, and the lock
timeout from the environment is checked before it reaches the OS."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mtworkbench.cli import main
from mtworkbench.core.errors import DataError
from mtworkbench.io.bundle import locking
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

from .helpers import cli, env, project


def _jsonl(path, annotator_text):
    path.write_text('{"segment": "s1", "text": "ref s1 yyyyyyyyyyyyyyyyyyyy", '
                    '"entities": [{"start": 0, "end": 3, "type": "PERSON"}]}\n', encoding="utf-8")
    return path


@pytest.fixture
def pair(tmp_path):
    a, b = tmp_path / "a.mtwb.json", tmp_path / "zz" / "b.mtwb.json"
    b.parent.mkdir()
    save_bundle(project(name="a"), a)
    save_bundle(project(name="b"), b)
    return a, b


def test_crossed_imports_take_the_locks_in_the_same_order(pair, tmp_path, monkeypatch, capsys):
    a, b = pair
    taken: list[list[str]] = []
    real = locking.bundle_lock

    def recording(bundle, timeout=None):
        taken[-1].append(str(locking.lock_path(bundle)))
        return real(bundle, timeout)

    monkeypatch.setattr(locking, "bundle_lock", recording)
    entities = _jsonl(tmp_path / "e.jsonl", "x")
    for source, target in ((a, b), (b, a)):
        taken.append([])
        assert main(["entities", "import", str(source), str(entities), "--reference", "r1", "--annotator",
                     f"from-{source.stem}", "-o", str(target)]) == 0, capsys.readouterr().err
    # The write takes its bundle's lock again while holding both (the lock is re-entrant):
    # the order that matters is the order in which each lock is first taken.
    first = [list(dict.fromkeys(locks)) for locks in taken]
    assert first[0] == first[1] == sorted(first[0]) and len(first[0]) == 2


def test_crossed_imports_at_once_both_finish(pair, tmp_path):
    a, b = pair
    entities = _jsonl(tmp_path / "e.jsonl", "x")
    e = env()
    e["MTWB_LOCK_TIMEOUT"] = "20"
    for _ in range(4):
        procs = [subprocess.Popen([sys.executable, "-m", "mtworkbench", "entities", "import", str(src), str(entities),
                                   "--reference", "r1", "--annotator", f"from-{src.stem}", "--replace", "-o", str(dst)],
                                  env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for src, dst in ((a, b), (b, a))]
        for p in procs:
            _, err = p.communicate(timeout=120)
            assert p.returncode == 0, err
    assert load_bundle(a).spans and load_bundle(b).spans


def test_the_same_file_under_two_names_is_locked_once(pair, tmp_path, capsys):
    a, _ = pair
    link = tmp_path / "same.mtwb.json"
    link.symlink_to(a)
    entities = _jsonl(tmp_path / "e.jsonl", "x")
    assert main(["entities", "import", str(a), str(entities), "--reference", "r1", "--annotator", "x",
                 "-o", str(link)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("value", ["nan", "1e999", "-inf", "-1", "soon", "inf"])
def test_a_bad_lock_timeout_is_a_message_not_a_traceback(pair, tmp_path, value, monkeypatch):
    a, _ = pair
    csv = tmp_path / "j.csv"
    csv.write_text("judge,system,segment,reference,adequacy,fluency,seconds,comment\nx,sys1,s2,r1,3,4,1,\n",
                   encoding="utf-8")
    e = env()
    e["MTWB_LOCK_TIMEOUT"] = value
    result = subprocess.run([sys.executable, "-m", "mtworkbench", "judgments", "import", str(a), str(csv)],
                            env=e, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "MTWB_LOCK_TIMEOUT" in result.stderr and "number of seconds" in result.stderr
    monkeypatch.setenv("MTWB_LOCK_TIMEOUT", value)
    with pytest.raises(DataError, match="MTWB_LOCK_TIMEOUT"):
        with locking.bundle_lock(a):
            pass


def test_good_lock_timeouts_still_work(pair, monkeypatch):
    a, _ = pair
    for value in ("0", "2.5", " 7 ", ""):
        monkeypatch.setenv("MTWB_LOCK_TIMEOUT", value)
        with locking.bundle_lock(a):
            pass
    assert cli("validate", str(a)).returncode == 0
