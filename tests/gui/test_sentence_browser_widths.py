"""The sentence browser's name columns are measured once per set of names, not at each
arrival of scores (a metric's numbers, then each interval): measuring thousands of segment
ids at every arrival made the turn that shows stored scores long."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QFontMetrics

from mtworkbench.gui.metrics.sentence_browser import SentenceBrowser, SentenceTableModel

IDS = [f"文書-{n}" for n in range(300)] + ["Satz-Überlänge-1", "предложение-2", "جملة-٣"]
SYSTEMS = ["sys-A", "システム-B"]


def browser(qtbot) -> SentenceBrowser:
    widget = SentenceBrowser()
    qtbot.addWidget(widget)
    widget.resize(1280, 600)
    widget.show()
    widget.set_texts(IDS, SYSTEMS, [[f"{s} {sid}" for sid in IDS] for s in SYSTEMS], [f"Quelle {sid}" for sid in IDS])
    return widget


def test_scores_arriving_do_not_measure_the_names_again(qtbot, monkeypatch):
    widget = browser(qtbot)
    widths = [widget.view.columnWidth(c) for c in (SentenceTableModel.SEGMENT, SentenceTableModel.SYSTEM)]
    measured = []
    real = QFontMetrics.horizontalAdvance
    monkeypatch.setattr(QFontMetrics, "horizontalAdvance", lambda self, *a: measured.append(a) or real(self, *a))
    scores = np.linspace(0, 1, len(SYSTEMS) * len(IDS)).reshape(len(SYSTEMS), len(IDS))
    widget.set_scores({"bleu": scores}, None)
    widget.set_scores({"bleu": scores, "chrf": scores * 100}, None)
    names = {*IDS, *SYSTEMS, "Segment", "System"}
    assert measured and not [a for a in measured if a[0] in names]  # the score columns only
    assert [widget.view.columnWidth(c) for c in (SentenceTableModel.SEGMENT, SentenceTableModel.SYSTEM)] == widths
    assert widget.model.columnCount() > SentenceTableModel.N_FIXED + 1  # both metrics shown


def test_new_names_are_measured(qtbot):
    widget = browser(qtbot)
    before = widget.view.columnWidth(SentenceTableModel.SYSTEM)
    longer = ["sys-A", "システム-B-mit-einem-längeren-Namen"]
    widget.set_texts(IDS, longer, [["x"] * len(IDS) for _ in longer], ["y"] * len(IDS))
    assert widget.view.columnWidth(SentenceTableModel.SYSTEM) > before
