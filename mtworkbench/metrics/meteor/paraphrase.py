"""Meteor 1.4's paraphrase module: phrase-to-phrase matches from a paraphrase
table the user owns (Meteor's ``paraphrase-XX.gz``, not shipped here).

Table format (gzip or plain UTF-8 text), three lines an entry::

    0.125            <- a probability (Meteor ignores it)
    the united states
    the us

An entry lets the first phrase, found in one sentence, match the second found
in the other; both directions are tried, as Meteor does.

A paraphrase match may cover several words on either side, so segments that
use the module are aligned by :func:`phrase_search`, Meteor's beam search over
matches of any length (the same quirks as :mod:`.search`: Java ``int +=
double`` truncation of the weighted match counts, the parent's distance carried
by a new path), and scored by :func:`phrase_statistics_row`.
"""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from pathlib import Path

from mtworkbench.metrics.base import MetricError
from mtworkbench.metrics.meteor import scoring
from mtworkbench.metrics.meteor.matchers import Candidates


@dataclass(frozen=True)
class PhraseMatch:
    """Hypothesis words [hyp_start, hyp_start + hyp_len) match reference words
    [ref_start, ref_start + ref_len) by module ``slot``."""

    ref_start: int
    ref_len: int
    hyp_start: int
    hyp_len: int
    slot: int


# A search path's chosen matches, newest first, as a linked list; and the path itself (see phrase_search).
_Chosen = tuple[PhraseMatch, "_Chosen"] | None
_Path = tuple[tuple[int, int, int], int, int, int, int, int, int, int, int, _Chosen]


class ParaphraseTable:
    """Phrase -> its paraphrases, in file order."""

    def __init__(self, entries: dict[tuple[str, ...], list[tuple[str, ...]]]) -> None:
        self.entries = entries
        self.longest = max((len(k) for k in entries), default=0)

    def paths(self, words: Sequence[str], start: int) -> list[tuple[int, tuple[str, ...]]]:
        """(length, paraphrase) of every table phrase found at ``words[start:]``,
        shortest first, file order within a length (Meteor's transducer order)."""
        out = []
        for n in range(1, min(self.longest, len(words) - start) + 1):
            for par in self.entries.get(tuple(words[start : start + n]), ()):
                out.append((n, par))
        return out


@lru_cache(maxsize=4)
def load_paraphrase_table(path: str) -> ParaphraseTable:
    """Read a Meteor paraphrase table; a bad file is a one-line MetricError."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise MetricError(f"meteor: paraphrase table {path}: {exc.strerror or exc}") from None
    try:
        text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise MetricError(f"meteor: paraphrase table {path}: not gzip'd or plain UTF-8 text ({exc})") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) % 3:
        raise MetricError(
            f"meteor: paraphrase table {path}: {len(lines)} lines; expected entries of three lines "
            "(probability, phrase, paraphrase)"
        )
    entries: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for k in range(0, len(lines), 3):
        try:
            float(lines[k])
        except ValueError:
            raise MetricError(
                f"meteor: paraphrase table {path}: line {k + 1}: expected a probability, found {lines[k][:40]!r}"
            ) from None
        phrase, para = tuple(lines[k + 1].split()), tuple(lines[k + 2].split())
        if not phrase or not para:
            raise MetricError(f"meteor: paraphrase table {path}: line {k + 2}: an empty phrase")
        entries.setdefault(phrase, []).append(para)
    return ParaphraseTable(entries)


def phrase_candidates(
    cands: Candidates, hyp: Sequence[str], ref: Sequence[str], table: ParaphraseTable, slot: int
) -> list[list[PhraseMatch]]:
    """The single-word candidates of the other modules plus paraphrase matches,
    per reference position in Meteor's order (reference-side phrases first)."""
    by_ref = [[PhraseMatch(j, 1, i, 1, s) for i, s in row] for j, row in enumerate(cands.by_ref)]
    if list(hyp) == list(ref):
        return by_ref  # identical sentences: Meteor runs only the first module
    for j in range(len(ref)):
        for n, words in table.paths(ref, j):
            for i in range(len(hyp) - len(words) + 1):
                if tuple(hyp[i : i + len(words)]) == words:
                    by_ref[j].append(PhraseMatch(j, n, i, len(words), slot))
    for i in range(len(hyp)):
        for n, words in table.paths(hyp, i):
            for j in range(len(ref) - len(words) + 1):
                if tuple(ref[j : j + len(words)]) == words:
                    by_ref[j].append(PhraseMatch(j, len(words), i, n, slot))
    return by_ref


