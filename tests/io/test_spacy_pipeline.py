"""Pre-annotation with a spaCy pipeline trained here, at test time, and the refusal of pipelines
that reference code outside spaCy's own components."""

from __future__ import annotations

import json
import random
import shutil

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.io.annotations.spacy_pipeline import check_pipeline, load_pipeline, suggest_entities

spacy = pytest.importorskip("spacy", reason="pre-annotation tests need spaCy (the 'annotate' extra)")

TRAIN = [
    ("Anna lives in Berlin.", [(0, 4, "PERSON"), (14, 20, "GPE")]),
    ("Boris works in Moscow.", [(0, 5, "PERSON"), (15, 21, "GPE")]),
    ("Carla moved to Paris.", [(0, 5, "PERSON"), (15, 20, "GPE")]),
    ("Dmitri flew to Tokyo.", [(0, 6, "PERSON"), (15, 20, "GPE")]),
]


@pytest.fixture(scope="module")
def tiny_pipeline(tmp_path_factory):
    """A blank English pipeline with an NER trained on four sentences, written to disk."""
    from spacy.training import Example

    nlp = spacy.blank("en")
    ner = nlp.add_pipe("ner")
    for _, entities in TRAIN:
        for _, _, label in entities:
            ner.add_label(label)
    examples = [Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in TRAIN]
    random.seed(0)
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(40):
        nlp.update(examples, sgd=optimizer, drop=0.0)
    folder = tmp_path_factory.mktemp("pipeline") / "tiny-ner"
    nlp.to_disk(folder)
    return folder


def copy_of(folder, tmp_path):
    target = tmp_path / "copy"
    shutil.copytree(folder, target)
    return target


def test_check_and_suggest(tiny_pipeline):
    info = check_pipeline(tiny_pipeline)
    assert info.language == "en" and info.components == ("ner",)
    assert set(info.labels) == {"PERSON", "GPE"}
    nlp = load_pipeline(tiny_pipeline)
    texts = {"s1": "Anna lives in Berlin.", "s2": "Boris works in Moscow."}
    suggestions = suggest_entities(nlp, texts, "ref", "tiny-ner")
    found = {(s.segment, texts[s.segment][s.start:s.end], s.label) for s in suggestions}
    assert ("s1", "Anna", "PERSON") in found and ("s2", "Moscow", "GPE") in found
    assert all(s.source == "tiny-ner" and s.target == "ref" for s in suggestions)


def test_unknown_factory_refused_before_loading(tiny_pipeline, tmp_path):
    folder = copy_of(tiny_pipeline, tmp_path)
    cfg = folder / "config.cfg"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('factory = "ner"', 'factory = "my_plugin_ner"'),
                   encoding="utf-8")
    with pytest.raises(DataError, match=r"\[components.ner\] factory = \"my_plugin_ner\""):
        load_pipeline(folder)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('@architectures = "spacy.TransitionBasedParser.v2"',
                         '@architectures = "evil_pkg.Parser.v1"'), "evil_pkg.Parser.v1"),
    (lambda t: t.replace("[system]", "[system]\ncode = \"functions.py\""), "code"),
    (lambda t: t.replace('[components.ner]\nfactory = "ner"',
                         '[components.ner]\nfactory = "ner"\nsource = "/elsewhere"'), "sourced"),
])
def test_code_references_refused(tiny_pipeline, tmp_path, edit, message):
    folder = copy_of(tiny_pipeline, tmp_path)
    cfg = folder / "config.cfg"
    cfg.write_text(edit(cfg.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(DataError, match=message):
        check_pipeline(folder)


def test_python_files_beside_the_config_refused(tiny_pipeline, tmp_path):
    folder = copy_of(tiny_pipeline, tmp_path)
    (folder / "functions.py").write_text("raise SystemExit('ran')\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"functions\.py"):
        load_pipeline(folder)


def test_not_a_pipeline_folder(tmp_path):
    with pytest.raises(DataError, match=r"no config\.cfg"):
        check_pipeline(tmp_path)
    with pytest.raises(DataError, match="not a folder"):
        check_pipeline(tmp_path / "missing")


# --- the command line and the bundle's record of decisions ----------------------------------------
def make_bundle(path):
    from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment
    from mtworkbench.io.bundle.bundle import save_bundle

    p = Project(documents=[Document("d", [Paragraph("p", [Segment(str(i), "源") for i in (1, 2, 3)])])],
                target_language="en")
    p.add_reference(Reference("ref", texts={"1": "Anna lives in Berlin.", "2": "Boris works in Moscow.",
                                            "3": "Carla moved to Paris."}))
    save_bundle(p, path)


def test_cli_suggest_then_accept_all_keeps_provenance(tiny_pipeline, tmp_path, capsys):
    from mtworkbench.cli import main
    from mtworkbench.io.bundle.bundle import load_bundle

    bundle = tmp_path / "p.mtwb.json"
    make_bundle(bundle)
    before = bundle.read_bytes()
    base = ["entities", "suggest", str(bundle), "--reference", "ref", "--model", str(tiny_pipeline),
            "--annotator", "ann"]
    assert main([*base, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    found = {(s["segment"], s["text"], s["label"]) for s in listed["suggestions"]}
    assert ("1", "Anna", "PERSON") in found and ("2", "Moscow", "LOCATION") in found  # GPE mapped
    assert bundle.read_bytes() == before  # listing saves nothing
    assert main([*base, "--accept-all"]) == 0
    assert "accept rate LOCATION: 100%" in capsys.readouterr().out
    project = load_bundle(bundle)
    spans = {(s.segment, s.start, s.end, s.type) for s in project.spans if s.annotator == "ann"}
    assert ("1", 0, 4, "PERSON") in spans
    assert len(project.suggestion_decisions) == len(listed["suggestions"])
    first = project.suggestion_decisions[0]
    assert first.decision == "accepted" and first.suggestion.source == "spacy:tiny-ner"
    assert first.span_id in {s.id for s in project.spans}
    # Asked again: everything is decided, nothing suggested twice.
    assert main([*base, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["suggestions"] == []


def test_bundle_decisions_round_trip_and_bad_entries(tmp_path):
    from mtworkbench.core.suggestions import Suggestion, SuggestionDecision
    from mtworkbench.io.bundle.bundle import BundleError, dumps, loads

    path = tmp_path / "p.mtwb.json"
    make_bundle(path)
    from mtworkbench.io.bundle.bundle import load_bundle

    project = load_bundle(path)
    plain = dumps(project)
    assert "suggestion_decisions" not in plain  # absent: older bundles stay byte-identical
    s = Suggestion("ref", "2", 15, 21, "LOCATION", "xcomet", severity="major", score=0.8)
    project.suggestion_decisions = [SuggestionDecision(s, "corrected", "e9", "ORGANIZATION"),
                                    SuggestionDecision(s, "rejected")]
    again = loads(dumps(project))
    assert again.suggestion_decisions == project.suggestion_decisions
    data = json.loads(dumps(project))
    data["suggestion_decisions"][0]["decision"] = "maybe"
    with pytest.raises(BundleError, match=r"suggestion_decisions\[0\]\.decision"):
        loads(json.dumps(data))
    data["suggestion_decisions"][0].update(decision="accepted", end=99)
    with pytest.raises(BundleError, match="outside the text"):
        loads(json.dumps(data))
