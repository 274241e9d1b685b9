"""A small project over the fixture pairs with MQM raters' error spans, for the tests of
xCOMET's spans beside the raters' (CLI, Analysis and Metrics workspaces)."""

from __future__ import annotations

from pathlib import Path

from mtworkbench.core.model import (
    Document,
    ErrorSpan,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from tests.metrics.neural.fixtures import columns, copy_model

# (segment index, start, end, severity) of rater "ana" on system A, and of "bo"; rater spans
# partly overlap the fixture xCOMET's spans on zh-en (0-11 critical, 14-31 critical, ... in segment 0).
RATER_SPANS = {
    "ana": [(0, 4, 11, "major"), (1, 3, 6, "minor"), (2, 5, 13, "major")],
    "bo": [(0, 40, 58, "minor"), (2, 0, 4, "minor")],
}


def span_project(pair: str = "zh-en", systems: tuple[str, ...] = ("A", "B")) -> Project:
    src, mt, ref = columns(pair)
    segs = [Segment(f"s{i}", text) for i, text in enumerate(src)]
    outputs = {"A": mt, "B": [t[::-1] for t in mt]}
    project = Project(
        documents=[Document("d1", [Paragraph("p1", segs)])],
        references=[Reference("r1", texts={s.id: r for s, r in zip(segs, ref)})],
        systems=[System(name, texts={s.id: t for s, t in zip(segs, outputs[name])}) for name in systems],
    )
    for rater, spans in RATER_SPANS.items():
        project.add_judge(rater)
        for k, seg in enumerate(segs):
            n = len(outputs["A"][k])  # spans fit the output (Chinese outputs are short)
            errors = tuple(ErrorSpan(min(a, n - 1), min(b, n), sev, "accuracy/mistranslation")
                           for i, a, b, sev in spans if i == k)
            project.add_judgment(Judgment(project.new_id("j"), rater, "A", seg.id, scale="mqm", protocol="mqm",
                                          errors=errors))
    return project


def register_xcomet(tmp_path: Path, name: str = "tiny-xcomet") -> Path:
    """The fixture xCOMET copied under ``tmp_path`` and registered as ``name`` (in the registry
    $MTWB_CONFIG_DIR names: the tests point it at a temporary folder)."""
    from mtworkbench.metrics.neural.models import add_model

    folder = copy_model("comet-xcomet", tmp_path / "models", "xcomet")
    add_model(name, folder)
    return folder
