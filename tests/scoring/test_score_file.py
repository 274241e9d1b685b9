"""The bundle names its score file (``score_file``): validated as a plain
``*.scores.npz`` name beside the bundle, written on save, honoured on load; a copy
of a bundle reads the original's scores but writes only its own file."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from mtworkbench.cli import main
from mtworkbench.core.errors import BundleError
from mtworkbench.io.bundle.bundle import bundle_transaction, dumps, load_bundle, loads, save_bundle
from mtworkbench.scoring.store import attach, load_project, store_for, store_path
from tests.scoring.test_store import ALL, SPECS, computed, make_bundle, run


@pytest.fixture
def bundle(tmp_path):
    return make_bundle(tmp_path)

HOSTILE = [
    "/tmp/evil.scores.npz",
    "../evil.scores.npz",
    "sub/evil.scores.npz",
    "..\\evil.scores.npz",
    "C:evil.scores.npz",
    "evil.scores.npz:stream",
    "p.mtwb.json",
    ".scores.npz",
    "",
    "NUL.scores.npz",
    "com1.x.scores.npz",
    "a\nb.scores.npz",
    "x" * 300 + ".scores.npz",
]


def bundle_dict(path):
    return json.loads(path.read_text(encoding="utf-8"))


def write_dict(path, data):
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_a_saved_bundle_names_its_default_score_file(bundle):
    assert bundle_dict(bundle)["score_file"] == "p.mtwb.scores.npz"
    assert load_bundle(bundle).score_file == "p.mtwb.scores.npz"
    run(load_project(bundle))
    assert store_path(bundle).exists()


def test_the_named_file_is_the_one_used(bundle):
    data = bundle_dict(bundle)
    data["score_file"] = "kept-elsewhere.scores.npz"
    write_dict(bundle, data)
    assert computed(run(load_project(bundle))) == ALL
    assert (bundle.parent / "kept-elsewhere.scores.npz").exists()
    assert not store_path(bundle).exists()
    assert computed(run(load_project(bundle))) == set()
    save_bundle(load_project(bundle), bundle)
    assert bundle_dict(bundle)["score_file"] == "kept-elsewhere.scores.npz"  # kept on save


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_score_file_name_is_refused_naming_the_field(bundle, name):
    data = bundle_dict(bundle)
    data["score_file"] = name
    with pytest.raises(BundleError) as info:
        loads(json.dumps(data), file=str(bundle))
    message = str(info.value)
    assert "$.score_file" in message and str(bundle) in message and "\n" not in message


def test_a_score_file_that_is_not_a_string_is_refused(bundle):
    data = bundle_dict(bundle)
    data["score_file"] = ["../x.scores.npz"]
    with pytest.raises(BundleError, match=r"\$\.score_file.*expected a string|expected a string.*\$\.score_file"):
        loads(json.dumps(data), file=str(bundle))


def test_the_cli_refuses_a_hostile_bundle_in_one_line_and_writes_nothing(bundle, tmp_path, capsys):
    data = bundle_dict(bundle)
    data["score_file"] = "../outside.scores.npz"
    inner = tmp_path / "inner"
    inner.mkdir()
    hostile = inner / "h.mtwb.json"
    write_dict(hostile, data)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    assert main(["score", str(hostile), "--metric", "bleu"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "$.score_file" in err and str(hostile) in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_an_old_bundle_without_the_field_works_and_gets_it_on_save(bundle):
    data = bundle_dict(bundle)
    del data["score_file"]
    write_dict(bundle, data)
    project = load_project(bundle)
    assert computed(run(project)) == ALL
    assert store_path(bundle).exists()  # the derived name, as before
    assert "score_file" not in bundle_dict(bundle)  # scoring never rewrites the bundle
    save_bundle(project, bundle)
    assert bundle_dict(bundle)["score_file"] == "p.mtwb.scores.npz"
    assert computed(run(load_project(bundle))) == set()


def test_a_transaction_that_changes_nothing_leaves_an_old_bundle_alone(bundle):
    data = bundle_dict(bundle)
    del data["score_file"]
    old = loads(json.dumps(data))
    assert old.score_file == ""
    bundle.write_text(dumps(old), encoding="utf-8")  # as an older mtworkbench saved it
    before = bundle.read_bytes()
    with bundle_transaction(bundle):
        pass
    assert bundle.read_bytes() == before
    with bundle_transaction(bundle) as project:
        project.name = "renamed"
    assert bundle_dict(bundle)["score_file"] == "p.mtwb.scores.npz"


def test_a_copied_bundle_never_writes_the_originals_file(bundle):
    run(load_project(bundle))
    original_file = store_path(bundle)
    original_bytes = original_file.read_bytes()
    copy = bundle.with_name("copy.mtwb.json")
    shutil.copyfile(bundle, copy)  # names p.mtwb.scores.npz
    project = load_project(copy)
    project.set_system_text("sys1", project.segment_ids[2], "a different output")
    outcome = run(project)
    # the copy starts from the original's scores: only the edited system is computed
    assert computed(outcome) == {("sys1", m) for m in SPECS}
    assert original_file.read_bytes() == original_bytes
    assert store_for(project).path == store_path(copy)
    assert project.score_file == "copy.mtwb.scores.npz"  # what its next save names
    # each bundle keeps reusing its own file
    assert computed(run(load_project(bundle))) == set()
    edited = load_project(copy)
    edited.set_system_text("sys1", edited.segment_ids[2], "a different output")
    assert computed(run(edited)) == set()
    assert original_file.read_bytes() == original_bytes
    save_bundle(edited, copy)
    assert bundle_dict(copy)["score_file"] == "copy.mtwb.scores.npz"


def test_a_renamed_bundle_reads_the_old_file_and_writes_its_own(bundle):
    run(load_project(bundle))
    old_file = store_path(bundle)
    old_bytes = old_file.read_bytes()
    renamed = bundle.with_name("renamed.mtwb.json")
    os.rename(bundle, renamed)
    assert computed(run(load_project(renamed))) == set()
    assert old_file.read_bytes() == old_bytes and store_path(renamed).exists()


def test_a_folder_copied_whole_keeps_using_its_scores(bundle, tmp_path):
    run(load_project(bundle))
    moved = tmp_path / "elsewhere"
    shutil.copytree(bundle.parent, moved, ignore=shutil.ignore_patterns("elsewhere"))
    assert computed(run(load_project(moved / bundle.name))) == set()


def test_save_as_names_a_new_file_and_carries_the_scores(bundle):
    project = load_project(bundle)
    run(project)
    target = bundle.with_name("saved-as.mtwb.json")
    attach(project, target)  # what the app does after saving to a new path
    assert project.score_file == "saved-as.mtwb.scores.npz"
    save_bundle(project, target)
    assert bundle_dict(target)["score_file"] == "saved-as.mtwb.scores.npz"
    assert store_path(target).exists()
    old_bytes = store_path(bundle).read_bytes()
    again = load_project(target)
    assert computed(run(again)) == set()
    again.set_system_text("sys0", again.segment_ids[0], "changed after save as")
    run(again)
    assert store_path(bundle).read_bytes() == old_bytes


def test_a_link_at_the_named_place_is_neither_read_nor_written(bundle, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))
    run(load_project(bundle))
    secret = tmp_path / "secret.scores.npz"
    shutil.move(store_path(bundle), secret)
    secret_bytes = secret.read_bytes()
    store_path(bundle).symlink_to(secret)
    capsys.readouterr()
    assert computed(run(load_project(bundle))) == ALL  # the linked file was not trusted
    err = capsys.readouterr().err
    assert str(store_path(bundle)) in err and "symbolic link" in err
    assert secret.read_bytes() == secret_bytes and store_path(bundle).is_symlink()
    assert list((tmp_path / "cache" / "scores").glob("p.mtwb.json.*.scores.npz"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_at_the_named_place_does_not_hang(bundle, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))
    os.mkfifo(store_path(bundle))
    assert computed(run(load_project(bundle))) == ALL
    assert "not a regular file" in capsys.readouterr().err


def test_the_shipped_demo_never_writes_into_the_program_folder(tmp_path, monkeypatch, capsys):
    from mtworkbench.resources import RESOURCES, demo_project_path

    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))
    before = sorted(str(p) for p in RESOURCES.rglob("*"))
    demo = demo_project_path()
    assert main(["score", str(demo), "--metric", "bleu", "--jobs", "1"]) == 0
    assert sorted(str(p) for p in RESOURCES.rglob("*")) == before
    assert list((tmp_path / "cache" / "scores").glob("*.scores.npz"))


def test_a_copy_never_takes_over_an_unowned_file_of_another_name(bundle):
    """A score file from before files named their bundle, named by a copy: read, not written."""
    import numpy as np

    run(load_project(bundle))
    path = store_path(bundle)
    with np.load(path) as npz:
        arrays = dict(npz)
    header = json.loads(bytes(arrays["header"]).decode())
    del header["bundle"]
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)
    legacy = path.read_bytes()
    assert computed(run(load_project(bundle))) == set()  # its own bundle still uses it
    copy = bundle.with_name("copy.mtwb.json")
    shutil.copyfile(bundle, copy)
    project = load_project(copy)
    project.set_system_text("sys0", project.segment_ids[0], "edited in the copy")
    assert computed(run(project)) == {("sys0", m) for m in SPECS}
    assert path.read_bytes() == legacy and store_path(copy).exists()


def test_a_project_saved_under_another_name_names_its_own_file(bundle, tmp_path):
    """What `merge -o` and `entities ... -o` do: read one bundle, write another."""
    data = bundle_dict(bundle)
    data["score_file"] = "custom.scores.npz"
    write_dict(bundle, data)
    project = load_bundle(bundle)
    other = bundle.with_name("other.mtwb.json")
    save_bundle(project, other)
    assert bundle_dict(other)["score_file"] == "other.mtwb.scores.npz"
    save_bundle(load_bundle(other), other)  # and keeps it
    assert bundle_dict(other)["score_file"] == "other.mtwb.scores.npz"
    save_bundle(load_bundle(bundle), bundle)  # saved in place, a custom name stays
    assert bundle_dict(bundle)["score_file"] == "custom.scores.npz"


def test_the_score_file_is_readable_like_any_saved_file(bundle):
    """Created with 0o666 less the umask (a team's shared folder), not a temp file's 0o600."""
    old = os.umask(0o022)
    try:
        run(load_project(bundle))
    finally:
        os.umask(old)
    assert store_path(bundle).stat().st_mode & 0o777 == 0o644
    assert not list(bundle.parent.glob("*.tmp"))  # no temp file left behind
