"""Moving through the reference in the Annotate workspace: next and previous segment, the next
segment without entities, find, and "annotate every occurrence" of what was found."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from typing import overload

from mtworkbench.core.annotation import (
    find_in_reference,
    next_unannotated_segment,
    plan_every_occurrence,
    step_segment,
)
from mtworkbench.core.model import ModelError, Paragraph, Project
from mtworkbench.gui.annotate.commands import AddSpansCommand, check_new_spans
from mtworkbench.gui.annotate.find_bar import FindBar
from mtworkbench.gui.annotate.text_view import EntityTextView
from mtworkbench.gui.session import ProjectSession

# The most segments the text view lays out at once: a document of a quarter of a million
# segments took a minute to lay out on the GUI thread. A longer one is shown as a window of
# this many segments around the current one; the window moves with the current segment once
# it comes within EDGE_SEGMENTS of an end that is not the document's own, so every segment is
# reached by moving, finding or clicking, and no page break is ever in sight of the caret.
PAGE_SEGMENTS = 2000
EDGE_SEGMENTS = 200


class Members(Sequence):
    """(segment, starts paragraph) of these paragraphs' segments, listed only where sliced: a
    document of a quarter of a million segments was listed whole at every move of the caret."""

    def __init__(self, paragraphs: list[Paragraph]) -> None:
        self.paragraphs = paragraphs
        self.starts = list(itertools.accumulate((len(p.segments) for p in paragraphs), initial=0))

    def __len__(self) -> int:
        return self.starts[-1]

    @overload
    def __getitem__(self, key: int) -> tuple[str, bool]: ...
    @overload
    def __getitem__(self, key: slice) -> list[tuple[str, bool]]: ...

    def __getitem__(self, key):
        if not isinstance(key, slice):
            return self[key:key + 1 or None][0]
        start, stop, _step = key.indices(len(self))
        listed: list[tuple[str, bool]] = []
        i = bisect.bisect_right(self.starts, start) - 1
        while start < stop:
            offset = start - self.starts[i]
            taken = self.paragraphs[i].segments[offset:offset + stop - start]
            listed += [(s.id, offset + k == 0) for k, s in enumerate(taken)]
            start, i = start + len(taken), i + 1
        return listed


def page_of(
    container: str, members: Sequence[tuple[str, bool]], segment_id: str, shown_start: int | None = None,
    position: int | None = None,
) -> tuple[str, list[tuple[str, bool]]]:
    """The part of ``members`` (segment, starts paragraph) to show around ``segment_id``, and
    an id for it: ``container`` itself when it is short enough to show whole, else
    "container@start". ``shown_start``: where the window shown now starts; it is kept while
    the segment is well inside it (no re-layout for every step). ``position``: the segment's
    index in ``members`` where the caller knows it (else it is looked for)."""
    if len(members) <= PAGE_SEGMENTS:
        return container, list(members)
    if position is None:
        position = next((i for i, (sid, _first) in enumerate(members) if sid == segment_id), 0)
    last_start = len(members) - PAGE_SEGMENTS
    start = min(max(position - PAGE_SEGMENTS // 2, 0), last_start)
    if shown_start is not None and 0 <= shown_start <= last_start:
        low = shown_start + (EDGE_SEGMENTS if shown_start > 0 else 0)
        high = shown_start + PAGE_SEGMENTS - (EDGE_SEGMENTS if shown_start < last_start else 0)
        if low <= position < high:
            start = shown_start
    return f"{container}@{start}", list(members[start:start + PAGE_SEGMENTS])


class MovingAndFinding:
    """Mixed into the Annotate workspace after its QWidget base (whose methods win)."""

    # Set up by the workspace that mixes this in.
    session: ProjectSession
    view: EntityTextView
    find_bar: FindBar
    reference: str
    reference_only: Callable[[str], str]  # why a tool cannot run on the active layer ("" if it can)
    annotator: str

    # The workspace's own (AnnotateWorkspace defines them).
    @property
    def project(self) -> Project:
        raise NotImplementedError

    def say(self, message: str, problem: bool = False) -> None:
        raise NotImplementedError

    def _go_to(self, segment_id: str | None, message: str = "") -> None:
        if not segment_id:
            self.say(message or "No such segment.", True)
            return
        self.session.set_current_segment(segment_id)
        if self.view.shows(segment_id):
            self.view.place_caret(segment_id, 0)
            self.view.scroll_to_segment(segment_id)
        self.view.setFocus()

    def next_segment(self) -> None:
        self._step(1)

    def previous_segment(self) -> None:
        self._step(-1)

    def _step(self, delta: int) -> None:
        current = self.session.current_segment or None
        if self.reference_only("stepping"):  # a layer on sources or outputs: every segment in order
            ids = self.project.segment_ids
            at = ids.index(current) if current in ids else -delta
            target = ids[min(max(at + delta, 0), len(ids) - 1)] if ids else None
        elif not self.reference:
            return
        else:
            target = step_segment(self.project, self.reference, current, delta)
        if target == current:
            self.say("This is the " + ("last" if delta > 0 else "first") + " segment with reference text.")
            return
        self._go_to(target)
        if target:
            self.say(f"Segment {target}.")

    def next_unannotated(self) -> None:
        if why := self.reference_only("Next unannotated"):
            self.say(why, True)
            return
        if not self.reference or not self.annotator:
            return
        target = next_unannotated_segment(self.project, self.reference, self.annotator, self.session.current_segment or None)
        self._go_to(target, f"Every segment has entities by {self.annotator}.")
        if target:
            self.say(f"Segment {target}: no entities by {self.annotator} yet.")

    def open_find(self) -> None:
        selected = self.view.textCursor().selectedText() if self.view.has_selection() else ""
        self.find_bar.open(selected if "\u2029" not in selected else "")

    def _hits(self) -> list[tuple[str, int, int]]:
        needle = self.find_bar.needle.text()
        if not needle or not self.reference or self.reference_only("Find"):
            return []
        return find_in_reference(
            self.project, self.reference, needle,
            self.find_bar.whole_words.isChecked(), self.find_bar.case_sensitive.isChecked(),
        )

    def find_next(self, backwards: bool = False) -> None:  # (not find: that is QWidget's static method)
        hits = self._hits()
        needle = self.find_bar.needle.text()
        if why := self.reference_only("Find"):
            self.say(why, True)
            return
        if not self.reference:
            self.say("No reference to search: open a project with a reference first.", True)
            return
        if not needle:
            self.say("Type what to find.", True)
            return
        if not hits:
            self.say(f"“{needle}” is not in reference {self.reference}.", True)
            return
        position = self.project.segment_position
        here = self.view.selection_start()
        if here is None:
            anchor = (-1, -1)
        else:
            segment, offset = here
            if self.view.has_selection() and not backwards:
                offset += 1  # the match selected now is not the next one
            anchor = (position(segment), offset)
        keyed = [((position(s), a), (s, a, b)) for s, a, b in hits]
        if backwards:
            before = [h for k, h in keyed if k < anchor]
            chosen = before[-1] if before else keyed[-1][1]
        else:
            after = [h for k, h in keyed if k >= anchor]
            chosen = after[0] if after else keyed[0][1]
        segment, start, end = chosen
        self.session.set_current_segment(segment)
        if self.view.shows(segment):
            self.view.select_range(segment, start, end)
        number = [h for _, h in keyed].index(chosen) + 1
        self.say(f"“{needle}”: match {number} of {len(hits)} (segment {segment}).")

    def annotate_every_occurrence(self, entity_type: str) -> None:
        needle = self.find_bar.needle.text()
        if not needle:
            self.say("Type the string to annotate in the find bar.", True)
            return
        if why := self.reference_only("Annotate every occurrence"):
            self.say(why, True)
            return
        if not self.annotator or not self.reference:
            self.say("Choose a reference and type your annotator name first.", True)
            return
        try:
            plan = plan_every_occurrence(
                self.project, self.reference, needle, entity_type, self.annotator,
                self.find_bar.whole_words.isChecked(), self.find_bar.case_sensitive.isChecked(),
            )
            check_new_spans(self.project, plan.spans)
        except ModelError as exc:
            self.say(f"Not tagged: {exc}.", True)
            return
        skipped = f"; {len(plan.skipped)} skipped (they overlap other entities)" if plan.skipped else ""
        if not plan.spans:
            self.say(f"Nothing to tag: no untagged “{needle}”{skipped}.", bool(plan.skipped))
            return
        self.session.push(AddSpansCommand(self.project, plan.spans, f"Tag every “{needle}” as {entity_type}"))
        self.say(f"Tagged {len(plan.spans)} occurrences of “{needle}” as {entity_type}{skipped}.")
