"""The JSON bundle: validation messages, atomic saves, lossless round trips, migrations."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtworkbench.core import atomic
from mtworkbench.core.errors import BundleError
from mtworkbench.core.model import (
    Document,
    EntitySpan,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.io.bundle import bundle
from mtworkbench.io.bundle.bundle import dumps, load_bundle, loads, project_to_dict, save_bundle

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def small_project() -> Project:
    doc = Document("d1", [Paragraph("p1", [Segment("s1", "Tere, maailm!"), Segment("s2", "")])])
    p = Project([doc], source_language="et", target_language="en", name="tiny")
    p.add_reference(Reference("r1", "A", {"s1": "Hello, Tallinn!", "s2": ""}))
    p.add_reference(Reference("r2", "B", {"s1": "Hi, world!"}))
    p.add_system(System("mt", "machine", {"s1": "Hello world", "s2": " "}))
    p.add_judge("ann")
    p.add_span(EntitySpan("e1", "r1", "s1", 7, 14, "LOCATION", "ann"))
    p.add_judgment(Judgment("j1", "ann", "mt", "s1", "r1", adequacy=4, fluency=3, timestamp="2026-01-01T00:00:00Z", seconds=3.5))
    p.add_judgment(Judgment("j2", "ann", "mt", "s2", None, score=-0.25, scale="da-z"))
    return p


def good_dict() -> dict:
    return project_to_dict(small_project())


def test_round_trip_is_lossless_and_stable(tmp_path):
    path = tmp_path / "p.mtwb.json"
    save_bundle(small_project(), path)
    text = path.read_text(encoding="utf-8")
    again = load_bundle(path)
    assert dumps(again) == text
    assert text.startswith(f'{{\n  "format": "mtworkbench-project",\n  "format_version": {bundle.FORMAT_VERSION},')
    assert "Tallinn" in text and "\\u" not in text  # UTF-8, not escaped


def test_save_keeps_previous_file_as_bak(tmp_path):
    path = tmp_path / "p.mtwb.json"
    project = small_project()
    save_bundle(project, path)
    first = path.read_bytes()
    project.set_segment_source("s1", "changed")
    save_bundle(project, path)
    assert (tmp_path / "p.mtwb.json.bak").read_bytes() == first
    assert load_bundle(path).segment("s1").source == "changed"


def test_failure_between_write_and_rename_leaves_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "p.mtwb.json"
    project = small_project()
    save_bundle(project, path)
    before = path.read_bytes()

    def explode(tmp_name, target):
        raise OSError("disk pulled out")

    monkeypatch.setattr(atomic, "_replace", explode)
    project.set_segment_source("s1", "this must not reach the disk")
    with pytest.raises(OSError, match="disk pulled out"):
        save_bundle(project, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def _mutate(fn):
    data = good_dict()
    fn(data)
    return data


# A stored learned model's shape (as LearnedModel.to_json writes it; values arbitrary).
LEARNED = {"kind": "svc-rbf", "version": 1, "features": ["f"], "tokenize": "13a", "lowercase": False,
           "feature_mean": [0.0], "feature_scale": [1.0], "gamma": 0.5, "C": 1.0, "sigma": None,
           "intercept": 0.1, "dual_coef": [1.0], "support_vectors": [[0.5]], "report": {}}


# (description, mutation, expected JSON path, expected words in the message)
MALFORMATIONS = [
    ("wrong format", lambda d: d.update(format="something-else"), "$.format", "not an mtworkbench project"),
    ("newer version", lambda d: d.update(format_version=99), "$.format_version", "newer than this mtworkbench supports"),
    ("version not int", lambda d: d.update(format_version="1"), "$.format_version", "must be an integer"),
    ("unknown version", lambda d: d.update(format_version=0), "$.format_version", "unknown format_version"),
    ("missing documents", lambda d: d.pop("documents"), "$", "missing field 'documents'"),
    ("documents not a list", lambda d: d.update(documents={}), "$.documents", "expected a list"),
    ("duplicate segment id", lambda d: d["documents"][0]["paragraphs"][0]["segments"][1].update(id="s1"),
     "$.documents[0].paragraphs[0].segments[1].id", "duplicate segment id 's1'"),
    ("empty id", lambda d: d["documents"][0].update(id="  "), "$.documents[0].id", "non-empty id"),
    ("source not a string", lambda d: d["documents"][0]["paragraphs"][0]["segments"][0].update(source=5),
     "$.documents[0].paragraphs[0].segments[0].source", "expected a string, found an integer"),
    ("reference text for unknown segment", lambda d: d["references"][0]["texts"].update(s9="x"),
     "$.references[0].texts.s9", "unknown segment 's9'"),
    ("system missing a segment", lambda d: d["systems"][0]["texts"].pop("s2"), "$.systems[0].texts",
     "missing text for segment 's2'"),
    ("duplicate system", lambda d: d["systems"].append(copy.deepcopy(d["systems"][0])), "$.systems[1].id",
     "duplicate system id 'mt'"),
    ("bad system kind", lambda d: d["systems"][0].update(kind="robot"), "$.systems[0].kind", "machine, human"),
    ("span outside its text", lambda d: d["entity_spans"][0].update(end=99), "$.entity_spans[0].end",
     "outside its text"),
    ("span on unknown reference", lambda d: d["entity_spans"][0].update(reference="r9"),
     "$.entity_spans[0].reference", "unknown reference 'r9'"),
    ("span start not int", lambda d: d["entity_spans"][0].update(start=1.5), "$.entity_spans[0].start",
     "expected an integer, found a number"),
    ("span of unknown type", lambda d: d["entity_spans"][0].update(type="ANIMAL"), "$.entity_spans[0]",
     "unknown entity type 'ANIMAL'"),
    ("rating out of range", lambda d: d["judgments"][0].update(adequacy=6), "$.judgments[0].adequacy",
     "rating out of range: expected 1 to 5, found 6"),
    ("rating is a boolean", lambda d: d["judgments"][0].update(fluency=True), "$.judgments[0].fluency",
     "expected an integer, found a boolean"),
    ("judgment by unknown judge", lambda d: d["judgments"][0].update(judge="zed"), "$.judgments[0].judge",
     "unknown judge 'zed'"),
    ("judgment of unknown system", lambda d: d["judgments"][1].update(system="nope"), "$.judgments[1].system",
     "unknown system 'nope'"),
    ("duplicate judgment id", lambda d: d["judgments"][1].update(id="j1"), "$.judgments[1]",
     "duplicate judgment id 'j1'"),
    ("score without scale", lambda d: d["judgments"][1].update(scale=None), "$.judgments[1]",
     "needs its scale named"),
    ("unknown field", lambda d: d["systems"][0].update(colour="red"), "$.systems[0].colour", "unknown field 'colour'"),
    ("baseline unknown", lambda d: d["settings"].update(baseline="ghost"), "$.settings.baseline",
     "unknown system 'ghost'"),
    ("duplicate entity key", lambda d: d["settings"]["entity_types"][1].update(key="p"),
     "$.settings.entity_types[1].key", "not used by another type"),
    ("queue for unknown judge", lambda d: d.update(judge_queues={"nobody": {}}), "$.judge_queues.nobody",
     "unknown judge 'nobody'"),
    ("learned model with a text in its vectors",
     lambda d: d.update(learned_model={**LEARNED, "support_vectors": [[0.5, "x"]]}),
     "$.learned_model.support_vectors[0][1]", "expected a number"),
    ("learned model without gamma", lambda d: d.update(learned_model={k: v for k, v in LEARNED.items() if k != "gamma"}),
     "$.learned_model", "missing field 'gamma'"),
    ("queue without its seed", lambda d: d.update(judge_queues={d["judges"][0]: {"format": 1}}),
     f"$.judge_queues.{good_dict()['judges'][0]}", "missing field 'documents'"),
]


@pytest.mark.parametrize("name,mutation,path,words", MALFORMATIONS, ids=[m[0] for m in MALFORMATIONS])
def test_malformed_bundle_is_refused_with_path_and_reason(tmp_path, name, mutation, path, words):
    target = tmp_path / "bad.mtwb.json"
    target.write_text(json.dumps(_mutate(mutation)), encoding="utf-8")
    with pytest.raises(BundleError) as info:
        load_bundle(target)
    message = str(info.value)
    assert info.value.json_path == path
    assert message.startswith(f"{target}: {path}: ")
    assert words in message


def test_not_json_names_line_and_column(tmp_path):
    target = tmp_path / "bad.mtwb.json"
    target.write_text('{\n  "format": "mtworkbench-project",\n  oops\n}', encoding="utf-8")
    with pytest.raises(BundleError, match=r"not valid JSON: .* line 3, column 3"):
        load_bundle(target)


def test_invalid_utf8_names_byte_offset(tmp_path):
    target = tmp_path / "bad.mtwb.json"
    target.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(Exception, match=r"invalid UTF-8 at byte offset 12"):
        load_bundle(target)


def test_top_level_not_an_object():
    with pytest.raises(BundleError, match=r"\$: expected an object, found a list"):
        loads("[]")


def test_migration_path_to_version_2(monkeypatch):
    """A version-1 fixture goes through a registered migration when the format moves on."""
    v1 = json.loads((FIXTURES / "bundle-v1.mtwb.json").read_text(encoding="utf-8"))
    assert v1["format_version"] == 1

    def v1_to_v2(data):
        # A hypothetical v2 renames "judges" to "raters"; this migration maps it back
        # for the current loader, as a real one would map old names to new ones.
        data = dict(data)
        data["raters"] = data.pop("judges")
        return data

    calls = []

    def v2_reader(data):
        calls.append(data["format_version"])
        data = dict(data)
        data["judges"] = data.pop("raters")
        return data

    monkeypatch.setattr(bundle, "FORMAT_VERSION", 3)
    monkeypatch.setitem(bundle.MIGRATIONS, 1, v1_to_v2)
    monkeypatch.setitem(bundle.MIGRATIONS, 2, v2_reader)
    migrated = bundle.migrate(copy.deepcopy(v1))
    assert migrated["format_version"] == 3
    assert calls == [2]
    assert migrated["judges"] == v1["judges"]


def test_missing_migration_is_refused(monkeypatch):
    version_1 = good_dict()
    version_1["format_version"] = 1
    monkeypatch.delitem(bundle.MIGRATIONS, 1)
    with pytest.raises(BundleError, match="no migration from format_version 1"):
        bundle.migrate(version_1)


def test_fixture_v1_loads_today():
    project = load_bundle(FIXTURES / "bundle-v1.mtwb.json")
    assert project.segment_ids == ["s1", "s2"]


# --- property test: any project survives save and load unchanged ----------------------
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20)
ids = st.text(alphabet="abcdefghij0123456789-_", min_size=1, max_size=6)


@st.composite
def projects(draw):
    seg_ids = draw(st.lists(ids, min_size=1, max_size=6, unique=True))
    split = draw(st.integers(0, len(seg_ids)))
    docs = [Document("D1", [Paragraph("P1", [Segment(s, draw(texts)) for s in seg_ids[:split]])])]
    if split < len(seg_ids):
        docs.append(Document("D2", [Paragraph("P2", [Segment(s, draw(texts)) for s in seg_ids[split:]])]))
    p = Project(docs, source_language=draw(texts), target_language="en", name=draw(texts))
    n_refs = draw(st.integers(1, 3))
    for k in range(n_refs):
        present = draw(st.lists(st.sampled_from(seg_ids), unique=True))
        p.add_reference(Reference(f"r{k}", draw(texts), {s: draw(texts) for s in present}))
    p.add_system(System("sys", draw(st.sampled_from(["machine", "human"])), {s: draw(texts) for s in seg_ids}))
    p.add_judge("judge A")
    for ref in p.references:
        for sid, text in ref.texts.items():
            if len(text) >= 2 and draw(st.booleans()):
                start = draw(st.integers(0, len(text) - 2))
                end = draw(st.integers(start + 1, len(text)))
                p.add_span(EntitySpan(p.new_id("e"), ref.id, sid, start, end,
                                      draw(st.sampled_from(p.entity_type_names)), "ann"))
    for sid in seg_ids:
        if draw(st.booleans()):
            p.add_judgment(Judgment(p.new_id("j"), "judge A", "sys", sid, draw(st.sampled_from([None, "r0"])),
                                    adequacy=draw(st.integers(1, 5)), fluency=draw(st.none() | st.integers(1, 5)),
                                    seconds=draw(st.floats(0, 1e4, allow_nan=False)), comment=draw(texts)))
    return p


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(projects())
def test_round_trip_property(tmp_path, project):
    path = tmp_path / "prop.mtwb.json"
    save_bundle(project, path)
    loaded = load_bundle(path)
    assert project_to_dict(loaded) == project_to_dict(project)
    assert dumps(loaded) == dumps(project)


def test_stored_learned_model_round_trips(tmp_path):
    project = small_project()
    project.set_learned_model(dict(LEARNED))
    path = tmp_path / "p.mtwb.json"
    save_bundle(project, path)
    assert load_bundle(path).learned_model == LEARNED
