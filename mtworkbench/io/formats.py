"""The file formats mtworkbench reads and writes, each listed once.

Like glue's data factories, every format is one ``FileFormat`` entry: its
name (what ``--format`` takes), a label and file suffixes (what a file dialog
shows, what a file name is guessed from) and where its reader and writer are.
The CLI choices and help, the GUI file dialogs and the dispatch in
``io.corpora``/``io.annotations``/``io.judgments`` are all built from these
registries, so adding a format is one entry and its two functions.

Readers and writers are named as ``"module:function"`` and imported on first
use: importing this module costs nothing (``mtworkbench --help`` must stay
light). Each registry documents the call signature its functions share.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtworkbench.core.errors import DataError


@dataclass(frozen=True)
class FileFormat:
    name: str
    label: str
    suffixes: tuple[str, ...]  # lower case with the dot; the first is the default for writing
    reader: str | None = None  # "package.module:function"
    writer: str | None = None

    @property
    def file_filter(self) -> str:
        """The Qt file-dialog filter, e.g. ``brat standoff (*.ann)``."""
        return f"{self.label} ({' '.join('*' + s for s in self.suffixes)})"

    @property
    def read(self) -> Callable[..., Any]:
        return _resolve(self.reader, self.name, "reading")

    @property
    def write(self) -> Callable[..., Any]:
        return _resolve(self.writer, self.name, "writing")


def _resolve(ref: str | None, name: str, what: str) -> Callable[..., Any]:
    if ref is None:
        raise DataError(f"format {name!r} does not support {what}")
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


class FormatRegistry:
    """The formats of one kind of file, in the order they are offered."""

    def __init__(self, kind: str, formats: tuple[FileFormat, ...]) -> None:
        self.kind = kind
        self._formats = {f.name: f for f in formats}

    def __iter__(self) -> Iterator[FileFormat]:
        return iter(self._formats.values())

    def __contains__(self, name: object) -> bool:
        return name in self._formats

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._formats)

    def readable(self) -> tuple[str, ...]:
        return tuple(f.name for f in self if f.reader is not None)

    def writable(self) -> tuple[str, ...]:
        return tuple(f.name for f in self if f.writer is not None)

    def get(self, name: str) -> FileFormat:
        try:
            return self._formats[name]
        except KeyError:
            raise DataError(f"unknown {self.kind} format {name!r}; expected one of {', '.join(self.names)}") from None

    def guess(self, path: str | Path) -> str | None:
        """The format whose suffixes include the file's (None when none does)."""
        suffix = Path(path).suffix.lower()
        return next((f.name for f in self if suffix in f.suffixes), None)

    def file_filters(self) -> str:
        """Every format as one Qt file-dialog filter string (``;;``-separated)."""
        return ";;".join(f.file_filter for f in self)

    def from_filter(self, selected: str, default: str | None = None) -> str:
        """The format of a filter chosen in a file dialog."""
        return next((f.name for f in self if f.file_filter == selected), default or self.names[0])

    def help(self) -> str:
        """One line for ``--format`` help: ``name (suffixes), ...``."""
        return "; ".join(f"{f.name}: {f.label} ({' '.join(f.suffixes)})" for f in self)


# Corpus files -> a Project, and back.
#   read(source, references, systems, source_language, target_language) -> Project
#   write(project, out) -> list[Path]
CORPUS_FORMATS = FormatRegistry("corpus", (
    FileFormat("plain", "plain text, one segment per line", (".txt",),
               "mtworkbench.io.corpora.corpus:import_plain_corpus", "mtworkbench.io.corpora.corpus:export_plain_corpus"),
    FileFormat("sgml", "WMT/NIST mteval SGML", (".sgm", ".sgml"),
               "mtworkbench.io.corpora.sgml:import_sgml", "mtworkbench.io.corpora.sgml:export_sgml"),
    FileFormat("wmt-xml", "WMT 2021+ XML", (".xml",),
               "mtworkbench.io.corpora.wmt_xml:import_wmt_xml", "mtworkbench.io.corpora.wmt_xml:export_wmt_xml"),
    FileFormat("tsv", "TSV table with source, ref:<ID>, sys:<ID> columns", (".tsv",),
               "mtworkbench.io.corpora.corpus:import_tsv_corpus", "mtworkbench.io.corpora.tsv:export_tsv"),
    FileFormat("mqm", "Google's MQM ratings TSV (texts and error spans)", (".tsv",),
               "mtworkbench.io.judgments.mqm:import_mqm_corpus"),  # ratings go back out with `judgments export`
))

# Metric scores computed elsewhere, stored in the project as metric ext:NAME (io.scores.external_scores).
#   read(project, metric, path, system=None, higher_is_better=None) -> ExternalImport
METRIC_SCORE_FORMATS = FormatRegistry("metric score", (
    FileFormat("lines", "one score per line of one system (line i = segment i)", (".txt",),
               "mtworkbench.io.scores.external_scores:import_score_lines"),
    FileFormat("mt-metrics-eval", "mt-metrics-eval SYSTEM<TAB>SCORE file, all systems (NAME-REF.seg.score or .sys.score)",
               (".score",), "mtworkbench.io.scores.external_scores:import_mt_metrics_eval"),
))

