"""WMT/NIST SGML import and export."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.io.bundle.bundle import project_to_dict
from mtworkbench.io.corpora.plaintext import read_lines
from mtworkbench.io.corpora.sgml import export_sgml, import_sgml

SRC = """<srcset setid="toy" srclang="en">
<doc docid="d1" genre="news" origlang="en">
<p>
<seg id="1">Fish &amp; chips &lt;b&gt; &quot;hot&quot; &apos;n&apos; caf&#233; caf&#xE9;</seg>
<seg id="2"></seg>
</p>
<p>
<seg id="3">   </seg>
</p>
</doc>
<doc docid="d2" genre="sport" origlang="de">
<seg id="1">M&S and R&B &nbsp; stay</seg>
<seg id="2"/>
</doc>
</srcset>
"""

REF = """<refset setid="toy" srclang="en" trglang="de">
<doc sysid="ref" docid="d2">
<seg id="2">zwei</seg>
<seg id="1">eins</seg>
</doc>
<doc sysid="ref" docid="d1">
<p>
<seg id="1">Fisch</seg><seg id="2">leer</seg><seg id="3">drei</seg>
</p>
</doc>
</refset>
"""

TST = """<tstset setid="toy" srclang="en" trglang="de">
<doc sysid="sysA" docid="d1">
<seg id="1">a1</seg>
<seg id="2">a2</seg>
<seg id="3">a3</seg>
</doc>
<doc sysid="sysA" docid="d2">
<seg id="1">b1</seg>
<seg id="2">b2</seg>
</doc>
</tstset>
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def toy(tmp_path: Path) -> tuple[Path, Path, Path]:
    return write(tmp_path, "src.sgm", SRC), write(tmp_path, "ref.sgm", REF), write(tmp_path, "tst.sgm", TST)


def test_structure_ids_and_attributes(toy):
    src, ref, tst = toy
    project = import_sgml(src, [ref], [("", tst)])
    assert project.name == "toy"
    assert (project.source_language, project.target_language) == ("en", "de")
    assert [d.id for d in project.documents] == ["d1", "d2"]
    assert project.documents[0].attributes == {"genre": "news", "origlang": "en"}
    assert project.documents[1].attributes == {"genre": "sport", "origlang": "de"}
    assert project.segment_ids == ["d1:1", "d1:2", "d1:3", "d2:1", "d2:2"]
    # <p> gives paragraphs; a document without <p> is one paragraph.
    assert [[s.id for s in p.segments] for p in project.documents[0].paragraphs] == [["d1:1", "d1:2"], ["d1:3"]]
    assert [p.id for p in project.documents[0].paragraphs] == ["d1:p1", "d1:p2"]
    assert [[s.id for s in p.segments] for p in project.documents[1].paragraphs] == [["d2:1", "d2:2"]]
    assert [r.id for r in project.references] == ["ref"]
    assert [s.id for s in project.systems] == ["sysA"]


def test_entities_decoded_and_odd_text_kept(toy):
    src, ref, tst = toy
    project = import_sgml(src, [ref], [("", tst)])
    assert project.segment("d1:1").source == "Fish & chips <b> \"hot\" 'n' café café"
    # Bare ampersands (as in real WMT files) and unknown entities stay as written.
    assert project.segment("d2:1").source == "M&S and R&B &nbsp; stay"
    # Empty and whitespace-only segments are kept, never dropped.
    assert project.segment("d1:2").source == ""
    assert project.segment("d1:3").source == "   "
    assert project.segment("d2:2").source == ""


def test_translations_matched_by_docid_and_segment_id(toy):
    src, ref, tst = toy
    project = import_sgml(src, [ref], [("", tst)])
    # The refset lists d2 first and d2's segments in reverse order.
    assert project.reference("ref").texts == {
        "d1:1": "Fisch", "d1:2": "leer", "d1:3": "drei", "d2:1": "eins", "d2:2": "zwei",
    }
    assert project.system("sysA").texts["d2:1"] == "b1"


def test_given_system_id_wins_over_sysid(toy):
    src, ref, tst = toy
    project = import_sgml(src, [ref], [("mine", tst)])
    assert [s.id for s in project.systems] == ["mine"]


def test_two_refsets_with_the_same_sysid_get_distinct_ids(toy, tmp_path):
    src, ref, tst = toy
    ref2 = write(tmp_path, "ref2.sgm", REF.replace("Fisch", "Fisch 2"))
    project = import_sgml(src, [ref, ref2], [])
    assert [r.id for r in project.references] == ["ref", "ref-2"]
    assert project.reference_text("ref-2", "d1:1") == "Fisch 2"


