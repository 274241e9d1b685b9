"""Undoable edits of the error spans a judge marks on one item (``core.span_draft.SpanDraft``).

Each edit (mark, change, delete, keep a suggestion, all at once, "no errors") is one command
holding the draft's state before and after it, so undo and redo restore it exactly whatever was
done since; the view shown redraws. Submitting the item is a separate command (``RateItemCommand``):
undoing it brings the item back with its spans as they were at the submit, and undoing further
takes the span edits back one by one.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from mtworkbench.core.span_draft import Snapshot, SpanDraft


class SpanEditCommand(QUndoCommand):
    def __init__(self, text: str, draft: SpanDraft, before: Snapshot, after: Snapshot,
                 changed: Callable[[SpanDraft], None]) -> None:
        super().__init__(text)
        self.draft, self.before, self.after, self.changed = draft, before, after, changed

    def redo(self) -> None:
        self.draft.restore(self.after)
        self.changed(self.draft)

    def undo(self) -> None:
        self.draft.restore(self.before)
        self.changed(self.draft)
