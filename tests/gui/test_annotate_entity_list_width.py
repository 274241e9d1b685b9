"""The Annotate entity list at 1280x800 shows each entity's text whole ("Irakli Okruashvili",
not "Irakli …") and its type beside its swatch; a splitter the user dragged stays where they put it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mtworkbench.gui.main_window import MainWindow


def open_annotate(qtbot, path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_path(path)
    window.tabs.setCurrentWidget(window.workspaces["Annotate"])
    return window


def cut_cells(ws) -> list[str]:
    table, model = ws.entity_table, ws.entities
    metrics = table.fontMetrics()
    cut = []
    for row in range(model.rowCount()):
        text = model.data(model.index(row, 2))
        if metrics.horizontalAdvance(text) + 8 > table.columnWidth(2):
            cut.append(text)
        kind = model.data(model.index(row, 1))
        if metrics.horizontalAdvance(kind) + 8 + 16 > table.columnWidth(1):  # beside a 16 px swatch
            cut.append(kind)
    return cut


def test_entity_names_are_shown_whole(qtbot, demo_copy, screenshot_dir):
    window = open_annotate(qtbot, demo_copy)
    ws = window.workspaces["Annotate"]
    qtbot.waitUntil(lambda: ws.entities.rowCount() > 0)
    qtbot.wait(100)
    texts = [ws.entities.data(ws.entities.index(r, 2)) for r in range(ws.entities.rowCount())]
    assert "Irakli Okruashvili" in texts and "People’s Union of Estonia" in texts
    assert cut_cells(ws) == []
    editor, side = ws.splitter.sizes()
    assert editor > side  # the editor keeps most of the room
    window.grab().save(str(screenshot_dir / "annotate-entity-list-width.png"))
    # The second document lists its own entities, whole too.
    ws.session.set_current_segment(window.session.project.documents[1].paragraphs[0].segments[0].id)
    qtbot.wait(100)
    assert ws.entities.rowCount() > 0 and cut_cells(ws) == []


def test_a_splitter_the_user_moved_is_left_alone(qtbot, demo_copy):
    window = open_annotate(qtbot, demo_copy)
    ws = window.workspaces["Annotate"]
    qtbot.waitUntil(lambda: ws.entities.rowCount() > 0)
    before = ws.splitter.sizes()
    handle = ws.splitter.handle(1)
    start = handle.rect().center()
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(handle, start + type(start)(150, 0))
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=start + type(start)(150, 0))
    moved = ws.splitter.sizes()
    assert moved[1] < before[1]  # the user gave the editor more room
    ws.session.set_current_segment(window.session.project.documents[1].paragraphs[0].segments[0].id)
    window.resize(1270, 790)
    qtbot.wait(100)
    # The pane may scale with the splitter (Qt shares a changed width in proportion: the
    # navigator dock can give or take room), but it is not widened to fit the list again.
    sizes = ws.splitter.sizes()
    assert sizes[1] / sum(sizes) <= moved[1] / sum(moved) + 0.01
