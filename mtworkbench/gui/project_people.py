"""Who works on which project: the annotator name and the judge, remembered per project.

Kept in the user's settings (QSettings), keyed by the bundle's resolved path, not in the
bundle: it is this user's choice on this machine, not the project's data. An untitled
project has no key; the annotator then falls back to the last name used anywhere.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import QSettings


def _key(kind: str, path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        where = str(Path(path).resolve())
    except OSError:
        where = str(path)
    # A hash: a path's slashes and colons would be read as settings groups.
    return f"people/{kind}/{hashlib.sha1(where.encode('utf-8'), usedforsecurity=False).hexdigest()}"


def remembered(kind: str, path: Path | None) -> str:
    """The ``kind`` ("annotator", "judge") last chosen for the bundle at ``path`` ('' if none)."""
    key = _key(kind, path)
    return str(QSettings().value(key, "") or "") if key else ""


def remember(kind: str, path: Path | None, name: str) -> None:
    key = _key(kind, path)
    if key and name:
        QSettings().setValue(key, name)
