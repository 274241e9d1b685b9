"""Meteor's ``-norm``: tokenise raw text as Meteor 1.4's normaliser does (a
Moses-style tokeniser with Meteor's additions), then lowercase.

Behaviour, as Meteor 1.4 documents and does it:

- English, Czech, German, Spanish, French: every character that is not a
  letter or digit of Meteor's alphabet (ASCII, Latin-1 and Latin Extended-A
  letters), whitespace, ``.``,
  ``'``, `````, ``,``, ``-``, ``‘`` or ``’`` is set apart; runs of dots are
  kept together; commas are set apart except inside numbers; curly and
  backtick quotes become ``'`` and ``"``; en dashes and ``--`` become ``-``
  and a dash between two words is dropped (partial credit for compounds);
  apostrophes split English contractions to the right ("do n't" style: "don
  't"), French ones to the left ("l' homme"), and are set apart elsewhere; a
  word-final dot is split off unless the word is a nonbreaking prefix of the
  language (Meteor's copies of Moses' lists in ``nonbreaking_prefixes/``:
  English, French, German, Spanish, Czech; none elsewhere, as in Meteor), is
  followed by a lowercase word, or is a numeric-only prefix before a number; dotted abbreviations
  with letters lose their dots ("U.S." -> "US");
- Arabic: only Western punctuation is split off.

Meteor 1.4 has no normaliser for its other languages (``-norm`` stops with an
error there), and neither does ``norm=yes``.

Meteor lowercases after normalising (``-norm`` implies ``-lower``).
"""

from __future__ import annotations

import re
from functools import cache

_ALPHA = "A-Za-zŠŽšžŸÀ-ÖØ-öø-ž"
_ALNUM = "0-9" + _ALPHA
# Java's \s is ASCII whitespace only.
_SPACE = " \t\n\x0b\f\r"

_SEP_OTHER = re.compile(f"([^{_ALNUM}{_SPACE}.'`,\\-‘’])")
_MULTI_DOT = re.compile(r"\.(\.+)")
_MULTI_DOT2 = re.compile(r"DOTMULTI\.([^.])")
_COMMA = re.compile(r"([^0-9]),([^0-9])")
_COMMA2 = re.compile(r"([0-9]),([^0-9])")
_COMMA3 = re.compile(r"([^0-9]),([0-9])")
_QUOTE1 = re.compile("[`‘’]")
_QUOTE2 = re.compile("[“”]|''")
_RM_DASH = re.compile(f"([{_ALNUM}.])-([{_ALNUM}])")
_CONT = (
    re.compile(f"([^{_ALPHA}])'([^{_ALPHA}])"),
    re.compile(f"([^{_ALPHA}0-9])'([{_ALPHA}])"),
    re.compile(f"([{_ALPHA}])'([^{_ALPHA}])"),
)
_CONT_JOIN = re.compile(f"([{_ALPHA}])'([{_ALPHA}])")
_CONT_EN_NUM = re.compile(r"([0-9])'(s)")
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
# Meteor 1.4's whitespace rule is meant for Unicode spaces too, but its jar
# collapses plain spaces only (U+00A0, U+3000 ... stay tokens of their own).
_WHITE = re.compile(" +")
# java.lang.String.trim(): every character up to U+0020, nothing else.
_JAVA_TRIM = "".join(chr(c) for c in range(0x21))
_TOKENS = re.compile("[ \t\n\r\f]+")  # java.util.StringTokenizer's delimiters

# Non-western: Western punctuation except comma and dot, plus the Arabic comma.
_PUNCT_NONWEST = re.compile("([!-+\\-/:-@\\[-`{-¿\u060c])")
_DOT_NONWEST = (
    re.compile(r"([^0-9])\.([^0-9])"),
    re.compile(r"([0-9])\.([^0-9])"),
    re.compile(r"([^0-9])\.([0-9])"),
)

