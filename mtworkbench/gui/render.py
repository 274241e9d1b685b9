"""Headless rendering of the Metrics workspace's figures (``mtworkbench render``).

The same widgets the app shows are built off screen, filled for one system and
segment, and exported as PNG or SVG with ``gui.export.export_widget``.
"""

from __future__ import annotations

import os
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.gui.metrics.views import (
    CORPUS_TABLE,
    IMAGE_SUFFIXES,
    VIEW_NAMES,
)

DETAIL_SIZE = (1200, 800)
MAX_SIDE = 4000


def ensure_application():
    """A QApplication, off screen unless a platform was chosen explicitly."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        qInstallMessageHandler(_quiet_offscreen_warnings)
        app = QApplication(["mtworkbench-render"])
    return app


def _quiet_offscreen_warnings(mode, context, message: str) -> None:
    # The offscreen platform warns about window hints it ignores; nothing a user can act on.
    if "propagateSizeHints" in message:
        return
    import sys

    print(message, file=sys.stderr)


def write_image(widget, path: Path, size=None) -> None:
    """PNG through ``gui.export``; SVG drawn here with an explicit target offset
    (``QWidget.render(painter)`` without one is rejected by PySide6 6.x)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgGenerator

    from mtworkbench.core.output import write_output
    from mtworkbench.gui.export import export_widget

    if path.suffix.lower() == ".png":
        export_widget(widget, path, size)
        return
    if size is not None:
        widget.resize(size)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)  # drawn in memory, then written like every other output
    generator.setSize(widget.size())
    generator.setViewBox(QRect(0, 0, widget.width(), widget.height()))
    generator.setTitle(widget.windowTitle() or "mtworkbench view")
    painter = QPainter(generator)
    try:
        widget.render(painter, QPoint(0, 0))
    finally:
        painter.end()
    buffer.close()
    if not data.size():
        raise OSError(f"could not draw {path}")
    write_output(path, bytes(data.data()))


def render(bundle_path, view: str, system: str | None = None, segment: str | None = None,
           metric: str | None = None, out: Path | str = Path("view.png")) -> Path:
    """Render ``view`` of the project at ``bundle_path`` into ``out`` (.png or .svg)."""
    from mtworkbench.io.bundle.bundle import load_bundle

    out = Path(out)
    if out.suffix.lower() not in IMAGE_SUFFIXES:
        raise DataError(f"{out}: the output must end in .png or .svg")
    if view not in VIEW_NAMES:
        raise DataError(f"unknown view {view!r}; views: {', '.join(VIEW_NAMES)}")
    project = load_bundle(bundle_path)
    if not project.systems:
        raise DataError(f"{bundle_path}: the project has no systems")
    if not project.segments:
        raise DataError(f"{bundle_path}: the project has no segments")
    system = system or project.systems[0].id
    if not project.has_system(system):
        raise DataError(f"no system {system!r}; systems: {', '.join(s.id for s in project.systems)}")
    segment = segment or project.segment_ids[0]
    if not project.has_segment(segment):
        raise DataError(f"no segment {segment!r} in {bundle_path}")
    if metric is not None:
        from mtworkbench.metrics.registry import create_metric

        create_metric(metric)  # an unknown metric or option fails here, before any drawing
    app = ensure_application()
    widget, size = (
        corpus_table_widget(project, metric) if view == CORPUS_TABLE
        else detail_view_widget(project, view, system, segment, metric)
    )
    from PySide6.QtCore import QSize, Qt

    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    # A view may need more room than the default canvas (a label on every GTM token).
    hint = widget.minimumSizeHint()
    size = (min(MAX_SIDE, max(size[0], hint.width())), min(MAX_SIDE, max(size[1], hint.height())))
    widget.resize(*size)
    widget.show()
    app.processEvents()
    target = widget.export_widget() if hasattr(widget, "export_widget") else widget
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_image(target, out, QSize(*size) if target is widget else None)
    finally:
        widget.close()
        widget.deleteLater()
    return out


def corpus_table_widget(project, metric: str | None):
    """The corpus table of every system, scored now (cached results are not on disk)."""
    from mtworkbench.core.wording import plural
    from mtworkbench.gui.metrics.corpus_table import CorpusTable, corpus_rows
    from mtworkbench.scoring.cache import cache_for
    from mtworkbench.scoring.job import ScoringRequest, run_scoring

    if not project.references:
        raise DataError("the project has no references to score against")
    specs = [metric] if metric else list(project.settings.metrics)
    systems = [s.id for s in project.systems]
    cache = cache_for(project)
    outcome = run_scoring(project, cache, ScoringRequest(tuple(specs), tuple(systems), project.settings.baseline))
    for item in outcome.items:
        cache.store(item.system, item.spec, item.fingerprint, item.entry, item.generation)
    paired = {spec: result for spec, (_key, result) in outcome.paired.items()}
    table = CorpusTable()
    note = (f"{project.name or 'project'}: {plural(len(project.segments), 'segment')}, "
            f"{plural(len(project.references), 'reference')}")
    table.set_content(specs, corpus_rows(cache, systems, specs, paired, outcome.errors), project.settings.baseline, note)
    table.setStyleSheet("background: white")
    return table, table.preferred_size()


def detail_view_widget(project, view: str, system: str, segment: str, metric: str | None):
    from mtworkbench.gui.metrics.views import detail_views

    views = detail_views()
    if view not in views:
        raise DataError(f"view {view!r} is not available; views: {', '.join([*views, CORPUS_TABLE])}")
    widget = views[view]()
    if getattr(widget, "reads_scores", False) and metric:
        # A view drawn from scores (xCOMET's spans) has them computed here, as the corpus table does.
        from mtworkbench.scoring.cache import cache_for
        from mtworkbench.scoring.job import ScoringRequest, run_scoring

        cache = cache_for(project)
        outcome = run_scoring(project, cache, ScoringRequest((metric,), (system,), ci_samples=0))
        if metric in outcome.failures:
            raise outcome.failures[metric]
        for item in outcome.items:
            cache.store(item.system, item.spec, item.fingerprint, item.entry, item.generation)
    widget.set_segment(project, system, segment, metric)
    return widget, detail_size(project, view, system, segment)


def detail_size(project, view: str, system: str, segment: str) -> tuple[int, int]:
    """1200 x 800, larger for a GTM grid with many tokens so labels stay readable."""
    width, height = DETAIL_SIZE
    if view == "gtm-grid":
        n_hyp = len(project.system_text(system, segment).split())
        n_ref = sum(len(text.split()) for _ref, text in project.iter_reference_texts(segment))
        width = max(width, min(MAX_SIDE, 300 + 14 * n_ref))
        height = max(height, min(MAX_SIDE, 400 + 14 * n_hyp))
    return width, height
