"""BAD items in judge queues: how many, where, seeded; what the rater sees and what
the judgment records; the JSON round trip; and the QC test on a real queue's work."""

from __future__ import annotations

import json
import os
import zlib
from collections import Counter

import pytest

from mtworkbench.analysis.human_scores import select_judgments
from mtworkbench.analysis.quality_control import quality_control
from mtworkbench.core.errors import BundleError
from mtworkbench.core.judging import JudgeSession, QueueConfig, apply_judgment, build_queue
from mtworkbench.core.model import Document, Judgment, ModelError, Paragraph, Project, Reference, Segment, System
from mtworkbench.core.quality_control import units
from mtworkbench.core.queue_state import JudgeQueue
from tests.core.test_judging import fixed_clock, make_project

DA_BAD = QueueConfig(seed=5, protocol="da", repeat_share=0.1, min_repeat_gap=3, bad_rate=0.25)


def bad_indices(state: JudgeQueue) -> list[int]:
    return [i for i, e in enumerate(state.items) if e.qc]


def test_rate_counts_distinct_items_and_repeats_are_never_degraded():
    project = make_project()  # 2 systems x 12 segments = 24 distinct items
    state = build_queue(project, "ann", DA_BAD)
    bad = [state.items[i] for i in bad_indices(state)]
    assert len(bad) == round(0.25 * 24)
    assert sum(e.repeat for e in state.items) == round(0.1 * 24)
    assert len(state.items) == 24 + 2 + 6
    assert all(e.qc == "bad" and not e.repeat and e.judgment is None for e in bad)
    originals = Counter((e.system, e.segment) for e in state.items if not e.repeat and not e.qc)
    assert originals == Counter((s, g) for s in ("A", "B") for g in project.segment_ids)


def test_each_bad_item_comes_after_its_original_with_the_gap_and_shows_a_degraded_text():
    project = make_project()
    state = build_queue(project, "ann", DA_BAD)
    first = {(e.system, e.segment): i for i, e in reversed(list(enumerate(state.items))) if not e.qc}
    for i in bad_indices(state):
        e = state.items[i]
        f = first[(e.system, e.segment)]
        between = sum(not x.qc for x in state.items[f + 1:i])
        after = sum(not x.qc for x in state.items[f + 1:])
        assert i > f and between >= min(DA_BAD.min_repeat_gap, after)
        original = project.system_text(e.system, e.segment)
        assert e.text is not None and e.text != original
        # The stretch comes from another segment: never another system's translation of this one.
        assert e.text not in {project.system_text(s.id, e.segment) for s in project.systems}


def test_bad_items_are_reproducible_from_seed_and_judge():
    project = make_project()
    a = build_queue(project, "ann", DA_BAD)
    assert a == build_queue(project, "ann", DA_BAD)
    texts = [(i, e.text) for i, e in enumerate(a.items) if e.qc]
    assert texts != [(i, e.text) for i, e in enumerate(build_queue(project, "bob", DA_BAD).items) if e.qc]
    other_seed = build_queue(project, "ann", QueueConfig(**{**DA_BAD.__dict__, "seed": 6}))
    assert texts != [(i, e.text) for i, e in enumerate(other_seed.items) if e.qc]
    # Without BAD items the queue is exactly the one earlier versions drew.
    plain = QueueConfig(**{**DA_BAD.__dict__, "bad_rate": 0.0})
    assert [e for e in a.items if not e.qc] == build_queue(project, "ann", plain).items


def test_only_da_and_esa_queues_take_bad_items():
    project = make_project()
    assert bad_indices(build_queue(project, "ann", QueueConfig(protocol="esa", bad_rate=0.2)))
    for protocol in ("ldc", "mqm"):
        with pytest.raises(ModelError, match="BAD items are for DA and ESA"):
            build_queue(project, "ann", QueueConfig(protocol=protocol, bad_rate=0.2))
    with pytest.raises(ModelError, match="between 0 and 1"):
        build_queue(project, "ann", QueueConfig(protocol="da", bad_rate=1.5))


