"""A WMT21 en-de project (its first segments, three named references, the eight
systems) with the segment MQM scores of those systems imported, as a new user
builds it: ../shared/data/wmt21-en-de-mqm."""

from __future__ import annotations

from pathlib import Path

from mtworkbench.core.model import Project
from mtworkbench.io.corpora.corpus import import_corpus
from mtworkbench.io.judgments.judgments import apply_import
from mtworkbench.io.scores.score_table import plan_all_systems

SYSTEMS = ("Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT", "VolcTrans-GLAT",
           "eTranslation")


def cut(path: Path, n: int, folder: Path) -> Path:
    target = folder / path.name
    target.write_text("".join(path.read_text(encoding="utf-8").splitlines(True)[:n]), encoding="utf-8")
    return target


def wmt21_project(shared_dir: Path, folder: Path, n: int = 30, metrics=("bleu", "chrf", "ter", "gtm", "meteor"),
                  with_mqm: bool = True) -> Project:
    data = shared_dir / "data" / "wmt21-en-de-mqm"
    folder.mkdir(parents=True, exist_ok=True)
    refs = [cut(data / f"ref-{r}.de", n, folder) for r in "ACD"]
    project = import_corpus("plain", source=cut(data / "source.en", n, folder), references=refs,
                            systems=[(s, cut(data / "systems" / f"{s}.de", n, folder)) for s in SYSTEMS],
                            source_language="en", target_language="de")
    from mtworkbench.gui.reference_names import apply_reference_names

    apply_reference_names(project, ["ref-A", "ref-C", "ref-D"])
    project.settings.metrics = list(metrics)
    if with_mqm:
        lines = (data / "mqm.tsv").read_text(encoding="utf-8").splitlines(True)
        table = folder / "mqm.tsv"
        table.write_text(lines[0] + "".join(x for x in lines[1:] if int(x.split("\t")[1]) <= n), encoding="utf-8")
        apply_import(project, plan_all_systems(project, "mqm", table, "mqm").plan)
    return project
