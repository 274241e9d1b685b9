"""``mtworkbench human-scores`` for LDC, ESA and DA on a small bundle with hand-known means."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, ErrorSpan, Judgment, Paragraph, Project, Segment, System
from mtworkbench.io.bundle.bundle import save_bundle


@pytest.fixture
def bundle(tmp_path):
    segs = [Segment("a", "eins"), Segment("b", "zwei")]
    p = Project([Document("d", [Paragraph("p", segs)])],
                systems=[System("S1", texts={"a": "one", "b": "two"}), System("S2", texts={"a": "1", "b": "2"})])
    for judge in ("x", "y"):
        p.add_judge(judge)
    add = p.add_judgment
    add(Judgment("l1", "x", "S1", "a", adequacy=4, fluency=2))
    add(Judgment("l2", "y", "S1", "a", adequacy=3, fluency=5))
    add(Judgment("l3", "x", "S1", "a", adequacy=2, fluency=2))  # x's repeat: x counts once, mean 3
    add(Judgment("e1", "x", "S1", "b", score=90, scale="esa", protocol="esa", errors=(ErrorSpan(0, 1, "minor"),)))
    add(Judgment("e2", "y", "S1", "b", score=70, scale="esa", protocol="esa"))
    add(Judgment("e3", "x", "S2", "a", score=10, scale="esa", protocol="esa", errors=(ErrorSpan(0, 1, "major"),)))
    add(Judgment("d1", "x", "S2", "b", score=40, scale="da", protocol="da"))
    add(Judgment("d2", "x", "S1", "b", score=80, scale="da", protocol="da"))
    path = tmp_path / "h.mtwb.json"
    save_bundle(p, path)
    return path


def run(capsys, *args):
    assert main(["human-scores", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)["scores"]


def test_ldc_esa_da_segment_and_system(bundle, capsys):
    b = str(bundle)
    assert run(capsys, b, "--protocol", "ldc") == [{"system": "S1", "segment": "a", "score": 3.0, "raters": 2}]
    assert run(capsys, b, "--protocol", "ldc", "--field", "fluency")[0]["score"] == 3.5
    assert run(capsys, b, "--protocol", "esa") == [
        {"system": "S1", "segment": "b", "score": 80.0, "raters": 2},
        {"system": "S2", "segment": "a", "score": 10.0, "raters": 1}]
    assert run(capsys, b, "--protocol", "esa", "--level", "system") == [
        {"system": "S1", "score": 80.0, "segments": 1, "raters": 2},
        {"system": "S2", "score": 10.0, "segments": 1, "raters": 1}]
    assert run(capsys, b, "--protocol", "da", "--system", "S2") == [
        {"system": "S2", "segment": "b", "score": 40.0, "raters": 1}]
    # z: x's DA scores 40 and 80 become -1 and +1.
    assert [r["score"] for r in run(capsys, b, "--protocol", "da", "--z")] == [1.0, -1.0]


def test_errors(bundle, capsys):
    b = str(bundle)
    assert main(["human-scores", b, "--protocol", "mqm"]) == 1
    assert "no judgments for human score 'mqm'" in capsys.readouterr().err
    assert main(["human-scores", b, "--protocol", "da", "--weights", "major=5"]) == 2
    assert main(["human-scores", b, "--protocol", "esa", "--system", "nope"]) == 1
    assert "no system 'nope'" in capsys.readouterr().err
    assert main(["human-scores", b, "--protocol", "esa"]) == 0
    assert "S2" in capsys.readouterr().out
