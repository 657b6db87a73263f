"""Everything `--pr` decides and checks before it writes anything.

The person asks for cases at paths in *their* working tree (`generated_cases/...` below the
current folder, or `--out`). The flow writes the same repository-relative paths inside a
temporary worktree instead, so the branch holds exactly what a plain run would have written,
and the person's checkout, index and current branch are never touched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import git

from evalcore.definitions import Project, load_project
from evalcore.errors import UserError
from evalcore.manifest import manifest_path_for

from ..generate import GenerateRequest
from . import _git
from ._run import check_run_target


@dataclass(frozen=True)
class PrOptions:
    """The `--pr` family of options."""

    branch: str | None = None
    base: str = "HEAD"
    push: str | None = None
    """Remote to push the branch to; nothing is pushed without it."""
    run: str | None = None
    """Agent target (`casegen run --target` spec) to run the new cases against."""


@dataclass(frozen=True)
class PrPlan:
    """A checked plan: where the branch starts, what it may touch, where things go."""

    repo: git.Repo
    root: Path
    """The person's repository root (resolved)."""
    cwd: Path
    branch: str
    base: str
    """The base as given, or the current branch's name for the default HEAD."""
    base_sha: str
    out_dirs: tuple[str, ...]
    """Output folders, repository-relative (posix)."""
    manifest: str
    """The manifest the run updates, repository-relative (posix)."""
    options: PrOptions
    dirty_definitions: tuple[str, ...] = field(default=())
    """Uncommitted definition files the cases are drafted from (a warning, not a refusal)."""

    @property
    def touched(self) -> list[str]:
        """Every path the run may write: the output folders and the manifest."""
        return [*self.out_dirs, self.manifest]

    def in_worktree(self, request: GenerateRequest, worktree: Path) -> GenerateRequest:
        """The request with its outputs moved to the same places inside `worktree`.

        Absolute paths, because generation resolves relative ones against the current
        folder, which stays the person's. The project is still read from the person's tree.
        """
        cases_root = self._repo_relative(self.cwd / request.cases_root)
        update: dict[str, str | None] = {"cases_root": str(worktree / cases_root)}
        if request.out:
            update["out"] = str(worktree / self._repo_relative(self.cwd / request.out))
        return request.model_copy(update=update)

    def display_path(self, path: str | Path, worktree: Path) -> str:
        """A worktree path as the person would have seen it without --pr (cwd-relative)."""
        rel = self.relative_to_worktree(path, worktree)
        if rel is None:
            return str(path)
        return os.path.relpath(self.root / rel, self.cwd)

    @staticmethod
    def relative_to_worktree(path: str | Path, worktree: Path) -> str | None:
        try:
            return Path(path).resolve().relative_to(worktree.resolve()).as_posix()
        except ValueError:
            return None

    def _repo_relative(self, path: Path) -> str:
        return _inside(self.root, path)


def _inside(root: Path, path: Path) -> str:
    resolved = path.resolve()
    try:
        return resolved.relative_to(root).as_posix()
    except ValueError:
        raise UserError(
            f"{path} is outside the repository {root}; --pr can only commit files inside it",
            hint="choose an --out folder inside the repository",
        ) from None


def default_branch_name(targets: list[str], now: datetime | None = None) -> str:
    """`casegen/<first target or all>-<YYYYmmdd-HHMMSS>`."""
    label = "all" if not targets or "all" in targets else targets[0]
    return f"casegen/{label}-{(now or datetime.now()):%Y%m%d-%H%M%S}"


def prepare_pr(
    request: GenerateRequest, options: PrOptions, *, targets: list[str], cwd: Path | None = None
) -> PrPlan:
    """Check everything that would make the PR flow fail or overwrite someone's work.

    Raises UserError (exit 2) before anything is written when: the folder is not in a git
    repository, the base names no commit, the branch exists, the remote is unknown, an output
    folder is outside the repository or gitignored, or any file under the output folders (or
    the manifest) has uncommitted changes: staged, unstaged or untracked; or the `--run`
    target names no agent.
    """
    cwd = (cwd or Path.cwd()).resolve()
    repo = _git.open_repo(cwd)
    root = _git.repo_root(repo)
    base_sha = _git.resolve_commit(repo, options.base)
    branch = options.branch or default_branch_name(targets)
    _git.check_branch_name(repo, branch)
    if options.push:
        _git.check_remote(repo, options.push)
    out_dirs = sorted({_inside(root, cwd / request.out_dir(source)) for source in request.targets})
    # where the run writes it: `--out DIR` for several targets keeps one manifest in DIR
    manifest_home = request.manifest_root() or request.out_dir(request.targets[0])
    manifest = _inside(root, manifest_path_for(cwd / manifest_home))
    ignored = _git.ignored_paths(repo, [f"{d}/" for d in out_dirs] + [manifest])
    if ignored:
        raise UserError(
            "the output is gitignored, so it cannot be committed: " + ", ".join(ignored),
            hint="choose another --out folder, or stop ignoring it",
        )
    dirty = _git.changed_paths(repo, [*out_dirs, manifest])
    if dirty:
        shown = ", ".join(dirty[:8]) + (f" (+{len(dirty) - 8} more)" if len(dirty) > 8 else "")
        raise UserError(
            f"uncommitted changes where the cases would be written: {shown}",
            hint="commit, stash or remove them first; the branch must not hide your edits",
        )
    project = load_project((cwd / request.project).resolve())
    if options.run:
        check_run_target(options.run, project)
    dirty_definitions = _dirty_definitions(repo, root, project)
    return PrPlan(
        repo=repo,
        root=root,
        cwd=cwd,
        branch=branch,
        base=_git.describe_base(repo, options.base),
        base_sha=base_sha,
        out_dirs=tuple(out_dirs),
        manifest=manifest,
        options=options,
        dirty_definitions=dirty_definitions,
    )


def _dirty_definitions(repo: git.Repo, root: Path, project: Project) -> tuple[str, ...]:
    """Definition files of the project with uncommitted changes (repository-relative).

    The cases are drafted from the working tree, so the branch's manifest records their
    hashes, not the committed ones; the description warns about it.
    """
    folder = project.root.resolve()
    if folder != root and root not in folder.parents:
        return ()
    prefix = folder.relative_to(root).as_posix()
    definitions = {s.path if prefix == "." else f"{prefix}/{s.path}" for s in project.sources}
    return tuple(p for p in _git.changed_paths(repo, [prefix]) if p in definitions)
