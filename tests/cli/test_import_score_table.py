"""`judgments import-scores` without --system: one table of every system's segment scores,
and a word about the rows it left out."""

from __future__ import annotations

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle


def bundle(tmp_path):
    segs = [Segment("1", "今天天气很好。"), Segment("2", "我们明天去北京。"), Segment("3", "他在看书。")]
    project = Project([Document("d", [Paragraph("p", segs)])], source_language="zh", target_language="en")
    project.add_reference(Reference("refA", texts={"1": "Nice weather today.", "2": "We go to Beijing tomorrow.",
                                                    "3": "He is reading."}))
    for name in ("系统甲", "Online-B"):
        project.add_system(System(name, texts={"1": "Weather good.", "2": "We go Beijing.", "3": "He reads."}))
    path = tmp_path / "p.mtwb.json"
    save_bundle(project, path)
    return path


@pytest.mark.parametrize("sep, suffix", [(",", ".csv"), ("\t", ".tsv")])
def test_one_table_covers_every_system_and_says_what_it_skipped(tmp_path, capsys, sep, suffix):
    path = bundle(tmp_path)
    table = tmp_path / f"scores{suffix}"
    rows = [("system", "seg_id", "mqm"), ("系统甲", "1", "-1"), ("系统甲", "2", "0"), ("系统甲", "3", "None"),
            ("Online-B", "1", "-5"), ("Online-B", "2", "-2.5"), ("Online-B", "3", "-1"),
            ("ref-A", "1", "0"), ("ref-A", "2", "0"), ("ref-A", "3", "-0.1")]
    table.write_text("\n".join(sep.join(r) for r in rows) + "\n", encoding="utf-8")
    assert main(["judgments", "import-scores", str(path), "--judge", "mqm", "--scores", str(table)]) == 0
    out = capsys.readouterr().out
    assert "5 scores of 2 systems" in out
    assert "skipped 3 rows of ref-A: not systems of the project" in out
    project = load_bundle(path)
    got = sorted((j.system, j.segment, j.score, j.scale) for j in project.judgments)
    assert got == [("Online-B", "1", -5.0, "mqm"), ("Online-B", "2", -2.5, "mqm"), ("Online-B", "3", -1.0, "mqm"),
                   ("系统甲", "1", -1.0, "mqm"), ("系统甲", "2", 0.0, "mqm")]


def test_a_table_of_other_scores_needs_its_scale(tmp_path, capsys):
    path = bundle(tmp_path)
    table = tmp_path / "da.csv"
    table.write_text("system,seg_id,z\n系统甲,1,0.5\n", encoding="utf-8")
    assert main(["judgments", "import-scores", str(path), "--judge", "wmt", "--scores", str(table)]) == 2
    assert "--scale" in capsys.readouterr().err
    assert main(["judgments", "import-scores", str(path), "--judge", "wmt", "--scores", str(table),
                 "--scale", "da-z"]) == 0
    assert [(j.system, j.scale) for j in load_bundle(path).judgments] == [("系统甲", "da-z")]
