"""brat, WebAnno TSV 3 and spans JSON: nested, overlapping and discontinuous spans and
relations survive export -> import exactly, in several scripts."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtworkbench.core.layers import Relation
from mtworkbench.core.model import Document, EntitySpan, Paragraph, Project, Reference, Segment
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.annotations import export_entities, import_entities
from mtworkbench.io.annotations.brat import format_brat, read_brat_with_links
from mtworkbench.io.annotations.entity_records import AnnotatedText, MentionLink
from mtworkbench.io.annotations.spans_json import format_spans_json, read_spans_json
from mtworkbench.io.annotations.webanno import format_webanno, read_webanno
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle

TEXTS = ["Peking University is in Beijing .", "习近平在北京大学演讲。", "Die Stadt Köln liegt am Rhein .",
         "Москва - столица России .", "ذهب محمد إلى القاهرة .", "東京大学で講演した。"]


def _words(text: str) -> list[tuple[int, int]]:
    import re

    return [m.span() for m in re.finditer(r"\S", text)] if " " not in text else \
        [m.span() for m in re.finditer(r"\S+", text)]


@st.composite
def documents(draw, discontinuous: bool = True):
    records = []
    for text in draw(st.lists(st.sampled_from(TEXTS), min_size=1, max_size=3)):
        units = _words(text)
        mentions = set()
        for _ in range(draw(st.integers(0, 4))):
            a = draw(st.integers(0, len(units) - 1))
            b = draw(st.integers(a, min(len(units) - 1, a + 3)))
            kind = draw(st.sampled_from(["PER", "ORG", "LOC"]))
            if discontinuous and b > a + 1 and draw(st.booleans()):
                mentions.add(EntityMention(units[a][0], units[b][1], kind,
                                           ((units[a][0], units[a][1]), (units[b][0], units[b][1]))))
            else:
                mentions.add(EntityMention(units[a][0], units[b][1], kind))
        records.append(AnnotatedText(text, sorted(mentions, key=lambda m: (m.start, -m.end, m.type, m.fragments))))
    all_ids = [(i, k) for i, r in enumerate(records) for k in range(len(r.mentions))]
    links = []
    if len(all_ids) >= 2:
        for _ in range(draw(st.integers(0, 3))):
            s, t = draw(st.sampled_from(all_ids)), draw(st.sampled_from(all_ids))
            if s != t:
                links.append(MentionLink(s, t, draw(st.sampled_from(["part-of", "translation-of"]))))
    return records, links


def _canon(records, links):
    """Records and links independent of mention order within a record."""
    ordered = []
    key_of = {}
    for i, r in enumerate(records):
        order = sorted(range(len(r.mentions)), key=lambda k: (r.mentions[k].start, -r.mentions[k].end,
                                                              r.mentions[k].type, r.mentions[k].fragments))
        ordered.append((r.text, [r.mentions[k] for k in order]))
        for new, k in enumerate(order):
            key_of[(i, k)] = (i, new)
    return ordered, sorted((key_of[k.source], key_of[k.target], k.type) for k in links)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=documents())
def test_brat_round_trip(tmp_path, doc):
    records, links = doc
    txt, ann = format_brat(records, links)
    (tmp_path / "d.txt").write_text(txt, encoding="utf-8")
    (tmp_path / "d.ann").write_text(ann, encoding="utf-8")
    back = read_brat_with_links(tmp_path / "d.ann")
    assert _canon(*back) == _canon(records, links)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=documents(discontinuous=False))
def test_webanno_round_trip(tmp_path, doc):
    records, links = doc
    (tmp_path / "d.tsv").write_text(format_webanno(records, links), encoding="utf-8")
    back = read_webanno(tmp_path / "d.tsv")
    assert _canon(*back) == _canon(records, links)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=documents())
def test_json_round_trip(tmp_path, doc):
    records, links = doc
    (tmp_path / "d.json").write_text(format_spans_json(records, links), encoding="utf-8")
    assert _canon(*read_spans_json(tmp_path / "d.json")) == _canon(records, links)


WEBANNO = """#FORMAT=WebAnno TSV 3.3
#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value
#T_RL=webanno.custom.Relation|label|BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity


#Text=Peking University is in Beijing .
1-1\t0-6\tPeking\t*[1]|*[2]\tORG[1]|LOC[2]\t_\t_\t
1-2\t7-17\tUniversity\t*[1]\tORG[1]\t_\t_\t
1-3\t18-20\tis\t_\t_\t_\t_\t
1-4\t21-23\tin\t_\t_\t_\t_\t
1-5\t24-31\tBeijing\t*\tLOC\tpart-of\t1-1[1_0]\t
1-6\t32-33\t.\t_\t_\t_\t_\t
"""


def test_webanno_reads_stacked_multi_token_spans_and_relations(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text(WEBANNO, encoding="utf-8")
    records, links = read_webanno(path)
    text = records[0].text
    got = sorted((text[m.start:m.end], m.type) for m in records[0].mentions)
    assert got == [("Beijing", "LOC"), ("Peking", "LOC"), ("Peking University", "ORG")]
    [link] = links
    src, tgt = records[0].mentions[link.source[1]], records[0].mentions[link.target[1]]
    assert (text[src.start:src.end], text[tgt.start:tgt.end], link.type) == ("Peking University", "Beijing", "part-of")


def _project(texts):
    doc = Document("d", [Paragraph("p", [Segment(str(i), "x") for i in range(len(texts))])])
    p = Project([doc], target_language="en")
    p.add_reference(Reference("r1", "", {str(i): t for i, t in enumerate(texts)}))
    return p


def test_cli_brat_import_export_keeps_nesting_discontinuity_and_relations(tmp_path):
    text = "Peking University is in Beijing .\nДом в Москве .\n"
    ann = ("T1\tORG 0 17\tPeking University\nT2\tLOC 0 6\tPeking\nT3\tGPE 7 17;24 31\tUniversity Beijing\n"
           "T4\tLOC 24 31\tBeijing\nT5\tLOC 40 46\tМоскве\nR1\tpart-of Arg1:T2 Arg2:T1\nR2\tnear Arg1:T1 Arg2:T4\n"
           "#1\tAnnotatorNotes T1\ta note\n")
    (tmp_path / "in.txt").write_text(text, encoding="utf-8")
    (tmp_path / "in.ann").write_text(ann, encoding="utf-8")
    bundle = tmp_path / "p.mtwb.json"
    save_bundle(_project(["Peking University is in Beijing .", "Дом в Москве ."]), bundle)
    run = [sys.executable, "-m", "mtworkbench"]
    subprocess.run([*run, "entities", "import", str(bundle), str(tmp_path / "in.ann"), "--reference", "r1",
                    "--annotator", "A", "--format", "brat", "--create-types"], check=True, capture_output=True)
    project = load_bundle(bundle)
    assert len(project.spans) == 5 and len(project.relations) == 2
    subprocess.run([*run, "entities", "export", str(bundle), str(tmp_path / "out.ann"), "--reference", "r1",
                    "--annotator", "A", "--format", "brat"], check=True, capture_output=True)
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == text

    def parsed(path):
        recs, links = read_brat_with_links(path)
        return _canon(recs, links)

    assert parsed(tmp_path / "out.ann") == parsed(tmp_path / "in.ann")


def test_project_round_trip_through_every_relation_format(tmp_path):
    p = _project(["Peking University is in Beijing .", "Die Stadt Köln liegt am Rhein ."])
    p.settings.entity_types.append(p.settings.entity_types[0].__class__("GPE", "G", "#123456"))
    p.add_span(EntitySpan("a", "r1", "0", 0, 17, "ORGANIZATION", "A"))
    p.add_span(EntitySpan("b", "r1", "0", 0, 6, "LOCATION", "A"))
    p.add_span(EntitySpan("c", "r1", "1", 10, 14, "LOCATION", "A"))
    p.add_relation(Relation("r", "part-of", "b", "a", "A"))
    for fmt, name in (("brat", "x.ann"), ("webanno", "x.tsv"), ("json", "x.json")):
        export_entities(p, "r1", "A", fmt, tmp_path / name)
        q = _project(["Peking University is in Beijing .", "Die Stadt Köln liegt am Rhein ."])
        import_entities(q, tmp_path / name, fmt, "r1", "A")
        assert sorted((s.segment, s.start, s.end, s.type) for s in q.spans) == sorted(
            (s.segment, s.start, s.end, s.type) for s in p.spans), fmt
        [rel] = q.relations
        assert (q.span(rel.source).type, q.span(rel.target).type, rel.type) == ("LOCATION", "ORGANIZATION", "part-of")


def test_a_span_listed_twice_is_kept_once_with_its_relations(tmp_path):
    (tmp_path / "d.txt").write_text("Köln liegt am Rhein .\n", encoding="utf-8")
    (tmp_path / "d.ann").write_text(
        "T1\tLOC 0 4\tKöln\nT2\tLOC 0 4\tKöln\nT3\tLOC 14 19\tRhein\n"
        "R1\tnear Arg1:T1 Arg2:T3\nR2\tnear Arg1:T2 Arg2:T3\n", encoding="utf-8")
    p = _project(["Köln liegt am Rhein ."])
    summary = import_entities(p, tmp_path / "d.ann", "brat", "r1", "A", create_types=True)
    assert summary.spans == 2 and len(p.relations) == 1


def test_webanno_custom_layers_pick_the_linked_span_layer(tmp_path):
    text = """#FORMAT=WebAnno TSV 3.2