def test_tstset_with_several_sysids(toy, tmp_path):
    src, _, _ = toy
    both = TST.replace("</tstset>\n", "") + TST.split("\n", 1)[1].replace("sysA", "sysB").replace(">a", ">B")
    tst = write(tmp_path, "both.sgm", both)
    project = import_sgml(src, [], [("", tst)])
    assert [s.id for s in project.systems] == ["sysA", "sysB"]
    assert project.system_text("sysB", "d1:1") == "B1"
    with pytest.raises(DataError, match=r"several systems \('sysA', 'sysB'\)"):
        import_sgml(src, [], [("x", tst)])


def test_nist_style_uppercase_tags_and_unquoted_attributes(tmp_path):
    src = write(
        tmp_path,
        "nist.sgm",
        '<SRCSET setid=mt06 srclang=Arabic>\n<DOC docid=AFP.1 genre=nw>\n<HL>\n<seg id=1>Headline</seg>\n</HL>\n'
        "<P>\n<seg id=2>Body text</seg>\n</P>\n</DOC>\n</SRCSET>\n",
    )
    project = import_sgml(src)
    assert project.segment_ids == ["AFP.1:1", "AFP.1:2"]
    assert project.documents[0].attributes == {"genre": "nw"}
    assert len(project.documents[0].paragraphs) == 2
    assert project.source_language == "Arabic"


def test_segments_without_ids_are_numbered_by_position(tmp_path):
    src = write(tmp_path, "s.sgm", '<srcset srclang="en">\n<doc docid="a">\n<seg>x</seg>\n<seg>y</seg>\n</doc>\n</srcset>\n')
    assert import_sgml(src).segment_ids == ["a:1", "a:2"]


def test_segment_runs_outside_p_become_their_own_paragraphs(tmp_path):
    src = write(
        tmp_path,
        "s.sgm",
        '<srcset srclang="en"><doc docid="a"><seg id="1">x</seg><seg id="2">y</seg>'
        '<p><seg id="3">z</seg></p><seg id="4">w</seg></doc></srcset>',
    )
    doc = import_sgml(src).documents[0]
    assert [[s.id for s in p.segments] for p in doc.paragraphs] == [["a:1", "a:2"], ["a:3"], ["a:4"]]


# --- real WMT data -------------------------------------------------------------------------
def test_wmt15_newstest_100_segments(shared_dir: Path):
    data = shared_dir / "data" / "wmt15-en-ru-mteval"
    project = import_sgml(
        data / "newstest2015-100sents-enru-src.en.sgm",
        [data / "newstest2015-100sents-enru-ref.ru.sgm"],
        [("", data / "newstest2015-100sents-enru-google.ru.sgm")],
    )
    # README: 100 segments in 11 documents, seg ids restart per document, sysid "Google".
    assert len(project.segments) == 100
    assert len(project.documents) == 11
    assert project.documents[0].id == "1012-bbc"
    assert project.segment_ids[:2] == ["1012-bbc:1", "1012-bbc:2"]
    assert project.documents[0].attributes == {"genre": "news", "origlang": "en"}
    assert project.name == "newstest2015"
    assert (project.source_language, project.target_language) == ("", "ru")  # srclang="any"
    assert [s.id for s in project.systems] == ["Google"]
    # In file order the segments equal the plain-text lines (README "Join keys").
    assert [s.source for s in project.segments] == read_lines(data / "newstest-2015-100sents.en-ru.src.en")
    ids = project.segment_ids
    ref = project.reference(project.references[0].id)
    assert [ref.texts[i] for i in ids] == read_lines(data / "newstest-2015-100sents.en-ru.ref.ru")
    # The Google tstset wraps the Moses-tokenized google.ru, whose quotes are written
    # &quot; in both files; the SGML reader decodes the entity.
    google = read_lines(data / "google.ru")
    assert sum("&quot;" in line for line in google) > 0
    assert [project.system_text("Google", i) for i in ids] == [line.replace("&quot;", '"') for line in google]


def test_wmt15_full_newstest_keeps_bare_ampersands(shared_dir: Path):
    data = shared_dir / "data" / "wmt15-en-ru-mteval"
    project = import_sgml(data / "newstest2015-enru-src.en.sgm", [data / "newstest2015-enru-ref.ru.sgm"])
    assert len(project.segments) == 2818  # README
    assert sum("M&S" in s.source for s in project.segments) == 1
    assert project.reference_text("ref", project.segments[0].id) is not None


