"""External metric scores: import, storage with provenance, and use as metric ext:NAME."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from scipy import stats as sstats

from mtworkbench.cli import main
from mtworkbench.core.model import (
    Document,
    Judgment,
    Paragraph,
    Project,
    Reference,
    Segment,
    System,
)
from mtworkbench.io.bundle.bundle import dumps, load_bundle, save_bundle

SYSTEMS = ["A", "B", "C", "D"]
# Human scores (da) per system and segment; None = not rated.
HUMAN = {
    "A": [0.1, 0.5, -0.2, 0.9, 0.3],
    "B": [0.4, None, 0.0, 0.2, -0.5],
    "C": [-0.3, 0.8, 0.6, 0.1, 0.0],
    "D": [0.2, 0.1, -0.4, -0.6, 0.7],
}
# "COMET" segment scores computed elsewhere.
EXT = {
    "A": [0.71, 0.80, 0.42, 0.93, 0.66],
    "B": [0.75, 0.55, 0.50, 0.61, 0.30],
    "C": [0.40, 0.85, 0.77, 0.58, 0.52],
    "D": [0.62, 0.49, 0.35, 0.20, 0.81],
}


def make_project(path):
    segs = [Segment(f"s{i}", f"src {i}") for i in range(1, 6)]
    project = Project(
        documents=[Document("d1", [Paragraph("p1", segs)])],
        references=[Reference("r1", texts={s.id: "a b c d" for s in segs})],
        systems=[System(k, texts={s.id: f"a b {k}" for s in segs}) for k in SYSTEMS],
    )
    project.add_judge("da")
    for system, values in HUMAN.items():
        for seg, v in zip(segs, values):
            if v is not None:
                project.add_judgment(Judgment(project.new_id("j"), "da", system, seg.id, score=v, scale="da-z"))
    save_bundle(project, path)
    return path


def run(capsys, argv, code=0):
    got = main(argv)
    out = capsys.readouterr()
    assert got == code, out.err
    return out


def import_lines(tmp_path, capsys, bundle, name="COMET", values=EXT, extra=()):
    for system, scores in values.items():
        f = tmp_path / f"{name}.{system}.txt"
        f.write_text("".join(f"{v}\n" for v in scores), encoding="utf-8")
        run(capsys, ["metrics", "import-scores", str(bundle), "--metric", name, "--system", system, str(f), *extra])


def test_import_lines_stores_scores_with_provenance(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    before = load_bundle(bundle)
    assert "external_scores" not in json.loads(dumps(before))  # optional key: absent when empty
    import_lines(tmp_path, capsys, bundle)
    project = load_bundle(bundle)
    rec = project.external_scores["COMET"]
    assert rec["higher_is_better"] is True
    assert rec["systems"]["B"]["segments"] == dict(zip(project.segment_ids, EXT["B"]))
    prov = rec["provenance"][1]
    data = (tmp_path / "COMET.B.txt").read_bytes()
    assert prov["file"] == "COMET.B.txt" and prov["systems"] == ["B"]
    assert prov["sha256"] == hashlib.sha256(data).hexdigest()
    assert prov["date"].endswith("Z")
    out = run(capsys, ["metrics", "list", str(bundle)]).out
    assert "ext:COMET" in out and "COMET.B.txt" in out


def test_correlate_reads_external_scores_like_any_metric(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, bundle)
    out = json.loads(run(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET",
                                  "--json"]).out)
    (res,) = out["results"]
    # Segment level pools the 19 rated items (B's segment 2 is unrated).
    m = [v for s in SYSTEMS for v, h in zip(EXT[s], HUMAN[s]) if h is not None]
    h = [v for s in SYSTEMS for v in HUMAN[s] if v is not None]
    assert res["metric"] == "ext:COMET" and res["n"] == 19
    assert res["r"] == pytest.approx(sstats.pearsonr(m, h).statistic, abs=1e-12)
    out = json.loads(run(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET",
                                  "--level", "system", "--method", "kendall", "--json"]).out)
    sys_m = [np.mean(EXT[s]) for s in SYSTEMS]
    sys_h = [np.mean([v for v in HUMAN[s] if v is not None]) for s in SYSTEMS]
    assert out["results"][0]["r"] == pytest.approx(sstats.kendalltau(sys_m, sys_h).statistic, abs=1e-12)


def _agreement(h, m):
    pairs = [(i, j) for i in range(len(h)) for j in range(i + 1, len(h))]
    return sum(np.sign(h[i] - h[j]) == np.sign(m[i] - m[j]) for i, j in pairs) / len(pairs)


def test_pairwise_accuracy_of_external_scores(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, bundle)
    out = json.loads(run(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET",
                                  "--stat", "pairwise-accuracy", "--json"]).out)
    (res,) = out["results"]
    # System means: metric A .704 B .542 C .624 D .494; human A .32 B .025 C .24 D .0:
    # both order A > C > B > D, so all 6 pairs agree.
    sys_m = [np.mean(EXT[s]) for s in SYSTEMS]
    sys_h = [np.mean([v for v in HUMAN[s] if v is not None]) for s in SYSTEMS]
    assert res["level"] == "system" and res["stat"] == "pairwise-accuracy" and res["n"] == 6
    assert res["value"] == res["r"] == pytest.approx(_agreement(sys_h, sys_m)) == 1.0
    # Declared lower-is-better, the same scores order every pair the other way.
    rev = make_project(tmp_path / "rev.mtwb.json")
    import_lines(tmp_path, capsys, rev, extra=("--higher-is-better", "no"))
    out = json.loads(run(capsys, ["correlate", str(rev), "--human", "da", "--metric", "ext:COMET",
                                  "--stat", "pairwise-accuracy", "--json"]).out)
    assert out["results"][0]["value"] == 0.0


def test_mt_metrics_eval_files_and_system_level_scores(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    seg = tmp_path / "COMET-22-refA.seg.score"
    # Blocks per system; "refB" is not in the project and is skipped.
    seg.write_text("".join(f"{s}\t{v}\n" for s in SYSTEMS + ["refB"] for v in EXT.get(s, EXT["A"])),
                   encoding="utf-8")
    sysf = tmp_path / "COMET-22-refA.sys.score"
    sysf.write_text("A\t0.5\nB\t0.9\n", encoding="utf-8")
    out = run(capsys, ["metrics", "import-scores", str(bundle), "--format", "mt-metrics-eval", str(seg), str(sysf)])
    assert "skipped (not in the bundle): refB" in out.out
    scored = json.loads(run(capsys, ["score", str(bundle), "--metric", "ext:COMET-22-refA", "--json"]).out)
    by_system = {s["system"]: s for s in scored["scores"]}
    assert by_system["A"]["corpus"] == 0.5 and by_system["B"]["corpus"] == 0.9  # the .sys.score values
    assert by_system["C"]["corpus"] == pytest.approx(np.mean(EXT["C"]))  # no system score: the mean
    assert by_system["D"]["segments"] == pytest.approx(EXT["D"])
    assert "COMET-22-refA.seg.score" in by_system["A"]["signature"]


def test_bad_inputs_are_one_line_errors(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    short = tmp_path / "short.txt"
    short.write_text("0.1\n0.2\n", encoding="utf-8")
    err = run(capsys, ["metrics", "import-scores", str(bundle), "--metric", "X", "--system", "A", str(short)], 1).err
    assert "short.txt" in err and "2 scores" in err and "5 segments" in err and "Traceback" not in err
    bad = tmp_path / "bad.txt"
    bad.write_text("0.1\n0.2\nabc\n0.4\n0.5\n", encoding="utf-8")
    err = run(capsys, ["metrics", "import-scores", str(bundle), "--metric", "X", "--system", "A", str(bad)], 1).err
    assert "bad.txt:3" in err and "'abc'" in err
    err = run(capsys, ["metrics", "import-scores", str(bundle), "--metric", "X", "--system", "Z", str(bad)], 1).err
    assert "no system 'Z'" in err
    err = run(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:NOPE"], 2).err
    assert "unknown external metric 'ext:NOPE'" in err
    assert run(capsys, ["metrics", "import-scores", str(bundle), str(bad)], 2).err  # no --metric/--system
    # A broken stored value names its JSON path.
    data = json.loads(bundle.read_text(encoding="utf-8"))
    data["external_scores"] = {"X": {"systems": {"A": {"segments": {"s1": "high"}}}}}
    bundle.write_text(json.dumps(data), encoding="utf-8")
    err = run(capsys, ["validate", str(bundle)], 1).err
    assert "$.external_scores.X.systems.A.segments.s1" in err


def test_reliability_accepts_external_metric(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, bundle)
    out = json.loads(run(capsys, ["reliability", str(bundle), "--human", "da", "--metric", "ext:COMET",
                                  "--json"]).out)
    assert [c["label"] for c in out["curves"]] == ["ext:COMET"]


def test_a_removed_system_is_not_saved_with_its_scores(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, bundle)
    project = load_bundle(bundle)
    removal = project.remove_system("B")
    save_bundle(project, bundle)
    reloaded = load_bundle(bundle)  # loads: no score names a missing system
    assert set(reloaded.external_scores["COMET"]["systems"]) == {"A", "C", "D"}
    project.restore_system(removal)  # undo brings the scores back with the system
    assert "B" in json.loads(dumps(project))["external_scores"]["COMET"]["systems"]


def test_a_system_without_imported_scores_is_left_out(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, bundle, values={s: EXT[s] for s in ("A", "B", "C")})
    out = json.loads(run(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET",
                                  "--json"]).out)
    # D has human scores but no metric scores: its 5 items drop out of the 19 rated.
    assert out["results"][0]["n"] == 14
    scored = json.loads(run(capsys, ["score", str(bundle), "--metric", "ext:COMET", "--json"]).out)
    by_system = {s["system"]: s for s in scored["scores"]}
    assert by_system["D"]["corpus"] is None and by_system["D"]["segments"] == [None] * 5


def test_a_bare_imported_name_means_the_external_metric(tmp_path, capsys):
    bundle = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, bundle)
    with_prefix = json.loads(run(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "ext:COMET",
                                          "--json"]).out)["results"][0]
    bare = json.loads(run(capsys, ["correlate", str(bundle), "--human", "da", "--metric", "COMET",
                                   "--json"]).out)["results"][0]
    assert bare["metric"] == "COMET" and bare["r"] == with_prefix["r"] and bare["n"] == 19
    # A built-in metric keeps its name even if scores were imported under it.
    import_lines(tmp_path, capsys, bundle, name="chrf")
    out = json.loads(run(capsys, ["score", str(bundle), "--metric", "chrf", "--system", "A", "--json"]).out)
    assert out["scores"][0]["metric"] == "chrf" and "imported" not in out["scores"][0]["signature"]


def test_reimported_scores_are_not_served_from_the_persisted_store(tmp_path, capsys):
    # score BUNDLE persists its scores beside the bundle; importing other numbers under the
    # same metric name must change what the next run prints, not reuse the stored scores.
    bundle = make_project(tmp_path / "p.mtwb.json")
    import_lines(tmp_path, capsys, bundle)

    def corpus_of_a():
        out = json.loads(run(capsys, ["score", str(bundle), "--metric", "ext:COMET", "--system", "A",
                                      "--json"]).out)
        return out["scores"][0]["corpus"]

    assert corpus_of_a() == pytest.approx(np.mean(EXT["A"]), abs=1e-12)
    assert corpus_of_a() == pytest.approx(np.mean(EXT["A"]), abs=1e-12)  # second run: from the store
    changed = {system: [v / 2 for v in scores] for system, scores in EXT.items()}
    import_lines(tmp_path, capsys, bundle, values=changed)
    assert corpus_of_a() == pytest.approx(np.mean(changed["A"]), abs=1e-12)
