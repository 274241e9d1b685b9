"""A large project is kept out of the cyclic collector's full passes from the moment it is read
(frozen), and what was frozen with it is freed, cycles included, once another project replaces it."""

from __future__ import annotations

import gc
import shutil
import weakref

import pytest

from mtworkbench.gui import disk_watch, heap, open_in_background
from mtworkbench.gui.main_window import MainWindow


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def large(monkeypatch):
    """Every bundle counts as large; nothing stays frozen after the test."""
    monkeypatch.setattr(heap, "FREEZE_BYTES", 0)
    yield
    heap.thaw()


def walked(obj) -> bool:
    """Whether the collector's passes visit ``obj`` (frozen objects are in no generation)."""
    return any(o is obj for o in gc.get_objects())


def with_cycle(monkeypatch) -> list[weakref.ref]:
    """The read project holds a cycle made while it is read (so frozen with it)."""
    refs = []
    real = disk_watch.loads_bytes

    def reading(data, file=None):
        project = real(data, file=file)
        node = Node()
        project.held_cycle = node  # type: ignore[attr-defined]
        refs.append(weakref.ref(node))
        return project

    monkeypatch.setattr(disk_watch, "loads_bytes", reading)
    return refs


def test_a_large_project_is_frozen_when_read_and_freed_when_replaced(qtbot, demo_copy, tmp_path, large, monkeypatch):
    refs = with_cycle(monkeypatch)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    assert window.open_path(demo_copy)
    first = window.session.project
    assert heap.is_frozen(first)
    assert gc.is_tracked(first.documents) and not walked(first.documents)
    assert not walked(first.held_cycle)
    assert window.windowTitle().startswith(demo_copy.name)
    gc.collect()
    assert refs[0]() is not None  # in use: never freed
    del first
    other = tmp_path / "другой-プロジェクト.mtwb.json"
    shutil.copy(demo_copy, other)
    assert window.open_path(other)
    assert refs[0]() is None  # the old project's cycle, frozen with it, was freed
    second = window.session.project
    assert heap.is_frozen(second) and not walked(second.documents)
    assert refs[1]() is not None
    assert window.windowTitle().startswith(other.name)
    del second
    assert window.open_path(demo_copy)  # and back: the second one's cycle goes too
    assert refs[1]() is None and refs[2]() is not None


def test_the_first_large_project_swaps_in_without_a_full_pass(qtbot, demo_copy, large, monkeypatch):
    monkeypatch.setattr(open_in_background, "BACKGROUND_BYTES", 0)
    released = []
    monkeypatch.setattr(heap, "release", lambda current: released.append(current))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    open_in_background.open_later(window, demo_copy)
    qtbot.waitUntil(lambda: window.session.path == demo_copy, timeout=60_000)
    project = window.session.project
    assert heap.is_frozen(project) and not walked(project.documents)
    assert released == []  # only an empty project was replaced: nothing to free
    assert window.navigator_model.rowCount() > 0


def test_a_small_project_is_not_frozen(qtbot, demo_copy):
    assert demo_copy.stat().st_size < heap.FREEZE_BYTES
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.open_path(demo_copy)
    assert not heap.is_frozen(window.session.project)
    assert walked(window.session.project.documents)
