"""COMET, CometKiwi-like and xCOMET-like checkpoints scored as the reference implementation
scores them: every segment to 1e-5 (CPU, float32), the system score, and xCOMET's error
spans (start, end, severity) identical. The expected values were made by unbabel-comet's
own ``load_from_checkpoint(...).predict(...)`` (tools/make_neural_fixtures.py)."""

from __future__ import annotations

import pytest

from mtworkbench.metrics.neural.comet_predict import CometModel
from tests.metrics.neural.fixtures import COMET_MODELS, ROOT, columns, expected

LAYOUTS = {"regression_metric", "referenceless_regression_metric", "unified_metric", "xcomet_metric"}


def test_every_layout_has_a_fixture():
    import yaml

    found = {yaml.safe_load((ROOT / m / "hparams.yaml").read_text(encoding="utf-8"))["class_identifier"]
             for m in COMET_MODELS}
    assert found == LAYOUTS


@pytest.fixture(scope="module", params=COMET_MODELS)
def loaded(request):
    return request.param, CometModel(ROOT / request.param, device="cpu")


def test_segment_and_system_scores_and_spans_match_the_reference(loaded):
    name, model = loaded
    cases = expected(name)["cases"]
    assert cases
    for case in cases:
        src, mt, ref = columns(case["pair"])
        out = model.predict(mt, src if case["src"] else None, ref if case["ref"] else None, batch_size=3)
        where = f"{name} {case['pair']} src={case['src']} ref={case['ref']}"
        assert out.scores == pytest.approx(case["scores"], abs=1e-5), where
        assert out.system_score == pytest.approx(case["system_score"], abs=1e-5), where
        if "error_spans" in case:
            assert out.spans is not None
            got = [[(s.start, s.end, s.severity) for s in seg] for seg in out.spans]
            want = [[(s["start"], s["end"], s["severity"]) for s in seg] for seg in case["error_spans"]]
            assert got == want, where
            conf = [s.confidence for seg in out.spans for s in seg]
            assert conf == pytest.approx([s["confidence"] for seg in case["error_spans"] for s in seg], abs=1e-5)
        else:
            assert out.spans is None


def test_span_fixtures_mark_spans_and_scores_vary():
    """The fixtures would not prove much if every span list were empty or every score equal."""
    for name in ("comet-xcomet", "comet-unified-spans"):
        spans = [s for case in expected(name)["cases"] for seg in case["error_spans"] for s in seg]
        assert len(spans) >= 5
        assert len({s["severity"] for s in spans}) >= 2
    for name in COMET_MODELS:
        scores = expected(name)["cases"][0]["scores"]
        assert max(scores) - min(scores) > 1e-3, name


def test_batch_size_does_not_change_scores(loaded):
    name, model = loaded
    case = expected(name)["cases"][0]
    src, mt, ref = columns(case["pair"])
    one = model.predict(mt, src if case["src"] else None, ref if case["ref"] else None, batch_size=1)
    many = model.predict(mt, src if case["src"] else None, ref if case["ref"] else None, batch_size=64)
    assert one.scores == pytest.approx(many.scores, abs=1e-5)
