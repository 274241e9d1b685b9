"""Fuzzing the MQM, mt-metrics-eval and work-package readers, like the bundle's suite:
random input either imports (and then exports and reads back to the same thing) or
is refused with a one-line ``DataError``; any other exception fails. Texts are drawn
from all of Unicode (combining marks, right-to-left text, NUL, lone surrogates
escaped) and from the markers and separators each format gives meaning to."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtworkbench.core.errors import DataError
from mtworkbench.io.bundle.bundle import dumps, loads, save_bundle
from mtworkbench.io.bundle.packages import merge_packages, split_project
from mtworkbench.io.corpora.mt_metrics_eval import import_mt_metrics_eval_dir
from mtworkbench.io.judgments.mqm import import_mqm
from mtworkbench.io.judgments.mqm_export import mqm_table

from .helpers import project
from .test_fuzz import SPECIAL, json_values

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                        HealthCheck.too_slow])


def _refused_cleanly(exc: DataError) -> None:
    message = str(exc)
    assert message and "\n" not in message and "Traceback" not in message


# --- MQM ---------------------------------------------------------------------------------
MQM_PIECES = ["<v>", "</v>", "\t", '"', "\u0301", "é", "猫", "дом", "بيت", " ", "No-error", "\r", "#"]
mqm_texts = st.lists(st.sampled_from(MQM_PIECES + SPECIAL[:3]) | st.characters(exclude_categories=["Cs"]),
                     max_size=10).map("".join)
severities = st.sampled_from(["Major", "Minor", "Critical", "No-error", "Neutral", "", "major"])
categories = st.sampled_from(["Accuracy/Mistranslation", "Fluency/Grammar", "No-error", "Other", "", "Non-translation!"])


def _mqm_row(draw_values) -> list[str]:
    system, seg, rater, source, target, category, severity = draw_values
    return [system, "doc1", seg, seg, rater, source, target, category, severity]


mqm_rows = st.lists(
    st.tuples(st.sampled_from(["sysA", "sysB", "ref-A"]), st.sampled_from(["1", "2", "3"]),
              st.sampled_from(["r1", "r2", "评审"]), mqm_texts, mqm_texts, categories, severities),
    min_size=1, max_size=6)


@FUZZ
@given(rows=mqm_rows, mutate=st.booleans(), raw=st.binary(max_size=30))
def test_random_mqm_files_import_exactly_or_are_refused(tmp_path, rows, mutate, raw):
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
    text = header + "\n" + "\n".join("\t".join(_mqm_row(r)) for r in rows) + "\n"
    path = tmp_path / "m.tsv"
    data = text.encode("utf-8") + (raw if mutate else b"")
    path.write_bytes(data)
    try:
        p = import_mqm(path)
    except DataError as exc:
        _refused_cleanly(exc)
        return
    exported = mqm_table(p)
    again = tmp_path / "again.tsv"
    again.write_text(exported, encoding="utf-8")
    q = import_mqm(again)  # what the export wrote reads back ...
    assert mqm_table(q) == exported  # ... to the same table
    assert len(q.judgments) == len(p.judgments)
    assert dumps(loads(dumps(p)))  # and the project saves


@FUZZ
@given(source=mqm_texts, target=mqm_texts)
def test_one_mqm_row_round_trips_to_its_own_text(tmp_path, source, target):
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
    row = f"sysA\tdoc1\t1\t1\tr1\t{source}\t{target}\tAccuracy/Mistranslation\tMajor"
    path = tmp_path / "one.tsv"
    path.write_text(f"{header}\n{row}\n", encoding="utf-8")
    try:
        p = import_mqm(path)
    except DataError as exc:
        _refused_cleanly(exc)
        return
    assert mqm_table(p).split("\n")[1] == row.rstrip("\r")  # kept exactly, or refused


# --- mt-metrics-eval -----------------------------------------------------------------------------
line_texts = st.lists(st.sampled_from(["a", "b", " ", "é", "\u0301", "猫", "\u05d0", "\t", "None", "1.5", "-"]),
                      max_size=6).map("".join)
score_lines = st.lists(st.tuples(st.sampled_from(["sysA", "sysB", "ref", "ghost", "", "sys A"]),
                                 st.sampled_from(["1.5", "None", "nan", "inf", "1e308", "-0", "x", "", "2 3"])),
                       max_size=8)


@FUZZ
@given(sources=st.lists(line_texts, min_size=1, max_size=4), extra=st.integers(-1, 1),
       human=score_lines, metric=score_lines, docs=st.lists(line_texts, max_size=5),
       name=st.sampled_from(["mqm", "wmt-z", "da.sqm", "x"]), level=st.sampled_from(["seg", "sys", "doc"]))
def test_random_mt_metrics_eval_directories_import_or_are_refused(tmp_path, sources, extra, human, metric, docs,
                                                                  name, level):
    import tempfile
    from pathlib import Path

    root = Path(tempfile.mkdtemp(dir=tmp_path))
    lp = "en-de"
    for sub in ("sources", "references", f"system-outputs/{lp}", "human-scores", f"metric-scores/{lp}", "documents"):
        (root / sub).mkdir(parents=True, exist_ok=True)

    def lines(items):
        return "".join(line + "\n" for line in items)

    n = len(sources)
    (root / "sources" / f"{lp}.txt").write_text(lines(sources), encoding="utf-8")
    (root / "references" / f"{lp}.ref.txt").write_text(lines(["Referenz"] * n), encoding="utf-8")
    (root / f"system-outputs/{lp}/sysA.txt").write_text(lines(["Ausgabe"] * max(0, n + extra)), encoding="utf-8")
    (root / f"system-outputs/{lp}/sysB.txt").write_text(lines(["B"] * n), encoding="utf-8")
    if docs:
        (root / "documents" / f"{lp}.docs").write_text(lines(docs), encoding="utf-8")
    per_line = n if level == "seg" else 1
    human_text = "".join(f"{s}\t{v}\n" for s, v in human for _ in range(per_line))
    (root / "human-scores" / f"{lp}.{name}.{level}.score").write_text(human_text, encoding="utf-8")
    (root / f"metric-scores/{lp}/BLEU-ref.{level}.score").write_text(
        "".join(f"{s}\t{v}\n" for s, v in metric for _ in range(per_line)), encoding="utf-8")
    try:
        result = import_mt_metrics_eval_dir(root, lp)
    except DataError as exc:
        _refused_cleanly(exc)
        return
    p = result.project
    assert len(p.segment_ids) == n and {s.id for s in p.systems} >= {"sysA", "sysB"}
    assert [s.texts[i] for s in p.systems for i in p.segment_ids][:n] == ["Ausgabe"] * n
    text = dumps(p)
    assert dumps(loads(text)) == text


# --- work packages -------------------------------------------------------------------------------
def _slots(data):
    if isinstance(data, dict):
        for k, v in data.items():
            yield data, k
            yield from _slots(v)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield data, i
            yield from _slots(v)


@FUZZ
@given(st.data())
def test_random_edits_anywhere_in_a_work_package_merge_or_are_refused(tmp_path, data):
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    team = project(6, n_systems=2)
    team.add_judge("alice")
    team.add_judge("李")
    split = split_project(team, "judge", ["alice", "李"], folder, seed=data.draw(st.integers(0, 3)))
    package = split.packages["alice"]
    bundle = json.loads(package.read_text(encoding="utf-8"))
    slots = list(_slots(bundle))
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    for _ in range(data.draw(st.integers(1, 3))):
        container, key = slots[rng.randrange(len(slots))]
        container[key] = data.draw(json_values)
    try:
        package.write_text(json.dumps(bundle, ensure_ascii=True), encoding="utf-8")
    except (TypeError, ValueError):
        return
    before = dumps(team)
    try:
        merge_packages(team, [package])
    except DataError as exc:
        _refused_cleanly(exc)
        assert dumps(team) == before  # a refused package changes nothing
        return
    saved = folder / "team.mtwb.json"
    save_bundle(team, saved)  # whatever a merge accepted saves and loads back
    assert dumps(loads(saved.read_text(encoding="utf-8"))) == dumps(team)
