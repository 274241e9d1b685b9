"""A very long document is laid out a page of segments at a time in Annotate: the page that
holds the current segment."""

from __future__ import annotations

from mtworkbench.gui.annotate import moving
from mtworkbench.gui.annotate.moving import page_of
from mtworkbench.gui.main_window import MainWindow


def test_page_of_keeps_short_documents_whole_and_pages_long_ones(monkeypatch):
    members = [(f"s{i}", i == 0) for i in range(12)]
    assert page_of("doc", members[:3], "s1") == ("doc", members[:3])
    monkeypatch.setattr(moving, "PAGE_SEGMENTS", 5)
    assert page_of("doc", members, "s1") == ("doc@0", members[0:5])
    assert page_of("doc", members, "s7") == ("doc@5", members[5:10])
    assert page_of("doc", members, "s11") == ("doc@10", members[10:12])


def test_annotate_shows_the_page_of_the_current_segment(qtbot, demo_copy, monkeypatch):
    monkeypatch.setattr(moving, "PAGE_SEGMENTS", 3)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.open_path(demo_copy)
    annotate = window.workspaces["Annotate"]
    project = window.session.project
    document = project.documents[0]
    ids = [s.id for p in document.paragraphs for s in p.segments]
    assert len(ids) > 3
    qtbot.waitUntil(lambda: annotate.view.shown_segments() == ids[:3])
    window.session.set_current_segment(ids[3])
    assert annotate.view.shown_segments() == ids[3:6]
    assert annotate.view.shows(ids[3]) and not annotate.view.shows(ids[0])
