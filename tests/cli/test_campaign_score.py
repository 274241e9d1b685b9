"""campaign-score: every pair of an mt-metrics-eval test set scored into its own bundle,
a summary with the meta-evaluation `correlate` gives, and re-runs that compute only
what is missing (an interrupted run keeps the metrics it finished)."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.jobs import Cancelled
from mtworkbench.scoring.campaign import open_pair, score_pair
from tests.cli.mtme_fixture import SYSTEMS, write_mtme

METRIC_ARGS = ["--metric", "bleu", "--metric", "chrf"]


def test_every_pair_is_scored_and_meta_evaluated_like_correlate(tmp_path, capsys):
    mtme = write_mtme(tmp_path / "mtme")
    out = tmp_path / "out"
    assert main(["campaign-score", str(mtme), "-o", str(out), *METRIC_ARGS]) == 0
    capsys.readouterr()
    summary = json.loads((out / "campaign.json").read_text(encoding="utf-8"))
    assert [p["lp"] for p in summary["pairs"]] == ["de-en", "en-ja"]
    for pair in summary["pairs"]:
        assert pair["computed"] == 2 * len(SYSTEMS) and pair["restored"] == 0
        assert pair["scores"]["bleu"]["refA"] is None  # the reference itself is not scored
        assert (out / f"{pair['lp']}.mtwb.json").is_file() and (out / f"{pair['lp']}.scores.tsv").is_file()
    md = (out / "campaign.md").read_text(encoding="utf-8")
    assert "## en-ja" in md and "| mqm | system | spa |" in md
    # the same number `correlate` prints for the pair's bundle
    pair = summary["pairs"][0]
    for level, stat in (("system", "pearson"), ("system", "spa"), ("segment", "kendall")):
        assert main(["correlate", str(out / "de-en.mtwb.json"), "--human", "mqm", "--metric", "chrf",
                     "--level", level, "--stat", stat, "--json"]) == 0
        expected = json.loads(capsys.readouterr().out)["results"][0]["r"]
        got = next(m["value"] for m in pair["meta"]
                   if (m["level"], m["stat"], m["metric"]) == (level, stat, "chrf"))
        assert got == expected


def test_a_rerun_computes_only_what_an_interrupted_run_left(tmp_path, capsys):
    mtme = write_mtme(tmp_path / "mtme")
    out = tmp_path / "out"
    out.mkdir()
    project, bundle = open_pair(mtme, "de-en", out)
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(done / total)

    # stopped (as by Ctrl+C or Cancel) once the second metric has started
    with pytest.raises(Cancelled):
        score_pair(project, bundle, "de-en", ["bleu", "chrf"], progress=progress,
                   cancel=lambda: any(x > 0.5 for x in seen))
    assert main(["campaign-score", str(mtme), "-o", str(out), "--lp", "de-en", *METRIC_ARGS, "--json"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    assert (pair["restored"], pair["computed"]) == (len(SYSTEMS), len(SYSTEMS))  # bleu kept, chrf computed
    assert main(["campaign-score", str(mtme), "-o", str(out), "--lp", "de-en", *METRIC_ARGS, "--json"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    assert (pair["restored"], pair["computed"]) == (2 * len(SYSTEMS), 0)


def test_an_unknown_pair_is_named_with_the_pairs_there_are(tmp_path, capsys):
    mtme = write_mtme(tmp_path / "mtme")
    assert main(["campaign-score", str(mtme), "-o", str(tmp_path / "out"), "--lp", "fr-en"]) == 1
    err = capsys.readouterr().err
    assert "no language pair fr-en" in err and "de-en, en-ja" in err
