"""Plain export: unique file names, renamed ids reported, nothing left behind on failure."""

from __future__ import annotations

import pytest

from mtworkbench.cli import main
from mtworkbench.core.errors import DataError
from mtworkbench.core.model import System
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.io.corpora import plaintext
from mtworkbench.io.corpora.corpus import export_corpus

from .helpers import project


def _with_systems(ids):
    p = project(n_systems=0)
    for k, sys_id in enumerate(ids):
        p.add_system(System(sys_id, "machine", {s.id: f"{sys_id} says {k} {s.id}" for s in p.segments}))
    return p


def test_systems_whose_names_collide_get_distinct_files(tmp_path):
    ids = ["a/b", "a_b", "a b", "A_B", "../x", "x" * 300]
    p = _with_systems(ids)
    renamed: dict[str, str] = {}
    written = export_corpus(p, "plain", tmp_path / "out", renamed=renamed)
    names = [w.name for w in written]
    assert len(set(n.lower() for n in names)) == len(names)  # unique, even on a case-insensitive disk
    assert all(w.parent == tmp_path / "out" for w in written)  # "../x" stays inside the folder
    for sys_id, k in zip(ids, range(len(ids))):
        path = written[2 + k]  # source, ref-r1, then the systems in order
        assert plaintext.read_lines(path)[0] == f"{sys_id} says {k} s1"
    # First come, first served: "a/b" takes sys-a_b, so "a_b" is numbered (and reported).
    assert renamed["a/b"] == "sys-a_b.txt" and renamed["a_b"] == "sys-a_b-2.txt"
    assert set(renamed) == {"a/b", "a_b", "a b", "A_B", "../x", "x" * 300}
    assert all(len(n.encode()) <= 255 for n in names)


def test_cli_says_which_names_changed(tmp_path, capsys):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(_with_systems(["a/b", "a_b"]), bundle)
    assert main(["export", str(bundle), "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "'a/b' written as sys-a_b.txt" in out and "'a_b' written as sys-a_b-2.txt" in out
    assert len(list((tmp_path / "out").iterdir())) == 4


def test_a_refused_export_leaves_no_files(tmp_path):
    p = _with_systems(["good", "bad"])
    p.system("bad").texts["s2"] = "two\nlines"
    out = tmp_path / "new-folder"
    with pytest.raises(DataError, match="line break"):
        export_corpus(p, "plain", out)
    assert not out.exists()
    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "keep.txt").write_text("mine")
    p.system("bad").texts["s2"] = "NUL \x00 inside"  # what none of the formats can hold
    for fmt in ("plain", "sgml", "tsv", "wmt-xml"):
        with pytest.raises(DataError):
            export_corpus(p, fmt, existing)
    assert sorted(x.name for x in existing.iterdir()) == ["keep.txt"]


def test_a_failing_write_midway_removes_what_was_written(tmp_path, monkeypatch):
    p = _with_systems(["one", "two", "three"])
    calls = []
    real = plaintext.write_lines

    def fail_third(path, lines):
        calls.append(path)
        if len(calls) == 4:
            raise OSError(28, "No space left on device", str(path))
        real(path, lines)

    monkeypatch.setattr(plaintext, "write_lines", fail_third)
    out = tmp_path / "out"
    out.mkdir()
    (out / "source.txt").write_text("an older export\n")
    with pytest.raises(OSError):
        export_corpus(p, "plain", out)
    assert sorted(x.name for x in out.iterdir()) == ["source.txt"]  # no new file moved in
    assert (out / "source.txt").read_text() == "an older export\n"  # the older export is untouched
    assert sorted(x.name for x in tmp_path.iterdir()) == ["out"]  # no staging folder left


def test_single_file_exports_create_no_folder_when_refused(tmp_path):
    p = _with_systems(["s"])
    p.system("s").texts["s1"] = "NUL \x00"
    for fmt, name in (("tsv", "c.tsv"), ("wmt-xml", "c.xml")):
        target = tmp_path / f"new-{fmt}" / name
        with pytest.raises(DataError):
            export_corpus(p, fmt, target)
        assert not target.parent.exists()
