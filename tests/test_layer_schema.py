"""core.layer_schema: a project's layers and types as one value, checked against the
spans and relations that use them, installed with its inverse returned (one undo step)."""

from __future__ import annotations

import pytest

from mtworkbench.core.layer_schema import apply_schema, check_schema, parse_types, schema_of, with_new_layer
from mtworkbench.core.layers import span_layer
from mtworkbench.core.model import Document, EntitySpan, ModelError, Paragraph, Project, Reference, Segment
from mtworkbench.core.records import EntityTypeStyle, SpanLayer

SOURCES = ["他打破了沙锅问到底。", "Иван живёт в Москве.", "Der Hund schläft.", "東京に行く。", "ذهب إلى القاهرة"]


@pytest.fixture
def project():
    doc = Document("d", [Paragraph("p", [Segment(str(i), s) for i, s in enumerate(SOURCES)])])
    p = Project([doc], source_language="zh", target_language="en")
    p.add_reference(Reference("ref", "", {str(i): s for i, s in enumerate(SOURCES)}))
    return p


def test_a_new_layer_on_sources_takes_spans_and_undoes_cleanly(project):
    before = schema_of(project.settings)
    schema = with_new_layer(project, "mwe", "source", "IDIOM=I,NAME", nesting=False, overlap=False)
    old = apply_schema(project, schema)
    assert old == before
    layer = span_layer(project.settings, "mwe")
    assert (layer.on, layer.nesting, layer.overlap) == ("source", False, False)
    assert [(t.name, t.key) for t in layer.types] == [("IDIOM", "I"), ("NAME", "N")]
    project.add_span(EntitySpan("s1", "", "0", 2, 4, "IDIOM", "mia", "mwe"))
    with pytest.raises(ModelError, match="does not allow"):  # the layer is flat
        project.add_span(EntitySpan("s2", "", "0", 2, 3, "NAME", "mia", "mwe"))
    project.remove_span("s1")
    apply_schema(project, old)
    assert schema_of(project.settings) == before
    with pytest.raises(ModelError, match="unknown span layer"):
        span_layer(project.settings, "mwe")


def test_a_layer_with_spans_keeps_its_name_text_and_rules_and_says_how_many(project):
    apply_schema(project, with_new_layer(project, "mwe", "source", "IDIOM=I"))
    project.add_span(EntitySpan("s1", "", "0", 2, 4, "IDIOM", "mia", "mwe"))
    project.add_span(EntitySpan("s2", "", "1", 0, 4, "IDIOM", "mia", "mwe"))
    removed = schema_of(project.settings)
    removed.span_layers = [s for s in removed.span_layers if s.name != "mwe"]
    with pytest.raises(ModelError, match="'mwe' holds 2 spans"):
        check_schema(project, removed)
    renamed = schema_of(project.settings)
    renamed.span_layers[-1].name = "idioms"
    with pytest.raises(ModelError, match="'mwe' holds 2 spans"):
        check_schema(project, renamed)
    moved = schema_of(project.settings)
    moved.span_layers[-1].on = "output"
    with pytest.raises(ModelError, match="holds 2 spans"):
        check_schema(project, moved)
    lost_type = schema_of(project.settings)
    lost_type.span_layers[-1].types = [EntityTypeStyle("PHRASE", "H", "#123456")]
    with pytest.raises(ModelError, match="type IDIOM exist"):
        check_schema(project, lost_type)
    # Without spans the same layer may be renamed and moved.
    project.remove_span("s1")
    project.remove_span("s2")
    check_schema(project, renamed)
    check_schema(project, moved)


@pytest.mark.parametrize(("types", "message"), [
    ([EntityTypeStyle("A", "X", "#111111"), EntityTypeStyle("B", "x", "#222222")], "key X is used by two types"),
    ([EntityTypeStyle("A", "R", "#111111")], "key R is taken by the relation translation-of"),
    ([EntityTypeStyle("A", "", "#111111")], "the key must be one letter or digit"),
    ([EntityTypeStyle("A", "A", "nicht-farbe")], "is not a colour"),
    ([EntityTypeStyle("zwei Wörter", "A", "#111111")], "without spaces"),
    ([], "keep at least one type"),
])
def test_the_types_of_a_layer_are_checked_like_the_entities(project, types, message):
    schema = schema_of(project.settings)
    schema.span_layers.append(SpanLayer("mwe", "source", types))
    with pytest.raises(ModelError, match=message):
        check_schema(project, schema)


def test_relation_types_may_not_take_a_span_key(project):
    schema = schema_of(project.settings)
    schema.relation_layers[0].types[0] = EntityTypeStyle("translation-of", "P", "#808000")  # PERSON's key
    with pytest.raises(ModelError, match="key P is taken by the PERSON type of layer entities"):
        check_schema(project, schema)
    schema.relation_layers[0].types[0] = EntityTypeStyle("übersetzt", "U", "#808000")
    check_schema(project, schema)
    old = apply_schema(project, schema)
    assert project.settings.relation_layers[0].types[0].name == "übersetzt"
    apply_schema(project, old)
    assert project.settings.relation_layers[0].types[0].name == "translation-of"


def test_entities_layer_stays_and_names_are_unique(project):
    schema = schema_of(project.settings)
    schema.span_layers[0].name = "namen"
    with pytest.raises(ModelError, match="'entities' layer cannot be removed or renamed"):
        check_schema(project, schema)
    schema = schema_of(project.settings)
    schema.span_layers.append(SpanLayer("relations", "source", [EntityTypeStyle("A", "A", "#111111")]))
    with pytest.raises(ModelError, match="two layers are called 'relations'"):
        check_schema(project, schema)
    with pytest.raises(ModelError, match="already has a span layer 'entities'"):
        with_new_layer(project, "entities", "source", "A")
    with pytest.raises(ModelError, match="--on must be one of"):
        with_new_layer(project, "x", "target", "A")


def test_parse_types_gives_free_keys_from_the_names():
    # Russian and Japanese names: keys come from their own letters when free.
    types = parse_types("ИМЯ,ИДИОМА,地名=C,Name", taken={"R", "W"})
    assert [(t.name, t.key) for t in types] == [("ИМЯ", "И"), ("ИДИОМА", "Д"), ("地名", "C"), ("Name", "N")]
    assert len({t.color for t in types}) == 4
    # A name without cased letters (Chinese) gets the first free Latin letter.
    assert [t.key for t in parse_types("地名,人名", taken={"A"})] == ["B", "C"]
    with pytest.raises(ModelError, match="expected NAME"):
        parse_types(" , ")
