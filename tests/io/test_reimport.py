"""Importing a file already imported adds nothing and says so: judgments are compared
as records (judge, item, ratings, errors, comment, time), not by file name; a judge's
other rating of the same item, from another file or session, is a real repeat and
is added."""

from __future__ import annotations

import shutil

from mtworkbench.cli import main
from mtworkbench.core.model import Judgment
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.io.judgments.judgments import apply_import, plan_table_file
from mtworkbench.io.judgments.judgments_export import judgments_table
from tests.safety.helpers import project

JUDGES = ("ana", "李")


def _ldc_project(n_segments: int = 40):
    p = project(n_segments, n_systems=2)
    for j in list(p.judgments):
        p.remove_judgment(j.id)
    return p


def _ldc_file(tmp_path, p, name="ldc.csv", tweak=None):
    judgments = []
    for judge in JUDGES:
        for system in ("sys0", "sys1"):
            for k, seg in enumerate(p.segment_ids):
                adequacy = 1 + (k % 5)
                if tweak and (judge, system, seg) == tweak:
                    adequacy = 1 + (adequacy % 5)
                judgments.append(Judgment(f"x{len(judgments)}", judge, system, seg, "r1", adequacy=adequacy,
                                          fluency=1 + ((k + 2) % 5), seconds=3.5, comment=f"Kommentar {k} — ok"))
    path = tmp_path / name
    path.write_text(judgments_table(judgments), encoding="utf-8")
    return path


def test_the_same_csv_imported_twice_adds_nothing_the_second_time(tmp_path, capsys):
    p = _ldc_project()
    bundle = tmp_path / "p.mtwb.json"
    save_bundle(p, bundle)
    csv = _ldc_file(tmp_path, p)
    assert main(["judgments", "import", str(bundle), str(csv)]) == 0
    assert "imported 160 judgments" in capsys.readouterr().out
    copy = tmp_path / "renamed.csv"  # the content counts, not the name
    shutil.copyfile(csv, copy)
    assert main(["judgments", "import", str(bundle), str(copy)]) == 0
    out = capsys.readouterr().out
    assert "nothing imported" in out and "160" in out
    assert len(load_bundle(bundle).judgments) == 160


def test_a_real_repeat_in_another_file_is_added(tmp_path, capsys):
    p = _ldc_project()
    plan = plan_table_file(p, _ldc_file(tmp_path, p))
    apply_import(p, plan)
    seg = p.segment_ids[7]
    again = plan_table_file(p, _ldc_file(tmp_path, p, "second.csv", tweak=("李", "sys1", seg)))
    apply_import(p, again)
    assert len(again.judgments) == 1 and again.already_present == 159
    assert "imported 1 judgments; 159 already in the project" in again.summary()
    mine = [j for j in p.judgments if (j.judge, j.system, j.segment) == ("李", "sys1", seg)]
    assert len(mine) == 2 and mine[0].adequacy != mine[1].adequacy


def test_equal_rows_within_one_file_are_kept_and_not_doubled_on_reimport(tmp_path):
    p = _ldc_project(3)
    rows = judgments_table([Judgment("a", "ana", "sys0", "s1", "r1", adequacy=4, fluency=4)] * 2)
    path = tmp_path / "twice.csv"
    path.write_text(rows, encoding="utf-8")
    apply_import(p, plan_table_file(p, path))
    assert len(p.judgments) == 2  # the file says so twice: both kept
    plan = plan_table_file(p, path)
    apply_import(p, plan)
    assert len(p.judgments) == 2 and plan.already_present == 2


MQM = (
    "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment\n"
    "sysA\td1\t1\t1\trater1\tDas Haus ist rot.\tThe <v>hose</v> is red.\tAccuracy/Mistranslation\tMajor\t\n"
    "sysA\td1\t1\t1\trater1\tDas Haus ist rot.\tThe hose is <v>red</v>.\tFluency/Grammar\tMinor\t\n"
    "sysA\td1\t2\t2\trater1\tМы пришли.\tWe came.\tNo-error\tNo-error\t\n"
    "sysA\td1\t1\t1\trater2\tDas Haus ist rot.\tThe hose is red.\tNo-error\tNo-error\t\n"
)


def test_an_mqm_file_imported_again_adds_nothing(tmp_path, capsys):
    tsv = tmp_path / "mqm.tsv"
    tsv.write_text(MQM, encoding="utf-8")
    bundle = tmp_path / "p.mtwb.json"
    assert main(["import", "--format", "mqm", "--source", str(tsv), "-o", str(bundle)]) == 0
    assert len(load_bundle(bundle).judgments) == 3
    capsys.readouterr()
    assert main(["judgments", "import", "--format", "mqm", str(bundle), str(tsv)]) == 0
    assert "nothing imported" in capsys.readouterr().out
    assert len(load_bundle(bundle).judgments) == 3
