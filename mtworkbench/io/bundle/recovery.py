"""Recovery copies and what differs between two versions of a project (Qt-free).

The app writes its unsaved state to a recovery copy next to the bundle
(``.NAME.recovery``; an untitled project's goes to a folder the caller names).
On start, ``find_recovery`` offers a copy whenever its content differs from the
bundle - whatever the modification times say, since any later CLI write makes
the bundle newer - and ``diff_projects`` summarises what restoring it would
change. ``diff_projects`` also serves the "changed on disk" dialog: what the
other writer changed, and what this session would overwrite.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtworkbench.core.atomic import write_side_file
from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.io.bundle.bundle import dumps, load_bundle, project_to_dict

RECOVERY_SUFFIX = ".recovery"
# Beside the recovery copy: the bundle's bytes as they were when the edits began (the
# base). Restored over a bundle that changed since (another program's save), the edits
# are merged onto it three-way, as a work package is, instead of replacing it.
BASE_SUFFIX = ".base"
UNTITLED_RECOVERY = "untitled.mtwb.recovery"

# Bundle lists whose entries have ids: compared entry by entry.
KEYED_LISTS = {"judgments": "judgment", "entity_spans": "entity span", "systems": "system",
               "references": "reference", "documents": "document"}


def recovery_path(bundle: str | Path | None, untitled_folder: str | Path) -> Path:
    """Where the recovery copy of ``bundle`` lives (an untitled project's: in ``untitled_folder``)."""
    if bundle is None:
        return Path(untitled_folder) / UNTITLED_RECOVERY
    bundle = Path(bundle)
    return bundle.with_name(f".{bundle.name}{RECOVERY_SUFFIX}")


def base_path(recovery: str | Path) -> Path:
    """Where the base of the recovery copy ``recovery`` is kept."""
    recovery = Path(recovery)
    return recovery.with_name(recovery.name + BASE_SUFFIX)


def write_recovery(project: Project, target: str | Path) -> None:
    """Write the recovery copy atomically (a crash mid-write keeps the previous copy)."""
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    write_side_file(target, dumps(project))  # a link left at its name is replaced, not followed


@dataclass
class ProjectDiff:
    """What changes from ``old`` to ``new``: ids added, removed and changed per kind of item."""

    added: dict[str, list[str]] = field(default_factory=dict)
    removed: dict[str, list[str]] = field(default_factory=dict)
    changed: dict[str, list[str]] = field(default_factory=dict)
    judges_added: list[str] = field(default_factory=list)
    judges_removed: list[str] = field(default_factory=list)
    other_fields: list[str] = field(default_factory=list)  # e.g. settings, judge_queues, name

    @property
    def is_empty(self) -> bool:
        return not (any(self.added.values()) or any(self.removed.values()) or any(self.changed.values())
                    or self.judges_added or self.judges_removed or self.other_fields)

    def summary(self) -> list[str]:
        """One short line per kind of change, e.g. "3 judgments added"."""
        lines = []
        for key, noun in KEYED_LISTS.items():
            for what, ids in (("added", self.added.get(key, [])), ("removed", self.removed.get(key, [])),
                              ("changed", self.changed.get(key, []))):
                if ids:
                    lines.append(f"{len(ids)} {noun}{'' if len(ids) == 1 else 's'} {what}")
        if self.judges_added:
            lines.append(f"judges added: {', '.join(self.judges_added)}")
        if self.judges_removed:
            lines.append(f"judges removed: {', '.join(self.judges_removed)}")
        if self.other_fields:
            lines.append(f"also changed: {', '.join(self.other_fields)}")
        return lines


def _keyed(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for entry in entries}


def diff_dicts(old: dict[str, Any], new: dict[str, Any]) -> ProjectDiff:
    diff = ProjectDiff()
    for key in KEYED_LISTS:
        a, b = _keyed(old.get(key, [])), _keyed(new.get(key, []))
        diff.added[key] = [i for i in b if i not in a]
        diff.removed[key] = [i for i in a if i not in b]
        diff.changed[key] = [i for i in b if i in a and a[i] != b[i]]
    old_judges, new_judges = old.get("judges", []), new.get("judges", [])
    diff.judges_added = [j for j in new_judges if j not in old_judges]
    diff.judges_removed = [j for j in old_judges if j not in new_judges]
    skip = set(KEYED_LISTS) | {"judges"}
    diff.other_fields = [k for k in sorted(set(old) | set(new)) if k not in skip and old.get(k) != new.get(k)]
    return diff


def diff_projects(old: Project, new: Project) -> ProjectDiff:
    return diff_dicts(project_to_dict(old), project_to_dict(new))


@dataclass
class RecoveryOffer:
    """A recovery copy that differs from its bundle: what restoring it would change."""

    recovery: Path
    bundle: Path | None  # None: an untitled project
    project: Project  # the recovered state
    diff: ProjectDiff  # from the bundle on disk (or an empty project) to the recovered state
    bundle_missing: bool = False
    base_data: bytes | None = None  # the bundle as the edits began (None: not known)


def find_recovery(bundle: str | Path | None, untitled_folder: str | Path) -> RecoveryOffer | None:
    """The recovery copy worth offering for ``bundle`` (or the untitled project), else None.

    Offered whenever its content differs from the bundle, whatever the files'
    modification times. A copy equal to the bundle is not offered. A damaged
    copy raises ``DataError`` (the caller says so and may delete it).
    """
    target = recovery_path(bundle, untitled_folder)
    if not target.is_file():
        return None
    recovered = load_bundle(target)
    try:
        base_data: bytes | None = base_path(target).read_bytes()
    except OSError:
        base_data = None
    recovered_dict = project_to_dict(recovered)
    if bundle is None:
        return RecoveryOffer(target, None, recovered, diff_dicts({}, recovered_dict))
    bundle = Path(bundle)
    try:
        on_disk = project_to_dict(load_bundle(bundle))
    except FileNotFoundError:
        return RecoveryOffer(target, bundle, recovered, diff_dicts({}, recovered_dict), bundle_missing=True,
                             base_data=base_data)
    except DataError:
        # The bundle itself is broken: the recovery copy is all there is; offer it whole.
        return RecoveryOffer(target, bundle, recovered, diff_dicts({}, recovered_dict))
    if on_disk == recovered_dict:
        return None
    return RecoveryOffer(target, bundle, recovered, diff_dicts(on_disk, recovered_dict), base_data=base_data)
