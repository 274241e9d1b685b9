"""Compare annotators with three layers ticked: alpha and AC1 overall, per type and per document."""

from __future__ import annotations

from PySide6.QtCore import Qt

from mtworkbench.analysis.span_reliability import span_reliability
from tests.gui.test_annotate_compare import add, open_compare, window  # noqa: F401  (window: a fixture)


def table(view):
    t = view.layers_agreement.table
    return [[t.item(r, c).text() for c in range(t.columnCount())] for r in range(t.rowCount())]


def test_three_layers_by_keys(qtbot, window, screenshot_dir):  # noqa: F811
    p = window.session.project
    for who, needle, kind in (("ann", "Interpol", "ORGANIZATION"), ("ben", "Interpol", "LOCATION"),
                              ("cyd", "Interpol", "ORGANIZATION"), ("ann", "Irakli Okruashvili", "PERSON"),
                              ("ben", "Irakli Okruashvili", "PERSON"), ("cyd", "Irakli", "PERSON")):
        add(p, who, "4", needle, kind)
    for who in ("ann", "ben", "cyd"):
        add(p, who, "5", "Georg", "PERSON")
    ws, view = open_compare(qtbot, window)
    panel = view.layers_agreement
    qtbot.waitUntil(lambda: panel.result is not None, timeout=20000)
    assert set(panel.ticked()) == {"ann", "ben"} and panel.result.annotators == ("ann", "ben")
    # Tick cyd with the keyboard: focus the list, move to cyd, Space.
    panel.layers.setFocus()
    names = [panel.layers.item(k).text() for k in range(panel.layers.count())]
    panel.layers.setCurrentRow(0)
    for _ in range(names.index("cyd")):
        qtbot.keyClick(panel.layers, Qt.Key.Key_Down)
    qtbot.keyClick(panel.layers, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: panel.result is not None and len(panel.result.annotators) == 3, timeout=20000)
    expected = span_reliability(p, "ref-1", panel.ticked())
    rows = table(view)
    alpha, ac1 = expected.overall
    assert rows[0][:2] == ["Overall", f"{alpha.value:.3f}"] and rows[0][3] == f"{ac1.value:.3f}"
    assert rows[0][2] == f"[{alpha.low:.3f}, {alpha.high:.3f}]"
    scopes = [r[0] for r in rows]
    assert scopes[1:] == ["LOCATION", "ORGANIZATION", "PERSON"]  # one row per type, one against the rest
    person = expected.by_type["PERSON"][0]
    assert rows[3][1] == f"{person.value:.3f}"
    assert panel.summary.text().startswith("3 layers · ")
    window.grab().save(str(screenshot_dir / "compare_three_layers.png"))
    # Untick two: fewer than two layers, no figures.
    for name in ("ben", "cyd"):
        panel.layers.setCurrentRow(names.index(name))
        qtbot.keyClick(panel.layers, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 0)
    assert panel.summary.text() == "Tick two or more layers."
