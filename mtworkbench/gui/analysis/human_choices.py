"""Which human scores a project offers, as ``NAME:FIELD`` specs with readable labels.

Every judge, every score scale that is not also a judge's name, and "all"
judges, each with the fields its judgments actually carry (adequacy, fluency,
a numeric score). The spec is what ``collect_human_scores`` and the CLI's
``--human`` take.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtworkbench.core.model import Judgment, Project

FIELDS = ("adequacy", "fluency", "score")


@dataclass(frozen=True)
class HumanChoice:
    spec: str
    label: str
    count: int  # judgments that carry the field


def _fields(judgments: list[Judgment]) -> list[tuple[str, int]]:
    out = []
    for name in FIELDS:
        n = sum(1 for j in judgments if getattr(j, name) is not None)
        if n:
            out.append((name, n))
    return out


def human_choices(project: Project) -> list[HumanChoice]:
    judgments = project.judgments
    if not judgments:
        return []
    choices: list[HumanChoice] = []
    judges = sorted({j.judge for j in judgments})
    scales = sorted({j.scale for j in judgments if j.scale and j.scale not in judges})
    if len(judges) > 1:
        for name, n in _fields(judgments):
            choices.append(HumanChoice(f"all:{name}", f"all judges · {name} ({n})", n))
    for judge in judges:
        for name, n in _fields([j for j in judgments if j.judge == judge]):
            choices.append(HumanChoice(f"{judge}:{name}", f"judge {judge} · {name} ({n})", n))
    for scale in scales:
        for name, n in _fields([j for j in judgments if j.scale == scale]):
            choices.append(HumanChoice(f"{scale}:{name}", f"scale {scale} · {name} ({n})", n))
    return choices
