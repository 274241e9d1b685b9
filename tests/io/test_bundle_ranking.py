"""Relative-ranking judgments in a version-2 bundle: the additive ``ranking`` field
round-trips, older judgments are written without it, and malformed rankings are
refused with the JSON path of the field at fault."""

from __future__ import annotations

import copy
import json

import pytest

from mtworkbench.core.errors import BundleError
from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.ranking import RankingSession, apply_ranking, rankings_of
from mtworkbench.io.bundle.bundle import dumps, loads, project_to_dict
from tests.core.test_judging import make_project


def ranked_project():
    project = make_project(systems=("A", "B", "C"))
    session = RankingSession.start(project, "ann", QueueConfig(seed=1, protocol="rank", repeat_share=0))
    for ranks in ([1, 2, 2], [3, 1, 2]):
        apply_ranking(project, session.submit_ranking(ranks, seconds=3))
    return project


def test_rankings_round_trip_exactly_and_other_judgments_have_no_ranking_field():
    project = ranked_project()
    text = dumps(project)
    again = loads(text)
    assert dumps(again) == text
    assert sorted((r.segment, r.ranks) for r in rankings_of(again)) == sorted(
        (r.segment, r.ranks) for r in rankings_of(project))
    data = json.loads(text)
    assert all(j["ranking"] for j in data["judgments"])
    from tests.io.test_bundle_v2 import span_project

    assert not any("ranking" in j for j in project_to_dict(span_project())["judgments"])


@pytest.mark.parametrize("change, field, message", [
    (lambda j: j.update(score=7), "score", "whole number from 1 to 5"),
    (lambda j: j.update(score=1.5), "score", "whole number from 1 to 5"),
    (lambda j: j.update(score=None), "score", "whole number from 1 to 5"),
    (lambda j: j.update(protocol="da"), "protocol", "needs protocol 'rank'"),
    (lambda j: j.update(ranking=3), "ranking", "expected a string"),
    (lambda j: j.update(judge="bob"), "judge", "differs from the judge"),
    (lambda j: j.update(segment="d3s4"), "segment", "differs from the segment"),
    (lambda j: j.update(reference="r3" if j["reference"] != "r3" else "r2"), "reference", "differs from the reference"),
])
def test_malformed_ranking_judgments_name_the_field(change, field, message):
    data = json.loads(dumps(ranked_project()))
    broken = copy.deepcopy(data)
    change(broken["judgments"][1])  # the second judgment of the first ranking
    with pytest.raises(BundleError, match=rf"\$\.judgments\[1\]\.{field}.*{message}|{message}.*\$\.judgments\[1\]\.{field}"):
        loads(json.dumps(broken))


def test_a_system_ranked_twice_in_one_ranking_is_refused():
    data = json.loads(dumps(ranked_project()))
    data["judgments"][1]["system"] = data["judgments"][0]["system"]
    with pytest.raises(BundleError, match=r"ranks system .* twice.*\$\.judgments\[1\]\.system|\$\.judgments\[1\]\.system.*twice"):
        loads(json.dumps(data))
