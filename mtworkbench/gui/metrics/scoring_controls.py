"""Scoring from the Metrics workspace: the texts are read on the GUI thread a few
systems per event-loop turn, then a background job scores them; its results go to
the job's own cache, and the workspace redraws from there."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QWidget

from mtworkbench.core.model import Project
from mtworkbench.gui import dialogs
from mtworkbench.gui.metrics.settings_dialog import scoring_scheduler
from mtworkbench.gui.worker import JobWorker
from mtworkbench.scoring.cache import ScoreCache
from mtworkbench.scoring.job import InputReader, PreparedInput, ScoringRequest, run_scoring
from mtworkbench.scoring.restore import restore_now, small_enough

PREPARE_SLICE_S = 0.015  # GUI-thread time per event-loop turn spent reading texts for a job


@dataclass
class PreparingJob:
    """A job whose inputs are being read: the systems still to read and those read so far."""

    request: ScoringRequest
    todo: list[str]
    prepared: dict[str, PreparedInput]
    reader: InputReader


class ScoringControls:
    """The workspace's scoring: start, read the inputs, run the job, cancel, take the results in.

    A job is *preparing* (``_preparing`` holds it) until its inputs are read, then
    *running* (``worker``); ``_restart_after_worker`` starts another once the running
    one has stopped (a start while scoring cancels the old job first)."""

    # Set up by the workspace that mixes this in.
    cache: ScoreCache
    worker: JobWorker | None
    ci_samples: int
    paired_method: str
    paired: dict[str, tuple[tuple, object]]
    errors: dict[str, str]
    unscored: dict[tuple[str, str], str]
    last_outcome: object
    status: QLabel
    progress: QProgressBar
    cancel_button: QPushButton
    rescore_timer: QTimer
    prepare_timer: QTimer
    refresh_timer: QTimer
    _preparing: PreparingJob | None
    deferred: Any  # the workspace's Deferred: ``stored_scores`` is whether the score file is still to read
    _restart_after_worker: bool

    destroyed: Any  # QObject's signal

    # The workspace's own (MetricsWorkspace defines them).
    @property
    def project(self) -> Project:
        raise NotImplementedError

    @property
    def specs(self) -> list[str]:
        raise NotImplementedError

    @property
    def system_ids(self) -> list[str]:
        raise NotImplementedError

    def refresh(self, human_scores: bool = True) -> None:
        raise NotImplementedError

    def restore_stored(self) -> bool:
        """Put the scores the score file holds for the current texts into the cache now, so the
        first paint shows them (a small project; a large one's job restores them in the
        background). True when some were restored; their intervals follow with the next job."""
        due, self.deferred.stored_scores = self.deferred.stored_scores, False
        if not due or not self.project.systems or not small_enough(self.project):
            return False
        restored = restore_now(self.project, self.cache, self.specs, self.system_ids,
                               with_intervals=self.ci_samples > 0)
        if restored.pairs and not self.is_scoring():
            missing = len(self.cache.missing(self.system_ids, self.specs))
            self.status.setText(f"{len(restored.pairs)} scores read from the score file"
                                + (f"; {missing} results to compute." if missing else "."))
        return bool(restored.pairs)

    def is_scoring(self) -> bool:
        """True from the start of a job until its last result has been taken in."""
        return self._preparing is not None or self.worker is not None

    def request(self) -> ScoringRequest:
        return ScoringRequest(
            specs=tuple(self.specs),
            systems=tuple(self.system_ids),
            baseline=self.project.settings.baseline,
            ci_samples=self.ci_samples,
            paired_method=self.paired_method,
            scheduler=scoring_scheduler(),
        )

    def start_scoring(self) -> None:
        if not self.project.systems or not self.project.references or not self.specs:
            self.status.setText("Nothing to score: the project needs systems, references and metrics.")
            return
        if self._preparing is not None:
            self._stop_preparing()
        elif self.worker is not None:  # scoring (not preparing)
            self._restart_after_worker = True
            self.worker.cancel()
            return
        self.rescore_timer.stop()
        self._restart_after_worker = False
        request = self.request()
        # The texts are read here, on the GUI thread, a few systems per event-loop turn:
        # that Python work in the worker thread would fight every repaint for the GIL.
        self._preparing = PreparingJob(request, list(request.systems), {}, InputReader(self.project, self.cache))
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.setEnabled(True)
        self.status.setText("Reading the texts…")
        self.prepare_timer.start()

    def _prepare_slice(self) -> None:
        if self._preparing is None:
            self.prepare_timer.stop()
            return
        job = self._preparing
        deadline = time.perf_counter() + PREPARE_SLICE_S
        while job.todo and time.perf_counter() < deadline:
            system = job.todo.pop(0)
            job.prepared[system] = job.reader.read(system)
        if not job.todo:
            self._stop_preparing()
            self._start_worker(job.request, job.prepared)

    def _stop_preparing(self) -> None:
        self.prepare_timer.stop()
        self._preparing = None

    def _start_worker(self, request: ScoringRequest, prepared: dict[str, PreparedInput]) -> None:
        project, cache = self.project, self.cache

        def job(progress, cancel, deliver):
            return run_scoring(project, cache, request, progress=progress, cancel=cancel, deliver=deliver,
                               prepared=prepared)

        worker = JobWorker(job, project=project, cache=cache)
        self.destroyed.connect(worker.cancel)  # the job outlives a closed workspace only briefly
        worker.progress_changed.connect(self._on_progress)
        worker.item_ready.connect(self._on_item)
        worker.succeeded.connect(self._on_succeeded)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        worker.finished.connect(self._on_worker_finished)
        self.worker = worker
        self.status.setText("Scoring…")
        worker.start()

    def cancel_scoring(self) -> None:
        self._restart_after_worker = False
        if self._preparing is not None:
            self._stop_preparing()
            self._scoring_stopped()
            self.status.setText("Scoring cancelled.")
        elif self.worker is not None:  # scoring (not preparing)
            self.worker.cancel()
            self.status.setText("Cancelling…")

    def _on_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * done / total))

    # A worker's signals all arrive before its ``finished``, and a new worker starts only
    # after the old one finished, so every signal below comes from ``self.worker``.
    # Results go to the job's own cache: after File > Open the job may belong to the old project.
    def _on_item(self, item) -> None:
        worker = self.worker
        if worker is None:
            return
        worker.cache.store(item.system, item.spec, item.fingerprint, item.entry, item.generation)
        if worker.project is self.project:
            self.refresh_timer.start()

    def _on_succeeded(self, outcome) -> None:
        worker = self.worker
        if worker is None:
            return
        for key, result in outcome.paired.values():
            worker.cache.store_paired(key, result)
        if worker.project is not self.project:
            return
        self.last_outcome = outcome
        for spec, (key, result) in outcome.paired.items():
            self.paired[spec] = (key, result)
        self.errors = dict(outcome.errors)
        self.unscored = dict(outcome.unscored)
        for spec, message in outcome.errors.items():
            self.status.setText(f"{spec}: {message}")
        if not outcome.errors:
            where = "worker processes" if outcome.used_processes else "a background thread"
            self.status.setText(f"Scored {len(outcome.items)} system × metric results ({where})."
                                + "".join(f" {why}." for why in dict.fromkeys(outcome.unscored.values())))
        self.refresh()
        self._redraw_score_views()

    def _redraw_score_views(self) -> None:
        """Views drawn from the cached scores (xCOMET's spans) draw again with the new ones."""
        shown: dict = getattr(self, "_detail_shown", {})
        views: dict = getattr(self, "detail_views", {})
        for view in views.values():
            if getattr(view, "reads_scores", False):
                shown.pop(view.objectName(), None)
        update = getattr(self, "_update_detail_view", None)
        if update is not None:
            update()

    def _on_failed(self, message: str) -> None:
        self.status.setText("Scoring failed.")
        dialogs.error(cast(QWidget, self), "Scoring failed", message)  # mixed into a QWidget

    def _on_cancelled(self) -> None:
        self.status.setText("Scoring cancelled; results so far are kept.")
        self.refresh()

    def _on_worker_finished(self) -> None:
        worker = self.worker
        if worker is None:
            return
        self.worker = None
        worker.deleteLater()
        self._scoring_stopped()
        if self._restart_after_worker:
            self._restart_after_worker = False
            self.start_scoring()

    def _scoring_stopped(self) -> None:
        self.progress.hide()
        self.cancel_button.setEnabled(False)

