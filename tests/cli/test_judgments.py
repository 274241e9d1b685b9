"""``mtworkbench judgments import|export|import-scores``."""

from __future__ import annotations

import csv
import json

import pytest

from mtworkbench.cli import main
from mtworkbench.io.corpora.plaintext import import_plain
from mtworkbench.io.judgments.judgments import COLUMNS


@pytest.fixture
def bundle(tmp_path):
    from mtworkbench.io.bundle.bundle import save_bundle

    for name, lines in {"src": ["a", "b", "c"], "ref": ["A", "B", "C"], "hyp": ["x", "y", "z"]}.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    project = import_plain(tmp_path / "src.txt", [tmp_path / "ref.txt"], [("sys1", tmp_path / "hyp.txt")])
    path = tmp_path / "p.mtwb.json"
    save_bundle(project, path)
    return path


def load(path):
    from mtworkbench.io.bundle.bundle import load_bundle

    return load_bundle(path)


def test_import_then_export(bundle, tmp_path, capsys):
    src = tmp_path / "in.csv"
    src.write_text(
        ",".join(COLUMNS) + "\nann,sys1,1,ref1,5,4,2.5,good\nbob,sys1,3,,1,2,,\"x, y\"\n", encoding="utf-8"
    )
    assert main(["judgments", "import", str(bundle), str(src)]) == 0
    assert "imported 2 judgments; new judges: ann, bob" in capsys.readouterr().out
    project = load(bundle)
    assert project.judges == ["ann", "bob"]
    got = sorted((j.judge, j.segment, j.reference, j.adequacy, j.fluency, j.seconds, j.comment) for j in project.judgments)
    assert got == [("ann", "1", "ref1", 5, 4, 2.5, "good"), ("bob", "3", None, 1, 2, 0.0, "x, y")]

    out = tmp_path / "out.tsv"
    assert main(["judgments", "export", str(bundle), "-o", str(out)]) == 0
    rows = list(csv.reader(out.open(encoding="utf-8", newline=""), delimiter="\t"))
    assert rows[0] == list(COLUMNS)
    assert rows[1:] == [["ann", "sys1", "1", "ref1", "5", "4", "2.5", "good"], ["bob", "sys1", "3", "", "1", "2", "0", "x, y"]]


def test_import_error_leaves_the_bundle_alone(bundle, tmp_path, capsys):
    before = bundle.read_bytes()
    src = tmp_path / "in.csv"
    src.write_text(",".join(COLUMNS) + "\nann,sys1,1,ref1,5,4,2.5,good\nann,sys1,4,ref1,5,4,1,\n", encoding="utf-8")
    assert main(["judgments", "import", str(bundle), str(src)]) == 1
    err = capsys.readouterr().err
    assert "in.csv:3, column 'segment': no segment '4'" in err
    assert bundle.read_bytes() == before


def test_import_scores_lines_and_agreement(bundle, tmp_path, capsys):
    (tmp_path / "da.txt").write_text("0.5\n-1.5\n2\n", encoding="utf-8")
    (tmp_path / "mqm.tsv").write_text("system\tseg_id\tmqm\nsys1\t1\t-0.000000\nsys1\t2\t-5.000000\nsys1\t3\t\n", encoding="utf-8")
    assert main(["judgments", "import-scores", str(bundle), "--judge", "DA", "--system", "sys1",
                 "--scores", str(tmp_path / "da.txt"), "--scale", "da-z"]) == 0
    assert main(["judgments", "import-scores", str(bundle), "--judge", "MQM", "--system", "sys1",
                 "--scores", str(tmp_path / "mqm.tsv"), "--format", "mqm-tsv"]) == 0
    project = load(bundle)
    scores = sorted((j.judge, j.segment, j.score, j.scale) for j in project.judgments)
    assert scores == [("DA", "1", 0.5, "da-z"), ("DA", "2", -1.5, "da-z"), ("DA", "3", 2.0, "da-z"),
                      ("MQM", "1", 0.0, "mqm"), ("MQM", "2", -5.0, "mqm")]
    capsys.readouterr()
    assert main(["agreement", str(bundle), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [pair] = data["pairs"]
    assert pair["judges"] == ["DA", "MQM"] and pair["n"] == 2
    assert pair["score"]["spearman"] == pytest.approx(1.0)  # both rank segment 1 above 2
    assert pair["adequacy"]["spearman"] is None


def test_import_scores_usage_and_data_errors(bundle, tmp_path, capsys):
    (tmp_path / "da.txt").write_text("0.5\n-1.5\n", encoding="utf-8")
    base = ["judgments", "import-scores", str(bundle), "--judge", "DA", "--system", "sys1", "--scores", str(tmp_path / "da.txt")]
    assert main(base) == 2  # lines need --scale
    assert main(base + ["--scale", "da-z"]) == 1
    assert "da.txt: 2 lines, but the project has 3 segments" in capsys.readouterr().err
    assert main(["judgments"]) == 2


def test_import_scores_real_mqm(shared_dir, tmp_path, capsys):
    from mtworkbench.io.bundle.bundle import save_bundle

    data = shared_dir / "data" / "wmt21-en-de-mqm"
    project = import_plain(data / "source.en", [data / "ref-A.de"], [("Nemo", data / "systems" / "NVIDIA-NeMo.de")])
    path = tmp_path / "w.mtwb.json"
    save_bundle(project, path)
    assert main(["judgments", "import-scores", str(path), "--judge", "MQM", "--system", "Nemo",
                 "--scores", str(data / "mqm.tsv"), "--format", "mqm-tsv", "--file-system", "NVIDIA-NeMo"]) == 0
    scores = [j.score for j in load(path).judgments]
    assert len(scores) == 527
    assert round(-sum(scores) / len(scores), 2) == 1.34  # system_mqm_readme.tsv: Nemo 1.34


def test_export_to_stdout(bundle, tmp_path, capsys):
    src = tmp_path / "in.csv"
    src.write_text(",".join(COLUMNS) + "\nbob,sys1,2,,3,3,1,\nann,sys1,3,ref1,5,4,2,\nann,sys1,1,ref1,2,2,2,\n", encoding="utf-8")
    assert main(["judgments", "import", str(bundle), str(src)]) == 0
    capsys.readouterr()
    assert main(["judgments", "export", str(bundle), "-o", "-"]) == 0
    rows = list(csv.reader(capsys.readouterr().out.splitlines()))
    assert rows[0] == list(COLUMNS)
    # by judge, then segment order
    assert [(r[0], r[2]) for r in rows[1:]] == [("ann", "1"), ("ann", "3"), ("bob", "2")]
