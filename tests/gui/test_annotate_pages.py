"""A very long document is laid out in Annotate as a window of segments around the current
one, which moves with it: every segment is reachable, and moving a step never re-lays it out
unless the current segment nears an edge of the window."""

from __future__ import annotations

from mtworkbench.core.model import Paragraph, Segment
from mtworkbench.gui.annotate import moving
from mtworkbench.gui.annotate.moving import page_of
from mtworkbench.gui.main_window import MainWindow


def test_page_of_keeps_short_documents_whole_and_follows_the_segment_in_long_ones(monkeypatch):
    members = [(f"s{i}", i == 0) for i in range(30)]
    assert page_of("doc", members[:3], "s1") == ("doc", members[:3])
    monkeypatch.setattr(moving, "PAGE_SEGMENTS", 10)
    monkeypatch.setattr(moving, "EDGE_SEGMENTS", 2)
    assert page_of("doc", members, "s1") == ("doc@0", members[0:10])  # clamped to the start
    assert page_of("doc", members, "s15") == ("doc@10", members[10:20])  # centred
    assert page_of("doc", members, "s29") == ("doc@20", members[20:30])  # clamped to the end
    # The window shown stays while the segment is well inside it...
    assert page_of("doc", members, "s17", shown_start=10) == ("doc@10", members[10:20])
    assert page_of("doc", members, "s12", shown_start=10) == ("doc@10", members[10:20])
    # ...and moves once it comes near an end that is not the document's own.
    assert page_of("doc", members, "s18", shown_start=10) == ("doc@13", members[13:23])
    assert page_of("doc", members, "s11", shown_start=10) == ("doc@6", members[6:16])
    # At the document's own ends there is nothing further to show: no move.
    assert page_of("doc", members, "s0", shown_start=0) == ("doc@0", members[0:10])
    assert page_of("doc", members, "s29", shown_start=20) == ("doc@20", members[20:30])


def test_annotate_window_follows_the_current_segment_to_the_end(qtbot, demo_copy, monkeypatch):
    monkeypatch.setattr(moving, "PAGE_SEGMENTS", 3)
    monkeypatch.setattr(moving, "EDGE_SEGMENTS", 0)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    window.open_path(demo_copy)
    annotate = window.workspaces["Annotate"]
    project = window.session.project
    document = project.documents[0]
    ids = [s.id for p in document.paragraphs for s in p.segments]
    assert len(ids) > 4
    qtbot.waitUntil(lambda: annotate.view.shown_segments() == ids[:3])
    window.session.set_current_segment(ids[1])
    assert annotate.view.shown_segments() == ids[:3]  # inside the window: not laid out again
    for sid in ids:  # step by step to the last segment: each one is shown
        window.session.set_current_segment(sid)
        assert annotate.view.shows(sid), sid
        shown = annotate.view.shown_segments()
        assert len(shown) == 3 and shown == ids[ids.index(shown[0]):ids.index(shown[0]) + 3]
    assert annotate.view.shown_segments() == ids[-3:]
    assert not annotate.view.shows(ids[0])


def test_members_are_listed_only_where_sliced_and_page_as_the_full_list(monkeypatch):
    monkeypatch.setattr(moving, "PAGE_SEGMENTS", 10)
    monkeypatch.setattr(moving, "EDGE_SEGMENTS", 2)
    sizes = [3, 0, 7, 1, 12, 4]  # an empty paragraph too
    paragraphs, n = [], 0
    for p, size in enumerate(sizes):
        paragraphs.append(Paragraph(f"p{p}", [Segment(f"段{n + k}", "") for k in range(size)]))
        n += size
    listed = [(s.id, i == 0) for p in paragraphs for i, s in enumerate(p.segments)]
    members = moving.Members(paragraphs)
    assert len(members) == len(listed) == n
    for start in range(n + 1):
        for stop in range(start, n + 2):
            assert members[start:stop] == listed[start:stop]
    assert members[4] == listed[4] and members[-1] == listed[-1]
    for i, (sid, _first) in enumerate(listed):  # the caller's known position gives the same page
        assert page_of("doc", members, sid, 10, position=i) == page_of("doc", listed, sid, 10)
