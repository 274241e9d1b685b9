"""The Agreement tab at 1280x800 on the demo: the scatter's title fits its plot, every
column header reads whole, the tables show their rows, and the note promises a
"perfect agreement" line only where one is drawn."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.test_annotate_compare_fit import rows_shown_whole
from tests.gui.test_annotate_entity_list_width import open_annotate


def test_agreement_tab_fits(qtbot, demo_copy, screenshot_dir):
    window = open_annotate(qtbot, demo_copy)
    ws = window.workspaces["Judge"]
    window.tabs.setCurrentWidget(ws)
    panel = ws.agreement
    bar = ws.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(ws.tabs.indexOf(panel)).center())
    qtbot.waitUntil(lambda: panel.pairs.model().rowCount() > 0
                    and panel.reliability_table.model().rowCount() > 0, timeout=20000)
    qtbot.wait(200)
    # The demo's first pair puts the imported DA z-scores against a judge's 1-5 ratings.
    plot = panel.scatter.getPlotItem()
    title = plot.titleLabel
    assert "unlike scales" in title.text and not panel.scatter.diagonal.isVisible()
    assert title.item.boundingRect().width() <= panel.scatter.width()
    assert title.item.boundingRect().height() <= title.size().height() + 2
    for table in (panel.reliability_table, panel.pairs, panel.judges_table):
        header = table.horizontalHeader()
        for section in range(header.count()):
            words = str(table.model().headerData(section, Qt.Orientation.Horizontal)).split("\n")
            widest = max(header.fontMetrics().horizontalAdvance(w) for w in words)
            assert widest <= header.sectionSize(section), words
    assert rows_shown_whole(panel.reliability_table) >= 4
    assert rows_shown_whole(panel.judges_table) == panel.judges_table.model().rowCount()
    notes = [label.text() for label in panel.plot_panel.findChildren(type(panel.summary)) if "dashed" in label.text()]
    assert notes and all("same scale" in n for n in notes)
    window.grab().save(str(screenshot_dir / "judge-agreement-fit.png"))