def test_wmt15_round_trip(shared_dir: Path, tmp_path: Path):
    data = shared_dir / "data" / "wmt15-en-ru-mteval"
    project = import_sgml(
        data / "newstest2015-100sents-enru-src.en.sgm",
        [data / "newstest2015-100sents-enru-ref.ru.sgm"],
        [("", data / "newstest2015-100sents-enru-google.ru.sgm")],
    )
    files = export_sgml(project, tmp_path / "out")
    again = import_sgml(files[0], [files[1]], [("", files[2])])
    assert project_to_dict(again) == project_to_dict(project)


# --- export ------------------------------------------------------------------------------------
def test_export_escapes_and_round_trips(toy, tmp_path):
    src, ref, tst = toy
    project = import_sgml(src, [ref], [("", tst)])
    project.set_segment_source("d1:3", "line\nbreak\r & <tag> \"q\" 'a'")
    files = export_sgml(project, tmp_path / "out")
    assert [f.name for f in files] == ["source.sgm", "ref-ref.sgm", "sys-sysA.sgm"]
    written = files[0].read_text(encoding="utf-8")
    assert '<seg id="3">line&#10;break&#13; &amp; &lt;tag&gt; &quot;q&quot; \'a\'</seg>' in written
    assert '<seg id="1">M&amp;S and R&amp;B &amp;nbsp; stay</seg>' in written
    assert '<doc docid="d1" genre="news" origlang="en">' in written
    assert '<doc sysid="sysA" docid="d2" genre="sport" origlang="de">' in files[2].read_text(encoding="utf-8")
    again = import_sgml(files[0], [files[1]], [("", files[2])])
    assert project_to_dict(again) == project_to_dict(project)


def test_export_reference_with_gaps_round_trips(toy, tmp_path):
    src, ref, tst = toy
    partial = write(tmp_path, "partial.sgm", REF.replace('<seg id="2">zwei</seg>\n', ""))
    project = import_sgml(src, [partial], [("", tst)])
    assert project.reference_text("ref", "d2:2") is None
    files = export_sgml(project, tmp_path / "out")
    again = import_sgml(files[0], [files[1]], [("", files[2])])
    assert project_to_dict(again) == project_to_dict(project)


def test_export_file_names_stay_distinct(toy, tmp_path):
    src, ref, tst = toy
    project = import_sgml(src, [], [("a/b", tst), ("a_b", tst), ("A_B", tst)])
    names = [f.name for f in export_sgml(project, tmp_path / "out")]
    assert names == ["source.sgm", "sys-a_b.sgm", "sys-a_b-2.sgm", "sys-A_B-3.sgm"]


# --- errors ---------------------------------------------------------------------------------
def test_system_missing_a_document(toy, tmp_path):
    src, _, _ = toy
    tst = write(tmp_path, "short.sgm", TST.replace(TST[TST.index('<doc sysid="sysA" docid="d2">'):TST.index("</tstset>")], ""))
    with pytest.raises(DataError) as err:
        import_sgml(src, [], [("", tst)])
    message = str(err.value)
    assert "short.sgm" in message and "'sysA'" in message
    assert "segment '1' of document 'd2'" in message and "2 of 5 source segments are missing" in message


def test_unknown_document_in_refset(toy, tmp_path):
    src, _, _ = toy
    ref = write(tmp_path, "r.sgm", REF.replace('docid="d2"', 'docid="d9"'))
    with pytest.raises(DataError, match=r"r\.sgm, line 2, column 1: reference 'ref' has document 'd9', which is not in the source"):
        import_sgml(src, [ref])


def test_unknown_segment_in_tstset(toy, tmp_path):
    src, _, _ = toy
    tst = write(tmp_path, "t.sgm", TST.replace('<seg id="3">a3', '<seg id="7">a3'))
    with pytest.raises(DataError, match=r"t\.sgm, line 5, column 1: system 'sysA' has segment '7' in document 'd1', which the source does not have \(the source document has 3 segments\)"):
        import_sgml(src, [], [("", tst)])


