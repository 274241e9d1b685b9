"""The mtme-zh-mwe annotation of the WMT22 zh-en sources imports onto a source layer
with its nested, overlapping and discontinuous spans."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtworkbench.core.layers import outermost
from mtworkbench.core.model import Document, Paragraph, Project, Segment
from mtworkbench.io.annotations.source_entities import import_source_entities
from mtworkbench.io.bundle.bundle import dumps, loads

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "wmt22-zh-en-mtme"


def _sources_project(lines: list[str]) -> Project:
    doc = Document("d", [Paragraph("p", [Segment(str(i), t) for i, t in enumerate(lines)])])
    return Project([doc], source_language="zh", target_language="en")


@pytest.mark.skipif(not (DATA / "source-entities.all.json").is_file(), reason="shared WMT22 zh-en data absent")
def test_real_file_imports_nested_overlapping_and_discontinuous_spans():
    lines = (DATA / "sources" / "zh-en.txt").read_text(encoding="utf-8").split("\n")[:1875]
    project = _sources_project(lines)
    result = import_source_entities(project, DATA / "source-entities.all.json", "mtme")
    spans = result.added
    assert len(spans) > 4000
    assert len(result.created_types) == 28 and "EVENT" in result.created_types and "VPC.semi" in result.created_types
    assert sum(1 for s in spans if s.fragments) > 150
    for s in spans:  # every span marks the value the file gives
        assert s.reference == "" and s.layer == "source-entities"
        assert all(0 <= a < b <= len(lines[int(s.segment)]) for a, b in s.parts)
    by_segment: dict[str, list] = {}
    for s in spans:
        by_segment.setdefault(s.segment, []).append(s)
    assert any(len(outermost(v)) < len(v) for v in by_segment.values())  # something nests
    # One real record: 浙大学术年会 is an EVENT, 新华网 an ORG.
    seg3 = {(lines[3][s.start:s.end], s.type) for s in by_segment["3"]}
    assert ("浙大学术年会", "EVENT") in seg3 and ("新华网", "ORG") in seg3
    back = loads(dumps(project))
    assert back.spans == project.spans


def test_offsets_that_miss_their_value_are_relocated_or_skipped(tmp_path):
    project = _sources_project(["据每年报告，运作起整个系统来。"])
    data = [{"index": 0, "property": "", "categories": [
        {"start": 0, "end": 2, "value": "每年", "category": "DATE"},  # off by one
        {"start": [6, 9], "end": [13, 14], "value": ["运作起", "来"], "category": "VPC.semi"},
        {"start": 0, "end": 2, "value": "没有", "category": "X"},
    ]}]
    path = tmp_path / "e.json"
    path.write_text("\ufeff" + json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = import_source_entities(project, path, "a")
    got = sorted((s.type, s.start, s.end, s.fragments) for s in result.added)
    assert got == [("DATE", 1, 3, ()), ("VPC.semi", 6, 14, ((6, 9), (13, 14)))]
    assert result.relocated == 1 and result.skipped == [(0, "没有")]
