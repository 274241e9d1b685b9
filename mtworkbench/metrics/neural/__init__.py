"""Neural metrics from local checkpoints: COMET (regression, reference-free, unified/xCOMET) and MetricX.

The inference is our own, over torch and transformers, so the optional extra
``mtworkbench[neural]`` installs beside numpy 2 and current transformers; the
reference package pins older stacks. Nothing here imports torch at module level:
the core, ``--help`` and the desktop build work without the extra, and a run
that asks for a neural metric without it is told what to install.

Modules: ``checkpoint`` (safe reading of settings and weights, fingerprints),
``models`` (the per-user registry of checkpoints by name), ``spans`` (error
spans as data), ``comet_net`` / ``comet_predict`` (COMET), ``metricx`` (MetricX),
``metric`` (the metrics the workbench offers).
"""

INSTALL_HINT = "pip install 'mtworkbench[neural]'"
