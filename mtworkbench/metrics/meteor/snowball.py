"""Snowball 2.2.0's stemmers, in C when the matching build is installed.

METEOR's stem module is checked against Meteor 1.4 with the stems of Snowball
2.2.0 (matchers.py undoes where that release differs from Meteor's older one).
Two packages carry that release: snowballstemmer 2.2.0 (generated Python) and
PyStemmer 2.2.0.x (the generated C, about 20 times faster: stemming was two
thirds of a German METEOR run). They give the same stems; tests compare them on
every language. Any other PyStemmer (3.x is Snowball 3, whose stems differ) is
never used, although snowballstemmer itself would switch to whichever PyStemmer
is installed: the pure-Python class is then taken by name.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Protocol

SNOWBALL_RELEASE = "2.2.0"  # of both pins in pyproject.toml


class StemWord(Protocol):
    def stemWord(self, word: str) -> str: ...  # noqa: N802 - Snowball's own name


@functools.cache
def c_stemmers() -> ModuleType | None:
    """PyStemmer's module when its release is Snowball 2.2.0, else None."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        import Stemmer
    except ImportError:
        return None
    try:
        release = version("PyStemmer")
    except PackageNotFoundError:  # a frozen app without the package's metadata
        return None
    return Stemmer if release == SNOWBALL_RELEASE or release.startswith(SNOWBALL_RELEASE + ".") else None


def python_stemmer(language: str) -> StemWord:
    """snowballstemmer 2.2.0's generated Python class for ``language``."""
    import snowballstemmer

    cls = getattr(snowballstemmer, f"{language.title()}Stemmer", None)
    if cls is None:
        raise KeyError(f"no Snowball stemmer for {language!r}")
    return cls()


def stemmer(language: str) -> StemWord:
    """Snowball 2.2.0's stemmer for ``language`` (``english``, ``german``...)."""
    c = c_stemmers()
    if c is not None and language in c.algorithms():
        return c.Stemmer(language)
    return python_stemmer(language)


def languages() -> tuple[str, ...]:
    """The languages snowballstemmer 2.2.0 stems (PyStemmer 2.2.0.x has the same)."""
    import snowballstemmer

    return tuple(name for name in snowballstemmer._languages)  # noqa: SLF001 - no public list without C
