"""Work packages: split a campaign, add work to every package, merge it back exactly."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtworkbench.core.campaign import (
    CampaignError,
    campaign_progress,
    content_key,
    make_package,
    merge_package,
    parse_overlap,
)
from mtworkbench.core.campaign_plan import plan_campaign
from mtworkbench.core.model import (
    MUC7_TYPES,
    Document,
    EntitySpan,
    Judgment,
    ModelError,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.io.bundle.bundle import dumps, loads


def small_project(n_docs: int = 2, n_segs: int = 3, n_refs: int = 2, n_systems: int = 2) -> Project:
    documents = []
    seg_ids = []
    for d in range(n_docs):
        segs = [Segment(f"d{d}s{k}", f"lähtetekst {d} {k} sõnad") for k in range(n_segs)]
        seg_ids += [s.id for s in segs]
        documents.append(Document(f"d{d}", [Paragraph(f"d{d}p0", segs)]))
    project = Project(documents, source_language="et", target_language="en", name="small")
    for r in range(n_refs):
        # The last reference lacks the first segment: references may be partial.
        texts = {sid: f"reference {r} of {sid} with words" for k, sid in enumerate(seg_ids) if r == 0 or k > 0}
        project.add_reference(Reference(f"ref{r}", f"translator {r}", texts))
    for s in range(n_systems):
        project.add_system(System(f"sys{s}", "machine", {sid: f"system {s} says {sid}" for sid in seg_ids}))
    return project


def roundtrip(project: Project) -> Project:
    """Through the bundle format, as a package travels."""
    return loads(dumps(project))


def test_plan_is_deterministic_and_covers_every_item_with_overlap():
    project = small_project()
    a = plan_campaign(project, "annotator", ["alice", "bob", "carol"], overlap=0.3, seed=7)
    b = plan_campaign(project, "annotator", ["alice", "bob", "carol"], overlap=0.3, seed=7)
    c = plan_campaign(project, "annotator", ["alice", "bob", "carol"], overlap=0.3, seed=8)
    assert a == b
    assert a.id != c.id
    expected = {(sid, ref.id) for ref in project.references for sid in ref.texts}
    assert {(it.segment, it.reference) for it in a.items} == expected
    shared = [it for it in a.items if len(it.people) == 2]
    assert len(shared) == round(0.3 * len(expected))
    assert all(len(it.people) in (1, 2) for it in a.items)
    # Every person gets work; loads differ by the shared items at most.
    loads_ = Counter(p for it in a.items for p in it.people)
    assert set(loads_) == {"alice", "bob", "carol"}
    assert max(loads_.values()) - min(loads_.values()) <= 2


def test_judge_items_are_system_segment_reference():
    project = small_project()
    campaign = plan_campaign(project, "judge", ["alice", "bob"], overlap=0.5, seed=1)
    assert len(campaign.items) == len(project.segments) * len(project.systems)
    for it in campaign.items:
        assert it.reference is not None and project.reference_text(it.reference, it.segment) is not None
    # The same reference for every segment of a document, when it has a text there.
    package = make_package(project, campaign, "alice")
    queue = package.judge_queues["alice"]
    assert sorted((q.system, q.segment) for q in queue.items) == sorted(
        (it.system, it.segment) for it in campaign.items_of("alice"))


def test_package_holds_only_the_persons_items_and_own_work():
    project = small_project()
    project.add_span(EntitySpan("e1", "ref0", "d0s0", 0, 9, "PERSON", "alice"))
    project.add_span(EntitySpan("e2", "ref0", "d0s0", 0, 9, "LOCATION", "bob"))
    campaign = plan_campaign(project, "annotator", ["alice", "bob"], seed=3)
    for person in ("alice", "bob"):
        package = roundtrip(make_package(project, campaign, person))
        mine = campaign.items_of(person)
        assert {s.id for s in package.segments} == {it.segment for it in mine}
        pairs = {(ref.id, sid) for ref in package.references for sid in ref.texts}
        assert pairs == {(it.reference, it.segment) for it in mine}
        assert all(s.annotator == person for s in package.spans)
        assert package.campaign.package == person
        assert package.campaign.items == campaign.items


def test_overlap_parsing():
    assert parse_overlap("10%") == pytest.approx(0.1)
    assert parse_overlap("0.25") == 0.25
    assert parse_overlap("10") == pytest.approx(0.1)
    for bad in ("ten", "150%", "-1", "101"):
        with pytest.raises(CampaignError):
            parse_overlap(bad)
    with pytest.raises(CampaignError, match="two people"):
        plan_campaign(small_project(), "judge", ["solo"], overlap=0.1)
    with pytest.raises(CampaignError, match="twice"):
        plan_campaign(small_project(), "judge", ["a", "a"])


def _add_random_work(package: Project, person: str, data) -> None:
    """Spans and judgments through the model's mutators, as the GUI or a script would."""
    for _ in range(data.draw(st.integers(0, 4), label="n spans")):
        ref = data.draw(st.sampled_from([r.id for r in package.references]))
        texts = package.reference(ref).texts
        if not texts:
            continue
        seg = data.draw(st.sampled_from(sorted(texts)))
        n = len(texts[seg])
        start = data.draw(st.integers(0, n - 1))
        end = data.draw(st.integers(start + 1, n))
        span = EntitySpan(package.new_id("e"), ref, seg, start, end, data.draw(st.sampled_from(MUC7_TYPES)), person)
        try:
            package.add_span(span)
        except ModelError:  # overlaps one of this annotator's spans: the editor would refuse it too
            pass
    if not package.systems:
        return
    if person not in package.judges:
        package.add_judge(person)
    for _ in range(data.draw(st.integers(0, 4), label="n judgments")):
        if package.judgments and data.draw(st.booleans(), label="same again"):
            # Equal values twice (a repeat rated alike): two judgments, both must come back.
            package.add_judgment(replace(package.judgments[-1], id=package.new_id("j")))
            continue
        # A package carries work on its person's items only (anything else is refused at merge).
        item = data.draw(st.sampled_from(package.campaign.items_of(person)))
        package.add_judgment(Judgment(
            package.new_id("j"), person, item.system, item.segment,
            reference=data.draw(st.sampled_from([None, *[r.id for r in package.references]])),
            adequacy=data.draw(st.integers(1, 5)), fluency=data.draw(st.integers(1, 5)),
            timestamp="2026-01-01T00:00:00Z", seconds=data.draw(st.floats(0, 100, allow_nan=False)),
            comment=data.draw(st.text(max_size=5)),
        ))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    by=st.sampled_from(["annotator", "judge"]),
    n_people=st.integers(1, 3),
    overlap=st.sampled_from([0.0, 0.1, 0.5, 1.0]),
    seed=st.integers(0, 1000),
    shape=st.tuples(st.integers(1, 2), st.integers(1, 3), st.integers(1, 2), st.integers(1, 2)),
    data=st.data(),
)
def test_split_then_merge_gives_back_every_span_and_judgment(by, n_people, overlap, seed, shape, data):
    project = small_project(*shape)
    people = ["alice", "bob", "carol"][:n_people]
    if n_people == 1:
        overlap = 0.0
    campaign = plan_campaign(project, by, people, overlap, seed)
    packages = []
    for person in people:
        package = roundtrip(make_package(project, campaign, person))
        _add_random_work(package, person, data)
        packages.append((person, roundtrip(package)))
    expected_spans = Counter(content_key(s) for s in project.spans)
    expected_judgments = Counter(content_key(j) for j in project.judgments)
    for _, package in packages:
        expected_spans.update(content_key(s) for s in package.spans)
        expected_judgments.update(content_key(j) for j in package.judgments)

    merged = roundtrip(project)
    for k, (person, package) in enumerate(packages):
        report = merge_package(merged, package, f"{person}.mtwb.json", sha256=f"sha{k}")
        assert not report.conflicts
    merged = roundtrip(merged)
    assert Counter(content_key(s) for s in merged.spans) == expected_spans
    assert Counter(content_key(j) for j in merged.judgments) == expected_judgments
    # Provenance: every merged id is recorded with its package and person.
    recorded = {i: m.person for m in merged.campaign.merges for i in m.spans + m.judgments}
    assert len(recorded) == len(merged.spans) + len(merged.judgments)
    for span in merged.spans:
        assert recorded[span.id] == span.annotator
    # Merging every package again changes nothing.
    before = dumps(merged)
    for k, (person, package) in enumerate(packages):
        assert merge_package(merged, package, f"{person}.mtwb.json", sha256=f"sha{k}").already_merged
    assert dumps(merged) == before


