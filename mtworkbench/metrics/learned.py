"""The learned metric of Kulesza & Shieber (2004, "A learning approach to improving sentence-level MT evaluation").

An SVM with an RBF kernel learns to tell human translations from machine
translations; a hypothesis's score is the SVM's decision value (signed
distance-like confidence; larger = more human-like). No human judgments are
needed to train it.

Features of a hypothesis against its references (9 values):

* ``p1`` .. ``p5``: unmodified n-gram precision: the share of the hypothesis's
  n-grams that match a reference n-gram, where the references' n-grams are
  pooled and each reference n-gram occurrence can be matched by one hypothesis
  n-gram only (so the clip is the summed count over references, not BLEU's
  maximum over single references); 0 when the hypothesis has no n-gram of that
  order;
* ``len_ratio_min``, ``len_ratio_max``: hypothesis length / reference length,
  minimum and maximum over the references (references of length 0 skipped;
  0 when all are empty);
* ``wer_min``, ``per_min``: WER and PER (Kulesza & Shieber's definitions: errors over the
  reference length), minimum over the references; a reference of length 0
  gives 0 without errors and 1 otherwise (sacrebleu TER's convention).

Tokens: sacrebleu's ``13a`` tokenizer, case kept (like BLEU's defaults), so the
features see the same words BLEU does. Both are recorded in the model.

Training examples (:func:`human_machine_examples`): for every segment with at
least two references and every reference j, the human example is reference j
scored against the other references, and each machine system's output scored
against the same other references is a machine example, so both classes see
the same number of references. Machine examples are subsampled (seeded) to
the number of human examples, as the paper keeps the classes equal.

Training (:func:`train_learned`): features are standardised; segments are split
about 2:1 into training and validation sets (seeded; all examples of one
segment fall on one side); for each (C, sigma) of the grid an
``sklearn.svm.SVC(kernel="rbf", gamma=1/(2 sigma^2))`` is fitted on the training
set and scored by validation accuracy; the best one is kept.

The model is stored as plain JSON parameters (support vectors, dual
coefficients, intercept, gamma, feature scaling; never pickle) in
``project.learned_model`` or a file, and :class:`LearnedModel` recomputes the
decision function with numpy alone. ``--metric learned`` reads the parameters
from ``model=PATH.json`` or, for a bundle, from the project
(:meth:`LearnedMetric.bind`). Sufficient statistics are ``[decision, 1]``: the
corpus score is the mean decision value.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from mtworkbench.core.errors import DataError
from mtworkbench.core.files import MIB, read_regular_bytes
from mtworkbench.core.jobs import CancelCheck, ProgressCallback, check_cancel, report
from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.learned_json import check_learned_model
from mtworkbench.core.metric_files import FILE_OPTIONS
from mtworkbench.metrics.base import Metric, MetricError, Option, ScoringInput
from mtworkbench.metrics.edit import levenshtein, position_independent_errors
from mtworkbench.metrics.tokens import tokenize

FEATURE_NAMES: tuple[str, ...] = (
    "p1", "p2", "p3", "p4", "p5", "len_ratio_min", "len_ratio_max", "wer_min", "per_min",
)
MODEL_KIND = "svc-rbf"
MODEL_VERSION = 1
DEFAULT_C_GRID: tuple[float, ...] = (1.0, 10.0, 50.0, 100.0)
DEFAULT_SIGMA_GRID: tuple[float, ...] = (1.0, 3.0, 10.0)
DEFAULT_SEED = 12345
MAX_ORDER = 5


# --- features ------------------------------------------------------------------------


def _ngrams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _rate(errors: int, ref_len: int) -> float:
    if ref_len == 0:
        return 0.0 if errors == 0 else 1.0
    return errors / ref_len


def features(hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    """The 9 features of a tokenised hypothesis against tokenised references."""
    if not refs:
        raise MetricError("learned: a hypothesis needs at least one reference")
    out = np.zeros(len(FEATURE_NAMES))
    for n in range(1, MAX_ORDER + 1):
        hyp_counts = _ngrams(hyp, n)
        total = sum(hyp_counts.values())
        if total == 0:
            continue
        pooled: Counter[tuple[str, ...]] = Counter()
        for ref in refs:
            pooled.update(_ngrams(ref, n))
        matched = sum(min(c, pooled[g]) for g, c in hyp_counts.items())
        out[n - 1] = matched / total
    ratios = [len(hyp) / len(r) for r in refs if len(r) > 0]
    out[5] = min(ratios) if ratios else 0.0
    out[6] = max(ratios) if ratios else 0.0
    out[7] = min(_rate(levenshtein(hyp, r), len(r)) for r in refs)
    out[8] = min(_rate(position_independent_errors(hyp, r), len(r)) for r in refs)
    return out


@dataclass(frozen=True)
class Tokenisation:
    tokenize: str = "13a"
    lowercase: bool = False

    def __call__(self, text: str) -> list[str]:
        return tokenize(text, self.tokenize, self.lowercase)


# --- the stored model ------------------------------------------------------------------


@dataclass
class LearnedModel:
    """An RBF SVM as plain parameters; the decision function needs numpy only."""

    support_vectors: np.ndarray  # (n_sv, n_features), in scaled feature space
    dual_coef: np.ndarray  # (n_sv,): alpha_i * y_i
    intercept: float
    gamma: float
    mean: np.ndarray  # feature scaling: (x - mean) / scale
    scale: np.ndarray
    tokenisation: Tokenisation = field(default_factory=Tokenisation)
    C: float | None = None
    sigma: float | None = None
    report: dict[str, Any] = field(default_factory=dict)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """sum_i dual_coef_i * exp(-gamma * |x - sv_i|^2) + intercept, per row of X."""
        Z = (np.asarray(X, dtype=float) - self.mean) / self.scale
        sv = self.support_vectors
        # |z - sv|^2 expanded as libsvm does; clipped at 0 against rounding.
        d2 = (Z * Z).sum(1)[:, None] + (sv * sv).sum(1)[None, :] - 2.0 * (Z @ sv.T)
        kernel = np.exp(-self.gamma * np.maximum(d2, 0.0))
        return kernel @ self.dual_coef + self.intercept

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": MODEL_KIND,
            "version": MODEL_VERSION,
            "features": list(FEATURE_NAMES),
            "tokenize": self.tokenisation.tokenize,
            "lowercase": self.tokenisation.lowercase,
            "feature_mean": self.mean.tolist(),
            "feature_scale": self.scale.tolist(),
            "gamma": float(self.gamma),
            "C": self.C,
            "sigma": self.sigma,
            "intercept": float(self.intercept),
            "dual_coef": self.dual_coef.tolist(),
            "support_vectors": self.support_vectors.tolist(),
            "report": self.report,
        }

    @classmethod
    def from_json(cls, obj: Any, where: str = "learned model") -> LearnedModel:
        """The model a stored object describes; ``BundleError`` (a ``DataError``) names
        ``where`` and the JSON path of what is wrong."""
        r = JsonReader(where)
        check_learned_model(obj, "$", where)  # every field's type, with its JSON path
        if obj["kind"] != MODEL_KIND:
            r.fail(f"kind must be {MODEL_KIND!r}, found {obj['kind']!r}", "$.kind")
        if obj["version"] != MODEL_VERSION:
            r.fail(f"unsupported version {obj['version']!r} (this program reads {MODEL_VERSION})", "$.version")
        if list(obj["features"]) != list(FEATURE_NAMES):
            r.fail(f"features must be {list(FEATURE_NAMES)}", "$.features")
        try:
            sv = np.asarray(obj["support_vectors"], dtype=float)
        except ValueError as exc:  # rows of different lengths
            r.fail(f"expected rows of equal length: {exc}", "$.support_vectors")
        coef = np.asarray(obj["dual_coef"], dtype=float)
        mean = np.asarray(obj["feature_mean"], dtype=float)
        scale = np.asarray(obj["feature_scale"], dtype=float)
        gamma = float(obj["gamma"])
        intercept = float(obj["intercept"])
        k = len(FEATURE_NAMES)
        if sv.ndim != 2 or sv.shape[1] != k or coef.shape != (sv.shape[0],):
            r.fail(f"support_vectors must be (n, {k}) and dual_coef (n,), found {sv.shape}, {coef.shape}",
                   "$.support_vectors")
        if mean.shape != (k,) or scale.shape != (k,) or np.any(scale <= 0):
            r.fail(f"feature_mean and feature_scale must have {k} values, scales > 0", "$.feature_scale")
        if not (math.isfinite(gamma) and gamma > 0):
            r.fail("gamma must be a positive number", "$.gamma")
        tok = Tokenisation(str(obj.get("tokenize", "13a")), bool(obj.get("lowercase", False)))
        return cls(sv, coef, intercept, gamma, mean, scale, tok, obj.get("C"), obj.get("sigma"),
                   dict(obj.get("report", {})))


MODEL_FILE_LIMIT = 64 * MIB  # a model is a few thousand support vectors: well under a megabyte


def load_model_file(path: str | Path) -> LearnedModel:
    try:
        # A regular file of bounded size only: a FIFO or a device would hang or fill memory.
        obj = json.loads(read_regular_bytes(path, max_bytes=MODEL_FILE_LIMIT).decode("utf-8"))
    except DataError:
        raise
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 (byte offset {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:  # an integer too long to convert; nesting too deep
        raise DataError(f"{path}: not a model file: {' '.join(str(exc).split())[:200]}") from None
    return LearnedModel.from_json(obj, str(path))


# --- the metric --------------------------------------------------------------------------


class LearnedMetric(Metric):
    """SVM human-likeness score (Kulesza & Shieber); needs a trained model."""

    name = "learned"
    scale = "unbounded"
    option_specs = (
        Option("model", str, "", "JSON file of a trained model (default: the bundle's model)"),
    )
    # Options whose value is a path the metric opens: a bundle's settings may not carry them.
    file_options: ClassVar[tuple[str, ...]] = FILE_OPTIONS["learned"]

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._model: LearnedModel | None = None
        self._model_path = ""  # the model= file that _model was read from

    @property
    def stat_names(self) -> tuple[str, ...]:
        return ("decision", "count")

    def set_model(self, model: LearnedModel | dict[str, Any]) -> None:
        """Use these parameters (e.g. ``project.learned_model``) unless ``model=`` was given."""
        if isinstance(model, dict):
            model = LearnedModel.from_json(model, "project learned_model")
        self._model = model

    def bind(self, project: Any) -> None:
        """Without ``model=``, score with the project's trained model, if it has one."""
        model = getattr(project, "learned_model", None)
        if not self.options["model"] and model:
            self.set_model(model)

    @property
    def model(self) -> LearnedModel:
        if self.options["model"]:
            if self._model is None or self._model_path != self.options["model"]:
                self._model = load_model_file(self.options["model"])
                self._model_path = self.options["model"]
            return self._model
        if self._model is None:
            raise MetricError(
                "learned: no trained model; run 'mtworkbench train-learned BUNDLE' "
                "or pass learned:model=PATH.json"
            )
        return self._model

    progress_every = 200

    def reference_key(self, data: ScoringInput) -> Any:
        # The tokens come from the model's tokenisation, not from an option.
        return self.model.tokenisation, super().reference_key(data)

    def extract_reference(self, segment: int, refs: Sequence[str | None]) -> list[list[str]]:
        """The references' tokens, as the model's tokenisation gives them."""
        tok = self.model.tokenisation
        tokens = [tok(r) for r in refs if r is not None]
        if not tokens:
            raise MetricError(f"learned: segment {segment + 1} has no reference")
        return tokens

    def _feature_row(self, segment: int, hypothesis: str, prepared: list[list[str]]) -> np.ndarray:
        return features(self.model.tokenisation(hypothesis), prepared)

    def segment_statistics(
        self,
        data: ScoringInput,
        progress: ProgressCallback | None = None,
        cancel: CancelCheck | None = None,
    ) -> np.ndarray:
        """Features through the base loop, then one vectorised SVM decision."""
        model = self.model
        X = self.segment_rows(data, self._feature_row, len(FEATURE_NAMES), progress, cancel)
        out = np.ones((data.n_segments, 2))
        if data.n_segments:
            out[:, 0] = model.decision_function(X)
        return out

    def aggregate(self, totals: np.ndarray) -> np.ndarray | float:
        totals = np.asarray(totals, dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return totals[..., 0] / totals[..., 1]


# --- training ------------------------------------------------------------------------------


@dataclass
class Examples:
    X: np.ndarray  # (n, 9)
    y: np.ndarray  # 1 = human, 0 = machine
    groups: np.ndarray  # segment index of each example


def human_machine_examples(
    hypotheses: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    tok: Tokenisation = Tokenisation(),
    seed: int = DEFAULT_SEED,
    balance: bool = True,
    cancel: CancelCheck | None = None,
) -> Examples:
    """Human examples (each reference vs the others) and machine examples (each system
    vs the same others), for segments with >= 2 references."""
    if not hypotheses:
        raise DataError("training the learned metric needs at least one machine system")
    n_seg = len(references[0]) if references else 0
    systems = list(hypotheses)
    # First list every example as (segment, held-out reference, system or None for
    # the human one); choose the machine subset; then compute only the kept features.
    plan: list[tuple[int, int, str | None]] = []
    for i in range(n_seg):
        n_refs = sum(stream[i] is not None for stream in references)
        if n_refs < 2:
            continue
        for j in range(n_refs):
            plan.append((i, j, None))
            plan.extend((i, j, s) for s in systems)
    if not plan:
        raise DataError("training the learned metric needs segments with at least two references")
    labels = np.array([1 if s is None else 0 for _, _, s in plan])
    keep = np.arange(len(plan))
    if balance:
        rng = np.random.default_rng(seed)
        human = np.flatnonzero(labels == 1)
        machine = np.flatnonzero(labels == 0)
        if len(machine) > len(human):
            machine = rng.choice(machine, size=len(human), replace=False)
        keep = np.sort(np.concatenate([human, machine]))
    X = np.zeros((len(keep), len(FEATURE_NAMES)))
    tokenised: dict[tuple[str, int], list[str]] = {}
    last_segment = -1
    refs: list[list[str]] = []
    for row, k in enumerate(keep):
        i, j, system = plan[k]
        if i != last_segment:
            if row % 100 == 0:
                check_cancel(cancel)
            refs = [tok(text) for stream in references if (text := stream[i]) is not None]
            last_segment = i
        others = refs[:j] + refs[j + 1 :]
        hyp = refs[j] if system is None else tokenised.setdefault((system, i), tok(hypotheses[system][i]))
        X[row] = features(hyp, others)
    Xa, ya, ga = X, labels[keep], np.array([plan[k][0] for k in keep])
    return Examples(Xa, ya, ga)


@dataclass
class GridPoint:
    C: float
    sigma: float
    gamma: float
    accuracy: float
    human_accuracy: float
    machine_accuracy: float
    n_support: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class LearnedTraining:
    """What training did: the grid, the chosen model and its validation accuracy."""

    model: LearnedModel
    grid: list[GridPoint]
    best: GridPoint
    n_train: int
    n_validation: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "C": self.best.C,
            "sigma": self.best.sigma,
            "gamma": self.best.gamma,
            "accuracy": self.best.accuracy,
            "human_accuracy": self.best.human_accuracy,
            "machine_accuracy": self.best.machine_accuracy,
            "n_support": self.best.n_support,
            "n_train": self.n_train,
            "n_validation": self.n_validation,
            "seed": self.seed,
            "grid": [g.to_json() for g in self.grid],
        }


