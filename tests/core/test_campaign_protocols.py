"""Judge campaigns carry their protocol (DA, ESA, MQM) and BAD items through split and merge."""

from __future__ import annotations

from collections import Counter

import pytest

from mtworkbench.analysis.quality_control import quality_control
from mtworkbench.core.campaign import CampaignError, campaign_progress, content_key, make_package, merge_package
from mtworkbench.core.campaign_plan import plan_campaign
from mtworkbench.core.judging import JudgeSession, apply_judgment
from tests.core.test_campaign import roundtrip, small_project


@pytest.mark.parametrize("protocol", ["ldc", "da", "esa", "mqm"])
def test_a_package_queue_has_the_campaigns_protocol(protocol):
    project = small_project(2, 4, 1, 2)
    campaign = plan_campaign(project, "judge", ["alice", "bob"], seed=1, protocol=protocol)
    package = roundtrip(make_package(project, campaign, "alice"))
    state = package.judge_queues["alice"]
    assert state.protocol == protocol and not any(e.qc for e in state.items)
    assert [(e.system, e.segment) for e in state.items] == [
        (e.system, e.segment) for e in make_package(project, campaign, "alice").judge_queues["alice"].items]


def test_an_ldc_campaign_keeps_its_id_and_queue_bytes():
    project = small_project()
    campaign = plan_campaign(project, "judge", ["alice"], seed=3)
    assert campaign.bad_rate == 0.0
    written = make_package(project, campaign, "alice").judge_queues["alice"].to_json()
    assert "protocol" not in written and "bad_rate" not in written
    assert campaign.id != plan_campaign(project, "judge", ["alice"], seed=3, protocol="da", bad_rate=0.2).id


def test_bad_items_are_only_for_da_and_esa_campaigns():
    project = small_project()
    for protocol in ("ldc", "mqm", None):
        with pytest.raises(CampaignError, match="BAD items are for judging campaigns in da or esa"):
            plan_campaign(project, "judge", ["alice"], protocol=protocol, bad_rate=0.1)
    with pytest.raises(CampaignError, match="between 0 and 1"):
        plan_campaign(project, "judge", ["alice"], protocol="da", bad_rate=2)


def _work(package, person: str, careful: bool) -> None:
    session = JudgeSession(package, person)
    while not session.finished:
        item = session.current
        score = (10.0 + len(item.segment) if item.qc else 80.0 + len(item.segment)) if careful else 50.0
        apply_judgment(package, session.submit_scored(score))


def test_split_rate_and_merge_a_da_campaign_with_bad_items():
    project = small_project(4, 5, 1, 2)  # 40 items; 5+ BAD each, as the exact test needs for p < 0.05
    campaign = plan_campaign(project, "judge", ["alice", "bob"], overlap=0.2, seed=4, protocol="da", bad_rate=0.25)
    packages = {}
    for person in ("alice", "bob"):
        package = roundtrip(make_package(project, campaign, person))
        assert package.campaign.bad_rate == 0.25 and package.campaign.protocol == "da"
        state = package.judge_queues[person]
        mine = campaign.items_of(person)
        bad = [e for e in state.items if e.qc == "bad"]
        assert state.protocol == "da" and len(bad) == round(0.25 * len(mine)) and len(state.items) == len(mine) + len(bad)
        assert all(e.text != package.system_text(e.system, e.segment) for e in bad)
        # Reproducible: the same campaign gives the same package queue.
        assert make_package(project, campaign, person).judge_queues[person] == state
        _work(package, person, careful=person == "alice")
        packages[person] = roundtrip(package)
    merged = roundtrip(project)
    for k, (person, package) in enumerate(packages.items()):
        report = merge_package(merged, package, f"{person}.mtwb.json", str(k))
        assert not report.conflicts
    merged = roundtrip(merged)
    expected = Counter(content_key(j) for p in packages.values() for j in p.judgments)
    assert Counter(content_key(j) for j in merged.judgments) == expected
    assert all(j.protocol == "da" for j in merged.judgments)
    assert merged.campaign.bad_rate == 0.25
    # BAD ratings do not make an item done; the originals do.
    rows = {(r.person, r.protocol): (r.done, r.assigned) for r in campaign_progress(merged)}
    assert rows[("alice", "da")] == (len(campaign.items_of("alice")),) * 2
    checks = {c.rater: c for c in quality_control(merged.judgments)}
    assert checks["alice"].passed is True and checks["bob"].passed is False
    assert checks["alice"].n_pairs == round(0.25 * len(campaign.items_of("alice")))
    # Merging a package again changes nothing.
    assert merge_package(merged, packages["alice"], "alice.mtwb.json", "0").already_merged


def test_a_bad_rating_does_not_count_as_the_item_done():
    project = small_project(1, 4, 1, 1)
    campaign = plan_campaign(project, "judge", ["alice"], seed=2, protocol="esa", bad_rate=0.5)
    package = make_package(project, campaign, "alice")
    session = JudgeSession(package, "alice")
    index = next(i for i, e in enumerate(session.state.items) if e.qc)
    session.go_to(index)
    apply_judgment(package, session.submit_scored(5.0))
    [row] = [r for r in campaign_progress(package) if r.protocol == "esa"]
    assert (row.done, row.assigned) == (0, 4)
