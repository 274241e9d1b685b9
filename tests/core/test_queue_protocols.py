"""A queue's rating protocol (LDC, DA, ESA, MQM): stored with the queue, old
queues load as LDC, and ``submit_scored`` makes judgments of that protocol."""

from __future__ import annotations

import json

import pytest

from mtworkbench.core.errors import BundleError
from mtworkbench.core.judging import JudgeSession, QueueConfig, apply_judgment
from mtworkbench.core.model import ErrorSpan, ModelError
from mtworkbench.core.queue_state import JudgeQueue
from tests.core.test_judging import fixed_clock, make_project


def test_ldc_queue_json_has_no_protocol_fields_so_old_bundles_are_unchanged():
    project = make_project()
    session = JudgeSession.start(project, "ann", QueueConfig(seed=1))
    written = session.state.to_json()
    assert "protocol" not in written and "max_errors" not in written and "da_basis" not in written
    loaded = JudgeQueue.from_json(json.loads(json.dumps(written)))
    assert loaded.protocol == "ldc" and loaded.max_errors == 5 and loaded == session.state


@pytest.mark.parametrize("config", [
    QueueConfig(seed=2, protocol="da", da_basis="source"),
    QueueConfig(seed=2, protocol="esa"),
    QueueConfig(seed=2, protocol="mqm", max_errors=3),
])
def test_protocol_round_trips_through_json_and_a_saved_bundle(config, tmp_path):
    project = make_project()
    session = JudgeSession.start(project, "ann", config)
    loaded = JudgeQueue.from_json(json.loads(json.dumps(session.state.to_json())))
    assert loaded == session.state
    assert JudgeSession(project, "ann").config == config
    bundle = pytest.importorskip("mtworkbench.io.bundle.bundle")
    path = tmp_path / "p.mtwb.json"
    bundle.save_bundle(project, path)
    state = bundle.load_bundle(path).judge_queues["ann"]
    assert (state.protocol, state.da_basis, state.max_errors) == (config.protocol, config.da_basis, config.max_errors)


def test_bad_protocol_fields_are_named_by_json_path():
    project = make_project()
    raw = JudgeSession.start(project, "ann", QueueConfig(protocol="da")).state.to_json()
    with pytest.raises(BundleError, match=r"\$\.protocol"):
        JudgeQueue.from_json({**raw, "protocol": "likert"})
    with pytest.raises(BundleError, match=r"\$\.max_errors"):
        JudgeQueue.from_json({**raw, "max_errors": 0})
    with pytest.raises(ModelError, match="unknown protocol"):
        JudgeSession.start(project, "ann", QueueConfig(protocol="likert"))


def test_da_esa_mqm_submissions_carry_protocol_score_and_spans():
    project = make_project()
    da = JudgeSession.start(project, "ann", QueueConfig(seed=3, protocol="da", da_basis="source"), clock=fixed_clock)
    j = da.submit_scored(73)
    assert (j.protocol, j.score, j.scale, j.reference, j.errors) == ("da", 73.0, "da", None, ())
    apply_judgment(project, j)
    with pytest.raises(ModelError, match="0 to 100"):
        da.submit_scored(101)

    esa = JudgeSession.start(project, "bob", QueueConfig(seed=3, protocol="esa"), clock=fixed_clock)
    spans = (ErrorSpan(0, 1, "minor"), ErrorSpan(2, 6, "major"))
    j = esa.submit_scored(40, spans)
    assert (j.protocol, j.score, j.errors) == ("esa", 40.0, spans)
    apply_judgment(project, j)
    assert project.judgment(j.id).errors == spans

    mqm = JudgeSession.start(project, "ann", QueueConfig(seed=3, protocol="mqm", max_errors=1), clock=fixed_clock)
    with pytest.raises(ModelError, match="at most 1 errors"):
        mqm.submit_scored(None, spans)
    with pytest.raises(ModelError, match="no score"):
        mqm.submit_scored(10, ())
    j = mqm.submit_scored(None, (ErrorSpan(0, 1, "Major", "Accuracy/Mistranslation"),))
    apply_judgment(project, j)
    assert (j.protocol, j.score, j.errors[0].category) == ("mqm", None, "Accuracy/Mistranslation")
    assert mqm.done == 1 and mqm.position == 1
