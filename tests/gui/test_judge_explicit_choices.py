"""Rating keys never record what the rater did not choose: MQM's "no errors" is an
explicit choice (0 or its button) and a running score is shown; DA's unset slider
shows no handle, and the first arrow or page key starts it at the middle."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from mtworkbench.core.judging import QueueConfig
from mtworkbench.gui.judge.score_slider import UNSET_STYLE
from tests.gui.test_judge_protocols import rate, shift  # noqa: F401
from tests.gui.test_judge_rating import K, add_judge, fake_time, keys, start_queue, window, workspace  # noqa: F401


def judgments(win):
    return [j for j in win.session.project.judgments if j.judge == "ann"]


def test_mqm_enter_without_a_choice_records_nothing(qtbot, window, rate, screenshot_dir):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="mqm", max_errors=5))
    panel = view.protocol_panel
    first = view.current_item()
    assert panel.no_errors_button.isVisible() and not panel.no_errors_button.isChecked()
    keys(qtbot, view, K.Key_Return, K.Key_Return)  # a double Enter on a fresh item
    assert judgments(window) == [] and view.current_item() == first
    assert "press 0" in view.status.text()
    keys(qtbot, view, K.Key_0)  # no errors, chosen
    assert panel.no_errors_button.isChecked() and panel.spans_label.text().startswith("No errors")
    window.grab().save(str(screenshot_dir / "judge-mqm-no-errors.png"))
    keys(qtbot, view, K.Key_Return, K.Key_Return)  # the second Enter lands on the next item
    stored = judgments(window)
    assert [(j.segment, j.errors) for j in stored] == [(first.segment, ())]
    second = view.current_item()
    assert second != first and not panel.no_errors_button.isChecked()
    # The button does the same as 0 (a click), and spans marked later undo the choice.
    qtbot.mouseClick(panel.no_errors_button, Qt.MouseButton.LeftButton)
    assert panel.no_errors
    picked = iter(["Accuracy/Mistranslation", "Fluency/Punctuation"])
    panel.ask_category = lambda parent: next(picked)
    keys(qtbot, view, K.Key_Home)
    shift(qtbot, view, K.Key_Right, 2)
    keys(qtbot, view, K.Key_2)  # Major: -5
    assert not panel.no_errors and not panel.no_errors_button.isChecked()
    assert "MQM score -5" in panel.spans_label.text()
    keys(qtbot, view, K.Key_Right)
    shift(qtbot, view, K.Key_Right, 1)
    keys(qtbot, view, K.Key_1)  # Minor punctuation: -0.1
    assert "MQM score -5.1" in panel.spans_label.text()
    window.grab().save(str(screenshot_dir / "judge-mqm-running-score.png"))
    keys(qtbot, view, K.Key_0)  # refused while errors are marked
    assert not panel.no_errors and "delete them first" in panel.spans_label.text()
    keys(qtbot, view, K.Key_Return)
    assert len(judgments(window)) == 2 and len(judgments(window)[1].errors) == 2


def test_mqm_item_rated_no_errors_shows_the_choice_again(qtbot, window, rate):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="mqm"))
    keys(qtbot, view, K.Key_0, K.Key_Return, K.Key_Backspace)
    assert view.protocol_panel.no_errors_button.isChecked()
    keys(qtbot, view, K.Key_Return)  # kept as it was
    assert len(judgments(window)) == 1


@pytest.mark.parametrize("key, expected", [(K.Key_PageUp, [50, 60]), (K.Key_PageDown, [50, 40]),
                                           (K.Key_Right, [50, 51]), (K.Key_Down, [50, 49])])
def test_da_unset_slider_has_no_handle_and_starts_at_the_middle(qtbot, window, rate, key, expected, screenshot_dir):  # noqa: F811
    view = rate(QueueConfig(seed=7, repeat_share=0.0, protocol="da"))
    score = view.protocol_panel.score
    assert score.value is None and score.slider.styleSheet() == UNSET_STYLE
    unset = score.slider.grab().toImage()
    if key == K.Key_PageUp:
        window.grab().save(str(screenshot_dir / "judge-da-unset.png"))
    seen = []
    for _ in expected:
        keys(qtbot, view, key)
        seen.append(score.value)
    assert seen == expected
    assert score.slider.styleSheet() == "" and "/ 100" in score.label.text()
    score.reset(None)
    assert score.slider.grab().toImage() == unset
    score.reset(50)
    assert score.slider.grab().toImage() != unset  # a set 50 looks different from "not set"
    if key == K.Key_PageUp:
        window.grab().save(str(screenshot_dir / "judge-da-set.png"))
