"""Check the MQM import, scores and export against one of Google's published releases.

Run from a checkout (PYTHONPATH pointing at it):

    python tools/check_mqm_reproduction.py RAW.tsv [--avg RAW.avg_seg_scores.tsv]
        [--weights major=5,...] [--recompute] [--rename RAW_NAME=PUBLISHED_NAME] [--workdir DIR]

What it does, through the command line exactly as a user would:

1. ``mtworkbench import --format mqm --source RAW -o X.mtwb.json`` (timed; the
   in-process reading time is reported too, without Python's start-up);
2. ``mtworkbench human-scores X --protocol mqm --json`` and every segment score
   compared with the published average at 1e-6 (``--avg``; Google publishes
   ``system<space or tab>score<space>seg_id`` rows under the header
   ``system mqm_avg_score seg_id``, scores as minus the weighted errors, ``None``
   for an item nobody rated; the 2022 releases a table ``sys hyp domain doc source
   ref score seg_id`` in which a ``hyp`` may hold a tab); mismatches are counted by
   class; with the default weights, also compared with averages recomputed here
   straight from the rows (``recomputed_averages``), which checks files Google
   publishes no averages for. Unbabel's files (a ``misc`` column, or an unnamed last
   one, whose JSON gives each row an ``mqm`` score; WMT22 en-ru) are recomputed the
   way mt-metrics-eval's converter reads them by default: the mean of each rater's
   rows' ``mqm`` values, the mean over raters, not negated; ``--recompute`` (passed to
   ``human-scores`` too) weighs their errors instead;
3. ``mtworkbench judgments export X --format mqm -o back.tsv`` and the error rows
   (system, seg_id, rater, category, severity, marked target) compared as
   multisets with the input's.

The raw files are read here on their own (not with mtworkbench's reader), so
that a reader bug cannot hide itself: a file is split on tabs, or read with csv
quoting when plain splitting gives rows of unequal width.

Exit status 0 when everything matches, 1 otherwise. Data files stay outside the
repository (Google's licence; hundreds of MB): keep them in e.g. /tmp/mqmall.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

TOLERANCE = 1e-6
ROW_KEY = ("system", "seg_id", "rater", "category", "severity", "target")
SEG_ID_NAMES = ("seg_id", "globalsegid")


# --- reading Google's files independently -----------------------------------------------------
def read_table(path: Path) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a tab-separated file, csv-unquoted only when plain splitting
    gives rows of unequal width (a quoted field holding a tab or line break). A last
    column every row has but the header does not name is given the name ``""``."""
    text = path.read_text(encoding="utf-8-sig")
    lines = [line.rstrip("\r") for line in text.split("\n") if line.strip()]
    split = [line.split("\t") for line in lines]
    # The 2023 side-by-side releases end the header with a "# Documentation: URL" note.
    while len(split[0]) > 1 and split[0][-1].lstrip().startswith("#"):
        split[0].pop()
    if len({len(fields) for fields in split[1:]}) <= 1:
        # Even width: compared as written (an export keeps the file's quoting, so quoted
        # fields compare equal quoted; most releases are unquoted text with stray quotes).
        header, rows = split[0], split[1:]
    else:
        table = [row for row in csv.reader(io.StringIO(text, newline=""), delimiter="\t") if any(row)]
        header, rows = table[0], table[1:]
    if rows and len(rows[0]) == len(header) + 1:
        header = [*header, ""]
    return header, rows


def misc_score(value: str) -> float | None:
    """The ``mqm`` number in a misc field's JSON (csv quotes left on it removed), else None."""
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].replace('""', '"')
    try:
        found = json.loads(text) if text.startswith("{") else None
    except ValueError:
        return None
    number = found.get("mqm") if isinstance(found, dict) else None
    return float(number) if isinstance(number, (int, float)) and not isinstance(number, bool) else None


def misc_column(names: list[str], rows: list[list[str]]) -> int | None:
    """The index of Unbabel's misc column (named ``misc``, or the unnamed last one) when
    its fields give ``mqm`` scores, else None."""
    at = names.index("misc") if "misc" in names else (len(names) - 1 if names and names[-1] == "" else None)
    if at is None or not any(misc_score(r[at]) is not None for r in rows):
        return None
    return at


def error_rows(path: Path) -> Counter:
    """Multiset of (system, seg_id, rater, category, severity, marked target)."""
    header, rows = read_table(path)
    names = [h.strip().lower() for h in header]
    seg = next(names.index(n) for n in SEG_ID_NAMES if n in names)
    index = {k: (seg if k == "seg_id" else names.index(k)) for k in ROW_KEY}
    return Counter(tuple(r[index[k]].strip() if k != "target" else r[index[k]] for k in ROW_KEY)
                   for r in rows if len(r) >= len(names) - 1)


