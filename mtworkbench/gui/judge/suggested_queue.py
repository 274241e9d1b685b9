"""Starting an ESA/MQM queue from a model's error spans (ESA-AI): the metric runs in the
background (or its stored spans are read), then the queue with the spans on its items is stored
as one undoable command, as any new queue is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QWidget

from mtworkbench.core.model import Project
from mtworkbench.core.queue_drawing import with_suggestions
from mtworkbench.core.queue_state import JudgeQueue
from mtworkbench.core.wording import plural
from mtworkbench.gui import dialogs
from mtworkbench.gui.worker import JobWorker


class ModelSpansStarter:
    """Runs ``model_spans`` for a built queue's systems and hands the queue on when done."""

    def __init__(self, parent: QWidget, say: Callable[[str], None], done: Callable[[JudgeQueue], None]) -> None:
        self.parent, self.say, self.done = parent, say, done
        self.worker: JobWorker | None = None

    def start(self, project: Project, state: JudgeQueue, spec: str) -> None:
        from mtworkbench.scoring.span_suggestions import model_spans

        if self.worker is not None:
            self.worker.cancel()
        ids = [s.id for s in project.systems]
        systems = sorted({e.system for e in state.items}, key=ids.index)

        def job(progress, cancel, _deliver) -> Any:
            found = model_spans(project, spec, systems, progress=progress, cancel=cancel)
            return with_suggestions(project, state, found.spans, spec)

        self.say(f"Finding the error spans of {spec} for {plural(len(systems), 'system')}…")
        worker = self.worker = JobWorker(job, project=project)
        worker.progress_changed.connect(
            lambda done, total: self.say(f"Finding the error spans of {spec}: {100 * done // max(total, 1)}%"))
        worker.succeeded.connect(lambda queue: self._finished(worker, queue))
        worker.failed.connect(lambda message: self._failed(worker, spec, message))
        worker.start()

    def _finished(self, worker: JobWorker, queue: JudgeQueue) -> None:
        if worker is self.worker:
            self.worker = None
            marked = sum(len(e.suggested or ()) for e in queue.items)
            self.done(queue)  # stored first: showing the queue clears the status line
            self.say(f"{marked} error spans of {queue.suggestions} pre-marked as suggestions.")

    def _failed(self, worker: JobWorker, spec: str, message: str) -> None:
        if worker is self.worker:
            self.worker = None
            self.say("")
            dialogs.error(self.parent, "Cannot start the queue", f"The error spans of {spec}: {message}")
