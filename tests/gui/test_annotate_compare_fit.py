"""Compare annotators at 1280x800 on the demo: the per-type table lists every type whole
(not two rows behind a scroll bar) and the alpha table names each type in full."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.test_annotate_entity_list_width import open_annotate


def rows_shown_whole(table) -> int:
    height = table.viewport().height()
    return sum(1 for r in range(table.model().rowCount())
               if table.rowViewportPosition(r) >= 0 and table.rowViewportPosition(r) + table.rowHeight(r) <= height)


def test_per_type_tables_fit(qtbot, demo_copy, screenshot_dir):
    window = open_annotate(qtbot, demo_copy)
    ws = window.workspaces["Annotate"]
    bar = ws.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(ws.tabs.indexOf(ws.comparison)).center())
    view = ws.comparison
    panel = view.layers_agreement
    qtbot.waitUntil(lambda: view.by_type.rowCount() > 0 and panel.result is not None, timeout=20000)
    qtbot.wait(100)
    by_type = view.by_type
    assert by_type.rowCount() == 5  # DATE, LOCATION, ORGANIZATION, PERCENT, PERSON
    assert rows_shown_whole(by_type) == by_type.rowCount()
    alpha = panel.table
    assert rows_shown_whole(alpha) >= 3
    metrics = alpha.fontMetrics()
    for r in range(alpha.rowCount()):
        scope = alpha.item(r, 0).text()
        if not scope.startswith("doc "):  # document names may be long: their tooltip has them
            assert metrics.horizontalAdvance(scope) + 8 <= alpha.columnWidth(0), scope
    window.grab().save(str(screenshot_dir / "annotate-compare-fit.png"))
