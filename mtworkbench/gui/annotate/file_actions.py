"""Import and export of one annotator's entities, for the Annotate workspace."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QWidget

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import Project
from mtworkbench.gui import dialogs
from mtworkbench.gui.annotate import transfer
from mtworkbench.gui.annotate.commands import ReplaceSpansCommand
from mtworkbench.gui.annotate.find_bar import FindBar
from mtworkbench.gui.annotate.text_view import EntityTextView
from mtworkbench.gui.session import ProjectSession


class AnnotationFiles:
    """Mixed into the Annotate workspace after its QWidget base (whose methods win)."""

    # Set up by the workspace that mixes this in.
    session: ProjectSession
    view: EntityTextView
    find_bar: FindBar
    reference: str
    reference_only: Callable[[str], str]
    annotator: str

    # The workspace's own (AnnotateWorkspace defines them).
    @property
    def project(self) -> Project:
        raise NotImplementedError

    def say(self, message: str, problem: bool = False) -> None:
        raise NotImplementedError

    def _refresh_view(self, force: bool = False) -> None:
        raise NotImplementedError

    def window_widget(self) -> QWidget:
        """The workspace, as the parent of its dialogs."""
        assert isinstance(self, QWidget)
        return self

    def _folder(self) -> str:
        if self.session.path is not None:
            return str(Path(self.session.path).parent)
        return str(QSettings().value("last_folder", str(Path.home())))

    def import_annotations(self) -> None:
        from mtworkbench.io.annotations.annotations import import_entities

        if why := self.reference_only("Importing annotations"):
            self.say(why, True)
            return
        if not self.reference or not self.annotator:
            self.say("Choose a reference and type your annotator name before importing.", True)
            return
        choice = transfer.ask_import_path(self.window_widget(), self._folder())
        if choice is None:
            return
        path, fmt = choice
        project = self.project
        existing = [s for s in project.spans if s.reference == self.reference and s.annotator == self.annotator]
        if existing and not transfer.ask_replace_existing(self.window_widget(), self.annotator, len(existing)):
            return
        ref = project.reference(self.reference)
        had_text = set(ref.texts)
        try:
            summary = import_entities(project, path, fmt, self.reference, self.annotator, replace_existing=bool(existing))
        except (DataError, OSError) as exc:
            dialogs.error(self.window_widget(), "Cannot import annotations", _message(exc))
            return
        new_texts = {(self.reference, sid): text for sid, text in ref.texts.items() if sid not in had_text}
        self.session.push(ReplaceSpansCommand(
            project, summary.removed, summary.added, f"Import annotations from {path.name}", applied=True, new_texts=new_texts,
            removed_relations=summary.removed_relations, added_relations=summary.relations,
        ))
        self._refresh_view(force=True)
        self.say(f"Imported {summary.spans} entities in {summary.segments} segments from {path.name} as {self.annotator}.")

    def export_annotations(self) -> None:
        from mtworkbench.io.annotations.annotations import export_entities

        if why := self.reference_only("Exporting annotations"):
            self.say(why, True)
            return
        if not self.reference or not self.annotator:
            self.say("Choose a reference and an annotator before exporting.", True)
            return
        choice = transfer.ask_export_path(self.window_widget(), self._folder())
        if choice is None:
            return
        path, fmt = choice
        try:
            written = export_entities(self.project, self.reference, self.annotator, fmt, path)
        except (DataError, OSError) as exc:
            dialogs.error(self.window_widget(), "Cannot export annotations", _message(exc))
            return
        count = sum(1 for s in self.project.spans if s.reference == self.reference and s.annotator == self.annotator)
        self.say(f"Exported {count} entities by {self.annotator} to {', '.join(p.name for p in written)}.")


def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc)
