"""Atomic file writes for ``io``: the one writer lives in ``mtworkbench.core.atomic``."""

from mtworkbench.core.atomic import (  # noqa: F401  (re-exported for io modules)
    atomic_write_bytes,
    atomic_write_stream,
    atomic_write_text,
    backup_path,
    remove_stale_temp_files,
)
