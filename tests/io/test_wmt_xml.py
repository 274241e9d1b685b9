"""WMT XML (2021+) import and export."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.io.bundle.bundle import project_to_dict
from mtworkbench.io.corpora.wmt_xml import export_wmt_xml, import_wmt_xml

# A WMT22-style file: collection, two documents, two translators (B skips doc d2),
# two systems, an escaped ampersand, an empty and a whitespace-only segment.
FULL = """<?xml version='1.0' encoding='utf-8'?>
<dataset id="wmttest-toy">
  <collection id="general">
    <doc id="d1" origlang="en" domain="news">
      <src lang="en">
        <p>
          <seg id="1">Tom &amp; Jerry &lt;3</seg>
          <seg id="2"></seg>
        </p>
        <p>
          <seg id="3">   </seg>
        </p>
      </src>
      <ref lang="de" translator="A">
        <p>
          <seg id="1">Tom &amp; Jerry A</seg>
          <seg id="2">leer</seg>
          <seg id="3">drei</seg>
        </p>
      </ref>
      <ref lang="de" translator="B">
        <p>
          <seg id="3">drei B</seg>
          <seg id="1">eins B</seg>
        </p>
      </ref>
      <hyp lang="de" system="sys1">
        <p><seg id="1">h1</seg><seg id="2"/><seg id="3">h3</seg></p>
      </hyp>
      <hyp lang="de" system="sys2">
        <p><seg id="1">g1</seg><seg id="2">g2</seg><seg id="3">g3</seg></p>
      </hyp>
    </doc>
    <doc id="d2" origlang="de" domain="social">
      <src lang="en">
        <p>
          <seg id="1">Hello</seg>
        </p>
      </src>
      <ref lang="de" translator="A"><p><seg id="1">Hallo</seg></p></ref>
      <hyp lang="de" system="sys2"><p><seg id="1">Hallo 2</seg></p></hyp>
      <hyp lang="de" system="sys1"><p><seg id="1">Hallo 1</seg></p></hyp>
    </doc>
  </collection>
</dataset>
"""

# WMT21 layout: <doc> straight in <dataset>, hyp with "language", unnamed refs.
WMT21 = """<?xml version="1.0" encoding="utf-8"?>
<dataset id="newstest2021">
  <doc origlang="en" id="a">
    <src lang="en"><p><seg id="1">One</seg><seg id="2">Two</seg></p></src>
    <ref lang="ha"><p><seg id="1">r1</seg><seg id="2">r2</seg></p></ref>
    <ref lang="ha"><p><seg id="1">s1</seg></p></ref>
    <hyp system="MT" language="ha"><p><seg id="1">m1</seg><seg id="2">m2</seg></p></hyp>
    <supplemental type="notes"><p><seg id="1">ignored</seg></p></supplemental>
  </doc>
</dataset>
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_one_file_holds_everything(tmp_path):
    project = import_wmt_xml(write(tmp_path, "full.xml", FULL))
    assert project.name == "wmttest-toy"
    assert (project.source_language, project.target_language) == ("en", "de")
    assert [d.id for d in project.documents] == ["d1", "d2"]
    assert project.documents[0].attributes == {"origlang": "en", "domain": "news", "collection": "general"}
    assert project.segment_ids == ["d1:1", "d1:2", "d1:3", "d2:1"]
    assert [[s.id for s in p.segments] for p in project.documents[0].paragraphs] == [["d1:1", "d1:2"], ["d1:3"]]
    assert [p.id for p in project.documents[0].paragraphs] == ["d1:p1", "d1:p2"]
    assert [s.source for s in project.segments] == ["Tom & Jerry <3", "", "   ", "Hello"]
    assert [(r.id, r.translator) for r in project.references] == [("A", "A"), ("B", "B")]
    assert project.reference("A").texts == {"d1:1": "Tom & Jerry A", "d1:2": "leer", "d1:3": "drei", "d2:1": "Hallo"}
    # Translator B did not translate d1:2 nor document d2: those have no B reference.
    assert project.reference("B").texts == {"d1:1": "eins B", "d1:3": "drei B"}
    assert [s.id for s in project.systems] == ["sys1", "sys2"]
    assert project.system("sys1").texts == {"d1:1": "h1", "d1:2": "", "d1:3": "h3", "d2:1": "Hallo 1"}