def test_duplicate_ids(tmp_path):
    seg_dup = write(tmp_path, "a.sgm", '<srcset>\n<doc docid="d">\n<seg id="1">x</seg>\n  <seg id="1">y</seg>\n</doc>\n</srcset>\n')
    with pytest.raises(DataError, match=r"a\.sgm, line 4, column 3: segment id '1' appears twice in document 'd' \(first at line 3\)"):
        import_sgml(seg_dup)
    doc_dup = write(tmp_path, "b.sgm", '<srcset>\n<doc docid="d"></doc>\n<doc docid="d"></doc>\n</srcset>\n')
    with pytest.raises(DataError, match=r"b\.sgm, line 3, column 1: document id 'd' appears twice"):
        import_sgml(doc_dup)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('<srcset>\n<doc docid="d">\n<seg id="1">never closed\n</doc>\n</srcset>\n',
         r"line 4, column 1: </doc> inside <seg> \(opened at line 3\)"),
        ('<srcset>\n<doc docid="d">\n<p>\n<seg id="1">x</seg>\n</doc>\n</srcset>\n',
         r"line 5, column 1: </doc> does not match <p> opened at line 3, column 1"),
        ('<srcset>\n<doc docid="d">\n  stray words\n</doc>\n</srcset>\n',
         r"line 3, column 3: text outside <seg>: 'stray words'"),
        ('<srcset>\n<doc docid="d">\n<seg id="1">a <b>bold</b></seg>\n</doc>\n</srcset>\n',
         r"line 3, column 15: <b> inside <seg> \(opened at line 3\)"),
        ('<srcset>\n<doc docid="d">\n<table>\n</doc>\n</srcset>\n',
         r"line 3, column 1: unknown element <table>"),
        ('<srcset>\n<seg id="1">x</seg>\n</srcset>\n',
         r"line 2, column 1: <seg> inside <srcset>; it belongs inside <doc> or <p>"),
        ('<srcset>\n<doc genre="x">\n</doc>\n</srcset>\n',
         r"line 2, column 1: <doc> has no docid attribute"),
        ('<srcset>\n<doc docid="d">\n<seg id="1">x</seg>\n',
         r"line 2, column 1: <doc> is never closed"),
        ('<srcset>\n<doc docid="d">\n<seg id="1">x\n',
         r"line 3, column 1: <seg> is never closed"),
        ('<srcset>\n<doc docid="d">\n<seg id="1">&#xD800;</seg>\n</doc>\n</srcset>\n',
         r"line 3, column 1: &#xD800; is not a valid character"),
        ("just some text\n", r"line 1, column 1: text outside <seg>: 'just some text'"),
        ("", r"no <srcset> element found"),
        ('<refset trglang="de">\n</refset>\n', r"expected a <srcset> file, found <refset>"),
    ],
)
def test_malformed_sgml_is_refused_with_position(tmp_path, text, message):
    path = write(tmp_path, "bad.sgm", text)
    with pytest.raises(DataError, match=message) as err:
        import_sgml(path)
    assert str(err.value).startswith(str(path))


def test_invalid_utf8_names_file_and_byte_offset(tmp_path):
    path = tmp_path / "bad.sgm"
    path.write_bytes(b'<srcset>\n<doc docid="d">\n<seg id="1">caf\xe9</seg>\n</doc>\n</srcset>\n')
    # Offset: len('<srcset>\n<doc docid="d">\n<seg id="1">caf') = 9 + 16 + 15 = 40.
    with pytest.raises(DataError, match=r"bad\.sgm: invalid UTF-8 at byte offset 40"):
        import_sgml(path)


def test_conflicting_target_languages(toy, tmp_path):
    src, ref, tst = toy
    other = write(tmp_path, "fr.sgm", TST.replace('trglang="de"', 'trglang="fr"'))
    with pytest.raises(DataError, match=r"disagree on the target language: 'de' in .*ref\.sgm, 'fr' in .*fr\.sgm"):
        import_sgml(src, [ref], [("", other)])
    # An explicit language settles it.
    assert import_sgml(src, [ref], [("", other)], target_language="de").target_language == "de"


def test_refset_without_documents(toy, tmp_path):
    src, _, _ = toy
    empty = write(tmp_path, "empty.sgm", '<refset trglang="de">\n</refset>\n')
    with pytest.raises(DataError, match=r"empty\.sgm: the refset holds no documents"):
        import_sgml(src, [empty])


def test_crlf_files_give_the_same_project(toy, tmp_path):
    src, ref, tst = toy
    crlf = tmp_path / "crlf.sgm"
    crlf.write_bytes(SRC.replace("\n", "\r\n").encode("utf-8"))
    assert project_to_dict(import_sgml(crlf)) == project_to_dict(import_sgml(src))
