"""What a target language changes: the one table every metric default, view and
label reads, so that no default assumes English.

``language_profile("zh")`` answers, for one target language:

- the sacrebleu tokenizer BLEU uses (sacrebleu 2.6's ``trg_lang`` rule: zh ->
  ``zh``, ja -> ``ja-mecab``, ko -> ``ko-mecab``, anything else -> ``13a``);
- whether word-level metrics (GTM, WER, PER, METEOR, LEPOR, NEE matching) must
  tokenise first: languages written without spaces between words (zh, ja, ko),
  with that same tokenizer;
- TER's ``asian_support`` (on for zh, ja, ko, as sacrebleu recommends);
- Meteor 1.4's defaults for ``-l XX`` (modules, weights, parameters, Snowball
  stemmer, function-word list), or its language-independent defaults with a
  notice when Meteor does not know the language;
- NEE's character normalisation (NFKC folds full-width digits and letters);
- the language's display name (``langcodes``), for labels such as "Flawless German".

Qt-free and metric-free: metrics and the GUI both read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# sacrebleu 2.6 (BLEU._get_default_tokenizer_name): languages with their own tokenizer.
_SACREBLEU_TOKENIZERS: dict[str, str] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
DEFAULT_TOKENIZER = "13a"

# Written without spaces between words: word-level metrics tokenise these first.
_UNSPACED = frozenset(_SACREBLEU_TOKENIZERS)

# Meteor's own codes that differ from ISO 639-1 (Meteor says "cz" for Czech).
# Meteor's "se" (Swedish) is ISO's Northern Sami, so it is NOT aliased: give "sv".
_ALIASES = {"cz": "cs", "iw": "he", "in": "id", "jw": "jv"}

# snowballstemmer 2.2.0's algorithms by ISO 639-1 code.
SNOWBALL: dict[str, str] = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "da": "danish",
    "nl": "dutch", "en": "english", "fi": "finnish", "fr": "french", "de": "german",
    "el": "greek", "hi": "hindi", "hu": "hungarian", "id": "indonesian", "ga": "irish",
    "it": "italian", "lt": "lithuanian", "ne": "nepali", "no": "norwegian",
    "nb": "norwegian", "nn": "norwegian", "pt": "portuguese", "ro": "romanian", "ru": "russian",
    "sr": "serbian", "es": "spanish", "sv": "swedish", "ta": "tamil", "tr": "turkish",
    "yi": "yiddish",
}


@dataclass(frozen=True)
class MeteorDefaults:
    """Meteor 1.4's defaults for one ``-l`` setting (Meteor's language table)."""

    row: str  # Meteor's language row: en, de, fr, es, cz, ar or other
    modules: tuple[str, ...]  # in Meteor's order, paraphrase included where Meteor has it
    weights: tuple[float, ...]  # one per module
    alpha: float
    beta: float
    gamma: float
    delta: float
    function_words: str  # name of a shipped list ("en", "de", "fr", "cz") or "none"
    stemmer: str | None  # snowballstemmer algorithm, None when the row has no stem module
    # Set when Meteor 1.4 has no row for the language: a one-line notice for the user.
    notice: str | None = None


_OTHER_PARAMS = (0.75, 1.4, 0.7, 0.5)
_METEOR_ROWS: dict[str, tuple[tuple[str, ...], tuple[float, ...], tuple[float, ...], str]] = {
    "en": (("exact", "stem", "synonym", "paraphrase"), (1.0, 0.6, 0.8, 0.6), (0.85, 0.2, 0.6, 0.75), "en"),
    "de": (("exact", "stem", "paraphrase"), (1.0, 0.8, 0.2), (0.95, 1.0, 0.55, 0.55), "de"),
    "fr": (("exact", "stem", "paraphrase"), (1.0, 0.2, 0.4), (0.9, 1.4, 0.6, 0.65), "fr"),
    "es": (("exact", "stem", "paraphrase"), (1.0, 0.8, 0.6), (0.65, 1.3, 0.5, 0.8), "none"),
    "cs": (("exact", "paraphrase"), (1.0, 0.4), (0.95, 0.2, 0.6, 0.8), "cz"),
    "ar": (("exact", "paraphrase"), (1.0, 0.6), (0.0, 0.05, 0.8, 0.5), "none"),
}
# Languages Meteor 1.4 lists that share its "other" row (exact + stem, no function words).
# (Meteor's "no" is Norwegian: Bokmål and Nynorsk codes count as it.)
_METEOR_OTHER_ROW = frozenset({"da", "nl", "fi", "hu", "it", "no", "nb", "nn", "pt", "ro", "ru", "sv", "tr"})


def normalise_code(code: str | None) -> str | None:
    """'zh-CN', 'ZH_hans', 'zh' -> 'zh'; 'deu' -> 'de'; 'German' -> 'de';
    '' or None -> None. Meteor's 'cz' -> 'cs'."""
    if code is None:
        return None
    code = code.strip().lower().replace("_", "-")
    if not code:
        return None
    primary = code.split("-", 1)[0]
    if primary in _ALIASES:
        return _ALIASES[primary]
    return _standard_primary(primary) if re.fullmatch(r"[a-z]{2,3}", primary) else _named(code)