def test_the_rater_sees_the_degraded_text_and_the_judgment_records_it():
    project = make_project()
    session = JudgeSession.start(project, "ann", DA_BAD, clock=fixed_clock)
    i = bad_indices(session.state)[0]
    raw = session.state.items[i]
    session.go_to(i)
    item = session.current
    assert item is not None and item.candidate == raw.text and item.qc == "bad"
    j = session.submit_scored(12)
    apply_judgment(project, j)
    assert (j.qc, j.text, j.score, j.protocol) == ("bad", raw.text, 12.0, "da")
    assert session.stored_judgment(i) == j
    # The original of the same (system, segment) is not taken as rated by the BAD item's judgment.
    k = next(n for n, e in enumerate(session.state.items)
             if (e.system, e.segment) == (raw.system, raw.segment) and not e.qc and not e.repeat)
    assert session.stored_judgment(k) is None


def test_queue_json_records_bad_items_and_round_trips(tmp_path):
    project = make_project()
    state = build_queue(project, "ann", DA_BAD)
    written = state.to_json()
    assert written["bad_rate"] == 0.25
    assert [e.get("qc") for e in written["items"]].count("bad") == 6
    assert all(set(e) == {"system", "segment", "reference", "repeat", "judgment"}
               for e in written["items"] if "qc" not in e)  # ordinary items are written as before
    assert JudgeQueue.from_json(json.loads(json.dumps(written))) == state
    assert "bad_rate" not in build_queue(project, "ann", QueueConfig(protocol="da")).to_json()
    bad = next(e for e in written["items"] if "qc" in e)
    with pytest.raises(BundleError, match=r"items\[\d+\]\.text"):
        JudgeQueue.from_json({**written, "items": [{**bad, "text": None}]})
    with pytest.raises(BundleError, match=r"items\[0\]\.qc"):
        JudgeQueue.from_json({**written, "items": [{**bad, "qc": "good"}]})
    with pytest.raises(BundleError, match=r"\$\.bad_rate"):
        JudgeQueue.from_json({**written, "bad_rate": 2})

    from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

    session = JudgeSession.start(project, "ann", DA_BAD, clock=fixed_clock)
    for _ in range(session.total):
        apply_judgment(project, session.submit_scored(10 if session.current.qc else 80))
    path = tmp_path / "bad.mtwb.json"
    save_bundle(project, path)
    loaded = load_bundle(path)
    assert loaded.judge_queues["ann"] == project.judge_queues["ann"]
    assert sorted(loaded.judgments, key=lambda j: j.id) == sorted(project.judgments, key=lambda j: j.id)
    assert sum(j.qc == "bad" for j in loaded.judgments) == 6
    assert JudgeSession(loaded, "ann").done == session.total


def _rate_everything(project: Project, judge: str, score) -> None:
    session = JudgeSession.start(project, judge, DA_BAD, clock=fixed_clock)
    while not session.finished:
        item = session.current
        apply_judgment(project, session.submit_scored(score(item)))


def test_a_rater_scoring_bad_items_lower_passes_and_one_who_does_not_fails():
    project = make_project(n_docs=4, per_doc=5)  # 40 items, 10 BAD each
    _rate_everything(project, "ann", lambda item: 30 + len(item.segment) if item.qc else 75 + len(item.segment))
    _rate_everything(project, "bob", lambda item: 40 + zlib.crc32(item.candidate.encode()) % 7)  # BAD or not, all alike
    # (crc32, not hash(): str hashes change with PYTHONHASHSEED, and the test must not)
    checks = {c.rater: c for c in quality_control(project.judgments)}
    assert checks["ann"].n_pairs == 10 and checks["ann"].passed is True and checks["ann"].wilcoxon_p < 0.05
    assert checks["ann"].mean_bad < checks["ann"].mean_original
    assert checks["bob"].n_pairs == 10 and checks["bob"].passed is False
    # BAD judgments are quality control only: human scores are the originals' alone.
    from mtworkbench.analysis.human_scores import parse_human_spec

    scored = select_judgments(project, parse_human_spec("all"), protocol="da")
    assert scored and not any(j.qc for j in scored)
    assert {j.score for j in scored if j.judge == "ann"} == {75.0 + len(s) for s in project.segment_ids}


