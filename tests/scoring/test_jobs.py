"""--jobs: systems x metrics spread over worker processes give exactly the
numbers of one process."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import PROCESS_THRESHOLD, ScoringRequest, run_scoring
from mtworkbench.scoring.process_executor import shutdown_pool
from tests.gui.metrics_synthetic import synthetic_project

SPECS = ("bleu", "chrf", "ter", "nist")
SYSTEMS = ("sys0", "sys1", "sys2")


def test_two_processes_equal_one():
    project = synthetic_project(80, 3)
    one = run_scoring(project, ScoreCache(), ScoringRequest(SPECS, SYSTEMS, ci_samples=0, jobs=1))
    try:
        two = run_scoring(project, ScoreCache(),
                          ScoringRequest(SPECS, SYSTEMS, ci_samples=0, jobs=2, use_processes=True))
    finally:
        shutdown_pool()
    assert not one.used_processes and two.used_processes
    by_key = {(i.system, i.spec): i.entry.score for i in one.items}
    assert len(two.items) == len(by_key) == len(SPECS) * len(SYSTEMS)
    for item in two.items:
        expected = by_key[(item.system, item.spec)]
        assert item.entry.score.to_json() == expected.to_json()
        np.testing.assert_array_equal(item.entry.score.stats, expected.stats)


def test_score_command_jobs_prints_the_same(tmp_path):
    # large enough (segments x tasks >= PROCESS_THRESHOLD) for the service to start processes
    n_segments = PROCESS_THRESHOLD // 6 + 100
    path = tmp_path / "big.mtwb.json"
    save_bundle(synthetic_project(n_segments, 3, words=6), path)
    outs = []
    for jobs in ("1", "2"):
        for leftover in tmp_path.glob("*.scores.npz"):
            leftover.unlink()  # score from scratch each time
        cmd = [sys.executable, "-m", "mtworkbench", "score", str(path), "--metric", "bleu", "--metric", "ter",
               "--jobs", jobs, "--json"]
        outs.append(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    assert outs[0] == outs[1]
    assert len(json.loads(outs[0])["scores"]) == 6


def test_bad_jobs_is_a_usage_error(tmp_path):
    path = tmp_path / "p.mtwb.json"
    save_bundle(synthetic_project(5, 1), path)
    from mtworkbench.cli import main

    assert main(["score", str(path), "--metric", "bleu", "--jobs", "-1"]) == 2
