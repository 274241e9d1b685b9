"""`mtworkbench gui --demo` starts a real app process, shows the demo and exits cleanly."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtGui import QImage


def test_gui_command_opens_the_demo(tmp_path):
    shot = tmp_path / "app.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MTWB_SETTINGS_DIR=str(tmp_path / "settings"))
    result = subprocess.run(
        [sys.executable, "-m", "mtworkbench", "gui", "--demo", "--quit-after", "3", "--screenshot", str(shot)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    image = QImage(str(shot))
    assert not image.isNull()
    assert image.width() >= 900 and image.height() >= 600
