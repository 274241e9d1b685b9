"""Annotate → Suggestions: spans a model suggests, accepted or rejected with a key.

A spaCy pipeline folder the user chooses (checked first: only spaCy's own components, see
``io.annotations.spacy_pipeline``) suggests entities on the current reference, on a worker.
Each suggestion is shown in its segment with a dashed underline (distinct from the solid
underline of a span already made) and decided with a key, as Prodigy's ``ner.correct`` and
INCEpTION's recommenders work: Enter or A accepts into the current layer, Delete or R rejects,
Ctrl+Shift+A accepts all, Ctrl+Shift+R rejects all; a type key (the entity types' keys)
accepts with that type instead (recorded as corrected). Every decision is one undo step and is
kept in the bundle with its source; the accept rate per label is shown below. Other sources
(a neural metric's error spans with severities) plug in through ``set_suggestions``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QShortcut, QTextCharFormat, QTextCursor, QUndoCommand
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.annotation import add_spans
from mtworkbench.core.model import EntitySpan, ModelError, Project
from mtworkbench.core.suggestions import (
    ONTONOTES_TO_MUC,
    Suggestion,
    SuggestionDecision,
    accept_rates,
    decide,
    open_suggestions,
    reject,
    relabelled,
)
from mtworkbench.gui.annotate.commands import check_new_spans
from mtworkbench.gui.session import ProjectSession
from mtworkbench.gui.worker import JobWorker


class DecideCommand(QUndoCommand):
    """Spans made from suggestions and the decisions recorded, as one undo step."""

    def __init__(self, project: Project, spans: Sequence[EntitySpan], decisions: Sequence[SuggestionDecision],
                 text: str) -> None:
        super().__init__(text)
        self.project, self.spans, self.decisions = project, list(spans), list(decisions)

    def redo(self) -> None:
        add_spans(self.project, self.spans)
        self.project.suggestion_decisions.extend(self.decisions)

    def undo(self) -> None:
        for span in reversed(self.spans):
            self.project.remove_span(span.id)
        if self.decisions:  # [-0:] would be the whole list
            del self.project.suggestion_decisions[-len(self.decisions):]


class SuggestionsPanel(QWidget):
    changed = Signal()
    """The pending suggestions changed (the editor redraws them)."""

    def __init__(self, session: ProjectSession, place: Callable[[], tuple[str, str]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("annotate-suggestions")
        self.session, self.place = session, place  # place(): (reference, annotator layer) now
        self.suggestions: list[Suggestion] = []
        self.rows: list[Suggestion] = []  # pending, as last listed (the editor draws these)
        self.by_place: dict[tuple[str, str], list[Suggestion]] = {}
        self.worker: JobWorker | None = None
        self.load = QPushButton("Load spaCy pipeline…")
        self.load.setObjectName("load-pipeline")
        self.load.clicked.connect(self.choose_pipeline)
        self.status = QLabel("Load a spaCy pipeline folder you have to get suggestions.")
        self.status.setObjectName("suggestions-status")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("suggestions-table")
        self.table.setHorizontalHeaderLabels(["Segment", "Text", "Label", "Source"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._show_context)
        self.table.installEventFilter(self)
        self.context = QTextEdit()
        self.context.setObjectName("suggestion-context")
        self.context.setReadOnly(True)
        self.context.setMaximumHeight(90)
        self.rates = QTableWidget(0, 5)
        self.rates.setObjectName("accept-rates")
        self.rates.setHorizontalHeaderLabels(["Label", "Accepted", "Corrected", "Rejected", "Accept rate"])
        self.rates.verticalHeader().setVisible(False)
        self.rates.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.rates.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.rates.setMaximumHeight(160)
        top = QHBoxLayout()
        top.addWidget(self.load)
        top.addWidget(self.status, 1)
        keys = QLabel("Enter/A accept · Delete/R reject · a type's key: accept as that type · "
                      "Ctrl+Shift+A accept all · Ctrl+Shift+R reject all · Ctrl+Z undo")
        keys.setStyleSheet("color:#52525b;")
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(keys)
        layout.addWidget(self.table, 3)
        layout.addWidget(self.context)
        layout.addWidget(QLabel("<b>Accept rate per label</b> (decisions kept in the bundle)"))
        layout.addWidget(self.rates, 1)
        for seq, slot in (("Ctrl+Shift+A", self.accept_all), ("Ctrl+Shift+R", self.reject_all)):
            QShortcut(QKeySequence(seq), self, slot, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # Bound methods, not lambdas: Qt drops those with the widget (a lambda would outlive it).
        session.project_changed.connect(self._refill_on)
        session.undo_stack.indexChanged.connect(self._refill_on)  # decisions alone: no event
        session.project_replaced.connect(self._forget)

    def _refill_on(self, *_args) -> None:
        self._refill()

    def _forget(self, *_args) -> None:
        self.set_suggestions([])

    # --- getting suggestions -------------------------------------------------------------------------
    def choose_pipeline(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose a spaCy pipeline folder")
        if folder:
            self.run_pipeline(folder)

    def run_pipeline(self, folder: str) -> None:
        from pathlib import Path

        from mtworkbench.io.annotations.spacy_pipeline import load_pipeline, suggest_entities

        reference, _ = self.place()
        project = self.session.project
        if not reference or not project.has_reference(reference):
            self.status.setText("Choose a reference first.")
            return
        texts = {sid: t for sid, t in project.reference(reference).texts.items() if t.strip()}
        source = f"spacy:{Path(folder).name}"

        def job(_progress, _cancel, _deliver) -> list[Suggestion]:
            return relabelled(suggest_entities(load_pipeline(folder), texts, reference, source), ONTONOTES_TO_MUC)

        self.status.setText(f"Running {Path(folder).name} on {len(texts)} segments…")
        worker = self.worker = JobWorker(job, project=project)
        worker.succeeded.connect(self._pipeline_done)
        worker.failed.connect(lambda message: self.status.setText(f"Not loaded: {message}"))
        worker.start()

    def _pipeline_done(self, found: list[Suggestion]) -> None:
        if self.sender() is self.worker:
            self.worker = None
            self.set_suggestions(found)

    def set_suggestions(self, suggestions: Sequence[Suggestion]) -> None:
        """Suggestions from any source (spaCy, a metric's error spans); labels unknown to the
        project are left out and counted."""
        known = set(self.session.project.entity_type_names)
        self.suggestions = [s for s in suggestions if s.label in known]
        left = len(suggestions) - len(self.suggestions)
        self._refill()
        if left:
            self.status.setText(f"{self.status.text()}; {left} with labels the project has no type for left out")

    # --- showing -------------------------------------------------------------------------------------
    def pending(self) -> list[Suggestion]:
        _, annotator = self.place()
        project = self.session.project
        return open_suggestions(project, self.suggestions, annotator, project.suggestion_decisions)

    def _refill(self) -> None:
        row = max(0, self.table.currentRow())
        project = self.session.project
        rows = self.rows = self.pending()
        self.by_place = {}  # (target, segment) -> its pending suggestions: the editor paints per segment
        for suggestion in rows:
            self.by_place.setdefault((suggestion.target, suggestion.segment), []).append(suggestion)
        self.table.setRowCount(len(rows))
        for r, s in enumerate(rows):
            text = (project.reference_text(s.target, s.segment) or "")[s.start:s.end]
            for c, value in enumerate((s.segment, text, s.label, s.source)):
                self.table.setItem(r, c, QTableWidgetItem(value))
        if rows:
            self.table.selectRow(min(row, len(rows) - 1))
        if self.suggestions:
            self.status.setText(f"{len(rows)} of {len(self.suggestions)} suggestions to decide")
        self._show_context()
        decisions = project.suggestion_decisions
        rates = accept_rates(decisions)
        self.rates.setRowCount(len(rates))
        for r, rate in enumerate(rates):
            shown = "–" if rate.rate is None else f"{rate.rate:.0%}"
            for c, value in enumerate((rate.label, str(rate.accepted), str(rate.corrected), str(rate.rejected), shown)):
                self.rates.setItem(r, c, QTableWidgetItem(value))
        self.changed.emit()

    def current(self) -> Suggestion | None:
        rows = self.pending()
        row = self.table.currentRow()
        return rows[row] if 0 <= row < len(rows) else None

    def _show_context(self) -> None:
        """The suggestion's segment, the suggested span with a dashed underline."""
        s = self.current()
        self.context.clear()
        if s is None:
            return
        text = self.session.project.reference_text(s.target, s.segment) or ""
        self.context.setPlainText(text)
        cursor = QTextCursor(self.context.document())
        cursor.setPosition(s.start)
        cursor.setPosition(s.end, QTextCursor.MoveMode.KeepAnchor)
        fmt = QTextCharFormat()
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        fmt.setUnderlineColor(QColor(self._color(s.label)))
        fmt.setFontWeight(700)
        cursor.mergeCharFormat(fmt)

    def _color(self, label: str) -> str:
        return next((t.color for t in self.session.project.settings.entity_types if t.name == label), "#888888")

    # --- deciding ------------------------------------------------------------------------------------
    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        from PySide6.QtCore import QEvent

        if obj is self.table and event.type() == QEvent.Type.KeyPress and not event.modifiers() & (
                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier):
            key, text = event.key(), event.text().lower()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) or text == "a":
                self.accept_current()
                return True
            if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) or text == "r":
                self.reject_current()
                return True
            kind = next((t.name for t in self.session.project.settings.entity_types if text and t.key.lower() == text), None)
            if kind is not None:
                self.accept_current(kind)
                return True
        return super().eventFilter(obj, event)

    def accept_current(self, label: str | None = None) -> None:
        s = self.current()
        if s is not None:
            self._decide([s], label)

    def reject_current(self) -> None:
        s = self.current()
        if s is not None:
            self.reject([s])

    def accept_all(self) -> None:
        self._decide(self.pending(), None)

    def reject_all(self) -> None:
        self.reject(self.pending())

    def reject(self, suggestions: Sequence[Suggestion]) -> None:
        """Reject these suggestions as one undo step."""
        if not suggestions:
            return
        what = f"Reject {len(suggestions)} suggestions" if len(suggestions) > 1 else \
            f"Reject suggestion {suggestions[0].label}"
        self.session.push(DecideCommand(self.session.project, [], [reject(s) for s in suggestions], what))

    def accept(self, suggestions: Sequence[Suggestion], label: str | None = None) -> str:
        """Accept these suggestions (as ``label`` if given: corrected) as one undo step;
        returns why not ("" when done)."""
        return self._decide(suggestions, label)

    def _decide(self, suggestions: Sequence[Suggestion], label: str | None) -> str:
        _, annotator = self.place()
        project = self.session.project
        if not suggestions:
            return "no suggestion to accept"
        if not annotator:
            return "type your annotator name first (top row)"
        made = [decide(project, s, annotator, label) for s in suggestions]
        spans = [span for span, _ in made]
        try:
            check_new_spans(project, spans)
        except ModelError as exc:
            self.status.setText(f"Not accepted: {exc}")
            return str(exc)
        what = f"Accept {len(made)} suggestions" if len(made) > 1 else f"Accept suggestion as {spans[0].type}"
        self.session.push(DecideCommand(project, spans, [d for _, d in made], what))
        return ""
