"""Metrics workspace: the selected row's error spans under the sentence browser, and the toggle."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mtworkbench.gui.metrics.workspace import MetricsWorkspace
from mtworkbench.gui.session import ProjectSession
from tests.gui.span_project import span_project


def open_workspace(qtbot, project):
    session = ProjectSession()
    ws = MetricsWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1280, 800)
    session.replace_project(project, None)
    ws.show()
    qtbot.waitExposed(ws)
    qtbot.waitUntil(lambda: ws.browser.model.rowCount() > 0, timeout=5000)
    return ws


def gtm_view(ws):
    for name, view in ws.detail_views.items():
        if "gtm" in name.lower():
            ws.detail_tabs.setCurrentWidget(view)
            return view
    raise AssertionError(f"no GTM view among {list(ws.detail_views)}")


def test_selected_row_shows_each_raters_spans_and_toggle_hides_them(qtbot, screenshot_dir):
    ws = open_workspace(qtbot, span_project())
    strip = ws.error_strip
    assert strip.isVisible()
    view = gtm_view(ws)
    assert ws.browser.select("sysB", "1")
    qtbot.waitUntil(lambda: bool(strip.blocks) and strip.blocks[0].text == "House small is.", timeout=3000)
    assert [b.label for b in strip.blocks] == ["r1", "r2"]
    # what the user reads: each rater's line, spans drawn on the severity tint
    shown = strip.pane.plain_text()
    assert "r1 House small is." in shown and "r2 House small is." in shown
    assert strip.pane.runs_with_background("#F8C4BF")[:1] == ["House small is"]
    qtbot.waitUntil(lambda: bool(view.hyp_pane.error_words()), timeout=3000)
    ws.grab().save(str(screenshot_dir / "metrics-error-spans.png"))

    qtbot.mouseClick(strip.toggle, Qt.MouseButton.LeftButton)
    assert not strip.toggle.isChecked()
    assert strip.pane.runs_with_background("#F8C4BF") == []
    assert view.hyp_pane.error_words() == []
    qtbot.mouseClick(strip.toggle, Qt.MouseButton.LeftButton)
    assert view.hyp_pane.error_words()


def test_rated_without_errors_and_unrated_rows_say_so(qtbot):
    ws = open_workspace(qtbot, span_project())
    assert ws.browser.select("sysB", "2")  # r1 marked one span, r2 none
    qtbot.waitUntil(lambda: ws.error_strip.blocks and ws.error_strip.blocks[0].text == "Dog is barking loud.")
    assert [b.label for b in ws.error_strip.blocks] == ["r1"]
    assert ws.browser.select("sysA", "3")
    qtbot.waitUntil(lambda: ws.error_strip.blocks[0].text == "We go tomorrow.")
    assert ws.error_strip.blocks[0].label == "not rated with spans"


def test_strip_hidden_without_span_judgments(qtbot):
    ws = open_workspace(qtbot, span_project(with_spans=False))
    assert not ws.error_strip.isVisible()