def test_edits_and_deletions_of_earlier_work_are_applied():
    project = small_project(1, 3, 1, 1)
    project.add_span(EntitySpan("e1", "ref0", "d0s0", 0, 9, "PERSON", "alice"))
    project.add_span(EntitySpan("e2", "ref0", "d0s1", 0, 9, "PERSON", "alice"))
    campaign = plan_campaign(project, "annotator", ["alice"], seed=0)
    package = roundtrip(make_package(project, campaign, "alice"))
    package.set_span_type("e1", "LOCATION")
    package.remove_span("e2")
    merged = roundtrip(project)
    report = merge_package(merged, roundtrip(package), "alice.mtwb.json", "x")
    assert (report.changed_spans, report.removed_spans, report.conflicts) == (1, 1, [])
    assert [(s.id, s.type) for s in merged.spans] == [("e1", "LOCATION")]
    assert merged.campaign.merges[0].removed_spans == ["e2"]


def test_the_same_span_changed_in_the_package_and_the_project_is_a_listed_conflict():
    project = small_project(1, 2, 1, 1)
    campaign = plan_campaign(project, "annotator", ["alice", "bob"], overlap=1.0, seed=0)
    a = roundtrip(make_package(project, campaign, "alice"))
    a.add_span(EntitySpan("e1", "ref0", "d0s0", 0, 9, "LOCATION", "alice"))
    merged = roundtrip(project)
    assert not merge_package(merged, a, "alice.mtwb.json", "1").conflicts
    # The team retypes alice's span in the project; alice retypes it too and sends her package again.
    kept = next(s for s in merged.spans if s.annotator == "alice")
    merged.remove_span(kept.id)
    merged.add_span(replace(kept, type="PERSON"))
    a.remove_span("e1")
    a.add_span(EntitySpan("e1", "ref0", "d0s0", 0, 9, "ORGANIZATION", "alice"))
    a.add_span(EntitySpan("e2", "ref0", "d0s1", 0, 9, "DATE", "alice"))
    report = merge_package(merged, roundtrip(a), "alice-again.mtwb.json", "2")
    assert len(report.conflicts) == 1 and report.added_spans == 1
    conflict = merged.campaign.conflicts[0]
    assert conflict.theirs["type"] == "ORGANIZATION" and conflict.kept["type"] == "PERSON"
    assert conflict.package == "alice-again.mtwb.json"
    # The conflict survives saving, so the other version is never lost.
    again = roundtrip(merged)
    assert again.campaign.conflicts[0].theirs == conflict.theirs


