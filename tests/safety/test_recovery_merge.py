"""Qt-free pieces for the app: recovery copies offered by content, diffs, and merging with a changed disk file."""

from __future__ import annotations

import os
import time

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import EntitySpan, Judgment
from mtworkbench.io.bundle.bundle import bundle_transaction, load_bundle, read_bundle, save_bundle
from mtworkbench.io.bundle.merge import merge_projects
from mtworkbench.io.bundle.recovery import diff_projects, find_recovery, recovery_path, write_recovery

from .helpers import project


def test_recovery_is_offered_by_content_not_by_time(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    assert find_recovery(bundle, tmp_path / "settings") is None
    edited = load_bundle(bundle)
    edited.add_judgment(Judgment("j9", "ann", "sys1", "s2", "r1", adequacy=5))
    target = recovery_path(bundle, tmp_path / "settings")
    write_recovery(edited, target)
    # A later CLI write makes the bundle newer than the recovery copy: still offered.
    old = time.time() - 600
    os.utime(target, (old, old))
    with bundle_transaction(bundle) as p:
        p.add_judge("cli")
    offer = find_recovery(bundle, tmp_path / "settings")
    assert offer is not None and offer.recovery == target
    assert offer.diff.added["judgments"] == ["j9"]
    assert "1 judgment added" in offer.diff.summary()
    assert offer.diff.judges_removed == ["cli"]  # restoring it would drop the CLI's judge: the dialog says so
    # A copy identical to the bundle is not offered.
    write_recovery(load_bundle(bundle), target)
    assert find_recovery(bundle, tmp_path / "settings") is None


def test_untitled_recovery_is_offered(tmp_path):
    folder = tmp_path / "settings"
    write_recovery(project(), recovery_path(None, folder))
    offer = find_recovery(None, folder)
    assert offer is not None and offer.bundle is None and offer.diff.added["systems"] == ["sys0", "sys1"]


def test_damaged_recovery_copy_is_a_clean_error(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    recovery_path(bundle, tmp_path).write_text('{"format": "mtworkbench-project", "format_version": 1, NaN')
    with pytest.raises(DataError):
        find_recovery(bundle, tmp_path)


def test_diff_lists_changed_items():
    a = project()
    b = project()
    b.remove_judgment("j1")
    b.set_system_text("sys0", "s1", "changed")
    diff = diff_projects(a, b)
    assert diff.removed["judgments"] == ["j1"] and diff.changed["systems"] == ["sys0"]
    assert not diff.is_empty and diff_projects(a, project()).is_empty


def test_three_way_merge_keeps_both_sides_and_lists_conflicts(tmp_path):
    bundle = tmp_path / "b.mtwb.json"
    save_bundle(project(), bundle)
    loaded = read_bundle(bundle)
    base = load_bundle(bundle)
    mine = loaded.project
    mine.add_judgment(Judgment("mine1", "ann", "sys1", "s2", "r1", adequacy=2))
    mine.add_span(EntitySpan("e1", "r1", "s1", 0, 3, "PERSON", "ann"))
    mine.replace_judgment(Judgment("j1", "ann", "sys0", "s1", "r1", adequacy=1, fluency=3))
    # Meanwhile the CLI adds a judge with judgments and changes j1 too.
    with bundle_transaction(bundle) as other:
        other.add_judge("cli")
        other.add_judgment(Judgment("cli1", "cli", "sys0", "s3", None, score=0.5, scale="da"))
        other.replace_judgment(Judgment("j1", "ann", "sys0", "s1", "r1", adequacy=5, fluency=3))
    disk = load_bundle(bundle)
    result = merge_projects(disk, mine, base)
    ids = {j.id for j in result.project.judgments}
    assert {"mine1", "cli1", "j1"} <= ids
    assert [s.id for s in result.project.spans] == ["e1"]
    assert "cli" in result.project.judges
    assert result.project.judgment("j1").adequacy == 5  # both changed it: the disk version stays
    assert len(result.conflicts) == 1 and "'j1'" in result.conflicts[0]
    # The merged project saves over the changed file once the user chose to merge.
    save_bundle(result.project, bundle, expected_hash=read_bundle(bundle).sha256)
    assert {"mine1", "cli1"} <= {j.id for j in load_bundle(bundle).judgments}


def test_deletions_merge_three_way():
    base = project()
    mine = project()
    mine.remove_judgment("j1")
    disk = project()
    disk.add_judge("x")
    result = merge_projects(disk, mine, base)
    assert result.project.judgment_count == 0 and "x" in result.project.judges and not result.conflicts
