"""The MQM error typology: a tree of categories and subcategories, each with a key
for picking it on the keyboard.

A project keeps its own typology (``Settings.mqm_typology``); without one it
uses Google's (Freitag et al. 2021), spelled as its TSV data spells the
categories. An error's category is a *full name*: ``Accuracy/Mistranslation``
for a subcategory, ``Other`` for a category; the first ``/`` separates the two
levels, so a category's own name has none.

``Typology`` is immutable: every edit returns a new one, so an undo keeps the
old value. Edits refuse with ``TypologyError`` (a ``ModelError``) saying why.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from mtworkbench.core.errors import DataError
from mtworkbench.core.json_reader import JsonReader

NON_TRANSLATION_CATEGORY = "Non-translation"
SEPARATOR = "/"
TYPOLOGY_FORMAT = "mtworkbench-mqm-typology"
# The scale of MQM judgments whose score came with the ratings rather than from the errors
# (Unbabel's misc scores); mt-metrics-eval names those scores of WMT22 en-ru ``mqm.unb``.
UNBABEL_SCALE = "mqm.unb"


class TypologyError(DataError):
    """An edit of the typology that cannot be made (duplicate name, key taken, unknown category)."""


@dataclass(frozen=True)
class TypologyCategory:
    """One category; ``subcategories`` is empty for a subcategory and for a category without any.

    ``key`` is one letter or digit (any script), unique among its siblings
    ignoring case, or empty when the category is picked by name only.
    """

    name: str
    key: str = ""
    subcategories: tuple[TypologyCategory, ...] = ()


@dataclass(frozen=True)
class PickEntry:
    """One pickable category in document order: its full name, key path and depth."""

    full_name: str
    keys: str  # the keys typed to reach it ("fg" for Fluency/Grammar); "" when a key is missing
    depth: int  # 0 category, 1 subcategory
    has_subcategories: bool


@dataclass(frozen=True)
class Typology:
    categories: tuple[TypologyCategory, ...]

    # --- reading -----------------------------------------------------------------------
    def entries(self) -> list[PickEntry]:
        out = []
        for c in self.categories:
            out.append(PickEntry(c.name, c.key, 0, bool(c.subcategories)))
            for s in c.subcategories:
                out.append(PickEntry(full_name(c.name, s.name), c.key + s.key if c.key and s.key else "", 1, False))
        return out

    def names(self) -> tuple[str, ...]:
        """Every full name a rater can pick: categories and subcategories, in order."""
        return tuple(e.full_name for e in self.entries())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.find(name) is not None

    @cached_property
    def _index(self) -> dict[str, tuple[int, int | None]]:
        """Full name -> place, built once per (immutable) typology so that a lookup does
        not scan the categories (a 100,000-category import would otherwise be quadratic)."""
        out: dict[str, tuple[int, int | None]] = {}
        for i, c in enumerate(self.categories):
            out.setdefault(c.name, (i, None))
            for k, s in enumerate(c.subcategories):
                out.setdefault(full_name(c.name, s.name), (i, k))
        return out

    def find(self, name: str) -> tuple[int, int | None] | None:
        """(category index, subcategory index or None) of a full name; None when absent."""
        return self._index.get(name)

    def _locate(self, name: str) -> tuple[int, int | None]:
        where = self.find(name)
        if where is None:
            raise TypologyError(f"no category {name!r} in the typology")
        return where

    def _siblings(self, parent: int | None) -> tuple[TypologyCategory, ...]:
        return self.categories if parent is None else self.categories[parent].subcategories

    def _with_siblings(self, parent: int | None, siblings: Iterable[TypologyCategory]) -> Typology:
        siblings = tuple(siblings)
        if parent is None:
            return Typology(siblings)
        cats = list(self.categories)
        cats[parent] = replace(cats[parent], subcategories=siblings)
        return Typology(tuple(cats))

    # --- edits (each returns a new typology) ---------------------------------------------------
    def add(self, name: str, parent: str | None = None, key: str | None = None, index: int | None = None) -> Typology:
        """Add a category (``parent`` None) or a subcategory of ``parent``; ``key`` None picks a free one."""
        name = name.strip()
        at = None if parent is None else self._locate(parent)
        if at is not None and at[1] is not None:
            raise TypologyError(f"{parent!r} is a subcategory; subcategories have no subcategories of their own")
        p = None if at is None else at[0]
        check_name(name, top_level=p is None)
        siblings = list(self._siblings(p))
        if any(s.name == name for s in siblings):
            raise TypologyError(f"there is a {'category' if p is None else 'subcategory'} {name!r} already")
        key = free_key(name, siblings) if key is None else key
        check_key(key, siblings)
        siblings.insert(len(siblings) if index is None else index, TypologyCategory(name, key))
        return self._with_siblings(p, siblings)

    def rename(self, name: str, new_name: str) -> Typology:
        """Rename the category or subcategory ``name`` (a full name) to ``new_name`` (its own name)."""
        i, k = self._locate(name)
        new_name = new_name.strip()
        check_name(new_name, top_level=k is None)
        parent = None if k is None else i
        index = i if k is None else k
        siblings = list(self._siblings(parent))
        if any(s.name == new_name for n, s in enumerate(siblings) if n != index):
            raise TypologyError(f"there is a {'category' if k is None else 'subcategory'} {new_name!r} already")
        siblings[index] = replace(siblings[index], name=new_name)
        return self._with_siblings(parent, siblings)

    def set_key(self, name: str, key: str) -> Typology:
        i, k = self._locate(name)
        parent, index = (None, i) if k is None else (i, k)
        siblings = list(self._siblings(parent))
        check_key(key, [s for n, s in enumerate(siblings) if n != index])
        siblings[index] = replace(siblings[index], key=key)
        return self._with_siblings(parent, siblings)

    def remove(self, name: str) -> Typology:
        i, k = self._locate(name)
        parent, index = (None, i) if k is None else (i, k)
        siblings = list(self._siblings(parent))
        del siblings[index]
        return self._with_siblings(parent, siblings)

    def move(self, name: str, delta: int) -> Typology:
        """Move a category among its siblings by ``delta`` places (clamped to the ends)."""
        i, k = self._locate(name)
        parent, index = (None, i) if k is None else (i, k)
        siblings = list(self._siblings(parent))
        target = max(0, min(len(siblings) - 1, index + delta))
        siblings.insert(target, siblings.pop(index))
        return self._with_siblings(parent, siblings)

    def with_names(self, names: Iterable[str]) -> Typology:
        """This typology plus every full name of ``names`` it lacks (in order of first
        appearance, after the existing ones); blank names are skipped."""
        # Built in one pass with per-level sets (not one ``add`` a name, each copying the
        # tree): linear in the number of names.
        cats: list[tuple[TypologyCategory, list[TypologyCategory]]] = [
            (c, list(c.subcategories)) for c in self.categories]
        where = {c.name: n for n, c in enumerate(self.categories)}
        subs = [{s.name for s in c.subcategories} for c in self.categories]
        top_keys = {c.key.casefold() for c in self.categories if c.key}
        sub_keys = [{s.key.casefold() for s in c.subcategories if s.key} for c in self.categories]
        changed = False
        for name in names:
            top, sub = split_name(name)
            top, sub = top.strip(), (None if sub is None or not sub.strip() else sub.strip())
            if not top:
                continue
            if top not in where:
                check_name(top, top_level=True)
                key = _free_key(top, top_keys)
                top_keys.add(key.casefold())
                where[top] = len(cats)
                cats.append((TypologyCategory(top, key), []))
                subs.append(set())
                sub_keys.append(set())
                changed = True
            n = where[top]
            if sub is not None and sub not in subs[n]:
                check_name(sub, top_level=False)
                key = _free_key(sub, sub_keys[n])
                sub_keys[n].add(key.casefold())
                subs[n].add(sub)
                cats[n][1].append(TypologyCategory(sub, key))
                changed = True
        if not changed:
            return self
        return Typology(tuple(replace(c, subcategories=tuple(s)) for c, s in cats))

    # --- JSON ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"categories": [_category_json(c) for c in self.categories]}


def _category_json(c: TypologyCategory) -> dict[str, Any]:
    out: dict[str, Any] = {"name": c.name, "key": c.key}
    if c.subcategories:
        out["subcategories"] = [_category_json(s) for s in c.subcategories]
    return out


def full_name(category: str, subcategory: str | None = None) -> str:
    return category if subcategory is None else f"{category}{SEPARATOR}{subcategory}"


def split_name(name: str) -> tuple[str, str | None]:
    """``Accuracy/Mistranslation`` -> (``Accuracy``, ``Mistranslation``); ``Other`` -> (``Other``, None)."""
    top, sep, sub = name.partition(SEPARATOR)
    return top, (sub if sep else None)


def rename_full(name: str, old: str, new: str) -> str:
    """``name`` with category ``old`` (a full name) renamed to ``new`` (a full name); a
    subcategory of a renamed category moves along (``Accuracy/X`` -> ``Adequacy/X``)."""
    if name == old:
        return new
    if SEPARATOR not in old and name.startswith(old + SEPARATOR):
        return new + name[len(old):]
    return name


def check_name(name: str, top_level: bool) -> None:
    if not name or name != name.strip():
        raise TypologyError("a category needs a name (not blank, no leading or trailing spaces)")
    if top_level and SEPARATOR in name:
        raise TypologyError(f"a category's name cannot contain {SEPARATOR!r} (it separates category and subcategory): {name!r}")
    if any(ch in name for ch in "\t\n\r"):
        raise TypologyError(f"a category's name cannot contain tabs or line breaks: {name!r}")


def check_key(key: str, siblings: Iterable[TypologyCategory]) -> None:
    if key == "":
        return
    if len(key) != 1 or not key.isalnum():
        raise TypologyError(f"a key is one letter or digit (or empty), not {key!r}")
    for s in siblings:
        if s.key and s.key.casefold() == key.casefold():
            raise TypologyError(f"key {key!r} is taken by {s.name!r}")


def free_key(name: str, siblings: Iterable[TypologyCategory]) -> str:
    """The first letter of ``name`` not used by a sibling, else another of its letters,
    else a-z or 0-9; empty when all are taken."""
    return _free_key(name, {s.key.casefold() for s in siblings if s.key})


def _free_key(name: str, used: set[str]) -> str:
    for ch in [c for c in name if c.isalnum()] + list("abcdefghijklmnopqrstuvwxyz0123456789"):
        if ch.casefold() not in used:
            return ch.lower()
    return ""


# --- JSON in ---------------------------------------------------------------------------
def typology_from_json(value: Any, path: str = "$", file: str | None = None) -> Typology:
    """Check and read a typology object; a problem raises ``BundleError`` naming its JSON path."""

    r = JsonReader(file)

    def read(v: Any, where: str, top_level: bool, names: set[str], keys: dict[str, str]) -> TypologyCategory:
        """One category; the siblings' ``names`` and ``keys`` (casefolded key -> name) grow
        with it, so that checking a name or key among thousands of siblings is not a scan."""
        o = r.keys(v, where, {"name"}, {"key", "subcategories"} if top_level else {"key"})
        name = r.str(o["name"], f"{where}.name")
        key = r.str(o.get("key", ""), f"{where}.key")
        try:
            check_name(name, top_level)
        except TypologyError as exc:
            r.fail(str(exc), f"{where}.name")
        if name in names:
            r.fail(f"duplicate {'category' if top_level else 'subcategory'} {name!r}", f"{where}.name")
        try:
            check_key(key, ())
        except TypologyError as exc:
            r.fail(str(exc), f"{where}.key")
        if key and key.casefold() in keys:
            r.fail(f"key {key!r} is taken by {keys[key.casefold()]!r}", f"{where}.key")
        names.add(name)
        if key:
            keys[key.casefold()] = name
        subs: list[TypologyCategory] = []
        sub_names: set[str] = set()
        sub_keys: dict[str, str] = {}
        for n, s in enumerate(r.list(o.get("subcategories", []), f"{where}.subcategories")):
            subs.append(read(s, f"{where}.subcategories[{n}]", False, sub_names, sub_keys))
        return TypologyCategory(name, key, tuple(subs))

    o = r.keys(value, path, {"categories"}, {"format", "format_version"})
    if "format" in o and o["format"] != TYPOLOGY_FORMAT:
        r.fail(f"expected format {TYPOLOGY_FORMAT!r}, found {o['format']!r}", f"{path}.format")
    if "format_version" in o and o["format_version"] != 1:
        r.fail(f"unsupported format_version {o['format_version']!r} (this mtworkbench reads 1)", f"{path}.format_version")
    cats: list[TypologyCategory] = []
    top_names: set[str] = set()
    top_keys: dict[str, str] = {}
    for n, c in enumerate(r.list(o["categories"], f"{path}.categories")):
        cats.append(read(c, f"{path}.categories[{n}]", True, top_names, top_keys))
    if not cats:
        r.fail("a typology needs at least one category", f"{path}.categories")
    return Typology(tuple(cats))


def typology_file_json(typology: Typology) -> dict[str, Any]:
    """The object an exported typology file holds."""
    return {"format": TYPOLOGY_FORMAT, "format_version": 1, **typology.to_json()}


def _google() -> Typology:
    def cat(name: str, key: str, *subs: tuple[str, str]) -> TypologyCategory:
        return TypologyCategory(name, key, tuple(TypologyCategory(n, k) for n, k in subs))

    return Typology((
        cat("Accuracy", "a", ("Addition", "a"), ("Omission", "o"), ("Mistranslation", "m"), ("Untranslated text", "u")),
        cat("Fluency", "f", ("Punctuation", "p"), ("Spelling", "s"), ("Grammar", "g"), ("Register", "r"),
            ("Inconsistency", "i"), ("Character encoding", "c")),
        cat("Terminology", "t", ("Inappropriate for context", "i"), ("Inconsistent use of terminology", "c")),
        cat("Style", "s", ("Awkward", "a")),
        cat("Locale convention", "l", ("Address format", "a"), ("Currency format", "c"), ("Date format", "d"),
            ("Name format", "n"), ("Telephone format", "t"), ("Time format", "m")),
        cat("Source issue", "i"),
        cat("Other", "o"),
        cat(NON_TRANSLATION_CATEGORY, "n"),
    ))


GOOGLE_TYPOLOGY = _google()

# The categories a rater picks in Google's typology (leaves only, as its TSV data spells them).
GOOGLE_MQM_CATEGORIES: tuple[str, ...] = tuple(
    e.full_name for e in GOOGLE_TYPOLOGY.entries() if not e.has_subcategories
)


def iter_error_categories(judgments: Iterable[Any]) -> Iterator[str]:
    """The category of every error of every MQM judgment, in order (blanks skipped)."""
    for j in judgments:
        if j.protocol == "mqm":
            for e in j.errors:
                if e.category.strip():
                    yield e.category.strip()
