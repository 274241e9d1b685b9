"""Showing a long page of the Annotate text a slice at a time.

Laying out a page of 2,000 segments is one long call into Qt (about 0.3-0.4 s here), which
froze the window while a large project was swapped in or the page moved. The segments around
the current one are laid out first (``FIRST_SEGMENTS``, a few tens of milliseconds), and the
rest of the page is added at both ends, ``GROW_SEGMENTS`` per event-loop turn, the caret and
the text in sight staying where they are. Asking for a segment of the page not laid out yet
lays out the rest at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, QTimer

from mtworkbench.gui.annotate.text_view import EntityTextView, ShownSegment

FIRST_SEGMENTS = 80  # a screenful and more; 200 made the swap-in and the paint after it 30-60 ms longer
GROW_SEGMENTS = 100  # a turn of 200 was 30-90 ms under load; 100 keeps each well under that

Members = list[tuple[str, bool]]  # (segment, starts paragraph), in document order


class GrowingPage(QObject):
    """Lays ``members`` out in ``view``; ``texts_of(ids)`` gives the texts of those segments,
    asked for a slice at a time (so a text edited meanwhile is shown as it is now)."""

    def __init__(self, view: EntityTextView, texts_of: Callable[[Iterable[str]], dict[str, str]]) -> None:
        super().__init__(view)
        self.view, self.texts_of = view, texts_of
        self._members: Members = []
        self._low = self._high = 0  # members[low:high] are laid out
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._step)

    @property
    def growing(self) -> bool:
        return self._low > 0 or self._high < len(self._members)

    def show(self, members: Members, segment_id: str = "") -> None:
        """Show ``members``: at once when short, else the ones around ``segment_id`` first."""
        self._timer.stop()
        position = next((i for i, (sid, _first) in enumerate(members) if sid == segment_id), 0)
        low = max(0, min(position - FIRST_SEGMENTS // 2, len(members) - FIRST_SEGMENTS))
        self._members, self._low, self._high = members, low, min(len(members), low + FIRST_SEGMENTS)
        self.view.set_segments(self._shown(members[self._low:self._high]))
        if self.growing:
            self._timer.start(0)

    def finish(self) -> None:
        """Lay out the rest of the page now (a segment not laid out yet was asked for)."""
        self._timer.stop()
        if self.growing:
            self._grow(len(self._members))

    def _step(self) -> None:
        self._grow(GROW_SEGMENTS)
        if self.growing:
            self._timer.start(0)

    def _grow(self, count: int) -> None:
        after = min(len(self._members) - self._high, max(count // 2, count - self._low))
        before = min(self._low, count - after)
        self.view.add_segments(self._shown(self._members[self._low - before:self._low]),
                               self._shown(self._members[self._high:self._high + after]))
        self._low -= before
        self._high += after

    def _shown(self, members: Members) -> list[ShownSegment]:
        texts = self.texts_of(sid for sid, _first in members)
        return [ShownSegment(sid, texts.get(sid), first) for sid, first in members]
