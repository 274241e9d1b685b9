"""Guards against a Qt binding that corrupts the interpreter.

PySide6-Essentials 6.12.0 dropped a reference to None on every call returning
nothing, under Python 3.11; long sessions then aborted with "deallocating None".
pyproject.toml pins below it; this test fails if a bad build comes back.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel


def test_void_qt_calls_keep_none_alive(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(500):
        label.setText("x")
    assert sys.getrefcount(None) - before > -50
