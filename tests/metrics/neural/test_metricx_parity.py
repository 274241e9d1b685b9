"""MetricX-23 and MetricX-24 inputs and scores as google-research/metricx computes them
(its MT5ForRegression fed as its predict.py feeds it; tools/make_neural_fixtures.py)."""

from __future__ import annotations

import pytest

from mtworkbench.metrics.neural.metricx import MetricXModel, metricx_input
from tests.metrics.neural.fixtures import ROOT, columns, expected, metricx_folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return metricx_folder(tmp_path_factory.mktemp("metricx"))


def test_input_formats():
    assert metricx_input("23", "H", "S", "R") == "candidate: H reference: R"
    assert metricx_input("23", "H", "S", None) == "candidate: H source: S"
    assert metricx_input("24", "H", "S", "R") == "source: S candidate: H reference: R"
    assert metricx_input("24", "H", "S", None) == "source: S candidate: H"


@pytest.mark.parametrize("version", ["23", "24"])
def test_scores_match_the_reference(folder, version):
    model = MetricXModel(folder, version=version, device="cpu")
    cases = [c for c in expected("metricx")["cases"] if c["version"] == version]
    assert len(cases) >= 8
    for case in cases:
        src, mt, ref = columns(case["pair"])
        got = model.predict(mt, src, None if case["qe"] else ref, batch_size=1)
        assert got == pytest.approx(case["scores"], abs=1e-5), (version, case["pair"], case["qe"])
        assert all(0.0 <= x <= 25.0 for x in got)


def test_fixture_scores_vary():
    scores = [x for c in expected("metricx")["cases"] for x in c["scores"]]
    assert max(scores) - min(scores) > 0.1
    assert (ROOT / "metricx" / "weights.safetensors").stat().st_size < 2_000_000
