"""The scoring service: the one path from a project to metric scores.

Both the command line and the GUI score through here:

- :mod:`.job` runs metrics over a project's systems with progress and cancel
  (one metric instance per spec, bound to the project and reused across
  systems, so reference statistics are computed once), in a thread or in
  worker processes;
- :mod:`.cache` keeps results per project, so scoring is paid for once;
- :mod:`.project_scores` lays scores out by system for meta-evaluation;
- :mod:`.analysis_job` correlates them with human scores.

Layers: this package sits above ``metrics``, ``analysis``, ``io`` and ``core``
and below ``cli`` and ``gui``; it never imports Qt.
"""
