"""Relative ranking: the queue (systems grouped per segment, shown in a recorded random
order), rankings stored as judgments, undo/replace, and the keyboard entry."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from mtworkbench.core.errors import BundleError
from mtworkbench.core.judging import JudgeSession, QueueConfig, build_queue
from mtworkbench.core.model import Judgment, ModelError
from mtworkbench.core.queue_state import JudgeQueue
from mtworkbench.core.ranking import (
    RankEntry,
    RankingSession,
    apply_ranking,
    rankings_of,
    revert_ranking,
    split_evenly,
)
from tests.core.test_judging import fixed_clock, make_project

SEVEN = ("A", "B", "C", "D", "E", "F", "G")


def test_split_evenly_uses_fewest_groups_of_nearly_equal_size():
    assert [len(g) for g in split_evenly(list("abcdefg"), 5)] == [4, 3]
    assert [len(g) for g in split_evenly(list("abcdef"), 5)] == [3, 3]
    assert [len(g) for g in split_evenly(list("abcde"), 5)] == [5]
    assert [x for g in split_evenly(list("abcdefghijk"), 3) for x in g] == list("abcdefghijk")


def test_queue_groups_every_segments_systems_in_a_seeded_order():
    project = make_project(systems=SEVEN)
    state = build_queue(project, "ann", QueueConfig(seed=4, protocol="rank", repeat_share=0))
    assert state.protocol == "rank" and state.max_systems == 5
    # 7 systems a segment -> groups of 4 and 3; every system ranked once on every segment.
    assert len(state.items) == 2 * len(project.segment_ids)
    for segment in project.segment_ids:
        groups = [it.systems for it in state.items if it.segment == segment]
        assert sorted(len(g) for g in groups) == [3, 4]
        assert sorted(x for g in groups for x in g) == list(SEVEN)
    for it in state.items:
        assert it.system == it.systems[0] and len(set(it.systems)) == len(it.systems)
    # The display order is drawn, not the project's order, and differs between segments.
    orders = {tuple(it.systems) for it in state.items}
    assert len(orders) > 3
    # Reproducible from (seed, judge): same seed same screens, another judge other screens.
    again = build_queue(project, "ann", QueueConfig(seed=4, protocol="rank", repeat_share=0))
    assert again == state
    other = build_queue(project, "bob", QueueConfig(seed=4, protocol="rank", repeat_share=0))
    assert [it.systems for it in other.items] != [it.systems for it in state.items]


def test_max_systems_is_configurable_and_checked():
    project = make_project(systems=SEVEN)
    state = build_queue(project, "ann", QueueConfig(seed=1, protocol="rank", max_systems=3, repeat_share=0))
    assert max(len(it.systems) for it in state.items) == 3
    assert Counter(len(it.systems) for it in state.items) == Counter({3: 12, 2: 24})  # 7 = 3 + 2 + 2
    with pytest.raises(ModelError, match="at least 2 systems side by side"):
        build_queue(project, "ann", QueueConfig(protocol="rank", max_systems=1))
    with pytest.raises(ModelError, match="at least 2 systems"):
        build_queue(make_project(systems=("A",)), "ann", QueueConfig(protocol="rank"))


def test_repeats_show_the_same_systems_in_the_same_order_later():
    project = make_project(systems=("A", "B", "C"))
    state = build_queue(project, "ann", QueueConfig(seed=2, protocol="rank", repeat_share=0.25, min_repeat_gap=2))
    originals = [it for it in state.items if not it.repeat]
    repeats = [(i, it) for i, it in enumerate(state.items) if it.repeat]
    assert len(originals) == 12 and len(repeats) == 3
    for i, rep in repeats:
        first = next(k for k, it in enumerate(state.items) if not it.repeat and it.segment == rep.segment)
        assert state.items[first].systems == rep.systems and state.items[first].reference == rep.reference
        assert i > first


def test_rank_queue_round_trips_through_json_and_bundle(tmp_path):
    from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

    project = make_project(systems=SEVEN)
    session = RankingSession.start(project, "ann", QueueConfig(seed=5, protocol="rank", max_systems=4))
    raw = json.loads(json.dumps(session.state.to_json()))
    assert raw["protocol"] == "rank" and raw["max_systems"] == 4 and "systems" in raw["items"][0]
    assert JudgeQueue.from_json(raw) == session.state
    ranking = session.submit_ranking([1] * len(session.current_ranking.systems))
    apply_ranking(project, ranking)
    path = tmp_path / "r.mtwb.json"
    save_bundle(project, path)
    loaded = load_bundle(path)
    assert loaded.judge_queues["ann"] == project.judge_queues["ann"]
    again = RankingSession(loaded, "ann")
    assert again.done == 1 and again.stored_ranking(0).ranks == ranking.ranks


def test_ldc_queue_items_stay_without_a_systems_field():
    project = make_project()
    raw = JudgeSession.start(project, "ann", QueueConfig(seed=1)).state.to_json()
    assert all("systems" not in item for item in raw["items"]) and "max_systems" not in raw


def test_malformed_ranking_queues_are_named_by_json_path():
    project = make_project(systems=SEVEN)
    raw = RankingSession.start(project, "ann", QueueConfig(protocol="rank")).state.to_json()
    bad = json.loads(json.dumps(raw))
    bad["items"][0]["systems"] = ["A"]
    with pytest.raises(BundleError, match=r"\$\.items\[0\]\.systems"):
        JudgeQueue.from_json(bad)
    bad = json.loads(json.dumps(raw))
    del bad["items"][1]["systems"]
    with pytest.raises(BundleError, match=r"\$\.items\[1\]\.systems"):
        JudgeQueue.from_json(bad)
    with pytest.raises(BundleError, match=r"\$\.max_systems"):
        JudgeQueue.from_json({**raw, "max_systems": 1})


def test_submitting_a_ranking_stores_one_rank_judgment_per_system_with_ties():
    project = make_project(systems=("A", "B", "C"))
    session = RankingSession.start(project, "ann", QueueConfig(seed=3, protocol="rank", repeat_share=0),
                                   clock=fixed_clock)
    item = session.current_ranking
    assert item.ranking is None and len(item.systems) == 3
    assert item.candidates == tuple(project.system_text(s, item.segment) for s in item.systems)
    ranking = session.submit_ranking([2, 1, 2], comment="close call", seconds=12.5)
    assert session.position == 1 and session.done == 0  # done once applied
    apply_ranking(project, ranking)
    assert session.done == 1
    stored = [j for j in project.judgments if j.ranking == ranking.id]
    assert sorted((j.system, j.score) for j in stored) == sorted(zip(item.systems, (2.0, 1.0, 2.0)))
    for j in stored:
        assert (j.protocol, j.scale, j.judge, j.segment, j.reference, j.comment, j.seconds) == (
            "rank", "rank", "ann", item.segment, item.reference, "close call", 12.5)
    assert rankings_of(project, {ranking.id: item.systems})[0].ranks == (2, 1, 2)
    with pytest.raises(ModelError, match="needs 3 ranks"):
        session.submit_ranking([1, 2])
    with pytest.raises(ModelError, match="from 1 to 5"):
        session.submit_ranking([1, 6, 2])
    with pytest.raises(ModelError, match="ranking queue"):
        session.submit_scored(50)


def test_changing_a_ranking_replaces_it_and_undo_restores_the_old_one():
    project = make_project(systems=("A", "B", "C"))
    session = RankingSession.start(project, "ann", QueueConfig(seed=3, protocol="rank", repeat_share=0),
                                   clock=fixed_clock)
    first = session.submit_ranking([1, 2, 3], seconds=4)
    apply_ranking(project, first)
    session.back()
    assert session.current_ranking.ranking.ranks == (1, 2, 3)
    second = session.submit_ranking([3, 3, 1], seconds=2)
    assert second.id == first.id and second.judgment_ids == first.judgment_ids and second.seconds == 6
    replaced = apply_ranking(project, second)
    assert len(replaced) == 3 and project.judgment_count == 3
    assert session.stored_ranking(0).ranks == (3, 3, 1)
    revert_ranking(project, second, replaced)
    assert session.stored_ranking(0).ranks == (1, 2, 3)
    revert_ranking(project, first, [])
    assert project.judgment_count == 0 and session.stored_ranking(0) is None and session.done == 0


def test_a_ranking_with_a_judgment_removed_is_not_done():
    project = make_project(systems=("A", "B"))
    session = RankingSession.start(project, "ann", QueueConfig(seed=3, protocol="rank", repeat_share=0))
    ranking = session.submit_ranking([1, 2])
    apply_ranking(project, ranking)
    project.remove_judgment(ranking.judgment_ids[1])
    assert session.stored_ranking(0) is None and session.done == 0


def test_model_refuses_malformed_ranking_judgments():
    project = make_project(systems=("A", "B"))
    seg = project.segment_ids[0]
    with pytest.raises(ModelError, match="whole number from 1 to 5"):
        project.add_judgment(Judgment("x", "ann", "A", seg, score=2.5, scale="rank", protocol="rank", ranking="r1"))
    with pytest.raises(ModelError, match="protocol is 'da'"):
        project.add_judgment(Judgment("x", "ann", "A", seg, score=2, scale="da", protocol="da", ranking="r1"))


def test_rank_entry_keys_focus_rank_and_allow_ties():
    entry = RankEntry.for_item(3)
    assert entry.focus == 0 and not entry.complete and entry.missing == 3
    entry.press(2)  # candidate 1 -> 2, focus moves on
    assert entry.ranks == [2, None, None] and entry.focus == 1
    entry.press(2)  # a tie
    assert entry.ranks == [2, 2, None] and entry.focus == 2
    entry.move(-1)
    entry.press(1)  # re-rank candidate 2; focus goes to the one still missing
    assert entry.ranks == [2, 1, None] and entry.focus == 2
    entry.press(5)
    assert entry.complete and entry.ranks == [2, 1, 5]
    entry.move(1)
    assert entry.focus == 0  # wraps round
    with pytest.raises(ModelError):
        entry.press(6)