def test_bad_copies_of_chinese_and_japanese_replace_characters_not_the_whole_text():
    assert [(s, e) for s, e in units("我用iPhone拍照。")] == [(0, 1), (1, 2), (2, 8), (8, 9), (9, 10), (10, 11)]
    thai = "น้ำดีมาก"
    assert [thai[s:e] for s, e in units(thai)][0] == "น้ำ"  # a cluster is never cut apart
    segs = [Segment(f"s{k}", f"source {k}") for k in range(12)]
    zh = [
        "今天天气很好我们去公园散步吧", "这个问题需要进一步研究和讨论", "他昨天晚上在图书馆看了三本书",
        "请把窗户关上因为外面很冷", "我们公司明年计划开设新的分店", "这家餐厅的菜非常好吃而且便宜",
        "東京の天気は明日も晴れるでしょう", "私は毎朝コーヒーを飲みます", "この本はとても面白かったです",
        "会議は午後三時に始まります", "彼女は日本語を勉強しています", "駅までは歩いて十分です",
    ]
    project = Project([Document("d", [Paragraph("p", segs)])],
                      references=[Reference("r", texts={s.id: t for s, t in zip(segs, zh)})],
                      systems=[System("X", texts={s.id: t for s, t in zip(segs, zh)})],
                      target_language="zh")
    project.add_judge("ann")
    state = build_queue(project, "ann", QueueConfig(seed=1, protocol="da", bad_rate=0.5, repeat_share=0))
    bad = [e for e in state.items if e.qc]
    assert len(bad) == 6
    for e in bad:
        original = project.system_text(e.system, e.segment)
        assert e.text != original
        # Characters are the units: WMT's share for 10-16 characters is 4 or 5, the rest is kept.
        prefix = len(os.path.commonprefix([original, e.text]))
        suffix = min(len(os.path.commonprefix([original[::-1], e.text[::-1]])), len(original) - prefix)
        assert 0 < len(original) - prefix - suffix <= 5


def test_esa_errors_marked_in_a_bad_copy_are_not_the_systems_errors():
    import numpy as np

    from mtworkbench.analysis.compare_systems import error_buckets
    from mtworkbench.core.model import ErrorSpan

    project = make_project()
    session = JudgeSession.start(project, "ann", QueueConfig(seed=2, protocol="esa", bad_rate=0.25), clock=fixed_clock)
    while not session.finished:
        item = session.current
        spans = (ErrorSpan(0, 1, "major"),) if item.qc else ()
        apply_judgment(project, session.submit_scored(20 if item.qc else 90, spans))
    assert sum(bool(j.errors) for j in project.judgments) == 6  # the BAD copies only
    buckets = error_buckets(project, "A", "B", np.zeros(len(project.segment_ids), dtype=int))
    assert buckets is not None and all(not b.counts for b in buckets)  # rated, no errors of the systems


def test_esa_bad_ratings_survive_the_csv_round_trip(tmp_path):
    from mtworkbench.core.model import ErrorSpan
    from mtworkbench.io.judgments.judgments import apply_import
    from mtworkbench.io.judgments.protocol_csv import plan_protocol_csv, protocol_table

    project = make_project()
    session = JudgeSession.start(project, "ann", QueueConfig(seed=2, protocol="esa", bad_rate=0.25), clock=fixed_clock)
    while not session.finished:
        item = session.current
        spans = (ErrorSpan(len(item.candidate) - 2, len(item.candidate), "major"),) if item.qc else ()
        apply_judgment(project, session.submit_scored(20 if item.qc else 90, spans))
    table = protocol_table(project, "esa")
    assert table.splitlines()[0] == "rater,system,segment,score,errors,reference,qc,text,seconds,timestamp,comment"
    path = tmp_path / "esa.csv"
    path.write_text(table, encoding="utf-8")
    fresh = make_project()
    apply_import(fresh, plan_protocol_csv(fresh, path, "esa"))

    def key(j):
        return (j.judge, j.system, j.segment, j.score, j.errors, j.qc, j.text)

    assert sorted(map(key, fresh.judgments)) == sorted(map(key, project.judgments))
    assert sum(j.qc == "bad" for j in fresh.judgments) == 6
    # Without quality-control items the ESA table keeps its old columns.
    plain = make_project()
    plain.add_judgment(Judgment("x1", "ann", "A", "d1s1", score=50.0, scale="esa", protocol="esa"))
    assert protocol_table(plain, "esa").splitlines()[0] == \
        "rater,system,segment,score,errors,reference,seconds,timestamp,comment"
