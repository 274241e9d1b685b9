"""Restoring a recovery copy onto the bundle as it is now.

The recovery copy holds the whole project as the killed session had it. When another
program (a CLI command, another window) saved the bundle after the edits began, taking
the copy whole would drop that program's work at the next Save. The copy's base (the
bundle as the edits began, kept beside it) tells: if the bundle is no longer its base,
the recovered edits are merged onto the bundle as it is now, three-way (as a work
package merges), and the conflicts are listed to the user (the disk version is kept
for each). Without a base (a copy from an older version) the copy is taken as it is.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.gui import dialogs
from mtworkbench.gui.disk_watch import LoadedState, base_project
from mtworkbench.io.bundle.bundle import content_hash
from mtworkbench.io.bundle.merge import merge_projects
from mtworkbench.io.bundle.recovery import RecoveryOffer


def restore_onto(parent: QWidget | None, path: Path, offer: RecoveryOffer,
                 disk: LoadedState) -> tuple[Project, str, bytes]:
    """For the accepted ``offer``: the project to show, and the hash and bytes of the
    bundle it counts as loaded from (what a Save must find on disk, and the base of a
    later merge) - the recovered state merged onto ``disk`` when the bundle changed
    since the recovered edits began."""
    if offer.base_data is None or content_hash(offer.base_data) == disk.sha256:
        return offer.project, disk.sha256, disk.data  # the bundle is still what the edits began from
    try:
        base = base_project(offer.base_data, path)
        result = merge_projects(disk.project, offer.project, base)
    except (DataError, ValueError) as exc:
        dialogs.error(parent, "Cannot merge the recovered work",
                      f"{path.name} was changed by another program since your unsaved edits, and they "
                      f"cannot be merged onto it: {exc}\n\nThe recovered state is shown; Save will ask "
                      "before it replaces the file (or use Save As).")
        # Loaded from the base: Save finds the bundle changed and asks (merge, Save As, reload).
        return offer.project, content_hash(offer.base_data), offer.base_data
    dialogs.show_merge_result(parent, path, result.conflicts, result.taken_from_mine)
    return result.project, disk.sha256, disk.data
