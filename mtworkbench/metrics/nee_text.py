"""Text normalisation for NEE: tokens with character offsets, then the four
switchable steps of Reeder et al. 2001: diacritics, case, numbers
below 100, possessives.

Tokens keep the ``[start, end)`` characters they came from, so a match in the
normalised token stream can be shown at its place in the original text.

Number words are known for English (en), German (de), French (fr), Spanish
(es), Italian (it), Portuguese (pt) and Dutch (nl); ``lang="all"`` (default)
uses every one of them at once, which is safe because no word means two
different numbers in two of these languages. Any other Latin-script language
still gets diacritics, case and possessives, and digits compare as digits.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from mtworkbench.core.segmenter import segment_spans
from mtworkbench.core.text import TOKEN_RE  # words with their combining marks, or one punctuation character

_APOSTROPHES = {"'", "\u2019", "\u02bc"}
_HYPHENS = {"-", "\u2010", "\u2011"}

NUMBER_LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "it", "pt", "nl")


@dataclass(frozen=True)
class Token:
    """A normalised token and the characters ``[start, end)`` it covers."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Normalisation:
    """Which of the four NEE normalisation steps apply (all on by default)."""

    diacritics: bool = True
    case: bool = True
    numbers: bool = True
    possessives: bool = True
    lang: str = "all"
    # Languages written without spaces (zh, ja, ko): the sacrebleu tokenizer
    # that splits words first (as BLEU does), and NFKC, which folds full-width
    # digits and letters (１２ -> 12, ＡＢＣ -> ABC) before anything else.
    segmenter: str = "none"
    nfkc: bool = False


def strip_diacritics(text: str) -> str:
    """'à' -> 'a', 'Ä' -> 'A'. Letters without a decomposition (ß, ø, ł) stay."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    )


@lru_cache(maxsize=65536)
def _fold(word: str) -> str:
    """The key number words are looked up by: no accents, casefolded (ß -> ss)."""
    return strip_diacritics(word).casefold()


def raw_tokens(text: str, offset: int = 0) -> list[Token]:
    return [Token(m.group(), m.start() + offset, m.end() + offset) for m in TOKEN_RE.finditer(text)]


def normalise_tokens(text: str, norm: Normalisation, offset: int = 0) -> list[Token]:
    """Tokenise ``text`` and apply the enabled steps; offsets are into ``text`` + ``offset``."""
    tokens = _normalised(text, norm)
    if offset:
        return [Token(t.text, t.start + offset, t.end + offset) for t in tokens]
    return list(tokens)


@lru_cache(maxsize=16384)
def _normalised(text: str, norm: Normalisation) -> tuple[Token, ...]:
    # Cached: the same reference is normalised again for every system scored.
    return tuple(_normalise_uncached(text, norm))


def _normalise_uncached(text: str, norm: Normalisation) -> list[Token]:
    tokens = _script_tokens(text, norm) if (norm.nfkc or norm.segmenter != "none") else raw_tokens(text)
    if norm.possessives:
        tokens = _drop_possessives(tokens)
    if norm.diacritics or norm.case:
        tokens = [Token(_char_normalise(t.text, norm), t.start, t.end) for t in tokens]
    if norm.numbers:
        tokens = _numbers_to_digits(tokens, number_lexicon(norm.lang))
    return tokens


@lru_cache(maxsize=65536)
def _char_normalise(text: str, norm: Normalisation) -> str:
    if norm.diacritics:
        text = strip_diacritics(text)
    else:
        text = unicodedata.normalize("NFC", text)
    if norm.case:
        text = text.casefold()  # casefold: "Straße" and "STRASSE" compare equal
    return text


def _nfkc_with_offsets(text: str) -> tuple[str, list[int]]:
    """NFKC character by character, with the original index of every output
    character (a few characters expand: ㎏ -> kg)."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        folded = unicodedata.normalize("NFKC", ch) if not ch.isascii() else ch
        out.append(folded)
        where.extend([i] * len(folded))
    return "".join(out), where


def _script_tokens(text: str, norm: Normalisation) -> list[Token]:
    """Tokens of ``text`` after NFKC and the word segmenter, with offsets into
    the original ``text``. Each segmenter word is then tokenised as NEE
    tokenises (punctuation apart)."""
    if norm.nfkc:
        folded, where = _nfkc_with_offsets(text)
    else:
        folded, where = text, list(range(len(text)))
    spans = segment_spans(folded, norm.segmenter)
    tokens: list[Token] = []
    for start, end in spans:
        for m in TOKEN_RE.finditer(folded, start, end):
            a, b = m.start(), m.end()
            tokens.append(Token(m.group(), where[a], where[b - 1] + 1))
    return tokens


