"""GTM 1.4's own 100-case regression suite (../shared/data/gtm-1.4-tests).

Each optionlist line is parsed as GTM parses its argv; the segment and
document lines of the expected stdout (and, with -v, every verbose value) are
compared with ours to a relative 1e-12. The same cases are then re-run from
plain-text (-t) copies of the SGML inputs, where the whole file is one
document: segment values must not change and the single document's totals
are the sums of the SGML documents' totals.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from mtworkbench.io.corpora.gtm_inputs import (
    PLAIN_DOCUMENT_ID,
    align_references,
    read_gtm_plain,
    read_gtm_sgml,
)
from mtworkbench.metrics.gtm import GTM, score_segment

pytestmark = pytest.mark.shared

SEG_FIELDS = (
    "maximum matching",
    "(maximum matching)^(1/exponent)",
    "mean length of reference segments",
    "length of test segment",
    "segment precision",
    "segment recall",
    "segment f-measure",
)
DOC_FIELDS = (
    "total (maximum matching)^(1/exponent)",
    "total mean length of reference segments",
    "total length of test segments",
    "document precision",
    "document recall",
    "document f-measure",
)


@dataclass
class Invocation:
    verbose: bool = False
    exponent: float = 1.0
    segments: bool = False
    documents: bool = True
    plain: bool = False
    test: str = ""
    refs: list[str] = field(default_factory=list)


def parse_argv(argv: list[str]) -> Invocation:
    """GTM's argv: options while the next argument starts with - or +."""
    inv = Invocation()
    k = 0
    while k < len(argv) and argv[k][:1] in "-+":
        opt = argv[k]
        if opt == "-v":
            inv.verbose = True
        elif opt == "-e":
            k += 1
            inv.exponent = float(argv[k])
        elif opt in ("+s", "--scoresegs"):
            inv.segments = True
        elif opt in ("-s", "--noscoresegs"):
            inv.segments = False
        elif opt in ("+d", "--scoredocs"):
            inv.documents = True
        elif opt in ("-d", "--noscoredocs"):
            inv.documents = False
        elif opt == "-t":
            inv.plain = True
        else:  # pragma: no cover - would mean the suite uses an option we do not know
            raise AssertionError(f"unknown GTM option {opt}")
        k += 1
    inv.test, inv.refs = argv[k], argv[k + 1 :]
    assert inv.refs
    return inv


@dataclass
class Record:
    """One score line of GTM's output, with its verbose block if any."""

    kind: str  # "seg" or "doc"
    doc: str
    seg: str | None
    f: float
    verbose: dict[str, float] = field(default_factory=dict)


def parse_output(text: str) -> tuple[float | None, list[Record]]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    exponent = None
    records: list[Record] = []
    k = 0
    if lines and lines[0] == "program options:":
        k = 1
        while k < len(lines) and lines[k].startswith("\t"):
            name, _, value = lines[k].strip().partition(" = ")
            if name == "exponent":
                exponent = float(value)
            k += 1
    while k < len(lines):
        fields = lines[k].split(" ")
        if len(fields) == 3:
            rec = Record("seg", fields[0], fields[1], float(fields[2]))
        else:
            assert len(fields) == 2, lines[k]
            rec = Record("doc", fields[0], None, float(fields[1]))
        k += 1
        if k < len(lines) and lines[k].startswith("document: "):
            header = lines[k]
            expected = (
                f"document: {rec.doc}, segment: {rec.seg}" if rec.kind == "seg" else f"document: {rec.doc}"
            )
            assert header == expected
            k += 1
            while k < len(lines) and lines[k].startswith("\t"):
                name, _, value = lines[k][1:].partition(" = ")
                rec.verbose[name] = float(value)
                k += 1
        records.append(rec)
    return exponent, records


def run_gtm(inv: Invocation, base: Path) -> list[Record]:
    """What GTM 1.4 prints for ``inv``, as records (our implementation)."""
    read = read_gtm_plain if inv.plain else read_gtm_sgml
    test = read(base / inv.test)
    refs = align_references(test, [read(base / r) for r in inv.refs], inv.refs)
    # score_segment, not the metric: two cases use e < 1, which GTM 1.4
    # accepts and the metric's option refuses.
    outcomes = [
        score_segment(seg.text, [stream[k] for stream in refs], inv.exponent)
        for k, seg in enumerate(test)
    ]
    stats = np.array([(o.mms, len(o.hyp_tokens), o.mean_ref_len) for o in outcomes])
    records: list[Record] = []
    for k, seg in enumerate(test):
        mms, hyp_len, ref_len = stats[k]
        raw = outcomes[k].selection.score
        p, r, f = GTM._prf_arrays(stats[k])
        if inv.segments:
            rec = Record("seg", seg.doc_id, seg.seg_id, f)
            if inv.verbose:
                rec.verbose = dict(
                    zip(SEG_FIELDS, (raw, mms, ref_len, hyp_len, p, r, f))
                )
            records.append(rec)
        last_of_doc = k + 1 == len(test) or test[k + 1].doc_id != seg.doc_id
        if inv.documents and last_of_doc:
            in_doc = [q for q, s in enumerate(test) if s.doc_id == seg.doc_id]
            totals = stats[in_doc].sum(axis=0)
            dp, dr, df = GTM._prf_arrays(totals)
            rec = Record("doc", seg.doc_id, None, df)
            if inv.verbose:
                rec.verbose = dict(zip(DOC_FIELDS, (totals[0], totals[2], totals[1], dp, dr, df)))
            records.append(rec)
    return records


