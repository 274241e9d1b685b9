"""The Annotate workspace: mark named entities in a reference, one annotator's
layer at a time, and compare or adjudicate two annotators.

Editor tab: the reference as flowing text (segment, paragraph or document),
a type key tags the selection, click an entity to retype (type key) or remove
it (Delete), the document's entities in a side list, find and "annotate every
occurrence". Compare tab: agreement of two annotators and adjudication into a
third layer. Every change is a command on the session's undo stack.
"""

from __future__ import annotations

import getpass

import shiboken6
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from mtworkbench.core.events import (
    AnnotationsReset,
    ReferenceAdded,
    ReferenceChanged,
    ReferenceRemoved,
    RelationChanged,
    SettingsChanged,
    SpanAdded,
    SpanChanged,
    SpanRemoved,
)
from mtworkbench.core.layer_schema import schema_of
from mtworkbench.core.layers import ENTITIES, grapheme_bounds
from mtworkbench.core.model import EntitySpan, ModelError, Project
from mtworkbench.core.project_input import default_entity_layer
from mtworkbench.gui.annotate.commands import SetLayerSchemaCommand
from mtworkbench.gui.annotate.compare_view import ComparisonView
from mtworkbench.gui.annotate.entity_list import EntityListModel
from mtworkbench.gui.annotate.entity_table_width import EntityTableWidth
from mtworkbench.gui.annotate.file_actions import AnnotationFiles
from mtworkbench.gui.annotate.find_bar import FindBar
from mtworkbench.gui.annotate.growing_page import GrowingPage
from mtworkbench.gui.annotate.layer_choice import LayerChoice
from mtworkbench.gui.annotate.layers_dialog import LayersDialog
from mtworkbench.gui.annotate.moving import Members, MovingAndFinding, page_of
from mtworkbench.gui.annotate.span_keys import SpansAndRelations
from mtworkbench.gui.annotate.suggestion_keys import SuggestionsInEditor
from mtworkbench.gui.annotate.suggestions_view import SuggestionsPanel
from mtworkbench.gui.annotate.text_view import EntityTextView, SelectionError
from mtworkbench.gui.commands import (
    AddSpanCommand,
    SetSpanTypeCommand,
)
from mtworkbench.gui.plain import esc
from mtworkbench.gui.project_people import remember, remembered
from mtworkbench.gui.workspace_base import Workspace

SCOPES = ("segment", "paragraph", "document")
NEXT_SEGMENT_KEY = "Alt+Down"
PREVIOUS_SEGMENT_KEY = "Alt+Up"
NEXT_UNANNOTATED_KEY = "Alt+N"
FIND_KEY = "Ctrl+F"


def _default_annotator() -> str:
    try:
        return getpass.getuser() or "annotator"
    except (OSError, KeyError, ImportError):  # no user name in some containers
        return "annotator"


