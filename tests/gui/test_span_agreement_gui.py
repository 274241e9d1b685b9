"""Judge workspace, Agreement tab: span agreement of MQM raters (span F1, severity, score correlation)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mtworkbench.analysis.span_agreement import span_agreement
from mtworkbench.gui.judge.workspace import JudgeWorkspace
from mtworkbench.gui.session import ProjectSession
from tests.gui.span_project import span_project


def open_agreement(qtbot, project):
    session = ProjectSession()
    ws = JudgeWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1280, 800)
    session.replace_project(project, None)
    ws.show()
    qtbot.waitExposed(ws)
    ws.tabs.setCurrentWidget(ws.agreement)
    qtbot.waitUntil(lambda: ws.agreement.isVisible())
    qtbot.waitUntil(lambda: not ws.agreement.span_timer.isActive())
    return ws


def rows(table):
    model = table.model()
    header = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    return header, [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_span_table_shows_the_two_raters_agreement(qtbot, screenshot_dir):
    project = span_project()
    ws = open_agreement(qtbot, project)
    panel = ws.agreement
    assert panel.span_table.isVisible() and panel.span_caption.isVisible()
    header, body = rows(panel.span_table)
    assert header[0] == "Raters" and "Exact\nspan F1" in header and "Overlap\nF1" in header
    assert len(body) == 1
    row = dict(zip(header, body[0]))
    assert row["Raters"] == "r1  ×  r2" and row["Protocol"] == "MQM" and row["Shared\nitems"] == "4"
    assert row["Spans"] == "5 / 3"
    # by hand: exact matches "tiny" and "House small is" -> 2*2/(5+3) = 0.5
    assert row["Exact\nspan F1"] == "0.500"
    # severities paired by overlap: tiny (Minor, Minor), loud (Major vs Minor), House.. (Major, Major) -> 2 of 3
    assert row["Severity\nsame"] == "67%"
    expected = span_agreement(project.judgments)[0]
    assert row["Overlap\nF1"] == f"{expected.overlap_f1:.3f}"
    assert row["Score\nr"] == ("—" if expected.pearson is None else f"{expected.pearson:.3f}")
    ws.grab().save(str(screenshot_dir / "judge-span-agreement.png"))


def test_no_span_table_without_span_judgments(qtbot):
    ws = open_agreement(qtbot, span_project(with_spans=False))
    panel = ws.agreement
    assert not panel.span_table.isVisible() and not panel.span_caption.isVisible()


def test_rater_names_are_plain_text(qtbot):
    from mtworkbench.core.model import ErrorSpan, Judgment
    project = span_project()
    project.add_judge("<b>x</b>")
    project.add_judgment(Judgment("jx", "<b>x</b>", "sysA", "1", None, protocol="mqm",
                                  errors=(ErrorSpan(10, 14, "Minor", "Accuracy"),)))
    ws = open_agreement(qtbot, project)
    panel = ws.agreement
    _, body = rows(panel.span_table)
    assert any(r[0] == "r1  ×  <b>x</b>" for r in body)
