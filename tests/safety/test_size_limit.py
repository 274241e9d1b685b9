"""One size limit for writing and reading: nothing is written that the readers would
refuse. The limit is read at call time from ``core.files.MAX_INPUT_BYTES``; the tests
lower it rather than write half a gigabyte."""

from __future__ import annotations

import pytest

from mtworkbench.cli import main
from mtworkbench.core import files
from mtworkbench.core.errors import DataError
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

from .helpers import project, temp_leftovers

LIMIT = 64 * 1024


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setattr(files, "MAX_INPUT_BYTES", LIMIT)


def test_a_bundle_over_the_limit_is_refused_before_writing_and_the_old_one_stays(tmp_path, small_limit):
    path = tmp_path / "p.mtwb.json"
    save_bundle(project(3), path)
    before = path.read_bytes()
    big = project(200, text_len=400)  # ~200 KiB of Übersetzungen
    with pytest.raises(DataError) as caught:
        save_bundle(big, path)
    message = str(caught.value)
    assert str(path) in message and "cannot be read back" in message and "64 KiB" not in message
    assert "0 MiB" in message or "MiB" in message
    assert path.read_bytes() == before and temp_leftovers(tmp_path) == []
    assert load_bundle(path).segment_ids == ["s1", "s2", "s3"]


def test_what_is_written_at_the_limit_reads_back(tmp_path, small_limit):
    path = tmp_path / "p.mtwb.json"
    p = project(20, text_len=100)
    save_bundle(p, path)
    assert path.stat().st_size <= LIMIT
    assert load_bundle(path).segment_ids == p.segment_ids
    path.write_bytes(b" " * (LIMIT + 1))
    with pytest.raises(DataError, match="larger than"):
        load_bundle(path)


def test_mqm_import_too_large_for_a_bundle_writes_nothing(tmp_path, small_limit, capsys):
    rows = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"]
    for k in range(1, 180):
        rows.append(f"sysA\td\t{k}\t{k}\tr1\tQuelle {k} {'ä' * 60}\tZiel {k} <v>Fehler</v> {'ö' * 60}\t"
                    "Accuracy/Mistranslation\tMajor")
    src = tmp_path / "mqm.tsv"
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert src.stat().st_size < LIMIT  # the input is readable; the bundle it makes is not
    out = tmp_path / "out.mtwb.json"
    code = main(["import", "--format", "mqm", "--source", str(src), "-o", str(out)])
    err = capsys.readouterr().err
    assert code != 0 and "cannot be read back" in err and "Traceback" not in err
    assert not out.exists() and temp_leftovers(tmp_path) == []
