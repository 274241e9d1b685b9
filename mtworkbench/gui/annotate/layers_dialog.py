"""Edit the project's annotation layers and their types.

A list of the span layers (entities first) and relation layers; beside it the chosen
layer's name, the text it sits on, whether its spans may nest or overlap, and its types
(name, key, colour); for a relation layer, the span layers whose spans it links and
whether its relations are directed. The dialog edits a copy (``core.layer_schema``); OK checks it
against the project and leaves it in ``result_schema`` for the workspace to install as
one undo command. A layer that holds spans keeps its name, text and rules (its spans
would be stranded or break them), a relation layer that holds relations its name, the
layers it connects and its direction; a type in use cannot be renamed or removed.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.layer_schema import PALETTE, LayerSchema, check_schema, schema_of, span_counts
from mtworkbench.core.model import EntityTypeStyle, ModelError, Project
from mtworkbench.core.records import ENTITIES, LAYER_TARGETS, RelationLayer, SpanLayer
from mtworkbench.core.wording import plural
from mtworkbench.gui.plain import esc

ON_LABELS = {"reference": "references", "source": "sources", "output": "system outputs"}
SPAN, RELATION = "span", "relation"


class LayersDialog(QDialog):
    def __init__(self, project: Project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Layers and types")
        self.resize(760, 460)
        self.project = project
        self.schema: LayerSchema = schema_of(project.settings)
        self.counts = span_counts(project)
        # The name each span layer had in the project (None: added here), by position.
        self.origin: list[str | None] = [s.name for s in self.schema.span_layers]
        self.relation_origin: list[str | None] = [r.name for r in self.schema.relation_layers]
        self.relation_counts = {r.name: sum(1 for x in project.relations if x.layer == r.name)
                                for r in self.schema.relation_layers}
        self.current: tuple[str, int] | None = None
        self.result_schema: LayerSchema | None = None

        self.layer_list = QListWidget()
        self.layer_list.setObjectName("layers-list")
        add_layer = QPushButton("Add layer")
        add_layer.setToolTip("Add a span layer")
        add_layer.clicked.connect(self._add_layer)
        add_relation_layer = QPushButton("Add relation layer")
        add_relation_layer.clicked.connect(self._add_relation_layer)
        remove_layer = QPushButton("Remove layer")
        remove_layer.clicked.connect(self._remove_layer)
        left = QVBoxLayout()
        left.addWidget(QLabel("Layers"))
        left.addWidget(self.layer_list, 1)
        buttons_left = QHBoxLayout()
        buttons_left.addWidget(add_layer)
        buttons_left.addWidget(remove_layer)
        left.addLayout(buttons_left)
        left.addWidget(add_relation_layer)

        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("layer-name")
        self.on_box = QComboBox()
        for on in LAYER_TARGETS:
            self.on_box.addItem(ON_LABELS[on], on)
        self.nesting_box = QCheckBox("Spans may nest (one inside another)")
        self.overlap_box = QCheckBox("Spans may overlap (cross each other)")
        self.nesting_box.toggled.connect(lambda on: None if on else self.overlap_box.setChecked(False))
        self.overlap_box.toggled.connect(lambda on: self.nesting_box.setChecked(True) if on else None)
        # A relation layer: the span layers whose spans it links (none ticked: any), its direction.
        self.connects_list = QListWidget()
        self.connects_list.setObjectName("relation-connects")
        self.connects_list.setToolTip("The span layers whose spans its relations link; none ticked: any")
        self.connects_list.setMaximumHeight(4 * self.connects_list.fontMetrics().lineSpacing() + 12)
        self.directed_box = QCheckBox("Directed (from the source span to the target)")
        self.directed_box.setObjectName("relation-directed")
        self.form = form = QFormLayout()
        form.addRow("Name", self.name_edit)
        form.addRow("On", self.on_box)
        form.addRow("", self.nesting_box)
        form.addRow("", self.overlap_box)
        form.addRow("Connects", self.connects_list)
        form.addRow("", self.directed_box)

        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Type", "Key", "Colour"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.cellDoubleClicked.connect(self._cell_double_clicked)
        add = QPushButton("Add type")
        add.clicked.connect(self._add)
        remove = QPushButton("Remove type")
        remove.clicked.connect(self._remove)
        colour = QPushButton("Colour…")
        colour.clicked.connect(self._pick_colour)
        row = QHBoxLayout()
        for button in (add, remove, colour):
            row.addWidget(button)
        row.addStretch(1)
        right = QVBoxLayout()
        right.addLayout(form)
        right.addWidget(self.table, 1)
        right.addLayout(row)
        top = QHBoxLayout()
        top.addLayout(left, 1)
        top.addLayout(right, 2)

        self.message = QLabel("Keys are single letters or digits. Double-click a colour to change it.")
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 1)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self._fill_list()
        self.name_edit.textEdited.connect(self._relabel)
        self.on_box.currentIndexChanged.connect(self._relabel)
        self.layer_list.currentRowChanged.connect(self._row_changed)
        self.layer_list.setCurrentRow(0)
        self._load(self._entry(0))

    # --- the list of layers -------------------------------------------------------------
    def _fill_list(self) -> None:
        self.layer_list.blockSignals(True)
        self.layer_list.clear()
        for i, layer in enumerate(self.schema.span_layers):
            item = QListWidgetItem(f"{layer.name} (on {ON_LABELS.get(layer.on, layer.on)})")
            item.setData(Qt.ItemDataRole.UserRole, (SPAN, i))
            self.layer_list.addItem(item)
        for i, rel in enumerate(self.schema.relation_layers):
            item = QListWidgetItem(f"{rel.name} (relations)")
            item.setData(Qt.ItemDataRole.UserRole, (RELATION, i))
            self.layer_list.addItem(item)
        self.layer_list.blockSignals(False)

    def _relabel(self) -> None:
        """The list shows the chosen layer's name (and a span layer's text) as they are typed."""
        if self.current is None:
            return
        kind, index = self.current
        if kind == SPAN:
            item = self.layer_list.item(index)
            if item is not None:
                item.setText(f"{self.name_edit.text().strip()} (on {self.on_box.currentText()})")
            return
        item = self.layer_list.item(len(self.schema.span_layers) + index)
        if item is not None:
            item.setText(f"{self.name_edit.text().strip()} (relations)")

    def _entry(self, row: int) -> tuple[str, int] | None:
        item = self.layer_list.item(row)
        return None if item is None else item.data(Qt.ItemDataRole.UserRole)

    def _row_changed(self, row: int) -> None:
        if self._entry(row) == self.current:
            return
        self._store()
        self._load(self._entry(row))

    def _holding(self, index: int) -> int:
        """How many spans the project holds in the span layer at ``index`` (0 when new)."""
        origin = self.origin[index]
        return self.counts[origin] if origin else 0

    def _add_layer(self) -> None:
        self._store()
        taken = {s.name for s in self.schema.span_layers} | {r.name for r in self.schema.relation_layers}
        name = next(f"layer{i}" for i in range(1, 1000) if f"layer{i}" not in taken)
        self.schema.span_layers.append(SpanLayer(name, "reference", [], nesting=True, overlap=True))
        self.origin.append(None)
        self._fill_list()
        self.current = None
        self.layer_list.setCurrentRow(len(self.schema.span_layers) - 1)
        self.name_edit.setFocus()
        self.name_edit.selectAll()
        self._say("Name the layer, choose its text and add its types.")

    def _taken_names(self) -> set[str]:
        return {s.name for s in self.schema.span_layers} | {r.name for r in self.schema.relation_layers}

    def _add_relation_layer(self) -> None:
        self._store()
        taken = self._taken_names()
        name = next(f"links{i}" for i in range(1, 1000) if f"links{i}" not in taken)
        # Its first type gets a key no type has yet (the user renames it and adds more).
        used = {t.key.upper() for s in self.schema.span_layers for t in self.schema.types_of(s.name)} | \
               {t.key.upper() for r in self.schema.relation_layers for t in r.types}
        key = next((k for k in "LKJHQUVXYZ0123456789" if k not in used), "")
        first = EntityTypeStyle("linked", key, PALETTE[len(self.schema.relation_layers) % len(PALETTE)])
        self.schema.relation_layers.append(RelationLayer(name, [first], [], True))
        self.relation_origin.append(None)
        self._fill_list()
        self.current = None
        self.layer_list.setCurrentRow(self.layer_list.count() - 1)
        self.name_edit.setFocus()
        self.name_edit.selectAll()
        self._say("Name the relation layer, tick the span layers it links (none: any), and set its types.")

    def _remove_relation_layer(self, index: int) -> None:
        rel = self.schema.relation_layers[index]
        held = self.relation_counts.get(self.relation_origin[index] or "", 0)
        if held:
            self._say(f"Relation layer {rel.name} holds {plural(held, 'relation')}: remove them before removing "
                      "the layer.", problem=True)
            return
        del self.schema.relation_layers[index]
        del self.relation_origin[index]
        self.current = None
        self._fill_list()
        self.layer_list.setCurrentRow(0)
        self._load(self._entry(0))
        self._say(f"Removed relation layer {rel.name} (OK saves).")

    def _remove_layer(self) -> None:
        if self.current is None:
            return
        kind, index = self.current
        if kind == RELATION:
            self._remove_relation_layer(index)
            return
        layer = self.schema.span_layers[index]
        if layer.name == ENTITIES:
            self._say(f"The {ENTITIES} layer stays.", problem=True)
            return
        held = self._holding(index)
        if held:
            self._say(f"Layer {layer.name} holds {plural(held, 'span')}: remove them before "
                      "removing the layer.", problem=True)
            return
        del self.schema.span_layers[index]
        del self.origin[index]
        for rel in self.schema.relation_layers:  # a relation layer links no layer that is gone
            rel.connects = [x for x in rel.connects if x != layer.name]
        self.current = None
        self._fill_list()
        self.layer_list.setCurrentRow(0)
        self._load(self._entry(0))
        self._say(f"Removed layer {layer.name} (OK saves).")

    # --- the chosen layer -----------------------------------------------------------------
    def _load(self, entry: tuple[str, int] | None) -> None:
        self.current = entry
        self.table.setRowCount(0)
        if entry is None:
            return
        kind, index = entry
        span = kind == SPAN
        for widget in (self.on_box, self.nesting_box, self.overlap_box):  # a relation layer has none of these
            self.form.setRowVisible(widget, span)
        for rel_widget in (self.connects_list, self.directed_box):  # a span layer has none of these
            self.form.setRowVisible(rel_widget, not span)
        if span:
            layer = self.schema.span_layers[index]
            types = self.schema.types_of(layer.name)
            self.name_edit.setText(layer.name)
            self.on_box.setCurrentIndex(max(0, self.on_box.findData(layer.on)))
            self.nesting_box.setChecked(layer.nesting)
            self.overlap_box.setChecked(layer.overlap)
            locked = bool(self._holding(index))
            self.name_edit.setEnabled(layer.name != ENTITIES and not locked)
            for widget in (self.on_box, self.nesting_box, self.overlap_box):
                widget.setEnabled(not locked)
        else:
            rel = self.schema.relation_layers[index]
            types = rel.types
            self.name_edit.setText(rel.name)
            locked = bool(self.relation_counts.get(self.relation_origin[index] or "", 0))
            self.name_edit.setEnabled(not locked)
            for widget in (self.on_box, self.nesting_box, self.overlap_box):
                widget.setEnabled(False)
            self.connects_list.clear()
            for span_layer in self.schema.span_layers:
                item = QListWidgetItem(span_layer.name)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if span_layer.name in rel.connects else Qt.CheckState.Unchecked)
                self.connects_list.addItem(item)
            self.directed_box.setChecked(rel.directed)
            for rel_widget in (self.connects_list, self.directed_box):
                rel_widget.setEnabled(not locked)
        for style in types:
            self._append(style)

    def _store(self) -> None:
        """Write the widgets back into the working schema."""
        if self.current is None:
            return
        kind, index = self.current
        styles = self.styles()
        if kind == RELATION:
            rel = self.schema.relation_layers[index]
            rel.types = styles
            if self.name_edit.isEnabled():
                rel.name = self.name_edit.text().strip()
            if self.connects_list.isEnabled():
                rel.connects = [item.text() for i in range(self.connects_list.count())
                                if (item := self.connects_list.item(i)).checkState() == Qt.CheckState.Checked]
                rel.directed = self.directed_box.isChecked()
            return
        layer = self.schema.span_layers[index]
        if layer.name == ENTITIES:
            self.schema.entity_types = styles
        else:
            layer.types = styles
        if self.name_edit.isEnabled():
            renamed = self.name_edit.text().strip()
            for rel in self.schema.relation_layers:  # the relation layers linking it follow the new name
                rel.connects = [renamed if x == layer.name else x for x in rel.connects]
            layer.name = renamed
        if self.on_box.isEnabled():
            layer.on = self.on_box.currentData()
            layer.nesting = self.nesting_box.isChecked()
            layer.overlap = self.overlap_box.isChecked()

    # --- types ----------------------------------------------------------------------------
    def _append(self, style: EntityTypeStyle) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(style.name))
        self.table.setItem(row, 1, QTableWidgetItem(style.key))
        self._set_colour(row, style.color)

    def _set_colour(self, row: int, color: str) -> None:
        item = QTableWidgetItem(color)
        background = QColor(color) if QColor.isValidColorName(color) else QColor("white")
        item.setBackground(background)
        # Dark colours (navy, maroon) take white text so the colour's name stays readable.
        item.setForeground(QColor("white") if background.lightnessF() < 0.45 else QColor("black"))
        self.table.setItem(row, 2, item)

    def _add(self) -> None:
        self._append(EntityTypeStyle("NEW", "", PALETTE[self.table.rowCount() % len(PALETTE)]))
        self.table.setCurrentCell(self.table.rowCount() - 1, 0)

    def _remove(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)

    def _cell_double_clicked(self, row: int, column: int) -> None:
        if column == 2:
            self._pick_colour()

    def _pick_colour(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            return
        cell = self.table.item(row, 2)
        color = QColorDialog.getColor(QColor(cell.text() if cell else ""), self, "Type colour")
        if color.isValid():
            self._set_colour(row, color.name())

    def styles(self) -> list[EntityTypeStyle]:
        out = []
        for row in range(self.table.rowCount()):
            cells = [(item.text() if (item := self.table.item(row, c)) else "").strip() for c in range(3)]
            out.append(EntityTypeStyle(cells[0], cells[1].upper(), cells[2]))
        return out

    def _say(self, text: str, problem: bool = False) -> None:
        self.message.setTextFormat(Qt.TextFormat.RichText)
        colour = "#b00020" if problem else "#1b5e20"
        self.message.setText(f"<span style='color:{colour}'>{esc(text)}</span>")

    def accept(self) -> None:
        self._store()
        for index, layer in enumerate(self.schema.span_layers):
            origin = self.origin[index]
            if origin and origin != layer.name and self.counts[origin]:  # the name box is locked; belt and braces
                self._say(f"Layer {origin} holds {self.counts[origin]} spans: it keeps its name.", problem=True)
                return
        try:
            check_schema(self.project, self.schema, is_colour=QColor.isValidColorName)
        except ModelError as exc:
            self._say(str(exc), problem=True)
            return
        self.result_schema = replace(self.schema)
        super().accept()
