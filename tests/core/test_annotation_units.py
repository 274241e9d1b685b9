"""Annotator agreement counts the language's units (as selection snapping does) and
compares only the segments both annotators worked on; the default pair is two layers."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.annotation import (
    agreement_unit,
    both_annotated_segments,
    compare_annotators,
    default_annotator_pair,
    ranked_layers,
    snap_to_words,
    token_labels,
    unit_spans,
)
from mtworkbench.core.model import Document, EntitySpan, Paragraph, Project, Reference, Segment
from mtworkbench.io.bundle.bundle import save_bundle

ZH = ["习近平主席在北京会见了联合国秘书长古特雷斯。", "上海是中国最大的城市。", "李明昨天去了东京。",
      "欧盟委员会发表了声明。"]


def zh_project(texts=ZH, language="zh") -> Project:
    seg_ids = [str(i) for i in range(1, len(texts) + 1)]
    project = Project(documents=[Document("d1", [Paragraph("p1", [Segment(s, "src") for s in seg_ids])])],
                      target_language=language)
    project.add_reference(Reference("r1", texts=dict(zip(seg_ids, texts))))
    return project


def mark(project, who, seg, needle, type_):
    text = project.reference_text("r1", seg)
    start = text.index(needle)
    project.add_span(EntitySpan(project.new_id("e"), "r1", seg, start, start + len(needle), type_, who))


def test_units_follow_the_language_and_snapping():
    assert agreement_unit("zh") == "characters"
    assert agreement_unit("ja") == "MeCab words"
    assert agreement_unit("de") == agreement_unit("ru") == agreement_unit("ar") == agreement_unit(None) == "words"
    text = ZH[0]
    # a Han clause is one \w+ run but many characters; each unit is what snapping keeps apart
    assert len(unit_spans(text, "zh")) == len(text)
    assert snap_to_words(text, 0, 3, "zh") == (0, 3)
    assert token_labels("Москва — столица России.", [], "ru") == ["O"] * 5
    assert len(unit_spans("ذهب محمد إلى القاهرة.", "ar")) == 5
    assert len(unit_spans("Frau Müller wohnt in Köln.", "de")) == 6


def test_chinese_kappa_counts_characters():
    project = zh_project()
    mark(project, "a", "1", "习近平", "PERSON")
    mark(project, "a", "1", "北京", "LOCATION")
    mark(project, "a", "1", "古特雷斯", "PERSON")
    mark(project, "b", "1", "习近平", "PERSON")
    mark(project, "b", "1", "联合国", "ORGANIZATION")
    mark(project, "b", "1", "古特雷斯", "PERSON")
    cmp = compare_annotators(project, "r1", "a", "b", ["1"])
    n = len(ZH[0])
    assert cmp.unit == "characters" and cmp.n_tokens == n  # 22 characters, not 2 \w+ tokens
    # a: PERSON 7, LOC 2, O n-9; b: PERSON 7, ORG 3, O n-10; they differ on 5 characters
    po = (n - 5) / n
    pe = (7 * 7 + (n - 9) * (n - 10)) / n**2
    assert cmp.kappa == pytest.approx((po - pe) / (1 - pe))


def test_only_segments_both_annotated_are_compared():
    project = zh_project()
    for seg, needle, type_ in (("1", "习近平", "PERSON"), ("2", "上海", "LOCATION"), ("3", "李明", "PERSON"),
                               ("4", "欧盟委员会", "ORGANIZATION")):
        mark(project, "anna", seg, needle, type_)
    mark(project, "bert", "1", "习近平", "PERSON")
    mark(project, "bert", "2", "上海", "LOCATION")
    assert both_annotated_segments(project, "r1", "anna", "bert") == ["1", "2"]
    cmp = compare_annotators(project, "r1", "anna", "bert")
    assert cmp.segments == ["1", "2"] and cmp.n_reference_segments == 4 and cmp.scope == "both annotated"
    assert cmp.f1 == 1.0 and cmp.kappa == 1.0 and cmp.n_tokens == len(ZH[0]) + len(ZH[1])
    everything = compare_annotators(project, "r1", "anna", "bert", ["1", "2", "3", "4"])
    assert everything.f1 < 1.0  # bert never saw 3 and 4: counting them is what the default avoids
    # a segment inside both runs that one left empty is a decision, and counts
    mark(project, "bert", "4", "欧盟委员会", "ORGANIZATION")
    assert both_annotated_segments(project, "r1", "anna", "bert") == ["1", "2", "3", "4"]
    assert compare_annotators(project, "r1", "x", "y").segments == []


def test_default_pair_is_two_different_layers_with_most_spans():
    project = zh_project()
    mark(project, "adjudicated", "1", "习近平", "PERSON")
    for seg, needle in (("1", "习近平"), ("2", "上海"), ("3", "李明")):
        mark(project, "annot-anna", seg, needle, "PERSON")
    for seg, needle in (("1", "习近平"), ("2", "上海")):
        mark(project, "annot-bert", seg, needle, "PERSON")
    assert default_annotator_pair(project, "r1") == ("annot-anna", "annot-bert")
    assert ranked_layers(project, "r1", last="annot-anna")[-1] == "annot-anna"
    assert default_annotator_pair(zh_project()) is None


def test_entities_compare_json_reports_units_and_segments(tmp_path, capsys):
    project = zh_project()
    for seg, needle, type_ in (("1", "习近平", "PERSON"), ("2", "上海", "LOCATION"), ("3", "李明", "PERSON")):
        mark(project, "annot-anna", seg, needle, type_)
    mark(project, "annot-bert", "1", "习近平", "PERSON")
    mark(project, "annot-bert", "2", "上海是", "LOCATION")
    bundle = tmp_path / "zh.mtwb.json"
    save_bundle(project, bundle)
    assert main(["entities", "compare", str(bundle), "--reference", "r1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["annotators"] == ["annot-anna", "annot-bert"]
    assert out["unit"] == "characters" and out["units"] == out["tokens"] == len(ZH[0]) + len(ZH[1])
    assert out["segments"] == 2 and out["reference_segments"] == 4 and out["segment_scope"] == "both annotated"
    assert out["matched"] == 1 and out["entities"] == [2, 2]
    assert main(["entities", "compare", str(bundle), "annot-anna", "annot-bert", "--reference", "r1",
                 "--all-segments", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["segments"] == 4 and out["units"] == sum(map(len, ZH)) and out["segment_scope"] == "all"
    assert main(["entities", "compare", str(bundle), "--reference", "r1"]) == 0
    text = capsys.readouterr().out
    assert "compared on 2 of 4 segments (both annotated)" in text and f"over {len(ZH[0]) + len(ZH[1])} characters" in text
