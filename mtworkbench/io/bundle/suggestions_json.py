"""The bundle's ``suggestion_decisions``: what the annotator made of each model suggestion.

Additive in format version 2 (as ``campaign`` and ``score_file``): written only when a project
has decisions, so bundles without them stay byte-identical. Each entry keeps the suggestion
(where, which label, from which source, its severity) and the decision: ``accepted`` as
suggested, ``corrected`` (``label`` is the one kept; ``span`` the span it became) or ``rejected``.
The span may since have been deleted: the entry is history, not a link that must resolve.
"""

from __future__ import annotations

from typing import Any

from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.model import Project
from mtworkbench.core.suggestions import DECISIONS, Suggestion, SuggestionDecision

_KEYS = {"source", "target", "segment", "start", "end", "label", "decision"}
_OPTIONAL = {"severity", "score", "span", "kept_label"}


def decisions_to_json(project: Project) -> list[dict[str, Any]]:
    out = []
    for d in project.suggestion_decisions:
        s = d.suggestion
        entry: dict[str, Any] = {"source": s.source, "target": s.target, "segment": s.segment, "start": s.start,
                                 "end": s.end, "label": s.label, "decision": d.decision}
        if s.severity:
            entry["severity"] = s.severity
        if s.score is not None:
            entry["score"] = s.score
        if d.span_id is not None:
            entry["span"] = d.span_id
        if d.label and d.label != s.label:
            entry["kept_label"] = d.label
        out.append(entry)
    return out


def read_decisions(r: JsonReader, value: Any, project: Project) -> None:
    decisions = []
    for i, e in enumerate(r.list(value, "$.suggestion_decisions")):
        p = f"$.suggestion_decisions[{i}]"
        r.keys(e, p, _KEYS, _OPTIONAL)
        target = r.ref_to(e["target"], f"{p}.target", project.has_reference, "reference")
        segment = r.ref_to(e["segment"], f"{p}.segment", project.has_segment, "segment")
        start, end = r.int(e["start"], f"{p}.start"), r.int(e["end"], f"{p}.end")
        text = project.reference(target).texts.get(segment)
        if text is None or not 0 <= start < end <= len(text):
            r.fail(f"suggestion {start}-{end} is outside the text of segment {segment!r}", f"{p}.end")
        decision = r.str(e["decision"], f"{p}.decision")
        if decision not in DECISIONS:
            r.fail(f"unknown decision {decision!r}; expected one of {', '.join(DECISIONS)}", f"{p}.decision")
        score = e.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
            r.fail(f"score must be a number, found {score!r}", f"{p}.score")
        suggestion = Suggestion(target, segment, start, end, r.str(e["label"], f"{p}.label"),
                                r.str(e["source"], f"{p}.source"), r.str(e.get("severity", ""), f"{p}.severity"),
                                None if score is None else float(score))
        span = r.str(e["span"], f"{p}.span") if "span" in e else None
        kept = r.str(e.get("kept_label", ""), f"{p}.kept_label") or (suggestion.label if span else "")
        decisions.append(SuggestionDecision(suggestion, decision, span, kept))
    project.suggestion_decisions = decisions
