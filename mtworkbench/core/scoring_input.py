"""The values that pass between a project, the metrics and the views.

``ScoringInput`` is what a metric sees (hypotheses and reference streams
aligned by segment, with the entity mentions of each reference) and
``MetricScore`` what it returns for one system. They live in core so that the
readers, the project and the scoring service can build and carry them without
importing any metric.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy loads with the first array, not with this module (a lean `score` never needs it)
    import numpy as np


class MetricError(ValueError):
    """Bad metric input or settings; the message is shown to the user as is."""


@dataclass(frozen=True)
class EntityMention:
    """A named entity marked in a reference: characters ``[start, end)``."""

    start: int
    end: int
    type: str
    # A discontinuous mention's pieces (sorted); empty for one contiguous range.
    fragments: tuple[tuple[int, int], ...] = ()
    # Its id and lines in a standoff file (``core.records.FileOrigin``), carried from an import
    # to an export; never part of what a metric compares.
    origin: Any = field(default=None, compare=False)


@dataclass
class ScoringInput:
    """What a metric sees: hypotheses and reference streams aligned by segment.

    ``references[k][i]`` is the k-th reference of segment i. A segment without a
    k-th reference has ``None`` there (variable number of references per segment);
    an empty string is a reference of length 0.
    """

    hypotheses: Sequence[str]
    references: Sequence[Sequence[str | None]]
    sources: Sequence[str] | None = None
    # Document and paragraph id per segment (paragraph ids unique across documents).
    documents: Sequence[str] | None = None
    paragraphs: Sequence[str] | None = None
    # entities[k][i]: the entity mentions annotated in references[k][i].
    entities: Sequence[Sequence[Sequence[EntityMention]]] | None = None
    # Which annotator layer ``entities`` holds (None: unnamed, e.g. a MUC file),
    # and every layer by name, so a metric can be told to use another one.
    entity_layer: str | None = None
    entity_layers: Mapping[str, Sequence[Sequence[Sequence[EntityMention]]]] | None = None
    # Span layers on references other than "entities": layer name -> annotator -> streams.
    span_layers: Mapping[str, Mapping[str, Sequence[Sequence[Sequence[EntityMention]]]]] | None = None
    # The language of hypotheses and references (e.g. "de"), when known.
    target_language: str | None = None

    def __post_init__(self) -> None:
        n = len(self.hypotheses)
        if not self.references:
            raise MetricError("at least one reference stream is needed")
        for k, stream in enumerate(self.references):
            if len(stream) != n:
                raise MetricError(
                    f"reference stream {k + 1} has {len(stream)} segments, "
                    f"the hypothesis has {n}"
                )
        for name in ("sources", "documents", "paragraphs"):
            seq = getattr(self, name)
            if seq is not None and len(seq) != n:
                raise MetricError(f"{name} has {len(seq)} entries, expected {n}")
        if self.entities is not None:
            if len(self.entities) != len(self.references) or any(
                len(s) != n for s in self.entities
            ):
                raise MetricError("entities must have one list per reference and segment")

    @property
    def n_segments(self) -> int:
        return len(self.hypotheses)

    @property
    def n_references(self) -> int:
        return len(self.references)

    def references_for(self, i: int) -> list[str]:
        """The references present for segment i, in stream order."""
        return [text for s in self.references if (text := s[i]) is not None]

    def reference_choices(self, i: int, ref: int | None = None) -> list[tuple[int, str]]:
        """(stream index, text) of segment i's references, or only stream ``ref``."""
        if not 0 <= i < self.n_segments:
            raise MetricError(f"segment {i} is out of range (0..{self.n_segments - 1})")
        if ref is None:
            return [(k, text) for k, s in enumerate(self.references) if (text := s[i]) is not None]
        if not 0 <= ref < self.n_references:
            raise MetricError(f"reference {ref} is out of range (0..{self.n_references - 1})")
        text = self.references[ref][i]
        return [] if text is None else [(ref, text)]

    def subset(self, indices: Sequence[int]) -> ScoringInput:
        pick = lambda seq: None if seq is None else [seq[i] for i in indices]  # noqa: E731
        return ScoringInput(
            hypotheses=[self.hypotheses[i] for i in indices],
            references=[[s[i] for i in indices] for s in self.references],
            sources=pick(self.sources),
            documents=pick(self.documents),
            paragraphs=pick(self.paragraphs),
            entities=None if self.entities is None else [[s[i] for i in indices] for s in self.entities],
            target_language=self.target_language,
        )


@dataclass
class MetricScore:
    """A metric's scores on one system: what the CLI prints and views show."""

    metric: str
    options: dict[str, Any]
    signature: str
    corpus: float
    segments: np.ndarray
    stats: np.ndarray
    stat_names: tuple[str, ...]
    # Further per-segment lists (e.g. "precision") and corpus-level values
    # (e.g. "corpus_precision") that the JSON entry carries beside "segments".
    extras: dict[str, Any] = field(default_factory=dict)
    system: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "metric": self.metric,
            "system": self.system,
            "options": _jsonable(self.options),
            "signature": self.signature,
            "corpus": _num(self.corpus),
            "segments": [_num(x) for x in _float_array(self.segments)],
        }
        for key, value in self.extras.items():
            out[key] = _jsonable(value)
        return out


def _float_array(values: Any) -> Any:
    import numpy as np

    return np.asarray(values, dtype=float)


def _num(x: Any) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


def _jsonable(value: Any) -> Any:
    if isinstance(value, float):  # numpy's float64 too
        return _num(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int)) or value is None:
        return value
    import numpy as np

    if isinstance(value, np.ndarray):
        return [_jsonable(v) for v in value.tolist()]
    if isinstance(value, np.floating):
        return _num(value)
    if isinstance(value, np.integer):
        return int(value)
    return value