_WESTERN = frozenset({"en", "de", "fr", "es", "cs"})
# Meteor 1.4 normalises these languages only (-norm with another -l is an error there).
NORM_LANGUAGES: tuple[str, ...] = ("en", "cs", "de", "es", "fr", "ar")
_ANY, _NUMERIC_ONLY = 0, 1


_PREFIX_FILES = {"en": "english", "fr": "french", "de": "german", "es": "spanish", "cs": "czech"}


@cache
def _prefixes(language: str) -> dict[str, int]:
    """Meteor's nonbreaking prefixes of ``language`` (empty when it has none)."""
    from importlib import resources

    name = _PREFIX_FILES.get(language)
    if name is None:
        return {}
    text = resources.files(__package__).joinpath("nonbreaking_prefixes", f"{name}.prefixes").read_text("utf-8")
    table: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        table[parts[0]] = _NUMERIC_ONLY if parts[1:2] == ["#NUMERIC_ONLY#"] else _ANY
    return table


def _escape_dots(line: str) -> str:
    line = _MULTI_DOT.sub(r" DOTMULTI\1", line)
    while "DOTMULTI." in line:
        line = _MULTI_DOT2.sub(r"DOTDOTMULTI \1", line)
        line = line.replace("DOTMULTI.", "DOTDOTMULTI")
    return line


def _unescape_dots(line: str) -> str:
    while "DOTDOTMULTI" in line:
        line = line.replace("DOTDOTMULTI", "DOTMULTI.")
    return line.replace("DOTMULTI", ".")


def _commas_quotes_dashes(line: str) -> str:
    for pattern in (_COMMA, _COMMA2, _COMMA3):
        line = pattern.sub(r"\1 , \2", line)
    line = _QUOTE1.sub("'", line)
    line = _QUOTE2.sub(' " ', line)
    return line.replace("–", "-").replace("--", "-")


def normalise(line: str, language: str) -> str:
    """Meteor's normalised form of ``line`` (before lowercasing); ``language``
    is one of NORM_LANGUAGES."""
    if language not in _WESTERN:
        return _normalise_non_western(line)
    work = _SEP_OTHER.sub(r" \1 ", f" {line} ")
    work = _escape_dots(work)
    work = _commas_quotes_dashes(work)
    work = _RM_DASH.sub(r"\1 \2", work)
    if language == "en":
        for pattern in _CONT:
            work = pattern.sub(r"\1 ' \2", work)
        work = _CONT_JOIN.sub(r"\1 '\2", work)
        work = _CONT_EN_NUM.sub(r"\1 '\2", work)
    elif language == "fr":
        for pattern in _CONT:
            work = pattern.sub(r"\1 ' \2", work)
        work = _CONT_JOIN.sub(r"\1' \2", work)
    else:
        work = work.replace("'", " ' ")
    words = [w for w in _TOKENS.split(work) if w]
    prefixes = _prefixes(language)
    out = []
    for i, word in enumerate(words):
        if len(word) > 1 and word.endswith("."):
            pre = word[:-1]
            kind = prefixes.get(pre)
            following = words[i + 1] if i + 1 < len(words) else ""
            if "." in pre and _HAS_ALPHA.search(pre):
                word = word.replace(".", "")  # U.S. -> US
            elif kind == _ANY or following[:1].isascii() and following[:1].islower():
                pass
            elif kind == _NUMERIC_ONLY and following[:1].isdigit() and following[:1].isascii():
                pass
            else:
                word = pre + " ."
        out.append(word)
    work = _unescape_dots(" ".join(out) + " ")
    return _WHITE.sub(" ", work).strip(_JAVA_TRIM)


def _normalise_non_western(line: str) -> str:
    work = _escape_dots(f" {line} ")
    work = _commas_quotes_dashes(work)
    for pattern in _DOT_NONWEST:
        work = pattern.sub(r"\1 . \2", work)
    work = _PUNCT_NONWEST.sub(r" \1 ", work)
    work = _unescape_dots(work)
    return _WHITE.sub(" ", work).strip(_JAVA_TRIM)
