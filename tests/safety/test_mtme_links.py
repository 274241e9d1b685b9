"""An mt-metrics-eval test set is read from inside its folder only: a link that leads
outside it is refused, naming the link, and nothing is written."""

from __future__ import annotations

import os
import shutil

import pytest

from mtworkbench.cli import main
from mtworkbench.io.bundle.bundle import load_bundle

from ..io.test_mt_metrics_eval import write_testset

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links on this platform")

SECRET = "the secret line 1\nthe secret line 2\nthe secret line 3\nthe secret line 4\n"


def _import(root, out):
    return main(["import", "--format", "mt-metrics-eval", str(root), "--lp", "en-de", "-o", str(out)])


@pytest.mark.parametrize("where", ["system-outputs/en-de/evil.txt", "references/en-de.evil.txt",
                                   "sources/en-de.txt", "metric-scores/en-de/evil.seg.score"])
def test_a_file_link_leading_outside_is_refused(tmp_path, capsys, where):
    root = write_testset(tmp_path / "wmt99")
    secret = tmp_path / "home" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(SECRET)
    link = root / where
    link.unlink(missing_ok=True)
    link.symlink_to(secret)
    out = tmp_path / "p.mtwb.json"
    assert _import(root, out) == 1
    err = capsys.readouterr().err
    assert str(link) in err and "outside" in err
    assert not out.exists()


def test_a_folder_link_leading_outside_is_refused(tmp_path, capsys):
    root = write_testset(tmp_path / "wmt99")
    elsewhere = tmp_path / "elsewhere"
    shutil.move(root / "system-outputs" / "en-de", elsewhere)
    (root / "system-outputs" / "en-de").symlink_to(elsewhere, target_is_directory=True)
    out = tmp_path / "p.mtwb.json"
    assert _import(root, out) == 1
    assert str(root / "system-outputs" / "en-de") in capsys.readouterr().err
    assert not out.exists()


def test_links_inside_the_test_set_are_read(tmp_path, capsys):
    root = write_testset(tmp_path / "wmt99")
    copy = root / "system-outputs" / "en-de" / "sysZ.txt"
    copy.symlink_to(root / "system-outputs" / "en-de" / "sysX.txt")
    out = tmp_path / "p.mtwb.json"
    assert _import(root, out) == 0, capsys.readouterr().err
    project = load_bundle(out)
    assert project.system("sysZ").texts == project.system("sysX").texts
