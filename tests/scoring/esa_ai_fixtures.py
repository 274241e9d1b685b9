"""A Chinese-English project and the small xCOMET fixture registered in a temporary registry,
for the tests of model error spans as a judge's suggestions."""

from __future__ import annotations

from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.metrics.neural.models import add_model
from tests.metrics.neural.fixtures import columns, copy_model

MODEL = "xcomet-mini"
SPEC = f"comet:model={MODEL},device=cpu,batch_size=2"


def register_xcomet(tmp_path, monkeypatch) -> str:
    """The fixture xCOMET registered as ``MODEL`` in a registry of its own; returns the spec."""
    monkeypatch.setenv("MTWB_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))
    add_model(MODEL, copy_model("comet-xcomet", tmp_path / "models"))
    return SPEC


def zh_en_project(pair: str = "zh-en") -> Project:
    src, mt, ref = columns(pair)
    segments = [Segment(f"s{k + 1}", text) for k, text in enumerate(src)]
    project = Project([Document("d1", [Paragraph("p1", segments)])], source_language=pair[:2],
                      target_language=pair[3:])
    project.add_reference(Reference("ref", texts={s.id: r for s, r in zip(segments, ref)}))
    project.add_system(System("A", texts={s.id: h for s, h in zip(segments, mt)}))
    return project
