"""A long page of the Annotate text is laid out a slice per event-loop turn: the segments
around the current one first, then the rest at both ends, the caret and the text in sight
staying put; a segment not laid out yet is laid out at once when asked for."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment
from mtworkbench.gui.annotate.growing_page import FIRST_SEGMENTS, GROW_SEGMENTS, GrowingPage
from mtworkbench.gui.annotate.offsets import display_text
from mtworkbench.gui.annotate.text_view import EntityTextView
from mtworkbench.gui.annotate.workspace import AnnotateWorkspace
from mtworkbench.gui.session import ProjectSession
from tests.gui.annotate_helpers import select_with_keys, type_key

N = 1000
PER_PARAGRAPH = 7
SAMPLES = ("Angela Merkel besuchte Paris", "北京是中国的首都", "東京タワーに行きました",
           "Москва — столица России", "القاهرة عاصمة مصر", "Alice Smith of Acme Corp")


def text(n: int) -> str:
    return f"{SAMPLES[n % len(SAMPLES)]} {n}."


def members() -> list[tuple[str, bool]]:
    return [(f"s{n}", n % PER_PARAGRAPH == 0) for n in range(N)]


def long_project() -> Project:
    paragraphs = [Paragraph(f"p{p}", [Segment(f"s{n}", f"source {n}")
                                      for n in range(p * PER_PARAGRAPH, min(N, (p + 1) * PER_PARAGRAPH))])
                  for p in range((N + PER_PARAGRAPH - 1) // PER_PARAGRAPH)]
    return Project([Document("long", paragraphs)], [Reference("ref", "t", {f"s{n}": text(n) for n in range(N)})],
                   target_language="de")


def laid_out(view: EntityTextView) -> list[tuple[str, bool]]:
    """(text, has the paragraph gap) of every block, as the view lays it out."""
    doc = view.document()
    return [(doc.findBlockByNumber(i).text(), doc.findBlockByNumber(i).blockFormat().topMargin() > 0)
            for i in range(doc.blockCount())]


def test_the_page_grows_from_the_current_segment_in_slices_keeping_caret_and_sight(qtbot, monkeypatch):
    view = EntityTextView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    qtbot.waitExposed(view)
    page = GrowingPage(view, lambda ids: {sid: text(int(sid[1:])) for sid in ids})
    slices = []
    original = view.add_segments
    monkeypatch.setattr(view, "add_segments", lambda b, a: slices.append(len(b) + len(a)) or original(b, a))

    page.show(members(), "s600")
    first = view.shown_segments()
    assert len(first) == FIRST_SEGMENTS and "s600" in first and first[0] == f"s{600 - FIRST_SEGMENTS // 2}"
    assert page.growing
    view.place_caret("s600", 3)
    view.scroll_to_segment("s600")
    QApplication.processEvents()
    caret_y = view.cursorRect().top()

    qtbot.waitUntil(lambda: not page.growing)
    assert view.shown_segments() == [sid for sid, _first in members()]
    assert len(slices) >= 2 and max(slices) <= GROW_SEGMENTS  # more than one turn, each bounded
    assert view.caret() == ("s600", 3)
    assert abs(view.cursorRect().top() - caret_y) <= 2  # what was in sight stays in sight
    # The text and the paragraph gaps are as one layout of the whole page gives them.
    assert laid_out(view) == [(display_text(text(n)), n % PER_PARAGRAPH == 0 and n > 0) for n in range(N)]


def test_annotate_shows_a_small_first_window_that_grows_and_is_usable_at_once(qtbot):
    session = ProjectSession()
    ws = AnnotateWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1280, 800)
    ws.show()
    qtbot.waitExposed(ws)
    ws.annotator_box.setEditText("growing")
    session.replace_project(long_project(), None)
    assert ws.view.shown_segments() == [f"s{n}" for n in range(FIRST_SEGMENTS)]  # before any further turn
    assert ws.page.growing
    # The first window takes keys: tag a name in segment 6 while the rest is still to come.
    select_with_keys(qtbot, ws.view, "s6", 0, len("Angela"))
    type_key(qtbot, ws.view, "P")
    spans = [s for s in session.project.spans if s.segment == "s6"]
    assert [(s.start, s.end, s.type) for s in spans] == [(0, len("Angela"), "PERSON")]
    qtbot.waitUntil(lambda: not ws.page.growing)
    assert ws.view.shown_segments() == [f"s{n}" for n in range(N)]


def test_a_segment_not_laid_out_yet_is_laid_out_when_asked_for(qtbot):
    session = ProjectSession()
    ws = AnnotateWorkspace(session)
    qtbot.addWidget(ws)
    ws.resize(1280, 800)
    ws.show()
    qtbot.waitExposed(ws)
    session.replace_project(long_project(), None)
    assert not ws.view.shows("s999")
    session.set_current_segment("s999")  # the navigator's click, before the page has grown to it
    assert ws.view.shows("s999") and not ws.page.growing
    assert ws.view.caret() == ("s999", 0)


def test_every_line_break_is_shown_as_a_space_and_other_texts_are_kept_as_they_are():
    for text in ["Straße\nzwei", "日本語\r\n次", "русский\u2028текст", "عربي\u2029نص", "中文\x0b文本\x0c"]:
        shown = display_text(text)
        assert len(shown) == len(text) and "\n" not in shown and "\r" not in shown
        assert shown == "".join(" " if ch in "\n\r\u2028\u2029\x0b\x0c" else ch for ch in text)
    plain = "Überprüfung des Textes: 検査 проверка"
    assert display_text(plain) is plain  # nothing to replace: the text itself, not a copy