def published_averages(path: Path) -> tuple[dict[tuple[str, str], float | None], int]:
    """(system, seg_id) -> published average (None: nobody rated it), and how many keys
    the file gives more than once (their values are averaged).

    Two layouts: 2020/2021's ``system mqm_avg_score seg_id`` rows (space or tab after
    the system), and a tab-separated table naming its columns, among them ``sys`` or
    ``system``, ``score`` and ``seg_id`` (how others describe the 2022 files, which
    this checker has not seen: they could not be fetched here)."""
    lines = [line.rstrip("\r") for line in path.read_text(encoding="utf-8-sig").split("\n")]
    lines = [line for line in lines if line.strip()] or [""]
    values: dict[tuple[str, str], list[float | None]] = {}
    if lines[0].split() == ["system", "mqm_avg_score", "seg_id"]:
        for number, line in enumerate(lines[1:], 2):
            if not line.strip():
                continue
            parts = line.replace("\t", " ").rsplit(" ", 2)
            if len(parts) != 3:
                raise SystemExit(f"{path}:{number}: expected 'system score seg_id', found {line!r}")
            system, value, seg_id = parts
            values.setdefault((system, seg_id), []).append(None if value == "None" else float(value))
    else:
        names = lines[0].split("\t")
        system_column = next((c for c in ("system", "sys") if c in names), None)
        if system_column is None or "score" not in names or "seg_id" not in names:
            raise SystemExit(f"{path}:1: expected 'system mqm_avg_score seg_id' or a tab-separated header "
                             f"with sys, score and seg_id; found {lines[0]!r}")
        at = {n: names.index(n) for n in (system_column, "score", "seg_id")}
        # A text column (the 2022 tables' ``hyp``) may hold a tab: the columns after it
        # are then counted from the row's end.
        text_at = next((names.index(n) for n in ("hyp", "target", "mt") if n in names), None)
        for number, line in enumerate(lines[1:], 2):
            fields = line.split("\t")
            if len(fields) != len(names):
                if text_at is None or len(fields) < len(names):
                    raise SystemExit(f"{path}:{number}: expected {len(names)} fields, found {len(fields)}")
                extra = len(fields) - len(names)
                fields = [*fields[:text_at], "\t".join(fields[text_at:text_at + extra + 1]),
                          *fields[text_at + extra + 1:]]
            raw = fields[at["score"]].strip()
            value = None if raw in ("None", "", "nan") else float(raw)
            values.setdefault((fields[at[system_column]].strip(), fields[at["seg_id"]].strip()), []).append(value)
    out: dict[tuple[str, str], float | None] = {}
    for key, found in values.items():
        numbers = [v for v in found if v is not None]
        out[key] = sum(numbers) / len(numbers) if numbers else None
    return out, sum(len(found) > 1 for found in values.values())


def recomputed_averages(path: Path, recompute: bool = False) -> dict[tuple[str, str], float]:
    """(system, seg_id) -> the average recomputed here straight from the rows with
    Google's README weights (Major 5, Minor 1, Neutral 0, Minor Fluency/Punctuation 0.1,
    Non-translation 25, any other severity and No-error/HOTW-test rows 0): every
    rater's rows of an item summed, then the mean over the raters, negated. A check of
    the import's grouping of rows into ratings for files without published averages.
    Unbabel's files (``misc_column``) unless ``recompute``: the mean of each rater's rows'
    ``mqm`` values, then the mean over the raters, not negated (mt-metrics-eval's
    converter with ``--unbabel``)."""
    header, rows = read_table(path)
    names = [h.strip().lower() for h in header]
    seg = next(names.index(n) for n in SEG_ID_NAMES if n in names)
    at = {k: names.index(k) for k in ("system", "rater", "category", "severity")}
    misc = None if recompute else misc_column(names, rows)
    if misc is not None:
        given: dict[tuple[str, str], dict[str, list[float]]] = {}
        for r in rows:
            raters = given.setdefault((r[at["system"]].strip(), r[seg].strip()), {})
            raters.setdefault(r[at["rater"]].strip(), []).append(misc_score(r[misc]))
        return {key: sum(sum(v) / len(v) for v in raters.values()) / len(raters) for key, raters in given.items()}
    sums: dict[tuple[str, str], dict[str, float]] = {}
    for r in rows:
        severity, category = r[at["severity"]].strip().lower(), r[at["category"]].strip().lower()
        if category.startswith(("non-translation", "non_translation")):
            weight = 25.0
        elif severity == "minor" and (category == "fluency/punctuation" or category.startswith("fluency/punctuation/")):
            weight = 0.1
        else:
            weight = {"major": 5.0, "minor": 1.0}.get(severity, 0.0)
        raters = sums.setdefault((r[at["system"]].strip(), r[seg].strip()), {})
        rater = r[at["rater"]].strip()
        raters[rater] = raters.get(rater, 0.0) + weight
    return {key: -sum(raters.values()) / len(raters) for key, raters in sums.items()}