def assert_close(ours: float, theirs: float, what: str) -> None:
    assert math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-300), f"{what}: {ours!r} != {theirs!r}"


def compare(ours: list[Record], expected: list[Record], name: str) -> None:
    assert [(r.kind, r.doc, r.seg) for r in ours] == [(r.kind, r.doc, r.seg) for r in expected], name
    for a, b in zip(ours, expected):
        where = f"{name} {b.doc} {b.seg or ''}"
        assert_close(a.f, b.f, where)
        assert list(a.verbose) == list(b.verbose), where
        for key in b.verbose:
            assert_close(a.verbose[key], b.verbose[key], f"{where} {key}")


def _cases() -> list[tuple[str, list[str]]]:
    from tests.conftest import SHARED_DIR

    optionlist = SHARED_DIR / "data" / "gtm-1.4-tests" / "tests" / "optionlist"
    if not optionlist.is_file():
        return [("missing", [])]
    cases = []
    for line in optionlist.read_text().splitlines():
        if line.strip():
            name, rest = line.split(None, 1)
            cases.append((name, shlex.split(rest)))
    return cases


CASES = _cases()


def test_suite_has_100_cases(shared_dir):
    assert len(CASES) == 100


@pytest.mark.parametrize(("name", "argv"), CASES, ids=[c[0] for c in CASES])
def test_gtm_1_4_case_sgml(shared_dir, name, argv):
    base = shared_dir / "data" / "gtm-1.4-tests"
    inv = parse_argv(argv)
    exponent, expected = parse_output((base / "tests" / f"{name}.out").read_text(encoding="utf-8"))
    if inv.verbose:
        assert exponent == inv.exponent
    else:
        assert exponent is None
    compare(run_gtm(inv, base), expected, name)


def _plain_copies(base: Path, files: list[str], tmp: Path) -> dict[str, str]:
    """Each SGML input rewritten one segment per line (file order)."""
    out = {}
    for k, rel in enumerate(dict.fromkeys(files)):
        target = tmp / f"input{k}.txt"
        target.write_text("".join(s.text + "\n" for s in read_gtm_sgml(base / rel)), encoding="utf-8")
        out[rel] = str(target)
    return out


@pytest.mark.parametrize(("name", "argv"), CASES, ids=[c[0] for c in CASES])
def test_gtm_1_4_case_plain_text(shared_dir, tmp_path, name, argv):
    base = shared_dir / "data" / "gtm-1.4-tests"
    inv = parse_argv(argv)
    _, expected = parse_output((base / "tests" / f"{name}.out").read_text(encoding="utf-8"))
    copies = _plain_copies(base, [inv.test, *inv.refs], tmp_path)
    plain = Invocation(
        verbose=True, exponent=inv.exponent, segments=True, documents=True, plain=True,
        test=copies[inv.test], refs=[copies[r] for r in inv.refs],
    )
    ours = run_gtm(plain, Path("/"))
    seg_records = [r for r in ours if r.kind == "seg"]
    # Plain text: ids are line numbers in one document.
    assert [(r.doc, r.seg) for r in seg_records] == [
        (PLAIN_DOCUMENT_ID, str(k)) for k in range(1, len(seg_records) + 1)
    ]
    expected_segs = [r for r in expected if r.kind == "seg"]
    if expected_segs:
        assert len(expected_segs) == len(seg_records)
        for a, b in zip(seg_records, expected_segs):
            assert_close(a.f, b.f, f"{name} line {a.seg}")
            for key in b.verbose:
                assert_close(a.verbose[key], b.verbose[key], f"{name} line {a.seg} {key}")
    expected_docs = [r for r in expected if r.kind == "doc" and r.verbose]
    doc = [r for r in ours if r.kind == "doc"]
    assert len(doc) == 1
    if expected_docs:
        totals = np.array(
            [
                sum(r.verbose[DOC_FIELDS[0]] for r in expected_docs),
                sum(r.verbose[DOC_FIELDS[2]] for r in expected_docs),
                sum(r.verbose[DOC_FIELDS[1]] for r in expected_docs),
            ]
        )
        _, _, f = GTM._prf_arrays(totals)
        assert_close(doc[0].verbose[DOC_FIELDS[0]], totals[0], f"{name} total MMS")
        assert_close(doc[0].f, float(f), f"{name} document F")
    # Whatever GTM printed, the -t reading must give the SGML reading's segments.
    sgml = run_gtm(
        Invocation(verbose=True, exponent=inv.exponent, segments=True, documents=False,
                   test=inv.test, refs=inv.refs),
        base,
    )
    assert [r.verbose for r in sgml] == [r.verbose for r in seg_records]