def split_by_segment(groups: np.ndarray, validation_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks (train, validation); all examples of one segment on one side."""
    segs = np.unique(groups)
    rng = np.random.default_rng(seed)
    n_val = max(1, int(round(len(segs) * validation_fraction)))
    if n_val >= len(segs):
        raise DataError("too few segments to split into training and validation sets")
    val_segs = rng.choice(segs, size=n_val, replace=False)
    val = np.isin(groups, val_segs)
    return ~val, val


def train_learned(
    examples: Examples,
    C_grid: Sequence[float] = DEFAULT_C_GRID,
    sigma_grid: Sequence[float] = DEFAULT_SIGMA_GRID,
    validation_fraction: float = 1 / 3,
    seed: int = DEFAULT_SEED,
    tok: Tokenisation = Tokenisation(),
    progress: ProgressCallback | None = None,
    cancel: CancelCheck | None = None,
) -> LearnedTraining:
    """Grid search over C and sigma by validation accuracy; returns the best model."""
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    train, val = split_by_segment(examples.groups, validation_fraction, seed)
    if len(np.unique(examples.y[train])) < 2:
        raise DataError("the training split holds only one class")
    scaler = StandardScaler().fit(examples.X[train])
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    Xt = (examples.X[train] - scaler.mean_) / scale
    Xv = (examples.X[val] - scaler.mean_) / scale
    yt, yv = examples.y[train], examples.y[val]
    grid: list[GridPoint] = []
    best: tuple[GridPoint, Any] | None = None
    total = len(C_grid) * len(sigma_grid)
    for C in C_grid:
        for sigma in sigma_grid:
            check_cancel(cancel)
            gamma = 1.0 / (2.0 * sigma * sigma)
            svc = SVC(C=C, kernel="rbf", gamma=gamma).fit(Xt, yt)
            pred = svc.predict(Xv)
            point = GridPoint(
                C=float(C), sigma=float(sigma), gamma=gamma,
                accuracy=float(np.mean(pred == yv)),
                human_accuracy=float(np.mean(pred[yv == 1] == 1)) if np.any(yv == 1) else math.nan,
                machine_accuracy=float(np.mean(pred[yv == 0] == 0)) if np.any(yv == 0) else math.nan,
                n_support=int(svc.support_vectors_.shape[0]),
            )
            grid.append(point)
            if best is None or point.accuracy > best[0].accuracy:
                best = (point, svc)
            report(progress, len(grid), total)
    assert best is not None
    point, svc = best
    # sklearn orders classes [0, 1]; its decision value is positive for class 1 (human).
    model = LearnedModel(
        support_vectors=np.asarray(svc.support_vectors_, dtype=float),
        dual_coef=np.asarray(svc.dual_coef_[0], dtype=float),
        intercept=float(svc.intercept_[0]),
        gamma=point.gamma,
        mean=np.asarray(scaler.mean_, dtype=float),
        scale=np.asarray(scale, dtype=float),
        tokenisation=tok,
        C=point.C,
        sigma=point.sigma,
    )
    training = LearnedTraining(model, grid, point, int(train.sum()), int(val.sum()), seed)
    model.report = training.to_json()
    return training


def project_examples(project: Any, tok: Tokenisation = Tokenisation(), seed: int = DEFAULT_SEED,
                     cancel: CancelCheck | None = None) -> Examples:
    """Training examples from a project: its machine systems and its references."""
    seg_ids = project.segment_ids
    hyps = {s.id: [s.texts[sid] for sid in seg_ids] for s in project.systems if s.kind == "machine"}
    refs = [[r.texts.get(sid) for sid in seg_ids] for r in project.references]
    if len(refs) < 2:
        raise DataError(
            f"training the learned metric needs at least two references, the project has {len(refs)}"
        )
    return human_machine_examples(hyps, refs, tok, seed, cancel=cancel)
