"""Analysis workspace, "Error counts" tab: table and stacked bars of MQM errors per system."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mtworkbench.analysis.error_counts import error_counts
from mtworkbench.gui.analysis.workspace import AnalysisWorkspace
from mtworkbench.gui.session import ProjectSession
from tests.gui.span_project import span_project


def open_workspace(qtbot, project):
    session = ProjectSession()
    ws = AnalysisWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1280, 800)
    session.replace_project(project, None)
    ws.show()
    qtbot.waitExposed(ws)
    tabs = ws.result_tabs
    tabs.setCurrentIndex(tabs.indexOf(ws.error_panel))
    return ws


def table_rows(panel):
    model = panel.table.model()
    header = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    rows = [[model.index(r, c).data() for c in range(model.columnCount())] for r in range(model.rowCount())]
    return header, rows


def test_table_and_bars_show_counts_per_system_category_severity(qtbot, screenshot_dir):
    ws = open_workspace(qtbot, span_project())
    panel = ws.error_panel
    assert panel.pages.currentIndex() == 1 and not panel.empty_message.isVisible()
    header, rows = table_rows(panel)
    assert header == ["System", "Category", "Major", "Minor", "Total"]
    by_key = {(r[0], r[1]): r[2:] for r in rows}
    # sysA: r1 and r2 both marked "tiny" Minor Mistranslation; grammar: r1 Major, r2 Minor.
    assert by_key[("sysA", "Accuracy/Mistranslation")] == ["0", "2", "2"]
    assert by_key[("sysA", "Fluency/Grammar")] == ["1", "1", "2"]
    assert by_key[("sysB", "Fluency/Grammar")] == ["2", "1", "3"]
    # Bars: one stack per system, Major below Minor, heights = the counts.
    assert panel.bars.stack_heights() == [[1.0, 2.0], [3.0, 2.0]]
    qtbot.waitUntil(lambda: panel.bars.getPlotItem().getAxis("left").width() > 20)
    assert_axis_label_clear(panel.bars)
    ws.grab().save(str(screenshot_dir / "analysis-error-counts.png"))


def test_top_level_and_per_segment_choices_regroup(qtbot):
    project = span_project()
    ws = open_workspace(qtbot, project)
    panel = ws.error_panel
    qtbot.mouseClick(panel.top_level_check, Qt.MouseButton.LeftButton)
    _, rows = table_rows(panel)
    assert {(r[0], r[1]) for r in rows} == {("sysA", "Accuracy"), ("sysA", "Fluency"),
                                           ("sysB", "Accuracy"), ("sysB", "Fluency")}
    qtbot.mouseClick(panel.per_segment_check, Qt.MouseButton.LeftButton)
    counts = error_counts(project.judgments, "mqm")
    major_a = counts.count("sysA", severity="Major") / counts.rated["sysA"]
    assert panel.bars.stack_heights()[0][0] == pytest.approx(major_a)


def test_empty_state_without_span_judgments(qtbot):
    ws = open_workspace(qtbot, span_project(with_spans=False))
    panel = ws.error_panel
    assert panel.empty_message.isVisible()
    assert "no error-span judgments" in panel.empty_message.text()
    assert panel.table.model().rowCount() == 0


def test_markup_in_data_stays_text(qtbot):
    from mtworkbench.core.model import ErrorSpan, Judgment
    project = span_project()
    project.add_judge("<i>x</i>")
    project.add_judgment(Judgment("jx", "<i>x</i>", "sysA", "3", None, protocol="mqm",
                                  errors=(ErrorSpan(0, 2, "<b>Big</b>", "<h1>Cat</h1>"),)))
    ws = open_workspace(qtbot, project)
    panel = ws.error_panel
    _, rows = table_rows(panel)
    assert any(r[1] == "<h1>Cat</h1>" for r in rows)
    legend_texts = [label.text for _, label in panel.bars.legend.items]
    assert "&lt;b&gt;Big&lt;/b&gt;" in legend_texts


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_export_bars(qtbot, tmp_path, suffix):
    ws = open_workspace(qtbot, span_project())
    path = tmp_path / f"bars{suffix}"
    ws.error_panel.export_bars(path)
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:2000]


def test_imported_mqm_scores_without_spans_are_not_counted_as_rated_without_errors(qtbot):
    """Imported MQM segment scores carry no spans: no empty chart claiming zero errors, but a
    message saying what they are; a rating in the app (no score, no spans) still counts as rated."""
    from mtworkbench.core.model import Judgment

    project = span_project(with_spans=False)
    for k, (system, segment, score) in enumerate((("sysA", "1", -5.0), ("sysB", "1", -1.0), ("sysB", "2", 0.0))):
        project.add_judgment(Judgment(f"s{k}", "r1", system, segment, None, protocol="mqm", score=score,
                                      scale="mqm"))
    assert error_counts(project.judgments, "mqm").systems == []
    ws = open_workspace(qtbot, project)
    panel = ws.error_panel
    assert panel.empty_message.isVisible() and not panel.has_spans()
    assert "3 MQM judgments are segment scores without error spans" in panel.empty_message.text()
    project.add_judgment(Judgment("r", "r2", "sysA", "2", None, protocol="mqm"))  # rated in the app: no errors
    counts = error_counts(project.judgments, "mqm")
    assert counts.systems == ["sysA"] and counts.rated == {"sysA": 1}


def assert_axis_label_clear(view):
    """The bottom axis label under the tick labels and above the legend, the chart in view."""
    item = view.getPlotItem()
    axis = item.getAxis("bottom")
    top = axis.sceneBoundingRect().bottom() - axis.height()  # the axis's own strip (its bounding rect spans the grid)
    label = axis.label.sceneBoundingRect()
    tick_text_bottom = top + max(0, axis.style["tickLength"]) + axis.style["tickTextOffset"][1] + axis.textHeight
    assert label.top() >= tick_text_bottom  # under the tick labels
    legend = view.legend.sceneBoundingRect()
    assert label.bottom() <= legend.top() + 0.5  # above the legend
    assert item.sceneBoundingRect().width() <= view.width() + 0.5  # the whole chart is in view
    assert legend.right() <= view.width() + 0.5 and legend.bottom() <= view.height() + 0.5


def _judgments_of_long_named_systems():
    from mtworkbench.core.model import ErrorSpan, Judgment

    rows = [("VolcTrans-GLAT", "major", 9), ("VolcTrans-GLAT", "minor", 30), ("UEdin", "minor", 2),
            ("UEdin", "neutral", 1), ("Online-W.1234-a-long-system-name", "critical", 3)]
    return [Judgment(f"j{i}", "r", s, "1", protocol="mqm", errors=(ErrorSpan(0, 2, sev, "Accuracy"),) * n)
            for i, (s, sev, n) in enumerate(rows)]


@pytest.mark.parametrize(("width", "height", "per_segment"), [(1000, 640, False), (300, 260, True), (300, 260, False)])
def test_axis_label_clear_of_tick_labels_and_legend_and_nothing_cut(qtbot, screenshot_dir, width, height, per_segment):
    """At the Analysis tab's size and in a narrow dock: the bottom axis label sits under the
    tick labels and above the legend, and the chart fits the widget (nothing cut off)."""
    from PySide6.QtWidgets import QApplication

    from mtworkbench.gui.analysis.error_counts_view import ErrorBarsView

    view = ErrorBarsView()
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    view.show_counts(error_counts(_judgments_of_long_named_systems(), "mqm"), per_segment=per_segment)
    QApplication.processEvents()
    item = view.getPlotItem()
    # The left axis widens to its names once it has drawn them; a long name is elided.
    qtbot.waitUntil(lambda: item.getAxis("left").width() > 60)
    QApplication.processEvents()
    names = view.tick_names
    assert names[:2] == ["VolcTrans-GLAT", "UEdin"] and (width > 500) == (names[2] == "Online-W.1234-a-long-system-name")
    assert item.getAxis("left").width() <= max(60, width // 3) + 20
    assert_axis_label_clear(view)
    view.grab().save(str(screenshot_dir / f"analysis-error-bars-{width}.png"))
