"""Google's mt-metrics-eval directory layout, one language pair into one project.

Under a test-set directory (e.g. ``wmt22/``), for language pair ``SRC-TGT``:

- ``sources/SRC-TGT.txt``: the source, one segment per line;
- ``documents/SRC-TGT.docs``: ``DOMAIN DOCNAME`` per source line, documents being
  contiguous blocks (optional: without it the whole file is one document);
- ``references/SRC-TGT.NAME.txt``: reference NAME;
- ``system-outputs/SRC-TGT/NAME.txt``: system NAME (references scored as systems
  are copied here under the reference's name; they become ``human`` systems);
- ``human-scores/SRC-TGT.NAME.LEVEL.score``: ``SYSTEM SCORE`` lines (``None`` =
  missing). ``seg`` files become judgments of pseudo-judge NAME with scale NAME
  (mqm, wmt-z, da, esa, ...); ``sys`` files are checked and reported (the
  workbench takes a system's human score as the mean of its rated segments);
  ``doc``/``domain`` files and ``.seg.rating`` files are not read;
- ``metric-scores/SRC-TGT/NAME-REF.LEVEL.score``: imported as metric
  ``ext:NAME-REF`` (``seg`` and ``sys``; higher is better, the layout's convention).

Segment ids are the 1-based line numbers, as in a plain-text import.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import ProgressCallback, report
from mtworkbench.core.model import (
    Document,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.core.text_display import shown
from mtworkbench.core.wording import plural
from mtworkbench.io.corpora.plaintext import read_lines
from mtworkbench.io.scores.external_scores import import_mt_metrics_eval, read_system_scores

_LP = re.compile(r"^[A-Za-z]{2,3}(?:_[A-Za-z]+)?-[A-Za-z]{2,3}(?:_[A-Za-z]+)?$")


@dataclass
class MtmeImport:
    project: Project
    human_segment_scores: dict[str, int] = field(default_factory=dict)  # name -> judgments added
    human_system_scores: dict[str, dict[str, float | None]] = field(default_factory=dict)
    metrics: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _languages(lp: str) -> tuple[str, str]:
    if not _LP.match(lp):
        raise DataError(f"language pair {lp!r}: expected SRC-TGT such as en-de")
    src, tgt = lp.split("-")
    return src, tgt


def _documents(path: Path, sources: list[str]) -> list[Document]:
    seg_ids = [str(i) for i in range(1, len(sources) + 1)]
    if not path.exists():
        segs = [Segment(sid, text) for sid, text in zip(seg_ids, sources)]
        return [Document("doc1", [Paragraph("p1", segs)])]
    lines = read_lines(path)
    if len(lines) != len(sources):
        raise DataError(f"{path}: {len(lines)} lines, but the source has {len(sources)} (one per segment)")
    docs: list[Document] = []
    for i, line in enumerate(lines):
        parts = line.split()
        if len(parts) != 2:
            raise DataError(f"{path}:{i + 1}: expected DOMAIN and DOCNAME separated by whitespace, found {line!r}")
        domain, name = parts
        if not docs or docs[-1].id != name:
            if any(d.id == name for d in docs):
                raise DataError(f"{path}:{i + 1}: document {name!r} is not one contiguous block")
            docs.append(Document(name, [Paragraph(f"{name}:p1", [])], {"domain": domain}))
        docs[-1].paragraphs[0].segments.append(Segment(seg_ids[i], sources[i]))
    return docs


def _check_length(path: Path, lines: list[str], n: int) -> list[str]:
    if len(lines) != n:
        raise DataError(f"{path}: {len(lines)} lines, but the source has {n} (one per segment)")
    return lines


def _refuse_outside_links(root: Path, lp: str) -> None:
    """Refuse links in the test set that lead outside it, naming each: a directory someone
    handed over must not make the import read (and store) a file from elsewhere."""
    real_root = Path(os.path.realpath(root))
    wanted = [root / "sources" / f"{lp}.txt", root / "documents" / f"{lp}.docs",
              root / "system-outputs" / lp, root / "metric-scores" / lp]
    for folder, pattern in ((root / "references", f"{lp}.*.txt"), (root / "system-outputs" / lp, "*"),
                            (root / "human-scores", f"{lp}.*"), (root / "metric-scores" / lp, "*")):
        wanted.extend(sorted(folder.glob(pattern)) if folder.is_dir() else [])
    outside = []
    for path in [root / "sources", root / "documents", root / "references", root / "system-outputs",
                 root / "human-scores", root / "metric-scores", *wanted]:
        if not os.path.lexists(path):
            continue
        real = Path(os.path.realpath(path))
        if real != real_root and real_root not in real.parents:
            outside.append(f"{path} -> {real}")
    if outside:
        raise DataError(f"{root}: {plural(len(outside), 'link')} lead outside the test set, refused (copy the files in): "
                        + "; ".join(outside[:5]) + (f"; …({len(outside) - 5} more)" if len(outside) > 5 else ""))


def import_mt_metrics_eval_dir(directory: str | Path, lp: str, progress: ProgressCallback | None = None
                               ) -> MtmeImport:
    """Read one language pair of an mt-metrics-eval test-set directory. ``progress(done, total)``
    counts the files read (system outputs and metric scores, the many and the large ones)."""
    root = Path(directory)
    if not root.is_dir():
        raise DataError(f"{root}: not a directory (expected an mt-metrics-eval test set such as wmt22/)")
    src_lang, tgt_lang = _languages(lp)
    _refuse_outside_links(root, lp)
    source_file = root / "sources" / f"{lp}.txt"
    if not source_file.exists():
        raise DataError(f"{source_file}: missing (the source of {lp}; is --lp right?)")
    sources = read_lines(source_file)
    n = len(sources)
    project = Project(documents=_documents(root / "documents" / f"{lp}.docs", sources),
                      source_language=src_lang, target_language=tgt_lang, name=f"{shown(root.name)} {lp}")
    seg_ids = project.segment_ids
    ref_names = []
    for path in sorted((root / "references").glob(f"{lp}.*.txt")):
        name = shown(path.name[len(lp) + 1: -len(".txt")])
        project.add_reference(Reference(name, translator=shown(path.name),
                                        texts=dict(zip(seg_ids, _check_length(path, read_lines(path), n)))))
        ref_names.append(name)
    if not ref_names:
        raise DataError(f"{root / 'references'}: no {lp}.NAME.txt reference")
    out_dir = root / "system-outputs" / lp
    system_files = sorted(out_dir.glob("*.txt"))
    if not system_files:
        raise DataError(f"{out_dir}: no system outputs (NAME.txt)")
    metric_dir = root / "metric-scores" / lp
    score_files = sorted(metric_dir.glob("*.score")) if metric_dir.is_dir() else []
    n_files = len(system_files) + len(score_files)
    for k, path in enumerate(system_files):
        report(progress, k, n_files)
        name = shown(path.name[: -len(".txt")])
        project.add_system(System(name, kind="human" if name in ref_names else "machine",
                                  texts=dict(zip(seg_ids, _check_length(path, read_lines(path), n)))))
    result = MtmeImport(project)
    _human_scores(root / "human-scores", lp, result)
    for k, path in enumerate(score_files, len(system_files)):
        report(progress, k, n_files)
        level = path.name.rsplit(".", 2)[-2]
        if level not in ("seg", "sys"):
            result.notes.append(f"{path.name}: {level}-level metric scores are not read")
            continue
        name = shown(path.name[: -len(f".{level}.score")])
        rep = import_mt_metrics_eval(project, name, path)
        if name not in result.metrics:
            result.metrics.append(name)
        if rep.skipped:
            result.notes.append(f"{path.name}: skipped systems without outputs: {', '.join(rep.skipped)}")
    report(progress, n_files, n_files)
    return result


def _human_scores(directory: Path, lp: str, result: MtmeImport) -> None:
    project = result.project
    for path in sorted(directory.glob(f"{lp}.*.score")) if directory.is_dir() else []:
        parts = shown(path.name[len(lp) + 1:]).split(".")
        name, level = ".".join(parts[:-2]), parts[-2]
        if level not in ("seg", "sys"):
            result.notes.append(f"{path.name}: {level}-level human scores are not read")
            continue
        parsed = read_system_scores(path, level)
        unknown = [s for s in parsed.scores if not project.has_system(s)]
        if unknown:
            result.notes.append(f"{path.name}: skipped systems without outputs: {', '.join(unknown)}")
        if level == "sys":
            result.human_system_scores[name] = {s: v[0] for s, v in parsed.scores.items() if project.has_system(s)}
            continue
        if name not in project.judges:
            project.add_judge(name)
        added = 0
        for system, values in parsed.scores.items():
            if not project.has_system(system):
                continue
            if len(values) != len(project.segments):
                raise DataError(f"{path}: {len(values)} scores for system {system!r}, but the source has "
                                f"{len(project.segments)} segments")
            for seg_id, value in zip(project.segment_ids, values):
                if value is None:
                    continue
                project.add_judgment(Judgment(project.new_id("j"), name, system, seg_id, score=value, scale=name))
                added += 1
        result.human_segment_scores[name] = added
    for path in sorted(directory.glob(f"{lp}.*.seg.rating")) if directory.is_dir() else []:
        result.notes.append(f"{path.name}: MQM ratings with error spans are not read")
