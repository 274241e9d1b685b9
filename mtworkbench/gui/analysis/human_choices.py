"""Which human scores a project offers, as ``NAME:FIELD`` specs with readable labels.

Every judge, every score scale that is not also a judge's name, every
protocol of span or slider judgments (mqm, esa, da) that is neither, and "all"
judges, each with the fields its judgments actually carry (adequacy, fluency,
a numeric score; an MQM judgment's score follows from its error spans). The spec is what ``collect_human_scores`` and the CLI's
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
        n = sum(1 for j in judgments if not j.qc and (
            getattr(j, name) is not None or (name == "score" and j.protocol == "mqm")))
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
    for protocol in ("mqm", "esa", "da"):
        if protocol in judges or protocol in scales:
            continue
        for name, n in _fields([j for j in judgments if j.protocol == protocol]):
            choices.append(HumanChoice(f"{protocol}:{name}", f"protocol {protocol} · {name} ({n})", n))
    return choices
