"""Synthetic projects for the Metrics workspace tests (deterministic, no files)."""

from __future__ import annotations

import random

from mtworkbench.core.model import (
    Document,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)


def synthetic_project(n_segments: int, n_systems: int, seed: int = 1, words: int = 12) -> Project:
    """``n_systems`` noisy copies of one reference: system k keeps each word with
    probability 0.9 - 0.05 k, so systems differ in quality in a known order."""
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(2000)]
    segments = [Segment(str(i + 1), " ".join(rng.choices(vocab, k=words))) for i in range(n_segments)]
    per_doc = 100
    documents = [
        Document(f"d{d}", [Paragraph(f"d{d}p1", segments[d * per_doc:(d + 1) * per_doc])])
        for d in range((n_segments + per_doc - 1) // per_doc)
    ]
    refs = {s.id: " ".join(rng.choices(vocab, k=rng.randint(words - 4, words + 8))) for s in segments}
    project = Project(documents, [Reference("ref", texts=refs)], [], "xx", "en", name="synthetic")
    for k in range(n_systems):
        keep = 0.9 - 0.05 * k
        texts = {}
        for sid, ref in refs.items():
            texts[sid] = " ".join(t if rng.random() < keep else rng.choice(vocab) for t in ref.split())
        project.add_system(System(f"sys{k}", texts=texts))
    return project
