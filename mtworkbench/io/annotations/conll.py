"""CoNLL-2003 style BIO: a token per line, a blank line between segments.

Reading takes the first column as the token and the last as the tag, so both
the two-column form (``Paris B-LOC``) and CoNLL-2003's four columns
(``Paris NNP I-NP B-LOC``) work; ``-DOCSTART-`` lines are skipped. Tags are
``O``, ``B-TYPE`` or ``I-TYPE``; an ``I-`` tag that does not continue an entity
of the same type starts one (IOB1, as in the original CoNLL-2003 files).
Writing uses IOB2 (every entity starts with ``B-``), two columns, tab-separated.

Tokens carry no spacing, so a read segment is either aligned to a known text
(its reference; whitespace between tokens is skipped) or joined with single
spaces. Segments with no tokens cannot be written (CoNLL has no empty sentence);
writers skip them and readers give them none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.scoring_input import EntityMention
from mtworkbench.core.text import TOKEN_RE
from mtworkbench.core.text_display import clip
from mtworkbench.io.annotations.entity_records import AnnotatedText, FormatError, check_mentions, read_utf8, split_lines


@dataclass
class ConllToken:
    text: str
    tag: str
    line: int
    tag_column: int


@dataclass
class ConllSentence:
    tokens: list[ConllToken] = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.tokens[0].line if self.tokens else 0


def read_conll(path: str | Path) -> list[ConllSentence]:
    """The sentences of a CoNLL file; bad tags are refused with line and column."""
    sentences: list[ConllSentence] = []
    current = ConllSentence()
    for lineno, line in enumerate(split_lines(read_utf8(path)), 1):
        if not line.strip():
            if current.tokens:
                sentences.append(current)
                current = ConllSentence()
            continue
        fields = line.split()
        if fields[0] == "-DOCSTART-":
            continue
        if len(fields) < 2:
            raise FormatError("expected a token and a tag separated by whitespace", path, lineno, len(line) + 1)
        tag = fields[-1]
        tag_column = line.rstrip().rfind(tag) + 1
        _check_tag(tag, path, lineno, tag_column)
        current.tokens.append(ConllToken(fields[0], tag, lineno, tag_column))
    if current.tokens:
        sentences.append(current)
    return sentences


def _check_tag(tag: str, path: str | Path, line: int, column: int) -> None:
    if tag == "O":
        return
    prefix, dash, entity_type = tag.partition("-")
    if prefix not in ("B", "I") or not dash or not entity_type:
        raise FormatError(f"tag {tag!r} is not O, B-TYPE or I-TYPE", path, line, column)


def sentence_mentions(sentence: ConllSentence, text: str | None = None, path: str | Path | None = None) -> AnnotatedText:
    """The sentence as text plus mentions: aligned to ``text`` when given, else tokens joined by spaces."""
    if text is None:
        text = " ".join(t.text for t in sentence.tokens)
    spans: list[tuple[int, int]] = []
    pos = 0
    for tok in sentence.tokens:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if not text.startswith(tok.text, pos):
            found = text[pos : pos + len(tok.text)]
            raise FormatError(
                f"token {clip(tok.text)} does not match the text at character {pos + 1} ({clip(found)})",
                path,
                tok.line,
                1,
            )
        spans.append((pos, pos + len(tok.text)))
        pos += len(tok.text)
    if text[pos:].strip():
        raise FormatError(
            f"the tokens end at character {pos + 1} but the text goes on: {text[pos:].strip()[:30]!r}",
            path,
            sentence.tokens[-1].line if sentence.tokens else None,
        )
    mentions: list[EntityMention] = []
    current: tuple[str, int, int] | None = None  # type, start, end
    for tok, (start, end) in zip(sentence.tokens, spans):
        if tok.tag == "O":
            if current:
                mentions.append(EntityMention(current[1], current[2], current[0]))
            current = None
            continue
        prefix, _, entity_type = tok.tag.partition("-")
        if prefix == "I" and current is not None and current[0] == entity_type:
            current = (entity_type, current[1], end)
        else:
            if current:
                mentions.append(EntityMention(current[1], current[2], current[0]))
            current = (entity_type, start, end)
    if current:
        mentions.append(EntityMention(current[1], current[2], current[0]))
    return AnnotatedText(text, mentions, line=sentence.line)


def tokenise_for_conll(text: str, mentions: Sequence[EntityMention]) -> list[tuple[int, int, str]]:
    """Tokens of ``text`` as (start, end, tag), split wherever an entity begins or ends."""
    cuts = sorted({m.start for m in mentions} | {m.end for m in mentions})
    pieces: list[tuple[int, int]] = []
    for match in TOKEN_RE.finditer(text):
        start, end = match.span()
        for c in cuts:
            if start < c < end:
                pieces.append((start, c))
                start = c
        pieces.append((start, end))
    out = []
    for start, end in pieces:
        tag = "O"
        for m in mentions:
            if m.start <= start and end <= m.end:
                tag = ("B-" if start == m.start or not text[m.start : start].strip() else "I-") + m.type
                break
        out.append((start, end, tag))
    return out


def format_conll(records: Sequence[AnnotatedText]) -> str:
    """CoNLL text for records; records without tokens are left out."""
    blocks = []
    for r in records:
        check_mentions(r)
        for m in r.mentions:
            if not m.type or any(ch.isspace() for ch in m.type):
                raise DataError(f"entity type {m.type!r} cannot be written in CoNLL (it contains whitespace)")
        tokens = tokenise_for_conll(r.text, r.mentions)
        if tokens:
            blocks.append("".join(f"{r.text[s:e]}\t{tag}\n" for s, e, tag in tokens))
    return "\n".join(blocks)


def write_conll(path: str | Path, records: Sequence[AnnotatedText]) -> None:
    from mtworkbench.core.output import write_output

    write_output(path, format_conll(records))