def _drop_possessives(tokens: list[Token]) -> list[Token]:
    """Remove the possessive endings 's and s' (John's -> John, the Smiths' -> the Smiths).

    An apostrophe is possessive only when it touches the word before it; "'s"
    also needs nothing glued after the s, and "s'" nothing glued after the
    apostrophe (so French "l'", Italian "dell'" and Dutch "'s-Hertogenbosch" stay).
    """
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        prev = out[-1] if out else None
        glued_to_prev = prev is not None and prev.end == tok.start and _is_word(prev.text)
        if prev is not None and tok.text in _APOSTROPHES and glued_to_prev:
            nxt = tokens[i + 1] if i + 1 < n else None
            after = tokens[i + 2] if i + 2 < n else None
            if (
                nxt is not None
                and nxt.text in ("s", "S")
                and nxt.start == tok.end
                and not (after is not None and after.start == nxt.end and _is_word(after.text))
            ):
                i += 2  # "'s"
                continue
            if prev.text[-1:] in ("s", "S") and not (nxt is not None and nxt.start == tok.end):
                i += 1  # "s'"
                continue
        out.append(tok)
        i += 1
    return out


def _is_word(text: str) -> bool:
    return bool(text) and (text[0].isalnum() or text[0] == "_")


# --- numbers below 100 -----------------------------------------------------------
def _english() -> dict[int, list[tuple[str, ...]]]:
    units = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
    tens = "twenty thirty forty fifty sixty seventy eighty ninety".split()
    out: dict[int, list[tuple[str, ...]]] = {i: [(w,)] for i, w in enumerate(units)}
    for t, word in enumerate(tens, 2):
        out[t * 10] = [(word,)]
        for u in range(1, 10):
            out[t * 10 + u] = [(word, units[u])]  # forty-two / forty two
    return out


def _german() -> dict[int, list[tuple[str, ...]]]:
    units = "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn".split()
    tens = "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig".split()
    out: dict[int, list[tuple[str, ...]]] = {i: [(w,)] for i, w in enumerate(units)}
    out[1] += [("ein",), ("eine",)]
    for t, word in enumerate(tens, 2):
        out[t * 10] = [(word,)]
        for u in range(1, 10):
            unit = "ein" if u == 1 else units[u]
            out[t * 10 + u] = [(f"{unit}und{word}",)]
    return out


def _french() -> dict[int, list[tuple[str, ...]]]:
    units = "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize".split()
    out: dict[int, list[tuple[str, ...]]] = {i: [(w,)] for i, w in enumerate(units)}
    out[1].append(("une",))
    for u in (7, 8, 9):
        out[10 + u] = [("dix", units[u])]
    tens = {20: ("vingt",), 30: ("trente",), 40: ("quarante",), 50: ("cinquante",), 60: ("soixante",)}
    for base, word in tens.items():
        out[base] = [word]
        out[base + 1] = [word + ("et", "un"), word + ("un",)]  # vingt et un, vingt-et-un (1990)
        for u in range(2, 10):
            out[base + u] = [word + (units[u],)]
    # 70-79: soixante-dix..., 80: quatre-vingts, 90-99: quatre-vingt-dix...
    for u in range(10):
        out[70 + u] = [("soixante",) + _french_teen(u, units)]
    out[71].append(("soixante", "et", "onze"))
    out[80] = [("quatre", "vingts"), ("quatre", "vingt")]
    for u in range(1, 10):
        out[80 + u] = [("quatre", "vingt", units[u])]
    for u in range(10):
        out[90 + u] = [("quatre", "vingt") + _french_teen(u, units)]
    # Belgian and Swiss tens.
    for base, regional in ((70, "septante"), (80, "huitante"), (80, "octante"), (90, "nonante")):
        out[base].append((regional,))
        out[base + 1].append((regional, "et", "un"))
        for u in range(1, 10):
            out[base + u].append((regional, units[u]))
    return out


def _french_teen(u: int, units: list[str]) -> tuple[str, ...]:
    return (units[10 + u],) if u <= 6 else ("dix", units[u])


def _spanish() -> dict[int, list[tuple[str, ...]]]:
    units = "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis diecisiete dieciocho diecinueve".split()
    out: dict[int, list[tuple[str, ...]]] = {i: [(w,)] for i, w in enumerate(units)}
    out[1] += [("un",), ("una",)]
    out[20] = [("veinte",)]
    twenties = "veintiuno veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho veintinueve".split()
    for u, word in enumerate(twenties, 1):
        out[20 + u] = [(word,)]
    out[21] += [("veintiún",), ("veintiuna",)]
    tens = "treinta cuarenta cincuenta sesenta setenta ochenta noventa".split()
    for t, word in enumerate(tens, 3):
        out[t * 10] = [(word,)]
        for u in range(1, 10):
            out[t * 10 + u] = [(word, "y", units[u])]
        out[t * 10 + 1] += [(word, "y", "un"), (word, "y", "una")]
    return out


