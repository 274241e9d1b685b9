"""Edit the project's MQM error typology: categories, subcategories, their keys and order,
Google's default, JSON files, and the most errors a segment for new MQM queues.

Every change is one undoable command on the session's stack (the window's Ctrl+Z
undoes it too); the tree redraws from the project on each change, so it always
shows what is stored. Renaming a category that errors use renames it in those
errors (``core.typology_edits`` explains why); removing one is refused with the
count. Refusals and results show in the line under the tree, not in a pop-up.

Keys in the tree: F2 or a double click edits a name or key, Insert adds a
subcategory of the selected category (Shift+Insert a category), Delete removes,
Ctrl+↑/↓ moves.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.errors import DataError
from mtworkbench.core.events import SettingsChanged
from mtworkbench.core.model import Project, ProjectEvent
from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY, split_name
from mtworkbench.core.typology_edits import (
    TypologyChange,
    apply_change,
    categories_in_use,
    plan_edit,
    plan_removal,
    plan_rename,
    plan_replacement,
    revert_change,
)
from mtworkbench.gui.commands import SetSettingCommand

NAME, KEY, USES = 0, 1, 2


class TypologyChangeCommand(QUndoCommand):
    """One edit of the typology (and, for a rename, of the errors using the category)."""

    def __init__(self, project: Project, change: TypologyChange) -> None:
        super().__init__(change.description)
        self.project, self.change = project, change

    def redo(self) -> None:
        apply_change(self.project, self.change)

    def undo(self) -> None:
        revert_change(self.project, self.change)


def ask_open_path(parent: QWidget | None) -> str | None:
    """A typology JSON file to import, or None (tests replace this)."""
    path, _ = QFileDialog.getOpenFileName(parent, "Import MQM typology", "", "MQM typology (*.json);;All files (*)")
    return path or None


def ask_save_path(parent: QWidget | None) -> str | None:
    """Where to export the typology, or None (tests replace this)."""
    path, _ = QFileDialog.getSaveFileName(parent, "Export MQM typology", "mqm-typology.json", "MQM typology (*.json)")
    return path or None


class TypologyDialog(QDialog):
    def __init__(self, session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle("MQM error typology")
        self.setObjectName("typology-dialog")
        intro = QLabel(
            "The categories raters pick in this project's MQM queues, Google's by default. A key picks a "
            "category, then a subcategory (A M: Accuracy/Mistranslation). Renaming a category renames it in "
            "the errors already marked. Every change is undoable.\n"
            "F2 or a double click edits a name or key · Insert adds a subcategory, Shift+Insert a category · "
            "Delete removes · Ctrl+↑/↓ moves"
        )
        intro.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("typology-tree")
        self.tree.setHeaderLabels(["Category", "Key", "Errors using it"])
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.tree.setUniformRowHeights(True)
        self.tree.setColumnWidth(NAME, 380)  # the key and the count stay near the name
        self.tree.setColumnWidth(KEY, 60)
        # Handled once the editor has closed: the edit redraws the whole tree.
        self.tree.itemChanged.connect(
            lambda item, column: QTimer.singleShot(0, lambda: self._item_edited(item.data(NAME, Qt.ItemDataRole.UserRole), item.text(column), column)))
        self.tree.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.message = QLabel()
        self.message.setObjectName("typology-message")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)

        def button(text: str, name: str, slot) -> QPushButton:
            b = QPushButton(text)
            b.setObjectName(name)
            b.setAutoDefault(False)
            b.clicked.connect(slot)
            return b

        self.add_category_button = button("Add &category", "typology-add-category", self.add_category)
        self.add_sub_button = button("Add &subcategory", "typology-add-subcategory", self.add_subcategory)
        self.remove_button = button("&Remove", "typology-remove", self.remove_selected)
        self.up_button = button("Move &up", "typology-up", lambda: self.move_selected(-1))
        self.down_button = button("Move &down", "typology-down", lambda: self.move_selected(1))
        self.reset_button = button("Reset to &Google's", "typology-reset", self.reset)
        self.import_button = button("&Import JSON…", "typology-import", self.import_json)
        self.export_button = button("E&xport JSON…", "typology-export", self.export_json)
        # Errors may name categories the typology lacks (a bundle saved before typologies were kept).
        self.missing = QLabel()
        self.missing.setObjectName("typology-missing")
        self.missing.setTextFormat(Qt.TextFormat.PlainText)
        self.missing.setWordWrap(True)
        self.missing.setStyleSheet("color:#b45309;")
        self.add_missing_button = button("Add the categories in &use", "typology-add-missing", self.add_missing)
        self.undo_button = button("Undo", "typology-undo", session.undo_stack.undo)
        self.redo_button = button("Redo", "typology-redo", session.undo_stack.redo)
        close = button("Close", "typology-close", self.accept)
        buttons = QGridLayout()
        for n, b in enumerate((self.add_category_button, self.add_sub_button, self.remove_button, self.up_button,
                               self.down_button, self.reset_button, self.import_button, self.export_button)):
            buttons.addWidget(b, n, 0)
        buttons.setRowStretch(8, 1)
        self.max_errors = QSpinBox()
        self.max_errors.setObjectName("typology-max-errors")
        self.max_errors.setRange(1, 99)
        self.max_errors.setToolTip("Google's MQM protocol stops at five errors a segment; a queue keeps the limit it was started with.")
        self.max_errors.valueChanged.connect(self._max_errors_changed)
        form = QFormLayout()
        form.addRow("Most errors a segment (new MQM queues)", self.max_errors)
        body = QHBoxLayout()
        body.addWidget(self.tree, 1)
        body.addLayout(buttons)
        bottom = QHBoxLayout()
        bottom.addLayout(form)
        bottom.addStretch(1)
        for b in (self.undo_button, self.redo_button, close):
            bottom.addWidget(b)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(body, 1)
        missing_row = QHBoxLayout()
        missing_row.addWidget(self.missing, 1)
        missing_row.addWidget(self.add_missing_button)
        layout.addLayout(missing_row)
        layout.addWidget(self.message)
        layout.addLayout(bottom)
        self.resize(760, 560)
        self.tree.installEventFilter(self)  # the tree's own keys (Delete, Insert, Ctrl+arrows)
        session.project_changed.connect(self._project_changed)
        session.undo_stack.indexChanged.connect(self._update_buttons)  # after a command is done or undone
        self.refresh()
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first)
        self.tree.setFocus()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.tree and event.type() == QEvent.Type.KeyPress and self.tree.state() != QAbstractItemView.State.EditingState:
            key, mods = event.key(), event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            none, shift, ctrl = Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier, Qt.KeyboardModifier.ControlModifier
            actions = {
                (Qt.Key.Key_Delete, none): self.remove_selected,
                (Qt.Key.Key_Insert, none): self.add_subcategory,
                (Qt.Key.Key_Insert, shift): self.add_category,
                (Qt.Key.Key_Up, ctrl): lambda: self.move_selected(-1),
                (Qt.Key.Key_Down, ctrl): lambda: self.move_selected(1),
            }
            action = actions.get((key, mods))
            if action is not None:
                action()
                return True
        return super().eventFilter(watched, event)

    def done(self, result: int) -> None:
        # The session outlives the dialog: stop following it.
        self.session.project_changed.disconnect(self._project_changed)
        self.session.undo_stack.indexChanged.disconnect(self._update_buttons)
        super().done(result)

    @property
    def project(self) -> Project:
        return self.session.project

    # --- showing ---------------------------------------------------------------------------
    def refresh(self, select: str | None = None) -> None:
        current = select if select is not None else self.selected()
        uses = categories_in_use(self.project)
        self.tree.blockSignals(True)
        self.tree.clear()
        found = None
        for c in self.project.settings.mqm_typology.categories:
            top = self._item(c.name, c.key, c.name, sum(v for k, v in uses.items() if split_name(k)[0] == c.name))
            self.tree.addTopLevelItem(top)
            if c.name == current:
                found = top
            for s in c.subcategories:
                full = f"{c.name}/{s.name}"
                child = self._item(s.name, s.key, full, uses.get(full, 0))
                top.addChild(child)
                if full == current:
                    found = child
        self.tree.expandAll()
        self.tree.blockSignals(False)
        if found is not None:
            self.tree.setCurrentItem(found)
        self.max_errors.blockSignals(True)
        self.max_errors.setValue(self.project.settings.mqm_max_errors)
        self.max_errors.blockSignals(False)
        missing = [c for c in uses if c not in self.project.settings.mqm_typology]
        self.missing.setText(f"Used by errors but not in the typology: {', '.join(missing)}" if missing else "")
        self.missing.setVisible(bool(missing))
        self.add_missing_button.setVisible(bool(missing))
        self._update_buttons()

    @staticmethod
    def _item(name: str, key: str, full: str, uses: int) -> QTreeWidgetItem:
        item = QTreeWidgetItem([name, key.upper(), str(uses) if uses else ""])
        item.setData(NAME, Qt.ItemDataRole.UserRole, full)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        return item

    def selected(self) -> str | None:
        item = self.tree.currentItem()
        return None if item is None else item.data(NAME, Qt.ItemDataRole.UserRole)

    def _update_buttons(self, *_args) -> None:
        has = self.selected() is not None
        for b in (self.add_sub_button, self.remove_button, self.up_button, self.down_button):
            b.setEnabled(has)
        self.undo_button.setEnabled(self.session.undo_stack.canUndo())
        self.redo_button.setEnabled(self.session.undo_stack.canRedo())

    def _project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, SettingsChanged) and event.name in ("mqm_typology", "mqm_max_errors"):
            self.refresh()
        else:
            self._update_buttons()

    # --- edits -------------------------------------------------------------------------------
    def _push(self, change: TypologyChange, select: str | None = None) -> bool:
        self.session.push(TypologyChangeCommand(self.project, change))
        if select is not None:
            self.refresh(select)
        self.message.setText(change.description + " · Ctrl+Z undoes it")
        return True

    def _try(self, make) -> bool:
        """Plan an edit; a refusal shows its reason and changes nothing."""
        try:
            change, select = make()
        except DataError as exc:
            self.message.setText(f"Not changed: {exc}")
            self.refresh()
            return False
        return self._push(change, select)

    def _new_name(self, parent: str | None, base: str) -> str:
        typology = self.project.settings.mqm_typology
        name, n = base, 2
        while (name if parent is None else f"{parent}/{name}") in typology:
            name, n = f"{base} {n}", n + 1
        return name

    def add_category(self) -> None:
        name = self._new_name(None, "New category")
        if self._try(lambda: (plan_edit(self.project, self.project.settings.mqm_typology.add(name),
                                        f"Add MQM category {name}"), name)):
            self._edit_current_name()

    def add_subcategory(self) -> None:
        selected = self.selected()
        if selected is None:
            return
        parent = split_name(selected)[0]
        name = self._new_name(parent, "New subcategory")
        if self._try(lambda: (plan_edit(self.project, self.project.settings.mqm_typology.add(name, parent=parent),
                                        f"Add MQM subcategory {parent}/{name}"), f"{parent}/{name}")):
            self._edit_current_name()

    def _edit_current_name(self) -> None:
        item = self.tree.currentItem()
        if item is not None:
            self.tree.editItem(item, NAME)

    def remove_selected(self) -> None:
        selected = self.selected()
        if selected is not None:
            self._try(lambda: (plan_removal(self.project, selected), None))

    def move_selected(self, delta: int) -> None:
        selected = self.selected()
        if selected is not None:
            self._try(lambda: (plan_edit(self.project, self.project.settings.mqm_typology.move(selected, delta),
                                         f"Move MQM category {selected} {'up' if delta < 0 else 'down'}"), selected))

    def _item_edited(self, full: str, text: str, column: int) -> None:
        if column == NAME:
            top, sub = split_name(full)
            if text.strip() == (top if sub is None else sub):
                return
            new_full = text.strip() if sub is None else f"{top}/{text.strip()}"
            self._try(lambda: (plan_rename(self.project, full, text), new_full))
        elif column == KEY:
            key = text.strip().lower()
            self._try(lambda: (plan_edit(self.project, self.project.settings.mqm_typology.set_key(full, key),
                                         f"Set the key of MQM category {full} to {key.upper() or '(none)'}"), full))
        else:
            self.refresh()  # the count of errors is not editable

    def add_missing(self) -> None:
        self._try(lambda: (plan_replacement(self.project, self.project.settings.mqm_typology,
                                            "Add the MQM categories the errors use"), None))

    def reset(self) -> None:
        if self.project.settings.mqm_typology == GOOGLE_TYPOLOGY:
            self.message.setText("The typology is Google's already.")
            return
        self._try(lambda: (plan_replacement(self.project, GOOGLE_TYPOLOGY, "Reset to Google's MQM typology"), None))

    def import_json(self) -> None:
        from mtworkbench.io.judgments.typology_file import read_typology_file

        path = ask_open_path(self)
        if path:
            self._try(lambda: (plan_replacement(self.project, read_typology_file(path),
                                                f"Import MQM typology from {Path(path).name}"), None))

    def export_json(self) -> None:
        from mtworkbench.io.judgments.typology_file import write_typology_file

        path = ask_save_path(self)
        if not path:
            return
        try:
            write_typology_file(self.project.settings.mqm_typology, path)
        except (OSError, DataError) as exc:
            self.message.setText(f"Not exported: {exc}")
            return
        self.message.setText(f"Exported the typology to {path}")

    def _max_errors_changed(self, value: int) -> None:
        if value != self.project.settings.mqm_max_errors:
            self.session.push(SetSettingCommand(self.project, "mqm_max_errors", value))
            self.message.setText(f"New MQM queues allow at most {value} errors a segment · Ctrl+Z undoes it")


def edit_typology(session, parent: QWidget | None = None) -> None:
    """Open the editor (modal); its edits are on the undo stack already when it closes."""
    dialog = TypologyDialog(session, parent)
    dialog.exec()
    dialog.deleteLater()