# Directory layouts of a whole evaluation set, one language pair -> a Project (with
# human and metric scores): no suffixes, so no file dialog offers them.
#   read(directory, language_pair, progress=None) -> MtmeImport (the project and what was read;
#   progress(done, total) counts the files read)
LAYOUT_FORMATS = FormatRegistry("layout", (
    FileFormat("mt-metrics-eval", "Google mt-metrics-eval test-set directory", (),
               "mtworkbench.io.corpora.mt_metrics_eval:import_mt_metrics_eval_dir"),
))

# One annotator's entity spans on one reference.
#   read(path, segment_ids, texts) -> ReadRecords (io.annotations.annotations)
#   write(path, records, reference_texts) -> list[Path]
ANNOTATION_FORMATS = FormatRegistry("annotation", (
    FileFormat("muc", "MUC-7 inline SGML", (".sgml", ".sgm", ".muc"),
               "mtworkbench.io.annotations.annotations:read_muc_records", "mtworkbench.io.annotations.annotations:write_muc_records"),
    FileFormat("conll", "CoNLL-2003 BIO", (".conll", ".bio", ".iob"),
               "mtworkbench.io.annotations.annotations:read_conll_records", "mtworkbench.io.annotations.annotations:write_conll_records"),
    FileFormat("brat", "brat standoff", (".ann",),
               "mtworkbench.io.annotations.annotations:read_brat_records", "mtworkbench.io.annotations.annotations:write_brat_records"),
    FileFormat("jsonl", "JSON lines", (".jsonl",),
               "mtworkbench.io.annotations.annotations:read_jsonl_records", "mtworkbench.io.annotations.annotations:write_jsonl_records"),
    FileFormat("webanno", "WebAnno TSV 3 (INCEpTION)", (".tsv",),
               "mtworkbench.io.annotations.annotations:read_webanno_records", "mtworkbench.io.annotations.annotations:write_webanno_records"),
    FileFormat("json", "mtworkbench spans JSON", (".json",),
               "mtworkbench.io.annotations.annotations:read_json_records", "mtworkbench.io.annotations.annotations:write_json_records"),
))

# Human judgments in and out of a project; the table's suffix chooses its delimiter
# (io.judgments.judgments). A reader only plans: io.judgments.judgments.apply_import adds the plan.
#   read(project, path) -> JudgmentImport; write(project, path) -> int (rows written)
JUDGMENT_FORMATS = FormatRegistry("judgment", (
    FileFormat("csv", "judgments table, comma-separated", (".csv",),
               "mtworkbench.io.judgments.judgments:plan_table_file", "mtworkbench.io.judgments.judgments_export:export_judgments"),
    FileFormat("tsv", "judgments table, tab-separated", (".tsv",),
               "mtworkbench.io.judgments.judgments:plan_table_file", "mtworkbench.io.judgments.judgments_export:export_judgments"),
    FileFormat("mqm", "Google's MQM ratings TSV, error spans per rater", (".tsv",),
               "mtworkbench.io.judgments.mqm:plan_mqm_file", "mtworkbench.io.judgments.mqm_export:export_mqm"),
    FileFormat("esa", "ESA error spans and 0-100 scores, CSV", (".csv",),
               "mtworkbench.io.judgments.protocol_csv:plan_esa_file", "mtworkbench.io.judgments.protocol_csv:export_esa"),
    FileFormat("da", "DA 0-100 scores with quality-control items, CSV", (".csv",),
               "mtworkbench.io.judgments.protocol_csv:plan_da_file", "mtworkbench.io.judgments.protocol_csv:export_da"),
    FileFormat("rank", "relative rankings, a row per screen (system1,rank1,...), CSV", (".csv",),
               "mtworkbench.io.judgments.ranking_csv:plan_ranking_file", "mtworkbench.io.judgments.ranking_csv:export_rankings"),
    FileFormat("jsonl", "every judgment as JSON Lines, lossless (error spans, suggested spans)", (".jsonl",),
               "mtworkbench.io.judgments.judgments_jsonl:plan_jsonl_file",
               "mtworkbench.io.judgments.judgments_jsonl:export_jsonl"),
))

# Segment-level human scores of one system, imported as a pseudo-judge.
#   read(path, system) -> dict[segment id, score | None] or list[score | None] by position
SCORE_FORMATS = FormatRegistry("score", (
    FileFormat("lines", "one score per line (line i = segment i)", (".txt",),
               "mtworkbench.io.judgments.judgments:read_score_lines"),
    FileFormat("mqm-tsv", "MQM table (system, seg_id, mqm)", (".tsv",),
               "mtworkbench.io.judgments.judgments:read_mqm_tsv"),
))
