"""Comments and docstrings say why in the code's own terms: none points at an issue
number, a seed document's number or a file outside the repository, which a reader of
the package alone could not follow. Papers by author and title are fine."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OUTSIDE = re.compile(
    r"\b[Ii]ssues? #?\d+"  # an issue tracker's number
    r"|\b[Ss]eeds? \d{3}\b"  # a seed document's number
    r"|\bSPECS\b|\bGUIDE\.md\b"  # the specification and style notes beside the repository
    r"|\.\./shared\b"  # the shared data folder
)


def citations(text: str) -> list[tuple[int, str]]:
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if OUTSIDE.search(line)]


def test_the_pattern_catches_each_kind():
    for line in ["# see issue 20", "(seed 004, figure 8)", 'SPECS.md "TER"', "Seed 000 judged", "GUIDE.md",
                 "reads ../shared/golden"]:
        assert citations(line), line
    for line in ["Turian, Shen & Melamed 2003, figure 4", "an issue with 3 files", "--seed 1234", "specs = []"]:
        assert not citations(line), line


def test_the_package_cites_nothing_outside_the_repository():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line}"
        for path in sorted((ROOT / "mtworkbench").rglob("*"))
        if path.is_file() and path.suffix in {".py", ".md", ".txt", ".toml", ".json"}
        for number, line in citations(path.read_text(encoding="utf-8"))
    ]
    assert not found, "say why in the code's own terms instead:\n" + "\n".join(found)
