"""Small projects and subprocess helpers for the safety tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System

ROOT = Path(__file__).resolve().parents[2]


def project(n_segments: int = 3, n_systems: int = 2, text_len: int = 20, name: str = "p") -> Project:
    segs = [Segment(f"s{i}", f"source {i} " + "x" * text_len) for i in range(1, n_segments + 1)]
    p = Project([Document("d1", [Paragraph("p1", segs)])], source_language="de", target_language="en", name=name)
    p.add_reference(Reference("r1", "T", {s.id: f"ref {s.id} " + "y" * text_len for s in segs}))
    for k in range(n_systems):
        p.add_system(System(f"sys{k}", "machine", {s.id: f"hyp {k} {s.id} " + "z" * text_len for s in segs}))
    p.add_judge("ann")
    if n_systems:
        p.add_judgment(Judgment("j1", "ann", "sys0", "s1", "r1", adequacy=4, fluency=3))
    return p


def env() -> dict[str, str]:
    """The environment for child processes: this checkout's code wins."""
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    return e


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mtworkbench", *args], capture_output=True, text=True,
                          env=env(), timeout=timeout)


def temp_leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))
