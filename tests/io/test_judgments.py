"""Judgments CSV/TSV import/export, and segment scores (DA, MQM) as pseudo-judges."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.corpora.plaintext import import_plain
from mtworkbench.io.judgments.judgments import (
    COLUMNS,
    apply_import,
    import_judgments,
    plan_mqm_tsv,
    plan_score_lines,
    read_judgments,
    read_mqm_tsv,
    revert_import,
)
from mtworkbench.io.judgments.judgments_export import export_judgments

HEADER = ",".join(COLUMNS)


def make_project(seg_ids=("s1", "s2", "s3")) -> Project:
    segs = [Segment(sid, f"src {sid}") for sid in seg_ids]
    return Project(
        documents=[Document("d1", [Paragraph("p1", segs)])],
        references=[Reference("r1", texts={s: f"ref {s}" for s in seg_ids}), Reference("r2", texts={s: f"ref2 {s}" for s in seg_ids})],
        systems=[System("A", texts={s: f"a {s}" for s in seg_ids}), System("B", texts={s: f"b {s}" for s in seg_ids})],
    )


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def test_header_is_the_issue_header():
    assert HEADER == "judge,system,segment,reference,adequacy,fluency,seconds,comment"


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_export_then_import_round_trips(tmp_path, suffix):
    project = make_project()
    for judge in ("ann", "bob", "da"):
        project.add_judge(judge)
    originals = [
        Judgment("j1", "ann", "A", "s1", "r1", adequacy=5, fluency=4, seconds=3.5, comment='fine, "really"'),
        Judgment("j2", "ann", "B", "s2", "r2", adequacy=1, fluency=2, seconds=12, comment="two\nlines"),
        Judgment("j3", "bob", "A", "s1", None, fluency=3),
        Judgment("j4", "da", "B", "s3", score=-0.6452849500427988, scale="da-z"),
    ]
    for j in originals:
        project.add_judgment(j)
    path = tmp_path / f"out{suffix}"
    assert export_judgments(project, path) == 4
    first_line = path.read_text(encoding="utf-8").split("\n", 1)[0]
    sep = "\t" if suffix == ".tsv" else ","
    assert first_line.split(sep)[:8] == list(COLUMNS)
    assert first_line.split(sep)[8:] == ["score", "scale"]  # only the optional columns in use

    fresh = make_project()
    plan = import_judgments(fresh, path)
    assert plan.judges == ["ann", "bob", "da"]
    key = lambda j: (j.judge, j.system, j.segment)  # noqa: E731
    strip = lambda j: (j.judge, j.system, j.segment, j.reference, j.adequacy, j.fluency, j.score, j.scale, j.seconds, j.comment)  # noqa: E731
    assert sorted(map(strip, fresh.judgments), key=str) == sorted(map(strip, originals), key=str)
    assert sorted(fresh.judgments, key=key)[0].seconds == 3.5
    revert_import(fresh, plan)
    assert fresh.judgments == [] and fresh.judges == []


def test_export_without_scores_has_exactly_the_eight_columns(tmp_path):
    project = make_project()
    project.add_judge("ann")
    project.add_judgment(Judgment("j1", "ann", "A", "s1", "r1", adequacy=5, fluency=4, seconds=2))
    path = tmp_path / "j.csv"
    export_judgments(project, path)
    rows = list(csv.reader(path.open(encoding="utf-8", newline="")))
    assert rows == [list(COLUMNS), ["ann", "A", "s1", "r1", "5", "4", "2", ""]]


def test_segment_as_line_number_and_tsv_by_header(tmp_path):
    project = make_project(("d1-1", "d1-2", "d1-3"))
    path = write(tmp_path, "j.txt", "\t".join(COLUMNS) + "\nann\tA\t3\tr1\t4\t4\t1.5\t\nann\tB\td1-1\t\t2\t\t\tno ref\n")
    plan = import_judgments(project, path)
    got = sorted((j.system, j.segment, j.reference, j.adequacy, j.fluency, j.seconds) for j in plan.judgments)
    assert got == [("A", "d1-3", "r1", 4, 4, 1.5), ("B", "d1-1", None, 2, None, 0.0)]


@pytest.mark.parametrize(
    "row, message",
    [
        ("ann,A,s1,r1,6,4,1,", r"j\.csv:3, column 'adequacy': expected an integer from 1 to 5, found '6'"),
        ("ann,A,s1,r1,4,x,1,", r"j\.csv:3, column 'fluency'"),
        ("ann,A,s1,r1,4,4,-2,", r"j\.csv:3, column 'seconds': must not be negative"),
        ("ann,A,s1,r1,4,4,soon,", r"j\.csv:3, column 'seconds': expected a number"),
        ("ann,A,s1,r1,4,4,1", r"j\.csv:3: expected 8 fields, found 7"),
        (",A,s1,r1,4,4,1,", r"j\.csv:3, column 'judge': must not be empty"),
        ("ann,A,s1,r1,,,1,", r"j\.csv:3: a judgment needs adequacy, fluency or a score"),
        ("ann,Z,s1,r1,4,4,1,", r"j\.csv:3, column 'system': no system 'Z'"),
        ("ann,A,s9,r1,4,4,1,", r"j\.csv:3, column 'segment': no segment 's9'"),
        ("ann,A,s1,r7,4,4,1,", r"j\.csv:3, column 'reference': no reference 'r7'"),
    ],
)
def test_malformed_rows_are_refused_with_file_line_and_column(tmp_path, row, message):
    project = make_project()
    path = write(tmp_path, "j.csv", f"{HEADER}\nbob,A,s2,r1,3,3,1,ok\n{row}\n")
    with pytest.raises(DataError, match=message):
        import_judgments(project, path)
    assert project.judgments == [] and project.judges == []  # nothing imported


def test_line_numbers_count_multiline_fields(tmp_path):
    path = write(tmp_path, "j.csv", f'{HEADER}\nbob,A,s2,r1,3,3,1,"a\nlong\ncomment"\nann,A,s1,r1,9,4,1,\n')
    with pytest.raises(DataError, match=r"j\.csv:5, column 'adequacy'"):
        read_judgments(path)


@pytest.mark.parametrize(
    "header, message",
    [
        ("judge,system,segment,reference,adequacy,fluency,seconds", r"j\.csv:1: header lacks column 'comment'"),
        (HEADER + ",mood", r"j\.csv:1, column 9: unknown column 'mood'"),
        (HEADER + ",judge", r"j\.csv:1: column 'judge' appears twice"),
    ],
)
def test_bad_headers(tmp_path, header, message):
    path = write(tmp_path, "j.csv", header + "\n")
    with pytest.raises(DataError, match=message):
        read_judgments(path)
    with pytest.raises(DataError, match="empty file"):
        read_judgments(write(tmp_path, "e.csv", ""))


def test_read_without_a_project(tmp_path):
    path = write(tmp_path, "j.csv", f"{HEADER},score,scale\nann,A,7,r1,4,5,2,,,\nmqm,A,7,,,,,,-5.000000,mqm\n")
    [a, m] = read_judgments(path)
    assert (a.judge, a.segment, a.adequacy, a.fluency, a.seconds) == ("ann", "7", 4, 5, 2.0)
    assert (m.score, m.scale, m.adequacy) == (-5.0, "mqm", None)
    bad = write(tmp_path, "k.csv", f"{HEADER},score,scale\nmqm,A,7,,,,,,-5,\n")
    with pytest.raises(DataError, match=r"k\.csv:2, column 'scale': a score needs its scale named"):
        read_judgments(bad)


# --- segment-level scores ------------------------------------------------------------------
def test_score_lines_as_a_pseudo_judge(tmp_path):
    project = make_project()
    path = write(tmp_path, "s.txt", "0.5\n\n-1.25\n")
    plan = plan_score_lines(project, "da", "A", path, "da-z")
    apply_import(project, plan)
    assert project.judges == ["da"]
    got = sorted((j.segment, j.score, j.scale, j.adequacy) for j in project.judgments)
    assert got == [("s1", 0.5, "da-z", None), ("s3", -1.25, "da-z", None)]  # empty line: not rated
    with pytest.raises(DataError, match="already has judgments of system 'A'"):
        plan_score_lines(project, "da", "A", path, "da-z")
    with pytest.raises(DataError, match="no system 'Z' in the project"):
        plan_score_lines(project, "da", "Z", path, "da-z")


def test_score_lines_errors(tmp_path):
    project = make_project()
    with pytest.raises(DataError, match=r"s\.txt: 2 lines, but the project has 3 segments"):
        plan_score_lines(project, "da", "A", write(tmp_path, "s.txt", "1\n2\n"), "da-z")
    with pytest.raises(DataError, match=r"t\.txt:2: expected a number, found 'high'"):
        plan_score_lines(project, "da", "A", write(tmp_path, "t.txt", "1\nhigh\n3\n"), "da-z")
    with pytest.raises(DataError, match=r"u\.txt:3: expected a finite number"):
        plan_score_lines(project, "da", "A", write(tmp_path, "u.txt", "1\n2\ninf\n"), "da-z")
    with pytest.raises(DataError, match=r"adequacy must be an integer from 1 to 5, found 2\.5"):
        plan_score_lines(project, "h", "A", write(tmp_path, "v.txt", "1\n2.5\n3\n"), "adequacy")
    plan = plan_score_lines(project, "h", "A", write(tmp_path, "w.txt", "1\n5\n3\n"), "adequacy")
    assert [(j.adequacy, j.score, j.scale) for j in plan.judgments] == [(1, None, None), (5, None, None), (3, None, None)]


def test_mqm_tsv_errors(tmp_path):
    with pytest.raises(DataError, match=r"m\.tsv:1: expected the header"):
        read_mqm_tsv(write(tmp_path, "m.tsv", "system seg_id mqm\nA\t1\t-1\n"), "A")
    with pytest.raises(DataError, match=r"n\.tsv: no rows for system 'B'; systems in the file: A"):
        read_mqm_tsv(write(tmp_path, "n.tsv", "system\tseg_id\tmqm\nA\t1\t-1\n"), "B")
    with pytest.raises(DataError, match=r"o\.tsv:3, column 'mqm': expected a number"):
        read_mqm_tsv(write(tmp_path, "o.tsv", "system\tseg_id\tmqm\nA\t1\t-1\nA\t2\tbad\n"), "A")


def test_da_scores_of_mlqe(shared_dir):
    data = shared_dir / "data" / "mlqe-et-en"
    project = import_plain(data / "src.et", [data / "ref-1.en", data / "ref-2.en"], [("mt", data / "mt.en")])
    plan = plan_score_lines(project, "DA", "mt", data / "da-z.scores", "da-z")
    apply_import(project, plan)
    assert len(project.judgments) == 1000
    raw = (data / "da-z.scores").read_text(encoding="utf-8").split("\n")[:1000]
    by_segment = {j.segment: j for j in project.judgments}
    for line_no in (1, 2, 500, 1000):
        j = by_segment[str(line_no)]
        assert j.score == float(raw[line_no - 1]) and j.scale == "da-z" and j.adequacy is None
    assert by_segment["1"].score == 0.9213345501671756


def test_mqm_of_wmt21_matches_the_published_system_scores(shared_dir):
    data = shared_dir / "data" / "wmt21-en-de-mqm"
    names = sorted(p.stem for p in (data / "systems").glob("*.de"))
    project = import_plain(
        data / "source.en",
        [data / "ref-A.de", data / "ref-D.de"],
        [(name, data / "systems" / f"{name}.de") for name in names] + [("ref-C", data / "ref-C.de")],
        system_kinds={"ref-C": "human"},
    )
    published = {}
    with (data / "system_mqm_readme.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            published[row["system_in_this_folder"]] = float(row["mqm"])
    for name in names + ["ref-C"]:
        apply_import(project, plan_mqm_tsv(project, "MQM", name, data / "mqm.tsv"))
        scores = [j.score for j in project.judgments if j.system == name]
        # 527 of the 1002 segments are rated; the README's value is -mean, to 2 decimals.
        assert len(scores) == 527
        assert round(-sum(scores) / len(scores), 2) == published[name], name
        assert {j.scale for j in project.judgments if j.system == name} == {"mqm"}
    assert min(j.score for j in project.judgments) < -5  # raw MQM, not squeezed into 1-5
    rated_ids = {j.segment for j in project.judgments if j.system == "UEdin"}
    assert {"1", "51", "70", "84"} <= rated_ids and "52" not in rated_ids
