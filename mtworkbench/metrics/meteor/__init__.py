"""METEOR (Banerjee & Lavie 2005; Meteor 1.x): word alignments with exact, stem
and WordNet-synonym matches, Meteor 1.x's beam search or an exact optimum."""

from mtworkbench.metrics.meteor.metric import PRESETS, Meteor
from mtworkbench.metrics.meteor.results import (
    MeteorChunk,
    MeteorLink,
    MeteorReferenceResult,
    MeteorResult,
)

__all__ = [
    "PRESETS",
    "Meteor",
    "MeteorChunk",
    "MeteorLink",
    "MeteorReferenceResult",
    "MeteorResult",
]
