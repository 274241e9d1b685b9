"""Relative rankings as CSV, one row a ranking (one rater's screen), WMT style.

Columns: ``rater,segment,system1,rank1,system2,rank2,...`` (as many ``systemN,rankN``
pairs as the widest ranking, numbered from 1; a row with fewer systems leaves the
last pairs empty) and optionally ``reference,seconds,timestamp,comment``. The systems
are in the order the rater saw them; ``rankN`` is ``systemN``'s rank, 1 (best) to 5,
ties allowed. ``segment`` is the segment id (or its 1-based number when it is not
an id); ``reference`` the reference shown (empty: none).

A row without a rater, naming an unknown segment, system or reference, with a rank
out of range, a system twice, or fewer than two systems is refused with file, line and
column; nothing is imported from such a file. Imported rankings get new ranking
and judgment ids.
"""

from __future__ import annotations

import re
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.model import RANK_RANGE, Project
from mtworkbench.core.ranking import Ranking, new_ranking_id, rankings_of
from mtworkbench.core.spreadsheet import restore, table_text

REQUIRED = ("rater", "segment")
OPTIONAL = ("reference", "seconds", "timestamp", "comment")
_PAIR = re.compile(r"^(system|rank)([1-9][0-9]*)$")


def shown_orders(project: Project) -> dict[str, list[str]]:
    """Ranking id -> its systems in the order shown, from the judges' queues."""
    out: dict[str, list[str]] = {}
    for state in project.judge_queues.values():
        for entry in state.items:
            if entry.systems and entry.judgment:
                out[entry.judgment] = list(entry.systems)
    return out


def ranking_table(project: Project, raw: bool = False) -> str:
    """Every ranking of the project as CSV text, in the order of their first judgment; cells a
    spreadsheet would run as formulas are guarded unless ``raw`` (``core.spreadsheet``)."""
    from mtworkbench.io.judgments.judgments_export import number_text  # 60 for 60.0, repr otherwise

    rankings = rankings_of(project, shown_orders(project))
    width = max([2, *(len(r.systems) for r in rankings)])
    pairs = [c for k in range(1, width + 1) for c in (f"system{k}", f"rank{k}")]
    rows: list[list[str]] = [[*REQUIRED, *pairs, *OPTIONAL]]
    for r in rankings:
        cells = [c for s, rank in zip(r.systems, r.ranks) for c in (s, str(rank))]
        cells += [""] * (len(pairs) - len(cells))
        rows.append([r.judge, r.segment, *cells, r.reference or "", number_text(r.seconds), r.timestamp,
                     r.comment])
    return table_text(rows, raw=raw)


def _rank(value: str, where: str, column: str) -> int:
    lo, hi = RANK_RANGE
    text = value.strip()
    if not re.fullmatch(r"[0-9]+", text) or not lo <= int(text) <= hi:
        raise DataError(f"{where}, column {column!r}: expected a rank, a whole number from {lo} to {hi}, found {value!r}")
    return int(text)


def plan_ranking_file(project: Project, path: str | Path):
    """The judges and judgments a rankings CSV adds (nothing is changed yet)."""
    from mtworkbench.io.judgments.judgments import (
        JudgmentImport,
        fresh_id,
        numbered_rows,
        read_csv_header,
        row_rater,
        row_segment_and_reference,
    )
    from mtworkbench.io.judgments.protocol_csv import parse_number

    reader, header = read_csv_header(path)
    expected = f"{','.join(REQUIRED)},system1,rank1,system2,rank2,... (optionally {','.join(OPTIONAL)})"
    for column in REQUIRED:
        if column not in header:
            raise DataError(f"{path}:1: header lacks column {column!r}; expected {expected}")
    numbers: set[int] = set()
    for k, column in enumerate(header):
        m = _PAIR.match(column)
        if m:
            numbers.add(int(m.group(2)))
        elif column not in REQUIRED + OPTIONAL:
            raise DataError(f"{path}:1, column {k + 1}: unknown column {column!r}; expected {expected}")
    if len(header) != len(set(header)):
        twice = next(c for c in header if header.count(c) > 1)
        raise DataError(f"{path}:1: column {twice!r} appears twice")
    width = max(numbers, default=0)
    for n in range(1, max(width, 2) + 1):
        for column in (f"system{n}", f"rank{n}"):
            if column not in header:
                raise DataError(f"{path}:1: header lacks column {column!r}; expected {expected}")

    plan = JudgmentImport()
    known = set(project.judges)
    taken_judgments: set[str] = set()
    taken_rankings: set[str] = set()
    for start, fields in numbered_rows(reader, path, len(header)):
        where = f"{path}:{start}"
        get = dict(zip(header, (restore(f) for f in fields)))  # undo the export's formula guard
        rater = row_rater(get, where)
        segment, reference = row_segment_and_reference(project, get, where)
        systems: list[str] = []
        ranks: list[int] = []
        for n in range(1, width + 1):
            system, rank = get[f"system{n}"].strip(), get[f"rank{n}"]
            if not system and not rank.strip():
                continue
            if not system:
                raise DataError(f"{where}, column 'system{n}': empty, but rank{n} is given")
            if not project.has_system(system):
                raise DataError(f"{where}, column 'system{n}': no system {system!r} in the project")
            if project.system(system).texts.get(segment) is None:
                raise DataError(f"{where}, column 'system{n}': system {system!r} has no text for segment {segment!r}")
            if system in systems:
                raise DataError(f"{where}, column 'system{n}': system {system!r} is ranked twice in this row")
            systems.append(system)
            ranks.append(_rank(rank, where, f"rank{n}"))
        if len(systems) < 2:
            raise DataError(f"{where}: a ranking needs at least two systems, found {len(systems)}")
        if rater not in known:
            known.add(rater)
            plan.judges.append(rater)
        ranking_id = fresh_id(lambda: new_ranking_id(project), taken_rankings)
        ids = [fresh_id(lambda: project.new_id("j"), taken_judgments) for _ in systems]
        seconds = get.get("seconds", "").strip()
        ranking = Ranking(
            id=ranking_id, judge=rater, segment=segment, reference=reference, systems=tuple(systems),
            ranks=tuple(ranks), judgment_ids=tuple(ids),
            timestamp=get.get("timestamp", "").strip(),
            seconds=parse_number(seconds, where, "seconds", 0.0) if seconds else 0.0,
            comment=get.get("comment", ""),
        )
        plan.judgments.extend(ranking.judgments())
    return plan


def export_rankings(project: Project, path: str | Path, raw: bool = False) -> int:
    """Write the rankings CSV; returns the number of rankings (rows)."""
    from mtworkbench.core.output import write_output

    write_output(path, ranking_table(project, raw))
    return len(rankings_of(project))
