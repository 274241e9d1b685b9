"""Start ``mtworkbench gui ARGS`` of whatever code is on the path, with the start probe of this
checkout installed from outside: for timing a revision that has no probe of its own (the
baseline) the same way as this one. The probe is attached to the first main window shown.

    MTWB_START_PROBE=SECONDS python benchmarks/app_start_launcher.py ARGS...
"""

from __future__ import annotations

import importlib.util
import runpy
import sys
from pathlib import Path

PROBE = Path(__file__).resolve().parents[1] / "mtworkbench" / "gui" / "start_probe.py"


def main() -> None:
    spec = importlib.util.spec_from_file_location("bench_start_probe", PROBE)
    assert spec is not None and spec.loader is not None
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)

    from PySide6.QtWidgets import QMainWindow

    show = QMainWindow.show
    probes: list[object] = []

    def show_probed(window: QMainWindow) -> None:
        if not probes:
            probes.append(probe.install(window))
        show(window)

    QMainWindow.show = show_probed  # type: ignore[method-assign]
    sys.argv = ["mtworkbench", "gui", *sys.argv[1:]]
    runpy.run_module("mtworkbench", run_name="__main__")


if __name__ == "__main__":
    main()
