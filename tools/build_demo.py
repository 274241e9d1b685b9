"""Rebuild resources/demo/demo.mtwb.json from ../shared/data/mlqe-et-en (CC0).

The first 50 segments: Estonian source, the first English reference and the
MT output, split into two documents of five-segment paragraphs so the
navigator has structure to show. So that every view has something to show on
first start, the demo also carries:

- the second English reference as a human system ``human-ref2`` (a second
  system to compare with; kept out of the references so it is not scored
  against itself);
- named entities in the reference by two annotators (``annotator-1``,
  ``annotator-2``, with a few deliberate disagreements, from
  ``tools/demo_entities.py``) and the ``adjudicated`` layer made from them
  with the project's own comparison and adjudication code;
- the real direct-assessment z-scores of ``mt`` as the pseudo-judge ``da``;
- a few illustrative LDC ratings by ``demo-judge-1`` and ``demo-judge-2`` on
  overlapping items (derived from the DA scores, so not real judgments).

Beside it, ``demo.mtwb.scores.npz``: the demo's metric scores as the app's score file
holds them, so the corpus table shows them at once. The program only reads it (an
untitled copy starts from it); its entries are keyed by the metrics' source, so a change
under mtworkbench/metrics makes it stale (tests/test_demo_score_file.py says so): run this again.

Run: .venv/bin/python tools/build_demo.py [SHARED_DIR]
     .venv/bin/python tools/build_demo.py --scores-only   (only the score file, from the bundle as it is)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import demo_entities as ents  # noqa: E402

from mtworkbench.core.adjudication import agreed_spans, copy_to_layer  # noqa: E402
from mtworkbench.core.annotation import add_spans, compare_annotators  # noqa: E402
from mtworkbench.core.model import (  # noqa: E402
    Document,
    EntitySpan,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.io.bundle.bundle import save_bundle  # noqa: E402
from mtworkbench.io.corpora.plaintext import read_lines  # noqa: E402
from mtworkbench.io.judgments.judgments import apply_import, plan_score_lines  # noqa: E402
from mtworkbench.scoring.shipped_scores import write_score_file  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
N_SEGMENTS = 50
PER_DOCUMENT = 25
PER_PARAGRAPH = 5
REFERENCE = "ref-1"
LAYER_1, LAYER_2, ADJUDICATED = "annotator-1", "annotator-2", "adjudicated"
DA_JUDGE = "da"
TIMESTAMP = "2026-01-01T00:00:00Z"


def build_corpus(shared: Path) -> Project:
    data = shared / "data" / "mlqe-et-en"
    src = read_lines(data / "src.et")[:N_SEGMENTS]
    refs = [read_lines(data / f"ref-{k}.en")[:N_SEGMENTS] for k in (1, 2)]
    mt = read_lines(data / "mt.en")[:N_SEGMENTS]
    ids = [str(i) for i in range(1, N_SEGMENTS + 1)]
    documents = []
    for d in range(N_SEGMENTS // PER_DOCUMENT):
        paragraphs = []
        for p in range(PER_DOCUMENT // PER_PARAGRAPH):
            start = d * PER_DOCUMENT + p * PER_PARAGRAPH
            segs = [Segment(ids[i], src[i]) for i in range(start, start + PER_PARAGRAPH)]
            paragraphs.append(Paragraph(f"d{d + 1}p{p + 1}", segs))
        documents.append(Document(f"mlqe-et-en part {d + 1}", paragraphs, {"origin": "MLQE-PE et-en (CC0)"}))
    project = Project(documents=documents, source_language="et", target_language="en", name="MLQE-PE et-en demo")
    project.add_reference(Reference(REFERENCE, "translator 1", dict(zip(ids, refs[0]))))
    project.add_system(System("mt", "machine", dict(zip(ids, mt))))
    project.add_system(System("human-ref2", "human", dict(zip(ids, refs[1]))))
    return project


def _spans(project: Project, rows, annotator: str) -> list[EntitySpan]:
    """Every whole-word occurrence of each row's text in its segment of the reference."""
    out = []
    for segment, surface, etype in rows:
        text = project.reference_text(REFERENCE, segment) or ""
        found = [m.span() for m in re.finditer(rf"(?<!\w){re.escape(surface)}(?!\w)", text)]
        if not found:
            raise SystemExit(f"demo_entities: {surface!r} is not in segment {segment} of {REFERENCE}")
        for start, end in found:
            out.append(EntitySpan(project.new_id("e"), REFERENCE, segment, start, end, etype, annotator))
    return out


