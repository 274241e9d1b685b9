"""`correlate --stat` with WMT's statistics and significance clusters."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mtworkbench.analysis import meta_eval as me
from mtworkbench.cli import main
from tests.cli.test_external_scores import (
    EXT,
    HUMAN,
    SYSTEMS,
    import_lines,
    make_project,
)


def run_json(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


@pytest.fixture
def bundle(tmp_path, capsys):
    path = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, path)
    # A second external metric: the first one's scores reversed within each segment's
    # systems, so it orders the systems of a segment the other way round.
    flipped = {s: [1 - v for v in EXT[s]] for s in SYSTEMS}
    import_lines(tmp_path, capsys, path, name="FLIP", values=flipped)
    return path


def _matrices():
    human = np.array([[np.nan if v is None else v for v in HUMAN[s]] for s in SYSTEMS])
    metric = np.array([EXT[s] for s in SYSTEMS])
    return human, metric


def test_acc_eq_and_spa_match_the_library(bundle, capsys):
    human, metric = _matrices()
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET",
                            "--stat", "acc-eq", "--json"])
    (res,) = out["results"]
    expected = me.acc_eq(human.T, metric.T)
    assert res["level"] == "segment" and res["group_by"] == "item" and res["groups"] == 5
    assert res["value"] == pytest.approx(expected.accuracy) and res["epsilon"] == pytest.approx(expected.epsilon)
    # Segment 2 lacks B's human score: 6 + 3 + 6 + 6 + 6 pairs of systems.
    assert res["n"] == 27
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET",
                            "--stat", "spa", "--json"])
    keep = np.isfinite(human).all(axis=0)
    assert out["results"][0]["value"] == pytest.approx(me.soft_pairwise_accuracy(human, metric).spa)
    assert out["results"][0]["segments"] == int(keep.sum()) == 4


def test_clusters_rank_a_reversed_metric_below(bundle, capsys):
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:FLIP",
                            "--metric", "ext:COMET", "--stat", "pairwise-accuracy", "--clusters",
                            "--permutations", "200", "--json"])
    clusters = out["clusters"]
    # COMET orders all 6 system pairs as the humans do, FLIP none of them.
    assert [m["metric"] for m in clusters["metrics"]] == ["ext:COMET", "ext:FLIP"]
    assert [m["value"] for m in clusters["metrics"]] == [1.0, 0.0]
    # With 4 systems the PERM-BOTH test cannot separate them: the resamples that swap no
    # system (probability 1/16 > 0.05) already reach the observed difference, so p > 0.05
    # and both share rank 1 - the honest answer for 4 systems.
    assert 1 / 16 - 0.04 <= clusters["p_values"][0][1] and clusters["p_values"][0][1] > 0.05
    assert [m["rank"] for m in clusters["metrics"]] == [1, 1]
    # At segment level (acc-eq over 27 pairs in 5 segments) the reversal is significant.
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:FLIP",
                            "--metric", "ext:COMET", "--stat", "acc-eq", "--clusters",
                            "--permutations", "200", "--json"])
    clusters = out["clusters"]
    assert [m["metric"] for m in clusters["metrics"]] == ["ext:COMET", "ext:FLIP"]
    assert clusters["p_values"][0][1] <= 0.05 and [m["rank"] for m in clusters["metrics"]] == [1, 2]


def test_stat_usage_errors(bundle, capsys):
    assert main(["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET", "--stat", "spa",
                 "--level", "segment"]) == 2
    assert main(["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET", "--clusters"]) == 2
    assert main(["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET", "--stat", "acc-eq",
                 "--williams"]) == 2
    capsys.readouterr()
    # Without --stat the output keeps its keys.
    out = run_json(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET", "--json"])
    assert set(out["results"][0]) == {"metric", "human", "level", "method", "r", "n", "ci", "p"}


def test_clusters_orient_lower_is_better_metrics(tmp_path, capsys):
    path = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, path)
    # 1 - COMET, declared lower-is-better: the same information, the other way up.
    import_lines(tmp_path, capsys, path, name="ERR", values={s: [1 - v for v in EXT[s]] for s in SYSTEMS},
                 extra=("--higher-is-better", "no"))
    out = run_json(capsys, ["correlate", str(path), "--human", "da", "--metric", "ext:COMET", "--metric",
                            "ext:ERR", "--stat", "pearson", "--clusters", "--permutations", "50", "--json"])
    r = {res["metric"]: res["r"] for res in out["results"]}
    assert r["ext:ERR"] == pytest.approx(-r["ext:COMET"])  # reported correlations keep their sign
    clusters = out["clusters"]["metrics"]
    # In the clusters ERR is negated: equal to COMET, so a swap changes nothing beyond rounding.
    assert clusters[0]["value"] == pytest.approx(clusters[1]["value"]) == pytest.approx(r["ext:COMET"])
    assert out["clusters"]["p_values"][0][1] > 0.05 and [c["rank"] for c in clusters] == [1, 1]
