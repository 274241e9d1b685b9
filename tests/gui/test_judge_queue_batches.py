"""Starting a queue in batches of chosen documents, in the real dialog at 1280x800: the
summary says how many batches, and the judge's progress bar counts batch 1 of K."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from mtworkbench.gui.judge import queue_dialog
from tests.gui.test_judge_rating import K, add_judge, fake_time, keys, window, workspace  # noqa: F401


def test_batches_of_chosen_documents_from_the_dialog(qtbot, window, workspace, monkeypatch,  # noqa: F811
                                                     fake_time, screenshot_dir):  # noqa: F811
    project = window.session.project
    seen: dict[str, str] = {}

    def drive(parent, project_, judge, previous):
        dialog = queue_dialog.QueueSetupDialog(project_, judge, previous, parent)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        for box, text in ((dialog.repeats, "0"), (dialog.batch_size, "20")):
            box.setFocus()
            box.lineEdit().selectAll()
            qtbot.keyClicks(box.lineEdit(), text)
        # Leave out the second document: select it, Space unticks it.
        documents = dialog.documents
        second = documents.item(1)
        qtbot.mouseClick(documents.viewport(), Qt.MouseButton.LeftButton,
                         pos=documents.visualItemRect(second).center())
        qtbot.keyClick(documents, K.Key_Space)
        assert second.checkState() == Qt.CheckState.Unchecked
        seen["summary"] = dialog.summary.text()
        qtbot.wait(50)  # the dialog grows with its summary as it would between two key presses
        summary = dialog.summary
        assert summary.isVisible() and dialog.batch_unit.isVisible()
        # The two-line summary is shown whole, above the buttons, not cut at its second line.
        assert summary.height() >= summary.heightForWidth(summary.width())
        assert summary.geometry().bottom() < dialog.buttons.geometry().top()
        dialog.grab().save(str(screenshot_dir / "judge-queue-batches-dialog.png"))
        qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
        return dialog.config()

    add_judge(qtbot, workspace, monkeypatch, "ann")
    monkeypatch.setattr(queue_dialog, "ask_queue_config", drive)
    qtbot.waitUntil(workspace.start_button.isVisible)
    qtbot.mouseClick(workspace.start_button, Qt.MouseButton.LeftButton)

    first_document = project.documents[0]
    n = sum(len(p.segments) for p in first_document.paragraphs) * len(project.systems)
    assert seen["summary"].startswith(f"{n} items to rate, plus 0 repeated, in 2 batches of at most 20 items; the judge starts with batch 1")
    state = project.judge_queues["ann"]
    assert state.batches == [20, n - 20] and state.documents == [first_document.id]
    assert {project.document_of(e.segment) for e in state.items} == {first_document.id}

    view = workspace.rating
    assert view.progress.text() == "Batch 1 of 2: 0 of 20 judged"
    keys(qtbot, view, K.Key_4, K.Key_5, K.Key_Return)
    assert view.progress.text() == "Batch 1 of 2: 1 of 20 judged"
    qtbot.wait(100)  # the layout settles as it would between two key presses
    window.grab().save(str(screenshot_dir / "judge-queue-batches.png"))
    for _ in range(19):
        keys(qtbot, view, K.Key_4, K.Key_5, K.Key_Return)
    assert view.progress.text() == f"Batch 2 of 2: 0 of {n - 20} judged"


def test_every_system_of_wmt21_in_view_and_the_summary_names_what_a_batch_holds(qtbot, shared_dir, tmp_path,
                                                                                  screenshot_dir):
    from tests.gui.wmt21_project import SYSTEMS, wmt21_project

    project = wmt21_project(shared_dir, tmp_path / "texts", n=12, with_mqm=False)
    project.add_judge("ann")
    dialog = queue_dialog.QueueSetupDialog(project, "ann")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    systems = dialog.systems
    assert systems.count() == len(SYSTEMS) == 8
    last = systems.visualItemRect(systems.item(7))
    assert last.bottom() <= systems.viewport().height()  # the eighth system in view, no scrolling
    assert dialog.documents.height() < systems.height()  # one document takes one row's room
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("da"))
    for box, text in ((dialog.bad_rate, "12"), (dialog.batch_size, "50")):
        box.setFocus()
        box.lineEdit().selectAll()
        qtbot.keyClicks(box.lineEdit(), text)
    assert dialog.summary.text() == (
        "96 items to rate, plus 10 repeated and about 12 BAD (quality control), in 2 batches of at most 50 items "
        "to rate, each with its own repeats and BAD items; the judge starts with batch 1.")
    qtbot.wait(50)
    assert dialog.height() <= 760  # fits a 1280x800 screen
    dialog.grab().save(str(screenshot_dir / "judge-queue-batches-wmt21.png"))
