"""`import --format mt-metrics-eval` on a small test set written in that layout."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mtworkbench.cli import main
from mtworkbench.io.bundle.bundle import load_bundle

SRC = ["Hello world .", "How are you ?", "Fine , thanks .", "Goodbye ."]
REFS = {"refA": ["Hallo Welt .", "Wie geht es dir ?", "Gut , danke .", "Tschüss ."],
        "refB": ["Hallo , Welt .", "Wie geht's ?", "Gut , danke schön .", "Auf Wiedersehen ."]}
SYSTEMS = {"sysX": ["Hallo Welt .", "Wie bist du ?", "Gut , danke .", "Auf Wiedersehen ."],
           "sysY": ["Hallo Erde .", "Wie geht es ?", "Fein , Dank .", "Tschüss ."],
           "refB": REFS["refB"]}  # a reference scored as a system, copied under its name
MQM = {"sysX": ["-1", "-5", "0", "None"], "sysY": ["-6", "-1", "-2", "None"], "refB": ["0", "0", "-1", "None"],
       "ghost": ["0", "0", "0", "0"]}  # a system without outputs: skipped with a note
METRIC = {"sysX": [0.9, 0.4, 0.95, 0.7], "sysY": [0.3, 0.8, 0.6, 0.75], "refB": [0.85, 0.9, 0.8, 0.7]}


def write_testset(root):
    lp = "en-de"
    for sub in ("sources", "documents", "references", f"system-outputs/{lp}", "human-scores", f"metric-scores/{lp}"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "sources" / f"{lp}.txt").write_text("\n".join(SRC) + "\n", encoding="utf-8")
    (root / "documents" / f"{lp}.docs").write_text("news doc1\nnews doc1\nchat doc2\nchat doc2\n", encoding="utf-8")
    for name, lines in REFS.items():
        (root / "references" / f"{lp}.{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, lines in SYSTEMS.items():
        (root / "system-outputs" / lp / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "human-scores" / f"{lp}.mqm.seg.score").write_text(
        "".join(f"{s}\t{v}\n" for s, vs in MQM.items() for v in vs), encoding="utf-8")
    (root / "human-scores" / f"{lp}.mqm.sys.score").write_text("sysX\t-2\nsysY\t-3\nrefB\t-0.33\n", encoding="utf-8")
    (root / "metric-scores" / lp / "COMET-refA.seg.score").write_text(
        "".join(f"{s}\t{v}\n" for s, vs in METRIC.items() for v in vs), encoding="utf-8")
    (root / "metric-scores" / lp / "COMET-refA.sys.score").write_text(
        "".join(f"{s}\t{np.mean(vs)}\n" for s, vs in METRIC.items()), encoding="utf-8")
    return root


def test_import_reads_every_part_of_the_layout(tmp_path, capsys):
    root = write_testset(tmp_path / "wmt99")
    out = tmp_path / "p.mtwb.json"
    assert main(["import", "--format", "mt-metrics-eval", str(root), "--lp", "en-de", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "ghost" in printed  # the skipped system is named
    project = load_bundle(out)
    assert (project.source_language, project.target_language) == ("en", "de")
    assert [d.id for d in project.documents] == ["doc1", "doc2"]
    assert project.documents[1].attributes == {"domain": "chat"}
    assert project.segment_ids == ["1", "2", "3", "4"] and project.segment("3").source == SRC[2]
    assert [r.id for r in project.references] == ["refA", "refB"]
    assert project.reference("refA").texts["4"] == "Tschüss ."
    assert {s.id: s.kind for s in project.systems} == {"refB": "human", "sysX": "machine", "sysY": "machine"}
    mqm = {(j.system, j.segment): j.score for j in project.judgments if j.judge == "mqm"}
    assert len(mqm) == 9  # 3 systems x 3 rated segments; None is not a judgment
    assert mqm[("sysY", "1")] == -6.0 and all(j.scale == "mqm" for j in project.judgments)
    rec = project.external_scores["COMET-refA"]
    assert rec["systems"]["sysY"]["segments"] == dict(zip(project.segment_ids, METRIC["sysY"]))
    assert rec["systems"]["sysX"]["system"] == pytest.approx(np.mean(METRIC["sysX"]))
    assert [p["file"] for p in rec["provenance"]] == ["COMET-refA.seg.score", "COMET-refA.sys.score"]


def test_imported_project_correlates(tmp_path, capsys):
    root = write_testset(tmp_path / "wmt99")
    out = tmp_path / "p.mtwb.json"
    assert main(["import", "--format", "mt-metrics-eval", str(root), "--lp", "en-de", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["correlate", str(out), "--human", "mqm", "--metric", "ext:COMET-refA", "--level", "system",
                 "--stat", "pairwise-accuracy", "--json"]) == 0
    (res,) = json.loads(capsys.readouterr().out)["results"]
    # Human system means over rated segments: refB -1/3, sysX -2, sysY -3; metric means of
    # all four segments: refB .8125, sysX .7375, sysY .6125: the same order, 3 of 3 pairs.
    assert (res["value"], res["n"]) == (1.0, 3)


def test_layout_errors_name_the_file(tmp_path, capsys):
    root = write_testset(tmp_path / "wmt99")
    (root / "references" / "en-de.refA.txt").write_text("only one line\n", encoding="utf-8")
    assert main(["import", "--format", "mt-metrics-eval", str(root), "--lp", "en-de", "-o",
                 str(tmp_path / "x.mtwb.json")]) == 1
    err = capsys.readouterr().err
    assert "en-de.refA.txt" in err and "1 lines" in err and "4" in err
    assert main(["import", "--format", "mt-metrics-eval", str(root), "--lp", "de-en", "-o",
                 str(tmp_path / "x.mtwb.json")]) == 1
    assert "sources/de-en.txt: missing" in capsys.readouterr().err
    assert main(["import", "--format", "mt-metrics-eval", str(root), "-o", str(tmp_path / "x.mtwb.json")]) == 2


def test_layout_and_metric_score_registries_name_real_readers():
    from mtworkbench.io.corpora.mt_metrics_eval import import_mt_metrics_eval_dir
    from mtworkbench.io.formats import LAYOUT_FORMATS, METRIC_SCORE_FORMATS

    assert LAYOUT_FORMATS.get("mt-metrics-eval").read is import_mt_metrics_eval_dir
    assert LAYOUT_FORMATS.get("mt-metrics-eval").suffixes == ()  # a directory: no file dialog offers it
    assert METRIC_SCORE_FORMATS.names == ("lines", "mt-metrics-eval")


def test_import_reports_each_file_read(tmp_path):
    """3 system outputs and 2 metric score files: the command line's bar counts these."""
    from mtworkbench.io.corpora.mt_metrics_eval import import_mt_metrics_eval_dir

    calls: list[tuple[int, int]] = []
    import_mt_metrics_eval_dir(write_testset(tmp_path / "wmt99"), "en-de", progress=lambda d, t: calls.append((d, t)))
    assert calls == [(k, 5) for k in range(6)]
