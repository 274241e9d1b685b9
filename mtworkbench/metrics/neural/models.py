"""The checkpoints this user has registered by name (``mtworkbench models add NAME DIR``).

A bundle never names a path: it names a model (``comet:model=NAME``, optionally with
``sha256=PREFIX`` of its content), and each machine says where its copy lives. The
registry is a JSON file in the user's configuration folder
(``platformdirs.user_config_path("mtworkbench")``, or ``$MTWB_CONFIG_DIR``), written
atomically. A checkpoint's fingerprint is computed when it is added and reused while
its files keep their size and modification time.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from mtworkbench.core.atomic import atomic_write_text
from mtworkbench.core.metric_files import looks_like_path
from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.checkpoint import checkpoint_files, detect_kind, fingerprint

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$")
REGISTRY_FILE = "models.json"


@dataclass(frozen=True)
class RegisteredModel:
    name: str
    kind: str  # comet | metricx
    path: str
    sha256: str
    added: str
    stamps: tuple[tuple[str, int, int], ...] = ()  # (file, size, mtime_ns) when fingerprinted

    def to_json(self) -> dict:
        out = asdict(self)
        out["stamps"] = [list(s) for s in self.stamps]
        return out


def config_dir() -> Path:
    env = os.environ.get("MTWB_CONFIG_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_config_path("mtworkbench", appauthor=False))


def registry_path() -> Path:
    return config_dir() / REGISTRY_FILE


def load_registry() -> dict[str, RegisteredModel]:
    path = registry_path()
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        models = data["models"]
        return {name: RegisteredModel(name=name, kind=str(m["kind"]), path=str(m["path"]), sha256=str(m["sha256"]),
                                      added=str(m.get("added", "")),
                                      stamps=tuple((str(a), int(b), int(c)) for a, b, c in m.get("stamps", [])))
                for name, m in models.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise MetricError(f"{path}: the model registry cannot be read ({exc}); fix or delete the file") from None


def _save(models: dict[str, RegisteredModel]) -> None:
    path = registry_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": "mtworkbench-models", "version": 1,
            "models": {name: {k: v for k, v in m.to_json().items() if k != "name"} for name, m in sorted(models.items())}}
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n", keep_backup=False)


def _stamps(files: list[Path]) -> tuple[tuple[str, int, int], ...]:
    out = []
    for f in files:
        info = os.stat(f)
        out.append((f.name, info.st_size, info.st_mtime_ns))
    return tuple(out)


def validate_name(name: str) -> None:
    if not NAME_PATTERN.match(name):
        raise MetricError(f"model name {name!r}: use letters, digits and . _ + - (no paths, no spaces)")


def add_model(name: str, folder: str | Path) -> RegisteredModel:
    """Register the checkpoint in ``folder`` as ``name`` (replacing an entry of that name)."""
    validate_name(name)
    path = Path(folder).expanduser().resolve()
    if not path.is_dir():
        raise MetricError(f"{folder}: not a folder; give the checkpoint's folder (the one holding hparams.yaml, "
                          "or a MetricX model's config.json)")
    kind = detect_kind(path)
    files = checkpoint_files(path, kind)
    for f in files:
        if not f.is_file():
            raise MetricError(f"{f} is missing; the checkpoint in {path} is incomplete")
    from mtworkbench.metrics.neural.checkpoint_info import check

    # Settings that are not plain data, weights that hold code, a missing encoder or tokenizer
    # file: refused now, with what to do, not at the first scoring.
    check(path)
    entry = RegisteredModel(name=name, kind=kind, path=str(path), sha256=fingerprint(files),
                            added=datetime.now(UTC).isoformat(timespec="seconds"), stamps=_stamps(files))
    models = load_registry()
    models[name] = entry
    _save(models)
    return entry


def remove_model(name: str) -> None:
    models = load_registry()
    if name not in models:
        raise MetricError(f"no model named {name!r} is registered" + _known(models))
    del models[name]
    _save(models)


def _known(models: dict[str, RegisteredModel]) -> str:
    return f"; registered: {', '.join(sorted(models))}" if models else "; none is registered"


@dataclass(frozen=True)
class ResolvedModel:
    """Where a model spec's checkpoint is and what it is."""

    label: str  # the registered name, or the folder's name for a path
    kind: str
    path: Path
    sha256: str
    registered: bool


def resolve(value: str, metric: str, expected_sha: str = "", allow_path: bool = True) -> ResolvedModel:
    """``model=`` of a spec: a registered name, or (``allow_path``: outside a project) a folder."""
    if not value:
        raise MetricError(f"{metric}: give model=NAME (registered with `mtworkbench models add NAME DIR`) or "
                          "model=DIR")
    models = load_registry()
    if value in models and not looks_like_path(value):
        m = models[value]
        path = Path(m.path)
        files = checkpoint_files(path, m.kind) if path.is_dir() else []
        if not files or not all(f.is_file() for f in files):
            raise MetricError(f"{metric}: model {value!r} is registered at {m.path}, but its files are not there "
                              f"now; run `mtworkbench models add {value} DIR` with the checkpoint's folder")
        sha = m.sha256 if _stamps(files) == m.stamps else fingerprint(files)
        _check_sha(metric, value, sha, expected_sha)
        return ResolvedModel(value, m.kind, path, sha, True)
    path = Path(value).expanduser()
    if allow_path and path.is_dir():
        kind = detect_kind(path)
        sha = fingerprint(checkpoint_files(path, kind))
        _check_sha(metric, value, sha, expected_sha)
        return ResolvedModel(path.resolve().name, kind, path, sha, False)
    if looks_like_path(value):
        raise MetricError(f"{metric}: {value} is not a folder; give a checkpoint's folder or a registered name")
    wanted = f" (content sha256:{expected_sha})" if expected_sha else ""
    raise MetricError(f"{metric}: model {value!r}{wanted} is not registered on this machine{_known(models)}. Copy the "
                      f"checkpoint here (e.g. `huggingface-cli download Unbabel/{value}` on a connected machine), then "
                      f"run `mtworkbench models add {value} DIR`")


def _check_sha(metric: str, name: str, sha: str, expected: str) -> None:
    if expected and not sha.startswith(expected.lower()):
        raise MetricError(f"{metric}: model {name!r} here has content sha256:{sha[:16]}, the spec asks for "
                          f"sha256:{expected}; register the checkpoint the project was scored with")
