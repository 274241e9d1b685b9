"""MUC-7 inline SGML: parsing, writing, round trips and refused markup."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.entity_records import AnnotatedText
from mtworkbench.io.annotations.muc import format_inline, parse_inline, read_muc, write_muc


def test_parse_the_three_elements():
    line = (
        '<ENAMEX TYPE="PERSON">Jacques Chirac</ENAMEX> paid <NUMEX TYPE="MONEY">$5</NUMEX> '
        'on <TIMEX TYPE="DATE">Monday</TIMEX> in <ENAMEX TYPE="LOCATION">Bonn</ENAMEX>.'
    )
    text, mentions = parse_inline(line)
    assert text == "Jacques Chirac paid $5 on Monday in Bonn."
    assert mentions == [
        EntityMention(0, 14, "PERSON"),
        EntityMention(20, 22, "MONEY"),
        EntityMention(26, 32, "DATE"),
        EntityMention(36, 40, "LOCATION"),
    ]
    assert [text[m.start : m.end] for m in mentions] == ["Jacques Chirac", "$5", "Monday", "Bonn"]


def test_attributes_unquoted_single_quoted_extra_and_lowercase_tags():
    text, mentions = parse_inline("<enamex STATUS=OPT type='ORGANIZATION' ALT=\"IBM\">I.B.M.</enamex> rose")
    assert text == "I.B.M. rose"
    assert mentions == [EntityMention(0, 6, "ORGANIZATION")]


def test_character_entities_and_literal_markup_characters():
    text, mentions = parse_inline('<ENAMEX TYPE="ORGANIZATION">AT&amp;T</ENAMEX> &lt;3 x < y & z &foo;')
    assert text == "AT&T <3 x < y & z &foo;"
    assert mentions == [EntityMention(0, 4, "ORGANIZATION")]


def test_format_picks_the_element_and_escapes():
    line = format_inline("AT&T hired Ann <today>", [
        EntityMention(0, 4, "ORGANIZATION"),
        EntityMention(11, 14, "PERSON"),
        EntityMention(15, 22, "DATE"),
    ])
    assert line == (
        '<ENAMEX TYPE="ORGANIZATION">AT&amp;T</ENAMEX> hired <ENAMEX TYPE="PERSON">Ann</ENAMEX> '
        '<TIMEX TYPE="DATE">&lt;today&gt;</TIMEX>'
    )
    assert format_inline("5%", [EntityMention(0, 2, "PERCENT")]) == '<NUMEX TYPE="PERCENT">5%</NUMEX>'


@pytest.mark.parametrize(
    "line, column, message",
    [
        ('<ENAMEX TYPE="PERSON">Ann', 1, "not closed by the end of the line"),
        ('Ann</ENAMEX>', 4, "closes no open tag"),
        ('<ENAMEX TYPE="PERSON">Ann</TIMEX>', 26, "closes <ENAMEX> opened at column 1"),
        ('x <ENAMEX TYPE="PERSON"><ENAMEX TYPE="PERSON">Ann</ENAMEX></ENAMEX>', 25, "nested"),
        ('<ENAMEX>Ann</ENAMEX>', 1, "needs a TYPE"),
        ('ab <B>bold</B>', 4, "unknown tag <B>"),
        ('ab <ENAMEX TYPE="PERSON"', 4, "not closed with '>'"),
        ('<ENAMEX TYPE="PERSON"></ENAMEX>', 23, "empty <ENAMEX>"),
        ('<ENAMEX TYPE="PERSON" junk>Ann</ENAMEX>', 23, "malformed attributes"),
        ('<ENAMEX TYPE="PERSON">Ann</ENAMEX x="1">', 26, "cannot have attributes"),
    ],
)
def test_malformed_lines_name_the_column(line, column, message):
    with pytest.raises(DataError, match=message) as info:
        parse_inline(line)
    assert info.value.column == column
    assert f"column {column}" in str(info.value)


def test_file_errors_name_file_line_and_column(tmp_path):
    path = tmp_path / "ref.sgml"
    path.write_text('<ENAMEX TYPE="PERSON">Ann</ENAMEX>\nok\nBob</ENAMEX>\n', encoding="utf-8")
    with pytest.raises(DataError) as info:
        read_muc(path)
    assert str(info.value).startswith(f"{path}, line 3, column 4:")


def test_invalid_utf8_names_line_and_column(tmp_path):
    path = tmp_path / "ref.sgml"
    path.write_bytes(b"fine\nab\xffc\n")
    with pytest.raises(DataError, match=r"line 2, column 3: invalid UTF-8 byte 0xff"):
        read_muc(path)


def test_file_round_trip(tmp_path):
    records = [
        AnnotatedText("Chirac visited Bonn.", [EntityMention(0, 6, "PERSON"), EntityMention(15, 19, "LOCATION")]),
        AnnotatedText("", []),
        AnnotatedText("Prices rose 5% in R&D <sic>.", [EntityMention(12, 14, "PERCENT")]),
    ]
    path = tmp_path / "out.sgml"
    write_muc(path, records)
    back = read_muc(path)
    assert [(r.text, r.mentions) for r in back] == [(r.text, r.mentions) for r in records]


_types = st.sampled_from(["PERSON", "ORGANIZATION", "DATE", "MONEY", "TV_SERIES"])


@st.composite
def annotated(draw):
    text = draw(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=40))
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=6))))
    mentions = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        if a < b:
            mentions.append(EntityMention(a, b, draw(_types)))
    return text, mentions


@given(annotated())
def test_inline_round_trip_property(case):
    text, mentions = case
    assert parse_inline(format_inline(text, mentions)) == (text, mentions)
