"""``mtworkbench entities layers`` and ``layer-add``: list the layers, define a new one
atomically, refuse a bad definition with exit 1 and a message naming the bundle."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.layers import span_layer
from mtworkbench.core.model import Document, EntitySpan, Paragraph, Project, Reference, Segment
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

SOURCES = ["他打破了沙锅问到底。", "Иван живёт в Москве."]


@pytest.fixture
def bundle(tmp_path):
    doc = Document("d", [Paragraph("p", [Segment(str(i), s) for i, s in enumerate(SOURCES)])])
    project = Project([doc], source_language="zh", target_language="en")
    project.add_reference(Reference("ref", "", {"0": "He got to the bottom of it.", "1": "Ivan lives in Moscow."}))
    project.add_span(EntitySpan("e1", "ref", "1", 0, 4, "PERSON", "mia"))
    path = tmp_path / "p.mtwb.json"
    save_bundle(project, path)
    return path


def test_layer_add_then_layers_lists_it(bundle, capsys):
    assert main(["entities", "layer-add", str(bundle), "mwe", "--on", "source", "--types", "IDIOM=I,ИМЯ",
                 "--no-overlap"]) == 0
    assert "added layer mwe on sources with types IDIOM (I), ИМЯ (И)" in capsys.readouterr().out
    layer = span_layer(load_bundle(bundle).settings, "mwe")
    assert (layer.on, layer.nesting, layer.overlap) == ("source", True, False)
    assert main(["entities", "layers", str(bundle), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(s["name"], s["on"], s["spans"]) for s in data["span_layers"]] == [("entities", "reference", 1),
                                                                               ("mwe", "source", 0)]
    assert data["span_layers"][1]["types"][1] == {"name": "ИМЯ", "key": "И", "color": data["span_layers"][1]["types"][1]["color"]}
    assert [t["name"] for t in data["relation_layers"][0]["types"]] == ["translation-of", "part-of"]
    assert main(["entities", "layers", str(bundle)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("entities\ton reference\tnesting and overlap\t1 spans\tPERSON=P")
    assert lines[1] == "mwe\ton source\tnesting\t0 spans\tIDIOM=I ИМЯ=И"


def test_no_nesting_makes_a_flat_layer_and_output_goes_elsewhere(bundle, tmp_path):
    out = tmp_path / "out.mtwb.json"
    assert main(["entities", "layer-add", str(bundle), "errors", "--on", "output", "--types", "MAJOR=J,MINOR=K",
                 "--no-nesting", "-o", str(out)]) == 0
    layer = span_layer(load_bundle(out).settings, "errors")
    assert (layer.nesting, layer.overlap) == (False, False)
    assert [s.name for s in load_bundle(bundle).settings.span_layers] == ["entities"]  # untouched


@pytest.mark.parametrize(("args", "message"), [
    (["entities", "--on", "source", "--types", "A"], "already has a span layer 'entities'"),
    (["mwe", "--on", "source", "--types", "A=R"], "key R is taken by the relation translation-of"),
    (["mwe", "--on", "source", "--types", "A=X,B=X"], "key X is used by two types"),
    (["zwei wörter", "--on", "source", "--types", "A"], "non-empty without spaces"),
])
def test_bad_layers_are_refused_and_the_bundle_is_unchanged(bundle, capsys, args, message):
    before = bundle.read_bytes()
    assert main(["entities", "layer-add", str(bundle), *args]) == 1
    err = capsys.readouterr().err
    assert message in err and str(bundle) in err
    assert bundle.read_bytes() == before


def test_relation_layer_add_links_named_layers_undirected(bundle, capsys):
    assert main(["entities", "relation-layer-add", str(bundle), "coref", "--types", "同指=K,same",
                 "--connects", "entities", "--undirected"]) == 0
    assert "added relation layer coref (undirected, linking entities) with types 同指 (K), same (S)" in \
        capsys.readouterr().out
    layer = load_bundle(bundle).settings.relation_layers[-1]
    assert (layer.name, layer.connects, layer.directed) == ("coref", ["entities"], False)
    assert main(["entities", "layers", str(bundle)]) == 0
    assert "coref\trelations\tlinks entities, undirected\t0 relations\t同指=K same=S" in capsys.readouterr().out.splitlines()
    # An unknown span layer is refused, naming the bundle; the file is unchanged.
    before = bundle.read_bytes()
    assert main(["entities", "relation-layer-add", str(bundle), "more", "--types", "x=X", "--connects", "words"]) == 1
    assert f"{bundle}: relation layer more: no span layer 'words' to connect" in capsys.readouterr().err
    assert bundle.read_bytes() == before
