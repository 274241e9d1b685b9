"""ESA-AI in the Judge workspace: an ESA queue started from xCOMET's error spans (the small
fixture checkpoint, registered in a registry of the test's own) on a Chinese-English project;
the pre-marked spans kept, changed and deleted by keys and by mouse, one by one and all at
once, each edit undoable; the judgment records what became of each."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt

from mtworkbench.core.judging import QueueConfig
from mtworkbench.core.span_draft import pre_marked
from mtworkbench.gui.judge.queue_dialog import QueueSetupDialog
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from tests.gui.test_judge_rating import add_judge, keys, open_judge_window, start_queue
from tests.scoring.esa_ai_fixtures import MODEL, register_xcomet, zh_en_project

SHOTS = os.environ.get("MTWB_SHOTS", "/tmp")
K = Qt.Key


@pytest.fixture
def ai_window(qtbot, tmp_path, monkeypatch):
    spec = register_xcomet(tmp_path, monkeypatch)
    bundle = tmp_path / "zh-en.mtwb"
    save_bundle(zh_en_project(), bundle)
    return open_judge_window(qtbot, bundle), spec, bundle


def undo(qtbot, window):
    window.activateWindow()
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)


def test_queue_dialog_offers_the_registered_xcomet_for_esa_and_mqm(qtbot, ai_window):
    window, spec, _ = ai_window
    dialog = QueueSetupDialog(window.session.project, "li")
    qtbot.addWidget(dialog)
    box = dialog.suggest_spans
    assert f"comet:model={MODEL}" in [box.itemText(i) for i in range(box.count())]
    assert not box.isEnabled()  # LDC first
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("esa"))
    assert box.isEnabled()
    box.setCurrentIndex(box.findText(f"comet:model={MODEL}"))
    assert dialog.config().suggest_spans == f"comet:model={MODEL}"
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("da"))
    assert dialog.config().suggest_spans == ""


def test_esa_ai_keys_mouse_undo_and_the_recorded_outcomes(qtbot, ai_window, monkeypatch):
    window, spec, bundle = ai_window
    workspace = window.workspaces["Judge"]
    project = window.session.project
    add_judge(qtbot, workspace, monkeypatch, "li")
    start_queue(qtbot, workspace, monkeypatch,
                QueueConfig(seed=7, repeat_share=0.0, protocol="esa", show_source=True, suggest_spans=spec))
    qtbot.waitUntil(lambda: "li" in project.judge_queues, timeout=120_000)
    view = workspace.rating
    panel = view.protocol_panel
    assert "pre-marked as suggestions" in view.status.text()
    while len(view.current_item().suggested) < 4:  # an item with four or more model spans
        qtbot.mouseClick(view.skip_button, Qt.MouseButton.LeftButton)
    item = view.current_item()
    n = len(item.suggested)
    assert [(s.start, s.end) for s in panel.spans] == [(s.start, s.end) for s in item.suggested]
    assert panel.draft.pending_indices() == list(range(n))
    assert len(panel.translation.extraSelections()) == n
    assert panel.suggestion_bar.isVisible() and MODEL in panel.suggestion_bar.status.text()
    assert "◇" in panel.spans_label.text() and "(model)" in panel.spans_label.text()
    assert "的" in view.source.text.text() or any("\u4e00" <= c <= "\u9fff" for c in item.source)
    window.grab().save(f"{SHOTS}/judge-esa-ai-suggested.png")

    keys(qtbot, view, K.Key_A)  # keep the first; the next one becomes current
    assert not panel.draft.pending(0) and panel.draft.pending(1)
    keys(qtbot, view, K.Key_R)  # delete the second
    assert len(panel.spans) == n - 1 and panel.draft.origins[1] == 2
    third = panel.spans[1]
    keys(qtbot, view, K.Key_Home)
    for _ in range(third.start + 1):
        keys(qtbot, view, K.Key_Right)
    other = "major" if third.severity == "minor" else "minor"
    keys(qtbot, view, K.Key_2 if other == "major" else K.Key_1)  # cursor in it: another severity
    assert panel.spans[1].severity == other and not panel.draft.pending(1)
    undo(qtbot, window)  # the severity change is taken back
    assert panel.spans[1].severity == third.severity and panel.draft.pending(1)
    keys(qtbot, view, K.Key_2 if other == "major" else K.Key_1)
    qtbot.keyClick(view, K.Key_R, Qt.KeyboardModifier.ShiftModifier)  # delete all still pre-marked
    assert panel.draft.pending_indices() == [] and len(panel.spans) == 2
    undo(qtbot, window)
    assert len(panel.draft.pending_indices()) == n - 3
    qtbot.mouseClick(panel.suggestion_bar.keep_all, Qt.MouseButton.LeftButton)  # by mouse
    assert panel.draft.pending_indices() == []
    window.grab().save(f"{SHOTS}/judge-esa-ai-decided.png")
    keys(qtbot, view, K.Key_5, K.Key_5, K.Key_Return)
    j = next(j for j in project.judgments if j.judge == "li")
    assert [o.decision for o in j.suggestions] == ["kept", "deleted", "changed"] + ["kept"] * (n - 3)
    # the model's own severity is recorded (xCOMET's critical is pre-marked as ESA's major)
    assert pre_marked(j.suggestions[2].suggestion, "esa").severity == third.severity
    assert j.errors[j.suggestions[2].error].severity == other
    assert all(o.suggestion.model == MODEL and o.suggestion.fingerprint for o in j.suggestions)
    while not view.current_item().suggested:  # the next item with suggestions shows the accept rate
        qtbot.mouseClick(view.skip_button, Qt.MouseButton.LeftButton)
    rates = panel.suggestion_bar.rates.text()
    assert "Kept as suggested so far" in rates and f"all {(n - 2) / n:.0%} ({n - 2}/{n})" in rates
    window.grab().save(f"{SHOTS}/judge-esa-ai-rates.png")
    view.queue.go_to(item.index)
    view.refresh()

    undo(qtbot, window)  # the submit, as one command
    assert project.judgments == [] and view.current_item().index == item.index
    assert len(panel.spans) == n - 1 and panel.draft.pending_indices() == []
    undo(qtbot, window)  # then the keep-all
    assert len(panel.draft.pending_indices()) == n - 3
    qtbot.mouseClick(panel.suggestion_bar.keep_all, Qt.MouseButton.LeftButton)
    keys(qtbot, view, K.Key_5, K.Key_5, K.Key_Return)
    qtbot.keyClick(window, K.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(load_bundle(bundle).judgments), timeout=20_000)
    stored = load_bundle(bundle)
    assert [o.decision for o in stored.judgments[0].suggestions] == ["kept", "deleted", "changed"] + ["kept"] * (n - 3)


def test_mqm_with_model_spans_category_by_keys_and_outcomes(qtbot, ai_window, monkeypatch):
    window, spec, _ = ai_window
    workspace = window.workspaces["Judge"]
    project = window.session.project
    add_judge(qtbot, workspace, monkeypatch, "ana")
    start_queue(qtbot, workspace, monkeypatch,
                QueueConfig(seed=3, repeat_share=0.0, protocol="mqm", max_errors=10, suggest_spans=spec))
    qtbot.waitUntil(lambda: "ana" in project.judge_queues, timeout=120_000)
    view = workspace.rating
    panel = view.protocol_panel
    while len(view.current_item().suggested) < 2:
        qtbot.mouseClick(view.skip_button, Qt.MouseButton.LeftButton)
    n = len(view.current_item().suggested)
    assert all(s.severity in ("Minor", "Major") for s in panel.spans)  # MQM's spelling; critical as Major
    picked = iter(["Fluency/Grammar", "Accuracy/Mistranslation"])
    panel.ask_category = lambda parent: next(picked)
    first = panel.spans[0]
    keys(qtbot, view, K.Key_Home)
    for _ in range(first.start + 1):
        keys(qtbot, view, K.Key_Right)
    keys(qtbot, view, K.Key_C)  # another category for the first: Fluency/Grammar
    assert panel.spans[0].category == "Fluency/Grammar" and not panel.draft.pending(0)
    other = "Major" if first.severity == "Minor" else "Minor"
    keys(qtbot, view, K.Key_2 if other == "Major" else K.Key_1)  # its category stays, no question asked
    assert (panel.spans[0].severity, panel.spans[0].category) == (other, "Fluency/Grammar")
    undo(qtbot, window)
    undo(qtbot, window)
    assert panel.spans[0] == first and panel.draft.pending(0)
    keys(qtbot, view, K.Key_C)
    qtbot.keyClick(view, K.Key_A, Qt.KeyboardModifier.ShiftModifier)  # the rest kept as they are
    keys(qtbot, view, K.Key_Return)
    j = next(j for j in project.judgments if j.judge == "ana")
    assert (j.protocol, j.score) == ("mqm", None)
    assert [o.decision for o in j.suggestions] == ["changed"] + ["kept"] * (n - 1)
    assert j.errors[j.suggestions[0].error].category == "Accuracy/Mistranslation"
