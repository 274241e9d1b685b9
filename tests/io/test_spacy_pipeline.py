"""Pre-annotation with a spaCy pipeline trained here, at test time, and the refusal of pipelines
that reference code outside spaCy's own components."""

from __future__ import annotations

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
