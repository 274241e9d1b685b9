"""Bundle format version 2 (issue 15): judgments carry protocol, error spans and QC role.

Round trips both ways: a version-1 file migrates losslessly (v1 -> load -> save v2 ->
load gives the same project), and a version-2 project with every new field saves
and loads exactly.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mtworkbench.core.errors import BundleError
from mtworkbench.core.model import (
    Document,
    ErrorSpan,
    Judgment,
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


def span_project() -> Project:
    doc = Document("d1", [Paragraph("p1", [Segment("1", "Der Hund bellt."), Segment("2", "Ja.")])])
    p = Project([doc], source_language="de", target_language="en")
    p.add_reference(Reference("r1", "A", {"1": "The dog barks.", "2": "Yes."}))
    p.add_system(System("mt", "machine", {"1": "The hound bark.", "2": "Yes."}))
    for judge in ("rater1", "rater2"):
        p.add_judge(judge)
    p.add_judgment(Judgment("m1", "rater1", "mt", "1", protocol="mqm", errors=(
        ErrorSpan(4, 9, "Minor", "Terminology/Inappropriate for context", "hound?"),
        ErrorSpan(10, 14, "Major", "Fluency/Grammar"),
        ErrorSpan(None, None, "Minor", "Accuracy/Omission", source_start=0, source_end=3),
    )))
    p.add_judgment(Judgment("m2", "rater2", "mt", "2", protocol="mqm"))  # rated, no errors
    p.add_judgment(Judgment("e1", "rater1", "mt", "2", score=87.5, scale="esa", protocol="esa",
                            errors=(ErrorSpan(0, 3, "minor"),)))
    p.add_judgment(Judgment("d1", "rater2", "mt", "1", "r1", score=12.0, scale="da", qc="bad",
                            text="The hound dog."))
    p.add_judgment(Judgment("l1", "rater2", "mt", "1", "r1", adequacy=3, fluency=2))
    return p


def test_v2_round_trip_is_exact(tmp_path):
    project = span_project()
    path = tmp_path / "v2.mtwb.json"
    save_bundle(project, path)
    text = path.read_text(encoding="utf-8")
    assert json.loads(text)["format_version"] == bundle.FORMAT_VERSION
    loaded = load_bundle(path)
    assert dumps(loaded) == text
    assert [j for j in loaded.judgments] == project.judgments  # dataclass equality, spans included
    m1 = loaded.judgment("m1")
    assert m1.errors[2].source_start == 0 and m1.errors[2].start is None
    assert loaded.judgment("m2").errors == () and loaded.judgment("m2").protocol == "mqm"
    assert loaded.judgment("d1").qc == "bad" and loaded.judgment("d1").text == "The hound dog."


def test_v1_fixture_migrates_losslessly(tmp_path):
    v1 = json.loads(FIXTURE_V1.read_text(encoding="utf-8"))
    assert v1["format_version"] == 1
    project = load_bundle(FIXTURE_V1)
    path = tmp_path / "migrated.mtwb.json"
    save_bundle(project, path)
    v2 = json.loads(path.read_text(encoding="utf-8"))
    assert v2["format_version"] == bundle.FORMAT_VERSION
    # Every version-1 field survives with its value; only the new fields are added.
    for key, value in v1.items():
        if key == "entity_spans":  # version 3 adds each span's layer, nothing else
            assert [{k: s[k] for k in old} for old, s in zip(value, v2[key], strict=True)] == value
        elif key == "settings":
            assert {k: v2[key][k] for k in value} == value
        elif key not in ("format_version", "judgments"):
            assert v2[key] == value, key
    for old, new in zip(v1["judgments"], v2["judgments"], strict=True):
        assert {k: new[k] for k in old} == old
        assert new["protocol"] == "ldc" and new["errors"] == [] and new["qc"] == "" and new["text"] is None
    again = load_bundle(path)
    assert project_to_dict(again) == project_to_dict(project)
    assert again.judgments == project.judgments


def test_v1_score_judgments_get_their_protocol_from_the_scale():
    v1 = json.loads(FIXTURE_V1.read_text(encoding="utf-8"))
    base = v1["judgments"][0]
    v1["judgments"] = [
        base,
        dict(base, id="j2", adequacy=None, fluency=None, score=-0.5, scale="da-z"),
        dict(base, id="j3", adequacy=None, fluency=None, score=-3.0, scale="mqm"),
        dict(base, id="j4", adequacy=None, fluency=None, score=0.7, scale="hter"),
    ]
    migrated = bundle.migrate(copy.deepcopy(v1))
    assert [j["protocol"] for j in migrated["judgments"]] == ["ldc", "da", "mqm", "scalar"]
    project = bundle.project_from_dict(v1)
    assert [j.protocol for j in project.judgments] == ["ldc", "da", "mqm", "scalar"]
    assert project.judgment("j3").score == -3.0


def test_bad_error_span_names_its_json_path():
    data = project_to_dict(span_project())
    data["judgments"][0]["errors"][0]["end"] = 99
    with pytest.raises(BundleError, match=r"\$\.judgments\[0\].*outside the translation"):
        bundle.project_from_dict(data)
    data = project_to_dict(span_project())
    data["judgments"][0]["errors"][1]["severity"] = 5
    with pytest.raises(BundleError, match=r"\$\.judgments\[0\]\.errors\[1\]\.severity: expected a string"):
        bundle.project_from_dict(data)
    data = project_to_dict(span_project())
    data["judgments"][1]["protocol"] = "sqm"
    with pytest.raises(BundleError, match=r"\$\.judgments\[1\]\.protocol: unknown protocol 'sqm'"):
        bundle.project_from_dict(data)


def test_model_refuses_spans_outside_the_text_and_on_ldc():
    p = span_project()
    with pytest.raises(ModelError, match="outside the translation"):
        p.add_judgment(Judgment("x", "rater1", "mt", "2", protocol="mqm", errors=(ErrorSpan(0, 5, "Major"),)))
    with pytest.raises(ModelError, match="cannot carry error spans"):
        p.add_judgment(Judgment("x", "rater1", "mt", "2", adequacy=3, errors=(ErrorSpan(0, 1, "Major"),)))
    with pytest.raises(ModelError, match="needs adequacy, fluency or a score"):
        p.add_judgment(Judgment("x", "rater1", "mt", "2", protocol="esa"))


def test_span_mutators_emit_events_and_invert():
    p = span_project()
    events = []
    p.subscribe(lambda e: events.append((type(e).__name__, e.judgment.id)))
    j = Judgment("m3", "rater2", "mt", "1", protocol="mqm", errors=(ErrorSpan(0, 3, "Minor", "Style/Awkward"),))
    p.add_judgment(j)
    old = p.set_judgment_errors("m3", (ErrorSpan(4, 9, "Major", "Accuracy/Mistranslation"),))
    assert old == j.errors
    assert p.judgment("m3").errors[0].severity == "Major"
    p.set_judgment_errors("m3", old)  # the inverse
    assert p.judgment("m3") == j
    removed = p.remove_judgment("m3")
    assert removed == j
    assert events == [("JudgmentAdded", "m3"), ("JudgmentChanged", "m3"), ("JudgmentChanged", "m3"),
                      ("JudgmentRemoved", "m3")]
    with pytest.raises(ModelError):
        p.set_judgment_errors("m1", (ErrorSpan(0, 99, "Major"),))
    assert len(p.judgment("m1").errors) == 3  # refused changes leave the judgment alone


def test_loads_refuses_newer_version():
    data = project_to_dict(span_project())
    data["format_version"] = bundle.FORMAT_VERSION + 1
    with pytest.raises(BundleError, match="newer than this mtworkbench supports"):
        loads(json.dumps(data))


# --- property: any project with span judgments survives save and load unchanged -----------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@st.composite
def span_projects(draw):
    seg_ids = [f"s{k}" for k in range(draw(st.integers(1, 4)))]
    p = Project([Document("D", [Paragraph("P", [Segment(s, draw(_texts)) for s in seg_ids])])])
    p.add_system(System("sys", "machine", {s: draw(_texts) for s in seg_ids}))
    p.add_judge("r")

    def span(length):
        if length == 0 or draw(st.booleans()):
            return None, None
        a = draw(st.integers(0, length))
        return a, draw(st.integers(a, length))

    for sid in seg_ids:
        protocol = draw(st.sampled_from(["mqm", "esa", "da", "rank"]))
        target = p.system_text("sys", sid)
        errors = []
        if protocol in ("mqm", "esa"):
            for _ in range(draw(st.integers(0, 3))):
                start, end = span(len(target))
                s_start, s_end = span(len(p.segment(sid).source)) if protocol == "mqm" else (None, None)
                errors.append(ErrorSpan(start, end, draw(st.sampled_from(["Major", "minor", "Neutral"])),
                                        draw(_texts), draw(_texts), s_start, s_end))
        score = None if protocol == "mqm" else draw(st.floats(0, 100, allow_nan=False))
        p.add_judgment(Judgment(p.new_id("j"), "r", "sys", sid, score=score,
                                scale=None if score is None else protocol, protocol=protocol,
                                errors=tuple(errors), comment=draw(_texts)))
    return p


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(span_projects())
def test_span_round_trip_property(tmp_path, project):
    path = tmp_path / "prop.mtwb.json"
    save_bundle(project, path)
    loaded = load_bundle(path)
    assert loaded.judgments == project.judgments
    assert dumps(loaded) == dumps(project)
