"""An imported entity span must not cut a user-perceived character: ``José`` written
with a combining accent (J o s e U+0301) is five code points, and a span 0-4 would
cut the accent off. Such a span is refused, naming its offsets and where the
character starts and ends; a span on whole characters imports as before."""

from __future__ import annotations

import json

import pytest

from mtworkbench.io.annotations.brat import read_brat
from mtworkbench.io.annotations.entities_jsonl import read_entities_jsonl
from mtworkbench.io.annotations.entity_records import FormatError, grapheme_cut
from mtworkbench.io.annotations.muc import read_muc

JOSE = "Jose\u0301 wohnt in Zürich"


def _jsonl(tmp_path, text, start, end):
    path = tmp_path / "e.jsonl"
    record = {"segment": "s1", "text": text, "entities": [{"start": start, "end": end, "type": "PER"}]}
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def test_a_jsonl_span_cutting_a_combining_accent_is_refused_naming_offsets(tmp_path):
    with pytest.raises(FormatError) as caught:
        read_entities_jsonl(_jsonl(tmp_path, JOSE, 0, 4))
    message = str(caught.value)
    assert "e.jsonl" in message and "line 1" in message and "0-4" in message and "(3 or 5)" in message


def test_whole_characters_import_in_every_script(tmp_path):
    assert read_entities_jsonl(_jsonl(tmp_path, JOSE, 0, 5))[0].mentions[0].end == 5
    for text, end in [("Владимир Путин", 8), ("東京都に住む", 3), ("محمد في القاهرة", 4), ("👩‍👩‍👧 Familie", 5)]:
        assert read_entities_jsonl(_jsonl(tmp_path, text, 0, end))[0].mentions[0].end == end


def test_an_emoji_sequence_or_hangul_jamo_cannot_be_split(tmp_path):
    with pytest.raises(FormatError, match="0-2"):
        read_entities_jsonl(_jsonl(tmp_path, "👩‍👩‍👧 Familie", 0, 2))
    jamo = "\u1112\u1161\u11ab 사람"  # 한 in conjoining jamo
    with pytest.raises(FormatError, match="1-3"):
        read_entities_jsonl(_jsonl(tmp_path, jamo, 1, 3))
    assert grapheme_cut(jamo, (0, 3)) is None and grapheme_cut(jamo, (1,)) == 1


def test_brat_and_muc_refuse_the_same_cut(tmp_path):
    txt, ann = tmp_path / "e.txt", tmp_path / "e.ann"
    txt.write_text(JOSE + "\n", encoding="utf-8")
    ann.write_text("T1\tPER 0 4\tJose\n", encoding="utf-8")
    with pytest.raises(FormatError, match="0-4"):
        read_brat(ann)
    ann.write_text("T1\tPER 0 5\tJos\u00e9\n".replace("Jos\u00e9", "Jose\u0301"), encoding="utf-8")
    assert read_brat(ann)[0].mentions[0].end == 5
    muc = tmp_path / "e.muc"
    muc.write_text('<ENAMEX TYPE="PERSON">Jose</ENAMEX>\u0301 wohnt hier\n', encoding="utf-8")
    with pytest.raises(FormatError, match=r"e\.muc"):
        read_muc(muc)
