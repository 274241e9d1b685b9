"""Function-word lists per language (Meteor's delta weighs them against content words).

A token is a function word when its lowercase form is listed. The lists are
Meteor 1.4's own (``function_word_lists/``, LGPL, attribution in its README):
frequent newswire tokens per language, punctuation included. Meteor's other
languages have no list (every word is a content word).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

# list name -> file shipped in function_word_lists/ ("cz" is Meteor's code for Czech)
_FILES = {"en": "english.words", "de": "german.words", "fr": "french.words", "cz": "czech.words"}

FUNCTION_WORD_LISTS: tuple[str, ...] = (*_FILES, "none")


@cache
def function_words(language: str) -> frozenset[str]:
    """The list ``language`` (en, de, fr, cz, none)."""
    if language == "none":
        return frozenset()
    try:
        name = _FILES[language]
    except KeyError:
        raise ValueError(
            f"no function-word list for {language!r}; known: {', '.join(FUNCTION_WORD_LISTS)}"
        ) from None
    text = resources.files(__package__).joinpath("function_word_lists", name).read_text("utf-8")
    # One word a line, taken as it is (as Meteor adds each line to its set).
    return frozenset(text.splitlines())
