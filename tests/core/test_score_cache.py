"""The score cache: content-addressed entries, current entries dropped by the
project's change events, generations that reject results from stale inputs."""

from __future__ import annotations

import numpy as np
import pytest

from mtworkbench.core import events as ev
from mtworkbench.core.model import (
    Document,
    EntitySpan,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.core.project_input import scoring_input
from mtworkbench.core.scoring_input import MetricScore
from mtworkbench.scoring.cache import (
    ScoreCache,
    ScoreEntry,
    cache_for,
    fingerprint,
    pack_input,
)


def entry(value: float) -> ScoreEntry:
    return ScoreEntry(MetricScore("bleu", {}, "sig", value, np.array([value]), np.zeros((1, 2)), ("a", "b")))


def small_project() -> Project:
    segs = [Segment("s1", "eins"), Segment("s2", "zwei")]
    return Project(
        [Document("d", [Paragraph("p", segs)])],
        [Reference("r", texts={"s1": "one", "s2": "two"})],
        [System("A", texts={"s1": "one", "s2": "too"}), System("B", texts={"s1": "won", "s2": "two"})],
    )


def test_store_lookup_and_current():
    cache = ScoreCache()
    assert cache.lookup("A", "bleu", "fp1") is None
    assert cache.store("A", "bleu", "fp1", entry(1.0), cache.generation("A"))
    assert cache.lookup("A", "bleu", "fp1").score.corpus == 1.0
    assert cache.current("A", "bleu").score.corpus == 1.0
    assert cache.current_fingerprint("A", "bleu") == "fp1"
    assert cache.missing(["A", "B"], ["bleu", "chrf"]) == [("B", "bleu"), ("A", "chrf"), ("B", "chrf")]


def test_result_from_stale_inputs_is_kept_but_not_current():
    cache = ScoreCache()
    generation = cache.generation("A")
    cache.invalidate_system("A")  # an edit happened while the job was running
    assert not cache.store("A", "bleu", "old", entry(2.0), generation)
    assert cache.current("A", "bleu") is None
    assert cache.lookup("A", "bleu", "old") is not None  # an undo may find it again


@pytest.mark.parametrize(
    "event, a_dropped, b_dropped",
    [
        (ev.SystemChanged("A", "s1"), True, False),
        (ev.SystemRemoved(System("B")), False, True),
        (ev.SystemAdded(System("C")), False, False),
        (ev.ReferenceChanged("r", "s1"), True, True),
        (ev.SegmentChanged(Segment("s1", "x")), True, True),
        (ev.SpanAdded(EntitySpan("e", "r", "s1", 0, 1, "PERSON", "ann")), True, True),
        (ev.AnnotationsReset(), True, True),
        (ev.LearnedModelChanged(), True, True),
        (ev.JudgmentAdded(Judgment("j", "ann", "A", "s1", adequacy=3)), False, False),
        (ev.SettingsChanged("metrics"), False, False),
        (ev.JudgeQueueChanged("ann"), False, False),
    ],
)
def test_events_drop_exactly_the_affected_entries(event, a_dropped, b_dropped):
    cache = ScoreCache()
    for system in ("A", "B"):
        cache.store(system, "bleu", "fp", entry(1.0), cache.generation(system))
    cache.on_event(event)
    assert (cache.current("A", "bleu") is None) == a_dropped
    assert (cache.current("B", "bleu") is None) == b_dropped


def test_store_is_bounded_least_recently_used_first():
    cache = ScoreCache(max_entries=2)
    cache.store("A", "m", "1", entry(1.0))
    cache.store("A", "m", "2", entry(2.0))
    cache.lookup("A", "m", "1")  # touch: "2" is now the oldest
    cache.store("A", "m", "3", entry(3.0))
    assert cache.lookup("A", "m", "2") is None
    assert cache.lookup("A", "m", "1") is not None and cache.lookup("A", "m", "3") is not None


def test_project_cache_follows_edits_and_undo():
    project = small_project()
    cache = cache_for(project)
    assert cache_for(project) is cache
    fp_a = fingerprint(scoring_input(project, "A"))
    fp_b = fingerprint(scoring_input(project, "B"))
    assert fp_a != fp_b
    assert fingerprint(scoring_input(project, "A")) == fp_a  # deterministic
    cache.store("A", "bleu", fp_a, entry(1.0), cache.generation("A"))
    cache.store("B", "bleu", fp_b, entry(2.0), cache.generation("B"))

    old = project.set_system_text("A", "s2", "two")
    assert cache.current("A", "bleu") is None
    assert cache.current("B", "bleu") is not None
    assert fingerprint(scoring_input(project, "A")) != fp_a
    project.set_system_text("A", "s2", old)  # undo: the old result is found by content
    assert fingerprint(scoring_input(project, "A")) == fp_a
    assert cache.lookup("A", "bleu", fp_a).score.corpus == 1.0

    # A judgment cannot change a metric score; an entity span can (NEE reads it).
    project.add_judge("j")
    project.add_judgment(Judgment("j1", "j", "B", "s1", adequacy=3))
    assert cache.current("B", "bleu") is not None
    project.add_span(EntitySpan("e1", "r", "s1", 0, 3, "PERSON", "ann"))
    assert cache.current("B", "bleu") is None
    assert fingerprint(scoring_input(project, "B")) != fp_b


def test_pack_input_round_trips():
    import pickle

    data = scoring_input(small_project(), "B")
    blob, fp = pack_input(data)
    assert pickle.loads(blob).hypotheses == ["won", "two"]  # noqa: S301 - pickled just above
    assert fp == fingerprint(data)