def _italian() -> dict[int, list[tuple[str, ...]]]:
    units = "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici quindici sedici diciassette diciotto diciannove".split()
    out: dict[int, list[tuple[str, ...]]] = {i: [(w,)] for i, w in enumerate(units)}
    out[1] += [("un",), ("una",)]
    tens = "venti trenta quaranta cinquanta sessanta settanta ottanta novanta".split()
    for t, word in enumerate(tens, 2):
        out[t * 10] = [(word,)]
        for u in range(1, 10):
            # The tens word drops its vowel before uno and otto: ventuno, trentotto.
            stem = word[:-1] if u in (1, 8) else word
            unit = "tré" if u == 3 else units[u]
            out[t * 10 + u] = [(stem + unit,)]
    return out


def _portuguese() -> dict[int, list[tuple[str, ...]]]:
    units = "zero um dois três quatro cinco seis sete oito nove dez onze doze treze catorze quinze dezesseis dezessete dezoito dezenove".split()
    out: dict[int, list[tuple[str, ...]]] = {i: [(w,)] for i, w in enumerate(units)}
    out[1].append(("uma",))
    out[2].append(("duas",))
    out[14].append(("quatorze",))
    for u, word in ((16, "dezasseis"), (17, "dezassete"), (19, "dezanove")):
        out[u].append((word,))  # European Portuguese
    tens = "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa".split()
    for t, word in enumerate(tens, 2):
        out[t * 10] = [(word,)]
        for u in range(1, 10):
            out[t * 10 + u] = [(word, "e", units[u])]
        out[t * 10 + 1].append((word, "e", "uma"))
        out[t * 10 + 2].append((word, "e", "duas"))
    return out


def _dutch() -> dict[int, list[tuple[str, ...]]]:
    units = "nul een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien vijftien zestien zeventien achttien negentien".split()
    out: dict[int, list[tuple[str, ...]]] = {i: [(w,)] for i, w in enumerate(units)}
    out[1].append(("één",))
    tens = "twintig dertig veertig vijftig zestig zeventig tachtig negentig".split()
    for t, word in enumerate(tens, 2):
        out[t * 10] = [(word,)]
        for u in range(1, 10):
            # "en" after a unit ending in e takes a diaeresis: tweeëntwintig.
            joiner = "ën" if units[u].endswith("e") else "en"
            out[t * 10 + u] = [(f"{units[u]}{joiner}{word}",)]
    return out


_BUILDERS = {
    "en": _english,
    "de": _german,
    "fr": _french,
    "es": _spanish,
    "it": _italian,
    "pt": _portuguese,
    "nl": _dutch,
}


@dataclass(frozen=True)
class NumberLexicon:
    """Folded word sequence -> digits, with what the matcher needs to be quick."""

    table: dict[tuple[str, ...], str]
    longest: int
    first_words: frozenset[str]


@cache
def number_lexicon(lang: str) -> NumberLexicon:
    """Number words 0-99 of ``lang`` (or "all"): folded word sequence -> digits."""
    lang = lang.lower().split("-")[0].split("_")[0]
    if lang == "all":
        langs: Iterable[str] = NUMBER_LANGUAGES
    elif lang in _BUILDERS:
        langs = (lang,)
    else:
        langs = ()
    table: dict[tuple[str, ...], str] = {}
    for code in langs:
        for value, phrases in _BUILDERS[code]().items():
            for phrase in phrases:
                key = tuple(_fold(w) for w in phrase)
                if table.setdefault(key, str(value)) != str(value):
                    raise AssertionError(f"number word {key} has two values")  # pragma: no cover
    return NumberLexicon(
        table,
        max((len(k) for k in table), default=0),
        frozenset(k[0] for k in table),
    )


def _numbers_to_digits(tokens: list[Token], lexicon: NumberLexicon) -> list[Token]:
    """Replace spelled-out numbers below 100 by their digits (longest match first).

    The words of a compound number may be joined by spaces or hyphens
    ("forty-two", "forty two", "quatre-vingt-dix"). Digit tokens are written
    without leading zeros ("07" -> "7") when they are below 100.
    """
    table, longest, first_words = lexicon.table, lexicon.longest, lexicon.first_words
    folded = [_fold(t.text) if t.text[:1].isalpha() else t.text for t in tokens]
    out: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.text.isdigit() and tok.text.isascii():
            number = int(tok.text)
            out.append(Token(str(number), tok.start, tok.end) if number < 100 else tok)
            i += 1
            continue
        if folded[i] not in first_words:
            out.append(tok)
            i += 1
            continue
        best: tuple[int, str] | None = None
        words: list[str] = []
        j = i
        while j < n and len(words) < longest:
            words.append(folded[j])
            value = table.get(tuple(words))
            if value is not None:
                best = (j, value)
            # Skip a hyphen glued between two words of a compound number.
            if (
                j + 2 < n
                and tokens[j + 1].text in _HYPHENS
                and tokens[j + 1].start == tokens[j].end
                and tokens[j + 2].start == tokens[j + 1].end
            ):
                j += 2
            else:
                j += 1
        if best is None:
            out.append(tok)
            i += 1
        else:
            last, value = best
            out.append(Token(value, tok.start, tokens[last].end))
            i = last + 1
    return out
