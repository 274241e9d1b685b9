"""The shipped demo is exactly what tools/build_demo.py makes from ../shared."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.resources import demo_project_path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "build_demo.py"


def test_build_demo_reproduces_the_shipped_demo(shared_dir, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TOOL.parent))
    spec = importlib.util.spec_from_file_location("build_demo", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules.pop("build_demo", None)
    spec.loader.exec_module(module)
    out = tmp_path / "demo.mtwb.json"
    save_bundle(module.build(shared_dir, demo_project_path().with_name("da-z.scores")), out)
    assert out.read_text(encoding="utf-8") == demo_project_path().read_text(encoding="utf-8")
