"""Files the program names itself (lock descriptions, markers, recovery copies, backups,
companions) are never written through a link someone left at their name."""

from __future__ import annotations

import json
import os

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import EntitySpan
from mtworkbench.io.bundle import locking
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.bundle.recovery import recovery_path, write_recovery

from .helpers import cli, project

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links on this platform")

VICTIM = "precious: not to be overwritten\n"


@pytest.fixture
def bundle(tmp_path):
    path = tmp_path / "p.mtwb.json"
    save_bundle(project(), path)
    return path


@pytest.fixture
def victim(tmp_path):
    target = tmp_path / "elsewhere" / "victim.txt"
    target.parent.mkdir()
    target.write_text(VICTIM)
    return target


def _ldc_csv(tmp_path):
    csv = tmp_path / "ldc.csv"
    csv.write_text("judge,system,segment,reference,adequacy,fluency,seconds,comment\n"
                   "neu,sys1,s2,r1,3,4,2,gut\n", encoding="utf-8")
    return csv


def test_a_link_at_the_lock_description_is_replaced_not_followed(bundle, victim, tmp_path):
    info = locking.info_path(bundle)
    info.symlink_to(victim)
    result = cli("judgments", "import", str(bundle), str(_ldc_csv(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert victim.read_text() == VICTIM
    assert any(j.judge == "neu" for j in load_bundle(bundle).judgments)


def test_the_lock_description_through_a_link_in_process(bundle, victim):
    locking.info_path(bundle).symlink_to(victim)
    with locking.bundle_lock(bundle):
        assert not locking.info_path(bundle).is_symlink()
        assert json.loads(locking.info_path(bundle).read_text())["pid"] == os.getpid()
    assert victim.read_text() == VICTIM


def test_a_link_at_the_lock_file_itself_is_not_truncated(bundle, victim, tmp_path):
    locking.lock_path(bundle).unlink(missing_ok=True)  # the save that made the bundle left it
    locking.lock_path(bundle).symlink_to(victim)
    result = cli("judgments", "import", str(bundle), str(_ldc_csv(tmp_path)))
    assert victim.read_text() == VICTIM
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr


def test_the_open_marker_and_the_recovery_copy_replace_links(bundle, victim, tmp_path):
    marker = locking.open_marker_path(bundle)
    marker.symlink_to(victim)
    locking.mark_open(bundle)
    assert victim.read_text() == VICTIM and not marker.is_symlink()
    assert locking.open_elsewhere(bundle) is None  # our own marker

    copy = recovery_path(bundle, tmp_path / "untitled")
    copy.symlink_to(victim)
    write_recovery(load_bundle(bundle), copy)
    assert victim.read_text() == VICTIM and not copy.is_symlink()
    assert load_bundle(copy).segment_ids == load_bundle(bundle).segment_ids


def test_a_link_at_the_backup_name_is_replaced(bundle, victim):
    backup = bundle.with_name(bundle.name + ".bak")
    backup.unlink(missing_ok=True)
    backup.symlink_to(victim)
    save_bundle(project(name="second"), bundle)
    assert victim.read_text() == VICTIM
    assert not backup.is_symlink() and load_bundle(backup).name == "p"


def test_a_bundle_named_through_a_link_is_still_saved_where_it_points(bundle, tmp_path):
    # The file the user names is followed (a bundle kept elsewhere); only derived names are not.
    link = tmp_path / "link.mtwb.json"
    link.symlink_to(bundle)
    save_bundle(project(name="through the link"), link)
    assert link.is_symlink() and load_bundle(bundle).name == "through the link"


@pytest.mark.parametrize("named", ["e.ann", "e.txt"])
def test_the_brat_companion_file_is_never_written_through_a_link(bundle, victim, tmp_path, capsys, named):
    p = load_bundle(bundle)
    p.add_span(EntitySpan("e1", "r1", "s1", 0, 3, "PERSON", "ann"))
    save_bundle(p, bundle)
    out = tmp_path / "out"
    out.mkdir()
    companion = out / ("e.txt" if named == "e.ann" else "e.ann")
    companion.symlink_to(victim)
    assert main(["entities", "export", str(bundle), str(out / named), "--reference", "r1",
                 "--format", "brat"]) == 0, capsys.readouterr()
    assert victim.read_text() == VICTIM
    assert not companion.is_symlink() and companion.stat().st_size > 0
