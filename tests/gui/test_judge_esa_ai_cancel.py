"""ESA-AI: finding the model's spans for a new queue shows its progress and a Cancel button
under the Judge toolbar; Cancel stops the job and leaves no queue (nothing half made, nothing
to undo), and a later run that finishes stores its queue."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from mtworkbench.core.jobs import Cancelled
from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.suggested_spans import SuggestedSpan
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.scoring import span_suggestions
from mtworkbench.scoring.span_suggestions import ModelSpans
from tests.gui.test_judge_rating import add_judge, open_judge_window, start_queue
from tests.scoring.esa_ai_fixtures import zh_en_project

SPEC = "comet:model=slow-xcomet"


def _slow_model(release: threading.Event, calls: list[str]):
    """A stand-in for the model: reports progress per system, waits to be released or
    cancelled, and then marks one span per item."""

    def model_spans(project, spec, systems=None, progress=None, cancel=None, cache=None):
        calls.append("started")
        for k, _ in enumerate(systems):
            progress(k, len(systems))
        while not release.wait(0.01):
            if cancel():
                calls.append("cancelled")
                raise Cancelled()
        progress(len(systems), len(systems))
        spans = {(s, seg.id): [SuggestedSpan(0, 1, "major", model="slow", fingerprint="f")]
                 for s in systems for seg in project.segments}
        return ModelSpans(spec, "slow", "f", spans)

    return model_spans


def test_cancel_stops_the_model_and_leaves_no_queue(qtbot, tmp_path, monkeypatch, screenshot_dir):
    bundle = tmp_path / "zh-en.mtwb"
    save_bundle(zh_en_project(), bundle)
    window = open_judge_window(qtbot, bundle)
    workspace = window.workspaces["Judge"]
    project = window.session.project
    release, calls = threading.Event(), []
    monkeypatch.setattr(span_suggestions, "model_spans", _slow_model(release, calls))
    add_judge(qtbot, workspace, monkeypatch, "li")
    undo_depth = window.session.undo_stack.count()
    config = QueueConfig(seed=7, repeat_share=0.0, protocol="esa", suggest_spans=SPEC)
    start_queue(qtbot, workspace, monkeypatch, config)
    starter = workspace.model_spans
    qtbot.waitUntil(lambda: calls == ["started"] and starter.bar.isVisible())
    assert starter.cancel_button.isVisible() and starter.cancel_button.isEnabled()
    assert "slow-xcomet" in starter.label.text() and "system" in starter.label.text()
    window.grab().save(str(screenshot_dir / "judge-esa-ai-finding-spans.png"))
    qtbot.mouseClick(starter.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not starter.running, timeout=10_000)
    assert calls == ["started", "cancelled"]
    assert not starter.bar.isVisible()
    assert "li" not in project.judge_queues  # no queue, not even one without its spans
    assert window.session.undo_stack.count() == undo_depth  # nothing stored, nothing to undo
    assert "Cancelled" in workspace.rating.status.text()
    # Started again and left to finish: the queue comes with the model's spans.
    release.set()
    start_queue(qtbot, workspace, monkeypatch, config)
    qtbot.waitUntil(lambda: "li" in project.judge_queues, timeout=10_000)
    state = project.judge_queues["li"]
    assert state.suggestions == SPEC and all(e.suggested for e in state.items if not e.qc)
    assert not starter.bar.isVisible()
