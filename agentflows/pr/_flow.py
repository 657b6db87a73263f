"""Generate into a temporary worktree, commit the new cases to a branch, describe them.

    plan = prepare_pr(request, PrOptions(base="main"), targets=["card_replace"])
    outcome = open_pull_request(plan, request, generate=lambda r: asyncio.run(run_generation(r)))
    outcome.branch, outcome.commit, outcome.description_path

The worktree lives in a temporary folder and is removed whatever happens; the branch is kept
only once it holds the commit. So a failed run leaves no branch, no worktree and no files.
"""

from __future__ import annotations

import asyncio
import copy
import os
import shlex
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import git

from evalcore.findings import FileReport
from evalcore.manifest import load_manifest, save_manifest
from evalcore.validation import validate_paths
from evalcore.workdir import ensure_dir

from ..generate import GenerateRequest
from . import _git
from ._describe import DescriptionInput, commit_message, describe
from ._gh import PullRequest, open_pull_request_with_gh
from ._plan import PrPlan
from ._run import RunOutcome, run_new_cases

DESCRIPTIONS_DIR = Path(".casegen") / "pr"
WRITTEN = ("created", "overwritten")

Generate = Callable[[GenerateRequest], dict[str, Any]]


@dataclass
class PrOutcome:
    """What `--pr` did. `branch` is None when there was nothing new to commit."""

    report: dict[str, Any]
    """The generation report, paths as the person would have seen them without --pr."""
    repo_report: dict[str, Any]
    """The same report with repository-relative paths (the description's)."""
    branch: str | None
    base: str
    base_commit: str
    commit: str | None = None
    files: list[str] | None = None
    """Committed files, repository-relative."""
    description: str | None = None
    description_path: Path | None = None
    remote: str | None = None
    """The remote the branch was pushed to (`--push`)."""
    pushed: bool = False
    push_error: str | None = None
    validation: list[FileReport] | None = None
    run: RunOutcome | None = None
    pull_request: PullRequest | None = None
    """The `gh pr create` opened, or the command to run (None: no branch)."""

    def to_json(self) -> dict[str, Any]:
        valid = sum(r.valid for r in self.validation or [])
        return {
            "branch": self.branch,
            "base": self.base,
            "base_commit": self.base_commit,
            "commit": self.commit,
            "files": self.files or [],
            "description_path": str(self.description_path) if self.description_path else None,
            "remote": self.remote,
            "pushed": self.pushed,
            "push_error": self.push_error,
            "validation": {
                "files": len(self.validation or []),
                "valid": valid,
                "invalid": len(self.validation or []) - valid,
            },
            "pull_request": self.pull_request.to_json() if self.pull_request else None,
            "run": None
            if self.run is None
            else {
                "target": self.run.target,
                "results_dir": self.run.results_dir,
                "note": self.run.note,
                "runs": [
                    {"path": r.path, "status": r.status, "detail": r.detail} for r in self.run.rows
                ],
            },
        }


def open_pull_request(plan: PrPlan, request: GenerateRequest, *, generate: Generate) -> PrOutcome:
    """Run `generate` in a worktree on a new branch and commit what it wrote there."""
    temp = Path(tempfile.mkdtemp(prefix="casegen-pr-"))
    worktree_path = temp / "worktree"
    outcome: PrOutcome | None = None
    try:
        worktree = _git.add_worktree(plan.repo, worktree_path, plan.branch, plan.base_sha)
        report = generate(plan.in_worktree(request, worktree_path))
        outcome = _commit(plan, request, worktree, worktree_path, report)
        if outcome.commit is not None:
            _check(plan, request, worktree_path, outcome)
    finally:
        _git.remove_worktree(plan.repo, worktree_path)
        shutil.rmtree(temp, ignore_errors=True)
        if outcome is None or outcome.commit is None:
            _git.delete_branch(plan.repo, plan.branch)
    if outcome.commit is None:
        return outcome
    outcome.description_path = write_description(plan.root, plan.branch, outcome.description or "")
    if plan.options.push:
        outcome.remote = plan.options.push
        outcome.push_error = _git.push_branch(plan.repo, plan.options.push, plan.branch)
        outcome.pushed = outcome.push_error is None
    outcome.pull_request = open_pull_request_with_gh(
        cwd=plan.root,
        branch=plan.branch,
        base=plan.base if plan.base != plan.base_sha else None,
        title=commit_message(request.targets, outcome.repo_report, outcome.files or []).split(
            "\n", 1
        )[0],
        body_file=outcome.description_path,
        pushed_to=outcome.remote if outcome.pushed else None,
    )
    if outcome.pull_request.push_command and plan.options.push:
        outcome.pull_request.push_command = shlex.join(
            ["git", "push", "-u", plan.options.push, plan.branch]
        )
    return outcome


def _commit(
    plan: PrPlan,
    request: GenerateRequest,
    worktree: git.Repo,
    worktree_path: Path,
    report: dict[str, Any],
) -> PrOutcome:
    """Commit the run's new or changed case files and the manifest (no commit: none)."""
    _fix_manifest_projects(plan, request, worktree_path, report)
    files = _files_to_commit(plan, worktree, worktree_path, report)
    repo_report = _map_paths(report, lambda p: _repo_path(plan, p, worktree_path))
    outcome = PrOutcome(
        report=_map_paths(report, lambda p: plan.display_path(p, worktree_path)),
        repo_report=repo_report,
        branch=None,
        base=plan.base,
        base_commit=plan.base_sha,
    )
    if any(f in _case_paths(repo_report) for f in files):
        outcome.commit = _git.commit_files(
            worktree, files, commit_message(request.targets, repo_report, files)
        )
        outcome.branch, outcome.files = plan.branch, files
    return outcome


