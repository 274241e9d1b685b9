"""Where a relation is drawn over the annotated text: an arc from the top of its source
span to the top of its target, its type on the arc, and an arrowhead at the target only
where the relation's layer is directed (an undirected link reads the same either way
round, so a head would claim a direction the annotation does not have)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFontMetricsF, QPainterPath

NESTED_GAP = 12.0  # ends closer than this: a span and one nested in it, drawn side by side
HEAD_HALF_WIDTH = 4.0
HEAD_LENGTH = 7.0


@dataclass(frozen=True)
class RelationArc:
    path: QPainterPath
    head: list[QPointF] | None  # the arrowhead's corners at the target; None: undirected
    label_box: QRectF  # where the type is written, on a light backing


def relation_arc(source: QRectF, target: QRectF, label: str, metrics: QFontMetricsF, directed: bool) -> RelationArc:
    start, end = QPointF(source.center().x(), source.top()), QPointF(target.center().x(), target.top())
    if abs(start.x() - end.x()) < NESTED_GAP:
        start.setX(source.left() + 6)
        end.setX(target.right() - 6)
    lift = max(14.0, source.height() * 0.55)
    top = max(min(start.y(), end.y()) - lift, 1.0)
    path = QPainterPath(start)
    path.cubicTo(QPointF(start.x(), top), QPointF(end.x(), top), end)
    head = [end, QPointF(end.x() - HEAD_HALF_WIDTH, end.y() - HEAD_LENGTH),
            QPointF(end.x() + HEAD_HALF_WIDTH, end.y() - HEAD_LENGTH)] if directed else None
    width = metrics.horizontalAdvance(label)
    box = QRectF((start.x() + end.x()) / 2 - width / 2 - 2, top + lift * 0.2 - metrics.ascent(),
                 width + 4, metrics.height())
    return RelationArc(path, head, box)
