"""``mtworkbench compare``: files and bundle forms, sacrebleu's p-values, errors."""

from __future__ import annotations

import json
import random

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import save_bundle

WORDS = "the a cat dog sat on mat ran away quickly home big small red".split()


def _corpus(seed: int, n: int = 80) -> tuple[list[str], dict[str, list[str]]]:
    rng = random.Random(seed)
    ref = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) for _ in range(n)]

    def noisy(p: float) -> list[str]:
        out = []
        for line in ref:
            out.append(" ".join(w if rng.random() > p else rng.choice(WORDS) for w in line.split()))
        return out

    return ref, {"base": noisy(0.3), "good": noisy(0.2), "bad": noisy(0.45)}


def _write(tmp_path, ref, systems):
    ref_path = tmp_path / "ref.txt"
    ref_path.write_text("".join(f"{x}\n" for x in ref), encoding="utf-8")
    args = ["--ref", str(ref_path)]
    for name, lines in systems.items():
        path = tmp_path / f"{name}.txt"
        path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
        args += ["--system", f"{name}={path}"]
    return args


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def _sacrebleu_seed(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")


@pytest.mark.parametrize("method", ["paired-bs", "paired-ar"])
def test_json_matches_sacrebleu(tmp_path, capsys, method) -> None:
    ref, systems = _corpus(1)
    argv = ["compare", *_write(tmp_path, ref, systems), "--metric", "bleu", "--method", method,
            "--n", "500", "--json"]
    code, out, err = _run(capsys, argv)
    assert code == 0, err
    result = json.loads(out)
    assert (result["baseline"], result["metric"], result["method"]) == ("base", "bleu", method)
    assert (result["n"], result["seed"]) == (500, 12345)
    assert [s["system"] for s in result["systems"]] == ["base", "good", "bad"]
    _, expected = PairedTest(
        list(systems.items()), {"BLEU": sacrebleu.BLEU(references=[ref])}, None,
        test_type=method[-2:], n_samples=500,
    )()
    rows = next(v for k, v in expected.items() if k != "System")
    for mine, theirs in zip(result["systems"], rows):
        assert mine["p_value"] == theirs.p_value
        assert mine["score"] == pytest.approx(theirs.score, abs=1e-9)
        if theirs.mean is None:
            assert mine["mean"] is None and mine["ci"] is None
        else:
            assert mine["mean"] == pytest.approx(theirs.mean, abs=1e-4)
    assert result["systems"][0]["p_value"] is None


def test_baseline_option_and_table(tmp_path, capsys) -> None:
    ref, systems = _corpus(2)
    argv = ["compare", *_write(tmp_path, ref, systems), "--baseline", "good", "--metric", "chrf",
            "--n", "200"]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["system", "score", "mean", "(+/-", "ci)", "p-value"]
    assert lines[1].startswith("Baseline: good")
    assert "chrf|nrefs:1" in out and "seed:12345|bs:200" in out


def test_bundle_form_equals_file_form(tmp_path, capsys) -> None:
    ref, systems = _corpus(3, n=30)
    segments = [Segment(f"s{i}", f"source {i}") for i in range(len(ref))]
    project = Project([Document("d1", [Paragraph("p1", segments)])], name="cmp")
    project.add_reference(Reference("r1", "A", {f"s{i}": x for i, x in enumerate(ref)}))
    for name, lines in systems.items():
        project.add_system(System(name, "machine", {f"s{i}": x for i, x in enumerate(lines)}))
    bundle = tmp_path / "p.mtwb.json"
    save_bundle(project, bundle)
    common = ["--metric", "bleu", "--n", "300", "--json"]
    code, out, err = _run(capsys, ["compare", str(bundle), "--system", "good", "--system", "bad", *common])
    assert code == 0, err
    from_bundle = json.loads(out)
    code, out, err = _run(capsys, ["compare", *_write(tmp_path, ref, {k: systems[k] for k in ("good", "bad")}), *common])
    assert code == 0, err
    assert json.loads(out)["systems"] == from_bundle["systems"]
    code, _, err = _run(capsys, ["compare", str(bundle), "--system", "nope", "--system", "bad"])
    assert code == 1 and "no system 'nope'" in err


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--baseline", "zzz"], "--baseline"),
        (["--metric", "nosuch"], "unknown metric"),
        (["--metric", "bleu:max_order=0"], "max_order"),
        (["--metric", "bleu:colour=red"], "unknown option"),
        (["--n", "0"], "--n"),
        (["--method", "t-test"], ""),
    ],
)
def test_usage_errors_exit_2(tmp_path, capsys, extra, words) -> None:
    ref, systems = _corpus(4, n=10)
    code, _, err = _run(capsys, ["compare", *_write(tmp_path, ref, systems), *extra])
    assert code == 2 and words in err
    assert "Traceback" not in err


def test_malformed_system_and_single_system(tmp_path, capsys) -> None:
    ref, systems = _corpus(5, n=10)
    args = _write(tmp_path, ref, {"a": systems["base"]})
    code, _, err = _run(capsys, ["compare", *args])
    assert code == 2 and "at least two systems" in err
    code, _, err = _run(capsys, ["compare", *args, "--system", "justafile.txt"])
    assert code == 2 and "ID=FILE" in err


def test_mismatched_line_counts_and_empty_files(tmp_path, capsys) -> None:
    ref, systems = _corpus(6, n=10)
    systems["bad"] = systems["bad"][:7]
    code, _, err = _run(capsys, ["compare", *_write(tmp_path, ref, systems)])
    assert code == 1 and "line counts differ" in err and "7 lines" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = _run(capsys, ["compare", *_write(empty, [], {"a": [], "b": []})])
    assert code == 1 and "no segments" in err


def test_empty_lines_and_missing_reference_segment(tmp_path, capsys) -> None:
    ref, systems = _corpus(7, n=20)
    ref[3] = ""
    systems["base"][4] = "   "
    code, out, err = _run(capsys, ["compare", *_write(tmp_path, ref, systems), "--json", "--n", "100"])
    assert code == 0, err
    # NIST cannot score a segment whose references are all empty: a clear error
    code, _, err = _run(capsys, ["compare", *_write(tmp_path, ref, systems), "--metric", "nist"])
    assert code == 1 and "segment 4" in err and "Traceback" not in err
