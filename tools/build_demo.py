"""Rebuild resources/demo/demo.mtwb.json from ../shared/data/mlqe-et-en (CC0).

The first 50 segments: Estonian source, both English references and the MT
output, split into two documents of five-segment paragraphs so the navigator
has structure to show. Run: .venv/bin/python tools/build_demo.py [SHARED_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle import save_bundle
from mtworkbench.io.plaintext import read_lines

ROOT = Path(__file__).resolve().parents[1]
N_SEGMENTS = 50
PER_DOCUMENT = 25
PER_PARAGRAPH = 5


def build(shared: Path) -> Project:
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
    for k, texts in enumerate(refs, 1):
        project.add_reference(Reference(f"ref-{k}", f"translator {k}", dict(zip(ids, texts))))
    project.add_system(System("mt", "machine", dict(zip(ids, mt))))
    return project


if __name__ == "__main__":
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared"
    out = ROOT / "resources" / "demo" / "demo.mtwb.json"
    save_bundle(build(shared), out)
    scores = read_lines(shared / "data" / "mlqe-et-en" / "da-z.scores")[:N_SEGMENTS]
    (out.parent / "da-z.scores").write_text("".join(f"{line}\n" for line in scores), encoding="utf-8")
    out.with_name(out.name + ".bak").unlink(missing_ok=True)
    print(f"wrote {out}")
