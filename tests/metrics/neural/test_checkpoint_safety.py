"""A checkpoint is data: a pickle that would call code and an hparams.yaml that would
build a Python object are refused with a short message, and nothing of them runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.checkpoint import load_weights, read_hparams
from tests.metrics.neural.fixtures import copy_model


class Planted:
    """Unpickling this calls os.system: what a hostile checkpoint would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _copy(tmp_path: Path) -> Path:
    return copy_model("comet-regression", tmp_path, "ckpt")


def test_pickle_that_runs_code_is_refused(tmp_path):
    import torch

    marker = tmp_path / "ran"
    folder = _copy(tmp_path)
    torch.save({"state_dict": {}, "hyper_parameters": {}, "payload": Planted(marker)},
               folder / "checkpoints" / "model.ckpt")
    with pytest.raises(MetricError) as err:
        load_weights(folder / "checkpoints" / "model.ckpt")
    assert "refused" in str(err.value) and "nothing of it was run" in str(err.value)
    assert len(str(err.value).splitlines()) <= 3
    assert not marker.exists()


def test_yaml_that_builds_an_object_is_refused(tmp_path):
    marker = tmp_path / "ran"
    folder = _copy(tmp_path)
    text = (folder / "hparams.yaml").read_text(encoding="utf-8")
    (folder / "hparams.yaml").write_text(text + f"evil: !!python/object/apply:os.system ['touch {marker}']\n",
                                         encoding="utf-8")
    with pytest.raises(MetricError) as err:
        read_hparams(folder / "hparams.yaml")
    assert "refused" in str(err.value) and "line" in str(err.value)
    assert not marker.exists()


@pytest.mark.parametrize("plant", ["pickle", "yaml"])
def test_cli_refuses_in_a_few_lines(tmp_path, plant):
    import torch

    marker = tmp_path / "ran"
    folder = _copy(tmp_path)
    if plant == "pickle":
        torch.save({"state_dict": {}, "payload": Planted(marker)}, folder / "checkpoints" / "model.ckpt")
    else:
        with open(folder / "hparams.yaml", "a", encoding="utf-8") as f:
            f.write(f"x: !!python/object/new:os.system ['touch {marker}']\n")
    (tmp_path / "h.txt").write_text("Hello world.\n", encoding="utf-8")
    (tmp_path / "s.txt").write_text("你好，世界。\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("Hello, world.\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "mtworkbench", "score", "--src", str(tmp_path / "s.txt"),
                          "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"),
                          "--metric", f"comet:model={folder}", "--json"], capture_output=True, text=True,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert out.returncode == 1
    assert "refused" in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) <= 3
    assert out.stdout == ""
    assert not marker.exists()


def test_missing_encoder_files_say_what_to_fetch(tmp_path):
    from mtworkbench.metrics.neural.comet_predict import CometModel

    folder = _copy(tmp_path)
    shutil.rmtree(tmp_path / "encoder")
    with pytest.raises(MetricError) as err:
        CometModel(folder, device="cpu")
    text = str(err.value)
    assert "huggingface-cli download ../encoder" in text and "encoder=DIR" in text


def test_missing_checkpoint_file_is_named(tmp_path):
    from mtworkbench.metrics.neural.comet_predict import CometModel

    folder = _copy(tmp_path)
    (folder / "checkpoints" / "model.ckpt").unlink()
    with pytest.raises(MetricError, match=r"model\.ckpt is missing"):
        CometModel(folder, device="cpu")
