"""Entry point of the desktop build (PyInstaller freezes this file).

The same program as the ``mtworkbench`` command. A file manager, or a Windows/macOS
file association, starts it with just a bundle's path: that opens the bundle in the app.
"""

from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path


def _arguments(argv: list[str]) -> list[str]:
    if argv and argv[0].lower().endswith(".json") and Path(argv[0]).is_file():
        return ["gui", *argv]
    return argv


if __name__ == "__main__":
    multiprocessing.freeze_support()  # scikit-learn/joblib may start worker processes
    from mtworkbench.cli import main

    sys.exit(main(_arguments(sys.argv[1:])))
