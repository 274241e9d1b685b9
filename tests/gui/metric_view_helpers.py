"""Projects the metric-view tests draw: one-segment grids and an annotated demo."""

from __future__ import annotations

import random

from mtworkbench.core.model import (
    Document,
    EntitySpan,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)

# Paragraph d1p2 of the demo, annotated in ref-1. Found in the mt output or not,
# by reading the texts: "Nauru" became "The pound", "Kaja Sepp" became "KajSepp".
DEMO_ENTITIES = {
    "6": [("Nauru", "LOCATION"), ("International Court", "ORGANIZATION")],
    "7": [("Kaja Sepp", "PERSON"), ("Vello Teor", "PERSON"), ("Annika Aava", "PERSON")],
    "8": [("Labour Party", "ORGANIZATION"), ("31%", "PERCENT")],
    "9": [("Jackson", "PERSON"), ("James Brown", "PERSON")],
}
# (type, found, total) for the unit d1p2, counted by hand from the texts above.
DEMO_NEE_BY_TYPE = [
    ("LOCATION", 0, 1),
    ("ORGANIZATION", 2, 2),
    ("PERCENT", 1, 1),
    ("PERSON", 4, 5),
    ("all", 7, 9),
]


def annotate_demo(project: Project) -> None:
    n = 0
    for sid, entities in DEMO_ENTITIES.items():
        text = project.reference("ref-1").texts[sid]
        for surface, etype in entities:
            start = text.index(surface)
            n += 1
            project.add_span(EntitySpan(f"t{n}", "ref-1", sid, start, start + len(surface), etype, "tester"))


def one_segment_project(hyp: str, refs: list[str]) -> Project:
    return Project(
        documents=[Document("d", [Paragraph("p", [Segment("s1", "source")])])],
        references=[Reference(f"r{k + 1}", texts={"s1": r}) for k, r in enumerate(refs)],
        systems=[System("sys", texts={"s1": hyp})],
    )


def big_grid_tokens(seed: int = 7) -> tuple[list[str], list[str], list[str]]:
    """A 120-token candidate and two 200-token references (400 reference tokens)
    sharing copied phrases, so the grid has long runs among scattered hits."""
    rng = random.Random(seed)
    vocab = [f"w{n}" for n in range(80)] + ["the", "of", "and", "a", "to"] * 6
    r1 = [rng.choice(vocab) for _ in range(200)]
    r2 = [rng.choice(vocab) for _ in range(200)]
    hyp: list[str] = []
    while len(hyp) < 120:
        src = rng.choice([r1, r2])
        a = rng.randrange(0, 190)
        hyp += src[a : a + rng.randint(2, 9)]
        hyp.append(rng.choice(vocab))
    return hyp[:120], r1, r2
