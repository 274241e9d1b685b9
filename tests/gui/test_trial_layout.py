"""Metrics and Analysis at 1280x800 on WMT21 en-de (8 systems, MQM): every view
fits or pops out, nothing the user reads is cut, the layout is remembered, and
the sentence browser's selection stays on its (segment, system). Driven with
real clicks; screenshots go to build/screenshots/layout-*.png."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import save_bundle
from tests.gui.wmt21_project import SYSTEMS, wmt21_project


def make_window(qtbot, path):
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.open_path(path)
    return window


def click_tab(qtbot, tabs, widget) -> None:
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tabs.indexOf(widget)).center())
    assert tabs.currentWidget() is widget


@pytest.fixture
def bundle(shared_dir, tmp_path):
    path = tmp_path / "wmt21-ende.mtwb.json"
    save_bundle(wmt21_project(shared_dir, tmp_path / "texts", n=12), path)
    return path


@pytest.fixture
def metrics(qtbot, bundle):
    window = make_window(qtbot, bundle)
    workspace = window.workspaces["Metrics"]
    click_tab(qtbot, window.tabs, workspace)
    qtbot.waitUntil(lambda: not workspace.is_scoring() and not workspace.needs_scoring(), timeout=180_000)
    workspace.refresh()
    QApplication.processEvents()
    return window, workspace


def header_fits(view, section: int) -> bool:
    """The header's text fits its section (font metrics, plus the margins Qt draws)."""
    header = view.horizontalHeader()
    title = str(view.model().headerData(section, Qt.Orientation.Horizontal))
    return header.sectionSize(section) >= header.fontMetrics().horizontalAdvance(title) + 8


