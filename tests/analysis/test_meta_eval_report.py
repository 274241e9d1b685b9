"""The meta-evaluation command of docs/benchmarks.md runs end to end on MLQE (slow: trains the SVM)."""

from __future__ import annotations

import importlib.util
import json

import pytest


@pytest.mark.slow
def test_meta_eval_report_on_mlqe(shared_dir, project_root, tmp_path):
    spec = importlib.util.spec_from_file_location("meta_eval_report", project_root / "tools" / "meta_eval_report.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    # The fast metrics only (TER alone takes ~10 s here); the full run is the one docs/benchmarks.md reports.
    only = ["--only", "BLEU", "--only", "GTM e=1", "--only", "chrF", "--only", "learned"]
    assert tool.main(["--shared", str(shared_dir), "--corpus", "mlqe", "--docs", "20", "--out", str(tmp_path)]
                     + only) == 0
    results = json.loads((tmp_path / "results.json").read_text())
    (mlqe,) = results["results"]
    rows = {r["metric"]: r for r in mlqe["segment"]}
    assert list(rows) == ["BLEU", "GTM e=1", "chrF", "learned"]
    assert rows["BLEU"]["pearson"]["n"] == 1000
    # On MLQE every one of them correlates positively with DA.
    for label, row in rows.items():
        assert row["pearson"]["r"] > 0.3, label
    assert mlqe["learned_training"]["n_validation"] > 0
    curve_lines = (tmp_path / "reliability_mlqe-et-en.csv").read_text().splitlines()
    assert curve_lines[0] == "label,n,mean_spearman"
    assert (tmp_path / "reliability_mlqe-et-en.svg").read_text().startswith("<svg")
    assert "| BLEU |" in (tmp_path / "report.md").read_text()
