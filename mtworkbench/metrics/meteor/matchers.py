"""Candidate matches: what each module (exact, stem, synonym) proposes.

As Meteor 1.x does it: every module looks at ALL (hyp i, ref j) pairs and adds
a candidate per pair it accepts, so a pair may carry one candidate per module.
Candidates are kept per reference position, in module order and, within a
module, by hypothesis position - the order the search tries them in.
Stem and synonym candidates need DIFFERENT words (equal words are exact's job).

Meteor compares words and stems by Java ``String.hashCode()``; we compare the
strings, which differs only when two different words collide (none do in the
golden data).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mtworkbench.metrics.meteor import snowball
from mtworkbench.metrics.meteor.snowball import StemWord
from mtworkbench.metrics.wordnet_data import SynonymTables

EXACT = "exact"
STEM = "stem"
SYNONYM = "synonym"
PARAPHRASE = "paraphrase"
KNOWN_MODULES = (EXACT, STEM, SYNONYM)

# Meteor's search scores a path by matches with these weights (not the scoring
# weights): exact 1.0, anything else 0.5, added with Java int += double.
SEARCH_WEIGHTS = {EXACT: 1.0, STEM: 0.5, SYNONYM: 0.5, PARAPHRASE: 0.5}

# java.util.StringTokenizer's default delimiters: Meteor splits on these only
# (so U+00A0 or U+FEFF stay inside tokens, unlike Python's str.split()).
_JAVA_WHITESPACE = re.compile("[ \t\n\r\f]+")


def tokenize(text: str, lowercase: bool = False) -> list[str]:
    if lowercase:
        text = text.lower()
    return [t for t in _JAVA_WHITESPACE.split(text) if t]


@dataclass
class Candidates:
    """Candidate matches of one hypothesis/reference pair.

    ``by_ref[j]`` lists ``(hyp index, module slot)`` in the order Meteor tries
    them; the coverages count how many candidates touch each word.
    """

    by_ref: list[list[tuple[int, int]]]
    hyp_coverage: list[int]
    ref_coverage: list[int]

    def pairs(self) -> list[tuple[int, int, int]]:
        """All candidates as (hyp, ref, slot)."""
        return [(i, j, slot) for j, row in enumerate(self.by_ref) for i, slot in row]


# Snowball's German stemmer gained a rule after the version Meteor 1.4 bundles:
# "if e, en or es is deleted after 'niss', delete the final s too". Meteor's
# stemmer keeps that s ("ergebnissen" -> ergebniss, "ergebnis" -> ergebnis: no stem
# match between "ergebnissen" and "ergebnis" in Meteor 1.4's German run,
# golden/lang/meteor-de segment 890), so the rule is undone for Meteor's sake.
_NISS_SUFFIX = re.compile(r"niss(e|en|es)$")


def _meteor_german(word: str, stem: str) -> str:
    m = _NISS_SUFFIX.search(word.lower())
    if m and stem.endswith("nis"):
        # the niss rule fired iff the stem is the word less its suffix and one s
        # (the prelude's ß -> ss changes the length, umlaut folding does not)
        if len(stem) == len(word.lower().replace("ß", "ss")) - len(m.group(1)) - 1:
            return stem + "s"
    return stem


# Snowball 2.x's Russian stemmer folds ё into е (so "жёлтые" -> "желт"); the
# older Snowball that Meteor 1.4 bundles treats ё as a consonant of its own.
# Stemming with ё replaced by a letter that no Russian suffix or vowel rule
# contains (ф), then restoring the word's own letters, gives the older result:
# the stemmer only ever removes a suffix, so the stem is a prefix of the word.
_YO_PLACEHOLDER = "ф"


def _meteor_russian(stemmer: StemWord, word: str, stem: str) -> str:
    if "ё" not in word and "Ё" not in word:
        return stem
    masked = word.replace("ё", _YO_PLACEHOLDER).replace("Ё", _YO_PLACEHOLDER)
    return word[: len(stemmer.stemWord(masked))]


# Snowball 2.x's French stemmer reads ë and ï as e and i with a diaeresis
# ("héroïque" -> "héro"); Meteor's older one takes them as plain vowels
# ("héroïqu"). A vowel that no French rule mentions (ù) stands in for them.
_FRENCH_DIAERESIS = "ëï"


def _meteor_french(stemmer: StemWord, word: str, stem: str) -> str:
    where = [i for i, ch in enumerate(word) if ch in _FRENCH_DIAERESIS]
    if not where:
        return stem
    out = list(stemmer.stemWord("".join("ù" if ch in _FRENCH_DIAERESIS else ch for ch in word)))
    for i in where:  # rules only touch the end: the stand-ins keep their places
        if i < len(out) and out[i] == "ù":
            out[i] = word[i]
    return "".join(out)


# Meteor's older Snowball Hungarian does not know ő and ű (it was written for
# Latin-1's õ and û), so to it they are letters no rule mentions ("nők" stays
# "nők", not "nő"). Private-use stand-ins reproduce that.
_HUNGARIAN_STAND_INS = {"ő": "\ue000", "ű": "\ue001"}
_HUNGARIAN_BACK = {v: k for k, v in _HUNGARIAN_STAND_INS.items()}


def _meteor_hungarian(stemmer: StemWord, word: str, stem: str) -> str:
    if not any(ch in word for ch in _HUNGARIAN_STAND_INS):
        return stem
    masked = "".join(_HUNGARIAN_STAND_INS.get(ch, ch) for ch in word)
    return "".join(_HUNGARIAN_BACK.get(ch, ch) for ch in stemmer.stemWord(masked))


# Checked against the Snowball stemmers inside meteor-1.4.jar: 45,500 German and
# 14,671 Russian corpus words, 20,000 random words in each other language of
# Meteor's table; with these adjustments every stem agrees.
_METEOR_COMPAT = {
    "russian": _meteor_russian,
    "french": _meteor_french,
    "hungarian": _meteor_hungarian,
}


class _Stemmer:
    """A Snowball 2.2.0 stemmer (English = Porter2; snowball.py picks its C or Python
    build), as Meteor 1.4's older Snowball build stems, memoised per word."""

    def __init__(self, language: str = "english") -> None:
        self._stemmer = snowball.stemmer(language)
        self._german = language == "german"
        self._compat = _METEOR_COMPAT.get(language)
        self._memo: dict[str, str] = {}

    def __call__(self, word: str) -> str:
        stem = self._memo.get(word)
        if stem is None:
            stem = self._stemmer.stemWord(word)
            if self._german:
                stem = _meteor_german(word, stem)
            elif self._compat is not None:
                stem = self._compat(self._stemmer, word, stem)
            self._memo[word] = stem
        return stem


