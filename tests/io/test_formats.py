"""The format registries: one entry per format, functions found lazily,
and the module cheap to import (the CLI builds its help from it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.io.formats import (
    ANNOTATION_FORMATS,
    CORPUS_FORMATS,
    JUDGMENT_FORMATS,
    LAYOUT_FORMATS,
    METRIC_SCORE_FORMATS,
    SCORE_FORMATS,
)

REGISTRIES = [CORPUS_FORMATS, ANNOTATION_FORMATS, JUDGMENT_FORMATS, SCORE_FORMATS, METRIC_SCORE_FORMATS]


@pytest.mark.parametrize("registry", REGISTRIES, ids=lambda r: r.kind)
def test_every_entry_names_functions_that_exist(registry):
    for fmt in registry:
        assert fmt.suffixes and all(s.startswith(".") and s == s.lower() for s in fmt.suffixes)
        if fmt.reader:
            assert callable(fmt.read), fmt.reader
        if fmt.writer:
            assert callable(fmt.write), fmt.writer


def test_unknown_format_is_a_one_line_data_error_listing_the_known_ones():
    with pytest.raises(DataError, match=r"unknown annotation format 'xml'; expected one of muc, conll, brat, jsonl"):
        ANNOTATION_FORMATS.get("xml")
    with pytest.raises(DataError, match="does not support writing"):
        _ = SCORE_FORMATS.get("lines").write


def test_file_dialog_filters_and_suffix_guess():
    assert ANNOTATION_FORMATS.file_filters().split(";;") == [
        "MUC-7 inline SGML (*.sgml *.sgm *.muc)",
        "CoNLL-2003 BIO (*.conll *.bio *.iob)",
        "brat standoff (*.ann)",
        "JSON lines (*.jsonl)",
        "WebAnno TSV 3 (INCEpTION) (*.tsv)",
        "mtworkbench spans JSON (*.json)",
    ]
    assert ANNOTATION_FORMATS.from_filter("brat standoff (*.ann)") == "brat"
    assert CORPUS_FORMATS.guess("x/corpus.XML") == "wmt-xml"
    assert CORPUS_FORMATS.guess("x/corpus.doc") is None


def test_cli_choices_come_from_the_registries():
    from mtworkbench.cli import build_parser

    parser = build_parser()
    actions = {a.dest: a for a in parser._subparsers._group_actions[0].choices["import"]._actions}
    assert tuple(actions["format"].choices) == CORPUS_FORMATS.readable() + LAYOUT_FORMATS.readable()


def test_registry_modules_import_nothing_heavy():
    code = (
        "import sys, mtworkbench.io.formats, mtworkbench.gui.metrics.views; "
        "heavy = [m for m in ('numpy', 'scipy', 'sklearn', 'PySide6', 'pyqtgraph') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
