"""The Metrics settings dialog offers a dask scheduler; a bad address is refused in the
dialog, a good one is remembered (QSettings) and used by the next scoring request."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QLineEdit

from mtworkbench.gui.metrics.settings_dialog import MetricSettingsDialog, scoring_scheduler
from tests.gui.conftest import SCREENSHOTS


def _ok(qtbot, dialog) -> None:
    button = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_the_scheduler_field_refuses_a_bad_address_and_remembers_a_good_one(qtbot):
    assert scoring_scheduler() is None  # by default: this computer
    dialog = MetricSettingsDialog(["bleu", "chrf"], 1000, "paired-bs")
    qtbot.addWidget(dialog)
    dialog.resize(700, 620)
    dialog.show()
    field = dialog.findChild(QLineEdit, "scoring-scheduler")
    assert field is not None and field.isVisible() and field.text() == ""
    qtbot.keyClicks(field, "ftp://cluster:8786")
    _ok(qtbot, dialog)
    message = dialog.findChild(QLabel, "settings-message")
    assert dialog.isVisible() and "expected tcp://HOST:PORT or local:N" in message.text()
    field.clear()
    qtbot.keyClicks(field, "tcp://127.0.0.1:8786")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(SCREENSHOTS / "metrics-scheduler-setting.png"))
    _ok(qtbot, dialog)
    assert not dialog.isVisible()
    assert scoring_scheduler() == "tcp://127.0.0.1:8786"
    again = MetricSettingsDialog(["bleu"], 1000, "paired-bs")
    qtbot.addWidget(again)
    assert again.findChild(QLineEdit, "scoring-scheduler").text() == "tcp://127.0.0.1:8786"
