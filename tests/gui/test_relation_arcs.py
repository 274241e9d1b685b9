"""A relation's arc over the text: an arrowhead at the target only for a directed layer."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QFontMetricsF

from mtworkbench.gui.annotate.relation_arcs import relation_arc


def _metrics(qapp) -> QFontMetricsF:
    return QFontMetricsF(QFont())


def test_directed_arc_ends_in_a_head_at_the_target_and_undirected_has_none(qapp):
    source, target = QRectF(10, 40, 50, 18), QRectF(200, 40, 60, 18)
    directed = relation_arc(source, target, "part-of", _metrics(qapp), directed=True)
    undirected = relation_arc(source, target, "part-of", _metrics(qapp), directed=False)
    assert directed.head is not None and undirected.head is None
    tip = directed.head[0]
    assert (tip.x(), tip.y()) == (target.center().x(), target.top())
    assert all(corner.y() < target.top() for corner in directed.head[1:])  # the head points down onto the span
    # Same arc and label either way: only the head differs.
    assert directed.path == undirected.path and directed.label_box == undirected.label_box
    assert directed.path.currentPosition() == tip


def test_nested_spans_draw_their_ends_side_by_side(qapp):
    outer, inner = QRectF(10, 40, 120, 18), QRectF(20, 40, 100, 18)  # centres 70 and 70
    arc = relation_arc(outer, inner, "同指", _metrics(qapp), directed=False)
    assert arc.path.elementAt(0).x == outer.left() + 6
    assert arc.path.currentPosition().x() == inner.right() - 6
    assert arc.label_box.width() > 4  # the Chinese type name is measured
