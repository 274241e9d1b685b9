"""The main window's Metrics menu (Models…) and the notice of models a project lacks.

The notice sits in the status bar, beside the font notice, and never blocks: a
project opened on another machine may name checkpoints (in its metric settings or
its saved scores' signatures) that this machine has not registered; the notice
names each one and how to add it, and goes when they are added.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel

from mtworkbench.core.events import SettingsChanged
from mtworkbench.core.model import Project
from mtworkbench.metrics.neural.project_models import missing_models_notice


def project_signatures(project: Project) -> list[str]:
    """The signatures of the project's saved scores (its score file, when it has one)."""
    from mtworkbench.scoring.store import store_for

    store = store_for(project)
    if store is None:
        return []
    return [entry.signature for entry in list(store.entries.values())]


def add_metrics_menu(window) -> None:
    """Metrics > Models… and the status-bar notice (called by the main window)."""
    menu = window.menuBar().addMenu("Metri&cs")
    window.action_models = window._action(menu, "&Models…", lambda: open_models_from(window))
    window.action_models.setObjectName("open-models")
    notice = QLabel()
    notice.setObjectName("models-notice")
    notice.setTextFormat(Qt.TextFormat.PlainText)  # names come from the bundle
    notice.setWordWrap(True)
    notice.hide()
    window.statusBar().addWidget(notice, 1)
    window.models_notice = notice

    def update(*_args) -> None:
        check_models(window)

    def on_event(event) -> None:
        if isinstance(event, SettingsChanged) and event.name == "metrics":
            update()

    # After the other reactions to the new project (its score file is attached by then).
    window.session.project_replaced.connect(lambda _project: QTimer.singleShot(0, window, update))
    window.session.project_changed.connect(on_event)
    check_models(window)


def check_models(window) -> str:
    project = window.session.project
    text = missing_models_notice(project.settings.metrics, project_signatures(project))
    window.models_notice.setText(text)
    window.models_notice.setToolTip(text)
    window.models_notice.setVisible(bool(text))
    return text


def open_models_from(window):
    from mtworkbench.gui.metrics.models_dialog import open_models

    dialog = open_models(window)
    dialog.finished.connect(lambda _result: check_models(window))
    return dialog
