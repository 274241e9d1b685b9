"""The error spans of one item while a judge marks them, with the model's suggestions among
them (no Qt).

``SpanDraft`` holds the spans shown for one queue item and, for each, the suggestion it came
from (``origins``: an index into ``suggested``, None for the judge's own) and whether the judge
has already decided on it (``settled``: kept or changed; a pre-marked span not yet settled is
drawn as the model's). Every change is a plain method; ``snapshot``/``restore`` give the GUI an
exact inverse for each, so each edit is one undoable command. ``outcomes`` turns the draft into
what the judgment records: one ``SpanOutcome`` per suggestion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from mtworkbench.core.records import ErrorSpan, Judgment
from mtworkbench.core.suggested_spans import SpanOutcome, SuggestedSpan

Snapshot = tuple[tuple[ErrorSpan, ...], tuple[int | None, ...], tuple[bool, ...], bool]
# The severities a protocol's judge can give: a model's other severities (xCOMET's critical)
# are pre-marked as the protocol's most severe.
PROTOCOL_SEVERITIES = {"esa": ("minor", "major"), "mqm": ("Minor", "Major", "Neutral")}


def pre_marked(suggestion: SuggestedSpan, protocol: str) -> ErrorSpan:
    """The error span a suggestion is shown as under ``protocol`` (its severity in that protocol's spelling)."""
    return ErrorSpan(suggestion.start, suggestion.end, protocol_severity(suggestion.severity, protocol),
                     suggestion.category if protocol == "mqm" else "")


def protocol_severity(severity: str, protocol: str) -> str:
    allowed = PROTOCOL_SEVERITIES.get(protocol, ())
    for name in allowed:
        if name.casefold() == severity.casefold():
            return name
    return allowed[1] if len(allowed) > 1 else severity


@dataclass
class SpanDraft:
    protocol: str
    suggested: tuple[SuggestedSpan, ...] = ()
    spans: list[ErrorSpan] = field(default_factory=list)
    origins: list[int | None] = field(default_factory=list)
    settled: list[bool] = field(default_factory=list)
    no_errors: bool = False  # MQM: the judge chose "no errors"

    @classmethod
    def start(cls, protocol: str, suggested: Sequence[SuggestedSpan] = (), judgment: Judgment | None = None
              ) -> SpanDraft:
        """A fresh item: the suggestions pre-marked; an item rated before: its stored errors,
        each linked to the suggestion it came from."""
        draft = cls(protocol, tuple(suggested))
        if judgment is not None:
            came_from = {o.error: k for k, o in enumerate(judgment.suggestions) if o.error is not None}
            for k, e in enumerate(judgment.errors):
                draft._add(e, came_from.get(k), True)
            draft.no_errors = not judgment.errors
            if judgment.suggestions:
                draft.suggested = tuple(o.suggestion for o in judgment.suggestions)
            return draft
        for k, s in enumerate(draft.suggested):
            draft._add(pre_marked(s, protocol), k, False)
        return draft

    # --- state -------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        return tuple(self.spans), tuple(self.origins), tuple(self.settled), self.no_errors

    def restore(self, state: Snapshot) -> None:
        spans, origins, settled, no_errors = state
        self.spans, self.origins, self.settled, self.no_errors = list(spans), list(origins), list(settled), no_errors

    def _add(self, span: ErrorSpan, origin: int | None, settled: bool) -> None:
        rows = sorted([*zip(self.spans, self.origins, self.settled), (span, origin, settled)],
                      key=lambda r: (-1 if r[0].start is None else r[0].start, r[0].end or 0))
        self.spans, self.origins, self.settled = [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]

    def from_model(self, index: int) -> bool:
        return self.origins[index] is not None

    def pending(self, index: int) -> bool:
        """A pre-marked span the judge has not decided on yet (drawn as the model's)."""
        return self.origins[index] is not None and not self.settled[index]

    def pending_indices(self) -> list[int]:
        return [k for k in range(len(self.spans)) if self.pending(k)]

    def at(self, position: int) -> int | None:
        """The index of the span at a character position (a pending suggestion first)."""
        found = [k for k, s in enumerate(self.spans)
                 if s.start is not None and s.end is not None and s.start <= position <= s.end]
        return next((k for k in found if self.pending(k)), found[0] if found else None)

    # --- edits --------------------------------------------------------------------------------
    def add(self, span: ErrorSpan) -> None:
        """A span of the judge's own."""
        self._add(span, None, True)
        self.no_errors = False

    def remove(self, index: int) -> ErrorSpan:
        span = self.spans.pop(index)
        self.origins.pop(index)
        self.settled.pop(index)
        return span

    def keep(self, index: int) -> None:
        self.settled[index] = True

    def change(self, index: int, span: ErrorSpan) -> None:
        """Another severity, category or extent for span ``index`` (it stays linked to its suggestion)."""
        origin = self.origins[index]
        self.remove(index)
        self._add(span, origin, True)

    def resize(self, index: int, start: int, end: int) -> None:
        self.change(index, replace(self.spans[index], start=start, end=end))

    def keep_all(self) -> int:
        todo = self.pending_indices()
        for k in todo:
            self.settled[k] = True
        return len(todo)

    def delete_all_pending(self) -> int:
        todo = self.pending_indices()
        for k in reversed(todo):
            self.remove(k)
        return len(todo)

    # --- the rating -------------------------------------------------------------------------
    def outcomes(self) -> tuple[SpanOutcome, ...]:
        """One outcome per suggestion: kept (as pre-marked, settled or not), changed, or deleted."""
        out = []
        for k, s in enumerate(self.suggested):
            where = next((i for i, o in enumerate(self.origins) if o == k), None)
            if where is None:
                out.append(SpanOutcome(s, "deleted"))
            else:
                same = self.spans[where] == pre_marked(s, self.protocol)
                out.append(SpanOutcome(s, "kept" if same else "changed", where))
        return tuple(out)