def annotate(project: Project) -> None:
    add_spans(project, _spans(project, ents.ANNOTATOR_1, LAYER_1))
    rows_2 = []
    for segment, surface, etype in ents.ANNOTATOR_1:
        key = (segment, surface)
        if key in ents.DROPPED_BY_2:
            continue
        if key in ents.REPLACED_BY_2:
            rows_2.append((segment, *ents.REPLACED_BY_2[key]))
            continue
        rows_2.append((segment, surface, ents.RETYPED_BY_2.get(key, etype)))
    add_spans(project, _spans(project, rows_2 + ents.ADDED_BY_2, LAYER_2))
    # Adjudicate as the Compare annotators tab does: the agreed spans, then one
    # side's decision at each disagreement.
    comparison = compare_annotators(project, REFERENCE, LAYER_1, LAYER_2)
    add_spans(project, copy_to_layer(project, agreed_spans(comparison), ADJUDICATED))
    decided = [s for s in comparison.only_a if s.segment not in ents.TAKE_B]
    decided += [s for s in comparison.only_b if s.segment in ents.TAKE_B]
    add_spans(project, copy_to_layer(project, decided, ADJUDICATED))


def _ldc(z: float) -> int:
    """A 1-5 adequacy for a DA z-score (illustrative only)."""
    return 1 + sum(z >= cut for cut in (-1.0, -0.3, 0.3, 0.9))


def rate(project: Project, da: list[str]) -> None:
    """Illustrative LDC ratings by two demo judges on overlapping items."""
    ids = project.segment_ids
    z = {sid: float(v) for sid, v in zip(ids, da)}
    n = 0
    plans = {"demo-judge-1": ids[0:10], "demo-judge-2": ids[4:14]}
    for judge, segments in plans.items():
        project.add_judge(judge)
        lean = 0 if judge == "demo-judge-1" else 1  # the second judge is a little stricter
        for k, sid in enumerate(segments):
            for system in ("mt", "human-ref2"):
                base = _ldc(z[sid]) if system == "mt" else 5 - (len(sid) + k) % 2
                adequacy = max(1, min(5, base - (lean if k % 3 == 0 else 0)))
                fluency = max(1, min(5, adequacy + (1 if system == "mt" and k % 2 else 0) - lean * (k % 4 == 1)))
                n += 1
                project.add_judgment(
                    Judgment(f"demo-j{n}", judge, system, sid, REFERENCE, adequacy, fluency,
                             timestamp=TIMESTAMP, seconds=20.0 + (n * 7) % 30, comment="demo rating")
                )


def build(shared: Path, scores_file: Path) -> Project:
    project = build_corpus(shared)
    annotate(project)
    apply_import(project, plan_score_lines(project, DA_JUDGE, "mt", scores_file, "da-z"))
    rate(project, read_lines(scores_file))
    project.settings.metrics = ["bleu", "chrf", "ter", "nist", "gtm", "meteor", "nee"]
    project.settings.baseline = "mt"
    return project


if __name__ == "__main__":
    out = ROOT / "resources" / "demo" / "demo.mtwb.json"
    if sys.argv[1:] == ["--scores-only"]:  # the bundle as it is; its score file again (after a metrics change)
        print(f"wrote {write_score_file(out)}")
        sys.exit(0)
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared"
    scores = read_lines(shared / "data" / "mlqe-et-en" / "da-z.scores")[:N_SEGMENTS]
    scores_file = out.parent / "da-z.scores"
    scores_file.write_text("".join(f"{line}\n" for line in scores), encoding="utf-8")
    save_bundle(build(shared, scores_file), out)
    out.with_name(out.name + ".bak").unlink(missing_ok=True)
    out.with_name(f".{out.name}.lock").unlink(missing_ok=True)  # the save's lock file is no resource
    print(f"wrote {out}")
    written = write_score_file(out)
    print(f"wrote {written}")
