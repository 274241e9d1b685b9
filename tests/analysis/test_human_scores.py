"""Human scores collected from judgments: selection, averaging, per-judge z."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mtworkbench.analysis.human_scores import (
    HumanSpec,
    collect_human_scores,
    format_human_spec,
    level_pairs,
    parse_human_spec,
)
from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System


def small_project() -> Project:
    segs = [Segment(f"s{i}", f"src {i}") for i in range(1, 4)]
    project = Project(
        documents=[Document("d1", [Paragraph("p1", segs)])],
        references=[Reference("r1", texts={s.id: f"ref {s.id}" for s in segs})],
        systems=[System("A", texts={s.id: "a" for s in segs}), System("B", texts={s.id: "b" for s in segs})],
    )
    for judge in ("ann", "bob", "da"):
        project.add_judge(judge)
    rows = [
        # judge, system, segment, adequacy, fluency
        ("ann", "A", "s1", 5, 4),
        ("ann", "A", "s2", 3, 3),
        ("ann", "B", "s1", 1, 2),
        ("bob", "A", "s1", 4, 4),
        ("bob", "B", "s1", 2, 1),
        ("bob", "B", "s2", 3, 5),
        ("ann", "A", "s1", 4, 4),  # ann repeats an item: her mean for it is 4.5
    ]
    for k, (judge, system, seg, a, f) in enumerate(rows):
        project.add_judgment(Judgment(f"j{k}", judge, system, seg, "r1", adequacy=a, fluency=f))
    for k, (system, seg, score) in enumerate([("A", "s1", 0.5), ("A", "s3", -1.0), ("B", "s2", 0.25)]):
        project.add_judgment(Judgment(f"d{k}", "da", system, seg, score=score, scale="da-z"))
    return project


def test_parse_spec():
    assert parse_human_spec("all:fluency").field == "fluency"
    assert parse_human_spec("da").field is None
    with pytest.raises(DataError, match="unknown field 'accuracy'"):
        collect_human_scores(small_project(), "ann:accuracy")


def test_judge_names_with_colons():
    project = small_project()
    project.add_judge("a:b")
    project.add_judge("x:score")
    for k, (system, seg, a) in enumerate([("A", "s1", 2), ("B", "s2", 5)]):
        project.add_judgment(Judgment(f"c{k}", "a:b", system, seg, "r1", adequacy=a))
        project.add_judgment(Judgment(f"q{k}", "x:score", system, seg, "r1", fluency=6 - a))
    assert parse_human_spec("a:b:adequacy") == parse_human_spec('"a:b":adequacy')
    hs = collect_human_scores(project, "a:b:adequacy")
    assert hs.matrix[0, 0] == 2 and hs.matrix[1, 1] == 5
    assert collect_human_scores(project, "a:b").matrix[1, 1] == 5  # no field: the whole text is the name
    # A name that ends in ":score" needs quotes; unquoted, it is judge "x" (unknown) with field score.
    with pytest.raises(DataError, match="no judgments"):
        collect_human_scores(project, "x:score")
    assert collect_human_scores(project, '"x:score":fluency').matrix[0, 0] == 4
    assert collect_human_scores(project, '"x:score":fluency').matrix[1, 1] == 1
    for name, field in [("x:score", None), ("a:b", "adequacy"), ('q"uote:fluency', "score"), ("plain", None)]:
        spec = format_human_spec(name, field)
        assert parse_human_spec(spec) == HumanSpec(name, field), spec


def test_average_over_judges_with_repeats_collapsed():
    hs = collect_human_scores(small_project(), "all:adequacy")
    m = hs.matrix
    # A/s1: ann (5+4)/2 = 4.5 and bob 4 -> 4.25; A/s2: 3; B/s1: (1+2)/2; B/s2: 3.
    assert m[0, 0] == pytest.approx(4.25)
    assert m[0, 1] == pytest.approx(3.0)
    assert math.isnan(m[0, 2])
    assert m[1, 0] == pytest.approx(1.5)
    assert m[1, 1] == pytest.approx(3.0)
    assert hs.counts.tolist() == [[2, 1, 0], [2, 1, 0]]
    # System score: mean over rated segments.
    assert hs.system_scores().tolist() == pytest.approx([(4.25 + 3) / 2, (1.5 + 3) / 2])


def test_select_by_judge_and_by_scale_and_default_field():
    p = small_project()
    da = collect_human_scores(p, "da")
    assert da.field == "score"
    assert da.matrix[0, 2] == pytest.approx(-1.0)
    by_scale = collect_human_scores(p, "da-z")
    np.testing.assert_array_equal(np.isnan(da.matrix), np.isnan(by_scale.matrix))
    bob = collect_human_scores(p, "bob:fluency")
    assert bob.matrix[1, 1] == pytest.approx(5.0)
    assert math.isnan(bob.matrix[0, 1])
    with pytest.raises(DataError, match="no judgments"):
        collect_human_scores(p, "carol")


def test_per_judge_z_transform_by_hand():
    hs = collect_human_scores(small_project(), "all:adequacy", z=True)
    # ann's adequacy values 5, 3, 1, 4: mean 3.25, population sd sqrt(8.75/4).
    ann_sd = math.sqrt(((5 - 3.25) ** 2 + (3 - 3.25) ** 2 + (1 - 3.25) ** 2 + (4 - 3.25) ** 2) / 4)
    # bob's 4, 2, 3: mean 3, sd sqrt(2/3).
    bob_sd = math.sqrt(2 / 3)
    ann_a_s1 = ((5 - 3.25) / ann_sd + (4 - 3.25) / ann_sd) / 2
    bob_a_s1 = (4 - 3) / bob_sd
    assert hs.matrix[0, 0] == pytest.approx((ann_a_s1 + bob_a_s1) / 2)
    assert hs.matrix[1, 1] == pytest.approx(0.0)  # bob's 3 is his mean
    assert hs.label.endswith("(z)")


def test_level_pairs():
    hs = collect_human_scores(small_project(), "all:adequacy")
    seg_scores = np.array([[10.0, 20.0, 30.0], [1.0, 2.0, 3.0]])
    m, h = level_pairs(seg_scores, np.array([100.0, 50.0]), hs, "segment")
    assert m.tolist() == [10.0, 20.0, 1.0, 2.0]
    assert h.tolist() == pytest.approx([4.25, 3.0, 1.5, 3.0])
    m, h = level_pairs(seg_scores, np.array([100.0, 50.0]), hs, "system")
    assert m.tolist() == [100.0, 50.0]
    assert h.tolist() == pytest.approx([3.625, 2.25])