#T_SP=org.dkpro.core.api.pdf.type.PdfPage|height|pageNumber|width
#T_SP=webanno.custom.Referent|entity|infstat
#T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent


#Text=Anna sah sie .
1-1\t0-4\tAnna\t_\t_\t_\tperson\tnew\t_\t_
1-2\t5-8\tsah\t_\t_\t_\t_\t_\t_\t_
1-3\t9-12\tsie\t_\t_\t_\tperson\tgiven\tcoref[1]\t1-1
1-4\t13-14\t.\t_\t_\t_\t_\t_\t_\t_
"""
    path = tmp_path / "c.tsv"
    path.write_text(text, encoding="utf-8")
    records, links = read_webanno(path)
    r = records[0]
    assert sorted((r.text[m.start:m.end], m.type) for m in r.mentions) == [("Anna", "person"), ("sie", "person")]
    [link] = links
    assert (r.text[r.mentions[link.source[1]].start:r.mentions[link.source[1]].end], link.type) == ("Anna", "coref")


def test_cli_webanno_import_export_keeps_stacked_spans_and_relations(tmp_path):
    (tmp_path / "in.tsv").write_text(WEBANNO, encoding="utf-8")
    bundle = tmp_path / "p.mtwb.json"
    save_bundle(_project(["Peking University is in Beijing ."]), bundle)
    run = [sys.executable, "-m", "mtworkbench", "entities"]
    subprocess.run([*run, "import", str(bundle), str(tmp_path / "in.tsv"), "--reference", "r1", "--annotator", "A",
                    "--format", "webanno-tsv", "--create-types"], check=True, capture_output=True)
    subprocess.run([*run, "export", str(bundle), str(tmp_path / "out.tsv"), "--reference", "r1", "--annotator", "A",
                    "--format", "webanno"], check=True, capture_output=True)
    assert _canon(*read_webanno(tmp_path / "out.tsv")) == _canon(*read_webanno(tmp_path / "in.tsv"))
    assert (tmp_path / "out.tsv").read_text(encoding="utf-8").startswith("#FORMAT=WebAnno TSV 3.3\n")
