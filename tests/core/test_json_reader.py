"""One JSON reader for every stored object: the file, the JSON path and one wording
("expected X, found Y") in every message, whichever reader found the problem."""

from __future__ import annotations

import pytest

from mtworkbench.core.campaign_json import campaign_from_json, campaign_to_json
from mtworkbench.core.campaign_plan import plan_campaign
from mtworkbench.core.errors import BundleError
from mtworkbench.core.json_reader import JsonReader, json_kind
from mtworkbench.core.learned_json import check_learned_model
from mtworkbench.core.mqm_typology import typology_from_json
from mtworkbench.core.queue_state import JudgeQueue
from mtworkbench.metrics.learned import LearnedModel
from tests.core.test_judging import make_project


@pytest.mark.parametrize("value, kind", [(None, "null"), (True, "a boolean"), (3, "an integer"),
                                         (2.5, "a number"), ("x", "a string"), ([], "a list"), ({}, "an object")])
def test_kinds_are_named_in_words(value, kind) -> None:
    assert json_kind(value) == kind


def test_every_check_names_file_path_and_what_was_found() -> None:
    r = JsonReader("项目.mtwb.json")
    with pytest.raises(BundleError, match=r"^项目\.mtwb\.json: \$\.a\[0\]\.b: expected a string, found an integer$"):
        r.str(3, "$.a[0].b")
    with pytest.raises(BundleError, match=r"\$\.x: expected true or false, found null"):
        r.flag(None, "$.x")
    with pytest.raises(BundleError, match=r"\$\.o\.zz: unknown field 'zz'"):
        r.keys({"a": 1, "zz": 2}, "$.o", {"a"})
    with pytest.raises(BundleError, match=r"\$\.o: missing field 'b'"):
        r.keys({"a": 1}, "$.o", {"a", "b"})
    with pytest.raises(BundleError, match=r"\$\.s: expected a share from 0 to 1, found 2"):
        r.share(2, "$.s")
    with pytest.raises(BundleError, match=r"\$\.m: expected one of ldc, da, found 'mqm'"):
        r.choice("mqm", "$.m", ("ldc", "da"))
    assert r.share(1, "$.s") == 1 and isinstance(r.share(1, "$.s"), int)  # kept as written


def test_queue_campaign_typology_and_learned_model_share_the_wording() -> None:
    project = make_project()
    campaign = campaign_to_json(plan_campaign(project, "judge", ["ana", "bo"], overlap=0.5, seed=1))
    campaign["seed"] = "7"
    with pytest.raises(BundleError, match=r"^b\.json: \$\.campaign\.seed: expected an integer, found a string$"):
        campaign_from_json(campaign, project, "b.json")
    with pytest.raises(BundleError, match=r"^b\.json: \$\.q: expected an object, found a list$"):
        JudgeQueue.from_json([], "$.q", "b.json")
    with pytest.raises(BundleError, match=r"\$\.t\.categories: expected a list, found a string"):
        typology_from_json({"categories": "Accuracy"}, "$.t", "b.json")
    with pytest.raises(BundleError, match=r"\$\.learned_model\.gamma: expected a number, found a string"):
        check_learned_model({"kind": "svc-rbf", "version": 1, "features": [], "support_vectors": [],
                             "gamma": "high", "intercept": 0, "feature_mean": [], "feature_scale": [],
                             "dual_coef": []}, "$.learned_model", "b.json")
    with pytest.raises(BundleError, match=r"^model\.json: \$: missing field 'dual_coef'$"):
        LearnedModel.from_json({"kind": "svc-rbf", "version": 1, "features": [], "support_vectors": [],
                                "gamma": 1, "intercept": 0, "feature_mean": [], "feature_scale": []},
                               "model.json")
