"""CoNLL-2003 BIO: reading 2- and 4-column files, IOB1 and IOB2, writing, round trips, errors."""

from __future__ import annotations

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.io.annotations.conll import format_conll, read_conll, sentence_mentions, write_conll
from mtworkbench.io.annotations.entity_records import AnnotatedText

CONLL2003 = """-DOCSTART- -X- -X- O

EU NNP B-NP I-ORG
rejects VBZ B-VP O
German JJ B-NP I-MISC
call NN I-NP O
. . O O

Peter NNP B-NP I-PER
Blackburn NNP I-NP I-PER
"""


def test_reads_conll2003_four_columns_iob1(tmp_path):
    path = tmp_path / "x.conll"
    path.write_text(CONLL2003, encoding="utf-8")
    sentences = read_conll(path)
    assert len(sentences) == 2
    first = sentence_mentions(sentences[0])
    assert first.text == "EU rejects German call ."
    # IOB1: an I- tag after O starts an entity.
    assert first.mentions == [EntityMention(0, 2, "ORG"), EntityMention(11, 17, "MISC")]
    second = sentence_mentions(sentences[1])
    assert second.mentions == [EntityMention(0, 15, "PER")]
    assert second.line == 9


def test_b_tag_splits_adjacent_entities_of_one_type(tmp_path):
    path = tmp_path / "x.conll"
    path.write_text("Paris\tB-LOC\nLondon\tB-LOC\nNew\tB-LOC\nYork\tI-LOC\n", encoding="utf-8")
    record = sentence_mentions(read_conll(path)[0])
    assert record.mentions == [EntityMention(0, 5, "LOC"), EntityMention(6, 12, "LOC"), EntityMention(13, 21, "LOC")]


def test_aligns_tokens_to_a_known_text(tmp_path):
    path = tmp_path / "x.conll"
    path.write_text("Chirac\tB-PERSON\n's\tO\nvisit\tO\nto\tO\nBonn\tB-LOCATION\n.\tO\n", encoding="utf-8")
    record = sentence_mentions(read_conll(path)[0], "Chirac's  visit to Bonn.")
    assert record.mentions == [EntityMention(0, 6, "PERSON"), EntityMention(19, 23, "LOCATION")]
    with pytest.raises(DataError, match=r"line 5, column 1: token 'Bonn' does not match"):
        sentence_mentions(read_conll(path)[0], "Chirac's visit to Bern.", path)


def test_writes_iob2_with_tokens_split_at_entity_edges():
    text = "Jean-Paul met the Smiths' dog in 2020."
    out = format_conll([
        AnnotatedText(text, [EntityMention(0, 9, "PERSON"), EntityMention(18, 24, "PERSON"), EntityMention(33, 37, "DATE")]),
        AnnotatedText("", []),
        AnnotatedText("Hi", []),
    ])
    assert out == (
        "Jean\tB-PERSON\n-\tI-PERSON\nPaul\tI-PERSON\nmet\tO\nthe\tO\nSmiths\tB-PERSON\n'\tO\ndog\tO\nin\tO\n"
        "2020\tB-DATE\n.\tO\n"
        "\n"
        "Hi\tO\n"
    )


def test_round_trip(tmp_path):
    records = [
        AnnotatedText("Angela Merkel traf Emmanuel Macron in Paris.", [
            EntityMention(0, 13, "PERSON"), EntityMention(19, 34, "PERSON"), EntityMention(38, 43, "LOCATION"),
        ]),
        AnnotatedText("Keine Namen hier.", []),
        AnnotatedText("Die UNO-Charta (1945)", [EntityMention(4, 7, "ORGANIZATION"), EntityMention(16, 20, "DATE")]),
    ]
    path = tmp_path / "r.conll"
    write_conll(path, records)
    back = [sentence_mentions(s, r.text) for s, r in zip(read_conll(path), records)]
    assert [(b.text, b.mentions) for b in back] == [(r.text, r.mentions) for r in records]


@pytest.mark.parametrize(
    "content, line, column, message",
    [
        ("Paris B-LOC\nis X-LOC\n", 2, 4, "tag 'X-LOC' is not O, B-TYPE or I-TYPE"),
        ("Paris B-LOC\nis\n", 2, 3, "expected a token and a tag"),
        ("Paris\tB-\n", 1, 7, "tag 'B-' is not"),
        ("Paris NNP B-NP LOC\n", 1, 16, "tag 'LOC'"),
    ],
)
def test_malformed_tags_name_line_and_column(tmp_path, content, line, column, message):
    path = tmp_path / "bad.conll"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataError, match=message) as info:
        read_conll(path)
    assert str(info.value).startswith(f"{path}, line {line}, column {column}:")


def test_types_with_spaces_cannot_be_written():
    with pytest.raises(DataError, match="whitespace"):
        format_conll([AnnotatedText("Lost", [EntityMention(0, 4, "TV series")])])
