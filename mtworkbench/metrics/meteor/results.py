"""What a view needs to draw one Meteor alignment (jiwer's shape: counts + alignment)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MeteorLink:
    """One aligned word pair and the module that proposed it."""

    hyp: int
    ref: int
    module: str


@dataclass(frozen=True)
class MeteorChunk:
    """A run of links contiguous in both strings; ends exclusive."""

    hyp_start: int
    hyp_end: int
    ref_start: int
    ref_end: int


@dataclass
class MeteorReferenceResult:
    """The hypothesis aligned to one reference and scored."""

    reference_index: int  # reference stream (0-based); -1: no reference, scored against ""
    hypothesis_tokens: list[str]
    reference_tokens: list[str]
    links: list[MeteorLink]
    chunks: list[MeteorChunk]
    precision: float
    recall: float
    fmean: float
    frag: float
    penalty: float
    score: float
    statistics: dict[str, float]
    hyp_function_words: list[bool] = field(default_factory=list)
    ref_function_words: list[bool] = field(default_factory=list)


@dataclass
class MeteorResult:
    """One segment: the winning reference's alignment and scores, and every reference's."""

    segment: int
    chosen_reference: int | None  # stream index of the winner; None without references
    hypothesis_tokens: list[str]
    reference_tokens: list[str]
    links: list[MeteorLink]
    chunks: list[MeteorChunk]
    precision: float
    recall: float
    fmean: float
    frag: float
    penalty: float
    score: float
    aligner: str
    per_reference: list[MeteorReferenceResult]

    @property
    def n_chunks(self) -> int:
        return len(self.chunks)
