"""The segment index is built in bounded steps (the app builds a large project on a worker
thread, and one C call over every segment held the interpreter's lock throughout)."""

from __future__ import annotations

import pytest

from mtworkbench.core import segment_positions as positions
from mtworkbench.core.model import Document, ModelError, Paragraph, Project, Segment


class Slices(list):
    """Segments that record each slice taken of them."""

    taken: list[int]

    def __getitem__(self, key):
        if isinstance(key, slice):
            self.taken.append(len(range(*key.indices(len(self)))))
        return super().__getitem__(key)


@pytest.mark.parametrize("n", [0, 1, 3, 7, 9])
def test_positions_are_built_a_chunk_at_a_time(n, monkeypatch):
    monkeypatch.setattr(positions, "INDEX_CHUNK", 3)
    ids = ["北京", "Москва", "القاهرة", "東京", "Köln", "s6", "s7", "s8", "s9"][:n]
    segments = Slices(Segment(sid, "") for sid in ids)
    segments.taken = []
    assert positions.segment_positions(segments) == {sid: i for i, sid in enumerate(ids)}
    assert sum(segments.taken) == n and all(0 < k <= 3 for k in segments.taken)
    assert len(segments.taken) == (n + 2) // 3


def test_a_repeated_id_across_chunks_is_still_named(monkeypatch):
    monkeypatch.setattr(positions, "INDEX_CHUNK", 2)
    segments = [Segment(sid, "") for sid in ("a", "b", "c", "a")]
    assert positions.segment_positions(segments) == {"a": 3, "b": 1, "c": 2}
    with pytest.raises(ModelError, match="duplicate segment id 'a'"):
        Project([Document("d", [Paragraph("p", segments)])])
