"""``mtworkbench agreement`` on a bundle and on a judgments file."""

from __future__ import annotations

import json

import pytest

from mtworkbench.cli import main
from mtworkbench.core.model import Document, Judgment, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.judgments.judgments import COLUMNS

ANN = [1, 2, 3, 4, 5]
BOB = [2, 1, 4, 3, 5]


def rows() -> list[tuple[str, str, str, int, int]]:
    out = [("ann", "A", str(i), a, a) for i, a in enumerate(ANN, 1)]
    out += [("bob", "A", str(i), b, 6 - b) for i, b in enumerate(BOB, 1)]
    out.append(("ann", "A", "1", 2, 1))  # ann's repeat of item 1
    return out


@pytest.fixture
def bundle(tmp_path):
    from mtworkbench.io.bundle.bundle import save_bundle

    seg_ids = [str(i) for i in range(1, 6)]
    project = Project(
        documents=[Document("d", [Paragraph("p", [Segment(s, f"src {s}") for s in seg_ids])])],
        references=[Reference("r1", texts={s: f"ref {s}" for s in seg_ids})],
        systems=[System("A", texts={s: f"hyp {s}" for s in seg_ids})],
    )
    project.add_judge("ann")
    project.add_judge("bob")
    for k, (judge, system, seg, a, f) in enumerate(rows()):
        project.add_judgment(Judgment(f"j{k}", judge, system, seg, "r1", adequacy=a, fluency=f))
    path = tmp_path / "p.mtwb.json"
    save_bundle(project, path)
    return path


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "j.csv"
    lines = [",".join(COLUMNS)] + [f"{j},{s},{g},r1,{a},{f},1," for j, s, g, a, f in rows()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def check_report(data: dict) -> None:
    assert data["judges"] == ["ann", "bob"]
    [pair] = data["pairs"]
    assert pair["judges"] == ["ann", "bob"] and pair["n"] == 5
    # Hand-derived (see tests/analysis/test_agreement.py): r = rho = kappa_q = 0.8 for adequacy,
    # -0.8 for fluency (bob's fluency reverses his adequacy).
    assert pair["adequacy"]["spearman"] == pytest.approx(0.8)
    assert pair["adequacy"]["pearson"] == pytest.approx(0.8)
    assert pair["adequacy"]["kappa_quadratic"] == pytest.approx(0.8)
    assert pair["fluency"]["spearman"] == pytest.approx(-0.8)
    assert data["intra"]["ann"]["n"] == 1
    assert data["intra"]["ann"]["adequacy"]["exact"] == 0.0
    assert data["intra"]["ann"]["adequacy"]["mean_abs_diff"] == 1.0


def test_agreement_json_from_bundle(bundle, capsys):
    assert main(["agreement", str(bundle), "--json"]) == 0
    check_report(json.loads(capsys.readouterr().out))


def test_agreement_json_from_csv(csv_file, capsys):
    assert main(["agreement", "--judgments", str(csv_file), "--json"]) == 0
    check_report(json.loads(capsys.readouterr().out))


def test_agreement_text_table(bundle, capsys):
    assert main(["agreement", str(bundle)]) == 0
    out = capsys.readouterr().out
    assert "11 judgments by 2 judges: ann, bob" in out
    assert "adequacy" in out and "0.800" in out and "-0.800" in out


def test_usage_and_data_errors(bundle, csv_file, tmp_path, capsys):
    assert main(["agreement"]) == 2
    assert main(["agreement", str(bundle), "--judgments", str(csv_file)]) == 2
    bad = tmp_path / "bad.csv"
    bad.write_text(",".join(COLUMNS) + "\nann,A,1,r1,7,1,1,\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["agreement", "--judgments", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.csv:2, column 'adequacy'" in err and "Traceback" not in err
    assert main(["agreement", "--judgments", str(tmp_path / "missing.csv")]) == 1