def test_wmt21_layout_unnamed_refs_and_supplemental(tmp_path):
    project = import_wmt_xml(write(tmp_path, "w21.xml", WMT21))
    assert project.documents[0].attributes == {"origlang": "en"}
    assert [r.id for r in project.references] == ["ref", "ref-2"]
    assert project.reference("ref-2").texts == {"a:1": "s1"}
    assert project.target_language == "ha"
    assert project.system_text("MT", "a:2") == "m2"
    assert "ignored" not in [s.source for s in project.segments]


def test_extra_reference_and_system_files_are_merged(tmp_path):
    main = write(tmp_path, "src.xml", WMT21)
    more_refs = write(tmp_path, "refs.xml", WMT21.replace(">r1<", ">R1<"))
    hyp = write(tmp_path, "hyp.xml", WMT21.replace('system="MT"', 'system="other"').replace(">m1<", ">o1<"))
    project = import_wmt_xml(main, [more_refs], [("renamed", hyp)])
    assert [r.id for r in project.references] == ["ref", "ref-2", "ref-3", "ref-2-2"]
    assert project.reference_text("ref-3", "a:1") == "R1"
    assert [s.id for s in project.systems] == ["MT", "renamed"]
    assert project.system_text("renamed", "a:1") == "o1"
    # Without an id the file's system name is kept; the same name twice is an error.
    assert [s.id for s in import_wmt_xml(main, [], [("", hyp)]).systems] == ["MT", "other"]
    with pytest.raises(DataError, match=r"hyp\.xml: system id 'MT' is used twice"):
        import_wmt_xml(main, [], [("MT", hyp)])


def test_given_id_for_a_file_with_several_systems(tmp_path):
    full = write(tmp_path, "full.xml", FULL)
    with pytest.raises(DataError, match=r"several systems \('sys1', 'sys2'\)"):
        import_wmt_xml(full, [], [("x", full)])


def test_round_trip(tmp_path):
    project = import_wmt_xml(write(tmp_path, "full.xml", FULL))
    project.set_segment_source("d1:3", "a\nb\r\tc & <d> \"e\" 'f'")
    project.set_system_text("sys2", "d2:1", "  ")
    out = export_wmt_xml(project, tmp_path / "out" / "again.xml")
    assert out == [tmp_path / "out" / "again.xml"]
    written = out[0].read_text(encoding="utf-8")
    assert '<seg id="3">a&#10;b&#13;\tc &amp; &lt;d&gt; "e" \'f\'</seg>' in written
    assert '<collection id="general">' in written
    again = import_wmt_xml(out[0])
    assert project_to_dict(again) == project_to_dict(project)


def test_round_trip_without_collection(tmp_path):
    project = import_wmt_xml(write(tmp_path, "w21.xml", WMT21))
    out = export_wmt_xml(project, tmp_path)  # a folder: corpus.xml inside it
    assert out == [tmp_path / "corpus.xml"]
    assert "<collection" not in out[0].read_text(encoding="utf-8")
    assert project_to_dict(import_wmt_xml(out[0])) == project_to_dict(project)


def test_export_refuses_characters_xml_cannot_hold(tmp_path):
    project = import_wmt_xml(write(tmp_path, "w21.xml", WMT21))
    project.set_segment_source("a:1", "bell\x07")
    with pytest.raises(DataError, match=r"segment 'a:1' contains the character U\+0007"):
        export_wmt_xml(project, tmp_path / "x.xml")


# --- errors ---------------------------------------------------------------------------------
def test_malformed_xml_names_line_and_column(tmp_path):
    # The mismatched </src> starts at 0-based column 37 of line 3; expat points at its
    # name, two characters further (0-based 39, reported 1-based as 40).
    text = '<dataset id="x">\n<doc id="a">\n<src lang="en"><p><seg id="1">x</seg></src>\n</doc>\n</dataset>\n'
    path = write(tmp_path, "bad.xml", text)
    with pytest.raises(DataError, match=r"bad\.xml, line 3, column 40: not well-formed XML: mismatched tag"):
        import_wmt_xml(path)


