"""A score file is data that anyone could have edited: every entry must fit the
project (else it is recomputed), array headers are checked before anything is
allocated, pickles are never loaded, a problem is one short notice and then
repaired, and a copy of a bundle never takes its original's file name."""

from __future__ import annotations

import io
import shutil
import zipfile

import numpy as np
import pytest

from mtworkbench.scoring.store import load_project, store_for, store_path
from tests.scoring.test_store import ALL, computed, make_bundle, run


@pytest.fixture
def bundle(tmp_path):
    return make_bundle(tmp_path)


def _members(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def _write_members(path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)


def _npy(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, array, allow_pickle=True)
    return out.getvalue()


def test_an_entry_one_segment_short_is_recomputed_not_served(bundle, capsys):
    run(load_project(bundle))
    path = store_path(bundle)
    members = _members(path)
    seg = np.load(io.BytesIO(members["seg0.npy"]))
    stats = np.load(io.BytesIO(members["stats0.npy"]))
    members["seg0.npy"] = _npy(seg[:-1])
    members["stats0.npy"] = _npy(stats[:-1])
    _write_members(path, members)
    project = load_project(bundle)
    outcome = run(project)
    assert len(computed(outcome)) == 1  # that entry only
    for item in outcome.items:
        assert len(item.entry.score.segments) == len(project.segment_ids)


def test_a_header_declaring_10_to_the_11_values_allocates_nothing(bundle, capsys):
    run(load_project(bundle))
    path = store_path(bundle)
    members = _members(path)
    data = members["seg0.npy"]
    header_len = int.from_bytes(data[8:10], "little")
    header = data[10:10 + header_len].decode("latin1")
    forged = header.replace(f"({len(np.load(io.BytesIO(data)))},)", "(100000000000,)")
    assert forged != header
    forged = forged.ljust(header_len - 1)[: header_len - 1] + "\n"
    members["seg0.npy"] = data[:10] + forged.encode("latin1") + data[10 + header_len:]
    _write_members(path, members)
    capsys.readouterr()
    outcome = run(load_project(bundle))
    err = capsys.readouterr().err
    assert computed(outcome) == ALL
    assert err.count("\n") == 1 and "declares 100000000000 values" in err and str(path) in err


def test_a_pickle_in_the_file_is_never_loaded_and_noticed_once(bundle, capsys):
    run(load_project(bundle))
    path = store_path(bundle)
    members = _members(path)
    members["seg0.npy"] = _npy(np.array([{"x": 1}] * 12, dtype=object))
    _write_members(path, members)
    capsys.readouterr()
    outcome = run(load_project(bundle))
    err = capsys.readouterr().err
    assert computed(outcome) == ALL
    assert err.count("\n") == 1 and "Python objects" in err
    assert "pickled data" not in err and "unsafe" not in err
    again = run(load_project(bundle))  # repaired by the recomputation: quiet now
    assert computed(again) == set() and capsys.readouterr().err == ""


def test_a_corrupt_original_beside_a_copy_is_noticed_once_not_on_every_run(bundle, capsys):
    run(load_project(bundle))
    store_path(bundle).write_bytes(b"PK\x03\x04 not really a zip")
    copy = bundle.with_name("copy.mtwb.json")
    shutil.copyfile(bundle, copy)  # names p.mtwb.scores.npz
    capsys.readouterr()
    run(load_project(copy))
    first = capsys.readouterr().err
    assert first.count("corrupt score cache") == 1
    run(load_project(copy))
    assert capsys.readouterr().err == ""
    assert store_path(copy).exists()


def test_a_copy_scored_first_never_takes_the_originals_name(tmp_path):
    original = make_bundle(tmp_path)  # never scored: names p.mtwb.scores.npz, which is not there
    copy = original.with_name("copy.mtwb.json")
    shutil.copyfile(original, copy)
    assert not store_path(original).exists()
    run(load_project(copy))
    assert not store_path(original).exists()  # the original's name stays free
    assert store_for(load_project(copy)).path == store_path(copy)
    assert computed(run(load_project(original))) == ALL
    assert store_path(original).exists()
    assert computed(run(load_project(original))) == set()  # its own file, kept
    assert computed(run(load_project(copy))) == set()
