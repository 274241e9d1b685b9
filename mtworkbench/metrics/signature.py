"""Signatures in sacrebleu's style: ``name|nrefs:2|key:value|...|version:X``.

A signature tells a reader exactly how a number was computed, so every place
that prints one builds it with :class:`Signature` (metrics through
``Metric.make_signature``; the significance test adds its own settings after
the version, as sacrebleu does). Fields keep their insertion order; values are
formatted once here: tuples and lists join with ``+``, booleans read yes / no.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from mtworkbench import __version__

VERSION = f"mtworkbench-{__version__}"


def format_value(value: Any) -> str:
    """A field value as a signature shows it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        return "+".join(str(v) for v in value)
    return str(value)


@dataclass(frozen=True)
class Signature:
    """The settings behind a score.

    ``fields`` are (short key, value) pairs printed between ``nrefs`` and
    ``version`` (options, and e.g. the language or tokenizer of the text);
    ``trailing`` ones come after the version (how a score was tested, e.g. the
    significance test's seed and number of samples).
    """

    name: str
    nrefs: int | None = None
    fields: tuple[tuple[str, Any], ...] = ()
    version: str = VERSION
    trailing: tuple[tuple[str, Any], ...] = field(default=())

    def with_field(self, key: str, value: Any) -> Signature:
        """This signature plus one more field before the version."""
        return replace(self, fields=self.fields + ((key, value),))

    def with_trailing(self, key: str, value: Any) -> Signature:
        """This signature plus one more field after the version."""
        return replace(self, trailing=self.trailing + ((key, value),))

    def format(self) -> str:
        parts = [self.name]
        if self.nrefs is not None:
            parts.append(f"nrefs:{self.nrefs}")
        parts += [f"{key}:{format_value(value)}" for key, value in self.fields]
        parts.append(f"version:{self.version}")
        parts += [f"{key}:{format_value(value)}" for key, value in self.trailing]
        return "|".join(parts)

    def __str__(self) -> str:
        return self.format()
