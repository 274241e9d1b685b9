"""ESA and DA judgments as CSV: import into a project, export back the same table, errors named."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.judgments.judgments import apply_import
from mtworkbench.io.judgments.protocol_csv import plan_protocol_csv, protocol_table

ESA = ("rater,system,segment,score,errors,reference,seconds,timestamp,comment\n"
       "r1,mt,s1,62.5,0-5:major;10-13:minor,,3.5,2026-01-01T00:00:00Z,\n"
       "r2,mt,s1,80,,,0,,\"looks fine, mostly\"\n"
       "r1,mt,s2,100,,,0,,\n")
DA = ("rater,system,segment,score,reference,qc,text,seconds,timestamp,comment\n"
      "r1,mt,s1,71,r,,,0,,\n"
      "r1,mt,s1,12,r,bad,Hello Welt and sky.,0,,\n"
      "r2,mt,s2,55.5,,,,0,,\n")


def project() -> Project:
    doc = Document("d", [Paragraph("p", [Segment("s1", "Hallo Welt und so."), Segment("s2", "Ja.")])])
    return Project([doc], references=[Reference("r", texts={"s1": "Hello world and so.", "s2": "Yes."})],
                   systems=[System("mt", texts={"s1": "Hello world and so.", "s2": "Yes."})])


@pytest.mark.parametrize("protocol, text", [("esa", ESA), ("da", DA)])
def test_import_then_export_gives_the_same_table(tmp_path, protocol, text):
    path = tmp_path / f"{protocol}.csv"
    path.write_text(text, encoding="utf-8")
    p = project()
    apply_import(p, plan_protocol_csv(p, path, protocol))
    assert protocol_table(p, protocol) == text
    assert all(j.protocol == protocol and j.scale == protocol for j in p.judgments)


def test_esa_spans_and_da_bad_items_are_kept(tmp_path):
    p = project()
    esa, da = tmp_path / "e.csv", tmp_path / "d.csv"
    esa.write_text(ESA, encoding="utf-8")
    da.write_text(DA, encoding="utf-8")
    apply_import(p, plan_protocol_csv(p, esa, "esa"))
    apply_import(p, plan_protocol_csv(p, da, "da"))
    first = p.judgments[0]
    assert [(e.start, e.end, e.severity) for e in first.errors] == [(0, 5, "major"), (10, 13, "minor")]
    assert first.seconds == 3.5
    bad = [j for j in p.judgments if j.qc == "bad"]
    assert len(bad) == 1 and bad[0].text == "Hello Welt and sky." and bad[0].reference == "r"


@pytest.mark.parametrize("row, message", [
    ("r1,mt,s1,101,,,0,,", r"e.csv:2, column 'score': expected a finite number from 0 to 100, found '101'"),
    ("r1,mt,s1,50,0-99:minor,,0,,", r"e.csv:2, column 'errors': span 0-99 is outside the translation \(0-19\)"),
    ("r1,mt,s1,50,0-3:critical,,0,,", r"e.csv:2, column 'errors': severity must be minor or major"),
    ("r1,mt,s1,50,zero-3:minor,,0,,", r"e.csv:2, column 'errors': expected START-END:SEVERITY"),
    ("r1,xx,s1,50,,,0,,", r"e.csv:2, column 'system': no system 'xx'"),
    ("r1,mt,s9,50,,,0,,", r"e.csv:2, column 'segment': no segment 's9'"),
])
def test_bad_rows_are_named(tmp_path, row, message):
    path = tmp_path / "e.csv"
    path.write_text(ESA.split("\n")[0] + "\n" + row + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=message):
        plan_protocol_csv(project(), path, "esa")


def test_da_bad_item_needs_its_text(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(DA.split("\n")[0] + "\nr1,mt,s1,12,,bad,,0,,\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"d.csv:2, column 'text': a quality-control item needs the text"):
        plan_protocol_csv(project(), path, "da")


def test_cli_da_quality_control_and_scores(tmp_path, capsys):
    bundle = tmp_path / "p.mtwb.json"
    save_bundle(project(), bundle)
    rows = [DA.split("\n")[0]]
    for k in range(8):  # r1 scores BAD copies lower every time
        rows.append(f"r1,mt,s1,{60 + k},,,,0,,")
        rows.append(f"r1,mt,s1,{10 + k},,bad,Hello sky {k}.,0,,")
    rows.append("r2,mt,s2,40,,,,0,,")
    da = tmp_path / "da.csv"
    da.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["judgments", "import", str(bundle), "--format", "da", str(da)]) == 0
    capsys.readouterr()
    assert main(["agreement", str(bundle), "--json"]) == 0
    [qc] = json.loads(capsys.readouterr().out)["quality_control"]
    assert qc["rater"] == "r1" and qc["n_pairs"] == 8 and qc["passed"] is True
    assert qc["wilcoxon_p"] == pytest.approx(1 / 2**8)  # exact test, all differences negative
    assert main(["agreement", str(bundle)]) == 0
    assert "r1" in capsys.readouterr().out.split("DA quality control")[1]
    assert main(["human-scores", str(bundle), "--protocol", "da", "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)["scores"]
    # BAD copies are not human scores: r1's eight repeats of s1 average to 63.5.
    assert scores == [{"system": "mt", "segment": "s1", "score": 63.5, "raters": 1},
                      {"system": "mt", "segment": "s2", "score": 40.0, "raters": 1}]
    out = tmp_path / "back.csv"
    assert main(["judgments", "export", str(bundle), "--format", "da", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == da.read_text(encoding="utf-8")
    assert len(load_bundle(bundle).judgments) == 17
