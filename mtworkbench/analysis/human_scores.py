"""One human score per (system, segment) from a project's judgments.

A human score is named ``NAME[:FIELD]``:

* ``NAME`` selects judgments: a judge's name (e.g. the pseudo-judge ``da``
  that imported direct-assessment scores), else a scale name (every judgment
  whose ``scale`` is NAME), else a protocol (``mqm``, ``esa``, ``da``, ``ldc``,
  ``rank``: every judgment made that way), else ``all`` / ``*`` for every judgment;
* ``FIELD`` is ``adequacy``, ``fluency`` or ``score``; without it, ``score``
  when the selected judgments carry numeric scores, else ``adequacy``.

A name may itself contain ``:`` (judge ``a:b``): the field is what follows the
*last* colon when that is one of the three fields (``a:b:adequacy``), and
otherwise the whole text is the name (``a:b``). A name that ends in
``:adequacy``/``:fluency``/``:score`` itself is written in double quotes
(``"x:score"`` or ``"x:score":fluency``; a ``"`` inside is doubled).
``format_human_spec`` writes a spec that reads back to the same name and field.

Several judgments of one item are averaged; with ``z=True`` each judge's values
are first z-transformed over all that judge's selected judgments (zero mean,
unit population variance; Turian, Shen & Melamed 2003). A judge who rated the same item twice
(intra-judge repeats) counts once for that item, with the mean of the repeats,
so the per-item entries are distinct judges (what judge-vs-judge sampling needs).

An MQM judgment's score is computed from its error spans with the MQM weights
(``mqm_weights``; Google's by default) unless it carries a numeric score of its
own (an imported segment score, or Unbabel's score given with the ratings, scale
``mqm.unb``: the mean of the ``misc`` ``mqm`` values of the rater's rows, not
negated, as mt-metrics-eval's converter reads them). With ``mqm_recompute`` the
latter are weighed from their errors instead (the converter's
``--recompute_unbabel``). DA quality-control items (``qc="bad"``, a
degraded copy rather than the system's output) are never human scores.

One MQM rating can arrive as several judgments of one judge on one item that show
different texts: Google's files repeat the translation on every error row, and a
row may show it with other whitespace (a span reaching past the text's end in the
2023 releases) or another version of it; each text keeps its own judgment so that
the spans and the export stay exact. Those parts are summed (Google's scorer sums
a rater's rows per item), the judgments showing one same text being averaged as
repeats first (``_join_mqm_parts``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mtworkbench.analysis.mqm_weights import GOOGLE_WEIGHTS, MqmWeights
from mtworkbench.core.errors import DataError
from mtworkbench.core.model import PROTOCOLS, Judgment, Project
from mtworkbench.core.mqm_typology import UNBABEL_SCALE

FIELDS: tuple[str, ...] = ("adequacy", "fluency", "score")
ALL_JUDGES = ("all", "*")


@dataclass(frozen=True)
class HumanSpec:
    name: str
    field: str | None = None
    # Unquoted "NAME:WORD" whose WORD is no field: read as the name "NAME:WORD", but if
    # nothing has that name the error says that WORD is an unknown field.
    unknown_field: str | None = None

    @property
    def label(self) -> str:
        return format_human_spec(self.name, self.field)


def format_human_spec(name: str, field: str | None = None) -> str:
    """The spec text for a name and field; quoted when the name would read otherwise."""
    text = name + (f":{field}" if field else "")
    if parse_human_spec(text) == HumanSpec(name, field, None):
        return text
    quoted = '"' + name.replace('"', '""') + '"'
    return quoted + (f":{field}" if field else "")


def parse_human_spec(text: str) -> HumanSpec:
    spec = text.strip()
    if spec.startswith('"'):
        return _parse_quoted(text, spec)
    head, colon, tail = spec.rpartition(":")
    fld = tail.strip().lower()
    if colon and fld in FIELDS:
        name = head.strip()
        if not name:
            raise DataError(f"human score {text!r}: empty name; expected NAME[:adequacy|fluency|score]")
        return HumanSpec(name, fld)
    if not spec:
        raise DataError(f"human score {text!r}: empty name; expected NAME[:adequacy|fluency|score]")
    return HumanSpec(spec, None, fld if colon else None)


def _parse_quoted(text: str, spec: str) -> HumanSpec:
    name_chars: list[str] = []
    i = 1
    while True:
        end = spec.find('"', i)
        if end < 0:
            raise DataError(f"human score {text!r}: the quoted name has no closing '\"'")
        name_chars.append(spec[i:end])
        if spec.startswith('"', end + 1):  # a doubled quote stands for one quote
            name_chars.append('"')
            i = end + 2
            continue
        rest = spec[end + 1:]
        break
    name = "".join(name_chars)
    if not name.strip():
        raise DataError(f"human score {text!r}: empty name; expected NAME[:adequacy|fluency|score]")
    if not rest:
        return HumanSpec(name, None)
    fld = rest[1:].strip().lower() if rest.startswith(":") else None
    if fld not in FIELDS:
        raise DataError(f"human score {text!r}: after the quoted name expected :adequacy, :fluency or :score, "
                        f"found {rest!r}")
    return HumanSpec(name, fld)


@dataclass
class HumanScores:
    """Human scores of every (system, segment) item, kept per judge for resampling.

    ``entries_*`` are parallel arrays, one entry per (item, judge) with the judge's
    (mean) value, sorted by system then segment. ``matrix`` is the per-item mean,
    NaN where nobody rated the item.
    """

    label: str
    field: str
    z: bool
    systems: list[str]
    segments: list[str]
    judges: list[str]
    entries_system: np.ndarray
    entries_segment: np.ndarray
    entries_judge: np.ndarray
    entries_value: np.ndarray
    # System scores that are not the mean of the segments: relative rankings' expected
    # wins (analysis.ranking_scores), in ``systems`` order; None = the mean.
    system_values: np.ndarray | None = None

    @property
    def counts(self) -> np.ndarray:
        """Number of distinct judges per item, shape (n_systems, n_segments)."""
        out = np.zeros((len(self.systems), len(self.segments)), dtype=np.int64)
        np.add.at(out, (self.entries_system, self.entries_segment), 1)
        return out

    @property
    def matrix(self) -> np.ndarray:
        """Mean human score per item, shape (n_systems, n_segments); NaN = not rated."""
        total = np.zeros((len(self.systems), len(self.segments)))
        np.add.at(total, (self.entries_system, self.entries_segment), self.entries_value)
        counts = self.counts
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(counts > 0, total / np.maximum(counts, 1), np.nan)

    def system_scores(self) -> np.ndarray:
        """Mean over each system's rated segments (NaN for a system nobody rated);
        for relative rankings, each system's expected wins."""
        if self.system_values is not None:
            return self.system_values
        m = self.matrix
        rated = np.isfinite(m)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(rated.any(1), np.nansum(m, axis=1) / np.maximum(rated.sum(1), 1), np.nan)

    def rated_systems(self) -> list[str]:
        return [s for s, ok in zip(self.systems, np.isfinite(self.matrix).any(1)) if ok]

    def cell_offsets(self) -> tuple[np.ndarray, np.ndarray]:
        """(offset, count) of each item's entries in the entry arrays, shape (S, N) each."""
        counts = self.counts
        starts = np.concatenate([[0], np.cumsum(counts.ravel())[:-1]]).reshape(counts.shape)
        return starts, counts


