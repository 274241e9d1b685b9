"""Judgments as JSON Lines: one judgment a line, every field as the bundle keeps it (error spans
with their categories and source-side offsets, a model's suggested spans with what the judge did
with each, quality-control copies, rankings), so any protocol round-trips without loss.

Read back, each line is checked as a bundle's judgment is (``io.bundle.bundle_read``), naming
the line and the field; judges not in the project are added; ids are the project's own (a
file's ids may collide with it), so a line's ``id`` is only checked to be there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mtworkbench.core.errors import BundleError, DataError
from mtworkbench.core.model import Project


class _WithJudges:
    """The project as the judgment reader sees it, with the file's new judges known."""

    def __init__(self, project: Project, judges: list[str]) -> None:
        self._project = project
        self.judges = [*project.judges, *judges]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._project, name)


def judgments_jsonl(project: Project) -> str:
    from mtworkbench.io.bundle.bundle import judgment_to_json
    from mtworkbench.io.judgments.judgments_export import ordered_judgments

    return "".join(json.dumps(judgment_to_json(j), ensure_ascii=False) + "\n" for j in ordered_judgments(project))


def export_jsonl(project: Project, path: str | Path, raw: bool = False) -> int:
    """Every judgment, a JSON object a line (``raw`` changes nothing: JSON has no formulas)."""
    from mtworkbench.core.output import write_output

    write_output(path, judgments_jsonl(project))
    return len(project.judgments)


def plan_jsonl_file(project: Project, path: str | Path):
    """The judges and judgments a JSON Lines file adds (nothing is changed yet)."""
    from mtworkbench.core.json_reader import JsonReader
    from mtworkbench.io.bundle.bundle_read import read_judgment
    from mtworkbench.io.judgments.judgments import JudgmentImport, fresh_id

    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    plan = JudgmentImport()
    taken: set[str] = set()
    reader = JsonReader(str(path))
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{number}: not JSON ({exc.msg} at column {exc.colno})") from None
        judge = value.get("judge") if isinstance(value, dict) else None
        if isinstance(judge, str) and judge.strip() and judge not in project.judges and judge not in plan.judges:
            plan.judges.append(judge)
        try:
            j = read_judgment(reader, value, f"line {number}", _WithJudges(project, plan.judges))  # type: ignore[arg-type]
        except BundleError as exc:
            raise DataError(f"{path}:{number}: {exc}") from None
        plan.judgments.append(_with_id(j, fresh_id(lambda: project.new_id("j"), taken)))
    return plan


def _with_id(j, ident: str):
    from dataclasses import replace

    return replace(j, id=ident)
