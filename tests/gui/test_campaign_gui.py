"""File > Split into packages…, Merge packages…, Campaign progress, and the Judge agreement
tab on a merged campaign, driven through the menus with real clicks and keys."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from mtworkbench.core.model import Judgment
from mtworkbench.gui.main_window import MainWindow
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle


def menu_action(window: MainWindow, menu_title: str, text: str):
    for menu_action_ in window.menuBar().actions():
        if menu_action_.text().replace("&", "") == menu_title:
            for action in menu_action_.menu().actions():
                if action.text().replace("&", "") == text:
                    return action
    raise AssertionError(f"no {menu_title} > {text}")


def open_window(qtbot, path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.open_path(path)
    return window


def test_split_merge_progress_and_agreement_through_the_menus(qtbot, demo_copy, tmp_path, monkeypatch,
                                                              screenshot_dir):
    window = open_window(qtbot, demo_copy)
    judged_before = window.session.project.judgment_count  # the demo ships DA scores and LDC ratings
    menu_action(window, "File", "Split into packages…").trigger()
    dialog = window.split_dialog
    qtbot.waitExposed(dialog)
    dialog.by.setCurrentIndex(dialog.by.findData("judge"))
    qtbot.keyClicks(dialog.people, "alice, bob, carol")
    dialog.overlap.setValue(40)
    dialog.folder.setText(str(tmp_path / "packages"))
    qtbot.mouseClick(dialog.split_button, Qt.MouseButton.LeftButton)
    report = dialog.report.toPlainText()
    assert "Campaign c-" in report and "alice:" in report and "carol:" in report, report
    dialog.grab().save(str(screenshot_dir / "campaign-split.png"))
    packages = [tmp_path / "packages" / f"{p}.mtwb.json" for p in ("alice", "bob", "carol")]
    assert all(p.is_file() for p in packages)

    # Each person rates their items (the same ratings by everyone, so the shared items agree).
    for path in packages:
        package = load_bundle(path)
        person = package.campaign.package
        for item in package.campaign.items_of(person):
            rating = 1 + sum(map(ord, item.segment)) % 5
            package.add_judgment(Judgment(package.new_id("j"), person, item.system, item.segment, item.reference,
                                          adequacy=rating, fluency=rating, timestamp="2026-11-24T05:00:00Z"))
        save_bundle(package, path)

    menu_action(window, "File", "Merge packages…").trigger()
    merge = window.merge_dialog
    qtbot.waitExposed(merge)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(p) for p in packages], ""))
    add = next(b for b in merge.findChildren(type(merge.merge_button)) if b.text() == "Add packages…")
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)
    assert merge.files.count() == 3
    qtbot.mouseClick(merge.merge_button, Qt.MouseButton.LeftButton)
    text = merge.report.toPlainText()
    assert "alice.mtwb.json (alice): spans +0 ~0 -0, judgments +" in text and "0 conflicts" in text, text
    merge.grab().save(str(screenshot_dir / "campaign-merge.png"))
    project = window.session.project
    campaign = project.campaign
    assert project.judgment_count == judged_before + sum(len(it.people) for it in campaign.items)
    assert window.is_modified()

    menu_action(window, "File", "Campaign progress…").trigger()
    progress = window.progress_dialog
    qtbot.waitExposed(progress)
    table = progress.table
    rows = {table.item(r, 0).text(): (table.item(r, 2).text(), table.item(r, 3).text()) for r in range(table.rowCount())}
    for person in ("alice", "bob", "carol"):
        n = str(len(campaign.items_of(person)))
        assert rows[person] == (n, n)
    assert "3 packages merged" in progress.summary.text()
    progress.grab().save(str(screenshot_dir / "campaign-progress.png"))

    # The Judge workspace's agreement tab pairs judges on the shared (overlap) items.
    judge = window.workspaces["Judge"]
    window.tabs.setCurrentWidget(judge)
    judge.tabs.setCurrentWidget(judge.agreement)
    judge.agreement.refresh()
    pairs = {tuple(p.judges): p for p in judge.agreement.report.pairs}
    shared_ab = sum({"alice", "bob"} <= set(it.people) for it in campaign.items)
    assert shared_ab > 0 and pairs[("alice", "bob")].n == shared_ab
    assert pairs[("alice", "bob")].adequacy.kappa_quadratic == 1.0  # they rated alike
    window.grab().save(str(screenshot_dir / "campaign-agreement.png"))

    # Merging the same packages again changes nothing.
    before = project.judgment_count
    qtbot.mouseClick(merge.merge_button, Qt.MouseButton.LeftButton)
    assert "already merged" in merge.report.toPlainText()
    assert window.session.project.judgment_count == before


def test_merge_refuses_a_foreign_package_and_keeps_the_project(qtbot, demo_copy, tmp_path):
    from mtworkbench.io.bundle.packages import split_project

    window = open_window(qtbot, demo_copy)
    split_project(load_bundle(demo_copy), "annotator", ["alice", "bob"], tmp_path / "a", 0.1, seed=1)
    split_project(load_bundle(demo_copy), "annotator", ["alice", "bob"], tmp_path / "b", 0.1, seed=2)
    project = window.session.project
    menu_action(window, "File", "Merge packages…").trigger()
    merge = window.merge_dialog
    merge.add_packages([tmp_path / "a" / "alice.mtwb.json", tmp_path / "b" / "bob.mtwb.json"])
    qtbot.mouseClick(merge.merge_button, Qt.MouseButton.LeftButton)
    text = merge.report.toPlainText()
    assert text.startswith("Nothing was merged:") and str(tmp_path / "b" / "bob.mtwb.json") in text
    assert window.session.project is project and project.campaign is None


def test_progress_without_a_campaign_says_how_to_start_one(qtbot, demo_copy):
    window = open_window(qtbot, demo_copy)
    menu_action(window, "File", "Campaign progress…").trigger()
    assert "Split into packages" in window.progress_dialog.summary.text()
    assert window.progress_dialog.table.rowCount() == 0


def test_opening_a_package_works_as_its_person(qtbot, demo_copy, tmp_path):
    from mtworkbench.io.bundle.packages import split_project

    result = split_project(load_bundle(demo_copy), "annotator", ["alice", "bob"], tmp_path / "a", seed=1)
    window = open_window(qtbot, result.packages["bob"])
    annotate = window.workspaces["Annotate"]
    assert annotate.annotator == "bob"
    result = split_project(load_bundle(demo_copy), "judge", ["alice", "bob"], tmp_path / "j", seed=1)
    assert window.open_path(result.packages["alice"])
    assert window.workspaces["Judge"].judge == "alice"


def test_compare_annotators_uses_the_campaigns_shared_segments(qtbot, demo_copy, tmp_path, screenshot_dir):
    from mtworkbench.core.model import EntitySpan
    from mtworkbench.io.bundle.packages import split_project

    result = split_project(load_bundle(demo_copy), "annotator", ["alice", "bob"], tmp_path / "a", 0.2, seed=3)
    campaign = result.campaign
    # Each marks the first word of every item as a PERSON: identical on the shared items, and
    # each alone on their other items (which must not count as disagreement).
    for person, path in result.packages.items():
        package = load_bundle(path)
        for item in campaign.items_of(person):
            text = package.reference_text(item.reference, item.segment)
            package.add_span(EntitySpan(package.new_id("e"), item.reference, item.segment, 0,
                                        len(text.split()[0]), "PERSON", person))
        save_bundle(package, path)
    window = open_window(qtbot, demo_copy)
    menu_action(window, "File", "Merge packages…").trigger()
    window.merge_dialog.add_packages(result.packages.values())
    qtbot.mouseClick(window.merge_dialog.merge_button, Qt.MouseButton.LeftButton)
    annotate = window.workspaces["Annotate"]
    window.tabs.setCurrentWidget(annotate)
    annotate.tabs.setCurrentWidget(annotate.comparison)
    view = annotate.comparison
    reference = annotate.reference
    view.annotator_a.setCurrentText("alice")
    view.annotator_b.setCurrentText("bob")
    view.refresh()
    shared = [it.segment for it in campaign.items
              if it.reference == reference and {"alice", "bob"} <= set(it.people)]
    assert shared and view.comparison.segments == [s for s in window.session.project.segment_ids if s in shared]
    assert view.comparison.f1 == 1.0 and view.comparison.kappa == 1.0
    window.grab().save(str(screenshot_dir / "campaign-compare-annotators.png"))


def test_a_package_lists_its_items_and_ticks_done_undoably(qtbot, demo_copy, tmp_path, screenshot_dir):
    from mtworkbench.core.model import EntitySpan
    from mtworkbench.io.bundle.packages import split_project

    result = split_project(load_bundle(demo_copy), "annotator", ["alice", "bob"], tmp_path / "a", 0.1, seed=1)
    package = load_bundle(result.packages["alice"])
    first = package.campaign.items_of("alice")[0]
    text = package.reference_text(first.reference, first.segment)
    package.add_span(EntitySpan("e1", first.reference, first.segment, 0, len(text.split()[0]), "DATE", "alice"))
    save_bundle(package, result.packages["alice"])
    window = open_window(qtbot, result.packages["alice"])
    menu_action(window, "File", "Campaign progress…").trigger()
    dialog = window.progress_dialog
    qtbot.waitExposed(dialog)
    items = dialog.items
    mine = package.campaign.items_of("alice")
    assert items.isVisible() and items.rowCount() == len(mine)
    done_col = items.columnCount() - 1
    assert items.item(0, done_col).text() == "work done"  # the entity counts; no tick needed
    assert dialog.table.item(0, 2).text() == "1"
    # Tick the second item (a segment without entities) with a real click on its check box.
    cell = items.visualItemRect(items.item(1, done_col))
    items.scrollToItem(items.item(1, done_col))
    qtbot.mouseClick(items.viewport(), Qt.MouseButton.LeftButton,
                     pos=cell.topLeft() + (cell.bottomLeft() - cell.topLeft()) / 2 + type(cell.topLeft())(12, 0))
    assert window.session.project.campaign.done == {"alice": [mine[1].id]}
    assert dialog.table.item(0, 2).text() == "2" and window.is_modified()
    dialog.grab().save(str(screenshot_dir / "campaign-package-items.png"))
    window.session.undo_stack.undo()
    assert window.session.project.campaign.done == {}
    assert dialog.table.item(0, 2).text() == "1"
    # Double-click goes to the item's segment.
    target = items.item(2, 1)
    items.scrollToItem(target)
    qtbot.mouseClick(items.viewport(), Qt.MouseButton.LeftButton, pos=items.visualItemRect(target).center())
    qtbot.mouseDClick(items.viewport(), Qt.MouseButton.LeftButton, pos=items.visualItemRect(target).center())
    assert window.session.current_segment == mine[2].segment


def test_split_dialog_gives_judges_a_da_queue_with_bad_items(qtbot, demo_copy, tmp_path, screenshot_dir):
    window = open_window(qtbot, demo_copy)
    menu_action(window, "File", "Split into packages…").trigger()
    dialog = window.split_dialog
    qtbot.waitExposed(dialog)
    assert not dialog.protocol.isEnabled() and not dialog.bad_rate.isEnabled()  # annotators first
    dialog.by.setCurrentIndex(dialog.by.findData("judge"))
    assert dialog.protocol.isEnabled() and not dialog.bad_rate.isEnabled()  # LDC: no BAD items
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("da"))
    assert dialog.bad_rate.isEnabled()
    dialog.bad_rate.setFocus()
    dialog.bad_rate.selectAll()
    qtbot.keyClicks(dialog.bad_rate, "12")
    qtbot.keyClicks(dialog.people, "alice, bob")
    dialog.folder.setText(str(tmp_path / "packages"))
    qtbot.mouseClick(dialog.split_button, Qt.MouseButton.LeftButton)
    report = dialog.report.toPlainText()
    assert "BAD" in report, report
    dialog.grab().save(str(screenshot_dir / "campaign-split-da-bad.png"))
    package = load_bundle(tmp_path / "packages" / "alice.mtwb.json")
    state = package.judge_queues["alice"]
    assert package.campaign.protocol == "da" and package.campaign.bad_rate == 0.12
    assert state.protocol == "da" and sum(e.qc == "bad" for e in state.items) == round(
        0.12 * len(package.campaign.items_of("alice")))
