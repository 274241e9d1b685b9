"""Small projects and a LocalCluster for the dask backend's tests (2 workers, a few seconds)."""

from __future__ import annotations

import random

import pytest

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System

# German, Russian, Arabic and Japanese words beside Latin ones: the numbers must not depend on the script
WORDS = ("Straße", "über", "Mädchen", "книга", "дом", "мир", "كتاب", "بيت", "日本", "東京", "の", "猫",
         "house", "tree", "blue", "fast", "river", "stone", "green", "light")


def mixed_project(n_segments: int = 40, n_systems: int = 4, seed: int = 3) -> Project:
    rng = random.Random(seed)
    segments = [Segment(str(i + 1), " ".join(rng.choices(WORDS, k=8))) for i in range(n_segments)]
    documents = [Document("d0", [Paragraph("d0p1", segments)])]
    refs = {s.id: " ".join(rng.choices(WORDS, k=rng.randint(5, 12))) for s in segments}
    project = Project(documents, [Reference("ref", texts=refs)], [], "xx", "de", name="mixed")
    for k in range(n_systems):
        keep = 0.9 - 0.1 * k
        texts = {sid: " ".join(t if rng.random() < keep else rng.choice(WORDS) for t in ref.split())
                 for sid, ref in refs.items()}
        project.add_system(System(f"sys{k}", texts=texts))
    return project


def local_client(n_workers: int = 2, **kwargs):
    """A LocalCluster's client on 127.0.0.1 (the caller closes it)."""
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")
    cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None, silence_logs=40, **kwargs)
    return distributed.Client(cluster, set_as_default=False)
