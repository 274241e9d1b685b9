"""The built desktop application (``dev.py build``) starts offscreen without the source
tree's Python, opens the demo, renders views and scores METEOR with its bundled WordNet.

Building takes minutes (about 1.5 min of PyInstaller and 1 min of tarball on a 2-core
machine), so the test checks an existing build and is skipped when there is none;
``python3.11 dev.py build --check`` runs the same check.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess

import pytest

from tests.conftest import PROJECT_ROOT

pytestmark = [pytest.mark.slow, pytest.mark.build]


def _build_app():
    spec = importlib.util.spec_from_file_location("build_app", PROJECT_ROOT / "packaging" / "build_app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def build_app():
    module = _build_app()
    if not module.executable().exists():
        pytest.skip(f"no built application at {module.executable()}: run 'python3.11 dev.py build' first")
    return module


def test_built_app_starts_offscreen_opens_the_demo_and_renders(build_app, capsys):
    assert build_app.check() == 0, capsys.readouterr().err


def test_built_app_opens_a_bundle_given_on_its_command_line(build_app, tmp_path):
    bundle = tmp_path / "given.mtwb.json"
    bundle.write_bytes((PROJECT_ROOT / "resources" / "demo" / "demo.mtwb.json").read_bytes())
    shot = tmp_path / "shot.png"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(QT_QPA_PLATFORM="offscreen", MTWB_SETTINGS_DIR=str(tmp_path / "settings"))
    # As a file manager starts it: the path first (the launcher adds 'gui').
    done = subprocess.run([str(build_app.executable()), str(bundle), "--screenshot", str(shot),
                           "--quit-after", "2"], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert shot.stat().st_size > 1000
    # The app opened it: it is now the first of the recent files in the settings folder.
    recent = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "settings").rglob("*.ini"))
    assert "given.mtwb.json" in recent


def test_linux_folder_has_desktop_entry_mime_type_and_icon(build_app):
    import sys

    if not sys.platform.startswith("linux"):
        pytest.skip("the .desktop entry and MIME type are built on Linux only")
    share = build_app.app_dir() / "share"
    desktop = (share / "mtworkbench.desktop").read_text(encoding="utf-8")
    assert "MimeType=application/x-mtworkbench-project;" in desktop and "Exec=mtworkbench gui %f" in desktop
    mime = (share / "mtworkbench-mime.xml").read_text(encoding="utf-8")
    assert 'type="application/x-mtworkbench-project"' in mime and 'pattern="*.mtwb.json"' in mime
    assert (share / "mtworkbench.png").stat().st_size > 0
    assert os.access(build_app.app_dir() / "install.sh", os.X_OK)