def test_metrics_at_1280x800_shows_every_system_and_column(qtbot, metrics, screenshot_dir):
    window, workspace = metrics
    table = workspace.corpus_table.view
    viewport = table.viewport().rect()
    assert table.model().rowCount() == 8
    for row in range(8):  # all eight systems' rows lie inside the table's viewport
        rect = table.visualRect(table.model().index(row, 0))
        assert viewport.contains(rect), (row, rect, viewport)
    # The sentence browser: every score column shows its whole title and is wide enough for a score.
    browser = workspace.browser.view
    model = browser.model()
    assert model.columnCount() >= 3 + 5
    for column in range(model.columnCount()):
        assert header_fits(browser, column), model.headerData(column, Qt.Orientation.Horizontal)
    assert browser.columnWidth(2) >= 180  # the output column shows a useful piece of the output
    # ... and leaves room for the first score whole: not "51.8" cut at the edge for 51.84.
    assert browser.columnViewportPosition(3) + browser.columnWidth(3) <= browser.viewport().width()
    assert browser.horizontalScrollBar().maximum() > 0 or browser.horizontalHeader().length() <= browser.viewport().width()
    # Each header names its column in full in a tooltip (a user-narrowed column).
    assert model.headerData(3, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    window.grab().save(str(screenshot_dir / "layout-metrics.png"))


def test_gtm_and_meteor_views_fit_their_pane(qtbot, metrics, screenshot_dir):
    window, workspace = metrics
    tabs = workspace.detail_tabs
    for name in ("gtm-grid", "meteor-alignment"):
        view = workspace.detail_views[name]
        click_tab(qtbot, tabs, view)
        QApplication.processEvents()
        area = tabs.currentWidget().parentWidget().parentWidget()  # the view's scroll area
        # No sideways scrolling: the view fits its frame, text boxes included.
        assert area.horizontalScrollBar().maximum() == 0, name
        assert view.width() <= area.viewport().width()
        window.grab().save(str(screenshot_dir / f"layout-metrics-{name}.png"))
    gtm = workspace.detail_views["gtm-grid"]
    assert gtm.exact_box.width() >= gtm.exact_box.sizeHint().width()  # the option's label is not cut
    assert "GTM 1.4" in gtm.exact_box.toolTip()
    assert gtm.scores_label.wordWrap()
    meteor = workspace.detail_views["meteor-alignment"]
    assert meteor.tabs.height() >= 170  # the alignment strip has room for both token rows and links


def test_corpus_table_has_a_human_column(qtbot, metrics):
    _window, workspace = metrics
    model = workspace.corpus_table.model
    last = model.columnCount() - 1
    assert model.headerData(last, Qt.Orientation.Horizontal).startswith("Human")
    texts = {model.rows[r].system: model.data(model.index(r, last)) for r in range(model.rowCount())}
    assert set(texts) == set(SYSTEMS)
    assert all(t != "–" and float(t) <= 0 for t in texts.values())  # MQM: minus weighted errors
    assert header_fits(workspace.corpus_table.view, last)


def test_imported_mqm_score_is_not_shown_as_no_errors(qtbot, metrics):
    _window, workspace = metrics
    assert workspace.browser.select("UEdin", "1")
    QApplication.processEvents()
    assert [block.label for block in workspace.error_strip.blocks] == ["scored, no spans recorded"]
    shown = workspace.error_strip.pane.browser.toPlainText()
    assert "scored, no spans recorded" in shown and "no errors" not in shown


def test_selection_stays_on_its_pair_when_sorting_and_while_scores_arrive(qtbot, metrics):
    _window, workspace = metrics
    browser = workspace.browser
    view = browser.view
    assert browser.select("VolcTrans-GLAT", "7")
    header = view.horizontalHeader()
    bleu = browser.model.column_of("bleu")
    # A click on the bleu header sorts by it: the highlight follows the pair to its new row.
    x = header.sectionViewportPosition(bleu) + header.sectionSize(bleu) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    assert browser.model._sort is not None and browser.model._sort[0] == bleu
    assert browser.selected() == ("VolcTrans-GLAT", "7")
    rows = view.selectionModel().selectedRows()
    assert [browser.model.row_key(i.row()) for i in rows] == [("VolcTrans-GLAT", "7")]
    # Scores arrive (the same refresh the worker's results trigger): still the same pair.
    workspace.cache.invalidate_all()
    workspace.refresh()
    workspace.start_scoring()
    qtbot.waitUntil(lambda: not workspace.is_scoring(), timeout=180_000)
    assert browser.selected() == ("VolcTrans-GLAT", "7")
    rows = view.selectionModel().selectedRows()
    assert [browser.model.row_key(i.row()) for i in rows] == [("VolcTrans-GLAT", "7")]


def test_a_view_pops_out_and_back_and_the_layout_is_remembered(qtbot, bundle, metrics):
    window, workspace = metrics
    pane = workspace.detail_pane
    qtbot.mouseClick(pane.pop_button, Qt.MouseButton.LeftButton)
    assert pane.is_popped and pane.window_.isVisible() and not pane.isVisible()
    assert workspace.detail_tabs.window() is pane.window_
    # The browser takes the room the views left.
    qtbot.waitUntil(lambda: workspace.browser.width() > 700)
    # The user drags the corpus/views splitter down by 40 px.
    splitter = workspace.main_splitter
    before = splitter.sizes()
    handle = splitter.handle(1)
    centre = handle.rect().center()
    QTest.mousePress(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre)
    QTest.mouseMove(handle, centre + QPoint(0, 40))
    QTest.mouseRelease(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre + QPoint(0, 40))
    moved = splitter.sizes()
    assert moved[0] > before[0]
    window.close()
    # A new window (the next start) shows the same layout: the views still popped out.
    again = make_window(qtbot, bundle)
    workspace2 = again.workspaces["Metrics"]
    click_tab(qtbot, again.tabs, workspace2)
    QApplication.processEvents()
    assert workspace2.detail_pane.is_popped
    assert abs(workspace2.main_splitter.sizes()[0] - moved[0]) <= 2
    # Closing the view's window puts the view back in the workspace.
    workspace2.detail_pane.window_.close()
    QApplication.processEvents()
    assert not workspace2.detail_pane.is_popped and workspace2.detail_pane.isVisible()
    assert workspace2.detail_tabs.window() is again
