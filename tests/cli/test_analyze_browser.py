"""The `analyze --html` report opens offline in a real headless Chromium."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from mtworkbench.cli import main
from tests.analysis.test_compare_systems import small_project

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install -y chromium)")
def test_html_report_renders_in_headless_chromium(tmp_path, capsys):
    bundle = tmp_path / "p.mtwb.json"
    small_project(bundle)
    html = tmp_path / "report.html"
    assert main(["analyze", str(bundle), "--system", "A", "--system", "B", "--metric", "chrf",
                 "--metric", "bleu", "--html", str(html)]) == 0
    shot = tmp_path / "shot.png"
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", html.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert dom.returncode == 0, dom.stderr[-2000:]
    # The browser parsed the page: its DOM holds the figures and the escaped output of B.
    assert dom.stdout.count("<svg") >= 3
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom.stdout
    run = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--no-first-run", f"--user-data-dir={tmp_path / 'profile2'}", "--hide-scrollbars",
         f"--screenshot={shot}", "--window-size=1200,1600", html.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    from PySide6.QtGui import QImage

    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1200, 1600)
    # Not a blank page: the bar colours of both systems are on it.
    colours = {image.pixelColor(x, y).name() for x in range(0, 1200, 3) for y in range(0, 1600, 3)}
    assert "#3b6fb6" in colours and "#e07b39" in colours
