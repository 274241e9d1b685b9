"""``queue --suggest-spans`` (ESA-AI from xCOMET), ``judgments suggestions --json`` and the ESA
CSV round trip of the suggestions' outcomes, on a Chinese-English project."""

from __future__ import annotations

import json

from mtworkbench.cli import main
from mtworkbench.core.judge_session import JudgeSession, apply_judgment
from mtworkbench.core.span_draft import SpanDraft
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.judgments.protocol_csv import plan_esa_file, protocol_table
from tests.scoring.esa_ai_fixtures import MODEL, register_xcomet, zh_en_project


def run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_queue_with_model_spans_then_accept_rates(tmp_path, monkeypatch, capsys):
    spec = register_xcomet(tmp_path, monkeypatch)
    bundle = tmp_path / "zh-en.mtwb"
    save_bundle(zh_en_project(), bundle)
    code, out, err = run(capsys, ["queue", str(bundle), "--judge", "li", "--protocol", "esa", "--repeat-share", "0",
                                  "--suggest-spans", spec, "-q"])
    assert code == 0, err
    assert f"error spans of {MODEL} pre-marked" in out
    project = load_bundle(bundle)
    state = project.judge_queues["li"]
    assert state.suggestions == spec and all(e.suggested is not None for e in state.items)
    session = JudgeSession(project, "li")
    decided = []
    while session.current is not None:
        item = session.current
        draft = SpanDraft.start("esa", item.suggested)
        if draft.spans:
            draft.remove(0)
        j = session.submit_scored(50, draft.spans, suggestions=draft.outcomes())
        apply_judgment(project, j)
        decided += [o.decision for o in j.suggestions]
    save_bundle(project, bundle)
    code, out, err = run(capsys, ["judgments", "suggestions", str(bundle), "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["suggestions"] == len(decided) > 0
    assert data["total"]["deleted"] == decided.count("deleted") > 0
    assert data["total"]["kept"] == decided.count("kept")
    assert data["models"][0]["model"] == MODEL
    assert {r["severity"] for r in data["rates"]} <= {"minor", "major", "critical"}
    code, out, _ = run(capsys, ["judgments", "suggestions", str(bundle)])
    assert "accept" in out and MODEL in out

    # the ESA CSV carries the outcomes and reads them back
    text = protocol_table(project, "esa")
    assert "suggestions" in text.splitlines()[0] and "=deleted" in text
    csv_path = tmp_path / "esa.csv"
    csv_path.write_text(text, encoding="utf-8")
    fresh = zh_en_project()
    plan = plan_esa_file(fresh, csv_path)
    back = {(j.system, j.segment): j.suggestions for j in plan.judgments}
    for j in project.judgments:
        want = tuple((o.suggestion.start, o.suggestion.end, o.suggestion.severity, o.decision, o.error,
                      o.suggestion.model, o.suggestion.fingerprint) for o in j.suggestions)
        assert tuple((o.suggestion.start, o.suggestion.end, o.suggestion.severity, o.decision, o.error,
                      o.suggestion.model, o.suggestion.fingerprint) for o in back[(j.system, j.segment)]) == want


def test_suggest_spans_is_refused_for_ldc_and_for_a_metric_without_spans(tmp_path, monkeypatch, capsys):
    register_xcomet(tmp_path, monkeypatch)
    bundle = tmp_path / "p.mtwb"
    save_bundle(zh_en_project(), bundle)
    code, _, err = run(capsys, ["queue", str(bundle), "--judge", "li", "--suggest-spans", "chrf"])
    assert code != 0 and "esa or mqm" in err
    code, _, err = run(capsys, ["queue", str(bundle), "--judge", "li", "--protocol", "mqm", "--suggest-spans", "chrf"])
    assert code != 0 and "marks no error spans" in err
    assert "li" not in load_bundle(bundle).judge_queues


def test_an_esa_csv_without_suggestions_is_written_as_before(tmp_path):
    project = zh_en_project()
    project.add_judge("li")
    from mtworkbench.core.model import Judgment
    project.add_judgment(Judgment("j1", "li", "A", "s1", score=80, scale="esa", protocol="esa"))
    assert protocol_table(project, "esa").splitlines()[0] == \
        "rater,system,segment,score,errors,reference,seconds,timestamp,comment"


def test_judgments_jsonl_round_trips_mqm_suggestions_exactly(tmp_path, capsys):
    from mtworkbench.core.model import ErrorSpan, Judgment
    from mtworkbench.core.suggested_spans import SpanOutcome, SuggestedSpan

    project = zh_en_project()
    project.add_judge("王芳")
    offered = (SuggestedSpan(3, 6, "critical", confidence=0.8125, model=MODEL, fingerprint="0123abcd"),
               SuggestedSpan(7, 8, "minor", confidence=0.25, model=MODEL, fingerprint="0123abcd"))
    project.add_judgment(Judgment(
        "j1", "王芳", "A", "s2", protocol="mqm", errors=(ErrorSpan(3, 6, "Major", "Accuracy/Mistranslation"),),
        suggestions=(SpanOutcome(offered[0], "changed", 0), SpanOutcome(offered[1], "deleted")), comment="好"))
    bundle, out = tmp_path / "p.mtwb", tmp_path / "all.jsonl"
    save_bundle(project, bundle)
    code, _, err = run(capsys, ["judgments", "export", str(bundle), "-o", str(out), "--format", "jsonl"])
    assert code == 0, err
    assert "王芳" in out.read_text(encoding="utf-8")  # not escaped
    fresh = tmp_path / "fresh.mtwb"
    save_bundle(zh_en_project(), fresh)
    code, _, err = run(capsys, ["judgments", "import", str(fresh), str(out)])
    assert code == 0, err
    back = load_bundle(fresh).judgments
    assert len(back) == 1 and back[0].suggestions == project.judgments[0].suggestions
    assert back[0].errors == project.judgments[0].errors and back[0].judge == "王芳"


def test_a_jsonl_line_naming_a_missing_error_is_refused_with_its_line(tmp_path):
    import pytest

    from mtworkbench.core.errors import DataError
    from mtworkbench.io.judgments.judgments_jsonl import plan_jsonl_file

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "judge": "li", "system": "A", "segment": "s1", "protocol": "esa", "score": 5, '
                   '"scale": "esa", "errors": [], "suggestions": [{"suggestion": {"start": 0, "end": 2, '
                   '"severity": "minor", "model": "m", "fingerprint": ""}, "decision": "kept", "error": 0}]}\n',
                   encoding="utf-8")
    with pytest.raises(DataError, match=r"bad.jsonl:1: .*suggestions\[0\]\.error"):
        plan_jsonl_file(zh_en_project(), bad)
