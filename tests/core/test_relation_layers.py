"""Relation layers beyond the default one: the span layers they connect, their direction,
the schema checks that guard them, and the bundle round trip."""

from __future__ import annotations

import pytest

from mtworkbench.core.layer_schema import apply_schema, check_schema, schema_of, with_new_relation_layer
from mtworkbench.core.layers import Relation, SpanLayer
from mtworkbench.core.model import Document, EntitySpan, ModelError, Paragraph, Project, Reference, Segment
from mtworkbench.core.records import EntityTypeStyle
from mtworkbench.io.bundle.bundle import dumps, loads


def _project() -> Project:
    project = Project([Document("d", [Paragraph("p", [Segment("1", "Иван живёт в Москве.")])])], source_language="ru")
    project.add_reference(Reference("ref", "", {"1": "伊万住在莫斯科。"}))
    project.settings.span_layers.append(SpanLayer("mwe", "source", [EntityTypeStyle("IDIOM", "I", "#8e44ad")]))
    project.add_span(EntitySpan("a", "ref", "1", 0, 2, "PERSON", "mia"))       # 伊万
    project.add_span(EntitySpan("b", "ref", "1", 4, 7, "LOCATION", "mia"))     # 莫斯科
    project.add_span(EntitySpan("m", "", "1", 0, 4, "IDIOM", "mia", "mwe"))    # Иван
    return project


def test_an_undirected_layer_on_entities_links_entities_once_either_way():
    project = _project()
    apply_schema(project, with_new_relation_layer(project, "coref", "同指=K", ["entities"], directed=False))
    layer = project.settings.relation_layers[-1]
    assert (layer.name, layer.connects, layer.directed, [(t.name, t.key) for t in layer.types]) == (
        "coref", ["entities"], False, [("同指", "K")])
    project.add_relation(Relation("r1", "同指", "a", "b", "mia", "coref"))
    with pytest.raises(ModelError, match="the 同指 relation b - a is already there"):
        project.add_relation(Relation("r2", "同指", "b", "a", "mia", "coref"))
    with pytest.raises(ModelError, match="links spans of entities; span 'm' is on layer 'mwe'"):
        project.add_relation(Relation("r3", "同指", "a", "m", "mia", "coref"))
    # The default layer stays directed and open to every span layer.
    project.add_relation(Relation("r4", "part-of", "b", "a", "mia"))
    project.add_relation(Relation("r5", "part-of", "a", "b", "mia"))
    project.add_relation(Relation("r6", "part-of", "m", "a", "mia"))
    # Saved and read back: the layer keeps what it connects and its direction.
    back = loads(dumps(project))
    assert back.settings.relation_layers == project.settings.relation_layers
    assert sorted(r.id for r in back.relations) == ["r1", "r4", "r5", "r6"]


def test_schema_checks_name_connects_keys_and_a_layer_in_use():
    project = _project()
    with pytest.raises(ModelError, match="no span layer 'words' to connect"):
        with_new_relation_layer(project, "coref", "same=K", ["words"])
    with pytest.raises(ModelError, match="non-empty without spaces"):
        with_new_relation_layer(project, "co ref", "same=K")
    with pytest.raises(ModelError, match="key R is taken by relation layer relations"):
        with_new_relation_layer(project, "coref", "same=R")
    with pytest.raises(ModelError, match="already has a relation layer 'relations'"):
        with_new_relation_layer(project, "relations", "same=K")
    apply_schema(project, with_new_relation_layer(project, "coref", "same=K", ["entities"]))
    project.add_relation(Relation("r1", "same", "a", "b", "mia", "coref"))
    changed = schema_of(project.settings)
    changed.relation_layers[-1].directed = False
    with pytest.raises(ModelError, match="'coref' holds 1 relation: the span layers it connects and its direction"):
        check_schema(project, changed)
    gone = schema_of(project.settings)
    del gone.relation_layers[-1]
    with pytest.raises(ModelError, match="relation layer 'coref' holds 1 relation: remove them first"):
        check_schema(project, gone)


def test_a_bundle_without_the_new_keys_reads_as_before():
    project = _project()
    text = dumps(project)
    assert '"connects"' not in text and '"directed"' not in text
    assert loads(text).settings.relation_layers[0].directed is True
