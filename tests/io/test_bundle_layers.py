"""Bundle format version 3: span layers, discontinuous spans and relations.

A version-1 and a version-2 bundle open unchanged (same spans, judgments and
types), a version-3 project with every new field round-trips exactly, and a
bundle from a newer version is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtworkbench.core.errors import BundleError
from mtworkbench.core.layers import Relation, SpanLayer
from mtworkbench.core.model import (
    Document,
    EntitySpan,
    EntityTypeStyle,
    ModelError,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.io.bundle import bundle
from mtworkbench.io.bundle.bundle import dumps, load_bundle, loads, project_to_dict, save_bundle

FIXTURE_V1 = Path(__file__).resolve().parents[1] / "fixtures" / "bundle-v1.mtwb.json"


def layered_project() -> Project:
    doc = Document("d1", [Paragraph("p1", [Segment("1", "习近平在北京大学演讲。"), Segment("2", "Ja.")])])
    p = Project([doc], source_language="zh", target_language="en")
    p.add_reference(Reference("r1", "A", {"1": "Xi Jinping spoke at Peking University.", "2": "Yes."}))
    p.add_system(System("mt", "machine", {"1": "Xi spoke at Beijing University.", "2": "Yes."}))
    p.settings.span_layers.append(SpanLayer("onto", "source", [EntityTypeStyle("PERSON", "P", "#ff0000"),
                                                                EntityTypeStyle("ORG", "O", "#00ff00"),
                                                                EntityTypeStyle("FAC", "", "#0000ff")]))
    p.settings.span_layers.append(SpanLayer("flat", "output", [EntityTypeStyle("X", "X", "#000000")],
                                            nesting=False, overlap=False))
    # Nested: ORG "Peking University" inside LOCATION-like FAC; overlapping pieces.
    p.add_span(EntitySpan("e1", "r1", "1", 20, 37, "ORGANIZATION", "ann"))
    p.add_span(EntitySpan("e2", "r1", "1", 20, 26, "LOCATION", "ann"))
    p.add_span(EntitySpan("e3", "r1", "1", 0, 10, "PERSON", "ann"))
    p.add_span(EntitySpan("e4", "r1", "1", 3, 26, "DATE", "ann", fragments=((3, 10), (20, 26))))
    p.add_span(EntitySpan("s1", "", "1", 0, 3, "PERSON", "ann", layer="onto"))
    p.add_span(EntitySpan("s2", "", "1", 4, 8, "ORG", "ann", layer="onto"))
    p.add_span(EntitySpan("s3", "", "1", 4, 6, "FAC", "ann", layer="onto"))
    p.add_span(EntitySpan("o1", "mt", "1", 0, 2, "X", "ann", layer="flat"))
    p.add_relation(Relation("rel1", "translation-of", "s1", "e3", "ann"))
    p.add_relation(Relation("rel2", "part-of", "e2", "e1", "ann"))
    return p


def test_v3_round_trip_is_exact(tmp_path):
    project = layered_project()
    path = tmp_path / "v3.mtwb.json"
    save_bundle(project, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format_version"] == 3
    back = load_bundle(path)
    assert back.spans == project.spans
    assert back.relations == project.relations
    assert back.settings.span_layers == project.settings.span_layers
    assert back.settings.relation_layers == project.settings.relation_layers
    assert dumps(back) == dumps(project)
    assert back.span("e4").parts == ((3, 10), (20, 26))


def test_v1_fixture_opens_unchanged_and_migrates_to_v3(tmp_path):
    raw = json.loads(FIXTURE_V1.read_text(encoding="utf-8"))
    project = load_bundle(FIXTURE_V1)
    assert [(s["id"], s["start"], s["end"], s["type"]) for s in raw.get("entity_spans", [])] == [
        (s.id, s.start, s.end, s.type) for s in sorted(project.spans, key=lambda s: [x["id"] for x in raw["entity_spans"]].index(s.id))
    ]
    assert all(s.layer == "entities" and not s.fragments for s in project.spans)
    assert project.relations == []
    again = loads(dumps(project))
    assert dumps(again) == dumps(project)


def test_v2_bundle_opens_unchanged():
    project = layered_project()
    data = project_to_dict(project)
    # A version-2 file: no layers, no relations, no layer field on spans.
    v2 = {**data, "format_version": 2}
    v2.pop("relations")
    v2["settings"] = {k: v for k, v in data["settings"].items() if k not in ("span_layers", "relation_layers")}
    v2["entity_spans"] = [
        {k: v for k, v in s.items() if k not in ("layer", "fragments")}
        for s in data["entity_spans"] if s["layer"] == "entities" and "fragments" not in s
    ]
    old = loads(json.dumps(v2))
    assert [(s.id, s.start, s.end, s.type, s.layer) for s in old.spans] == [
        (s.id, s.start, s.end, s.type, "entities") for s in project.spans if s.layer == "entities" and not s.fragments
    ]
    assert [layer.name for layer in old.settings.span_layers] == ["entities"]


def test_newer_version_is_refused():
    data = project_to_dict(layered_project())
    data["format_version"] = bundle.FORMAT_VERSION + 1
    with pytest.raises(BundleError, match="newer"):
        loads(json.dumps(data))


def test_bad_layer_and_relation_name_their_path():
    data = project_to_dict(layered_project())
    data["entity_spans"][0]["layer"] = "nope"
    with pytest.raises(BundleError, match=r"entity_spans\[0\].*unknown span layer 'nope'|unknown span layer 'nope'.*entity_spans\[0\]"):
        loads(json.dumps(data))
    data = project_to_dict(layered_project())
    data["relations"][0]["target"] = "missing"
    with pytest.raises(BundleError, match="missing"):
        loads(json.dumps(data))


def test_layer_rules_refuse_what_the_layer_forbids():
    p = layered_project()
    with pytest.raises(ModelError, match="does not allow"):
        p.add_span(EntitySpan("o2", "mt", "1", 1, 3, "X", "ann", layer="flat"))
    p.settings.span_layers[0].overlap = False
    with pytest.raises(ModelError, match="overlaps"):
        p.add_span(EntitySpan("e9", "r1", "1", 5, 22, "TIME", "ann"))
    p.add_span(EntitySpan("e9", "r1", "1", 21, 25, "TIME", "ann"))  # nested is still fine
    with pytest.raises(ModelError, match="already there"):
        p.add_span(EntitySpan("e10", "r1", "1", 21, 25, "TIME", "ann"))
    with pytest.raises(ModelError, match="fragment"):
        p.add_span(EntitySpan("e11", "r1", "1", 0, 9, "TIME", "ann", fragments=((0, 5), (4, 9))))


def test_span_with_relations_is_not_removed_silently():
    p = layered_project()
    with pytest.raises(ModelError, match="relation"):
        p.remove_span("e3")
    rel = p.remove_relation("rel1")
    p.remove_span("e3")
    assert rel.source == "s1"


def test_removing_a_reference_takes_its_relations_and_restores_them():
    p = layered_project()
    before = p.relations
    removal = p.remove_reference("r1")
    assert [r.id for r in p.relations] == []
    p.restore_reference(removal)
    assert p.relations == before


def test_grapheme_bounds_keep_marks_with_their_letter():
    from mtworkbench.core.layers import grapheme_bounds

    arabic = "ذَهَبَ محمد"
    assert grapheme_bounds(arabic, 0, 3) == (0, 4)  # ه without its fatha is widened
    assert grapheme_bounds("Café", 0, 4) == (0, 4)
    decomposed = "Cafe\u0301 au lait"
    assert grapheme_bounds(decomposed, 1, 4) == (1, 5)
    assert grapheme_bounds("👩‍💻 dev", 1, 3) == (0, 3)


def test_depths_and_outermost_for_drawing_and_nee():
    from mtworkbench.core.layers import outermost, span_depths, spans_at

    a = EntitySpan("a", "r", "1", 0, 17, "ORG", "x")
    b = EntitySpan("b", "r", "1", 0, 6, "LOC", "x")
    c = EntitySpan("c", "r", "1", 4, 10, "X", "x")  # crosses a's inner b
    depths = span_depths([a, b, c])
    assert depths["a"] > depths["b"] and depths["b"] != depths["c"]
    assert outermost([a, b, c]) == [a]
    assert [s.id for s in spans_at([a, b, c], 5)] == ["b", "c", "a"]
