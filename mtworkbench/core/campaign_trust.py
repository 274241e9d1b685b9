"""What a package may bring to a merge: the plan is the team project's, the work its person's.

A package is a file someone else had in their hands: its campaign section and its work
are checked against the plan drawn from the team's own project before anything merges.
"""

from __future__ import annotations

from mtworkbench.core.campaign_plan import plan_campaign
from mtworkbench.core.campaign_records import Campaign, CampaignError
from mtworkbench.core.model import Project


def plan_of(project: Project, theirs: Campaign, label: str) -> Campaign:
    """The campaign ``plan_campaign`` gives this project with the package's settings; refused
    when the package's items (or id) are not that plan's."""
    try:
        plan = plan_campaign(project, theirs.by, list(theirs.people), theirs.overlap, theirs.seed,
                             theirs.protocol, theirs.bad_rate)
    except (CampaignError, TypeError, ValueError) as exc:
        raise CampaignError(f"{label}: its campaign cannot be planned on this project ({exc})") from None
    if plan.id != theirs.id:
        raise CampaignError(f"{label}: belongs to campaign {theirs.id}, which this project's texts and the "
                            "package's settings do not give (another project's package, or an edited one)")
    if plan.items != list(theirs.items) or plan.people != list(theirs.people):
        raise CampaignError(f"{label}: its item assignment differs from campaign {plan.id}'s plan for this "
                            "project (was it edited?)")
    return plan


def check_own_work(plan: Campaign, package: Project, label: str, person: str) -> None:
    """A package carries only its person's work on its person's items (by the team's plan):
    a judgment under another judge's name, or on an item given to someone else, is refused."""
    if person not in plan.people:
        raise CampaignError(f"{label}: made for {person!r}, who is not one of campaign {plan.id}'s people")
    mine = plan.items_of(person)
    for span in package.spans:
        if span.annotator != person:
            raise CampaignError(f"{label}: holds entity span {span.id!r} by {span.annotator!r} on segment "
                                f"{span.segment!r}; a package carries only {person!r}'s own work; refused")
        # Annotators' items are (reference, segment); a judge may mark entities in the segments they judge.
        if not any(it.segment == span.segment and (plan.by != "annotator" or it.reference == span.reference)
                   for it in mine):
            raise CampaignError(f"{label}: holds entity span {span.id!r} on segment {span.segment!r} of reference "
                                f"{span.reference!r}, which is not one of {person!r}'s items; refused")
    for j in package.judgments:
        if plan.by != "judge" or j.judge != person:
            raise CampaignError(f"{label}: holds judgment {j.id!r} by {j.judge!r} on segment {j.segment!r}; "
                                f"a package carries only {person!r}'s own work; refused")
        if not any(it.system == j.system and it.segment == j.segment for it in mine):
            raise CampaignError(f"{label}: holds judgment {j.id!r} of system {j.system!r} on segment "
                                f"{j.segment!r}, which is not one of {person!r}'s items; refused")
