"""Annotate's "Layers and types…" adds a relation layer: its name (typed in Russian), the span
layers it links, undirected, a type with a Chinese name and its key; OK is one undo step, the
editor links two entities with the new key, and the layer's rules hold."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from mtworkbench.core.layers import SpanLayer
from mtworkbench.core.model import EntitySpan
from mtworkbench.core.records import EntityTypeStyle
from tests.gui.test_annotate_layers_dialog import (
    ANNOTATOR,
    button,
    choose_in_list,
    click,
    edit_cell,
    new_project,
    ok,
    open_dialog,
    open_workspace,
    press,
    select,
    type_text,
)


def _tick(qtbot, lst, text: str) -> None:
    """Click the check box of the list row ``text``."""
    item = next(lst.item(r) for r in range(lst.count()) if lst.item(r).text() == text)
    rect = lst.visualItemRect(item)
    before = item.checkState()
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.left() + 10, rect.center().y()))
    if item.checkState() == before:  # the style draws the box elsewhere: Space toggles the current row
        lst.setCurrentItem(item)
        press(qtbot, lst, Qt.Key.Key_Space)
    assert item.checkState() != before


def test_add_an_undirected_relation_layer_link_with_its_key_and_undo(qtbot, tmp_path, screenshot_dir):
    project = new_project()
    project.settings.span_layers.append(SpanLayer("mwe", "source", [EntityTypeStyle("IDIOM", "I", "#8e44ad")]))
    project.add_span(EntitySpan("ivan", "ref", "2", 0, 4, "PERSON", ANNOTATOR))      # Ivan
    project.add_span(EntitySpan("moscow", "ref", "2", 14, 20, "LOCATION", ANNOTATOR))  # Moscow
    ws = open_workspace(qtbot, tmp_path, project)
    stack = ws.session.undo_stack
    depth = stack.count()
    dialog = open_dialog(qtbot, ws)
    click(qtbot, button(dialog, "Add relation layer"))
    assert dialog.layer_list.currentItem().text() == "links1 (relations)"
    assert dialog.connects_list.isVisible() and dialog.directed_box.isVisible() and not dialog.on_box.isVisible()
    assert [dialog.connects_list.item(r).text() for r in range(dialog.connects_list.count())] == ["entities", "mwe"]
    press(qtbot, dialog.name_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    type_text(dialog.name_edit, "связи")
    assert dialog.layer_list.currentItem().text() == "связи (relations)"
    _tick(qtbot, dialog.connects_list, "entities")
    click(qtbot, dialog.directed_box)
    assert not dialog.directed_box.isChecked()
    edit_cell(qtbot, dialog.table, 0, 0, "同指")
    edit_cell(qtbot, dialog.table, 0, 1, "R")  # the default layer's translation-of has R
    click(qtbot, ok(dialog))
    assert dialog.isVisible() and "key R is taken by relation layer relations" in dialog.message.text()
    edit_cell(qtbot, dialog.table, 0, 1, "K")
    QApplication.processEvents()
    dialog.grab().save(str(screenshot_dir / "annotate_layers_dialog_relation_layer.png"))
    click(qtbot, ok(dialog))
    assert not dialog.isVisible()
    layer = ws.session.project.settings.relation_layers[-1]
    assert (layer.name, layer.connects, layer.directed, [(t.name, t.key) for t in layer.types]) == (
        "связи", ["entities"], False, [("同指", "K")])
    assert stack.count() == depth + 1  # the whole change: one undo step
    assert "<b>K</b> 同指" in ws.hint.text()
    # The editor links Ivan to Moscow with K, in the new layer.
    view = ws.view
    select(qtbot, view, 1, 1, 0)
    press(qtbot, view, Qt.Key.Key_K)
    select(qtbot, view, 1, 16, 0)
    press(qtbot, view, Qt.Key.Key_Return)
    [relation] = ws.session.project.relations
    assert (relation.layer, relation.type, relation.source, relation.target) == ("связи", "同指", "ivan", "moscow")
    # Drawn without an arrowhead: the view asks the layer, which is undirected.
    assert view.relation_directed("связи") is False and view.relation_directed("relations") is True
    view.viewport().update()
    QApplication.processEvents()
    view.grab().save(str(screenshot_dir / "annotate_undirected_relation.png"))
    # Undirected: Moscow to Ivan is the same link, refused.
    press(qtbot, view, Qt.Key.Key_K)
    select(qtbot, view, 1, 1, 0)
    press(qtbot, view, Qt.Key.Key_Return)
    assert len(ws.session.project.relations) == 1 and "already there" in ws.status.text()
    # A layer that holds a relation keeps its name, links and direction.
    press(qtbot, view, Qt.Key.Key_Escape)
    dialog = open_dialog(qtbot, ws)
    choose_in_list(qtbot, dialog, "связи")
    assert not dialog.name_edit.isEnabled() and not dialog.connects_list.isEnabled()
    click(qtbot, button(dialog, "Remove layer"))
    assert "holds 1 relation: remove them" in dialog.message.text()
    dialog.reject()
    stack.undo()  # the relation
    stack.undo()  # the layer
    assert [r.name for r in ws.session.project.settings.relation_layers] == ["relations"]
    assert "同指" not in ws.hint.text()
