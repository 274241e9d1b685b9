"""Changes to a project's MQM typology that keep its judgments consistent.

Every MQM error names a category of the project's typology. So:

- renaming a category renames it in every error that uses it (an MQM researcher
  fixing a spelling or adopting another team's names expects the data to follow;
  the old name would otherwise be orphaned), subcategories moving with their
  category;
- removing a category that errors use is refused, saying how many;
- replacing the whole typology (reset to Google's, import) keeps the categories
  errors use that the new one lacks, appended, and says which.

A ``TypologyChange`` holds the typology and the judgments before and after, so
``apply_change``/``revert_change`` are an inverse pair (an undo command, the CLI).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from mtworkbench.core.model import Judgment, Project
from mtworkbench.core.mqm_typology import (
    Typology,
    TypologyError,
    iter_error_categories,
    rename_full,
    split_name,
)


@dataclass(frozen=True)
class TypologyChange:
    description: str
    before: Typology
    after: Typology
    judgments_before: tuple[Judgment, ...] = ()
    judgments_after: tuple[Judgment, ...] = ()
    kept: tuple[str, ...] = ()  # categories in use that a replacing typology lacked (added back)


def categories_in_use(project: Project) -> Counter[str]:
    """How many errors of the project's MQM judgments use each category (full names)."""
    return Counter(iter_error_categories(project.judgments))


def uses_of(project: Project, name: str) -> int:
    """Errors using ``name`` or, for a category, any of its subcategories."""
    top, sub = split_name(name)
    return sum(n for c, n in categories_in_use(project).items()
               if c == name or (sub is None and split_name(c)[0] == top))


def plan_edit(project: Project, after: Typology, description: str) -> TypologyChange:
    """An edit that touches no judgment (add, set a key, reorder)."""
    return TypologyChange(description, project.settings.mqm_typology, after)


def plan_rename(project: Project, name: str, new_name: str) -> TypologyChange:
    """Rename category ``name`` (a full name) to ``new_name`` (its own name) in the typology
    and in every error that uses it."""
    before = project.settings.mqm_typology
    after = before.rename(name, new_name)
    top, sub = split_name(name)
    new_full = new_name.strip() if sub is None else f"{top}/{new_name.strip()}"
    old_js, new_js = [], []
    for j in project.judgments:
        if j.protocol != "mqm" or not j.errors:
            continue
        errors = tuple(replace(e, category=rename_full(e.category, name, new_full)) for e in j.errors)
        if errors != j.errors:
            old_js.append(j)
            new_js.append(replace(j, errors=errors))
    changed = sum(1 for j in old_js for e in j.errors if rename_full(e.category, name, new_full) != e.category)
    note = f" ({changed} error{'s' if changed != 1 else ''} in {len(old_js)} judgment{'s' if len(old_js) != 1 else ''} renamed too)" if old_js else ""
    return TypologyChange(f"Rename MQM category {name} to {new_full}{note}", before, after, tuple(old_js), tuple(new_js))


def plan_removal(project: Project, name: str) -> TypologyChange:
    before = project.settings.mqm_typology
    after = before.remove(name)
    used = uses_of(project, name)
    if used:
        raise TypologyError(
            f"cannot remove {name!r}: {used} error{'s' if used != 1 else ''} in the judgments use it "
            "(rename it instead, or remove those errors first)"
        )
    return TypologyChange(f"Remove MQM category {name}", before, after)


def plan_replacement(project: Project, typology: Typology, description: str) -> TypologyChange:
    """Use ``typology`` (reset, import), keeping any category in use that it lacks."""
    in_use = list(categories_in_use(project))
    kept = tuple(c for c in in_use if c not in typology)
    after = typology.with_names(kept)
    if kept:
        description += f" (kept {len(kept)} categor{'ies' if len(kept) != 1 else 'y'} in use: {', '.join(kept)})"
    return TypologyChange(description, project.settings.mqm_typology, after, kept=kept)


def apply_change(project: Project, change: TypologyChange) -> None:
    project.set_setting("mqm_typology", change.after)
    for j in change.judgments_after:
        project.replace_judgment(j)


def revert_change(project: Project, change: TypologyChange) -> None:
    for j in change.judgments_before:
        project.replace_judgment(j)
    project.set_setting("mqm_typology", change.before)


def add_missing_categories(project: Project, judgments) -> Typology | None:
    """Add the categories of ``judgments``' errors that the project's typology lacks
    (an import keeps them rather than dropping them); returns the typology before,
    or None when nothing was missing."""
    before = project.settings.mqm_typology
    after = before.with_names(iter_error_categories(judgments))
    if after == before:
        return None
    project.set_setting("mqm_typology", after)
    return before
