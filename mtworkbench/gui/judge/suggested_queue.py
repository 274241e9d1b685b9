"""Starting an ESA/MQM queue from a model's error spans (ESA-AI): the metric runs in the
background (or its stored spans are read), with its progress and a Cancel button under the
Judge toolbar as other background jobs have; then the queue with the spans on its items is
stored as one undoable command, as any new queue is. A cancelled run stores nothing: the
queue is only made from the finished spans."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from mtworkbench.core.model import Project
from mtworkbench.core.queue_drawing import with_suggestions
from mtworkbench.core.queue_state import JudgeQueue
from mtworkbench.core.wording import plural
from mtworkbench.gui import dialogs
from mtworkbench.gui.worker import JobWorker


class ModelSpansStarter:
    """Runs ``model_spans`` for a built queue's systems and hands the queue on when done.

    ``bar`` (progress and Cancel) is shown while the model runs; the workspace lays it out."""

    def __init__(self, parent: QWidget, say: Callable[[str], None], done: Callable[[JudgeQueue], None]) -> None:
        self.parent, self.say, self.done = parent, say, done
        self.worker: JobWorker | None = None
        self.bar = QWidget(parent)
        self.bar.setObjectName("model-spans-job")
        self.label = QLabel()
        self.label.setObjectName("model-spans-label")
        self.progress = QProgressBar()
        self.progress.setObjectName("model-spans-progress")
        self.cancel_button = QPushButton("Cance&l")
        self.cancel_button.setObjectName("model-spans-cancel")
        self.cancel_button.setToolTip("Stop finding the model's spans; no queue is started")
        self.cancel_button.clicked.connect(self.cancel)
        row = QHBoxLayout(self.bar)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.progress, 1)
        row.addWidget(self.cancel_button)
        self.bar.hide()

    @property
    def running(self) -> bool:
        return self.worker is not None

    def start(self, project: Project, state: JudgeQueue, spec: str) -> None:
        from mtworkbench.scoring.span_suggestions import model_spans

        if self.worker is not None:
            self.worker.cancel()
        ids = [s.id for s in project.systems]
        systems = sorted({e.system for e in state.items}, key=ids.index)

        def job(progress, cancel, _deliver) -> Any:
            found = model_spans(project, spec, systems, progress=progress, cancel=cancel)
            return with_suggestions(project, state, found.spans, spec)

        message = f"Finding the error spans of {spec} for {plural(len(systems), 'system')}…"
        self.say(message)
        self.label.setText(message)
        self.progress.setRange(0, 0)  # busy until the model reports its first progress
        self.cancel_button.setEnabled(True)
        self.bar.show()
        worker = self.worker = JobWorker(job, project=project)
        worker.progress_changed.connect(lambda done, total: self._progress(worker, spec, done, total))
        worker.succeeded.connect(lambda queue: self._finished(worker, queue))
        worker.failed.connect(lambda message: self._failed(worker, spec, message))
        worker.cancelled.connect(lambda: self._cancelled(worker))
        worker.start()

    def cancel(self) -> None:
        """Ask the running job to stop; the queue is not made (see ``_cancelled``)."""
        if self.worker is None:
            return
        self.worker.cancel()
        self.cancel_button.setEnabled(False)
        self.label.setText("Cancelling…")

    def _progress(self, worker: JobWorker, spec: str, done: int, total: int) -> None:
        if worker is not self.worker or worker.is_cancelled():
            return
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.say(f"Finding the error spans of {spec}: {100 * done // max(total, 1)}%")

    def _end(self) -> None:
        self.worker = None
        self.bar.hide()

    def _finished(self, worker: JobWorker, queue: JudgeQueue) -> None:
        if worker is not self.worker:
            return
        if worker.is_cancelled():  # the spans were found just as Cancel was pressed: still no queue
            self._cancelled(worker)
            return
        self._end()
        marked = sum(len(e.suggested or ()) for e in queue.items)
        self.done(queue)  # stored first: showing the queue clears the status line
        self.say(f"{plural(marked, 'error span')} of {queue.suggestions} pre-marked as suggestions.")

    def _cancelled(self, worker: JobWorker) -> None:
        if worker is not self.worker:
            return
        self._end()
        self.say("Cancelled: no queue was started.")

    def _failed(self, worker: JobWorker, spec: str, message: str) -> None:
        if worker is not self.worker:
            return
        self._end()
        self.say("")
        dialogs.error(self.parent, "Cannot start the queue", f"The error spans of {spec}: {message}")
