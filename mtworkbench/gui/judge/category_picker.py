"""The MQM category picker: the project's typology as a tree, a category picked by its keys
(``A`` then ``M``: Accuracy/Mistranslation) or, after ``/``, by name in a list filtered as you type."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from mtworkbench.core.mqm_typology import GOOGLE_TYPOLOGY, PickEntry, Typology


class CategoryPicker(QDialog):
    """The project's typology as a tree; a category is picked by its keys or by name.

    Keys (the default): typing a category's key narrows to its subcategories (or
    picks it when it has none), the subcategory's key picks it, Backspace steps
    back, Enter picks the highlighted row. ``/`` (or a click in the field) searches
    by name instead: words typed filter the rows, ↑/↓ choose, Enter picks. Esc cancels.
    """

    def __init__(self, typology: Typology | Sequence[str] = GOOGLE_TYPOLOGY, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("MQM category")
        self.typology = typology if isinstance(typology, Typology) else Typology(()).with_names(typology)
        self.keys_label = QLabel()
        self.keys_label.setObjectName("category-keys")
        self.keys_label.setTextFormat(Qt.TextFormat.PlainText)
        self.filter = QLineEdit()
        self.filter.setObjectName("category-filter")
        self.filter.setPlaceholderText("/ search by name: type words, ↑/↓ choose, Enter pick")
        self.tree = QTreeWidget()
        self.tree.setObjectName("category-tree")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Category", "Keys"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self._entries: list[tuple[QTreeWidgetItem, PickEntry]] = []
        top: QTreeWidgetItem | None = None
        for entry in self.typology.entries():
            shown = entry.full_name if entry.depth == 0 else entry.full_name.partition("/")[2]
            item = QTreeWidgetItem([shown, " ".join(entry.keys.upper())])
            item.setData(0, Qt.ItemDataRole.UserRole, entry.full_name)
            item.setToolTip(0, entry.full_name)
            if entry.depth == 0:
                self.tree.addTopLevelItem(item)
                top = item
            elif top is not None:
                top.addChild(item)
            self._entries.append((item, entry))
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        self.tree.setColumnWidth(0, self.tree.columnWidth(0) + 24)
        layout = QVBoxLayout(self)
        layout.addWidget(self.keys_label)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.filter)
        self.resize(420, 520)
        self.filter.textChanged.connect(self._refilter)
        self.filter.returnPressed.connect(self._pick)
        self.tree.itemActivated.connect(lambda _item, _col: self._pick())
        self.filter.installEventFilter(self)
        self.tree.installEventFilter(self)
        self.chosen: str | None = None
        self.typed = ""  # the keys typed so far
        self._show_keys()
        self._first_visible(leaves_first=False)

    # --- rows -------------------------------------------------------------------------------
    def visible_names(self) -> list[str]:
        return [e.full_name for item, e in self._entries if self._visible(item)]

    @staticmethod
    def _visible(item: QTreeWidgetItem) -> bool:
        parent = item.parent()
        return not item.isHidden() and (parent is None or not parent.isHidden())

    def _first_visible(self, leaves_first: bool = True) -> None:
        rows = [(item, e) for item, e in self._entries if self._visible(item)]
        pick = next((item for item, e in rows if not e.has_subcategories), None) if leaves_first else None
        current = pick or (rows[0][0] if rows else None)
        if current is not None:
            self.tree.setCurrentItem(current)

    # --- by keys ------------------------------------------------------------------------------
    def type_key(self, char: str) -> None:
        level = [(item, e) for item, e in self._entries
                 if e.depth == len(self.typed) and e.keys and e.keys[:-1] == self.typed]
        match = next(((item, e) for item, e in level if e.keys[-1].casefold() == char.casefold()), None)
        if match is None:
            self.keys_label.setText(f"No category has the key {char.upper()!r} here. " + self._keys_hint())
            return
        item, entry = match
        if not entry.has_subcategories:
            self.chosen = entry.full_name
            self.accept()
            return
        self.typed = entry.keys
        for other, e in self._entries:
            if e.depth == 0:
                other.setHidden(e is not entry)
        self.tree.setCurrentItem(item)
        self._show_keys()

    def back(self) -> None:
        self.typed = self.typed[:-1]
        for item, e in self._entries:
            if e.depth == 0:
                item.setHidden(False)
        self._show_keys()
        self._first_visible(leaves_first=False)

    def _keys_hint(self) -> str:
        if self.typed:
            name = next(e.full_name for _, e in self._entries if e.keys == self.typed)
            return f"{name}: a subcategory's key, Enter for {name} itself, Backspace back, / search"
        return "Type a category's key · / search by name · Esc cancel"

    def _show_keys(self) -> None:
        self.keys_label.setText(self._keys_hint())

    # --- by name --------------------------------------------------------------------------------
    def _refilter(self, text: str) -> None:
        words = text.casefold().split()
        self.typed = ""
        for item, e in self._entries:
            item.setHidden(bool(words) and not all(w in e.full_name.casefold() for w in words))
        for item, e in self._entries:  # a category stays when one of its subcategories matches
            if e.depth == 0 and any(not child.isHidden() for k in range(item.childCount())
                                    if (child := item.child(k)) is not None):
                item.setHidden(False)
        self._first_visible()

    def _step(self, delta: int) -> None:
        rows = [item for item, _ in self._entries if self._visible(item)]
        if not rows:
            return
        current = self.tree.currentItem()
        at = rows.index(current) if current in rows else -1
        self.tree.setCurrentItem(rows[max(0, min(len(rows) - 1, at + delta))])

    def eventFilter(self, watched, event) -> bool:
        if event.type() != event.Type.KeyPress:
            return super().eventFilter(watched, event)
        key = event.key()
        if watched is self.filter and key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self._step(1 if key == Qt.Key.Key_Down else -1)
            return True
        if watched is self.tree:
            text = event.text()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._pick()
                return True
            if key == Qt.Key.Key_Backspace:
                self.back()
                return True
            if text == "/" or key == Qt.Key.Key_Slash:
                self.filter.setFocus()
                return True
            if len(text) == 1 and text.isalnum() and not event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier:
                self.type_key(text)
                return True
        return super().eventFilter(watched, event)

    def _pick(self) -> None:
        item = self.tree.currentItem()
        if item is not None and self._visible(item):
            self.chosen = item.data(0, Qt.ItemDataRole.UserRole)
            self.accept()


def ask_category(parent: QWidget | None, typology: Typology | None = None) -> str | None:
    """The category the rater picks from ``typology`` (by default the panel's), or None
    when cancelled (tests replace this)."""
    if typology is None:
        typology = getattr(parent, "typology", GOOGLE_TYPOLOGY)
    picker = CategoryPicker(typology if typology is not None else GOOGLE_TYPOLOGY, parent)
    picker.tree.setFocus()
    return picker.chosen if picker.exec() == QDialog.DialogCode.Accepted else None
