"""Tree model of documents -> paragraphs -> segments, a thin adapter over the project.

Documents and paragraphs are nodes in a flat list, addressed by their position (the index's
``internalId``), so no Python object has to survive inside a QModelIndex. Segments get no node:
a project of a quarter of a million segments took seconds to mirror. A segment's index carries
``SEGMENT_BASE`` plus its place in the paragraphs' running order, and its text is read from the
project when the view asks for it.

A paragraph of more than ``RANGE_SIZE`` segments (an imported plain-text file is one paragraph)
lists its segments in ranges of that many: a tree view lays out every child of a node it
expands, asking the model for each, and selecting the first of 250,000 segments in one
paragraph held the window for seconds.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt

from mtworkbench.core.model import Paragraph, Project
from mtworkbench.gui.plain import tooltip

ROOT = -1
SEGMENT_BASE = 1 << 40  # internal ids from here on are segments
RANGE_SIZE = 1000  # segments listed under one node at most


@dataclass
class _Node:
    kind: str  # "document", "paragraph" or "range" (part of a long paragraph)
    ident: str
    label: str
    parent: int
    row: int
    children: list[int] = field(default_factory=list)
    paragraph: Paragraph | None = None
    first: int = 0  # the first segment it lists, in the running order
    start: int = 0  # the row of that segment in its paragraph
    count: int = 0  # how many segments it lists itself (none where it has range nodes)


class NavigatorModel(QAbstractItemModel):
    COLUMNS = ("Segment", "Source")
    SegmentIdRole = Qt.ItemDataRole.UserRole + 1
    KindRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, project: Project | None = None, parent=None) -> None:
        super().__init__(parent)
        self.project = project or Project()
        self._build()

    def set_project(self, project: Project) -> None:
        self.beginResetModel()
        self.project = project
        self._build()
        self.endResetModel()

    def refresh_segment(self, segment_id: str) -> None:
        index = self.segment_index(segment_id)
        if index.isValid():
            self.dataChanged.emit(index, index.siblingAtColumn(1))

    def _build(self) -> None:
        self._nodes: list[_Node] = []
        self._top: list[int] = []
        self._paragraph_nodes: list[int] = []  # in running order
        self._firsts: list[int] = []  # each paragraph's first segment, ascending
        self._where: dict[str, tuple[int, int]] | None = None  # segment id -> (paragraph node, row), if needed
        total = 0
        for doc in self.project.documents:
            n_segments = sum(len(p.segments) for p in doc.paragraphs)
            d = self._add(_Node("document", doc.id, f"{n_segments} segments", ROOT, len(self._top)), self._top)
            for k, par in enumerate(doc.paragraphs, 1):
                n = len(par.segments)
                node = _Node("paragraph", par.id, f"paragraph {k}: {n} segments", d,
                             len(self._nodes[d].children), paragraph=par, first=total,
                             count=n if n <= RANGE_SIZE else 0)
                p = self._add(node, self._nodes[d].children)
                if n <= RANGE_SIZE:
                    self._add_holder(p)
                else:
                    for start in range(0, n, RANGE_SIZE):
                        count = min(RANGE_SIZE, n - start)
                        last = start + count
                        part = _Node("range", f"{start + 1}-{last}", f"segments {start + 1}-{last}", p,
                                     len(node.children), paragraph=par, first=total + start, start=start, count=count)
                        self._add_holder(self._add(part, node.children))
                total += n

    def _add_holder(self, node: int) -> None:
        """A node that lists segments itself, in running order."""
        self._paragraph_nodes.append(node)
        self._firsts.append(self._nodes[node].first)

    def _add(self, node: _Node, siblings: list[int]) -> int:
        self._nodes.append(node)
        siblings.append(len(self._nodes) - 1)
        return len(self._nodes) - 1

    # --- segments by running order ----------------------------------------------------------
    def _segment_at(self, internal_id: int) -> tuple[int, int]:
        """(node listing it, row there) of a segment's internal id."""
        k = internal_id - SEGMENT_BASE
        i = bisect_right(self._firsts, k) - 1
        node = self._paragraph_nodes[i]
        return node, k - self._nodes[node].first

    def _segment(self, internal_id: int):
        node, row = self._segment_at(internal_id)
        holder = self._nodes[node]
        assert holder.paragraph is not None
        return holder.paragraph.segments[holder.start + row]

    def segment_index(self, segment_id: str) -> QModelIndex:
        if not self.project.has_segment(segment_id):
            return QModelIndex()
        # The project keeps its segments in the paragraphs' order; checked, with a map as fallback.
        k = self.project.segment_position(segment_id)
        if self._paragraph_nodes and 0 <= k:
            node, row = self._segment_at(SEGMENT_BASE + k)
            holder = self._nodes[node]
            segments = holder.paragraph.segments if holder.paragraph is not None else []
            if row < holder.count and segments[holder.start + row].id == segment_id:
                return self.createIndex(row, 0, SEGMENT_BASE + k)
        if self._where is None:
            self._where = {
                seg.id: (p, row) for p in self._paragraph_nodes
                for row, seg in enumerate(self._nodes[p].paragraph.segments[  # type: ignore[union-attr]
                    self._nodes[p].start:self._nodes[p].start + self._nodes[p].count])}
        found = self._where.get(segment_id)
        if found is None:
            return QModelIndex()
        p, row = found
        return self.createIndex(row, 0, SEGMENT_BASE + self._nodes[p].first + row)

    # --- QAbstractItemModel ------------------------------------------------------------
    def index(self, row: int, column: int, parent=QModelIndex()) -> QModelIndex:
        if not (0 <= column < len(self.COLUMNS)) or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, self._top[row]) if row < len(self._top) else QModelIndex()
        pid = parent.internalId()
        if pid >= SEGMENT_BASE:
            return QModelIndex()
        node = self._nodes[pid]
        if node.children:
            return self.createIndex(row, column, node.children[row]) if row < len(node.children) else QModelIndex()
        if row < node.count:
            return self.createIndex(row, column, SEGMENT_BASE + node.first + row)
        return QModelIndex()

    def parent(self, index=QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        iid = index.internalId()
        if iid >= SEGMENT_BASE:
            node_id, _row = self._segment_at(iid)
            return self.createIndex(self._nodes[node_id].row, 0, node_id)
        node = self._nodes[iid]
        if node.parent == ROOT:
            return QModelIndex()
        return self.createIndex(self._nodes[node.parent].row, 0, node.parent)

    def rowCount(self, parent=QModelIndex()) -> int:
        if not parent.isValid():
            return len(self._top)
        if parent.column() != 0:
            return 0
        pid = parent.internalId()
        if pid >= SEGMENT_BASE:
            return 0
        node = self._nodes[pid]
        return len(node.children) or node.count

    def columnCount(self, parent=QModelIndex()) -> int:
        return len(self.COLUMNS)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        iid = index.internalId()
        if iid >= SEGMENT_BASE:
            segment = self._segment(iid)
            if role == Qt.ItemDataRole.DisplayRole:
                return segment.id if index.column() == 0 else self.project.segment(segment.id).source
            if role == Qt.ItemDataRole.ToolTipRole:
                return tooltip(self.project.segment(segment.id).source)
            if role == self.SegmentIdRole:
                return segment.id
            if role == self.KindRole:
                return "segment"
            return None
        node = self._nodes[iid]
        if role == Qt.ItemDataRole.DisplayRole:
            return node.ident if index.column() == 0 else node.label
        if role == self.SegmentIdRole:
            return self._first_segment(iid)
        if role == self.KindRole:
            return node.kind
        return None

    def _first_segment(self, node_id: int) -> str:
        node = self._nodes[node_id]
        while node.children:
            node = self._nodes[node.children[0]]
        return node.paragraph.segments[node.start].id if node.paragraph is not None and node.count else ""

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None
