"""Annotation editor logic: snapping, every-occurrence plans, navigation,
two-annotator agreement (hand-derived F1 and kappa) and adjudication."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from mtworkbench.core.adjudication import agreed_spans, copy_to_layer
from mtworkbench.core.annotation import (
    add_spans,
    compare_annotators,
    document_entities,
    find_in_reference,
    find_occurrences,
    next_unannotated_segment,
    plan_every_occurrence,
    snap_to_words,
    step_segment,
    token_labels,
)
from mtworkbench.core.model import Document, EntitySpan, ModelError, Paragraph, Project, Reference, Segment


def make_project(texts: list[str | None]) -> Project:
    seg_ids = [f"s{i}" for i in range(1, len(texts) + 1)]
    project = Project(documents=[Document("d1", [Paragraph("p1", [Segment(s, "src") for s in seg_ids])])])
    project.add_reference(Reference("r1", texts={s: t for s, t in zip(seg_ids, texts) if t is not None}))
    return project


def span(project: Project, seg: str, start: int, end: int, type_: str, who: str) -> EntitySpan:
    s = EntitySpan(project.new_id("e"), "r1", seg, start, end, type_, who)
    project.add_span(s)
    return s


@pytest.mark.parametrize(
    "text, start, end, expected",
    [
        ("Visit Paris now", 7, 9, (6, 11)),  # "ar" -> "Paris"
        ("Visit Paris now", 9, 7, (6, 11)),  # selected leftwards
        ("Visit Paris now", 5, 12, (6, 11)),  # surrounding spaces trimmed
        ("Visit New York now", 8, 13, (6, 14)),  # "w Yor" -> "New York"
        ("Visit Paris, now", 6, 12, (6, 12)),  # punctuation kept as selected
        ("Visit   now", 5, 8, None),  # only whitespace
        ("Genève", 2, 3, (0, 6)),  # accented word
        ("Gene\u0300ve", 5, 6, (0, 7)),  # combining mark inside the word
        ("x", 0, 0, None),
    ],
)
def test_snap_to_words(text, start, end, expected):
    assert snap_to_words(text, start, end) == expected


def test_find_occurrences():
    text = "Paris, Parisian, PARIS and paris."
    assert find_occurrences(text, "Paris") == [(0, 5)]
    assert find_occurrences(text, "Paris", whole_words=False) == [(0, 5), (7, 12)]
    assert find_occurrences(text, "paris", case_sensitive=False) == [(0, 5), (17, 22), (27, 32)]
    assert find_occurrences("aaaa", "aa", whole_words=False) == [(0, 2), (2, 4)]  # non-overlapping
    assert find_occurrences("U.S. and U.S.", "U.S.") == [(0, 4), (9, 13)]
    assert find_occurrences("abc", "") == []


def test_plan_every_occurrence_skips_overlaps_and_existing():
    project = make_project(["New York and York", "York again", None, "Yorkshire"])
    span(project, "s1", 0, 8, "LOCATION", "ann")  # "New York"
    span(project, "s2", 0, 4, "LOCATION", "ann")  # already exactly annotated
    plan = plan_every_occurrence(project, "r1", "York", "LOCATION", "ann")
    assert [(s.segment, s.start, s.end, s.type, s.annotator) for s in plan.spans] == [("s1", 13, 17, "LOCATION", "ann")]
    assert [(sid, a, b) for sid, a, b, _ in plan.skipped] == [("s1", 4, 8)]
    assert len({s.id for s in plan.spans}) == len(plan.spans)
    # Another annotator's layer does not block.
    other = plan_every_occurrence(project, "r1", "York", "LOCATION", "bob")
    assert [(s.segment, s.start) for s in other.spans] == [("s1", 4), ("s1", 13), ("s2", 0)]
    add_spans(project, other.spans)
    assert len(project.spans_for("r1", "s1", "bob")) == 2
    with pytest.raises(ModelError):
        plan_every_occurrence(project, "r1", "York", "NOPE", "ann")


def test_add_spans_is_all_or_nothing():
    project = make_project(["Ann and Bob"])
    project.settings.span_layers[0].nesting = project.settings.span_layers[0].overlap = False  # flat
    good = EntitySpan("x1", "r1", "s1", 0, 3, "PERSON", "a")
    clash = EntitySpan("x2", "r1", "s1", 1, 5, "PERSON", "a")
    with pytest.raises(ModelError, match="overlaps"):
        add_spans(project, [good, clash])
    assert project.spans == []


def test_navigation():
    project = make_project(["a", "", "b", None, "c", "d"])  # s2 empty, s4 missing: skipped
    assert step_segment(project, "r1", "s1", 1) == "s3"
    assert step_segment(project, "r1", "s3", -1) == "s1"
    assert step_segment(project, "r1", "s6", 1) == "s6"  # clamped
    assert step_segment(project, "r1", None, -1) == "s6"
    span(project, "s3", 0, 1, "PERSON", "ann")
    span(project, "s5", 0, 1, "PERSON", "ann")
    assert next_unannotated_segment(project, "r1", "ann", "s1") == "s6"
    assert next_unannotated_segment(project, "r1", "ann", "s6") == "s1"  # wraps
    assert next_unannotated_segment(project, "r1", "ann", "s6", wrap=False) is None
    assert next_unannotated_segment(project, "r1", "ann", "s6", backwards=True) == "s1"
    assert next_unannotated_segment(project, "r1", "other") == "s1"


def comparison_project() -> Project:
    # Tokens: Ann met Bob in Paris | The UN
    project = make_project(["Ann met Bob in Paris", "The UN"])
    span(project, "s1", 0, 3, "PERSON", "a")
    span(project, "s1", 8, 11, "PERSON", "a")
    span(project, "s1", 15, 20, "LOCATION", "a")
    span(project, "s2", 4, 6, "ORGANIZATION", "a")
    span(project, "s1", 0, 3, "PERSON", "b")
    span(project, "s1", 15, 20, "PERSON", "b")
    span(project, "s2", 4, 6, "ORGANIZATION", "b")
    return project


def test_compare_annotators_hand_derived():
    cmp = compare_annotators(comparison_project(), "r1", "a", "b")
    # A = {Ann P, Bob P, Paris L, UN O}, B = {Ann P, Paris P, UN O}: matched 2.
    assert (cmp.count_a, cmp.count_b, cmp.matched) == (4, 3, 2)
    assert cmp.f1 == pytest.approx(4 / 7)
    assert cmp.precision == pytest.approx(2 / 3) and cmp.recall == pytest.approx(2 / 4)
    assert cmp.untyped_f1 == pytest.approx(6 / 7)  # Ann, Paris, UN match as spans
    assert cmp.by_type["PERSON"].f1 == pytest.approx(2 * 1 / (2 + 2))
    assert cmp.by_type["LOCATION"].f1 == 0.0
    assert cmp.by_type["ORGANIZATION"].f1 == 1.0
    # Token labels a: P O P O L O ORG ; b: P O O O P O ORG  (7 tokens)
    # p_o = 5/7; marginals a: P2 O3 L1 G1, b: P2 O4 L0 G1
    # p_e = (2*2 + 3*4 + 1*0 + 1*1)/49 = 17/49; kappa = (5/7 - 17/49)/(1 - 17/49) = 18/32
    assert cmp.n_tokens == 7
    assert cmp.kappa == pytest.approx((35 / 49 - 17 / 49) / (32 / 49))
    disagreements = cmp.disagreements()
    assert [(seg, a and (a.start, a.type), b and (b.start, b.type)) for seg, a, b in disagreements] == [
        ("s1", (8, "PERSON"), None),
        ("s1", (15, "LOCATION"), (15, "PERSON")),
    ]


def test_kappa_matches_sklearn_and_edge_cases():
    from sklearn.metrics import cohen_kappa_score

    project = comparison_project()
    assert token_labels("Ann met Bob", [EntitySpan("x", "r1", "s1", 0, 3, "PERSON", "a")]) == ["PERSON", "O", "O"]
    labels = ["PERSON", "O", "PERSON", "O", "LOCATION", "O", "ORGANIZATION"], ["PERSON", "O", "O", "O", "PERSON", "O", "ORGANIZATION"]
    assert compare_annotators(project, "r1", "a", "b").kappa == pytest.approx(cohen_kappa_score(*labels))
    same = compare_annotators(project, "r1", "a", "a")
    assert same.kappa == 1.0 and same.f1 == 1.0
    nobody = compare_annotators(project, "r1", "x", "y")  # no segment both worked on: nothing to compare
    assert nobody.segments == [] and math.isnan(nobody.kappa) and math.isnan(nobody.f1)
    empty = compare_annotators(project, "r1", "x", "y", project.segment_ids)  # all segments, both empty
    assert empty.kappa == 1.0 and math.isnan(empty.f1)


def test_adjudication_into_a_third_layer():
    project = comparison_project()
    cmp = compare_annotators(project, "r1", "a", "b")
    copies = copy_to_layer(project, agreed_spans(cmp), "gold")
    assert [(c.segment, c.start, c.end, c.type, c.annotator) for c in copies] == [
        ("s1", 0, 3, "PERSON", "gold"),
        ("s2", 4, 6, "ORGANIZATION", "gold"),
    ]
    add_spans(project, copies)
    # Resolve the Paris conflict by taking b's reading, and Bob from a.
    _, a_paris, b_paris = cmp.disagreements()[1]
    add_spans(project, copy_to_layer(project, [b_paris, cmp.disagreements()[0][1]], "gold"))
    final = compare_annotators(project, "r1", "b", "gold")
    assert final.count_b == 4 and final.matched == 3
    # Copying again adds nothing; the rival reading of the same range nests (the
    # entities layer allows it), so it is copied, keeping its layer.
    assert copy_to_layer(project, agreed_spans(cmp), "gold") == []
    (rival,) = copy_to_layer(project, [a_paris], "gold")
    assert (rival.start, rival.end, rival.type, rival.layer) == (15, 20, "LOCATION", "entities")


def test_adjudication_honours_the_target_layers_nesting_and_overlap_rules():
    from mtworkbench.core.layers import SpanLayer

    # 北京大学 (Peking University) holds 北京 (Beijing); 大学生 crosses 北京大学.
    project = make_project(["北京大学生", "مدينة نيويورك"])
    outer = EntitySpan("x1", "r1", "s1", 0, 4, "ORGANIZATION", "a")
    inner = EntitySpan("x2", "r1", "s1", 0, 2, "LOCATION", "a")
    crossing = EntitySpan("x3", "r1", "s1", 2, 5, "PERSON", "a")
    arabic_outer = EntitySpan("x4", "r1", "s2", 0, 13, "LOCATION", "a")
    arabic_inner = EntitySpan("x5", "r1", "s2", 6, 13, "LOCATION", "a")
    spans = [outer, inner, crossing, arabic_outer, arabic_inner]
    # Nesting and overlap allowed (the default): every span is copied, in one batch.
    copies = copy_to_layer(project, spans, "gold")
    assert [(c.segment, c.start, c.end, c.annotator) for c in copies] == [
        ("s1", 0, 4, "gold"), ("s1", 0, 2, "gold"), ("s1", 2, 5, "gold"), ("s2", 0, 13, "gold"), ("s2", 6, 13, "gold")]
    add_spans(project, copies)
    assert len(project.spans_for("r1", "s1", "gold")) == 3
    # Nesting without overlap: the inner span is taken, the crossing one refused.
    project2 = make_project(["北京大学生"])
    project2.settings.span_layers = [SpanLayer("entities", nesting=True, overlap=False)]
    add_spans(project2, copy_to_layer(project2, [outer, inner], "gold"))
    with pytest.raises(ModelError, match="overlaps the ORGANIZATION entity 0-4"):
        copy_to_layer(project2, [crossing], "gold")
    # A flat layer refuses the nested span too, naming both spans.
    project3 = make_project(["北京大学生"])
    project3.settings.span_layers = [SpanLayer("entities", nesting=False, overlap=False)]
    with pytest.raises(ModelError, match=r"nests with the ORGANIZATION entity 0-4 \('北京大学'\)"):
        copy_to_layer(project3, [outer, inner], "gold")


def test_core_modules_do_not_import_qt():
    code = (
        "import sys, mtworkbench.core.annotation, mtworkbench.io.annotations.annotations, mtworkbench.metrics.nee, "
        "mtworkbench.io.annotations.muc, mtworkbench.io.annotations.conll, mtworkbench.io.annotations.brat, mtworkbench.io.annotations.entities_jsonl;"
        "bad=[m for m in sys.modules if m.split('.')[0] in ('PySide6','pyqtgraph','shiboken6')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def test_find_in_reference_and_document_entities():
    project = make_project(["Bonn and Paris", None, "Paris again"])
    assert find_in_reference(project, "r1", "Paris") == [("s1", 9, 14), ("s3", 0, 5)]
    span(project, "s3", 0, 5, "LOCATION", "a")
    span(project, "s1", 0, 4, "LOCATION", "b")
    rows = document_entities(project, "r1", "d1")
    assert [(r.span.segment, r.text, r.span.annotator) for r in rows] == [("s1", "Bonn", "b"), ("s3", "Paris", "a")]
    assert [r.text for r in document_entities(project, "r1", "d1", "a")] == ["Paris"]


# --- languages written without spaces (issue 13) -----------------------------------
def test_snapping_and_finding_use_the_metrics_words_for_zh_and_ja():
    from mtworkbench.core.annotation import find_occurrences, snap_to_words

    zh = "国家主席习近平今天访问了美国。"
    assert snap_to_words(zh, 4, 7, "zh") == (4, 7)
    assert snap_to_words(zh, 4, 7) == (0, len(zh) - 1)  # no language: the whole run of letters
    assert find_occurrences(zh, "习近平", language="zh") == [(4, 7)]
    assert find_occurrences(zh, "习近平") == []
    ja = "昨日東京大学に行きました。"
    assert snap_to_words(ja, 3, 4, "ja") == (2, 6)  # MeCab: 東京大学 is one word
    assert find_occurrences(ja, "東京", language="ja") == []  # not a whole MeCab word
    assert find_occurrences(ja, "東京大学", language="ja") == [(2, 6)]
    ar = "زار محمد القاهرة أمس"
    assert snap_to_words(ar, 5, 7, "ar") == (4, 8)


def test_marks_of_any_script_stay_inside_their_word():
    from mtworkbench.core.annotation import find_occurrences, snap_to_words

    vocalised = "زار مُحَمَّد القاهرة"  # Arabic with harakat
    a, b = snap_to_words(vocalised, 6, 7, "ar")
    assert vocalised[a:b] == "مُحَمَّد"
    assert find_occurrences(vocalised, "مُحَمَّد") == [(4, 12)]
    hindi = "राम ने किताब पढ़ी"  # Devanagari vowel signs are marks
    a, b = snap_to_words(hindi, 5, 6, "hi")
    assert hindi[a:b] == "ने"
    assert find_occurrences("Paris Parisian Paris", "Paris") == [(0, 5), (15, 20)]
