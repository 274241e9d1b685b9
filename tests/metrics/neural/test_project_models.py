"""What the app says about checkpoints: a project's models this machine lacks, a folder's kind
and licence, and the checks ``add_model`` (``models add``, the Models dialog) runs first."""

from __future__ import annotations

import pickle
import shutil

import pytest

from mtworkbench.core.scoring_input import MetricError
from mtworkbench.metrics.neural.checkpoint_info import describe, licence_of
from mtworkbench.metrics.neural.models import add_model, load_registry
from mtworkbench.metrics.neural.project_models import missing_models_notice, named_models
from tests.metrics.neural.fixtures import ROOT, copy_model


@pytest.fixture(autouse=True)
def own_registry(tmp_path, monkeypatch):
    monkeypatch.setenv("MTWB_CONFIG_DIR", str(tmp_path / "config"))


def test_named_models_from_specs_and_signatures():
    specs = ["bleu", "comet:model=XCOMET-XL,batch_size=8", "metricx:model=mx24,sha256=ab12", "comet:model=/a/dir"]
    signatures = ["comet|nrefs:1|model:XCOMET-XL|sha256:0123456789abcdef|precision:fp32|version:mtworkbench-1",
                  "chrf|nrefs:1|version:mtworkbench-1"]
    found = {(m.metric, m.name): m.sha256 for m in named_models(specs, signatures)}
    # a folder is never a project's model name; the signature's fingerprint is the longer one seen
    assert found == {("comet", "XCOMET-XL"): "0123456789abcdef", ("metricx", "mx24"): "ab12"}


def test_notice_names_what_this_machine_lacks(tmp_path):
    notice = missing_models_notice(["comet:model=XCOMET-XL", "bleu"])
    assert "comet:model=XCOMET-XL" in notice and "not registered" in notice and "Models" in notice
    entry = add_model("XCOMET-XL", copy_model("comet-xcomet", tmp_path, "xc"))
    assert missing_models_notice(["comet:model=XCOMET-XL"]) == ""
    # the same name with other content (a signature's fingerprint) is said too
    other = "comet|nrefs:1|model:XCOMET-XL|sha256:ffffffffffffffff|version:x"
    notice = missing_models_notice([], [other])
    assert "other content" in notice and entry.sha256[:16] in notice and "ffffffffffffffff" in notice
    assert missing_models_notice([], [f"comet|model:XCOMET-XL|sha256:{entry.sha256[:16]}|version:x"]) == ""


def test_describe_reads_kind_and_licence_from_the_folder():
    assert "xCOMET" in describe(ROOT / "comet-xcomet").detail
    assert "reference-free" in describe(ROOT / "comet-referenceless").detail
    assert "regression" in describe(ROOT / "comet-regression").detail
    assert "MetricX" in describe(ROOT / "metricx").detail
    assert "non-commercial" in licence_of("/m/models--Unbabel--XCOMET-XL/snapshots/abc")
    assert "non-commercial" in licence_of("/m/wmt22-cometkiwi-da")
    assert licence_of("/m/wmt22-comet-da") == "Apache-2.0"
    assert licence_of("/m/my-own-model") == ""


def test_add_refuses_a_checkpoint_holding_code(tmp_path):
    folder = copy_model("comet-regression", tmp_path, "evil")

    class Boom:
        def __reduce__(self):
            return (shutil.rmtree, (str(tmp_path / "victim"),))

    (tmp_path / "victim").mkdir()
    with open(folder / "checkpoints" / "model.ckpt", "wb") as f:
        pickle.dump({"state_dict": {}, "x": Boom()}, f)
    with pytest.raises(MetricError, match="refused: it holds Python objects"):
        add_model("evil", folder)
    assert (tmp_path / "victim").is_dir()  # nothing of it ran
    assert "evil" not in load_registry()


def test_add_names_a_missing_encoder_file_and_how_to_get_it(tmp_path):
    folder = copy_model("comet-regression", tmp_path, "noenc")
    (tmp_path / "encoder" / "config.json").unlink()
    with pytest.raises(MetricError) as caught:
        add_model("noenc", folder)
    text = str(caught.value)
    assert "config.json is missing" in text and "huggingface-cli download" in text
    assert "noenc" not in load_registry()


def test_add_refuses_settings_that_build_objects(tmp_path):
    folder = copy_model("comet-regression", tmp_path, "yaml")
    hp = folder / "hparams.yaml"
    hp.write_text(hp.read_text(encoding="utf-8") + "evil: !!python/object/apply:os.system ['echo hi']\n",
                  encoding="utf-8")
    with pytest.raises(MetricError, match="not plain YAML data"):
        add_model("yaml", folder)
