"""Building a ``Project`` from a bundle's decoded (and migrated) JSON, section by section.

Each section of the bundle has one reader below, run in the order the
sections depend on each other: documents (the segment ids), then references
and systems (texts of those segments), settings, judges, entity spans,
judgments, the judges' queues and the additive extras. Every check names the
JSON path of the problem (``core.json_reader``); nothing is half-loaded, since
the project is only returned once every section was read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtworkbench.core.campaign_json import campaign_from_json
from mtworkbench.core.errors import BundleError
from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.learned_json import check_learned_model
from mtworkbench.core.metric_files import file_options_in_spec
from mtworkbench.core.model import (
    PROTOCOLS,
    RANK_RANGE,
    RATING_RANGE,
    SYSTEM_KINDS,
    Document,
    EntityTypeStyle,
    ErrorSpan,
    Judgment,
    ModelError,
    Paragraph,
    Project,
    Reference,
    Segment,
    Settings,
    System,
)
from mtworkbench.core.mqm_typology import typology_from_json
from mtworkbench.core.queue_state import JudgeQueue
from mtworkbench.core.suggested_spans import SpanOutcome
from mtworkbench.io.bundle.layers_json import read_layers, read_relations, read_span
from mtworkbench.io.bundle.score_file_name import score_file_problem
from mtworkbench.io.bundle.suggestions_json import read_decisions
from mtworkbench.io.scores.external_scores import check_bundle_value

TOP_LEVEL_REQUIRED = frozenset({"format", "format_version", "documents", "references", "systems"})
TOP_LEVEL_OPTIONAL = frozenset({"name", "source_language", "target_language", "judges", "entity_spans", "judgments",
                                "settings", "judge_queues", "learned_model", "external_scores", "campaign",
                                "score_file", "suggestion_decisions", "relations"})
JUDGMENT_OPTIONAL = frozenset({"reference", "adequacy", "fluency", "score", "scale", "timestamp", "seconds",
                               "comment", "protocol", "errors", "qc", "text", "ranking", "suggestions"})


def read_project(data: Any, file: str | None = None) -> Project:
    """The project a bundle dict of the current format version describes."""
    r = JsonReader(file)
    r.keys(data, "$", TOP_LEVEL_REQUIRED, TOP_LEVEL_OPTIONAL)
    project = Project(
        documents=read_documents(r, data["documents"]),
        name=r.str(data.get("name", ""), "$.name"),
        source_language=r.str(data.get("source_language", ""), "$.source_language"),
        target_language=r.str(data.get("target_language", ""), "$.target_language"),
    )
    read_references(r, data["references"], project)
    read_systems(r, data["systems"], project)
    read_rest(r, data, project)
    return project


def read_rest(r: JsonReader, data: dict[str, Any], project: Project) -> None:
    """Every section after the texts (settings to the extras), into ``project``."""
    project.settings = read_settings(r, data.get("settings", {}), project)
    read_judges(r, data.get("judges", []), project)
    read_spans(r, data.get("entity_spans", []), project)
    read_relations(r, data.get("relations", []), project)
    read_judgments(r, data.get("judgments", []), project)
    read_queues(r, data.get("judge_queues", {}), project)
    read_extras(r, data, project)


# --- texts ------------------------------------------------------------------------------
def read_documents(r: JsonReader, value: Any) -> list[Document]:
    documents: list[Document] = []
    seen_segments: set[str] = set()
    seen_docs: set[str] = set()
    seen_pars: set[str] = set()
    for di, d in enumerate(r.list(value, "$.documents")):
        dp = f"$.documents[{di}]"
        r.keys(d, dp, {"id", "paragraphs"}, {"attributes"})
        doc_id = r.ident(d["id"], f"{dp}.id")
        if doc_id in seen_docs:
            r.fail(f"duplicate document id {doc_id!r}", f"{dp}.id")
        seen_docs.add(doc_id)
        attributes = r.obj(d.get("attributes", {}), f"{dp}.attributes")
        for k, v in attributes.items():
            r.str(v, f"{dp}.attributes.{k}")
        paragraphs = []
        for pi, p in enumerate(r.list(d["paragraphs"], f"{dp}.paragraphs")):
            pp = f"{dp}.paragraphs[{pi}]"
            r.keys(p, pp, {"id", "segments"})
            par_id = r.ident(p["id"], f"{pp}.id")
            if par_id in seen_pars:
                r.fail(f"duplicate paragraph id {par_id!r}", f"{pp}.id")
            seen_pars.add(par_id)
            segments = []
            for si, s in enumerate(r.list(p["segments"], f"{pp}.segments")):
                # The common case in a few type checks; anything unusual takes the checks below
                # that name the problem (the path strings cost more than the checks themselves).
                if type(s) is dict and len(s) == 2 and "id" in s and "source" in s:
                    seg_id, source = s["id"], s["source"]
                    if (type(seg_id) is str and type(source) is str and seg_id not in seen_segments
                            and seg_id.strip()):
                        seen_segments.add(seg_id)
                        segments.append(Segment(seg_id, source))
                        continue
                sp = f"{pp}.segments[{si}]"
                r.keys(s, sp, {"id", "source"})
                seg_id = r.ident(s["id"], f"{sp}.id")
                if seg_id in seen_segments:
                    first = _first_at(value, seg_id)
                    r.fail(f"duplicate segment id {seg_id!r} (first at {first})", f"{sp}.id")
                seen_segments.add(seg_id)
                segments.append(Segment(seg_id, r.str(s["source"], f"{sp}.source")))
            paragraphs.append(Paragraph(par_id, segments))
        documents.append(Document(doc_id, paragraphs, dict(attributes)))
    return documents


def _first_at(documents: list[Any], seg_id: str) -> str:
    """The path of the first segment with the id ``seg_id`` (read, so every level is well-formed)."""
    return next(f"$.documents[{di}].paragraphs[{pi}].segments[{si}]"
                for di, d in enumerate(documents) for pi, p in enumerate(d["paragraphs"])
                for si, s in enumerate(p["segments"]) if s["id"] == seg_id)


def _texts(r: JsonReader, value: Any, path: str, project: Project, known: set[str],
           complete: bool) -> dict[str, str]:
    """A reference's or system's texts by segment id (``known``: every segment's); a system
    (``complete``) has every segment."""
    obj = r.obj(value, path)
    # Checked in C first (a key view against the index, the set of the values' types); only a
    # section that fails is walked entry by entry to name its first problem.
    if not (obj.keys() <= known and set(map(type, obj.values())) <= {str}):
        for seg_id, text in obj.items():
            if seg_id not in known:
                r.fail(f"text for unknown segment {seg_id!r}", f"{path}.{seg_id}")
            r.str(text, f"{path}.{seg_id}")
    if complete and len(obj) < len(known):
        missing = next(seg.id for seg in project.segments if seg.id not in obj)
        r.fail(f"missing text for segment {missing!r}", path)
    return dict(obj)


def read_references(r: JsonReader, value: Any, project: Project) -> None:
    known = {seg.id for seg in project.segments}
    for ri, ref in enumerate(r.list(value, "$.references")):
        rp = f"$.references[{ri}]"
        r.keys(ref, rp, {"id", "texts"}, {"translator"})
        ref_id = r.ident(ref["id"], f"{rp}.id")
        if project.has_reference(ref_id):
            r.fail(f"duplicate reference id {ref_id!r}", f"{rp}.id")
        project.add_reference(Reference(ref_id, r.str(ref.get("translator", ""), f"{rp}.translator"),
                                        _texts(r, ref["texts"], f"{rp}.texts", project, known, complete=False)))


def read_systems(r: JsonReader, value: Any, project: Project) -> None:
    known = {seg.id for seg in project.segments}
    for si, sys_ in enumerate(r.list(value, "$.systems")):
        sp = f"$.systems[{si}]"
        r.keys(sys_, sp, {"id", "texts"}, {"kind"})
        sys_id = r.ident(sys_["id"], f"{sp}.id")
        if project.has_system(sys_id):
            r.fail(f"duplicate system id {sys_id!r}", f"{sp}.id")
        kind = r.str(sys_.get("kind", "machine"), f"{sp}.kind")
        if kind not in SYSTEM_KINDS:
            r.fail(f"kind must be one of {', '.join(SYSTEM_KINDS)}, found {kind!r}", f"{sp}.kind")
        project.add_system(System(sys_id, kind, _texts(r, sys_["texts"], f"{sp}.texts", project, known, complete=True)))


# --- settings and people ----------------------------------------------------------------
def read_settings(r: JsonReader, value: Any, project: Project) -> Settings:
    r.keys(value, "$.settings", set(), {"metrics", "baseline", "entity_types", "mqm_typology", "mqm_max_errors",
                                              "span_layers", "relation_layers"})
    settings = Settings()
    read_layers(r, value, settings)
    if "mqm_typology" in value:
        settings.mqm_typology = typology_from_json(value["mqm_typology"], "$.settings.mqm_typology", r.file)
    if "mqm_max_errors" in value:
        settings.mqm_max_errors = r.int(value["mqm_max_errors"], "$.settings.mqm_max_errors")
        if settings.mqm_max_errors < 1:
            r.fail(f"expected a positive integer, found {settings.mqm_max_errors}", "$.settings.mqm_max_errors")
    if "metrics" in value:
        settings.metrics = r.str_list(value["metrics"], "$.settings.metrics")
        for i, spec in enumerate(settings.metrics):
            _refuse_file_options(r, spec, f"$.settings.metrics[{i}]")
    baseline = value.get("baseline")
    if baseline is not None:
        settings.baseline = r.ref_to(baseline, "$.settings.baseline", project.has_system, "system")
    if "entity_types" in value:
        settings.entity_types = _read_entity_types(r, value["entity_types"])
    return settings


def _read_entity_types(r: JsonReader, value: Any) -> list[EntityTypeStyle]:
    from mtworkbench.io.bundle.layers_json import read_types

    return read_types(r, value, "$.settings.entity_types")


def _refuse_file_options(r: JsonReader, spec: str, path: str) -> None:
    """A bundle never makes the program open a path it names (``learned:model=PATH``).

    Such options are for the command line and the app's settings dialog, where a
    person types the path; in a bundle they are refused at load.
    """
    for option in file_options_in_spec(spec):
        name = spec.strip().partition(":")[0].strip()
        r.fail(f"metric {spec!r} names a file ({option}=...); a bundle may not make mtworkbench open a path - "
               f"remove the option from the bundle and give it on the command line "
               f"(--metric '{name}:{option}=PATH') or in the Metrics settings", path)


def read_judges(r: JsonReader, value: Any, project: Project) -> None:
    for ji, judge in enumerate(r.list(value, "$.judges")):
        jp = f"$.judges[{ji}]"
        name = r.ident(judge, jp)
        if name in project.judges:
            r.fail(f"duplicate judge {name!r}", jp)
        project.add_judge(name)


# --- work -------------------------------------------------------------------------------
def read_spans(r: JsonReader, value: Any, project: Project) -> None:
    for i, s in enumerate(r.list(value, "$.entity_spans")):
        p = f"$.entity_spans[{i}]"
        span = read_span(r, s, p, project)
        try:
            text = project.span_text(span)
        except ModelError as exc:
            r.fail(str(exc), f"{p}.reference" if span.reference else p)
        if text is None:
            r.fail(f"{span.reference!r} has no text for segment {span.segment!r}", p)
        if not 0 <= span.start < span.end <= len(text):
            r.fail(f"span {span.start}-{span.end} is outside its text (length {len(text)})", f"{p}.end")
        _model_checked(r, lambda: project.add_span(span), p)  # noqa: B023 - called at once


def read_judgments(r: JsonReader, value: Any, project: Project) -> None:
    rankings: dict[str, tuple[Judgment, set[str]]] = {}  # ranking id -> its first judgment, systems
    for i, j in enumerate(r.list(value, "$.judgments")):
        p = f"$.judgments[{i}]"
        judgment = read_judgment(r, j, p, project)
        if judgment.ranking:
            _check_ranking_judgment(r, judgment, p, rankings)
        _model_checked(r, lambda: project.add_judgment(judgment), p)  # noqa: B023 - called at once


def read_judgment(r: JsonReader, j: Any, p: str, project: Project) -> Judgment:
    r.keys(j, p, {"id", "judge", "system", "segment"}, JUDGMENT_OPTIONAL)
    protocol = r.str(j.get("protocol", ""), f"{p}.protocol")
    if protocol and protocol not in PROTOCOLS:
        r.fail(f"unknown protocol {protocol!r}; expected one of {', '.join(PROTOCOLS)}", f"{p}.protocol")
    errors = tuple(_read_error(r, e, f"{p}.errors[{k}]")
                   for k, e in enumerate(r.list(j.get("errors", []), f"{p}.errors")))
    return Judgment(
        id=r.ident(j["id"], f"{p}.id"),
        judge=r.ref_to(j["judge"], f"{p}.judge", lambda x: x in project.judges, "judge"),
        system=r.ref_to(j["system"], f"{p}.system", project.has_system, "system"),
        segment=r.ref_to(j["segment"], f"{p}.segment", project.has_segment, "segment"),
        reference=None if j.get("reference") is None else r.ref_to(
            j["reference"], f"{p}.reference", project.has_reference, "reference"),
        adequacy=_rating(r, j.get("adequacy"), f"{p}.adequacy"),
        fluency=_rating(r, j.get("fluency"), f"{p}.fluency"),
        score=None if j.get("score") is None else r.number(j["score"], f"{p}.score"),
        scale=r.optional_str(j.get("scale"), f"{p}.scale"),
        timestamp=r.str(j.get("timestamp", ""), f"{p}.timestamp"),
        seconds=r.number(j.get("seconds", 0.0), f"{p}.seconds"),
        comment=r.str(j.get("comment", ""), f"{p}.comment"),
        protocol=protocol,
        errors=errors,
        suggestions=tuple(SpanOutcome.from_json(o, f"{p}.suggestions[{k}]", r, len(errors))
                          for k, o in enumerate(r.list(j.get("suggestions", []), f"{p}.suggestions"))),
        qc=r.str(j.get("qc", ""), f"{p}.qc"),
        text=r.optional_str(j.get("text"), f"{p}.text"),
        ranking=r.str(j.get("ranking", ""), f"{p}.ranking"),
    )


def _rating(r: JsonReader, value: Any, path: str) -> int | None:
    if value is None:
        return None
    lo, hi = RATING_RANGE
    rating = r.int(value, path)
    if not lo <= rating <= hi:
        r.fail(f"rating out of range: expected {lo} to {hi}, found {rating}", path)
    return rating


def _check_ranking_judgment(r: JsonReader, j: Judgment, path: str,
                            seen: dict[str, tuple[Judgment, set[str]]]) -> None:
    """A relative-ranking judgment (core.ranking): protocol rank, a whole rank 1-5, and the same
    judge, segment and reference as the other judgments of its ranking, each system once."""
    lo, hi = RANK_RANGE
    if j.protocol != "rank":
        r.fail(f"a judgment of ranking {j.ranking!r} needs protocol 'rank', found {j.protocol!r}", f"{path}.protocol")
    if j.score is None or not lo <= j.score <= hi or j.score != int(j.score):
        r.fail(f"expected the rank, a whole number from {lo} to {hi}, found {j.score!r}", f"{path}.score")
    first, systems = seen.setdefault(j.ranking, (j, set()))
    for name in ("judge", "segment", "reference"):
        if getattr(j, name) != getattr(first, name):
            r.fail(f"ranking {j.ranking!r}: {getattr(j, name)!r} differs from the {name} "
                   f"{getattr(first, name)!r} of judgment {first.id!r} of the same ranking", f"{path}.{name}")
    if j.system in systems:
        r.fail(f"ranking {j.ranking!r} ranks system {j.system!r} twice", f"{path}.system")
    systems.add(j.system)


def _read_error(r: JsonReader, e: Any, path: str) -> ErrorSpan:
    r.keys(e, path, {"start", "end", "severity"}, {"category", "comment", "source_start", "source_end"})

    def offset(name: str) -> int | None:
        value = e.get(name)
        return None if value is None else r.int(value, f"{path}.{name}")

    return ErrorSpan(
        start=offset("start"),
        end=offset("end"),
        severity=r.str(e["severity"], f"{path}.severity"),
        category=r.str(e.get("category", ""), f"{path}.category"),
        comment=r.str(e.get("comment", ""), f"{path}.comment"),
        source_start=offset("source_start"),
        source_end=offset("source_end"),
    )


def read_queues(r: JsonReader, value: Any, project: Project) -> None:
    for judge, queue in r.obj(value, "$.judge_queues").items():
        if judge not in project.judges:
            r.fail(f"queue for unknown judge {judge!r}", f"$.judge_queues.{judge}")
        project.set_judge_queue(judge, JudgeQueue.from_json(queue, f"$.judge_queues.{judge}", r.file))


def read_extras(r: JsonReader, data: dict[str, Any], project: Project) -> None:
    """The additive sections: learned model, external scores, campaign, score file name."""
    learned = data.get("learned_model")
    project.set_learned_model(None if learned is None else check_learned_model(learned, "$.learned_model", r.file))
    if data.get("external_scores"):
        project.external_scores = check_bundle_value(data["external_scores"], project, r.file)
    if data.get("campaign") is not None:
        project.campaign = campaign_from_json(data["campaign"], project, r.file)
    if "suggestion_decisions" in data:
        read_decisions(r, data["suggestion_decisions"], project)
    if "score_file" in data:
        project.score_file = r.str(data["score_file"], "$.score_file")
        problem = score_file_problem(project.score_file)
        if problem is not None:
            r.fail(f"{problem}, found {project.score_file!r}", "$.score_file")


def _model_checked(r: JsonReader, action: Callable[[], None], path: str) -> None:
    """Run a ``Project`` edit; its own consistency check's refusal names the JSON path."""
    try:
        action()
    except ModelError as exc:
        raise BundleError(str(exc), path, r.file) from None


__all__ = ["read_project", "read_rest"]
