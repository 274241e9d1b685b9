"""What kept the window from answering while a large project loaded, each tested as a
mechanism (the stall itself is measured in benchmarks/bench_app_start.py, not timed here)."""

from __future__ import annotations

import faulthandler

import pytest

from mtworkbench.core.model import ErrorSpan, Judgment
from mtworkbench.gui import disk_watch, start_probe
from mtworkbench.gui.metrics.views import error_marks
from mtworkbench.io.bundle import bundle
from tests.gui.span_project import span_project


def test_the_app_reads_a_valid_bundle_by_sections_not_as_one_json_text(demo_copy, monkeypatch):
    # One json.loads of the whole file held the interpreter's lock for seconds on the reader
    # thread; the sectioned reader decodes in pieces. The general parser must not be reached.
    def whole_file_parse(*args, **kwargs):
        raise AssertionError("the whole file was parsed as one JSON text")

    monkeypatch.setattr(bundle, "parse_json", whole_file_parse)
    monkeypatch.setattr(bundle, "parse_json_bytes", whole_file_parse)
    state = disk_watch.read_state(demo_copy)
    assert len(state.project.segments) == 50
    assert disk_watch.base_project(state.data, demo_copy).segment_ids == state.project.segment_ids


def test_a_broken_bundle_read_by_the_app_still_names_the_file_and_place(tmp_path):
    bad = tmp_path / "кaputt-壊れた.mtwb.json"
    bad.write_text('{"format": "mtworkbench", "format_version": 1, "documents": [{"id": 5}]}', encoding="utf-8")
    with pytest.raises(Exception) as caught:
        disk_watch.read_state(bad)
    assert bad.name in str(caught.value)


class _NoWalk(dict):
    def items(self):  # the walk over every output that the index must not make
        raise AssertionError("every output's text was visited")


def test_the_error_index_reads_only_the_judged_outputs_texts():
    project = span_project()
    for system in project.systems:
        system.texts = _NoWalk(system.texts)
    index = error_marks.error_index(project)
    assert index.of("sysA", "2"), "the spans of a judged output are indexed"
    assert index.of("sysB", "3") == []


def test_an_open_ended_span_reaches_the_end_of_its_output():
    project = span_project(with_spans=False)
    text = project.system("sysA").texts["1"]
    project.add_judgment(Judgment("jx", "r1", "sysA", "1", None, protocol="mqm",
                                  errors=[ErrorSpan(4, None, "major", "accuracy")]))
    spans = error_marks.error_index(project).of("sysA", "1")
    assert [(s.start, s.end) for s in spans] == [(4, len(text))]


def test_the_probe_dumps_every_threads_stack_while_the_loop_stalls(qtbot, monkeypatch):
    from PySide6.QtWidgets import QMainWindow

    armed = []
    monkeypatch.setattr(faulthandler, "dump_traceback_later", lambda s, **kw: armed.append((s, kw)))
    monkeypatch.setattr(faulthandler, "cancel_dump_traceback_later", lambda: armed.append("cancelled"))
    monkeypatch.setenv(start_probe.PROBE_ENV, "0.05")
    monkeypatch.setenv(start_probe.STALL_DUMP_ENV, "120")
    window = QMainWindow()
    qtbot.addWidget(window)
    probe = start_probe.install(window)
    assert probe is not None and probe.dump_after_s == pytest.approx(0.12)
    window.show()
    qtbot.waitUntil(lambda: "cancelled" in armed, timeout=10_000)
    assert armed[0] == (pytest.approx(0.12), {"repeat": True, "exit": False})


def test_the_entity_list_walks_the_spans_not_every_segment_when_spans_are_fewer(qapp, demo_copy, monkeypatch):
    from mtworkbench.core.model import Project
    from mtworkbench.gui.annotate.entity_list import EntityListModel
    from mtworkbench.io.bundle.bundle import load_bundle

    project = load_bundle(demo_copy)
    annotators = sorted({s.annotator for s in project.spans})
    references = sorted({s.reference for s in project.spans})
    assert annotators and references
    expected = {
        (ref, doc.id, who): [span.id for seg in project.segments_of_document(doc.id)
                             for span in project.spans_for(ref, seg.id, who)]
        for ref in references for doc in project.documents for who in annotators
    }
    assert any(expected.values())
    # As if the project had far more segments than spans (a large import with a few entities).
    monkeypatch.setattr(Project, "span_count", property(lambda self: 0))
    monkeypatch.setattr(Project, "spans_for", lambda *a, **k: pytest.fail("walked every segment"))
    for (ref, doc, who), ids in expected.items():
        assert [s.id for s in EntityListModel._document_spans(project, ref, doc, who)] == ids
    model = EntityListModel()
    model.show(project, references[0], project.documents[0].id, annotators[0])
    assert model.rowCount() == len(expected[(references[0], project.documents[0].id, annotators[0])])
