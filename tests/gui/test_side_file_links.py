"""The app's own side files and exports: the recovery copy replaces a link left at its
name; the Analysis CSV exports write a FIFO as it is."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from mtworkbench.gui import recovery_writer


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links on this platform")
def test_the_recovery_copy_replaces_a_link_and_leaves_its_target(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = tmp_path / ".p.mtwb.json.recovery"
    target.symlink_to(victim)
    assert recovery_writer._write(target, b'{"format": "mtworkbench"}\n') is None
    assert victim.read_text() == "precious"
    assert not target.is_symlink() and target.read_bytes().startswith(b'{"format"')


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_the_correlation_csv_writes_into_a_fifo(tmp_path):
    from mtworkbench.gui.analysis.correlation_table import write_correlation_csv

    fifo = tmp_path / "c.csv"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    write_correlation_csv([], fifo)
    reader.join(timeout=30)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and got and got[0]
