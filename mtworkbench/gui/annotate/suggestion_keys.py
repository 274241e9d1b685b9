"""Suggestions drawn in the Annotate editor and decided there, keyboard first.

A model's pending suggestions for the text shown are drawn in the text itself with a
dashed outline in their type's colour and the type's name with a question mark, apart
from the spans already made (solid), as INCEpTION draws its recommendations:

- **Enter** (or **Ctrl+Enter**) accepts the suggestion at the caret, **Ctrl+Backspace**
  (or **Ctrl+Delete**) rejects it;
- with **Shift** the same keys accept or reject every suggestion of the segment, with
  **Alt** every suggestion of the document;
- a click on a suggestion accepts it, a right-click rejects it;
- a type key with the caret on a suggestion (and no span there) accepts it as that type,
  recorded as corrected when the type differs.

Every decision is one undo step, recorded as accepted, corrected or rejected as on the
Suggestions tab; the status line gives the type's accept rate.
"""

from __future__ import annotations

from collections.abc import Callable

from mtworkbench.core.layers import ENTITIES
from mtworkbench.core.model import EntitySpan, Project
from mtworkbench.core.suggestions import Suggestion, accept_rates
from mtworkbench.gui.annotate.suggestions_view import SuggestionsPanel
from mtworkbench.gui.annotate.text_view import EntityTextView


class SuggestionsInEditor:
    """Mixed into the Annotate workspace after its QWidget base."""

    view: EntityTextView
    suggestions: SuggestionsPanel
    reference: str
    annotator: str
    active_layer_name: Callable[[], str]

    @property
    def project(self) -> Project:
        raise NotImplementedError

    def say(self, message: str, problem: bool = False) -> None:
        raise NotImplementedError

    def _wire_suggestions(self) -> None:
        self.view.suggestions_for = self._suggestion_spans
        self.view.suggestion_key_pressed.connect(self.suggestion_key)
        self.view.suggestion_clicked.connect(self.suggestion_clicked)
        self.suggestions.changed.connect(self.view.viewport().update)

    # --- what is drawn -----------------------------------------------------------------------
    def editor_suggestions(self, segment: str | None = None) -> list[Suggestion]:
        """The pending suggestions on the reference shown (of one segment if given); the
        suggestions are entities, so none are drawn while another layer is edited."""
        if self.active_layer_name() != ENTITIES or not self.reference:
            return []
        if segment is not None:
            return list(self.suggestions.by_place.get((self.reference, segment), ()))
        return [s for s in self.suggestions.rows if s.target == self.reference]

    def _suggestion_spans(self, segment: str) -> list[EntitySpan]:
        return [EntitySpan(f"?{i}", s.target, s.segment, s.start, s.end, s.label, self.annotator)
                for i, s in enumerate(self.editor_suggestions(segment))]

    def suggestions_at(self, segment: str, offset: int) -> list[Suggestion]:
        """The suggestions covering ``offset`` (or ending right at it), innermost first."""
        hits = [s for s in self.editor_suggestions(segment) if s.start <= offset <= s.end]
        return sorted(hits, key=lambda s: (s.end - s.start, s.start))

    # --- deciding ------------------------------------------------------------------------------
    def suggestion_key(self, action: str, scope: str) -> None:
        caret = self.view.caret()
        if caret is None:
            return
        segment, offset = caret
        if scope == "caret":
            chosen = self.suggestions_at(segment, offset)[:1]
        elif scope == "segment":
            chosen = self.editor_suggestions(segment)
        else:
            document = self.project.document_of(segment)
            inside = {s.id for s in self.project.segments_of_document(document)}
            chosen = [s for s in self.editor_suggestions() if s.segment in inside]
        if not chosen:
            where = {"caret": "at the caret", "segment": "in this segment", "document": "in this document"}[scope]
            self.say(f"No suggestion {where}." if self.suggestions.rows else
                     "No suggestions: load a spaCy pipeline on the Suggestions tab.", True)
            return
        self._decide(chosen, action == "accept")

    def accept_suggestion_as(self, label: str) -> bool:
        """A type key on a suggestion with no span under the caret: accept it as that type
        (recorded as corrected when the type differs). False when no suggestion is there."""
        caret = self.view.caret()
        found = self.suggestions_at(*caret)[:1] if caret and not self.view.has_selection() else []
        if not found:
            return False
        self._decide(found, True, label)
        return True

    def suggestion_clicked(self, segment: str, offset: int, accept: bool) -> None:
        found = self.suggestions_at(segment, offset)
        if found:
            self._decide(found[:1], accept)

    def _decide(self, chosen: list[Suggestion], accept: bool, label: str | None = None) -> None:
        what = f"{len(chosen)} suggestions" if len(chosen) > 1 else \
            f"the {chosen[0].label} “{self._suggested_text(chosen[0])}”"
        if not accept:
            self.suggestions.reject(chosen)
            self.say(f"Rejected {what}.{self._rates(chosen)}")
            return
        problem = self.suggestions.accept(chosen, label)
        if problem:
            self.say(f"Not accepted: {problem}.", True)
            return
        as_type = f" as {label}" if label and label != chosen[0].label else ""
        self.say(f"Accepted {what}{as_type}.{self._rates(chosen)}")

    def _suggested_text(self, s: Suggestion) -> str:
        return (self.project.reference_text(s.target, s.segment) or "")[s.start:s.end]

    def _rates(self, chosen: list[Suggestion]) -> str:
        """The accept rate of the decided suggestions' types, for the status line."""
        labels = {s.label for s in chosen}
        shown = [f"{r.label} {r.rate:.0%} of {r.decided}" for r in accept_rates(self.project.suggestion_decisions)
                 if r.label in labels and r.rate is not None]
        return f" Accept rate: {', '.join(shown)}." if shown else ""
