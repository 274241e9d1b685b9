"""Issue 20 item 4: ids, names and texts that are markup are shown as text everywhere.

The app opens a project made of markup (``hostile_project``), visits every
workspace, every tab and every detail view, hovers the tables (their models'
tooltips), triggers an error dialog, and checks that no label, plot title,
axis, legend, tooltip or text view holds data markup unescaped as rich text -
so nothing is drawn as a heading and no image file named by the data is loaded.
"""

from __future__ import annotations

import json

import pyqtgraph as pg
import pytest
from hostile_project import FORMULA_SYSTEM, RAW_TAGS, REF, SYS, write_hostile_bundle  # noqa: I001
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGui
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QLabel,
    QMessageBox,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from mtworkbench.gui import dialogs
from mtworkbench.gui.main_window import MainWindow


def is_rich(text: str, fmt: Qt.TextFormat) -> bool:
    if fmt == Qt.TextFormat.PlainText:
        return False
    return fmt == Qt.TextFormat.RichText or QtGui.mightBeRichText(text)


def raw_tags_in(text: str) -> list[str]:
    return [tag for tag in RAW_TAGS if tag in text]


class Audit:
    """Collects every place where data markup would be interpreted."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.plain_texts: list[str] = []  # what plain labels show (to check the literal characters)
        self.tooltips = 0

    def rich(self, where: str, text: str) -> None:
        bad = raw_tags_in(text)
        if bad:
            self.problems.append(f"{where}: {bad} in {text[:160]!r}")

    def tooltip(self, where: str, text) -> None:
        if not isinstance(text, str) or not text:
            return
        self.tooltips += 1
        if QtGui.mightBeRichText(text):
            self.rich(f"tooltip of {where}", text)

    def widgets(self, root: QWidget) -> None:
        for w in [root, *root.findChildren(QWidget)]:
            name = f"{type(w).__name__}#{w.objectName()}"
            self.tooltip(name, w.toolTip())
            if isinstance(w, QLabel):
                if is_rich(w.text(), w.textFormat()):
                    self.rich(name, w.text())
                    document = QTextDocument()
                    document.setHtml(w.text())
                    self.plain_texts.append(document.toPlainText())  # what the reader sees
                else:
                    self.plain_texts.append(w.text())
            elif isinstance(w, QTextEdit):
                # Loaded as HTML by the view: data must arrive escaped, never as an <img> to fetch.
                self.rich(name, w.toHtml())
            elif isinstance(w, QAbstractItemView) and w.model() is not None:
                self.model(name, w.model())
            elif isinstance(w, pg.GraphicsView):
                self.scene(name, w.scene())

    def model(self, where: str, model) -> None:
        from PySide6.QtCore import QModelIndex

        rows = min(model.rowCount(QModelIndex()), 300)
        try:
            columns = model.columnCount(QModelIndex())
        except TypeError:  # a list model
            columns = 1
        for c in range(columns):
            self.tooltip(f"{where} header {c}", model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole))
        for r in range(rows):
            for c in range(columns):
                index = model.index(r, c)
                self.tooltip(f"{where} cell {r},{c}", model.data(index, Qt.ItemDataRole.ToolTipRole))

    def scene(self, where: str, scene) -> None:
        if scene is None:
            return
        for item in scene.items():
            if isinstance(item, pg.LabelItem):
                self.rich(f"{where} LabelItem", item.text or "")
            elif isinstance(item, pg.AxisItem):
                self.rich(f"{where} axis", item.labelText or "")
            elif isinstance(item, pg.TextItem):
                self.rich(f"{where} TextItem", item.textItem.toHtml())
            self.tooltip(f"{where} {type(item).__name__}", item.toolTip())


@pytest.fixture
def hostile(tmp_path):
    return write_hostile_bundle(tmp_path / "hostile.mtwb.json")


def visit_tabs(qtbot, window: MainWindow, audit: Audit) -> None:
    """Every tab of every tab widget, each audited while shown."""
    seen = set()
    for tabs in window.findChildren(QTabWidget):
        if id(tabs) in seen:
            continue
        seen.add(id(tabs))
        for i in range(tabs.count()):
            tabs.setCurrentIndex(i)
            qtbot.wait(30)
            audit.widgets(window)


def test_markup_in_every_field_is_shown_as_text(qtbot, hostile, monkeypatch):
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_path(hostile)
    audit = Audit()

    # Annotate (editor and compare annotators) on the segment holding markup.
    window.session.set_current_segment("1")
    annotate = window.workspaces["Annotate"]
    window.tabs.setCurrentWidget(annotate)
    qtbot.wait(50)
    audit.widgets(window)

    # Metrics: score, select the first row so the detail views show the markup system.
    metrics = window.workspaces["Metrics"]
    window.tabs.setCurrentWidget(metrics)
    qtbot.waitUntil(lambda: not metrics.is_scoring() and not metrics.needs_scoring(), timeout=120_000)
    metrics.refresh()
    assert metrics.browser.select(SYS, "1")
    for i in range(metrics.detail_tabs.count()):
        metrics.detail_tabs.setCurrentIndex(i)
        qtbot.wait(50)
        audit.widgets(window)

    # Judge: the markup judge, the judgments table, agreement; the notice naming a segment.
    judge = window.workspaces["Judge"]
    window.tabs.setCurrentWidget(judge)
    judge.select_judge(window.session.project.judges[0])
    judge.show_item(SYS, "1")
    audit.widgets(window)

    # Analysis: compute with the first human score.
    analysis = window.workspaces["Analysis"]
    window.tabs.setCurrentWidget(analysis)
    qtbot.wait(50)
    analysis.fill_human_choices()
    analysis.human_combo.setCurrentIndex(0)
    assert analysis.compute(), analysis.status.text()
    qtbot.waitUntil(lambda: analysis.worker is None, timeout=120_000)
    audit.widgets(window)
    visit_tabs(qtbot, window, audit)

    assert not audit.problems, "\n".join(audit.problems[:20])
    assert audit.tooltips > 100  # the tables were hovered, not skipped
    shown = "\n".join(audit.plain_texts)
    assert REF in shown  # the segment panel shows the id's literal characters
    assert "<h1>TEXT</h1>" in shown  # and the texts'
    screenshot = window.grab()
    assert screenshot.save("/tmp/mtwb-hostile-window.png")


def test_error_dialog_shows_markup_as_text(qtbot, tmp_path, monkeypatch):
    """Opening a bundle whose error quotes markup: the real error box is plain text."""
    bad = write_hostile_bundle(tmp_path / "<b>bad<img src=x>.mtwb.json")
    data = json.loads(bad.read_text(encoding="utf-8"))
    data["judgments"][0]["judge"] = "<h1>nobody</h1>"
    bad.write_text(json.dumps(data), encoding="utf-8")
    boxes: list[QMessageBox] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda self: boxes.append(self) or int(QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(dialogs, "error", ORIGINAL_ERROR)
    window = MainWindow()
    qtbot.addWidget(window)
    assert not window.open_path(bad)
    assert len(boxes) == 1
    box = boxes[0]
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert "<h1>nobody</h1>" in box.text() and "<b>bad<img src=x>" in box.text()


ORIGINAL_ERROR = dialogs.error


def test_copy_tsv_and_export_csv_neutralise_formula_cells(qtbot, hostile, tmp_path):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.open_path(hostile)
    metrics = window.workspaces["Metrics"]
    window.tabs.setCurrentWidget(metrics)
    qtbot.waitUntil(lambda: not metrics.is_scoring() and not metrics.needs_scoring(), timeout=120_000)
    metrics.refresh()
    tsv = metrics.corpus_table.copy_tsv()
    assert QApplication.clipboard().text() == tsv
    first_cells = [line.split("\t")[0] for line in tsv.splitlines()[1:]]
    assert "'" + FORMULA_SYSTEM in first_cells
    assert not any(cell.startswith("=") for cell in first_cells)


def test_correlation_csv_neutralises_formula_names_and_keeps_numbers():
    import csv
    import io

    from mtworkbench.analysis.correlation import CorrelationResult
    from mtworkbench.core.spreadsheet import restore
    from mtworkbench.gui.analysis.correlation_table import correlation_csv

    judge = '=HYPERLINK("http://x","y"):adequacy'
    rows = [CorrelationResult("pearson", -0.25, 12, 0.4, (-0.7, 0.3), "fisher-z", 0.95, "bleu", judge, "segment")]
    table = list(csv.reader(io.StringIO(correlation_csv(rows))))
    assert table[1][1] == "'" + judge and restore(table[1][1]) == judge
    assert table[1][4] == "-0.25" and table[1][5] == "-0.7"  # negative numbers stay numbers