# Two-letter codes langcodes replaces (deprecated ones); every other two-letter code
# stays as it is, so the common case needs no langcodes (its tables load in ~15 ms).
# tests/core/test_language.py checks this list against langcodes for all 676 codes.
_REPLACED_TWO_LETTER = frozenset({"in", "iw", "ji", "jw", "mo", "sh", "tl"})


@lru_cache(maxsize=256)
def _standard_primary(primary: str) -> str:
    """ISO 639-2/3 codes to the 639-1 code where there is one ('deu' -> 'de')."""
    if len(primary) == 2 and primary not in _REPLACED_TWO_LETTER:
        return primary
    try:
        import langcodes

        return langcodes.Language.get(langcodes.standardize_tag(primary)).language or primary
    except (ImportError, ValueError, LookupError):
        return primary


@lru_cache(maxsize=256)
def _named(name: str) -> str:
    """A language named in English ('German') to its code; the text itself otherwise."""
    try:
        import langcodes

        return langcodes.find(name).language or name
    except (ImportError, ValueError, LookupError):
        return name


def display_name(code: str | None) -> str | None:
    """'de' -> 'German', 'zh' -> 'Chinese'; None when the code is unknown."""
    code = normalise_code(code)
    if code is None:
        return None
    return _display_name(code)


@lru_cache(maxsize=256)
def _display_name(code: str) -> str | None:
    try:
        import langcodes
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    try:
        lang = langcodes.Language.get(code)
        if not lang.is_valid():
            return None
        name = lang.display_name()
    except (ValueError, LookupError):
        return None
    return None if name.lower().startswith("unknown language") else name


def language_label(code: str | None) -> str:
    """What a sentence calls the language: its name, or 'the target language'."""
    return display_name(code) or "the target language"


def meteor_defaults(code: str | None) -> MeteorDefaults:
    """Meteor 1.4's ``-l`` defaults for ``code`` (English when ``code`` is None)."""
    code = normalise_code(code) or "en"
    row = _METEOR_ROWS.get(code)
    if row is not None:
        modules, weights, (a, b, g, d), fw = row
        stemmer = SNOWBALL.get(code) if "stem" in modules else None
        return MeteorDefaults("cz" if code == "cs" else code, modules, weights, a, b, g, d, fw, stemmer)
    stemmer = SNOWBALL.get(code)
    notice = None
    if code not in _METEOR_OTHER_ROW:
        name = display_name(code) or code
        method = f"exact + {stemmer} stem" if stemmer else "exact matches only (no Snowball stemmer)"
        notice = (
            f"Meteor 1.4 has no defaults for {name} ({code}); "
            f"using its language-independent ones: {method}, no function words"
        )
    if stemmer is None:
        return MeteorDefaults("other", ("exact",), (1.0,), *_OTHER_PARAMS, "none", None, notice)
    return MeteorDefaults("other", ("exact", "stem"), (1.0, 0.5), *_OTHER_PARAMS, "none", stemmer, notice)


@dataclass(frozen=True)
class LanguageProfile:
    """Every language-dependent default, for one target language."""

    code: str
    bleu_tokenizer: str
    # The tokenizer word-level metrics apply before splitting on whitespace
    # ("none" for languages written with spaces).
    word_tokenizer: str
    ter_asian_support: bool
    meteor: MeteorDefaults
    # NEE: Unicode normalisation before matching ("NFKC" folds full-width forms).
    nee_unicode: str | None

    @property
    def display_name(self) -> str | None:
        # Looked up when asked: langcodes' name tables take ~50 ms to load, a tenth of a
        # one-shot METEOR run that never shows the name.
        return display_name(self.code)

    @property
    def label(self) -> str:
        return self.display_name or "the target language"


def language_profile(code: str | None) -> LanguageProfile | None:
    """The defaults for target language ``code``; None when no language is known."""
    code = normalise_code(code)
    if code is None:
        return None
    unspaced = code in _UNSPACED
    return LanguageProfile(
        code=code,
        bleu_tokenizer=_SACREBLEU_TOKENIZERS.get(code, DEFAULT_TOKENIZER),
        word_tokenizer=_SACREBLEU_TOKENIZERS[code] if unspaced else "none",
        ter_asian_support=unspaced,
        meteor=meteor_defaults(code),
        nee_unicode="NFKC" if unspaced else None,
    )