# --- running the command line ----------------------------------------------------------------
def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mtworkbench", *args], capture_output=True, text=True,
                          env=dict(os.environ))


def _rename_map(ours: set[str], published: set[str], given: dict[str, str]) -> dict[str, str]:
    """Published system name -> raw name. Given renames first; then a published name
    absent from the raw file is paired with the one raw name equal to it but for case
    and punctuation (TED zh-en: raw ``refB``, averages ``ref-B``), else with the one raw
    name it extends by a suffix (TED: raw ``ref``, averages ``ref-A``), else with the one
    raw name that extends it by a suffix (2022 zh-en: raw ``Lan-Bridge.en``, averages
    ``Lan-Bridge``, as others who read both files report), else by a prefix (newstest2021,
    as others report: raw ``hyp.Facebook-AI``, averages ``Facebook-AI``)."""
    def bare(name: str) -> str:
        return "".join(ch for ch in name.lower() if ch.isalnum())

    out = {pub: raw for raw, pub in given.items()}
    missing_raw = sorted(ours - published - set(out.values()))
    for same in (lambda pub, raw: bare(pub) == bare(raw),
                 lambda pub, raw: bare(pub).startswith(bare(raw)) and pub[len(raw):len(raw) + 1] in "-._",
                 lambda pub, raw: raw.startswith(pub) and raw[len(pub):len(pub) + 1] in ("-", ".", "_"),
                 lambda pub, raw: raw.endswith(pub) and raw[-len(pub) - 1:-len(pub)] in ("-", ".", "_")):
        for pub in sorted(published - ours - set(out)):
            candidates = [raw for raw in missing_raw if same(pub, raw)]
            if len(candidates) == 1:
                out[pub] = candidates[0]
                missing_raw.remove(candidates[0])
    return out


def check(raw: Path, avg: Path | None, weights: str, renames: dict[str, str], work: Path,
          recompute: bool = False) -> dict:
    report: dict = {"file": raw.name}
    bundle = work / (raw.stem + ".mtwb.json")
    start = time.perf_counter()
    done = cli("import", "--format", "mqm", "--source", str(raw), "-o", str(bundle))
    report["import_seconds_cli"] = round(time.perf_counter() - start, 3)
    if done.returncode:
        report["import_error"] = (done.stderr.strip().splitlines() or ["?"])[-1]
        return report
    from mtworkbench.io.judgments.mqm import import_mqm

    start = time.perf_counter()
    project = import_mqm(raw)
    report["import_seconds"] = round(time.perf_counter() - start, 3)
    report["rows"] = sum(error_rows(raw).values())
    report["segments"] = len(project.segment_ids)
    report["systems"] = len(project.systems)
    report["judgments"] = len(project.judgments)

    args = ["human-scores", str(bundle), "--protocol", "mqm", "--json"] + (["--weights", weights] if weights else []) \
        + (["--recompute"] if recompute else [])
    done = cli(*args)
    if done.returncode:
        report["scores_error"] = done.stderr.strip()
        return report
    if done.stderr.strip():
        report["scores_note"] = done.stderr.strip()
    ours = {(r["system"], r["segment"]): r["score"] for r in json.loads(done.stdout)["scores"]}
    again = recomputed_averages(raw, recompute)
    if not weights:
        differing = [[*k, v, ours.get(k)] for k, v in again.items()
                     if ours.get(k) is None or abs(ours[k] - v) > TOLERANCE]
        report["recomputed_matches"] = len(again) - len(differing)
        report["recomputed_mismatches"] = len(differing) + len(set(ours) - set(again))
        if differing:
            report["recomputed_examples"] = differing[:3]
    if avg is not None:
        published, repeated = published_averages(avg)
        report.update(compare_scores(ours, published, renames))
        if repeated:
            report["published_keys_given_more_than_once"] = repeated

    back = work / (raw.stem + ".back.tsv")
    done = cli("judgments", "export", str(bundle), "--format", "mqm", "-o", str(back))
    if done.returncode:
        report["export_error"] = done.stderr.strip()
        return report
    want, got = error_rows(raw), error_rows(back)
    report["roundtrip_missing"] = sum((want - got).values())
    report["roundtrip_extra"] = sum((got - want).values())
    report["roundtrip_examples"] = [list(k) for k in list(want - got)[:3]] + [list(k) for k in list(got - want)[:3]]
    return report


