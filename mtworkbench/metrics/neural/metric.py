"""``comet:model=NAME|DIR`` and ``metricx:model=NAME|DIR``: neural metrics like any other.

Sufficient statistics are ``[score, 1]`` per segment, so bootstrap intervals, paired
tests and pseudo-documents are means of segment scores; the corpus score is the
reference tool's system score (the mean in its batching order). torch loads with the
first segment scored, not with this module; one loaded model serves every system
of a run (``_LOADED`` keeps the last one). A project names a model by its registered
name, never a folder (:mod:`mtworkbench.metrics.neural.models`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mtworkbench.core.jobs import CancelCheck, ProgressCallback
from mtworkbench.core.metric_files import FILE_OPTIONS, looks_like_path
from mtworkbench.core.scoring_input import MetricError, MetricScore, ScoringInput
from mtworkbench.metrics.base import Metric, Option
from mtworkbench.metrics.neural.models import ResolvedModel, resolve
from mtworkbench.metrics.signature import Signature

if TYPE_CHECKING:
    import numpy as np

DEVICES = ("auto", "cpu", "cuda", "mps")
PRECISIONS = ("fp32", "fp16", "bf16")
# (kind, sha256, options that change the loaded model) -> model; one at a time, as one fits in memory
_LOADED: dict[tuple[Any, ...], Any] = {}


def _positive(raw: str) -> int:
    value = int(raw)
    if value < 1:
        raise ValueError("expected a whole number of at least 1")
    return value


def _non_negative(raw: str) -> int:
    value = int(raw)
    if value < 0:
        raise ValueError("expected 0 or more")
    return value


COMMON_OPTIONS = (
    Option("model", str, "", "a registered model name (mtworkbench models add NAME DIR) or, outside a project, "
                             "a checkpoint folder"),
    Option("sha256", str, "", "the first hex digits of the model's content fingerprint; a different model is refused"),
    Option("batch_size", _positive, 16, "segments per batch (sorted by length)"),
    Option("device", str, "auto", "cpu, cuda or mps; auto: cuda when there is one, else cpu", DEVICES),
    Option("precision", str, "fp32", "fp16 or bf16 on a GPU", PRECISIONS),
    Option("threads", _non_negative, 0, "CPU threads for torch (0: torch's default)"),
)


class NeuralMetric(Metric):
    """What COMET and MetricX share: model resolution, batching options, statistics."""

    scale = "unbounded"
    reads = ("hypotheses", "references", "sources")
    needs_references = False
    single_process = True  # one model in memory: scored in the calling process, never in a pool
    wants_gpu = True  # on a Dask cluster, sent to the workers that declare a GPU resource (when any do)
    model_kind: ClassVar[str] = ""
    load_options: ClassVar[tuple[str, ...]] = ("device", "precision", "threads")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._resolved: ResolvedModel | None = None
        self._allow_path = True  # a project's metric names registered models only (bind)
        self._system_score: float | None = None
        self._extras: dict[str, Any] = {}

    def validate_options(self) -> None:
        if not self.options["model"]:
            raise MetricError(f"{self.name}: give model=NAME (registered with `mtworkbench models add NAME DIR`) "
                              "or model=DIR")

    @property
    def stat_names(self) -> tuple[str, ...]:
        return ("score", "count")

    # --- the model -------------------------------------------------------------------------
    def bind(self, project: Any) -> None:
        self._allow_path = False
        self._resolved = None
        if looks_like_path(self.options["model"]):
            raise MetricError(
                f"{self.name}: a project names models by registered name, not by folder "
                f"({self.options['model']}); run `mtworkbench models add NAME {self.options['model']}` and use "
                f"{self.name}:model=NAME")

    def resolved(self) -> ResolvedModel:
        if self._resolved is None:
            found = resolve(self.options["model"], self.name, self.options["sha256"], self._allow_path)
            if found.kind != self.model_kind:
                raise MetricError(f"{self.name}: {self.options['model']} is a {found.kind} checkpoint; use "
                                  f"{found.kind}:model={self.options['model']}")
            self._resolved = found
        return self._resolved

    def binding_digest(self) -> str:
        return self.resolved().sha256

    def model(self) -> Any:
        found = self.resolved()
        key = (self.model_kind, found.sha256, str(found.path)) + tuple(
            (k, self.options[k]) for k in self.load_options)
        loaded = _LOADED.get(key)
        if loaded is None:
            _LOADED.clear()  # free the previous model before loading another
            loaded = _LOADED[key] = self.load(found)
        return loaded

    def load(self, found: ResolvedModel) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    # --- inputs ------------------------------------------------------------------------
    def texts(self, data: ScoringInput) -> tuple[list[str], list[str] | None, list[str] | None]:
        """Hypotheses, sources (None when absent) and the first reference stream (None when absent)."""
        hyps = [str(h) for h in data.hypotheses]
        sources = None
        if data.sources is not None and any(s for s in data.sources):
            sources = ["" if s is None else str(s) for s in data.sources]
        refs = None
        for stream in data.references:
            present = [r is not None for r in stream]
            if not any(present):
                continue
            if not all(present):
                missing = present.index(False)
                raise MetricError(f"{self.name}: segment {missing + 1} has no reference in the first reference "
                                  "stream that has any; this metric reads one reference per segment")
            refs = [str(r) for r in stream]
            break
        return hyps, sources, refs

    # --- scores --------------------------------------------------------------------------
    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        import numpy as np

        totals = np.asarray(totals, dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return totals[..., 0] / totals[..., 1]

    def segment_statistics(self, data: ScoringInput, progress: ProgressCallback | None = None,
                           cancel: CancelCheck | None = None) -> np.ndarray:
        import numpy as np

        scores, system, extras = self.predict(data, progress, cancel)
        self._system_score, self._extras = system, extras
        values = np.asarray(scores, dtype=float).reshape(-1)
        return np.column_stack([values, np.ones(len(values))]) if len(values) else np.zeros((0, 2))

    def predict(self, data: ScoringInput, progress: ProgressCallback | None, cancel: CancelCheck | None
                ) -> tuple[list[float], float, dict[str, Any]]:  # pragma: no cover - overridden
        raise NotImplementedError

    def segment_scores(self, data: ScoringInput, stats: np.ndarray) -> np.ndarray:
        import numpy as np

        return np.asarray(stats[:, 0], dtype=float) if len(stats) else np.zeros(0)

    def extras(self, data: ScoringInput, stats: np.ndarray) -> dict[str, Any]:
        return dict(self._extras)

    def score(self, data: ScoringInput, progress: ProgressCallback | None = None,
              cancel: CancelCheck | None = None, system: str | None = None) -> MetricScore:
        self._system_score, self._extras = None, {}
        result = super().score(data, progress, cancel, system)
        if self._system_score is not None and data.n_segments:
            result.corpus = float(self._system_score)
        result.extras["higher_is_better"] = self.higher_is_better
        return result

    def make_signature(self, n_refs: int | None = None) -> Signature:
        found = self.resolved()
        fields: list[tuple[str, Any]] = [("model", found.label), ("sha256", found.sha256[:16])]
        fields += self.signature_extra()
        fields.append(("precision", self.options["precision"]))
        return Signature(self.name, n_refs, tuple(fields))

    def signature_extra(self) -> list[tuple[str, Any]]:
        return []

    def signature_for(self, data: ScoringInput) -> str:
        _hyps, _srcs, refs = self.texts(data)
        return self.signature(0 if refs is None else 1)


class CometMetric(NeuralMetric):
    """COMET, CometKiwi and xCOMET from a checkpoint folder (kind from its class_identifier)."""

    name = "comet"
    model_kind = "comet"
    file_options: ClassVar[tuple[str, ...]] = FILE_OPTIONS["comet"]
    option_specs = COMMON_OPTIONS + (
        Option("encoder", str, "", "folder with the encoder's config.json and tokenizer (default: the "
                                   "checkpoint's pretrained_model, as a folder or from the Hugging Face cache)"),
    )
    load_options = ("device", "precision", "threads", "encoder")

    def bind(self, project: Any) -> None:
        super().bind(project)
        if self.options["encoder"]:
            raise MetricError("comet: a project does not name folders; leave encoder= out (the encoder's files are "
                              "found beside the checkpoint or in the Hugging Face cache)")

    def load(self, found: ResolvedModel) -> Any:
        from mtworkbench.metrics.neural.checkpoint import need

        need("torch", self.name)
        need("transformers", self.name)
        from mtworkbench.metrics.neural.comet_predict import CometModel

        return CometModel(found.path, device=self.options["device"], precision=self.options["precision"],
                          encoder=self.options["encoder"] or None, threads=self.options["threads"])

    def predict(self, data: ScoringInput, progress: ProgressCallback | None, cancel: CancelCheck | None
                ) -> tuple[list[float], float, dict[str, Any]]:
        hyps, srcs, refs = self.texts(data)
        model = self.model()
        if not model.uses_reference:
            refs = None
        if not model.uses_source:
            srcs = None
        out = model.predict(hyps, srcs, refs, batch_size=self.options["batch_size"], progress=progress, cancel=cancel)
        extras: dict[str, Any] = {}
        if out.spans is not None:
            extras["error_spans"] = [[s.to_json() for s in seg] for seg in out.spans]
        extras["comet_kind"] = model.settings.kind
        extras["inputs"] = "+".join(x for x, v in (("src", srcs), ("ref", refs)) if v is not None)
        return out.scores, out.system_score, extras


class MetricXMetric(NeuralMetric):
    """MetricX-23 / MetricX-24 from a Hugging Face model folder (lower is better, 0-25)."""

    name = "metricx"
    model_kind = "metricx"
    file_options: ClassVar[tuple[str, ...]] = FILE_OPTIONS["metricx"]
    higher_is_better = False
    scale = "0-25"
    option_specs = COMMON_OPTIONS + (
        Option("version", str, "24", "23 or 24: the input format the checkpoint was trained with", ("23", "24")),
        Option("tokenizer", str, "", "folder with mT5's tokenizer (default: the Hugging Face cache's google/mt5-*)"),
        Option("max_input_length", _non_negative, 0, "tokens per input (0: 1024 for MetricX-23, 1536 for 24)"),
    )
    load_options = ("device", "precision", "threads", "tokenizer", "version", "max_input_length")

    def __init__(self, **options: Any) -> None:
        options.setdefault("batch_size", "8")
        super().__init__(**options)

    def bind(self, project: Any) -> None:
        super().bind(project)
        if self.options["tokenizer"]:
            raise MetricError("metricx: a project does not name folders; leave tokenizer= out (mT5's tokenizer is "
                              "found beside the checkpoint or in the Hugging Face cache)")

    def load(self, found: ResolvedModel) -> Any:
        from mtworkbench.metrics.neural.checkpoint import need

        need("torch", self.name)
        need("transformers", self.name)
        from mtworkbench.metrics.neural.metricx import MetricXModel

        return MetricXModel(found.path, version=self.options["version"], device=self.options["device"],
                            precision=self.options["precision"], tokenizer=self.options["tokenizer"] or None,
                            max_input_length=self.options["max_input_length"], threads=self.options["threads"])

    def predict(self, data: ScoringInput, progress: ProgressCallback | None, cancel: CancelCheck | None
                ) -> tuple[list[float], float, dict[str, Any]]:
        hyps, srcs, refs = self.texts(data)
        scores = self.model().predict(hyps, srcs, refs, batch_size=self.options["batch_size"], progress=progress,
                                      cancel=cancel)
        system = sum(scores) / len(scores) if scores else float("nan")
        return scores, system, {"inputs": "+".join(x for x, v in (("src", srcs), ("ref", refs)) if v is not None)}

    def signature_extra(self) -> list[tuple[str, Any]]:
        return [("version", self.options["version"])]


def spans_of(score: MetricScore) -> Sequence[Sequence[dict[str, Any]]] | None:
    """The per-segment error spans a word-level metric left in a score (None when it marks none)."""
    found = score.extras.get("error_spans")
    return found if isinstance(found, list) else None