def weighs_errors(j: Judgment, recompute: bool = False) -> bool:
    """Whether an MQM judgment's score comes from weighing its errors: it has no score of
    its own, or it has Unbabel's and ``recompute`` asks for the weights instead."""
    return j.protocol == "mqm" and (j.score is None or (recompute and j.scale == UNBABEL_SCALE))


def _value(j: Judgment, field: str, weights: MqmWeights = GOOGLE_WEIGHTS, recompute: bool = False) -> float | None:
    if field == "score" and weighs_errors(j, recompute):
        return weights.score(j.errors)
    v = getattr(j, field)
    return None if v is None else float(v)


def _join_mqm_parts(rows: list[tuple[Judgment, float]], recompute: bool = False) -> list[tuple[Judgment, float]]:
    """One value per MQM rating whose errors came as judgments showing different texts:
    the sum over the texts of the mean over each text's judgments. Every other row
    (and a judge's judgments of an item that all show one text) is left as it is."""
    parts: dict[tuple[str, str, str], dict[str | None, list[float]]] = {}
    for j, v in rows:
        if weighs_errors(j, recompute):
            parts.setdefault((j.judge, j.system, j.segment), {}).setdefault(j.text, []).append(v)
    split = {key for key, texts in parts.items() if len(texts) > 1}
    if not split:
        return rows
    out: list[tuple[Judgment, float]] = []
    for j, v in rows:
        key = (j.judge, j.system, j.segment)
        if not weighs_errors(j, recompute) or key not in split:
            out.append((j, v))
        elif key in parts:
            texts = parts.pop(key)  # the rating's first judgment stands for all its parts
            out.append((j, math.fsum(math.fsum(values) / len(values) for values in texts.values())))
    return out


