"""The active span layer of the Annotate workspace and the text it sits on.

The user picks a layer (entities on references by default; any layer of the project, on
references, sources or system outputs) in the top row. The editor then shows that layer's
kind of text (the text box beside it lists the references or the systems; a layer on
sources needs no choice), and tags, retypes, deletes and links with that layer's types,
keys and colours; the layer's nesting and overlap rules are enforced by the project's
checks, whose refusal is shown in the status line. The tools that search or step through
one reference (find, every occurrence, next unannotated, import and export) work on
layers on references and say so otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QLabel, QTableView

from mtworkbench.core.layers import ENTITIES, SpanLayer, layer_types, span_layer
from mtworkbench.core.model import EntitySpan, ModelError, Project
from mtworkbench.core.records import EntityTypeStyle
from mtworkbench.gui.annotate.entity_table_width import type_column_width
from mtworkbench.gui.plain import esc

TEXT_LABELS = {"reference": "Reference", "output": "System", "source": "Text"}
SOURCES_ITEM = "sources"


class LayerChoice:
    """Mixed into the Annotate workspace after its QWidget base."""

    reference: str  # what span.reference holds in the active layer: a reference id, a system id, "" for sources
    layer: str = ENTITIES
    _shown_on: str | None = None  # the text the editor shows for the active layer (None: nothing yet)
    reference_box: QComboBox
    layer_box: QComboBox
    text_label: QLabel
    entity_table: QTableView
    # the workspace's parts this mixin drives
    view: Any
    entities: Any
    find_bar: Any
    hint: QLabel
    comparison: Any
    _key_to_type: dict[str, str]

    def cancel_relation(self) -> None:
        raise NotImplementedError

    def relation_keys(self) -> dict[str, str]:
        raise NotImplementedError

    def _refresh_view(self, force: bool = False) -> None:
        raise NotImplementedError

    def _relist(self) -> None:
        raise NotImplementedError

    @property
    def project(self) -> Project:
        raise NotImplementedError

    def say(self, message: str, problem: bool = False) -> None:
        raise NotImplementedError

    # --- the active layer ------------------------------------------------------------------
    def active_layer_name(self) -> str:
        return self.layer

    def active_layer(self) -> SpanLayer:
        try:
            return span_layer(self.project.settings, self.layer)
        except ModelError:  # a project without it (another one opened): back to the entities
            self.layer = ENTITIES
            return span_layer(self.project.settings, ENTITIES)

    def active_types(self) -> list[EntityTypeStyle]:
        return layer_types(self.project.settings, self.active_layer().name)

    def has_text_side(self) -> bool:
        """Whether a text is chosen for the active layer (sources always are)."""
        return self.active_layer().on == "source" or bool(self.reference)

    def owner_texts(self) -> dict[str, str]:
        """Segment id -> the text the active layer marks."""
        on = self.active_layer().on
        if on == "source":
            return {s.id: s.source for s in self.project.segments}
        if on == "output":
            return dict(self.project.system(self.reference).texts) if self.project.has_system(self.reference) else {}
        return dict(self.project.reference(self.reference).texts) if self.project.has_reference(self.reference) else {}

    def owner_texts_of(self, ids: Iterable[str]) -> dict[str, str]:
        """``owner_texts`` for these segments only (no copy of a large project's texts)."""
        on = self.active_layer().on
        if on == "source":
            return {sid: self.project.segment(sid).source for sid in ids if self.project.has_segment(sid)}
        project = self.project
        if on == "output":
            texts = project.system(self.reference).texts if project.has_system(self.reference) else {}
        else:
            texts = project.reference(self.reference).texts if project.has_reference(self.reference) else {}
        return {sid: texts[sid] for sid in ids if sid in texts}

    def span_text_of(self, span: EntitySpan) -> str:
        try:
            text = self.project.span_text(span) or ""
        except ModelError:
            return ""
        return text[span.start:span.end]

    def reference_only(self, what: str) -> str:
        """Why ``what`` cannot run on the active layer ("" when it can: a layer on references)."""
        layer = self.active_layer()
        if layer.on == "reference":
            return ""
        return f"{what} works on layers on references; layer {layer.name} sits on {layer.on}s."

    # --- the choosers ------------------------------------------------------------------------
    def _fill_layers(self) -> None:
        layers = self.project.settings.span_layers
        names = [layer.name for layer in layers]
        shown_on = self._shown_on
        # The layer edited was removed (an undone addition) or now sits on other text:
        # switch the editor over as if the user had chosen it, so no stale text stays shown.
        stale = self.layer not in names or (shown_on is not None and self.active_layer().on != shown_on)
        if self.layer not in names:
            self.layer = ENTITIES
        self.layer_box.blockSignals(True)
        self.layer_box.clear()
        for layer in layers:
            self.layer_box.addItem(f"{layer.name} (on {layer.on}s)", layer.name)
        self.layer_box.setCurrentIndex(max(0, names.index(self.layer) if self.layer in names else 0))
        self.layer_box.blockSignals(False)
        self._shown_on = self.active_layer().on
        if stale:
            self.layer = ""
            self._layer_chosen(self.layer_box.currentIndex())

    def _fill_references(self) -> None:
        """The texts the active layer may sit on: references, systems, or the sources."""
        on = self.active_layer().on
        names = [r.id for r in self.project.references] if on == "reference" else \
            [s.id for s in self.project.systems] if on == "output" else [SOURCES_ITEM]
        keep = self.reference if self.reference in names else (names[0] if names else "")
        self.reference_box.blockSignals(True)
        self.reference_box.clear()
        self.reference_box.addItems(names)
        self.reference_box.setCurrentText(keep)
        self.reference_box.setEnabled(on != "source")
        self.reference_box.blockSignals(False)
        self.text_label.setText(TEXT_LABELS[on])
        self.reference = "" if on == "source" else keep

    def _layer_chosen(self, index: int) -> None:
        name = self.layer_box.itemData(index)
        if not name or name == self.layer:
            return
        self.layer = str(name)
        self._shown_on = self.active_layer().on
        self.cancel_relation()
        self._fill_references()
        self._apply_type_styles()
        self.comparison.set_reference(self.reference if self.active_layer().on == "reference" else "")
        self._refresh_view(force=True)
        self._relist()
        layer = self.active_layer()
        rules = "nest and overlap" if layer.overlap else "nest, never cross" if layer.nesting else "neither nest nor overlap"
        self.say(f"Editing layer {layer.name} on {layer.on}s: its spans may {rules}.")

    def _apply_type_styles(self) -> None:
        styles = self.active_types()
        self._key_to_type = {t.key.upper(): t.name for t in styles if t.key}
        self.view.type_keys = set(self._key_to_type)
        self.view.relation_keys = set(self.relation_keys())
        self.view.colors = {t.name: QColor(t.color) for t in styles}
        self.entities.colors = {t.name: t.color for t in styles}
        self.find_bar.set_types([t.name for t in styles])
        self.entity_table.horizontalHeader().resizeSection(1, type_column_width(self.entity_table,
                                                                              [t.name for t in styles]))
        keys = " · ".join(f"<b>{esc(t.key)}</b> {esc(t.name.lower())}" for t in styles if t.key)
        self.hint.setText(
            f"Tag the selection: {keys or '(this layer has no type keys)'}<br>"
            "Click an entity, then a type key retypes it and <b>Delete</b> removes it · "
            "<b>Alt+Up</b>/<b>Alt+Down</b> previous/next segment · "
            "<b>Alt+N</b> next unannotated · <b>Ctrl+F</b> find · "
            "<b>Shift+arrows</b> select · <b>Tab</b> next entity at the caret (nested ones) · "
            + " · ".join(f"<b>{esc(k)}</b> {esc(t)}" for k, t in self.relation_keys().items())
            + " then <b>Enter</b> on the target links two entities · <b>Ctrl+Z</b>/<b>Ctrl+Y</b> undo/redo<br>"
            "Suggestions (dashed): <b>Enter</b> or a click accepts · <b>Ctrl+Backspace</b> or a right-click rejects · "
            "with <b>Shift</b> the segment's, with <b>Alt</b> the document's"
        )
        self.view.viewport().update()
