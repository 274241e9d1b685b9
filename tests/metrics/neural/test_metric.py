"""comet:/metricx: as metrics of the workbench: scores through ``Metric.score``, one model load
for many systems, progress and cancel, signatures without paths, lazy torch, span data."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mtworkbench.core.jobs import Cancelled
from mtworkbench.core.model import ErrorSpan, Judgment
from mtworkbench.core.scoring_input import MetricError, ScoringInput
from mtworkbench.metrics.registry import create_metric
from tests.metrics.neural.fixtures import ROOT, columns, expected


def data_for(pair: str, with_ref: bool = True) -> ScoringInput:
    src, mt, ref = columns(pair)
    return ScoringInput(hypotheses=mt, references=[ref] if with_ref else [[None] * len(mt)], sources=src)


def test_score_through_the_metric_interface():
    metric = create_metric(f"comet:model={ROOT / 'comet-xcomet'},device=cpu,batch_size=2")
    case = next(c for c in expected("comet-xcomet")["cases"] if c["pair"] == "en-ja" and c["src"] and c["ref"])
    result = metric.score(data_for("en-ja"), system="A")
    assert list(result.segments) == pytest.approx(case["scores"], abs=1e-5)
    assert result.corpus == pytest.approx(case["system_score"], abs=1e-5)
    assert result.stats.shape == (len(case["scores"]), 2)
    assert float(metric.aggregate(result.stats.sum(0))) == pytest.approx(case["system_score"], abs=1e-5)
    spans = result.extras["error_spans"]
    assert [[(s["start"], s["end"], s["severity"]) for s in seg] for seg in spans] == \
        [[(s["start"], s["end"], s["severity"]) for s in seg] for seg in case["error_spans"]]
    hyps = columns("en-ja")[1]
    for seg, hyp in zip(spans, hyps):
        for s in seg:
            assert 0 <= s["start"] <= s["end"] <= len(hyp) and s["text"] == hyp[s["start"]:s["end"]]
    assert str(ROOT) not in result.signature and "model:comet-xcomet" in result.signature
    json_entry = result.to_json()
    assert next(k for k in json_entry if "span" in k) == "error_spans"


def test_one_model_load_for_many_systems(monkeypatch):
    from mtworkbench.metrics.neural import comet_predict
    from mtworkbench.metrics.neural import metric as neural_metric

    neural_metric._LOADED.clear()
    loads = []
    original = comet_predict.CometModel.__init__

    def counting(self, *args, **kwargs):
        loads.append(args)
        original(self, *args, **kwargs)

    monkeypatch.setattr(comet_predict.CometModel, "__init__", counting)
    metric = create_metric(f"comet:model={ROOT / 'comet-regression'},device=cpu")
    for pair in ("zh-en", "en-zh", "de-en"):
        metric.score(data_for(pair), system=pair)
    other = create_metric(f"comet:model={ROOT / 'comet-regression'},device=cpu")  # a second view's instance
    other.score(data_for("ar-en"))
    assert len(loads) == 1


def test_progress_and_cancel():
    metric = create_metric(f"comet:model={ROOT / 'comet-regression'},device=cpu,batch_size=2")
    seen = []
    metric.score(data_for("zh-en"), progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 5) and seen[-1] == (5, 5) and len(seen) >= 3

    asked = []

    def cancel():
        asked.append(1)
        return len(asked) > 1  # cancelled after the first batch

    with pytest.raises(Cancelled):
        metric.score(data_for("zh-en"), cancel=cancel)
    assert len(asked) == 2


def test_metricx_is_lower_better_and_needs_source_for_24(tmp_path):
    from tests.metrics.neural.fixtures import metricx_folder

    folder = metricx_folder(tmp_path / "mx")
    metric = create_metric(f"metricx:model={folder},device=cpu")
    assert metric.higher_is_better is False
    case = next(c for c in expected("metricx")["cases"] if c["version"] == "24" and not c["qe"] and c["pair"] == "zh-en")
    assert list(metric.score(data_for("zh-en")).segments) == pytest.approx(case["scores"], abs=1e-5)
    src, mt, ref = columns("zh-en")
    with pytest.raises(MetricError, match="--src"):
        metric.score(ScoringInput(hypotheses=mt, references=[ref]))


def test_options_are_checked():
    with pytest.raises(MetricError, match="model=NAME"):
        create_metric("comet")
    with pytest.raises(MetricError, match="precision"):
        create_metric("comet:model=x,precision=fp8")
    with pytest.raises(MetricError, match="GPU"):
        create_metric(f"comet:model={ROOT / 'comet-regression'},device=cpu,precision=fp16").score(data_for("zh-en"))


def test_missing_extra_says_what_to_install():
    from mtworkbench.metrics.neural.checkpoint import need

    with pytest.raises(MetricError, match=r"pip install 'mtworkbench\[neural\]'"):
        need("no_such_package_for_neural_metrics", "comet")


def test_metric_modules_load_without_torch():
    code = ("import sys; import mtworkbench.metrics.neural.metric, mtworkbench.metrics.neural.models, "
            "mtworkbench.metrics.neural.spans; from mtworkbench.metrics.registry import create_metric; "
            "create_metric('comet:model=x'); print(sorted(m for m in ('torch', 'transformers', 'yaml') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_metric_spans_compare_with_raters_as_raters_do():
    from mtworkbench.analysis.metric_span_agreement import metric_rater_span_agreement
    from mtworkbench.metrics.neural.spans import MetricSpan, as_judgments

    hyp = "Das ist ein Test über Übersetzung."
    spans = [[MetricSpan(8, 11, "major", 0.9, hyp[8:11])], []]
    metric = as_judgments(spans, "A", ["s1", "s2"], judge="xCOMET")
    raters = [Judgment("j1", "anna", "A", "s1", protocol="mqm", errors=(ErrorSpan(8, 11, "Major"),)),
              Judgment("j2", "anna", "A", "s2", protocol="mqm", errors=(ErrorSpan(0, 3, "minor"),)),
              Judgment("j3", "омар", "A", "s1", protocol="esa", score=60.0, errors=(ErrorSpan(8, 20, "minor"),))]
    rows = {r.judges[1]: r for r in metric_rater_span_agreement(raters, metric)}
    assert set(rows) == {"anna", "омар"}
    anna = rows["anna"]
    assert anna.judges == ("xCOMET", "anna") and anna.n_items == 2
    assert anna.exact_f1 == pytest.approx(2 * 1 / 3)
    assert anna.severity_agreement == 1.0
    esa = rows["омар"]
    assert esa.exact_f1 == 0.0 and esa.overlap_f1 == pytest.approx(2 * 3 / (3 + 12))
    assert esa.severity_agreement == 0.0


def test_a_bundle_may_name_a_model_but_not_a_folder(tmp_path, monkeypatch):
    from mtworkbench.core.metric_files import file_options_in_spec

    assert file_options_in_spec("comet:model=wmt22-comet-da,sha256=ab12") == []
    assert file_options_in_spec("comet:model=/data/wmt22") == ["model"]
    assert file_options_in_spec("comet:model=..\\wmt22") == ["model"]
    assert file_options_in_spec("metricx:model=mx24,tokenizer=/x") == ["tokenizer"]
    # a bare folder name in a project is a model name, never a folder opened from the working directory
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MTWB_CONFIG_DIR", str(tmp_path))
    metric = create_metric("comet:model=comet-regression,device=cpu")
    metric.bind(object())
    with pytest.raises(MetricError, match="not registered"):
        metric.score(data_for("zh-en"))
    assert create_metric("comet:model=comet-regression,device=cpu").score(data_for("zh-en")).corpus == \
        pytest.approx(expected("comet-regression")["cases"][0]["system_score"], abs=1e-5)
