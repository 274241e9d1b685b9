"""compare-mt's word count file: ``word<TAB>count`` per line (blank lines skipped)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.io.corpora.plaintext import read_text, split_lines


def read_frequency_file(path: str | Path) -> Counter:
    """The counts by word; an error names the file, the line and what was expected."""
    counts: Counter = Counter()
    for i, line in enumerate(split_lines(read_text(path, strip_bom=True)), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[1].strip().isdigit():
            raise DataError(f"{path}:{i}: expected WORD<TAB>COUNT, found {line!r}")
        counts[parts[0]] = int(parts[1])
    return counts
