"""`casegen generate ... --pr`: drafted cases on a new branch, ready for review.

    plan = prepare_pr(request, PrOptions(base="main", push="origin"), targets=["card_replace"])
    outcome = open_pull_request(plan, request, generate=run)
    print(outcome.description)

`prepare_pr` checks everything (repository, base, branch, remote, uncommitted changes where
the cases go) before anything is written. `open_pull_request` generates into a temporary
`git worktree` of the new branch, commits only the new or changed case files and the
manifest, validates them (and runs them with `--run`), removes the worktree and writes the
description to `.casegen/pr/<branch>.md`. The person's checkout, index and current branch
are never touched.
"""

from ._flow import PrOutcome, open_pull_request, write_description
from ._plan import PrOptions, PrPlan, default_branch_name, prepare_pr
from ._run import RunOutcome, RunRow, check_run_target

__all__ = [
    "PrOptions",
    "PrOutcome",
    "PrPlan",
    "RunOutcome",
    "RunRow",
    "check_run_target",
    "default_branch_name",
    "open_pull_request",
    "prepare_pr",
    "write_description",
]