class AnnotateWorkspace(Workspace, MovingAndFinding, AnnotationFiles, SpansAndRelations, SuggestionsInEditor,
                        LayerChoice):
    title = "Annotate"

    def __init__(self, session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        settings = QSettings()
        self.reference = ""
        self.annotator = str(settings.value("annotate/annotator", "") or _default_annotator()).strip()
        self.scope = str(settings.value("annotate/scope", "document"))
        if self.scope not in SCOPES:
            self.scope = "document"
        self._shown_key: tuple[str, str, str, str] | None = None
        self._key_to_type: dict[str, str] = {}

        # --- top row: what is annotated ---------------------------------------------------
        self.layer = ENTITIES
        self.layer_box = QComboBox()
        self.layer_box.setObjectName("annotate-layer")
        self.layer_box.setToolTip("The span layer you edit: its text, types, keys and nesting rules")
        self.text_label = QLabel("Reference")
        self.reference_box = QComboBox()
        self.reference_box.setObjectName("annotate-reference")
        self.reference_box.setMinimumWidth(110)
        self.annotator_box = QComboBox()
        self.annotator_box.setObjectName("annotate-annotator")
        self.annotator_box.setEditable(True)
        self.annotator_box.setMinimumWidth(140)
        self.annotator_box.setToolTip("Your annotator name: your entities form a layer of their own")
        self.annotator_box.setEditText(self.annotator)
        self.scope_box = QComboBox()
        self.scope_box.setObjectName("annotate-scope")
        self.scope_box.addItems([s.capitalize() for s in SCOPES])
        self.scope_box.setCurrentIndex(SCOPES.index(self.scope))
        self.snap_box = QCheckBox("Snap to &words")
        self.snap_box.setObjectName("annotate-snap")
        self.snap_box.setChecked(str(settings.value("annotate/snap", "true")).lower() != "false")
        self.snap_box.setToolTip("Widen selections to whole words")

        self.toolbar = QToolBar()
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.action_find = self._action("Find…", self.open_find, FIND_KEY)
        self.action_previous = self._action("Previous segment", self.previous_segment, PREVIOUS_SEGMENT_KEY)
        self.action_next = self._action("Next segment", self.next_segment, NEXT_SEGMENT_KEY)
        self.action_unannotated = self._action("Next unannotated", self.next_unannotated, NEXT_UNANNOTATED_KEY)
        self.toolbar.addSeparator()
        self.action_types = self._action("Layers and types…", self.edit_types)
        self.action_import = self._action("Import annotations…", self.import_annotations)
        self.action_export = self._action("Export annotations…", self.export_annotations)

        top = QHBoxLayout()
        top.addWidget(QLabel("Layer"))
        top.addWidget(self.layer_box)
        top.addSpacing(10)
        top.addWidget(self.text_label)
        top.addWidget(self.reference_box)
        top.addSpacing(10)
        top.addWidget(QLabel("Annotator"))
        top.addWidget(self.annotator_box)
        top.addSpacing(10)
        top.addWidget(QLabel("Show"))
        top.addWidget(self.scope_box)
        top.addWidget(self.snap_box)
        top.addStretch(1)

        # --- editor tab --------------------------------------------------------------------
        self.view = EntityTextView()
        self.view.spans_for = self._layer_spans
        self.view.relations_for = self._shown_relations
        self.view.relation_directed = self._relation_directed
        self.view.language_of = lambda: self.project.target_language or None
        self.view.snap_enabled = self.snap_box.isChecked()
        self.page = GrowingPage(self.view, self.owner_texts_of)  # a long page a slice per turn
        self.find_bar = FindBar()
        self.find_bar.hide()
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # shows ids and names from the bundle
        self.status.setObjectName("annotate-status")
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(self.status.fontMetrics().height() + 4)
        self.hint = QLabel()
        self.hint.setObjectName("annotate-hints")
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.RichText)
        self.hint.setStyleSheet("color: #555;")
        text_pane = QWidget()
        text_layout = QVBoxLayout(text_pane)
        text_layout.setContentsMargins(0, 0, 0, 0)
        text_layout.addWidget(self.find_bar)
        text_layout.addWidget(self.view, 1)
        text_layout.addWidget(self.status)
        text_layout.addWidget(self.hint)

        self.entities = EntityListModel(self)
        self.entity_table = QTableView()
        self.entity_table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move between cells
        self.entity_table.setObjectName("annotate-entities")
        self.entity_table.setModel(self.entities)
        self.entity_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.entity_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.entity_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.entity_table.verticalHeader().setVisible(False)
        self.entity_table.verticalHeader().setDefaultSectionSize(self.entity_table.fontMetrics().height() + 6)
        self.entity_table.setAlternatingRowColors(True)
        header = self.entity_table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)  # not ResizeToContents: it reads every row
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(0, 60)
        self.entity_table.clicked.connect(self._entity_clicked)
        self.entity_table.activated.connect(self._entity_clicked)
        self.entities_title = QLabel()
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.entities_title)
        side_layout.addWidget(self.entity_table)
        self.entities.rowsInserted.connect(self._update_entities_title)
        self.entities.rowsRemoved.connect(self._update_entities_title)
        self.entities.modelReset.connect(self._update_entities_title)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(text_pane)
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([640, 300])
        self.entity_width = EntityTableWidth(self.splitter, self.entity_table, self.entities)

        self.comparison = ComparisonView(session)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("annotate-tabs")
        self.tabs.addTab(self.splitter, "Editor")
        self.tabs.addTab(self.comparison, "Compare annotators")
        self.suggestions = SuggestionsPanel(session, lambda: (self.reference, self.annotator))
        self.tabs.addTab(self.suggestions, "Suggestions")
        self._wire_suggestions()

        # What a project without reference texts shows instead of a blank editor.
        self.empty_message = QLabel()
        self.empty_message.setObjectName("annotate-empty")
        self.empty_message.setTextFormat(Qt.TextFormat.PlainText)
        self.empty_message.setWordWrap(True)
        self.empty_message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.empty_message.setContentsMargins(12, 12, 12, 12)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.empty_message)
        self.pages.addWidget(self.tabs)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.toolbar)
        layout.addLayout(top)
        layout.addWidget(self.pages, 1)

        # --- wiring: bound methods only (Qt drops them with the widget) -----------------------
        self.view.type_key_pressed.connect(self.apply_type_key)
        self.view.delete_pressed.connect(self.delete_selected)
        self.view.cycle_pressed.connect(self.cycle_span)
        self.view.relation_key_pressed.connect(self.start_relation)
        self.view.confirm_pressed.connect(self.confirm_relation)
        self.view.cancel_pressed.connect(self.cancel_relation)
        self.view.control_clicked.connect(self.clicked_with_control)
        self.view.cursorPositionChanged.connect(self._caret_moved)
        self.view.selectionChanged.connect(self._caret_moved)
        self.find_bar.find_requested.connect(self.find_next)
        self.find_bar.annotate_all_requested.connect(self.annotate_every_occurrence)
        self.find_bar.closed.connect(self.view.setFocus)
        self.reference_box.currentTextChanged.connect(self._reference_chosen)
        self.layer_box.currentIndexChanged.connect(self._layer_chosen)
        self.annotator_box.currentTextChanged.connect(self._annotator_chosen)
        self.scope_box.currentIndexChanged.connect(self._scope_chosen)
        self.snap_box.toggled.connect(self._snap_toggled)
        session.project_replaced.connect(self._project_replaced)
        session.path_changed.connect(self._path_changed)
        session.project_changed.connect(self._project_changed)
        session.current_segment_changed.connect(self._current_segment_changed)
        session.undo_stack.indexChanged.connect(self._undo_index_changed)
        self._undo_index = session.undo_stack.index()
        self._project_replaced(session.project)

    def _action(self, text: str, slot, shortcut: str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.setToolTip(f"{text} ({shortcut})")
        action.triggered.connect(slot)
        self.addAction(action)  # the shortcut works anywhere in the workspace
        self.toolbar.addAction(action)
        return action

    def export_widget(self) -> QWidget:
        return self.tabs.currentWidget()

    @property
    def project(self) -> Project:
        return self.session.project

    # --- what is shown ------------------------------------------------------------------------
    def _undo_index_changed(self, index: int) -> None:
        """After Undo or Redo the status line says what happened, never the old message
        (a new command's own message follows this one)."""
        stack = self.sender()
        if not isinstance(stack, QUndoStack) or not shiboken6.isValid(stack) or not shiboken6.isValid(self.status):
            return  # the window is closing
        previous, self._undo_index = self._undo_index, index
        if index < previous:
            self.say(f"Undone: {stack.text(index)}.")
        elif index > 0:
            self.say(f"{stack.text(index - 1)}.")
        else:
            self.say("")

    def _update_empty_state(self) -> None:
        project = self.project
        if not project.segments:
            message = ("No project is open. Open one with File > Open… or build one with "
                       "File > New project from files…; the demo opens with mtworkbench --demo.")
        elif not project.references:
            message = "This project has no reference translation to annotate: import one with File > New project from files…"
        else:
            message = ""
        self.empty_message.setText(message)
        self.pages.setCurrentWidget(self.empty_message if message else self.tabs)
        if message:
            self.say("")

    def _project_replaced(self, project: Project) -> None:
        self._shown_project = project
        self._shown_on = None  # a new project: _fill_layers below starts afresh, nothing is stale
        self._undo_index = self.session.undo_stack.index()
        self.say("")
        # This project's annotator when one was chosen for it (else the last name used anywhere).
        mine = remembered("annotator", self.session.path)
        if mine and mine != self.annotator:
            self.annotator = mine
            self.annotator_box.blockSignals(True)
            self.annotator_box.setEditText(mine)
            self.annotator_box.blockSignals(False)
        self._fill_layers()
        self._fill_references()
        self._fill_annotators()
        self._apply_type_styles()
        self._shown_key = None
        self.comparison.set_reference(self.reference if self.active_layer().on == "reference" else "")
        self._refresh_view()
        self._relist()
        self._update_empty_state()

    def _fill_annotators(self) -> None:
        names = list(self.project.annotators)
        if names and self.annotator not in names and not QSettings().contains("annotate/annotator"):
            # First start: show a layer that has entities (the adjudicated one when
            # there is one) rather than the user's empty layer; typing a name switches.
            self.annotator = default_entity_layer(self.project) or self.annotator
        if self.annotator and self.annotator not in names:
            names.append(self.annotator)
        if [self.annotator_box.itemText(i) for i in range(self.annotator_box.count())] == names:
            return
        self.annotator_box.blockSignals(True)
        self.annotator_box.clear()
        self.annotator_box.addItems(names)
        self.annotator_box.setEditText(self.annotator)
        self.annotator_box.blockSignals(False)

    def _container(self, segment_id: str) -> tuple[str, list[tuple[str, bool]]]:
        """The id of what the scope shows around the segment, and its (segment, starts paragraph) list."""
        project = self.project
        if self.scope == "segment":
            return segment_id, [(segment_id, True)]
        document = project.document(project.document_of(segment_id))
        paragraphs = document.paragraphs
        if self.scope == "paragraph":
            paragraph_id = project.paragraph_of(segment_id)
            paragraphs = [p for p in paragraphs if p.id == paragraph_id]
            container = paragraph_id
        else:
            container = document.id
        shown, shown_start = self._shown_key, None
        if shown is not None and shown[:3] == (self.layer, self.reference, self.scope) and shown[3].startswith(container + "@"):
            shown_start = int(shown[3].rsplit("@", 1)[1])  # a window of a long document is shown
        members = Members(paragraphs)  # in document order: the segment's index is a difference
        first = project.segment_position(next(p.segments[0].id for p in paragraphs if p.segments)) if len(members) else 0
        return page_of(container, members, segment_id, shown_start, project.segment_position(segment_id) - first)

    def _refresh_view(self, force: bool = False) -> None:
        """Rebuild the text only when a different segment set is to be shown."""
        segment = self.session.current_segment
        if not segment or not self.project.has_segment(segment) or not self.has_text_side():
            if self._shown_key is not None or force:
                self.page.show([])
            self._shown_key = None
            return
        container, members = self._container(segment)
        key = (self.layer, self.reference, self.scope, container)
        if key != self._shown_key or force:
            self.page.show(members, segment)
            self._shown_key = key
        elif not self.view.shows(segment):
            self.page.finish()  # a segment of the page not laid out yet
        self.view.set_current_segment(segment)

    def _relist(self) -> None:
        segment = self.session.current_segment
        document = self.project.document_of(segment) if segment and self.project.has_segment(segment) else ""
        self.entities.show(self.project, self.reference, document, self.annotator, self.layer)

    def _update_entities_title(self, *_args) -> None:
        document = self.entities.document
        what = "Entities" if self.layer == ENTITIES else f"Spans of {esc(self.layer)}"
        self.entities_title.setText(
            f"<b>{what}</b> in document {esc(document)} ({self.entities.rowCount()})" if document else f"<b>{what}</b>"
        )

    # --- following the session -----------------------------------------------------------------
    def _current_segment_changed(self, segment_id: str) -> None:
        previous_document = self.entities.document
        self._refresh_view()
        if segment_id and self.project.has_segment(segment_id):
            if self.project.document_of(segment_id) != previous_document:
                self._relist()
            caret = self.view.caret()
            if self.view.shows(segment_id) and (caret is None or caret[0] != segment_id):
                self.view.place_caret(segment_id, 0)
                self.view.scroll_to_segment(segment_id)
        elif previous_document:
            self._relist()

    def _project_changed(self, event) -> None:
        if isinstance(event, (SpanAdded, SpanRemoved, SpanChanged)):
            span: EntitySpan = event.span
            if span.reference != self.reference or span.annotator != self.annotator or span.layer != self.layer:
                if isinstance(event, SpanAdded) and span.annotator not in [self.annotator_box.itemText(i) for i in range(self.annotator_box.count())]:
                    self._fill_annotators()
                return
            if isinstance(event, SpanAdded):
                self.entities.span_added(span)
            elif isinstance(event, SpanRemoved):
                self.entities.span_removed(span)
            else:
                self.entities.span_changed(span)
            if self.view.shows(span.segment):
                self.view.viewport().update()
                self._select_span_at_caret()
        elif isinstance(event, ReferenceChanged):
            reference, segment = event.reference_id, event.segment_id
            if reference == self.reference and self.active_layer().on == "reference" and self.view.shows(segment):
                self.view.replace_segment_text(segment, self.project.reference_text(reference, segment))
        elif isinstance(event, (ReferenceAdded, ReferenceRemoved)):
            self._update_empty_state()
            self._fill_references()
            self.comparison.set_reference(self.reference)
            self._refresh_view(force=True)
            self._relist()
        elif isinstance(event, RelationChanged):
            self.view.viewport().update()
        elif isinstance(event, AnnotationsReset):
            self._refresh_view(force=True)
            self._relist()
        elif isinstance(event, SettingsChanged) and event.name in ("entity_types", "span_layers", "relation_layers"):
            self._fill_layers()
            self._apply_type_styles()
            self._relist()

    # --- choices ---------------------------------------------------------------------------------
    def _reference_chosen(self, reference: str) -> None:
        self.reference = "" if self.active_layer().on == "source" else reference
        self.comparison.set_reference(self.reference if self.active_layer().on == "reference" else "")
        self._refresh_view()
        self._relist()

    def _annotator_chosen(self, name: str) -> None:
        self.annotator = name.strip()
        QSettings().setValue("annotate/annotator", self.annotator)
        remember("annotator", self.session.path, self.annotator)
        self.view.viewport().update()
        self._relist()
        self._select_span_at_caret()

    def _path_changed(self, path) -> None:  # saved under a new name: the choice goes with it
        # (Opening another project changes the path too, before this workspace shows it.)
        if self._shown_project is not self.session.project:
            return
        remember("annotator", path, self.annotator)

    def _scope_chosen(self, index: int) -> None:
        self.scope = SCOPES[index]
        QSettings().setValue("annotate/scope", self.scope)
        self._refresh_view()
        segment = self.session.current_segment
        if segment and self.view.shows(segment):
            self.view.place_caret(segment, 0)
            self.view.scroll_to_segment(segment)

    def _snap_toggled(self, on: bool) -> None:
        self.view.snap_enabled = on
        QSettings().setValue("annotate/snap", "true" if on else "false")

    # --- caret, selection and the selected entity ----------------------------------------------
    def _caret_moved(self) -> None:
        caret = self.view.caret()
        if caret is None:
            return
        if caret[0] != self.session.current_segment:
            self.session.set_current_segment(caret[0])
        self._select_span_at_caret()

    def say(self, message: str, problem: bool = False) -> None:
        """A message in the status line under the text (refusals in red, never a modal box)."""
        self.status.setStyleSheet("color: #b00020;" if problem else "color: #1b5e20;")
        self.status.setText(message)

    # --- editing ------------------------------------------------------------------------------------
    def apply_type_key(self, key: str) -> None:
        entity_type = self._key_to_type.get(key)
        if entity_type is None:
            return
        if not self.annotator:
            self.say("Type your annotator name first (top row).", True)
            return
        if not self.has_text_side():
            self.say(f"Choose the {self.text_label.text().lower()} to annotate first (top row).", True)
            return
        if self.view.has_selection():
            self.tag_selection(entity_type)
            return
        span = self.selected_span()
        if span is None and self.accept_suggestion_as(entity_type):
            return
        if span is None:
            self.say("Select some text first (drag with the mouse or use Shift+arrows), or click an entity.", True)
            return
        if span.type == entity_type:
            self.say(f"The entity is a {entity_type} already.")
            return
        self.session.push(SetSpanTypeCommand(self.project, span.id, entity_type))
        self.say(f"Retyped “{self._text_of(span)}” as {entity_type}.")

    def tag_selection(self, entity_type: str) -> None:
        try:
            selection = self.view.selection()
        except SelectionError as exc:
            self.say(f"Not tagged: {exc}.", True)
            return
        # Whole graphemes only: a span never cuts a letter from its combining marks.
        start, end = grapheme_bounds(self.view.segment_text(selection.segment) or "", selection.start, selection.end)
        span = EntitySpan(self.project.new_id("e"), self.reference, selection.segment, start, end, entity_type,
                          self.annotator, self.layer)
        try:
            self.project.check_span(span)
        except ModelError as exc:
            self.say(f"Not tagged: {exc}.", True)
            return
        self.session.push(AddSpanCommand(self.project, span))
        self.view.place_caret(span.segment, span.start)  # the new entity is selected: a key retypes it
        self.say(f"Tagged “{self._text_of(span)}” as {entity_type}.")

    def _text_of(self, span: EntitySpan) -> str:
        return self.span_text_of(span)

    # --- moving ---------------------------------------------------------------------------------------
    def _entity_clicked(self, index) -> None:
        if not index.isValid():
            return
        span = self.entities.span_at(index.row())
        self.session.set_current_segment(span.segment)
        if self.view.shows(span.segment):
            self.view.place_caret(span.segment, span.start)
            self.view.scroll_to_segment(span.segment)
            self.view.ensureCursorVisible()
        self.view.setFocus()

    # --- layers and types --------------------------------------------------------------------
    def edit_types(self) -> LayersDialog:
        """Open the layers-and-types dialog (not modal: OK saves through the undo stack)."""
        self.types_dialog = LayersDialog(self.project, self)
        self.types_dialog.accepted.connect(self._types_accepted)
        self.types_dialog.open()
        return self.types_dialog

    def _types_accepted(self) -> None:
        schema = self.types_dialog.result_schema
        if schema is None or schema == schema_of(self.project.settings):
            return
        self.session.push(SetLayerSchemaCommand(self.project, schema))
        self.say("Saved the layers and types (Edit > Undo takes the change back).")
