"""The Metrics view on a project whose only reference is also a system: that system gets no
reference-based score, the view says why, and it does not score again and again."""

from __future__ import annotations

import math

import pytest
import sacrebleu
from PySide6.QtCore import Qt

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import save_bundle

REF = ["今天天气很好。", "我们明天去北京。", "他在看书。"]
MT = ["今天天气好。", "我们明天去北京。", "他看书。"]


@pytest.fixture
def bundle(tmp_path):
    segs = [Segment(str(i), s) for i, s in enumerate(["Nice weather today.", "We go to Beijing tomorrow.",
                                                     "He is reading."], 1)]
    project = Project([Document("d", [Paragraph("p", segs)])], source_language="en", target_language="zh")
    project.add_reference(Reference("refA", texts={s.id: t for s, t in zip(segs, REF)}))
    project.add_system(System("refA", "human", {s.id: t for s, t in zip(segs, REF)}))
    project.add_system(System("mt", "machine", {s.id: t for s, t in zip(segs, MT)}))
    project.settings.metrics = ["bleu"]
    path = tmp_path / "zh.mtwb.json"
    save_bundle(project, path)
    return path


def test_the_only_reference_as_a_system_is_not_scored_and_the_view_says_why(qtbot, bundle, screenshot_dir):
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_path(bundle)
    workspace = window.workspaces["Metrics"]
    bar = window.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(window.tabs.indexOf(workspace)).center())
    qtbot.waitUntil(lambda: not workspace.is_scoring() and not workspace.needs_scoring(), timeout=60_000)
    workspace.refresh()
    cells = {row.system: row.cells["bleu"] for row in workspace.corpus_table.model.rows}
    assert cells["mt"].score == pytest.approx(sacrebleu.corpus_bleu(MT, [REF], tokenize="zh").score, abs=1e-9)
    assert math.isnan(cells["refA"].score)  # never 100 against itself
    model = workspace.corpus_table.model
    row = next(r for r in model.rows if r.system == "refA")
    assert model.cell_text(row, "bleu", cells["refA"]) == "–"
    assert "only reference" in model.cell_tooltip(row, "bleu", cells["refA"])
    assert "the project's only reference" in workspace.status.text()
    window.grab().save(str(screenshot_dir / "metrics-self-reference.png"))
    assert not workspace.needs_scoring()
