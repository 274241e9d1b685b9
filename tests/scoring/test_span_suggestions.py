"""A span-marking metric's error spans as a judge's pre-marked suggestions: from the model, or
from the scores stored with the project; recorded per span in the judgment and the bundle."""

from __future__ import annotations

import pytest

from mtworkbench.core.judge_session import JudgeSession, apply_judgment
from mtworkbench.core.queue_drawing import QueueConfig, build_queue, with_suggestions
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.core.span_draft import SpanDraft
from mtworkbench.io.bundle.bundle import dumps, loads
from mtworkbench.metrics.neural.models import load_registry
from mtworkbench.scoring.span_suggestions import model_spans
from tests.metrics.neural.fixtures import expected
from tests.scoring.esa_ai_fixtures import MODEL, register_xcomet, zh_en_project


def reference_spans(pair: str) -> list[list[tuple[int, int, str]]]:
    case = next(c for c in expected("comet-xcomet")["cases"] if c["pair"] == pair and c["src"] and c["ref"])
    return [[(s["start"], s["end"], s["severity"]) for s in seg] for seg in case["error_spans"]]


def test_model_spans_are_xcomets_spans_with_the_model_named(tmp_path, monkeypatch):
    spec = register_xcomet(tmp_path, monkeypatch)
    project = zh_en_project()
    found = model_spans(project, spec)
    want = reference_spans("zh-en")
    got = [[(s.start, s.end, s.severity) for s in found.spans[("A", seg.id)]] for seg in project.segments]
    assert got == want
    assert found.model == MODEL
    sha = load_registry()[MODEL].sha256
    assert found.fingerprint and sha.startswith(found.fingerprint)
    assert all(s.model == MODEL and s.fingerprint == found.fingerprint
               for spans in found.spans.values() for s in spans)


def test_a_metric_without_spans_is_refused(tmp_path, monkeypatch):
    register_xcomet(tmp_path, monkeypatch)
    with pytest.raises(MetricError, match="marks no error spans"):
        model_spans(zh_en_project(), "chrf")


def test_esa_queue_from_model_spans_round_trips_through_the_bundle(tmp_path, monkeypatch):
    spec = register_xcomet(tmp_path, monkeypatch)
    project = zh_en_project()
    project.add_judge("li")
    found = model_spans(project, spec)
    state = with_suggestions(project, build_queue(project, "li", QueueConfig(protocol="esa", repeat_share=0)),
                             found.spans, spec)
    project.set_judge_queue("li", state)
    session = JudgeSession(project, "li")
    item = session.current
    assert [(s.start, s.end) for s in item.suggested] == \
        [(s.start, s.end) for s in found.spans[("A", item.segment)]]
    draft = SpanDraft.start("esa", item.suggested)
    assert len(draft.spans) == len(item.suggested) > 0
    draft.remove(0)  # the judge deletes the first pre-marked span
    judgment = session.submit_scored(70, draft.spans, suggestions=draft.outcomes())
    apply_judgment(project, judgment)
    assert [o.decision for o in judgment.suggestions] == ["deleted"] + ["kept"] * (len(item.suggested) - 1)
    again = loads(dumps(project))
    stored = again.judgment(judgment.id)
    assert stored == judgment
    assert again.judge_queues["li"].suggestions == spec
    assert again.judge_queues["li"].items[0].suggested == state.items[0].suggested
    assert dumps(again) == dumps(project)


def test_spans_stored_with_the_scores_need_no_model(tmp_path, monkeypatch):
    from mtworkbench.io.bundle.bundle import save_bundle
    from mtworkbench.scoring.store import load_project

    spec = register_xcomet(tmp_path, monkeypatch)
    bundle = tmp_path / "zh-en.mtwb"
    save_bundle(zh_en_project(), bundle)
    project = load_project(bundle)
    first = model_spans(project, spec)  # scored once, kept in the project's score file
    save_bundle(project, bundle)
    monkeypatch.setattr("mtworkbench.metrics.neural.metric.NeuralMetric.model",
                        lambda self: pytest.fail("the stored spans were scored again"))
    again = model_spans(load_project(bundle), spec)
    assert again.spans == first.spans and again.count > 0


def test_a_bundle_whose_suggestion_names_a_missing_error_is_refused():
    import json

    from mtworkbench.core.errors import BundleError
    from mtworkbench.core.model import ErrorSpan, Judgment
    from mtworkbench.core.suggested_spans import SpanOutcome, SuggestedSpan

    project = zh_en_project()
    project.add_judge("li")
    suggestion = SuggestedSpan(3, 6, "major", model=MODEL, fingerprint="ab")
    project.add_judgment(Judgment("j1", "li", "A", "s2", score=60, scale="esa", protocol="esa",
                                  errors=(ErrorSpan(3, 6, "major"),),
                                  suggestions=(SpanOutcome(suggestion, "kept", 0),)))
    data = json.loads(dumps(project))
    assert loads(json.dumps(data)).judgment("j1").suggestions[0].suggestion == suggestion
    data["judgments"][0]["suggestions"][0]["error"] = 1
    with pytest.raises(BundleError, match=r"judgments\[0\]\.suggestions\[0\]\.error"):
        loads(json.dumps(data))
    data["judgments"][0]["suggestions"][0].update(error=None, decision="maybe")
    with pytest.raises(BundleError, match="decision"):
        loads(json.dumps(data))