def test_foreign_and_changed_packages_are_refused():
    project = small_project()
    campaign = plan_campaign(project, "judge", ["alice", "bob"], seed=1)
    other = plan_campaign(project, "judge", ["alice", "bob"], seed=2)
    merged = roundtrip(project)
    merge_package(merged, make_package(project, campaign, "alice"), "alice.mtwb.json", "1")
    with pytest.raises(CampaignError, match=r"bob\.mtwb\.json: belongs to campaign"):
        merge_package(merged, make_package(project, other, "bob"), "bob.mtwb.json", "2")
    changed = roundtrip(make_package(project, campaign, "bob"))
    seg = changed.segments[0].id
    changed.set_system_text(changed.systems[0].id, seg, "edited")
    with pytest.raises(CampaignError, match=rf"bob\.mtwb\.json: the text of system .* in segment '{seg}'"):
        merge_package(merged, changed, "bob.mtwb.json", "3")
    with pytest.raises(CampaignError, match="not a work package"):
        merge_package(merged, roundtrip(project), "plain.mtwb.json", "4")
    # A refused package leaves a project without a campaign as it was.
    untouched = roundtrip(project)
    with pytest.raises(CampaignError, match="differs"):
        merge_package(untouched, changed, "bob.mtwb.json", "5")
    assert untouched.campaign is None


def test_progress_per_person_and_protocol():
    project = small_project(1, 2, 1, 1)
    campaign = plan_campaign(project, "judge", ["alice", "bob"], seed=0)
    project.campaign = campaign
    item = campaign.items_of("alice")[0]
    project.add_judge("alice")
    project.add_judgment(Judgment("j1", "alice", item.system, item.segment, item.reference, 4, 3))
    project.add_judgment(Judgment("j2", "alice", item.system, item.segment, None, score=0.5, scale="da"))
    rows = {(r.person, r.protocol): (r.done, r.assigned) for r in campaign_progress(project)}
    assert rows[("alice", "ldc")] == (1, len(campaign.items_of("alice")))
    assert rows[("alice", "da")][0] == 1
    assert rows[("bob", "ldc")] == (0, len(campaign.items_of("bob")))


def test_judge_package_queue_resumes_and_its_judgments_merge():
    from mtworkbench.core.judging import JudgeSession, apply_judgment

    project = small_project(1, 3, 1, 2)
    campaign = plan_campaign(project, "judge", ["alice", "bob"], overlap=0.5, seed=4)
    package = roundtrip(make_package(project, campaign, "alice"))
    session = JudgeSession(package, "alice")
    assert session.total == len(campaign.items_of("alice"))
    item = session.current
    judgment = session.submit(4, 2)
    apply_judgment(package, judgment)
    assert (judgment.system, judgment.segment, judgment.reference) == (item.system, item.segment, item.reference)
    merged = roundtrip(project)
    report = merge_package(merged, roundtrip(package), "alice.mtwb.json", "1")
    assert report.added_judgments == 1
    rows = {r.person: r.done for r in campaign_progress(merged)}
    assert rows == {"alice": 1, "bob": 0}