def test_bare_ampersand_is_not_xml(tmp_path):
    path = write(tmp_path, "amp.xml", '<dataset>\n<doc id="a"><src><p><seg id="1">M&S</seg></p></src></doc>\n</dataset>\n')
    with pytest.raises(DataError, match=r"amp\.xml, line 2, column \d+: not well-formed XML"):
        import_wmt_xml(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('<dataset>\n<doc id="a">\n<src><p><seg id="1">x</seg></p></src>\n<note/>\n</doc>\n</dataset>\n',
         r"line 4, column 1: unexpected <note> inside <doc>; expected <src>, <ref>, <hyp>, <supplemental>"),
        ('<corpus/>\n', r"line 1, column 1: unexpected <corpus> as the root element; expected <dataset>"),
        ('<dataset>\n<doc id="a">\n<src>\n  words\n<p><seg id="1">x</seg></p></src>\n</doc>\n</dataset>\n',
         r"text outside <seg>: 'words'"),
        ('<dataset>\n<doc id="a">\n<src><p><seg id="1">x <b>y</b></seg></p></src>\n</doc>\n</dataset>\n',
         r"line 3, column 23: <b> inside <seg>"),
        ('<dataset>\n<doc>\n<src><p><seg id="1">x</seg></p></src>\n</doc>\n</dataset>\n',
         r"line 2, column 1: <doc> has no id attribute"),
        ('<dataset>\n<doc id="a">\n<hyp lang="de"><p><seg id="1">x</seg></p></hyp>\n</doc>\n</dataset>\n',
         r"line 3, column 1: <hyp> has no system attribute"),
        ('<dataset>\n<doc id="a">\n<ref><p><seg id="1">x</seg></p></ref>\n</doc>\n</dataset>\n',
         r"line 2, column 1: document 'a' has no <src>"),
        ('<dataset>\n<doc id="a">\n<src><p><seg id="1">x</seg></p></src>\n<src><p><seg id="1">x</seg></p></src>\n'
         '</doc>\n</dataset>\n',
         r"line 4, column 1: document 'a' has a second <src>"),
        ('<dataset>\n<doc id="a"><src><p><seg id="1">x</seg></p></src></doc>\n'
         '<doc id="a"><src><p><seg id="1">x</seg></p></src></doc>\n</dataset>\n',
         r"line 3, column 1: document id 'a' appears twice \(first at line 2\)"),
        ('<dataset>\n<doc id="a"><src><p>\n<seg id="1">x</seg>\n<seg id="1">y</seg>\n</p></src></doc>\n</dataset>\n',
         r"line 4, column 1: segment id '1' appears twice in document 'a' \(first at line 3\)"),
        ('<dataset>\n<doc id="a"><src><p><seg id="1">x</seg></p></src>\n'
         '<ref translator="A"><p>\n<seg id="2">y</seg></p></ref></doc>\n</dataset>\n',
         r"line 4, column 1: reference 'A' has segment '2' in document 'a', which the source does not have"),
        ('<dataset>\n<doc id="a"><src><p><seg id="1">x</seg><seg id="2">y</seg></p></src>\n'
         '<hyp system="S"><p><seg id="2">y</seg></p></hyp></doc>\n</dataset>\n',
         r"system 'S' has no translation for segment '1' of document 'a' \(1 of 2 source segments are missing\)"),
        ('<dataset id="x"/>\n', r"the dataset holds no documents"),
    ],
)
def test_structure_errors_name_the_position(tmp_path, text, message):
    path = write(tmp_path, "bad.xml", text)
    with pytest.raises(DataError, match=message) as err:
        import_wmt_xml(path)
    assert str(err.value).startswith(str(path))


def test_system_file_with_a_document_the_source_lacks(tmp_path):
    main = write(tmp_path, "src.xml", WMT21)
    other = write(tmp_path, "hyp.xml", WMT21.replace('id="a"', 'id="zz"'))
    with pytest.raises(DataError, match=r"hyp\.xml, line 7, column 5: system 'MT' has document 'zz', which is not in the source"):
        import_wmt_xml(main, [], [("", other)])


def test_invalid_utf8_names_file_and_byte_offset(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_bytes(b'<dataset>\n<doc id="a"><src><p><seg id="1">\xff</seg></p></src></doc></dataset>\n')
    # Offset: len('<dataset>\n') + len('<doc id="a"><src><p><seg id="1">') = 10 + 32 = 42.
    with pytest.raises(DataError, match=r"bad\.xml: invalid UTF-8 at byte offset 42"):
        import_wmt_xml(path)


def test_conflicting_languages(tmp_path):
    path = write(tmp_path, "l.xml", FULL.replace('<hyp lang="de" system="sys2">', '<hyp lang="fr" system="sys2">', 1))
    with pytest.raises(DataError, match=r"disagree on the target language: 'de' in .*line 14.*, 'fr' in .*line 30"):
        import_wmt_xml(path)
    assert import_wmt_xml(path, target_language="de").target_language == "de"


def test_files_are_read_as_utf8_whatever_the_declaration_says(tmp_path):
    text = WMT21.replace('encoding="utf-8"', 'encoding="iso-8859-1"').replace(">One<", ">Ça va<")
    project = import_wmt_xml(write(tmp_path, "decl.xml", text))
    assert project.segment("a:1").source == "Ça va"
