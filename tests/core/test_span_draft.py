"""A judge's decisions on a model's pre-marked error spans: kept, changed (severity,
category, extent) or deleted, one by one and all at once; the outcomes and accept rates."""

from __future__ import annotations

import pytest

from mtworkbench.core.model import ErrorSpan, Judgment, ModelError
from mtworkbench.core.span_draft import SpanDraft, pre_marked
from mtworkbench.core.suggested_spans import (
    SpanOutcome,
    SuggestedSpan,
    format_outcomes,
    span_accept_rates,
    total_rate,
)

# "He buy a book about history yesterday." with three model spans
SUGGESTED = (SuggestedSpan(3, 6, "major", model="xc", fingerprint="ab12"),
             SuggestedSpan(14, 27, "minor", model="xc", fingerprint="ab12"),
             SuggestedSpan(28, 37, "critical", model="xc", fingerprint="ab12"))


def test_untouched_suggestions_are_kept_and_critical_is_pre_marked_major_in_esa():
    draft = SpanDraft.start("esa", SUGGESTED)
    assert [s.severity for s in draft.spans] == ["major", "minor", "major"]
    assert draft.pending_indices() == [0, 1, 2]
    assert [o.decision for o in draft.outcomes()] == ["kept", "kept", "kept"]
    assert [o.error for o in draft.outcomes()] == [0, 1, 2]


def test_keep_change_delete_and_the_judges_own_span():
    draft = SpanDraft.start("esa", SUGGESTED)
    before = draft.snapshot()
    draft.keep(0)
    assert not draft.pending(0) and draft.pending(1)
    draft.change(1, ErrorSpan(14, 27, "major"))  # another severity
    draft.remove(draft.at(30))  # deletes the third
    draft.add(ErrorSpan(0, 2, "minor"))  # the judge's own, sorted first
    outcomes = draft.outcomes()
    assert [o.decision for o in outcomes] == ["kept", "changed", "deleted"]
    assert [draft.spans[o.error] for o in outcomes if o.error is not None] == \
        [ErrorSpan(3, 6, "major"), ErrorSpan(14, 27, "major")]
    assert draft.origins == [None, 0, 1]
    draft.restore(before)
    assert draft.snapshot() == before and [o.decision for o in draft.outcomes()] == ["kept"] * 3


def test_changing_the_extent_or_the_mqm_category_is_a_change():
    draft = SpanDraft.start("mqm", SUGGESTED)
    assert [s.severity for s in draft.spans] == ["Major", "Minor", "Major"]
    draft.resize(0, 3, 10)
    draft.change(1, ErrorSpan(14, 27, "Minor", "Accuracy/Mistranslation"))
    assert [o.decision for o in draft.outcomes()] == ["changed", "changed", "kept"]


def test_all_at_once():
    draft = SpanDraft.start("esa", SUGGESTED)
    draft.keep(0)
    assert draft.delete_all_pending() == 2
    assert [o.decision for o in draft.outcomes()] == ["kept", "deleted", "deleted"]
    draft = SpanDraft.start("esa", SUGGESTED)
    assert draft.keep_all() == 3 and draft.pending_indices() == []


def test_a_rated_item_reopens_with_its_links():
    draft = SpanDraft.start("esa", SUGGESTED)
    draft.remove(0)
    j = Judgment("j1", "li", "A", "s2", score=60, scale="esa", protocol="esa", errors=tuple(draft.spans),
                 suggestions=draft.outcomes())
    again = SpanDraft.start("esa", SUGGESTED, j)
    assert again.origins == [1, 2] and again.pending_indices() == []
    assert again.outcomes() == j.suggestions


def test_accept_rates_per_severity():
    outcomes = [SpanOutcome(SUGGESTED[0], "kept", 0), SpanOutcome(SUGGESTED[1], "deleted"),
                SpanOutcome(SuggestedSpan(1, 2, "MINOR"), "changed", 1), SpanOutcome(SUGGESTED[2], "kept", 2)]
    rows = {r.severity: (r.kept, r.changed, r.deleted, r.rate) for r in span_accept_rates(outcomes)}
    assert rows == {"critical": (1, 0, 0, 1.0), "major": (1, 0, 0, 1.0), "minor": (0, 1, 1, 0.0)}
    assert total_rate(span_accept_rates(outcomes)).rate == pytest.approx(0.5)
    assert format_outcomes(outcomes[:2]) == "3-6:major=kept@1;14-27:minor=deleted"


def test_an_outcome_names_an_error_unless_deleted():
    with pytest.raises(ValueError):
        SpanOutcome(SUGGESTED[0], "deleted", 0)
    with pytest.raises(ValueError):
        SpanOutcome(SUGGESTED[0], "kept")
    assert pre_marked(SUGGESTED[2], "mqm").severity == "Major"


def test_a_queue_keeps_its_suggestions_and_refuses_them_on_other_protocols():
    import json

    from mtworkbench.core.errors import BundleError
    from mtworkbench.core.queue_drawing import QueueConfig, build_queue, with_suggestions
    from mtworkbench.core.queue_state import JudgeQueue
    from tests.core.test_judging import make_project

    project = make_project()
    plain = build_queue(project, "ann", QueueConfig(protocol="esa", repeat_share=0))
    assert "suggest" not in json.dumps(plain.to_json())  # a queue without them is written as before
    spans = {("A", "d1s1"): [SuggestedSpan(0, 1, "major", model="xc", fingerprint="ab")]}
    state = with_suggestions(project, plain, spans, "comet:model=xc")
    data = json.loads(json.dumps(state.to_json()))
    assert JudgeQueue.from_json(data) == state
    data["protocol"] = "da"
    with pytest.raises(BundleError, match="suggestions"):
        JudgeQueue.from_json(data)
    data["protocol"] = "esa"
    data["items"][0]["suggested"] = [{"start": 3, "end": 1, "severity": "minor", "model": "", "fingerprint": ""}]
    with pytest.raises(BundleError, match=r"items\[0\]\.suggested\[0\]"):
        JudgeQueue.from_json(data)
    ldc = build_queue(project, "ann", QueueConfig(repeat_share=0))
    with pytest.raises(ModelError, match="only ESA and MQM"):
        with_suggestions(project, ldc, spans, "comet:model=xc")
    with pytest.raises(ModelError, match="outside the translation"):
        with_suggestions(project, plain, {("A", "d1s1"): [SuggestedSpan(0, 99, "minor")]}, "x")
