"""Drawing a campaign's plan: who gets which items, from a seed, the same on every machine.

The team project draws the plan; packages are checked against it (``core.campaign_trust``),
never trusted for it.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from mtworkbench.core.campaign_records import (
    ANNOTATION_PROTOCOL,
    BY_KINDS,
    DEFAULT_JUDGE_PROTOCOL,
    Campaign,
    CampaignError,
    CampaignItem,
)
from mtworkbench.core.model import PROTOCOLS, Project
from mtworkbench.core.queue_state import BAD_PROTOCOLS


def seeded_rng(*parts: object) -> random.Random:
    # random() alone is stable across Python versions (shuffle/randrange are not promised).
    digest = hashlib.sha256("\0".join(str(p) for p in parts).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def seeded_shuffle(rng: random.Random, values: list[Any]) -> None:
    for i in range(len(values) - 1, 0, -1):
        j = min(int(rng.random() * (i + 1)), i)
        values[i], values[j] = values[j], values[i]


def texts_fingerprint(project: Project) -> str:
    """A hash of every source, reference and system text (what a package must not change)."""
    h = hashlib.sha256()
    for seg in project.segments:
        h.update(f"S\0{seg.id}\0{seg.source}\0".encode())
    for ref in project.references:
        for sid, text in sorted(ref.texts.items()):
            h.update(f"R\0{ref.id}\0{sid}\0{text}\0".encode())
    for sys_ in project.systems:
        for sid, text in sorted(sys_.texts.items()):
            h.update(f"Y\0{sys_.id}\0{sid}\0{text}\0".encode())
    return h.hexdigest()


def campaign_units(project: Project, by: str, seed: int) -> list[tuple[str, str | None, str | None]]:
    """(segment, reference, system) of every possible item, in document order."""
    units: list[tuple[str, str | None, str | None]] = []
    if by == "annotator":
        for seg in project.segments:
            for ref in project.references:
                if seg.id in ref.texts:
                    units.append((seg.id, ref.id, None))
        if not units:
            raise CampaignError("nothing to annotate: the project has no reference texts")
        return units
    if not project.systems:
        raise CampaignError("nothing to judge: the project has no systems")
    # One reference per document (as the judges of Turian et al. saw it), drawn from the seed.
    refs = [r.id for r in project.references]
    rng = seeded_rng("campaign-reference", seed)
    start = {doc.id: (min(int(rng.random() * len(refs)), len(refs) - 1) if refs else 0)
             for doc in project.documents}
    for seg in project.segments:
        first = start[project.document_of(seg.id)]
        chosen = next((refs[(first + k) % len(refs)] for k in range(len(refs))
                       if seg.id in project.reference(refs[(first + k) % len(refs)]).texts), None)
        for sys_ in project.systems:
            units.append((seg.id, chosen, sys_.id))
    return units


def plan_campaign(project: Project, by: str, people: list[str], overlap: float = 0.0, seed: int = 0,
                  protocol: str | None = None, bad_rate: float = 0.0) -> Campaign:
    """Assign every item to one person, and ``overlap`` of them to two; ``bad_rate``
    adds BAD items to each judge's queue (DA, ESA)."""
    if by not in BY_KINDS:
        raise CampaignError(f"split by must be one of {', '.join(BY_KINDS)}, not {by!r}")
    if not people:
        raise CampaignError("name at least one person")
    if len(set(people)) != len(people):
        dup = next(p for p in people if people.count(p) > 1)
        raise CampaignError(f"person {dup!r} is named twice")
    if not 0 <= overlap <= 1:
        raise CampaignError(f"overlap must be between 0 and 1, not {overlap!r}")
    if overlap > 0 and len(people) < 2:
        raise CampaignError("overlap needs at least two people")
    if by == "annotator":
        protocol = ANNOTATION_PROTOCOL
    elif not protocol:
        protocol = DEFAULT_JUDGE_PROTOCOL
    elif protocol not in PROTOCOLS:
        raise CampaignError(f"unknown protocol {protocol!r}; expected one of {', '.join(PROTOCOLS)}")
    if isinstance(bad_rate, bool) or not isinstance(bad_rate, (int, float)) or not 0 <= bad_rate <= 1:
        raise CampaignError(f"the BAD rate must be between 0 and 1, not {bad_rate!r}")
    if bad_rate and protocol not in BAD_PROTOCOLS:
        raise CampaignError(f"BAD items are for judging campaigns in {' or '.join(BAD_PROTOCOLS)}, "
                            f"not {protocol}")
    units = campaign_units(project, by, seed)
    order = list(range(len(units)))
    seeded_shuffle(seeded_rng("campaign-order", seed, by, ",".join(people)), order)
    n_shared = min(len(units), int(round(overlap * len(units))))
    assigned: dict[int, tuple[str, ...]] = {}
    n = len(people)
    for k, index in enumerate(order[:n_shared]):
        # Pairs walk round the people, so every neighbouring pair shares items.
        pair = {people[k % n], people[(k + 1) % n]}
        assigned[index] = tuple(p for p in people if p in pair)
    for k, index in enumerate(order[n_shared:]):
        assigned[index] = (people[(k + n_shared) % n],)
    items = [CampaignItem(f"i{k + 1}", seg, ref, sys_, assigned[k]) for k, (seg, ref, sys_) in enumerate(units)]
    # A campaign without BAD items keeps the id earlier versions gave it.
    ident = hashlib.sha256(
        json.dumps([texts_fingerprint(project), by, protocol, people, overlap, seed,
                    *([bad_rate] if bad_rate else [])]).encode()
    ).hexdigest()[:16]
    return Campaign(f"c-{ident}", by, protocol, seed, overlap, list(people), items, bad_rate=float(bad_rate))


# --- packages -------------------------------------------------------------------------------------
