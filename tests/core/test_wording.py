"""Counts in messages take the singular for one: "1 reference", not "1 references"."""

from __future__ import annotations

import pytest

from mtworkbench.core.wording import plural


@pytest.mark.parametrize("n, word, said", [
    (1, "reference", "1 reference"), (3, "reference", "3 references"), (0, "system", "0 systems"),
    (2, "entity", "2 entities"), (1, "entity", "1 entity"), (2, "day", "2 days"),
    (2, "entity span", "2 entity spans"), (3, "batch", "3 batches"), (1, "batch", "1 batch"),
])
def test_plural(n, word, said):
    assert plural(n, word) == said
