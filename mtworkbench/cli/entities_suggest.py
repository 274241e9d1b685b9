"""``mtworkbench entities suggest``: pre-annotate a reference with a local spaCy pipeline
(a subcommand of ``commands.entities``, so it lives outside ``cli.commands``).

    mtworkbench entities suggest BUNDLE --reference ID --model DIR --annotator NAME
        [--map GPE=LOCATION,...] [--accept-all] [-o OUT] [--json]

Without --accept-all it lists the suggestions the pipeline makes on the segments not yet
decided (nothing is saved); with it, each suggestion becomes a span of the annotator's layer and
is recorded as accepted (the bundle's ``suggestion_decisions``). The accept rate per label of the
decisions recorded so far is printed. Labels are mapped onto the project's entity types (the
OntoNotes names spaCy's English pipelines use map onto the MUC-7 types by default); suggestions
whose label the project has no type for are left out and counted.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from mtworkbench.cli import UsageError
from mtworkbench.core.errors import DataError
from mtworkbench.core.suggestions import ONTONOTES_TO_MUC


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("suggest", help="pre-annotate a reference with a spaCy pipeline folder you have")
    p.add_argument("bundle")
    p.add_argument("--reference", required=True)
    p.add_argument("--model", required=True, metavar="DIR",
                   help="a spaCy pipeline folder (what nlp.to_disk wrote); never downloaded, and refused "
                        "when its config names code outside spaCy's own components")
    p.add_argument("--annotator", required=True, help="the layer the suggestions are for")
    p.add_argument("--map", default="", metavar="LABEL=TYPE,...",
                   help="the pipeline's labels onto the project's types (added to the OntoNotes→MUC-7 defaults)")
    p.add_argument("--accept-all", action="store_true", help="accept every suggestion into the layer and save")
    p.add_argument("-o", "--output", help="with --accept-all: write the changed project here instead")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_suggest)


def _mapping(text: str) -> dict[str, str]:
    out = dict(ONTONOTES_TO_MUC)
    for part in filter(None, (x.strip() for x in text.split(","))):
        label, sep, kind = part.partition("=")
        if not sep or not label.strip() or not kind.strip():
            raise UsageError(f"--map expects LABEL=TYPE pairs separated by commas, not {part!r}")
        out[label.strip()] = kind.strip()
    return out


def run_suggest(args: argparse.Namespace) -> int:
    from mtworkbench.core.annotation import add_spans
    from mtworkbench.core.suggestions import accept_rates, decide, open_suggestions, relabelled
    from mtworkbench.io.annotations.spacy_pipeline import load_pipeline, suggest_entities
    from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
    from mtworkbench.io.bundle.locking import bundle_locks

    mapping = _mapping(args.map)
    out = Path(args.output or args.bundle)
    with bundle_locks(args.bundle, out):
        project = load_bundle(args.bundle)
        if not project.has_reference(args.reference):
            raise DataError(f"{args.bundle}: no reference {args.reference!r}")
        nlp = load_pipeline(args.model)
        texts = {sid: t for sid, t in project.reference(args.reference).texts.items() if t.strip()}
        found = relabelled(suggest_entities(nlp, texts, args.reference, f"spacy:{Path(args.model).name}"), mapping)
        known = set(project.entity_type_names)
        unknown = sorted({s.label for s in found if s.label not in known})
        usable = open_suggestions(project, [s for s in found if s.label in known], args.annotator,
                                  project.suggestion_decisions)
        accepted = 0
        if args.accept_all and usable:
            made = [decide(project, s, args.annotator) for s in usable]
            add_spans(project, [span for span, _ in made])
            project.suggestion_decisions.extend(d for _, d in made)
            accepted = len(made)
            save_bundle(project, out)
    rates = accept_rates(project.suggestion_decisions)
    if args.json:
        print(json.dumps({
            "reference": args.reference, "model": str(args.model),
            "suggestions": [{"segment": s.segment, "start": s.start, "end": s.end, "label": s.label,
                             "text": texts[s.segment][s.start:s.end]} for s in usable],
            "accepted": accepted, "unmapped_labels": unknown,
            "accept_rates": {r.label: {"accepted": r.accepted, "corrected": r.corrected, "rejected": r.rejected,
                                       "rate": r.rate} for r in rates},
        }, indent=2, ensure_ascii=False))
        return 0
    print(f"{len(usable)} suggestions on reference {args.reference} for {args.annotator}"
          + (f"; accepted {accepted} into the layer and saved {out}" if accepted else ""))
    if unknown:
        print(f"left out labels the project has no type for: {', '.join(unknown)} (map them with --map)")
    if not args.accept_all:
        for s in usable:
            print(f"  {s.segment}\t{s.start}-{s.end}\t{s.label}\t{texts[s.segment][s.start:s.end]}")
    for r in rates:
        rate = "-" if r.rate is None else f"{r.rate:.0%}"
        print(f"  accept rate {r.label}: {rate} ({r.accepted} accepted, {r.corrected} corrected, "
              f"{r.rejected} rejected)")
    return 0