def phrase_search(
    by_ref: list[list[PhraseMatch]], hyp_len: int, search_weights: Sequence[float], beam_size: int
) -> list[PhraseMatch]:
    """Meteor's beam search over matches of any length; the chosen matches by reference start."""
    n = len(by_ref)
    hyp_cov = [0] * hyp_len
    ref_cov = [0] * n
    for row in by_ref:
        for m in row:
            for k in range(m.hyp_len):
                hyp_cov[m.hyp_start + k] += 1
            for k in range(m.ref_len):
                ref_cov[m.ref_start + k] += 1
    fixed: dict[int, PhraseMatch] = {}
    used_hyp0 = used_ref0 = 0
    for j, row in enumerate(by_ref):
        if len(row) == 1:
            m = row[0]
            if all(ref_cov[j + k] == 1 for k in range(m.ref_len)) and all(
                hyp_cov[m.hyp_start + k] == 1 for k in range(m.hyp_len)
            ):
                fixed[j] = m
                used_ref0 |= _mask(j, m.ref_len)
                used_hyp0 |= _mask(m.hyp_start, m.hyp_len)

    def key(m1: int, m2: int, c: int, d: int) -> tuple[int, int, int]:
        return (-(m1 + m2), c, d)

    # path: (key, m1, m2, chunks, distance, idx, last_end, used_hyp, used_ref, chosen)
    first = itemgetter(0)
    paths: list[_Path] = [(key(0, 0, 0, 0), 0, 0, 0, 0, 0, -1, used_hyp0, used_ref0, None)]
    for current in range(n + 1):
        paths.sort(key=first)  # stable, as Java's Collections.sort
        nxt: list[_Path] = []
        for path in paths[:beam_size]:
            _, m1, m2, c, d, idx, end, uh, ur, chosen = path
            if current == n:
                if end != -1:
                    c += 1
                nxt.append((key(m1, m2, c, d), m1, m2, c, d, idx, end, uh, ur, chosen))
                continue
            if ur >> current & 1:
                if current < idx:
                    nxt.append(path)
                elif idx in fixed:
                    m = fixed[idx]
                    w = search_weights[m.slot]
                    m1, m2 = int(m1 + m.hyp_len * w), int(m2 + m.ref_len * w)
                    if end != -1 and m.hyp_start != end:
                        c += 1
                    d += abs(m.ref_start - m.hyp_start)
                    idx, end = m.ref_start + m.ref_len, m.hyp_start + m.hyp_len
                    nxt.append((key(m1, m2, c, d), m1, m2, c, d, idx, end, uh, ur, (m, chosen)))
                continue
            for m in by_ref[current]:
                mh, mr = _mask(m.hyp_start, m.hyp_len), _mask(m.ref_start, m.ref_len)
                if uh & mh or ur & mr:
                    continue
                w = search_weights[m.slot]
                n1, n2 = int(m1 + m.hyp_len * w), int(m2 + m.ref_len * w)
                c2 = c + 1 if (end != -1 and m.hyp_start != end) else c
                # the new path keeps the parent's distance; the parent takes this one's (Meteor)
                nxt.append((
                    key(n1, n2, c2, d), n1, n2, c2, d, m.ref_start + m.ref_len,
                    m.hyp_start + m.hyp_len, uh | mh, ur | mr, (m, chosen),
                ))
                d += abs(m.ref_start - m.hyp_start)
            if end != -1:
                c += 1
                end = -1
            nxt.append((key(m1, m2, c, d), m1, m2, c, d, idx + 1, end, uh, ur, chosen))
        paths = nxt or [paths[0]]
    paths.sort(key=first)
    out: list[PhraseMatch] = []
    chosen = paths[0][9]
    while chosen is not None:
        m, chosen = chosen
        out.append(m)
    out.sort(key=lambda m: m.ref_start)
    return out


def _mask(start: int, length: int) -> int:
    return ((1 << length) - 1) << start


def count_chunks(matches: Sequence[PhraseMatch]) -> int:
    """Meteor's chunk count over matches sorted by reference start."""
    chunks, ref_next, hyp_end = 0, 0, -1
    for m in matches:
        if m.ref_start != ref_next and hyp_end != -1:
            chunks += 1  # a reference gap closes the open chunk
            hyp_end = -1
        if hyp_end != -1 and m.hyp_start != hyp_end:
            chunks += 1
        ref_next, hyp_end = m.ref_start + m.ref_len, m.hyp_start + m.hyp_len
    return chunks + (1 if hyp_end != -1 else 0)


def phrase_statistics_row(
    hyp: Sequence[str],
    ref: Sequence[str],
    matches: Sequence[PhraseMatch],
    modules: Sequence[str],
    function_words: frozenset[str],
) -> list[float]:
    """Meteor's statistics row for an alignment of phrase matches."""
    row = [0.0] * scoring.N_STATS
    hyp_fw = [w.lower() in function_words for w in hyp]
    ref_fw = [w.lower() in function_words for w in ref]
    row[0], row[1] = len(hyp), len(ref)
    row[2], row[3] = sum(hyp_fw), sum(ref_fw)
    for m in matches:
        col = scoring.slot_column(modules[m.slot])
        for k in range(m.hyp_len):
            row[col + (2 if hyp_fw[m.hyp_start + k] else 0)] += 1
        for k in range(m.ref_len):
            row[col + (3 if ref_fw[m.ref_start + k] else 1)] += 1
    chunks = count_chunks(matches)
    row[scoring.CHUNKS] = chunks
    row[scoring.TST_WORDS] = sum(m.hyp_len for m in matches)
    row[scoring.REF_WORDS] = sum(m.ref_len for m in matches)
    if row[scoring.TST_WORDS] == len(hyp) and row[scoring.REF_WORDS] == len(ref) and chunks == 1:
        row[scoring.PERFECT] = 1
    return [float(x) for x in row]


def word_links(matches: Sequence[PhraseMatch]) -> list[tuple[int, int, int]]:
    """(hyp, ref, slot) word pairs for the views: each word of a phrase joined
    to its counterpart at the same relative place in the other phrase."""
    links = []
    for m in matches:
        longest = max(m.hyp_len, m.ref_len)
        for k in range(longest):
            links.append((m.hyp_start + k * m.hyp_len // longest, m.ref_start + k * m.ref_len // longest, m.slot))
    return sorted(set(links), key=lambda t: (t[1], t[0]))