def test_a_package_sent_again_after_more_work_merges_as_edits():
    project = small_project(1, 3, 1, 2)
    campaign = plan_campaign(project, "annotator", ["alice", "bob"], seed=0)
    package = roundtrip(make_package(project, campaign, "alice"))
    item = campaign.items_of("alice")[0]
    package.add_span(EntitySpan("e1", item.reference, item.segment, 0, 9, "PERSON", "alice"))
    merged = roundtrip(project)
    merge_package(merged, roundtrip(package), "alice.mtwb.json", "v1")
    # alice keeps working on the same file: she retypes her entity and adds another.
    package.set_span_type("e1", "DATE")
    package.add_span(EntitySpan("e2", item.reference, item.segment, 10, 12, "MONEY", "alice"))
    report = merge_package(merged, roundtrip(package), "alice.mtwb.json", "v2")
    assert (report.changed_spans, report.added_spans, report.conflicts) == (1, 1, [])
    assert sorted(s.type for s in merged.spans) == ["DATE", "MONEY"]
    # ... and deletes the first one.
    package.remove_span("e1")
    report = merge_package(roundtrip(merged), roundtrip(package), "alice.mtwb.json", "v3")
    merged = roundtrip(merged)
    report = merge_package(merged, roundtrip(package), "alice.mtwb.json", "v3")
    assert (report.removed_spans, report.conflicts) == (1, [])
    assert [s.type for s in merged.spans] == ["MONEY"]


def test_items_marked_done_without_work_count_and_merge():
    from mtworkbench.core.campaign import set_item_done

    project = small_project(1, 3, 1, 1)
    campaign = plan_campaign(project, "annotator", ["alice", "bob"], seed=0)
    package = roundtrip(make_package(project, campaign, "alice"))
    first, second = package.campaign.items_of("alice")[:2]
    assert set_item_done(package, "alice", first.id, True) is False
    assert set_item_done(package, "alice", first.id, True) is True
    with pytest.raises(CampaignError, match="not assigned"):
        set_item_done(package, "alice", next(i.id for i in campaign.items if "alice" not in i.people), True)
    package = roundtrip(package)
    assert [r.done for r in campaign_progress(package)] == [1]
    merged = roundtrip(project)
    report = merge_package(merged, package, "alice.mtwb.json", "1")
    assert report.done_marks == 1
    rows = {r.person: r.done for r in campaign_progress(roundtrip(merged))}
    assert rows == {"alice": 1, "bob": 0}
    # Unmarking in the package and sending it again unmarks in the project.
    set_item_done(package, "alice", first.id, False)
    set_item_done(package, "alice", second.id, True)
    merge_package(merged, roundtrip(package), "alice.mtwb.json", "2")
    assert merged.campaign.done == {"alice": [second.id]}


def test_mqm_and_esa_judgments_with_error_spans_merge_exactly():
    from mtworkbench.core import model

    if not hasattr(model, "ErrorSpan"):
        pytest.skip("this model has no error spans (bundle format 2 brings them)")
    project = small_project(1, 2, 1, 2)
    campaign = plan_campaign(project, "judge", ["alice", "bob"], overlap=1.0, seed=2, protocol="mqm")
    packages = {p: roundtrip(make_package(project, campaign, p)) for p in ("alice", "bob")}
    for person, package in packages.items():
        item = package.campaign.items_of(person)[0]
        text = package.system_text(item.system, item.segment)
        package.add_judgment(Judgment(
            package.new_id("j"), person, item.system, item.segment, item.reference, score=-5.0, scale="mqm",
            protocol="mqm", errors=(model.ErrorSpan(0, 3, "Major", "Accuracy/Mistranslation", "x"),
                                    model.ErrorSpan(None, None, "Minor", "Fluency/Grammar")),
            timestamp="2026-11-24T06:00:00Z"))
        package.add_judgment(Judgment(
            package.new_id("j"), person, item.system, item.segment, item.reference, score=71.0, scale="esa",
            protocol="esa", errors=(model.ErrorSpan(1, len(text), "minor"),)))
    merged = roundtrip(project)
    for k, (person, package) in enumerate(packages.items()):
        assert not merge_package(merged, roundtrip(package), f"{person}.mtwb.json", str(k)).conflicts
    merged = roundtrip(merged)
    expected = Counter(content_key(j) for p in packages.values() for j in p.judgments)
    assert Counter(content_key(j) for j in merged.judgments) == expected
    rows = {(r.person, r.protocol): r.done for r in campaign_progress(merged)}
    assert rows[("alice", "mqm")] == 1 and rows[("alice", "esa")] == 1