def compare_scores(ours: dict, published: dict, renames: dict[str, str]) -> dict:
    names = _rename_map({s for s, _ in ours}, {s for s, _ in published}, renames)
    classes: Counter = Counter()
    examples: dict[str, list] = {}
    matched = 0
    for (pub_system, seg_id), value in published.items():
        key = (names.get(pub_system, pub_system), seg_id)
        mine = ours.get(key)
        if value is None:
            kind = None if mine is None else "we score an item published as None"
        elif mine is None:
            kind = "published item we do not score"
        elif abs(mine - value) <= TOLERANCE:
            kind = None
            matched += 1
        else:
            kind = "different value"
        if kind:
            classes[kind] += 1
            examples.setdefault(kind, []).append([pub_system, seg_id, value, mine])
    flipped = [e for e in examples.get("different value", []) if abs(e[2] + e[3]) <= TOLERANCE]
    if flipped and len(flipped) == classes["different value"]:
        examples["note"] = ["every differing value is ours with the sign flipped: the file publishes penalties"]
    unpublished = [k for k in ours if k not in {(names.get(s, s), g) for s, g in published}]
    if unpublished:
        classes["we score an item not in the published file"] = len(unpublished)
        examples["we score an item not in the published file"] = [list(k) for k in unpublished[:3]]
    return {"published": sum(v is not None for v in published.values()), "matches": matched,
            "mismatches": sum(classes.values()), "mismatch_classes": dict(classes),
            "mismatch_examples": {k: v[:3] for k, v in examples.items()}, "renamed": names}


def _failed(report: dict) -> bool:
    return any(k in report for k in ("import_error", "scores_error", "export_error")) \
        or bool(report.get("mismatches") or report.get("roundtrip_missing") or report.get("roundtrip_extra")
                or report.get("recomputed_mismatches"))


def _averages_beside(raw: Path) -> Path | None:
    """Google's name for a release's averages: ``X.tsv`` -> ``X.avg_seg_scores.tsv``."""
    candidate = raw.with_name(raw.name[: -len(".tsv")] + ".avg_seg_scores.tsv") if raw.name.endswith(".tsv") else None
    return candidate if candidate is not None and candidate.is_file() else None


def table(reports: list[dict]) -> str:
    """A Markdown table of several reports."""
    lines = ["| file | rows | segments | matches / published | mismatches | recomputed here: matches / mismatches "
             "| round trip | import s (CLI s) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in reports:
        error = r.get("import_error") or r.get("scores_error") or r.get("export_error")
        if error:
            lines.append(f"| {r['file']} | | | | | | {error} | |")
            continue
        scored = f"{r['matches']} / {r['published']}" if "published" in r else "no averages"
        trip = "exact" if not (r["roundtrip_missing"] or r["roundtrip_extra"]) else \
            f"{r['roundtrip_missing']} missing, {r['roundtrip_extra']} extra"
        again = f"{r['recomputed_matches']} / {r['recomputed_mismatches']}" if "recomputed_matches" in r else ""
        lines.append(f"| {r['file']} | {r['rows']} | {r['segments']} | {scored} | {r.get('mismatches', '')} "
                     f"| {again} | {trip} | {r['import_seconds']} ({r['import_seconds_cli']}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("raw", type=Path, nargs="+", help="Google's raw MQM TSV (several: --avg is found beside each)")
    parser.add_argument("--avg", type=Path, help="its *.avg_seg_scores.tsv (default: X.avg_seg_scores.tsv beside X.tsv)")
    parser.add_argument("--weights", default="", help="passed to human-scores --weights")
    parser.add_argument("--recompute", action="store_true",
                        help="Unbabel's files: weigh the errors (human-scores --recompute) instead of the misc scores")
    parser.add_argument("--rename", action="append", default=[], metavar="RAW=PUBLISHED",
                        help="a system named differently in the averages file")
    parser.add_argument("--workdir", type=Path, help="where the bundle and the export go (default: a temp dir)")
    parser.add_argument("--table", action="store_true", help="print a Markdown table instead of JSON")
    args = parser.parse_args(argv)
    if args.avg is not None and len(args.raw) > 1:
        parser.error("--avg goes with one raw file")
    renames = dict(item.split("=", 1) for item in args.rename)
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for raw in args.raw:
            work = (args.workdir or Path(tmp)) / (raw.stem if len(args.raw) > 1 else "")
            work.mkdir(parents=True, exist_ok=True)
            reports.append(check(raw, args.avg or _averages_beside(raw), args.weights, renames, work, args.recompute))
    if args.table:
        print(table(reports))
    else:
        print(json.dumps(reports[0] if len(reports) == 1 else reports, ensure_ascii=False, indent=1))
    return 1 if any(_failed(r) for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
