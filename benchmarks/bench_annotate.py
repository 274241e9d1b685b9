"""How long tagging takes in the Annotate workspace on a 2,000-segment document: from the
type key's press to the repainted view (the goal is < 50 ms per press, median).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_annotate.py [PRESSES]

Prints the time to build the document's view, then the median and maximum over the presses
for tagging a selection, retyping an entity and undoing. The test suite checks only that
none of these rebuilds the document's text (tests/gui/test_annotate_perf.py); the times are
measured here, where a loaded CI machine cannot make a test flaky.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

GOAL_S = 0.050
N_PARAGRAPHS, PER_PARAGRAPH = 100, 20


def big_project():
    from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment

    paragraphs, texts, n = [], {}, 0
    for p in range(N_PARAGRAPHS):
        segments = []
        for _ in range(PER_PARAGRAPH):
            n += 1
            sid = str(n)
            segments.append(Segment(sid, f"Lause {n}."))
            texts[sid] = f"In {1900 + n % 100} Alice Smith of Acme Corp flew from Paris to Tallinn, sentence {n}."
        paragraphs.append(Paragraph(f"p{p + 1}", segments))
    return Project([Document("big", paragraphs)], [Reference("ref", "t", texts)])


def press(widget, key) -> float:
    from PySide6.QtTest import QTest

    began = time.perf_counter()
    QTest.keyClick(widget, key)
    widget.viewport().repaint()  # the view updated, not only scheduled
    return time.perf_counter() - began


def main(presses: int) -> int:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from mtworkbench.gui.annotate.workspace import AnnotateWorkspace
    from mtworkbench.gui.session import ProjectSession

    app = QApplication.instance() or QApplication(sys.argv[:1])
    session = ProjectSession()
    ws = AnnotateWorkspace(session)
    ws.resize(1280, 800)
    ws.show()
    ws.annotator_box.setEditText("bench")
    started = time.perf_counter()
    session.replace_project(big_project(), None)
    app.processEvents()
    build = time.perf_counter() - started

    view = ws.view
    keys = [Qt.Key.Key_P, Qt.Key.Key_O, Qt.Key.Key_L]
    needles = ["Alice Smith", "Acme Corp", "Paris"]
    tag_times = []
    for i in range(presses):
        segment = str(995 + i)
        session.set_current_segment(segment)
        text = session.project.reference_text("ref", segment)
        start = text.index(needles[i % 3])
        view.select_range(segment, start, start + len(needles[i % 3]))
        view.setFocus()
        app.processEvents()
        tag_times.append(press(view, keys[i % 3]))
        if not session.project.spans_for("ref", segment, "bench"):
            raise SystemExit(f"the key press did not tag segment {segment}: the benchmark measures nothing")

    retype_times = []
    segment = str(995 + presses + 1)
    session.set_current_segment(segment)
    text = session.project.reference_text("ref", segment)
    start = text.index("Paris")
    view.select_range(segment, start, start + 5)
    for i in range(presses):
        retype_times.append(press(view, keys[i % 3]))
    undo_times = []
    for _ in range(min(presses, session.undo_stack.count())):
        began = time.perf_counter()
        session.undo_stack.undo()
        view.viewport().repaint()
        undo_times.append(time.perf_counter() - began)

    print(f"2,000-segment document: view built in {1000 * build:.0f} ms")
    worst = 0.0
    for name, times in (("tag a selection", tag_times), ("retype", retype_times), ("undo", undo_times)):
        median = statistics.median(times)
        worst = max(worst, median)
        print(f"  {name:16s} median {1000 * median:6.1f} ms   max {1000 * max(times):6.1f} ms   "
              f"({len(times)} presses)")
    print(f"goal: median < {1000 * GOAL_S:.0f} ms per press -> {'met' if worst < GOAL_S else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 15))
