"""The cyclic garbage collector held back while a big project's JSON document is built.

Building it makes a fresh dict per segment (250,000 for a big project): the collector's
passes over them - a full one took 130 ms on the loaded machine - run with the GIL held,
so they stalled the window's thread while a save or an autosave worked on another. The
document has no reference cycles; whatever it leaves is freed by reference counting.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Hold back the cyclic collector inside; it runs again after (if it ran before)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


__all__ = ["no_cyclic_gc"]