def _check(plan: PrPlan, request: GenerateRequest, worktree_path: Path, outcome: PrOutcome) -> None:
    """Validate (and with --run, run) the committed cases, then describe them."""
    project = (plan.cwd / request.project).resolve()
    case_files = [worktree_path / f for f in outcome.files or [] if f != plan.manifest]
    outcome.validation = validate_paths(case_files, project=project)
    if plan.options.run:
        outcome.run = run_new_cases(
            case_files,
            target=plan.options.run,
            project=project,
            model=request.model,
            results_dir=plan.root / DESCRIPTIONS_DIR / (_slug(plan.branch) + "-runs"),
            display=lambda p: _repo_path(plan, p, worktree_path),
        )
        if outcome.run.results_dir:
            outcome.run.results_dir = os.path.relpath(outcome.run.results_dir, plan.cwd)
    outcome.description = describe(
        DescriptionInput(
            branch=plan.branch,
            base=plan.base,
            base_sha=plan.base_sha,
            targets=request.targets,
            project=_repo_or_given(plan, request.project),
            dialect=request.dialect,
            report=outcome.repo_report,
            committed=outcome.files or [],
            validation=[(_repo_path(plan, r.path, worktree_path), r) for r in outcome.validation],
            run=outcome.run,
            dirty_definitions=plan.dirty_definitions,
            review=_review(case_files, project, lambda p: _repo_path(plan, p, worktree_path)),
        )
    )


def _review(
    case_files: list[Path], project: Path, display: Callable[[str], str]
) -> list[tuple[str, list[Any]]]:
    """`casegen review`'s rule comments on the committed cases (no model), per file."""
    from ..review import review_paths  # start-up: 105 casegen modules

    report = asyncio.run(review_paths(case_files, project=project))
    return [(display(f.path), list(f.comments)) for f in report.files if f.comments]


def write_description(root: Path, branch: str, text: str) -> Path:
    """`.casegen/pr/<branch, '/' → '-'>.md` in the repository (`.casegen/` ignores itself)."""
    folder = ensure_dir(root / DESCRIPTIONS_DIR)
    path = folder / (_slug(branch) + ".md")
    path.write_text(text, encoding="utf-8")
    return path


def _slug(branch: str) -> str:
    return branch.replace("/", "-")


def _files_to_commit(
    plan: PrPlan, worktree: git.Repo, worktree_path: Path, report: dict[str, Any]
) -> list[str]:
    """The case files this run created or rewrote, and the manifest, if git sees a change."""
    wanted = {
        rel
        for case in report["cases"]
        if case["status"] in WRITTEN
        and (rel := plan.relative_to_worktree(case["path"], worktree_path)) is not None
    } | {plan.manifest}
    return [p for p in _git.changed_paths(worktree, plan.touched) if p in wanted]


def _fix_manifest_projects(
    plan: PrPlan, request: GenerateRequest, worktree_path: Path, report: dict[str, Any]
) -> None:
    """Point the new manifest entries at the project as seen from the committed manifest.

    Generation recorded the project relative to the worktree's manifest, i.e. as a path out
    of the temporary folder into the person's tree; on the branch it must be the path a
    checkout of the branch resolves.
    """
    manifest_file = worktree_path / plan.manifest
    if not manifest_file.is_file():
        return
    manifest = load_manifest(manifest_file)
    folder = (plan.root / plan.manifest).parent
    project = (plan.cwd / request.project).resolve()
    try:
        ref = project.relative_to(folder).as_posix()
    except ValueError:
        ref = Path(os.path.relpath(project, folder)).as_posix()
    base = manifest_file.parent.resolve()
    keys = set()
    for case in report["cases"]:
        try:
            keys.add(Path(case["path"]).resolve().relative_to(base).as_posix())
        except ValueError:
            continue
    changed = False
    for key in keys & set(manifest.cases):
        if manifest.cases[key].project != ref:
            manifest.cases[key] = manifest.cases[key].model_copy(update={"project": ref})
            changed = True
    if changed:
        save_manifest(manifest_file, manifest)


def _repo_path(plan: PrPlan, path: str | Path, worktree_path: Path) -> str:
    """Repository-relative: a worktree file, or a file of the person's tree (a suite case)."""
    rel = plan.relative_to_worktree(path, worktree_path)
    if rel is not None:
        return rel
    try:
        return Path(path).resolve().relative_to(plan.root).as_posix()
    except ValueError:
        return str(path)


def _repo_or_given(plan: PrPlan, project: str) -> str:
    resolved = (plan.cwd / project).resolve()
    try:
        return resolved.relative_to(plan.root).as_posix()
    except ValueError:
        return project


def _case_paths(report: dict[str, Any]) -> set[str]:
    return {c["path"] for c in report["cases"] if c["status"] in WRITTEN}


def _map_paths(report: dict[str, Any], mapper: Callable[[str], str]) -> dict[str, Any]:
    """A copy of the report with every worktree path rewritten by `mapper`."""
    mapped = copy.deepcopy(report)
    for case in mapped["cases"]:
        case["path"] = mapper(case["path"])
    mapped["conflicts"] = [mapper(p) for p in mapped["conflicts"]]
    for dup in mapped["duplicates"]:
        label, sep, rest = str(dup["duplicate_of"]).partition("#")
        if Path(label).is_absolute():
            dup["duplicate_of"] = mapper(label) + sep + rest
    return mapped
