"""``score``, ``correlate``, ``analyze`` and ``models`` with neural metrics (small fixture checkpoints)."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import save_bundle
from tests.metrics.neural.fixtures import ROOT, columns, copy_model, expected


@pytest.fixture(autouse=True)
def own_registry(tmp_path, monkeypatch):
    monkeypatch.setenv("MTWB_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MTWB_CACHE_DIR", str(tmp_path / "cache"))


def write_files(tmp_path, pair):
    src, mt, ref = columns(pair)
    paths = {}
    for name, lines in (("src", src), ("hyp", mt), ("ref", ref)):
        paths[name] = tmp_path / f"{pair}.{name}"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def run(capsys, argv):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("model,pair", [("comet-regression", "zh-en"), ("comet-xcomet", "en-zh"),
                                        ("comet-unified-spans", "zh-en")])
def test_score_json_matches_the_reference(tmp_path, capsys, model, pair):
    files = write_files(tmp_path, pair)
    case = next(c for c in expected(model)["cases"] if c["pair"] == pair and c["src"] and c["ref"])
    code, out, err = run(capsys, ["score", "--src", str(files["src"]), "--hyp", str(files["hyp"]), "--ref",
                                  str(files["ref"]), "--metric", f"comet:model={ROOT / model}", "--json"])
    assert code == 0, err
    entry = json.loads(out)["scores"][0]
    assert entry["segments"] == pytest.approx(case["scores"], abs=1e-5)
    assert entry["corpus"] == pytest.approx(case["system_score"], abs=1e-5)
    assert "sha256:" in entry["signature"] and str(ROOT) not in entry["signature"]
    if "error_spans" in case:
        key = next(k for k in entry if "span" in k)
        assert [[(s["start"], s["end"], s["severity"]) for s in seg] for seg in entry[key]] == \
            [[(s["start"], s["end"], s["severity"]) for s in seg] for seg in case["error_spans"]]


def test_reference_free_needs_no_ref(tmp_path, capsys):
    files = write_files(tmp_path, "ar-en")
    case = next(c for c in expected("comet-referenceless")["cases"] if c["pair"] == "ar-en")
    code, out, err = run(capsys, ["score", "--src", str(files["src"]), "--hyp", str(files["hyp"]), "--metric",
                                  f"comet:model={ROOT / 'comet-referenceless'}", "--json"])
    assert code == 0, err
    entry = json.loads(out)["scores"][0]
    assert entry["segments"] == pytest.approx(case["scores"], abs=1e-5)
    assert "nrefs:0" in entry["signature"]


def test_xcomet_without_reference_matches(tmp_path, capsys):
    files = write_files(tmp_path, "de-en")
    case = next(c for c in expected("comet-xcomet")["cases"] if c["pair"] == "de-en" and c["src"] and not c["ref"])
    code, out, err = run(capsys, ["score", "--src", str(files["src"]), "--hyp", str(files["hyp"]), "--metric",
                                  f"comet:model={ROOT / 'comet-xcomet'}", "--json"])
    assert code == 0, err
    assert json.loads(out)["scores"][0]["segments"] == pytest.approx(case["scores"], abs=1e-5)


def test_reference_based_metrics_still_need_ref(tmp_path, capsys):
    files = write_files(tmp_path, "zh-en")
    code, _, err = run(capsys, ["score", "--src", str(files["src"]), "--hyp", str(files["hyp"]), "--metric", "bleu"])
    assert code == 2 and "--ref" in err
    code, _, err = run(capsys, ["score", "--src", str(files["src"]), "--hyp", str(files["hyp"]), "--metric",
                                f"comet:model={ROOT / 'comet-regression'}"])
    assert code == 1 and "give --ref" in err


def test_models_add_list_remove_and_unknown_name(tmp_path, capsys):
    code, out, err = run(capsys, ["models", "add", "tiny-da", str(ROOT / "comet-regression")])
    assert code == 0, err
    assert "comet:model=tiny-da" in out
    code, out, _ = run(capsys, ["models", "list"])
    assert "tiny-da" in out and "comet" in out
    files = write_files(tmp_path, "en-ru")
    code, out, err = run(capsys, ["score", "--src", str(files["src"]), "--hyp", str(files["hyp"]), "--ref",
                                  str(files["ref"]), "--metric", "comet:model=tiny-da", "--json"])
    assert code == 0, err
    assert "model:tiny-da" in json.loads(out)["scores"][0]["signature"]
    code, out, err = run(capsys, ["score", "--src", str(files["src"]), "--hyp", str(files["hyp"]), "--ref",
                                  str(files["ref"]), "--metric", "comet:model=tiny-da,sha256=00ff"])
    assert code == 1 and "sha256:00ff" in err
    code, _, _ = run(capsys, ["models", "remove", "tiny-da"])
    assert code == 0
    code, _, err = run(capsys, ["score", "--src", str(files["src"]), "--hyp", str(files["hyp"]), "--ref",
                                str(files["ref"]), "--metric", "comet:model=tiny-da"])
    assert code == 1 and "'tiny-da'" in err and "models add tiny-da" in err


def make_bundle(path):
    src, mt, ref = columns("zh-en")
    segs = [Segment(f"s{i}", text) for i, text in enumerate(src)]
    other = [t.upper() for t in mt]
    project = Project(
        documents=[Document("d1", [Paragraph("p1", segs)])],
        references=[Reference("r1", texts={s.id: r for s, r in zip(segs, ref)})],
        systems=[System("A", texts={s.id: t for s, t in zip(segs, mt)}),
                 System("B", texts={s.id: t for s, t in zip(segs, other)})],
    )
    project.add_judge("rater")
    for system in ("A", "B"):
        for k, seg in enumerate(segs):
            project.add_judgment(Judgment(project.new_id("j"), "rater", system, seg.id, score=float(k + len(system)),
                                          scale="da-z"))
    save_bundle(project, path)
    return path


def test_bundle_score_correlate_analyze_by_registered_name(tmp_path, capsys):
    folder = copy_model("comet-xcomet", tmp_path, "xc")
    assert run(capsys, ["models", "add", "tiny-xcomet", str(folder)])[0] == 0
    bundle = make_bundle(tmp_path / "p.mtwb.json")
    code, out, err = run(capsys, ["score", str(bundle), "--metric", "comet:model=tiny-xcomet", "--json"])
    assert code == 0, err
    scores = json.loads(out)["scores"]
    src, mt, ref = columns("zh-en")
    case = next(c for c in expected("comet-xcomet")["cases"] if c["pair"] == "zh-en" and c["src"] and c["ref"])
    assert [s["system"] for s in scores] == ["A", "B"]
    assert scores[0]["segments"] == pytest.approx(case["scores"], abs=1e-5)
    assert len(scores[0]["error_spans"]) == len(mt)
    code, out, err = run(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "comet:model=tiny-xcomet",
                                  "--json"])
    assert code == 0, err
    assert json.loads(out)["results"][0]["n"] == 2 * len(mt)
    code, out, err = run(capsys, ["analyze", str(bundle), "--system", "A", "--system", "B", "--metric", "comet:model=tiny-xcomet", "--json"])
    assert code == 0, err
    # a folder in a project's spec is refused: a bundle names models, never paths
    code, _, err = run(capsys, ["score", str(bundle), "--metric", f"comet:model={folder}"])
    assert code == 1 and "models add" in err
