"""Work packages on disk: write one bundle per person, read them back and merge them.

The campaign logic is in ``mtworkbench.core.campaign``; this module adds files: package
names, content hashes (so merging the same file twice is recognised), and messages that
name the package file for a corrupt, foreign or changed package.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mtworkbench.core.campaign import Campaign, CampaignError, MergeReport, make_package, merge_package
from mtworkbench.core.campaign_plan import plan_campaign
from mtworkbench.core.errors import DataError
from mtworkbench.core.jobs import ProgressCallback, report
from mtworkbench.core.model import Project
from mtworkbench.io.bundle.bundle import SUFFIX, dumps, loads, read_bundle, save_bundle


@dataclass
class SplitResult:
    campaign: Campaign
    packages: dict[str, Path]  # person -> file


@dataclass
class MergeResult:
    reports: list[MergeReport] = field(default_factory=list)

    @property
    def conflicts(self) -> int:
        return sum(len(r.conflicts) for r in self.reports)

    def summary(self) -> str:
        """Plain text, one line per package and one per conflict."""
        lines = []
        for r in self.reports:
            if r.already_merged:
                lines.append(f"{r.package} ({r.person}): already merged, nothing to do")
                continue
            lines.append(
                f"{r.package} ({r.person}): spans +{r.added_spans} ~{r.changed_spans} -{r.removed_spans}, "
                f"judgments +{r.added_judgments} ~{r.changed_judgments} -{r.removed_judgments}, "
                + (f"{r.done_marks} done marks changed, " if r.done_marks else "")
                + f"{len(r.conflicts)} conflicts"
            )
            for c in r.conflicts:
                where = c.theirs or c.kept or {}
                lines.append(f"  conflict ({c.kind} in segment {where.get('segment', '?')!r}): {c.reason}")
        return "\n".join(lines)


def package_file_name(person: str) -> str:
    """A portable file name for a person's package (characters other than letters, digits,
    '-', '_' and '.' become '_')."""
    safe = re.sub(r"[^\w.-]", "_", person, flags=re.UNICODE).strip(".") or "person"
    return f"{safe}{SUFFIX}"


def split_project(project: Project, by: str, people: list[str], out_dir: str | Path, overlap: float = 0.0,
                  seed: int = 0, protocol: str | None = None, bad_rate: float = 0.0,
                  progress: ProgressCallback | None = None) -> SplitResult:
    """Write one package per person into ``out_dir`` (created if needed); ``bad_rate``
    hides BAD items in each judge's DA/ESA queue. ``progress(done, total)`` follows each
    package written, so an interrupted split can say which are complete."""
    if getattr(project, "campaign", None) is not None and project.campaign.package is not None:
        raise CampaignError("this is already one person's package; split the team's project instead")
    campaign = plan_campaign(project, by, people, overlap, seed, protocol, bad_rate)
    out = Path(out_dir)
    names = [package_file_name(p) for p in people]
    if len({n.lower() for n in names}) != len(names):
        raise CampaignError("two people's names give the same package file name; make them differ")
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    report(progress, 0, len(people))
    for person, name in zip(people, names):
        target = out / name
        save_bundle(make_package(project, campaign, person), target)
        target.with_name(target.name + ".bak").unlink(missing_ok=True)  # a fresh split has no history
        written[person] = target
        report(progress, len(written), len(people))
    return SplitResult(campaign, written)


def read_package(path: str | Path) -> tuple[Project, str]:
    """Load a package; returns the project and the SHA-256 of its bytes. Errors name the file."""
    try:
        loaded = read_bundle(path)
    except OSError as exc:
        raise DataError(f"{path}: cannot read package: {exc.strerror or exc}") from None
    return loaded.project, loaded.sha256


def merge_packages(project: Project, package_paths: Sequence[str | Path]) -> MergeResult:
    """Merge packages into ``project`` in order. Every package is read and checked before
    anything changes, so a bad package leaves the project as it was."""
    loaded = [(str(p), *read_package(p)) for p in package_paths]
    if not loaded:
        raise CampaignError("name at least one package to merge")
    # A dry run on a copy first: a foreign or changed package is refused before any merge.
    trial = loads(dumps(project))
    for label, package, sha in loaded:
        merge_package(trial, package, label, sha)
    result = MergeResult()
    for label, package, sha in loaded:
        result.reports.append(merge_package(project, package, label, sha))
    return result
