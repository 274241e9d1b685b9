"""The side list of the entities in the current document (one annotator's layer).

A table model over a plain list in reading order. Span events update it one
row at a time (binary search on the reading-order key) so a key press in a
2,000-segment document does not rebuild the list.
"""

from __future__ import annotations

import bisect
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from mtworkbench.core.annotation import EntityListItem
from mtworkbench.core.layers import ENTITIES, layer_types
from mtworkbench.core.model import EntitySpan, ModelError, Project
from mtworkbench.gui.plain import tooltip

COLUMNS = ("Segment", "Type", "Text")


class EntityListModel(QAbstractTableModel):
    SpanIdRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.project: Project | None = None
        self.reference = ""
        self.document = ""
        self.annotator = ""
        self.layer = ENTITIES
        self.items: list[EntityListItem] = []
        self._keys: list[tuple[int, int, int]] = []
        self.colors: dict[str, str] = {}

    # --- filling ---------------------------------------------------------------------
    def show(self, project: Project, reference: str, document: str, annotator: str, layer: str = ENTITIES) -> None:
        """List the document's spans of one layer afresh (on a document, text, layer or annotator change)."""
        self.beginResetModel()
        self.project, self.reference, self.document, self.annotator = project, reference, document, annotator
        self.layer = layer
        self.colors = {t.name: t.color for t in layer_types(project.settings, layer)}
        self.items = []
        if document and annotator:
            for span in self._document_spans(project, reference, document, annotator):
                if span.layer == layer:
                    self.items.append(EntityListItem(span, self._text(span)))
        self._keys = [self._key(item.span) for item in self.items]
        self.endResetModel()

    @staticmethod
    def _document_spans(project: Project, reference: str, document: str, annotator: str) -> list[EntitySpan]:
        """The annotator's spans on the document's segments, in segment order, then by place.
        With fewer spans than segments the spans are walked, not the segments: a document of
        250,000 segments took a quarter of a second to walk at every change of document."""
        if project.span_count >= len(project.segments):
            return [span for segment in project.segments_of_document(document)
                    for span in project.spans_for(reference, segment.id, annotator)]
        found = [s for s in project.spans if s.reference == reference and s.annotator == annotator
                 and project.has_segment(s.segment) and project.document_of(s.segment) == document]
        return sorted(found, key=lambda s: (project.segment_position(s.segment), s.start, s.end))

    def _text(self, span: EntitySpan) -> str:
        assert self.project is not None
        try:
            return (self.project.span_text(span) or "")[span.start:span.end]
        except ModelError:
            return ""

    def _key(self, span: EntitySpan) -> tuple[int, int, int]:
        assert self.project is not None
        return (self.project.segment_position(span.segment), span.start, span.end)

    def _belongs(self, span: EntitySpan) -> bool:
        return (
            self.project is not None
            and span.reference == self.reference
            and span.annotator == self.annotator
            and span.layer == self.layer
            and self.project.document_of(span.segment) == self.document
        )

    def span_added(self, span: EntitySpan) -> None:
        if not self._belongs(span):
            return
        assert self.project is not None
        key = self._key(span)
        row = bisect.bisect_left(self._keys, key)
        self.beginInsertRows(QModelIndex(), row, row)
        self.items.insert(row, EntityListItem(span, self._text(span)))
        self._keys.insert(row, key)
        self.endInsertRows()

    def span_removed(self, span: EntitySpan) -> None:
        row = self.row_of(span)
        if row is None:
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        del self.items[row]
        del self._keys[row]
        self.endRemoveRows()

    def span_changed(self, span: EntitySpan) -> None:
        row = self.row_of(span)
        if row is None:
            return
        self.items[row] = EntityListItem(span, self.items[row].text)
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def row_of(self, span: EntitySpan) -> int | None:
        """The span's row: a binary search on its place, then a scan (its place may be stale)."""
        if self.project is None:
            return None
        if self.project.has_segment(span.segment):
            row = bisect.bisect_left(self._keys, self._key(span))
            if row < len(self.items) and self.items[row].span.id == span.id:
                return row
        return next((i for i, item in enumerate(self.items) if item.span.id == span.id), None)

    def span_at(self, row: int) -> EntitySpan:
        return self.items[row].span

    # --- Qt model ----------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.items)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.items[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (item.span.segment, item.span.type, item.text)[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip(f"{item.span.type} {item.text!r} in segment {item.span.segment} ({item.span.start}-{item.span.end})")
        if role == Qt.ItemDataRole.DecorationRole and column == 1:
            return QColor(self.colors.get(item.span.type, "#888888"))
        if role == self.SpanIdRole:
            return item.span.id
        return None
