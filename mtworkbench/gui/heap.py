"""A big project kept out of the cyclic garbage collector's full passes.

A project read from a large bundle is millions of objects that live as long as it is open and
hold no reference cycles worth looking for. Each full pass of the collector walked all of them
(0.13-0.16 s on a loaded machine for a quarter of a million segments, on whichever thread
happened to allocate, so the window stalled), and the first young pass after the reader let
the collector run again walked everything the read had made. The project is therefore frozen
(``gc.freeze``) as soon as it is read, before the collector runs again: later passes skip it,
and reference counting still frees whatever of it is dropped. When a project is replaced, the
frozen objects are thawed and collected once, so a cycle among the old project's objects is
freed too, and what is left (the program and the new project) is frozen again.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable

from mtworkbench.core.gc_pause import no_cyclic_gc
from mtworkbench.core.model import Project

# A bundle at least this large is frozen once read; a smaller project costs a full pass little.
FREEZE_BYTES = 8 * 2**20

_frozen: weakref.WeakSet[Project] = weakref.WeakSet()  # the projects frozen when read, while they live


def read_frozen(read: Callable[[], Project], size: int) -> Project:
    """``read()`` with the collector held back, and what it made frozen before it runs again
    when the bundle's ``size`` is at least ``FREEZE_BYTES``."""
    with no_cyclic_gc():
        project = read()
        if size >= FREEZE_BYTES:
            gc.freeze()
            _frozen.add(project)
    return project


def is_frozen(project: Project) -> bool:
    """Whether ``project`` was frozen when read (replacing it calls for ``release``)."""
    return project in _frozen


def release(current: Project) -> None:
    """Once a frozen project has been replaced by ``current``: free what is frozen and no longer
    used, the old project's cycles included (one full pass over the program and the new
    project), and freeze what is left again, ``current`` with it."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _frozen.add(current)


def thaw() -> None:
    """Nothing frozen any more (tests: one test's objects are not kept from the next)."""
    gc.unfreeze()
    _frozen.clear()
