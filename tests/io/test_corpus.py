"""The corpus facade: dispatch, cross-format round trips, and the import CLI on each format."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtworkbench.cli import main
from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.io.bundle.bundle import load_bundle, project_to_dict
from mtworkbench.io.corpora.corpus import EXPORT_FORMATS, IMPORT_FORMATS, export_corpus, import_corpus
from tests.io.test_sgml import REF, SRC, TST
from tests.io.test_wmt_xml import FULL


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def sgml_project(tmp_path):
    return import_corpus(
        "sgml",
        source=write(tmp_path, "src.sgm", SRC),
        references=[write(tmp_path, "ref.sgm", REF)],
        systems=[("", write(tmp_path, "tst.sgm", TST))],
    )


def reimport(fmt: str, files: list[Path]) -> Project:
    """Import what ``export_corpus`` wrote, the way a user would pass it back."""
    if fmt in ("wmt-xml", "tsv"):
        return import_corpus(fmt, source=files[0], source_language="en", target_language="de")
    refs = [f for f in files if f.name.startswith("ref-")]
    systems = [(f.stem.removeprefix("sys-") if fmt == "plain" else "", f) for f in files if f.name.startswith("sys-")]
    return import_corpus(fmt, source=files[0], references=refs, systems=systems,
                         source_language="en", target_language="de")


def test_formats_listed():
    assert EXPORT_FORMATS == ("plain", "sgml", "wmt-xml", "tsv")
    assert IMPORT_FORMATS == EXPORT_FORMATS + ("mqm",)  # MQM ratings export with `judgments export --format mqm`


@pytest.mark.parametrize("fmt", ["sgml", "wmt-xml"])
def test_lossless_round_trip_from_sgml(sgml_project, tmp_path, fmt):
    files = export_corpus(sgml_project, fmt, tmp_path / "out")
    assert project_to_dict(reimport(fmt, files)) == project_to_dict(sgml_project)


def test_tsv_round_trip_keeps_everything_but_document_attributes_and_name(sgml_project, tmp_path):
    files = export_corpus(sgml_project, "tsv", tmp_path / "toy.tsv")
    expected = project_to_dict(sgml_project)
    got = project_to_dict(reimport("tsv", files))
    for doc in expected["documents"]:
        doc["attributes"] = {}
    expected["name"] = "toy"  # TSV takes the project name from the file name
    assert got == expected


def test_plain_export_keeps_texts_in_order(sgml_project, tmp_path):
    files = export_corpus(sgml_project, "plain", tmp_path / "plain")
    again = reimport("plain", files)
    assert [s.source for s in again.segments] == [s.source for s in sgml_project.segments]
    assert list(again.reference("ref1").texts.values()) == [
        sgml_project.reference_text("ref", sid) for sid in sgml_project.segment_ids
    ]


@pytest.mark.parametrize("fmt", ["sgml", "wmt-xml", "tsv"])
def test_round_trip_of_real_wmt_data(shared_dir, tmp_path, fmt):
    data = shared_dir / "data" / "wmt15-en-ru-mteval"
    project = import_corpus(
        "sgml",
        source=data / "newstest2015-100sents-enru-src.en.sgm",
        references=[data / "newstest2015-100sents-enru-ref.ru.sgm"],
        systems=[("Google", data / "newstest2015-100sents-enru-google.ru.sgm")],
        source_language="en",
        target_language="de",  # explicit languages win over the files' (and survive TSV)
    )
    files = export_corpus(project, fmt, tmp_path / ("newstest2015.tsv" if fmt == "tsv" else "out"))
    expected = project_to_dict(project)
    if fmt == "tsv":
        for doc in expected["documents"]:
            doc["attributes"] = {}
    assert project_to_dict(reimport(fmt, files)) == expected


def test_tsv_refuses_extra_files(tmp_path):
    path = write(tmp_path, "c.tsv", "source\nx\n")
    with pytest.raises(DataError, match="give only the TSV file as the source"):
        import_corpus("tsv", source=path, references=[path])


def test_unknown_format(tmp_path):
    with pytest.raises(DataError, match="unknown corpus format 'csv'; expected one of plain, sgml, wmt-xml, tsv"):
        import_corpus("csv", source=tmp_path / "x")
    with pytest.raises(DataError, match="unknown corpus format 'csv'"):
        export_corpus(import_corpus("tsv", source=write(tmp_path, "c.tsv", "source\nx\n")), "csv", tmp_path)


def test_plain_still_checks_line_counts(tmp_path):
    src = write(tmp_path, "src.txt", "a\nb\n")
    ref = write(tmp_path, "ref.txt", "a\n")
    with pytest.raises(DataError, match=r"line counts differ: .*src\.txt: 2 lines, .*ref\.txt: 1 lines"):
        import_corpus("plain", source=src, references=[ref])


# --- the import command on each format --------------------------------------------------------
def test_cli_imports_wmt_xml_from_one_file(tmp_path, capsys):
    out = tmp_path / "p.mtwb.json"
    assert main(["import", "--format", "wmt-xml", "--source", str(write(tmp_path, "f.xml", FULL)), "-o", str(out)]) == 0
    project = load_bundle(out)
    assert [r.id for r in project.references] == ["A", "B"]
    assert [s.id for s in project.systems] == ["sys1", "sys2"]
    assert "4 segments, 2 references, 2 systems" in capsys.readouterr().out


def test_cli_imports_sgml(tmp_path):
    out = tmp_path / "p.mtwb.json"
    args = ["import", "--format", "sgml", "--source", str(write(tmp_path, "s.sgm", SRC)),
            "--ref", str(write(tmp_path, "r.sgm", REF)), "--system", f"mine={write(tmp_path, 't.sgm', TST)}",
            "-o", str(out)]
    assert main(args) == 0
    project = load_bundle(out)
    assert project.segment_ids == ["d1:1", "d1:2", "d1:3", "d2:1", "d2:2"]
    assert [s.id for s in project.systems] == ["mine"]


def test_cli_reports_malformed_input_in_one_line(tmp_path, capsys):
    bad = write(tmp_path, "bad.tsv", "source\tref:A\nonly\n")
    code = main(["import", "--format", "tsv", "--source", str(bad), "-o", str(tmp_path / "p.mtwb.json")])
    assert code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.tsv, line 2: 1 fields, but the header has 2" in err
    assert not (tmp_path / "p.mtwb.json").exists()


# --- property: any text survives export and import ----------------------------------------------
def _project(texts: list[str], attribute: str) -> Project:
    from mtworkbench.core.model import Document, Paragraph, Reference, Segment, System

    half = len(texts) // 2
    docs = [
        Document("d1", [Paragraph("d1:p1", [Segment(f"d1:{i + 1}", t) for i, t in enumerate(texts[:half])])],
                 {"genre": attribute}),
        Document("d2", [Paragraph("d2:p1", [Segment(f"d2:{i + 1}", t) for i, t in enumerate(texts[half:])])]),
    ]
    project = Project(documents=docs, source_language="en", target_language="de", name="prop")
    ids = project.segment_ids
    project.add_reference(Reference("A", "A", {sid: t[::-1] for sid, t in zip(ids, texts)}))
    project.add_system(System("S", texts={sid: t.upper() for sid, t in zip(ids, texts)}))
    return project


# XML 1.0 cannot hold C0 controls other than TAB/LF/CR (the exporter refuses them,
# tested in test_wmt_xml); UTF-8 cannot hold surrogates.
_xml_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters=[
    chr(c) for c in range(32) if chr(c) not in "\t\n\r"] + ["\ufffe", "\uffff"]), max_size=12)
# NUL is refused by every text reader (and so by every exporter): no format holds it.
_tsv_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r\x00"), max_size=12)
_sgml_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)


@pytest.mark.parametrize(
    ("fmt", "text"),
    [("sgml", _sgml_text), ("wmt-xml", _xml_text), ("tsv", _tsv_text)],
)
def test_any_text_round_trips(tmp_path_factory, fmt, text):
    @settings(max_examples=40, deadline=None)
    @given(texts=st.lists(text, min_size=2, max_size=6), attribute=_xml_text)
    def check(texts, attribute):
        project = _project(texts, attribute)
        out = tmp_path_factory.mktemp("rt") / ("prop.tsv" if fmt == "tsv" else "out")
        expected = project_to_dict(project)
        if fmt == "tsv":
            for doc in expected["documents"]:
                doc["attributes"] = {}
        assert project_to_dict(reimport(fmt, export_corpus(project, fmt, out))) == expected

    check()
