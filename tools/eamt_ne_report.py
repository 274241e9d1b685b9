"""Import the EA-MT validation data (../shared/data/eamt-ne) into projects and
report NEE of the GPT-4o outputs per locale and human-human agreement.

    .venv/bin/python tools/eamt_ne_report.py [DATA_DIR] [--save DIR] [--markdown]

Each locale becomes one project: a document per Wikidata item (QID), a
paragraph and a segment per question, reference k = the k-th human translation
(where the item has one), the entity mention of each translation annotated as
a span (annotator "ea-mt", type = the item's first entity type), and the
GPT-4o translation as system "gpt-4o". The mention is located in its
translation verbatim, else case-insensitively, else as the NEE-normalised
token sequence; a mention that starts or ends inside a word is widened to
the whole word (as the editor snaps a selection); mentions found none of these
ways stay unannotated (counted).

Reported per locale, all NEE with default normalisation and the locale's
number words, unit = segment (one question):
- NEE of GPT-4o against the entity of reference 1;
- the same where any reference's entity counts (the item is found when the
  output contains the entity of at least one reference, as EA-MT's M-ETA does);
- human-human agreement on items with two or more references: translation 2
  (a System of kind human) scored against reference 1's entity, and
  translation 1 against reference 2's, with GPT-4o on the same items.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mtworkbench.core.annotation import snap_to_words
from mtworkbench.core.model import (
    Document,
    EntitySpan,
    EntityTypeStyle,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.core.project_input import scoring_input
from mtworkbench.io.annotations.annotations import new_type_style
from mtworkbench.metrics.nee import NEE
from mtworkbench.metrics.nee_text import Normalisation, normalise_tokens

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "eamt-ne"
LOCALES = ("de_DE", "fr_FR", "es_ES", "it_IT")
ANNOTATOR = "ea-mt"


@dataclass
class LocaleProject:
    locale: str
    project: Project
    mentions: int  # reference translations with a mention
    located: dict[str, int]  # how each mention was found: exact, case, tokens, missing


def type_name(entity_type: str) -> str:
    """'TV series' -> 'TV_SERIES' (types must be one word in CoNLL and brat)."""
    return re.sub(r"\W+", "_", entity_type.strip()).strip("_").upper() or "ENTITY"


def locate(text: str, mention: str, lang: str) -> tuple[tuple[int, int] | None, str]:
    """Where ``mention`` is in ``text`` and how it was found."""
    i = text.find(mention)
    if mention and i >= 0:
        return (i, i + len(mention)), "exact"
    m = re.search(re.escape(mention), text, re.IGNORECASE) if mention else None
    if m:
        return m.span(), "case"
    norm = Normalisation(lang=lang)
    needle = [t.text for t in normalise_tokens(mention, norm)]
    tokens = normalise_tokens(text, norm)
    n = len(needle)
    for j in range(len(tokens) - n + 1) if n else ():
        if [t.text for t in tokens[j : j + n]] == needle:
            return (tokens[j].start, tokens[j + n - 1].end), "tokens"
    return None, "missing"


def load_locale(path: Path) -> LocaleProject:
    locale = path.stem
    lang = locale.split("_")[0]
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    docs: dict[str, Document] = {}
    for item in items:
        qid = item["id"].split("_")[0]
        doc = docs.setdefault(qid, Document(qid))
        doc.paragraphs.append(Paragraph(f"p:{item['id']}", [Segment(item["id"], item["source"])]))
    project = Project(documents=list(docs.values()), source_language="en", target_language=lang, name=f"eamt-ne {locale}")
    types = sorted({type_name(item["entity_types"][0]) for item in items})
    styles: list[EntityTypeStyle] = []
    for t in types:
        styles.append(new_type_style(styles, t))
    project.set_setting("entity_types", styles)
    n_refs = max(len(item["references"]) for item in items)
    for k in range(n_refs):
        texts = {item["id"]: item["references"][k]["translation"] for item in items if len(item["references"]) > k}
        project.add_reference(Reference(f"ref{k + 1}", translator=f"EA-MT translator {k + 1}", texts=texts))
    located = {"exact": 0, "case": 0, "tokens": 0, "missing": 0}
    mentions = 0
    for item in items:
        etype = type_name(item["entity_types"][0])
        for k, ref in enumerate(item["references"]):
            mentions += 1
            span, how = locate(ref["translation"], ref["mention"], lang)
            located[how] += 1
            if span is not None:
                # A mention glued to a neighbouring word ("Enteneis", "dansMax")
                # is annotated as the whole word, as the editor would snap it.
                span = snap_to_words(ref["translation"], *span)
                project.add_span(EntitySpan(project.new_id("e"), f"ref{k + 1}", item["id"], span[0], span[1], etype, ANNOTATOR))
    project.add_system(System("gpt-4o", "machine", {item["id"]: item["prediction"] or "" for item in items}))
    return LocaleProject(locale, project, mentions, located)


def human_subset(lp: LocaleProject) -> Project:
    """Items with two or more references, translations 1 and 2 also as human systems."""
    full = lp.project
    ref1, ref2 = full.reference("ref1"), full.reference("ref2")
    keep = [s.id for s in full.segments if s.id in ref2.texts]
    docs = []
    for doc in full.documents:
        pars = [Paragraph(p.id, [Segment(s.id, s.source) for s in p.segments]) for p in doc.paragraphs if p.segments[0].id in keep]
        if pars:
            docs.append(Document(doc.id, pars))
    sub = Project(documents=docs, source_language="en", target_language=full.target_language, name=full.name + " (2+ refs)")
    sub.set_setting("entity_types", list(full.settings.entity_types))
    for ref in (ref1, ref2):
        sub.add_reference(Reference(ref.id, ref.translator, {s: ref.texts[s] for s in keep}))
    for span in full.spans:
        if span.reference in ("ref1", "ref2") and span.segment in keep:
            sub.add_span(span)
    sub.add_system(System("gpt-4o", "machine", {s: full.system_text("gpt-4o", s) for s in keep}))
    sub.add_system(System("human-2", "human", {s: ref2.texts[s] for s in keep}))
    sub.add_system(System("human-1", "human", {s: ref1.texts[s] for s in keep}))
    return sub


def nee_against(project: Project, system: str, reference: str, lang: str) -> tuple[float, int, int]:
    data = scoring_input(project, system, reference_ids=[reference])
    score = NEE(unit="segment", lang=lang).score(data)
    found, total = score.stats.sum(axis=0)
    return score.corpus, int(found), int(total)


def nee_any_reference(project: Project, system: str, lang: str) -> tuple[float, int, int]:
    """An item counts as found when the output holds the entity of any of its references."""
    data = scoring_input(project, system)
    metric_found = np.zeros(data.n_segments)
    has_entity = np.zeros(data.n_segments, dtype=bool)
    for k in range(data.n_references):
        stats = NEE(unit="segment", lang=lang, reference=str(k + 1)).segment_statistics(data)
        metric_found = np.maximum(metric_found, stats[:, 0] > 0)
        has_entity |= stats[:, 1] > 0
    found, total = int(metric_found[has_entity].sum()), int(has_entity.sum())
    return found / total, found, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA), help=f"eamt-ne folder (default {DEFAULT_DATA})")
    parser.add_argument("--save", metavar="DIR", help="also write each locale's project bundle here")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    data_dir = Path(args.data)
    if not data_dir.is_dir():
        print(f"eamt-ne data not found at {data_dir}", file=sys.stderr)
        return 1
    rows = []
    for locale in LOCALES:
        path = data_dir / f"{locale}.jsonl"
        if not path.is_file():
            continue
        lp = load_locale(path)
        lang = locale.split("_")[0]
        gpt = nee_against(lp.project, "gpt-4o", "ref1", lang)
        gpt_any = nee_any_reference(lp.project, "gpt-4o", lang)
        sub = human_subset(lp)
        h21 = nee_against(sub, "human-2", "ref1", lang)
        h12 = nee_against(sub, "human-1", "ref2", lang)
        gpt_sub = nee_against(sub, "gpt-4o", "ref1", lang)
        rows.append((locale, len(lp.project.segments), lp.mentions, lp.located, gpt, gpt_any, len(sub.segments), h21, h12, gpt_sub))
        if args.save:
            from mtworkbench.io.bundle.bundle import save_bundle

            out = Path(args.save)
            out.mkdir(parents=True, exist_ok=True)
            save_bundle(lp.project, out / f"eamt-ne-{locale}.mtwb.json")
    pct = lambda t: f"{100 * t[0]:.1f} ({t[1]}/{t[2]})"  # noqa: E731
    header = ["locale", "items", "mentions located (exact/case/tokens/missing)", "NEE GPT-4o vs ref 1",
              "NEE GPT-4o, any ref", "items with 2+ refs", "human 2 vs ref 1", "human 1 vs ref 2", "GPT-4o vs ref 1 (same items)"]
    table = [
        [loc, str(n), "{exact}/{case}/{tokens}/{missing}".format(**located), pct(gpt), pct(gany), str(nsub), pct(h21), pct(h12), pct(gsub)]
        for loc, n, _, located, gpt, gany, nsub, h21, h12, gsub in rows
    ]
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in table:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(header[i]), *(len(r[i]) for r in table)) for i in range(len(header))]
        for r in [header] + table:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    print("\nNEE in % (found/total unique entities), unit = question, default normalisation "
          "(diacritics, case, numbers below 100 in the locale's language, possessives).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
