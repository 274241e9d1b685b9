"""ESA-AI through work packages: a package split from a project whose queue pre-marks a
model's error spans carries them (with the model's name and fingerprint) on its items, and
merging the judged package brings back what the judge did with each span."""

from __future__ import annotations

from collections import Counter

import pytest

from mtworkbench.core.campaign import CampaignError, make_package
from mtworkbench.core.campaign_plan import plan_campaign
from mtworkbench.core.judging import JudgeSession, QueueConfig, apply_judgment, build_queue
from mtworkbench.core.model import ErrorSpan
from mtworkbench.core.queue_drawing import with_suggestions
from mtworkbench.core.suggested_spans import SpanOutcome, SuggestedSpan
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.bundle.packages import merge_packages, split_project
from tests.core.test_campaign import small_project

MODEL, PRINT, SPEC = "xcomet-tiny", "sha256:5e1f", "comet:model=xcomet-tiny"


def _team_project(spec: str = SPEC):
    """A team project whose judge "team" has an ESA queue with the model's spans on every item."""
    project = small_project(2, 3, 1, 2)
    project.add_judge("team")
    state = build_queue(project, "team", QueueConfig(seed=1, repeat_share=0.0, protocol="esa"))
    spans = {(e.system, e.segment): [SuggestedSpan(0, 6, "major", model=MODEL, fingerprint=PRINT),
                                     SuggestedSpan(9, 10, "minor", confidence=0.25, model=MODEL, fingerprint=PRINT)]
             for e in state.items}
    project.set_judge_queue("team", with_suggestions(project, state, spans, spec))
    return project, spans


def test_split_carries_the_suggestions_and_merge_brings_back_the_outcomes(tmp_path):
    project, spans = _team_project()
    result = split_project(project, "judge", ["alice", "bob"], tmp_path / "packages", protocol="esa")
    package = load_bundle(result.packages["alice"])
    queue = package.judge_queues["alice"]
    assert queue.suggestions == SPEC and queue.items
    for entry in queue.items:
        assert entry.suggested == spans[(entry.system, entry.segment)]
        assert all((s.model, s.fingerprint) == (MODEL, PRINT) for s in entry.suggested)
    # alice keeps the first span, deletes the second, and scores each item.
    session = JudgeSession(package, "alice")
    while not session.finished:
        first, second = session.current.suggested
        outcomes = [SpanOutcome(first, "kept", 0), SpanOutcome(second, "deleted")]
        apply_judgment(package, session.submit_scored(70.0, [ErrorSpan(0, 6, "major")], suggestions=outcomes))
    save_bundle(package, result.packages["alice"])
    merged = merge_packages(project, [result.packages["alice"]])
    assert merged.conflicts == 0
    back = [j for j in project.judgments if j.judge == "alice"]
    assert len(back) == len(queue.items)
    assert Counter(o.decision for j in back for o in j.suggestions) == {"kept": len(back), "deleted": len(back)}
    assert all(o.suggestion.model == MODEL and o.suggestion.fingerprint == PRINT for j in back for o in j.suggestions)
    assert {(j.system, j.segment): [o.suggestion for o in j.suggestions] for j in back} == {
        (e.system, e.segment): spans[(e.system, e.segment)] for e in queue.items}


def test_a_protocol_without_suggestions_and_a_project_without_them_carry_none():
    project, _ = _team_project()
    campaign = plan_campaign(project, "judge", ["alice"], seed=2, protocol="da")
    assert make_package(project, campaign, "alice").judge_queues["alice"].suggestions == ""
    plain = small_project(2, 3, 1, 2)
    campaign = plan_campaign(plain, "judge", ["alice"], seed=2, protocol="esa")
    state = make_package(plain, campaign, "alice").judge_queues["alice"]
    assert state.suggestions == "" and all(e.suggested is None for e in state.items)


def test_two_models_suggesting_is_refused_naming_both():
    project, spans = _team_project()
    project.add_judge("other")
    state = build_queue(project, "other", QueueConfig(seed=5, repeat_share=0.0, protocol="mqm"))
    project.set_judge_queue("other", with_suggestions(project, state, spans, "comet:model=other"))
    campaign = plan_campaign(project, "judge", ["alice"], seed=2, protocol="esa")
    with pytest.raises(CampaignError, match=r"2 models \(comet:model=other, comet:model=xcomet-tiny\)"):
        make_package(project, campaign, "alice")