def select_judgments(project: Project, spec: HumanSpec, protocol: str | None = None) -> list[Judgment]:
    """The judgments NAME selects (see the module docstring); with ``protocol``,
    exactly that protocol's judgments, whatever NAME says."""
    judgments = [j for j in project.judgments if not j.qc]
    if protocol is not None:
        chosen = [j for j in judgments if j.protocol == protocol]
    elif spec.name in ALL_JUDGES:
        chosen = judgments
    elif any(j.judge == spec.name for j in judgments):
        chosen = [j for j in judgments if j.judge == spec.name]
    elif any(j.scale == spec.name for j in judgments):
        chosen = [j for j in judgments if j.scale == spec.name]
    else:
        chosen = [j for j in judgments if j.protocol == spec.name]
    if not chosen and spec.unknown_field is not None:
        raise DataError(
            f"human score {spec.name!r}: unknown field {spec.unknown_field!r}; expected one of "
            f"{', '.join(FIELDS)} (and no judge or scale is named {spec.name!r})"
        )
    if not chosen:
        judges = sorted({j.judge for j in judgments})
        scales = sorted({j.scale for j in judgments if j.scale})
        protocols = [p for p in PROTOCOLS if any(j.protocol == p for j in judgments)]
        raise DataError(
            f"no judgments for human score {protocol or spec.label!r}; judges: {', '.join(judges) or '(none)'}; "
            f"scales: {', '.join(scales) or '(none)'}; protocols: {', '.join(protocols) or '(none)'}; or 'all'"
        )
    return chosen


def z_transform(judge_idx: np.ndarray, values: np.ndarray, n_judges: int) -> np.ndarray:
    """Each value as a z-score within its judge (Turian, Shen & Melamed 2003): population sd; a judge
    whose values are all equal maps to 0. ``judge_idx[i]`` is value i's judge."""
    counts = np.bincount(judge_idx, minlength=n_judges).astype(float)
    sums = np.bincount(judge_idx, values, minlength=n_judges)
    means = sums / np.maximum(counts, 1)
    centred = values - means[judge_idx]
    var = np.bincount(judge_idx, centred**2, minlength=n_judges) / np.maximum(counts, 1)
    sd = np.sqrt(var)
    # A judge who gave one value to everything carries no ranking information: 0.
    return np.where(sd[judge_idx] > 0, centred / np.where(sd > 0, sd, 1)[judge_idx], 0.0)


