"""``agreement BUNDLE --metric-spans SPEC``: xCOMET's spans against each MQM rater, the metric
scored by registered name (a temporary registry), compared as two raters are."""

from __future__ import annotations

import json

import pytest

from mtworkbench.analysis.metric_span_agreement import metric_rater_span_agreement
from mtworkbench.cli import main
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.metrics.neural.spans import as_judgments, spans_from_json
from tests.metrics.neural.fixtures import expected
from tests.metrics.neural.span_project import register_xcomet, span_project


@pytest.fixture(autouse=True)
def own_registry(tmp_path, monkeypatch):
    monkeypatch.setenv("MTWB_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))


def test_metric_spans_against_raters_match_the_reference_spans(tmp_path, capsys):
    register_xcomet(tmp_path)
    project = span_project()
    bundle = tmp_path / "spans.mtwb.json"
    save_bundle(project, bundle)
    code = main(["agreement", str(bundle), "--metric-spans", "comet:model=tiny-xcomet", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    report = json.loads(out.out)
    # What the reference implementation's spans (expected.json) give when compared the same way:
    case = next(c for c in expected("comet-xcomet")["cases"] if c["pair"] == "zh-en" and c["src"] and c["ref"])
    ids = project.segment_ids
    metric = as_judgments(spans_from_json(case["error_spans"]), "A", ids, scores=case["scores"])
    want = metric_rater_span_agreement(project.judgments, metric,
                                       text_length=lambda j: len(project.system_text(j.system, j.segment)))
    assert [r["judges"] for r in report["raters"]] == [["xCOMET", "ana"], ["xCOMET", "bo"]]
    for got, exp in zip(report["raters"], want):
        assert got["n_items"] == exp.n_items == len(ids)
        assert got["overlap_f1"] == pytest.approx(exp.overlap_f1)
        assert got["exact_f1"] == pytest.approx(exp.exact_f1)
        assert got["severity_pairs"] == exp.severity_pairs
    assert report["raters"][0]["overlap_f1"] > 0  # ana's spans sit inside xCOMET's
    assert report["metric_spans"] >= sum(len(s) for s in case["error_spans"])  # system A's, and B's
    assert report["systems"] == 2


def test_metric_spans_table_and_errors(tmp_path, capsys):
    register_xcomet(tmp_path)
    bundle = tmp_path / "spans.mtwb.json"
    save_bundle(span_project(), bundle)
    assert main(["agreement", str(bundle), "--metric-spans", "comet:model=tiny-xcomet"]) == 0
    out = capsys.readouterr().out
    assert "ana" in out and "bo" in out and "charF1" in out
    # an unregistered model is named, with how to add it
    assert main(["agreement", str(bundle), "--metric-spans", "comet:model=XCOMET-XL"]) == 1
    err = capsys.readouterr().err
    assert "'XCOMET-XL'" in err and "models add XCOMET-XL" in err
    # a metric without spans says so
    assert main(["agreement", str(bundle), "--metric-spans", "bleu"]) == 1
    assert "marks no error spans" in capsys.readouterr().err
    # needs a bundle
    assert main(["agreement", "--judgments", str(bundle), "--metric-spans", "comet:model=tiny-xcomet"]) == 2
