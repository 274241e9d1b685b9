"""File > Split into packages…, Merge packages… and Campaign progress: dialogs over
``mtworkbench.core.campaign`` / ``mtworkbench.io.bundle.packages`` (the same functions as the
``split``, ``merge`` and ``status`` commands). Results and conflicts are shown as plain text.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from mtworkbench.core.campaign import campaign_progress, item_has_work, parse_people, set_item_done
from mtworkbench.core.errors import DataError
from mtworkbench.core.queue_state import BAD_PROTOCOLS
from mtworkbench.gui.judge.queue_dialog import PROTOCOL_CHOICES, bad_rate_box
from mtworkbench.io.bundle.bundle import SUFFIX, dumps, loads


def add_menu_actions(window, menu) -> None:
    """The File menu entries (called by the main window)."""
    menu.addSeparator()
    window.action_split_packages = window._action(menu, "S&plit into packages…", lambda: open_split(window))
    window.action_merge_packages = window._action(menu, "&Merge packages…", lambda: open_merge(window))
    window.action_campaign_progress = window._action(menu, "Campaign pro&gress…", lambda: open_progress(window))
    # Opening a package sets the person's name in Annotate or Judge, so their work counts as theirs.
    # After every workspace took the project in: one built late hears project_replaced after this.
    window.project_shown.connect(lambda project: adopt_package_person(window, project))


def adopt_package_person(window, project) -> None:
    campaign = getattr(project, "campaign", None)
    if campaign is None or campaign.package is None:
        return
    if campaign.by == "annotator":
        annotate = window.workspaces.get("Annotate")
        if annotate is not None and hasattr(annotate, "annotator_box"):
            annotate.annotator_box.setEditText(campaign.package)
    else:
        judge = window.workspaces.get("Judge")
        if judge is not None and hasattr(judge, "select_judge"):
            judge.select_judge(campaign.package)


_Dialog = TypeVar("_Dialog", bound=QDialog)


def _show(window, attr: str, dialog: _Dialog) -> _Dialog:
    old = getattr(window, attr, None)
    if old is not None:
        old.close()
    setattr(window, attr, dialog)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    dialog.show()
    dialog.raise_()
    return dialog


def open_split(window) -> SplitDialog:
    return _show(window, "split_dialog", SplitDialog(window))


def open_merge(window) -> MergeDialog:
    return _show(window, "merge_dialog", MergeDialog(window))


def open_progress(window) -> ProgressDialog:
    return _show(window, "progress_dialog", ProgressDialog(window))


def _report_box(name: str) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setObjectName(name)
    box.setReadOnly(True)
    box.setMinimumHeight(140)
    return box


class SplitDialog(QDialog):
    """Who does what (judges: in which protocol, with how many BAD items), how much
    overlap, which seed, where the packages go."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Split into work packages")
        self.setObjectName("split-dialog")
        self.by = QComboBox()
        self.by.setObjectName("split-by")
        self.by.addItem("Annotators (reference segments to annotate)", "annotator")
        self.by.addItem("Judges (system × segment × reference items)", "judge")
        self.protocol = QComboBox()
        self.protocol.setObjectName("split-protocol")
        for label, name in PROTOCOL_CHOICES:
            self.protocol.addItem(label, name)
        self.bad_rate = bad_rate_box("split-bad-rate")
        self.by.currentIndexChanged.connect(self._kind_changed)
        self.protocol.currentIndexChanged.connect(self._kind_changed)
        self.people = QLineEdit()
        self.people.setObjectName("split-people")
        self.people.setPlaceholderText("alice, bob, carol")
        self.overlap = QSpinBox()
        self.overlap.setObjectName("split-overlap")
        self.overlap.setRange(0, 100)
        self.overlap.setSuffix(" %")
        self.overlap.setValue(10)
        self.seed = QSpinBox()
        self.seed.setObjectName("split-seed")
        self.seed.setRange(0, 2**31 - 1)
        self.folder = QLineEdit(str(self._default_folder()))
        self.folder.setObjectName("split-folder")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        form = QFormLayout()
        form.addRow("Split for", self.by)
        form.addRow("Judging protocol", self.protocol)
        form.addRow("BAD items (DA, ESA)", self.bad_rate)
        form.addRow("People (comma-separated)", self.people)
        form.addRow("Items given to two people", self.overlap)
        form.addRow("Seed", self.seed)
        form.addRow("Folder for the packages", folder_row)
        self.report = _report_box("split-report")
        buttons = QDialogButtonBox()
        self.split_button = buttons.addButton("Split", QDialogButtonBox.ButtonRole.AcceptRole)
        self.split_button.setObjectName("split-run")
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.accepted.connect(self.run)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Each person gets a project file with only their items; send it to them, "
                                "then merge the files they send back (File > Merge packages…)."))
        layout.addWidget(self.report)
        layout.addWidget(buttons)
        self.resize(620, 440)
        self._kind_changed()

    def _kind_changed(self, *_args) -> None:
        judging = self.by.currentData() == "judge"
        self.protocol.setEnabled(judging)
        self.bad_rate.setEnabled(judging and self.protocol.currentData() in BAD_PROTOCOLS)

    def _protocol(self) -> str | None:
        return self.protocol.currentData() if self.by.currentData() == "judge" else None

    def _bad_share(self) -> float:
        return self.bad_rate.value() / 100 if self.bad_rate.isEnabled() else 0.0

    def _default_folder(self) -> Path:
        path = self.window_.session.path
        if path is None:
            return Path.home() / "mtworkbench-packages"
        stem = path.name[: -len(SUFFIX)] if path.name.endswith(SUFFIX) else path.stem
        return path.with_name(f"{stem}-packages")

    def _browse(self) -> None:
        name = QFileDialog.getExistingDirectory(self, "Folder for the packages", self.folder.text())
        if name:
            self.folder.setText(name)

    def run(self) -> bool:
        from mtworkbench.io.bundle.packages import split_project

        try:
            people = parse_people(self.people.text())
            result = split_project(self.window_.session.project, self.by.currentData(), people,
                                   Path(self.folder.text()), self.overlap.value() / 100, self.seed.value(),
                                   self._protocol(), self._bad_share())
        except (DataError, OSError) as exc:
            self.report.setPlainText(f"Not split: {exc}")
            return False
        campaign = result.campaign
        lines = [f"Campaign {campaign.id}: {len(campaign.items)} items, "
                 f"{sum(len(it.people) > 1 for it in campaign.items)} shared by two people."]
        for person, path in result.packages.items():
            mine = campaign.items_of(person)
            bad = round(campaign.bad_rate * len(mine))
            lines.append(f"{person}: {len(mine)} items ({sum(len(it.people) > 1 for it in mine)} shared"
                         f"{f', about {bad} BAD' if bad else ''}) -> {path}")
        self.report.setPlainText("\n".join(lines))
        return True


