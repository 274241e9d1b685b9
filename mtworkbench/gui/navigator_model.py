"""Tree model of documents -> paragraphs -> segments, a thin adapter over the project.

Nodes are kept in a flat list and addressed by their position (the index's
``internalId``), so no Python object has to survive inside a QModelIndex.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt

from mtworkbench.core.model import Project
from mtworkbench.gui.plain import tooltip

ROOT = -1


@dataclass
class _Node:
    kind: str  # "document", "paragraph" or "segment"
    ident: str
    label: str
    parent: int
    row: int
    children: list[int]


class NavigatorModel(QAbstractItemModel):
    COLUMNS = ("Segment", "Source")
    SegmentIdRole = Qt.ItemDataRole.UserRole + 1
    KindRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, project: Project | None = None, parent=None) -> None:
        super().__init__(parent)
        self._nodes: list[_Node] = []
        self._top: list[int] = []
        self._segment_node: dict[str, int] = {}
        self.project = project or Project()
        self._build()

    def set_project(self, project: Project) -> None:
        self.beginResetModel()
        self.project = project
        self._build()
        self.endResetModel()

    def refresh_segment(self, segment_id: str) -> None:
        node = self._segment_node.get(segment_id)
        if node is not None:
            n = self._nodes[node]
            n.label = self.project.segment(segment_id).source
            self.dataChanged.emit(self.createIndex(n.row, 0, node), self.createIndex(n.row, 1, node))

    def _add(self, kind: str, ident: str, label: str, parent: int) -> int:
        siblings = self._top if parent == ROOT else self._nodes[parent].children
        self._nodes.append(_Node(kind, ident, label, parent, len(siblings), []))
        siblings.append(len(self._nodes) - 1)
        return len(self._nodes) - 1

    def _build(self) -> None:
        self._nodes, self._top, self._segment_node = [], [], {}
        for doc in self.project.documents:
            n_segments = sum(len(p.segments) for p in doc.paragraphs)
            d = self._add("document", doc.id, f"{n_segments} segments", ROOT)
            for k, par in enumerate(doc.paragraphs, 1):
                p = self._add("paragraph", par.id, f"paragraph {k}: {len(par.segments)} segments", d)
                for seg in par.segments:
                    self._segment_node[seg.id] = self._add("segment", seg.id, seg.source, p)

    # --- QAbstractItemModel ------------------------------------------------------------
    def index(self, row: int, column: int, parent=QModelIndex()) -> QModelIndex:
        children = self._children(parent)
        if 0 <= row < len(children) and 0 <= column < len(self.COLUMNS):
            return self.createIndex(row, column, children[row])
        return QModelIndex()

    def parent(self, index=QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        node = self._nodes[index.internalId()]
        if node.parent == ROOT:
            return QModelIndex()
        return self.createIndex(self._nodes[node.parent].row, 0, node.parent)

    def _children(self, parent: QModelIndex | QPersistentModelIndex) -> list[int]:
        if not parent.isValid():
            return self._top
        return self._nodes[parent.internalId()].children

    def rowCount(self, parent=QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._children(parent))

    def columnCount(self, parent=QModelIndex()) -> int:
        return len(self.COLUMNS)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        node = self._nodes[index.internalId()]
        if role == Qt.ItemDataRole.DisplayRole:
            return node.ident if index.column() == 0 else node.label
        if role == Qt.ItemDataRole.ToolTipRole and node.kind == "segment":
            return tooltip(node.label)
        if role == self.SegmentIdRole:
            return node.ident if node.kind == "segment" else self._first_segment(index.internalId())
        if role == self.KindRole:
            return node.kind
        return None

    def _first_segment(self, node_id: int) -> str:
        node = self._nodes[node_id]
        while node.kind != "segment":
            if not node.children:
                return ""
            node = self._nodes[node.children[0]]
        return node.ident

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def segment_index(self, segment_id: str) -> QModelIndex:
        node = self._segment_node.get(segment_id)
        if node is None:
            return QModelIndex()
        return self.createIndex(self._nodes[node].row, 0, node)
