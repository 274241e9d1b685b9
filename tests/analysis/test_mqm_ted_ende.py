"""Recomputing Google's published MQM segment averages from the raw TED en-de ratings
(../shared/data/mqm-ted-ende): all 7,406 values, and the raw rows back on export."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main

pytestmark = pytest.mark.shared


def published(path) -> dict[tuple[str, str], float]:
    """``system<TAB>score seg_id`` rows; ``None`` = nobody rated it. The raw file calls the
    reference ``ref``, the averages ``ref-A``: the only renaming, stated here."""
    out = {}
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0] == "system mqm_avg_score seg_id"
    for line in filter(None, lines[1:]):
        system, rest = line.split("\t")
        value, seg_id = rest.split(" ")
        if value != "None":
            out[("ref" if system == "ref-A" else system, seg_id)] = float(value)
    return out


def test_all_published_segment_averages(shared_dir, tmp_path, capsys):
    data = shared_dir / "data" / "mqm-ted-ende"
    bundle = tmp_path / "ted.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(data / "mqm_ted_ende.tsv"), "-o", str(bundle)]) == 0
    capsys.readouterr()
    assert main(["human-scores", str(bundle), "--protocol", "mqm", "--json"]) == 0
    ours = {(r["system"], r["segment"]): r["score"] for r in json.loads(capsys.readouterr().out)["scores"]}
    expected = published(data / "mqm_ted_ende.avg_seg_scores.tsv")
    assert len(expected) == 7406
    assert set(ours) == set(expected)
    worst = max(abs(ours[k] - expected[k]) for k in expected)
    assert worst <= 1e-6

    exported = tmp_path / "back.tsv"
    assert main(["judgments", "export", str(bundle), "--format", "mqm", "-o", str(exported)]) == 0
    raw = (data / "mqm_ted_ende.tsv").read_text(encoding="utf-8").split("\n")
    back = exported.read_text(encoding="utf-8").split("\n")
    assert back[0] == raw[0]  # same columns
    assert sorted(back[1:]) == sorted(raw[1:])  # same rows, markers where they were