class MergeDialog(QDialog):
    """Pick package files; merging changes the open project (unsaved until File > Save)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Merge work packages")
        self.setObjectName("merge-dialog")
        self.files = QListWidget()
        self.files.setObjectName("merge-files")
        add = QPushButton("Add packages…")
        add.clicked.connect(self._browse)
        remove = QPushButton("Remove")
        remove.clicked.connect(lambda: [self.files.takeItem(self.files.row(i)) for i in self.files.selectedItems()])
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        self.report = _report_box("merge-report")
        buttons = QDialogButtonBox()
        self.merge_button = buttons.addButton("Merge", QDialogButtonBox.ButtonRole.AcceptRole)
        self.merge_button.setObjectName("merge-run")
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.accepted.connect(self.run)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Packages to merge into the open project:"))
        layout.addWidget(self.files)
        layout.addLayout(row)
        layout.addWidget(self.report)
        layout.addWidget(buttons)
        self.resize(640, 460)

    def add_packages(self, paths) -> None:
        present = {self.files.item(i).text() for i in range(self.files.count())}
        for path in paths:
            if str(path) not in present:
                self.files.addItem(str(path))

    def _browse(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(self, "Work packages", self.window_._last_folder(),
                                                f"mtworkbench projects (*{SUFFIX});;All files (*)")
        self.add_packages(names)

    def run(self) -> bool:
        from mtworkbench.io.bundle.packages import merge_packages

        paths = [self.files.item(i).text() for i in range(self.files.count())]
        if not paths:
            self.report.setPlainText("Add the packages to merge first.")
            return False
        merged = loads(dumps(self.window_.session.project))  # the open project stays as it is if refused
        try:
            result = merge_packages(merged, paths)
        except (DataError, OSError) as exc:
            self.report.setPlainText(f"Nothing was merged: {exc}")
            return False
        if any(not r.already_merged for r in result.reports):
            self.window_.set_project(merged, self.window_.session.path)
            self.window_._recovered_unsaved = True  # merged work is not on disk until saved
            self.window_._update_title()
        text = result.summary()
        if result.conflicts:
            text += (f"\n\n{result.conflicts} conflicting items were not applied: the project's versions are "
                     "kept, the packages' versions are stored with the project (campaign conflicts).")
        self.report.setPlainText(text + "\n\nSave the project to keep the merged work.")
        return True


class ProgressDialog(QDialog):
    """Items done / assigned per person and protocol; follows the open project."""

    COLUMNS = ("Person", "Protocol", "Done", "Assigned", "Shared", "Progress")
    ITEM_COLUMNS = ("Item", "Segment", "Reference", "System", "Shared", "Done")

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Campaign progress")
        self.setObjectName("progress-dialog")
        self.summary = QLabel()
        self.summary.setObjectName("progress-summary")
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setObjectName("progress-table")
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.history = _report_box("progress-history")
        # A package's own items: double-click goes to the segment; "Done" marks an item with
        # nothing to add (a segment without entities) as done.
        self.items_label = QLabel("Your items (double-click to go there; tick Done for an item with nothing to mark):")
        self.items = QTableWidget(0, len(self.ITEM_COLUMNS))
        self.items.setObjectName("progress-items")
        self.items.setHorizontalHeaderLabels(self.ITEM_COLUMNS)
        self.items.verticalHeader().hide()
        self.items.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.items.horizontalHeader().setStretchLastSection(True)
        self.items.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.items.cellDoubleClicked.connect(self._go_to_item)
        self.items.itemChanged.connect(self._done_toggled)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.items_label)
        layout.addWidget(self.items, 2)
        self.history_label = QLabel("Merged packages and conflicts:")
        layout.addWidget(self.history_label)
        layout.addWidget(self.history)
        layout.addWidget(close)
        self.resize(660, 520)
        window.session.project_changed.connect(self.refresh)
        window.session.project_replaced.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args) -> None:
        project = self.window_.session.project
        campaign = getattr(project, "campaign", None)
        own = campaign is not None and campaign.package is not None
        self.items_label.setVisible(own)
        self.items.setVisible(own)
        self.history_label.setVisible(not own)
        self.history.setVisible(not own)
        if campaign is None:
            self.summary.setText("This project is not part of a campaign: File > Split into packages… starts one.")
            self.table.setRowCount(0)
            self.history.setPlainText("")
            return
        if own:
            self._fill_items(project, campaign)
        rows = campaign_progress(project)
        what = f"package of {campaign.package}" if campaign.package else f"{len(campaign.merges)} packages merged"
        self.summary.setText(f"Campaign {campaign.id} ({campaign.by}s, {what}): {len(campaign.items)} items, "
                             f"{sum(len(it.people) > 1 for it in campaign.items)} shared by two people.")
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            values = (row.person, row.protocol, str(row.done), str(row.assigned), str(row.shared),
                      f"{100 * row.fraction:.0f} %")
            for c, value in enumerate(values):
                item = QTableWidgetItem(value)
                if c >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        lines = [f"{m.merged_at}  {m.person} from {m.package}: {len(m.spans)} spans, {len(m.judgments)} judgments, "
                 f"{len(m.removed_spans) + len(m.removed_judgments)} removed, {m.conflicts} conflicts"
                 for m in campaign.merges]
        for c in campaign.conflicts:
            where = c.theirs or c.kept or {}
            lines.append(f"conflict: {c.kind} in segment {where.get('segment', '?')!r} from {c.package} "
                         f"({c.person}): {c.reason}")
        self.history.setPlainText("\n".join(lines) or "Nothing merged yet.")

    def _fill_items(self, project, campaign) -> None:
        person = campaign.package
        ticked = set(campaign.done.get(person, ()))
        mine = campaign.items_of(person)
        self.items.blockSignals(True)
        self.items.setRowCount(len(mine))
        for r, it in enumerate(mine):
            values = (it.id, it.segment, it.reference or "", it.system or "", "yes" if len(it.people) > 1 else "")
            for c, value in enumerate(values):
                self.items.setItem(r, c, QTableWidgetItem(value))
            done = QTableWidgetItem("work done" if item_has_work(project, it, person) else "")
            flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
            if not item_has_work(project, it, person):
                flags |= Qt.ItemFlag.ItemIsUserCheckable
                done.setCheckState(Qt.CheckState.Checked if it.id in ticked else Qt.CheckState.Unchecked)
            done.setFlags(flags)
            done.setData(Qt.ItemDataRole.UserRole, it.id)
            self.items.setItem(r, len(values), done)
        self.items.blockSignals(False)

    def _go_to_item(self, row: int, _column: int) -> None:
        cell = self.items.item(row, 1)
        if cell is None:  # a click on a row the table has not filled
            return
        segment = cell.text()
        if self.window_.session.project.has_segment(segment):
            self.window_.session.set_current_segment(segment)

    def _done_toggled(self, cell: QTableWidgetItem) -> None:
        item_id = cell.data(Qt.ItemDataRole.UserRole)
        if item_id is None or not cell.flags() & Qt.ItemFlag.ItemIsUserCheckable:
            return
        campaign = self.window_.session.project.campaign
        done = cell.checkState() == Qt.CheckState.Checked
        if done != (item_id in campaign.done.get(campaign.package, ())):
            self.window_.session.push(MarkDoneCommand(self.window_.session.project, campaign.package, item_id,
                                                      done, self))


class MarkDoneCommand(QUndoCommand):
    """Tick or untick an item's Done mark, undoably (the project is then modified)."""

    def __init__(self, project, person: str, item_id: str, done: bool, dialog: ProgressDialog) -> None:
        super().__init__(f"{'Mark' if done else 'Unmark'} {item_id} done")
        self.project, self.person, self.item_id, self.done = project, person, item_id, done
        self._dialog = weakref.ref(dialog)

    def _apply(self, done: bool) -> None:
        set_item_done(self.project, self.person, self.item_id, done)
        dialog = self._dialog()
        if dialog is not None and dialog.isVisible():
            dialog.refresh()

    def redo(self) -> None:
        self._apply(self.done)

    def undo(self) -> None:
        self._apply(not self.done)
