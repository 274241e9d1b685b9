"""The core never imports Qt: checked in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys


def test_core_metrics_io_import_no_qt():
    code = (
        "import sys, json, importlib, pkgutil\n"
        "import mtworkbench.core, mtworkbench.metrics, mtworkbench.io, mtworkbench.analysis, mtworkbench.scoring, mtworkbench.cli\n"
        "for pkg in (mtworkbench.core, mtworkbench.metrics, mtworkbench.io, mtworkbench.analysis, mtworkbench.scoring):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        try:\n"
        "            importlib.import_module(m.name)\n"
        "        except ImportError as exc:\n"
        "            if 'PySide6' in str(exc) or 'pyqtgraph' in str(exc): raise\n"
        "import mtworkbench.cli; mtworkbench.cli.build_parser()\n"
        "print(json.dumps(sorted(n for n in sys.modules if n.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