def collect_human_scores(
    project: Project,
    spec: str | HumanSpec,
    z: bool = False,
    mqm_weights: MqmWeights = GOOGLE_WEIGHTS,
    protocol: str | None = None,
    mqm_recompute: bool = False,
) -> HumanScores:
    """Collect the human score named by ``spec`` for every system and segment
    (``protocol``: the judgments of that protocol instead; ``mqm_recompute``: weigh
    the errors of MQM judgments that came with Unbabel's scores)."""
    if isinstance(spec, str):
        spec = parse_human_spec(spec)
    chosen = select_judgments(project, spec, protocol)
    field = spec.field or (
        "score" if any(j.score is not None or j.protocol == "mqm" for j in chosen) else "adequacy"
    )
    rows = _join_mqm_parts([(j, v) for j in chosen if (v := _value(j, field, mqm_weights, mqm_recompute)) is not None],
                           mqm_recompute)
    if not rows:
        raise DataError(f"the judgments selected by {spec.label!r} have no {field} values")
    systems = [s.id for s in project.systems]
    segments = project.segment_ids
    sys_pos = {s: i for i, s in enumerate(systems)}
    seg_pos = {s: i for i, s in enumerate(segments)}
    judges = sorted({j.judge for j, _ in rows})
    judge_pos = {s: i for i, s in enumerate(judges)}
    sys_i = np.array([sys_pos[j.system] for j, _ in rows], dtype=np.int64)
    seg_i = np.array([seg_pos[j.segment] for j, _ in rows], dtype=np.int64)
    jud_i = np.array([judge_pos[j.judge] for j, _ in rows], dtype=np.int64)
    values = np.array([v for _, v in rows], dtype=float)
    if z:
        values = z_transform(jud_i, values, len(judges))
    # Collapse repeats of one judge on one item to their mean; sort by item.
    key = (sys_i * len(segments) + seg_i) * len(judges) + jud_i
    uniq, inverse = np.unique(key, return_inverse=True)
    sums = np.bincount(inverse, values, minlength=len(uniq))
    counts = np.bincount(inverse, minlength=len(uniq))
    item, judge = np.divmod(uniq, len(judges))
    sys_out, seg_out = np.divmod(item, len(segments))
    return HumanScores(
        label=HumanSpec(spec.name, field).label + (" (z)" if z else ""),
        field=field,
        z=z,
        systems=systems,
        segments=segments,
        judges=judges,
        entries_system=sys_out,
        entries_segment=seg_out,
        entries_judge=judge,
        entries_value=sums / counts,
        system_values=_ranking_system_values(chosen, systems) if field == "score" else None,
    )


def _ranking_system_values(chosen: list[Judgment], systems: list[str]) -> np.ndarray | None:
    """Expected wins per system when every selected judgment belongs to a relative ranking
    (a segment's mean rank says little across screens of different systems)."""
    if not chosen or not all(j.protocol == "rank" and j.ranking for j in chosen):
        return None
    from mtworkbench.analysis.ranking_scores import system_scores
    from mtworkbench.core.ranking import group_ranked, ranking_from_judgments

    rankings = [ranking_from_judgments(group) for group in group_ranked(chosen).values()]
    return np.array([s.expected_wins for s in system_scores(rankings, systems)], dtype=float)


def level_pairs(
    metric_segments: np.ndarray,
    metric_systems: np.ndarray,
    human: HumanScores,
    level: str,
    system_rows: list[int] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(metric, human) arrays for a correlation at ``segment`` or ``system`` level.

    ``metric_segments`` is (n_systems, n_segments) of segment scores and
    ``metric_systems`` (n_systems,) of corpus scores, rows in ``human.systems``
    order (``system_rows`` restricts to some systems). Segment level pools every
    rated (system, segment) item (WMT's "no grouping"); system level pairs the
    corpus score with the mean human score over the system's rated segments.
    """
    rows = list(range(len(human.systems))) if system_rows is None else system_rows
    if level == "segment":
        m = np.asarray(metric_segments, float)[rows].ravel()
        h = human.matrix[rows].ravel()
    elif level == "system":
        m = np.asarray(metric_systems, float)[rows]
        h = human.system_scores()[rows]
    else:
        raise DataError(f"unknown level {level!r}; expected segment or system")
    keep = np.isfinite(h)
    return m[keep], h[keep]