class CandidateFinder:
    """Runs the configured modules, in order, over a hypothesis/reference pair."""

    def __init__(
        self,
        modules: tuple[str, ...],
        synonyms: SynonymTables | None = None,
        stemmer: str = "english",
    ) -> None:
        unknown = [m for m in modules if m not in KNOWN_MODULES]
        if unknown:
            raise ValueError(
                f"unknown module {', '.join(unknown)}; available: {', '.join(KNOWN_MODULES)}"
                + (" (paraphrase tables are not shipped)" if PARAPHRASE in unknown else "")
            )
        if SYNONYM in modules and synonyms is None:
            raise ValueError("the synonym module needs WordNet tables")
        self.modules = modules
        self.synonyms = synonyms
        self.stem = _Stemmer(stemmer)

    def find(self, hyp: list[str], ref: list[str]) -> Candidates:
        by_ref: list[list[tuple[int, int]]] = [[] for _ in ref]
        # Identical sentences: Meteor runs only the first module (it avoids search errors).
        modules = self.modules[:1] if hyp == ref else self.modules
        for slot, module in enumerate(modules):
            if module == EXACT:
                self._exact(hyp, ref, slot, by_ref)
            elif module == STEM:
                self._stem(hyp, ref, slot, by_ref)
            else:
                self._synonym(hyp, ref, slot, by_ref)
        hyp_cov = [0] * len(hyp)
        ref_cov = [0] * len(ref)
        for j, row in enumerate(by_ref):
            ref_cov[j] = len(row)
            for i, _ in row:
                hyp_cov[i] += 1
        return Candidates(by_ref, hyp_cov, ref_cov)

    @staticmethod
    def _positions(keys: list[str]) -> dict[str, list[int]]:
        where: dict[str, list[int]] = {}
        for i, key in enumerate(keys):
            where.setdefault(key, []).append(i)
        return where

    def _exact(self, hyp: list[str], ref: list[str], slot: int, by_ref: list) -> None:
        where = self._positions(hyp)
        for j, word in enumerate(ref):
            for i in where.get(word, ()):
                by_ref[j].append((i, slot))

    def _stem(self, hyp: list[str], ref: list[str], slot: int, by_ref: list) -> None:
        where = self._positions([self.stem(w) for w in hyp])
        for j, word in enumerate(ref):
            for i in where.get(self.stem(word), ()):
                if hyp[i] != word:
                    by_ref[j].append((i, slot))

    def _synonym(self, hyp: list[str], ref: list[str], slot: int, by_ref: list) -> None:
        tables = self.synonyms
        assert tables is not None
        # Inverted index synset -> hyp positions, so each ref word costs its own synsets.
        holders: dict[int, list[int]] = {}
        for i, word in enumerate(hyp):
            for offset in tables.synonym_set(word):
                holders.setdefault(offset, []).append(i)
        if not holders:
            return
        for j, word in enumerate(ref):
            hits: set[int] = set()
            for offset in tables.synonym_set(word):
                found = holders.get(offset)
                if found:
                    hits.update(found)
            for i in sorted(hits):
                if hyp[i] != word:
                    by_ref[j].append((i, slot))
