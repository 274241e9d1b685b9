"""Alpha and AC1 of three or more annotator layers on unit labels, against the krippendorff package."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mtworkbench.analysis.span_reliability import span_reliability
from mtworkbench.core.annotation import token_labels
from mtworkbench.core.model import Document, EntitySpan, Paragraph, Project, Reference, Segment

krippendorff = pytest.importorskip("krippendorff")

TEXTS = {"s1": "李雷住在北京。", "s2": "Anna wohnt in Berlin.", "s3": "Иван живёт в Москве.", "s4": "محمد في القاهرة"}
# (segment, start, end, type, annotator)
SPANS = [
    ("s1", 0, 2, "PERSON", "a"), ("s1", 4, 6, "LOCATION", "a"),
    ("s1", 0, 2, "PERSON", "b"), ("s1", 4, 6, "ORGANIZATION", "b"),
    ("s1", 0, 2, "PERSON", "c"),
    ("s2", 0, 4, "PERSON", "a"), ("s2", 14, 20, "LOCATION", "a"),
    ("s2", 0, 4, "PERSON", "b"), ("s2", 14, 20, "LOCATION", "b"),
    ("s2", 0, 4, "LOCATION", "c"), ("s2", 14, 20, "LOCATION", "c"),
    ("s3", 0, 4, "PERSON", "a"), ("s3", 13, 19, "LOCATION", "a"),
    ("s3", 0, 4, "PERSON", "b"),
    ("s4", 0, 4, "PERSON", "a"), ("s4", 8, 15, "LOCATION", "a"),
    ("s4", 0, 4, "PERSON", "c"), ("s4", 8, 15, "LOCATION", "c"),
]


def project(language: str = "zh") -> Project:
    docs = [Document("d1", [Paragraph("p1", [Segment("s1", "x"), Segment("s2", "x")])]),
            Document("d2", [Paragraph("p2", [Segment("s3", "x"), Segment("s4", "x")])])]
    p = Project(documents=docs)
    p.target_language = language  # Chinese: one unit per character; other scripts: words
    p.add_reference(Reference("r1", texts=dict(TEXTS)))
    for seg, start, end, type_, who in SPANS:
        p.add_span(EntitySpan(p.new_id("e"), "r1", seg, start, end, type_, who))
    return p


def reliability_matrix(p: Project, layers, segments, worked, mapping=lambda label: label):
    """The reliability data the package takes: raters x units, NaN where a layer did not work."""
    columns, codes = [], {}
    for sid in segments:
        per_layer = {}
        for a in layers:
            spans = [s for s in p.spans if s.annotator == a and s.segment == sid]
            per_layer[a] = token_labels(TEXTS[sid], spans, p.target_language or None)
        n = len(next(iter(per_layer.values())))
        for k in range(n):
            columns.append([codes.setdefault(mapping(per_layer[a][k]), len(codes)) if sid in worked[a] else np.nan
                            for a in layers])
    return np.array(columns, dtype=float).T


def test_all_segments_equals_the_package_overall_per_type_and_per_document():
    p = project()
    layers = ["a", "b", "c"]
    rel = span_reliability(p, "r1", layers, all_segments=True, bootstrap=0)
    every = {a: set(TEXTS) for a in layers}
    expected = krippendorff.alpha(reliability_data=reliability_matrix(p, layers, list(TEXTS), every),
                                  level_of_measurement="nominal")
    assert rel.overall[0].stat == "alpha:nominal"
    assert rel.overall[0].value == pytest.approx(expected, abs=1e-12)
    for t in ("PERSON", "LOCATION", "ORGANIZATION"):
        data = reliability_matrix(p, layers, list(TEXTS), every, lambda label, t=t: label == t)
        want = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
        assert rel.by_type[t][0].value == pytest.approx(want, abs=1e-12), t
    data = reliability_matrix(p, layers, ["s3", "s4"], every)
    assert rel.by_document["d2"][0].value == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"), abs=1e-12)
    assert rel.spans == {"a": 8, "b": 5, "c": 5}
    assert rel.n_units == data.shape[1] + reliability_matrix(p, layers, ["s1", "s2"], every).shape[1]


def test_a_layer_is_missing_outside_the_segments_it_worked_on():
    p = project()
    layers = ["a", "b", "c"]
    rel = span_reliability(p, "r1", layers, bootstrap=0)
    # b worked s1..s3, c all four (first and last annotated), a all four
    worked = {"a": set(TEXTS), "b": {"s1", "s2", "s3"}, "c": set(TEXTS)}
    data = reliability_matrix(p, layers, list(TEXTS), worked)
    assert np.isnan(data[1]).sum() == len(token_labels(TEXTS["s4"], [], "zh"))
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert rel.overall[0].value == pytest.approx(expected, abs=1e-12)
    full = span_reliability(p, "r1", layers, all_segments=True, bootstrap=0)
    assert full.overall[0].value != pytest.approx(rel.overall[0].value)


def test_bootstrap_interval_and_chinese_units():
    p = project("zh")
    rel = span_reliability(p, "r1", ["a", "b"], bootstrap=300)
    alpha = rel.overall[0]
    assert rel.unit == "characters"
    assert alpha.low is not None and alpha.low <= alpha.value <= alpha.high
    again = span_reliability(p, "r1", ["a", "b"], bootstrap=300)
    assert again.overall[0].low == alpha.low


def test_a_type_no_unit_carries_is_undefined_not_an_error():
    # Without a language, the Han clause is one unit; it takes the entity starting first (PERSON),
    # so no unit is ORGANIZATION: its one-against-the-rest alpha is undefined.
    rel = span_reliability(project(""), "r1", ["a", "b", "c"], all_segments=True, bootstrap=0)
    assert np.isnan(rel.by_type["ORGANIZATION"][0].value)
    assert "undefined" in " ".join(rel.by_type["ORGANIZATION"][0].notes)


def test_fewer_than_two_layers_refused():
    with pytest.raises(ValueError, match="two or more"):
        span_reliability(project(), "r1", ["a", "a"])


def test_cli_compare_three_layers(tmp_path, capsys):
    from mtworkbench.cli import main
    from mtworkbench.io.bundle.bundle import save_bundle

    path = tmp_path / "p.mtwb.json"
    save_bundle(project(), path)
    args = ["entities", "compare", str(path), "--reference", "r1", "--all-segments", "--bootstrap", "0"]
    assert main([*args, "--annotator", "a", "--annotator", "b", "--annotator", "c", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["annotators"] == ["a", "b", "c"]
    assert out["overall"]["alpha:nominal"]["value"] == pytest.approx(
        span_reliability(project(), "r1", ["a", "b", "c"], True, bootstrap=0).overall[0].value)
    assert set(out["by_type"]) == {"PERSON", "LOCATION", "ORGANIZATION"} and set(out["by_document"]) == {"d1", "d2"}
    assert main([*args, "--annotator", "a", "--annotator", "b", "--annotator", "c"]) == 0
    text = capsys.readouterr().out
    assert "3 layers" in text and "alpha:nominal" in text and "document d2" in text
    assert main([*args, "--annotator", "a", "--annotator", "zz"]) != 0
    assert "no annotator layer 'zz'" in capsys.readouterr().err


def test_unitizing_alpha_of_two_layers_on_the_characters_end_to_end(capsys):
    from mtworkbench.analysis.unitizing_alpha import unitizing_alpha

    p = project()
    rel = span_reliability(p, "r1", ["a", "b"], all_segments=True, bootstrap=0)
    # The continuum: the four texts end to end; each entity a unit of its type at its offset there.
    offsets, at = {}, 0
    for sid in ["s1", "s2", "s3", "s4"]:
        offsets[sid], at = at, at + len(TEXTS[sid])
    units = {who: [(offsets[seg] + a, offsets[seg] + b, t) for seg, a, b, t, w in SPANS if w == who] for who in "ab"}
    expected = unitizing_alpha(units, 0, at)
    assert rel.unitizing is not None and rel.unitizing.length == at == 63
    assert rel.unitizing.alpha == expected.alpha and 0 < expected.alpha < 1
    assert set(rel.unitizing.by_category) == {"PERSON", "LOCATION", "ORGANIZATION"}
    # ORGANIZATION by hand: only b's 4-6 (李雷住在北京: 北京), inside a's one gap of 63: D_o = 2·2²/(2·63²);
    # gaps 63 (a), 4 and 57 (b): D_e = (2/63)·4·(62+3+56) / (126·125 − 2).
    from fractions import Fraction

    organization = 1 - Fraction(4, 63 * 63) / (Fraction(2 * 4 * 121, 63) / (126 * 125 - 2))
    assert rel.unitizing.by_category["ORGANIZATION"].alpha == pytest.approx(float(organization), abs=1e-12)
    assert rel.to_json()["unitizing_alpha"]["value"] == expected.alpha
    # Three layers: not computed, and said why.
    three = span_reliability(p, "r1", ["a", "b", "c"], all_segments=True, bootstrap=0)
    assert three.unitizing is None and "two layers at a time, not 3" in three.unitizing_note
    # Two overlapping entities of one type in one layer: not computed, the segment named.
    p.add_span(EntitySpan("x", "r1", "s2", 2, 10, "PERSON", "a"))
    clash = span_reliability(p, "r1", ["a", "b"], all_segments=True, bootstrap=0)
    assert clash.unitizing is None and "two overlapping PERSON entities in segment s2 (0-4 and 2-10)" in clash.unitizing_note


def test_cli_prints_the_unitizing_alpha_of_two_layers(tmp_path, capsys):
    from mtworkbench.cli import main
    from mtworkbench.io.bundle.bundle import save_bundle

    path = tmp_path / "p.mtwb.json"
    save_bundle(project(), path)
    args = ["entities", "compare", str(path), "--reference", "r1", "--all-segments", "--bootstrap", "0",
            "--annotator", "a", "--annotator", "b"]
    rel = span_reliability(project(), "r1", ["a", "b"], all_segments=True, bootstrap=0)
    assert main(args) == 0
    assert f"unitizing alpha {rel.unitizing.alpha:.4f} over 63 characters" in capsys.readouterr().out
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unitizing_alpha"]["value"] == pytest.approx(rel.unitizing.alpha)
