"""The few git operations the pull-request flow needs, as small functions over gitpython.

Every command runs against an explicit repository or worktree path, so nothing here depends
on (or changes) the process's current directory, the person's index or their checkout.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import git
from git.exc import GitCommandError, InvalidGitRepositoryError, NoSuchPathError

from evalcore.errors import UserError


def open_repo(folder: Path) -> git.Repo:
    """The non-bare repository `folder` is in (UserError when there is none)."""
    try:
        repo = git.Repo(folder, search_parent_directories=True)
    except (InvalidGitRepositoryError, NoSuchPathError):
        raise UserError(
            f"{folder} is not in a git repository; --pr commits the drafted cases to a branch",
            hint="run it inside the repository the cases belong to, or drop --pr",
        ) from None
    if repo.bare or repo.working_tree_dir is None:
        raise UserError(f"{folder} is in a bare git repository; --pr needs a working tree")
    return repo


def repo_root(repo: git.Repo) -> Path:
    return Path(str(repo.working_tree_dir)).resolve()


def resolve_commit(repo: git.Repo, ref: str) -> str:
    """The commit sha `ref` names (UserError when it names none)."""
    try:
        return repo.git.rev_parse("--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    except GitCommandError:
        raise UserError(
            f"base '{ref}' does not name a commit in {repo_root(repo)}",
            hint="pass --base with a branch, tag or commit that exists (default: HEAD)",
        ) from None


def describe_base(repo: git.Repo, ref: str) -> str:
    """`ref`, except that HEAD on a branch is named by the branch (`main`, not `HEAD`)."""
    if ref != "HEAD" or repo.head.is_detached:
        return ref
    return repo.active_branch.name


def check_branch_name(repo: git.Repo, branch: str) -> None:
    try:
        repo.git.check_ref_format("--branch", branch)
    except GitCommandError:
        raise UserError(f"'{branch}' is not a valid branch name") from None
    if branch_exists(repo, branch):
        raise UserError(
            f"branch '{branch}' already exists",
            hint="pass another --branch NAME, or delete the old branch first",
        )


def branch_exists(repo: git.Repo, branch: str) -> bool:
    try:
        repo.git.show_ref("--verify", "--quiet", f"refs/heads/{branch}")
    except GitCommandError:
        return False
    return True


def check_remote(repo: git.Repo, remote: str) -> None:
    names = [r.name for r in repo.remotes]
    if remote not in names:
        raise UserError(
            f"no git remote named '{remote}'",
            hint="remotes: " + (", ".join(names) if names else "none (git remote add NAME URL)"),
        )


def _pathspecs(paths: list[str]) -> list[str]:
    """Repository-relative paths as literal, top-anchored pathspecs (no glob surprises)."""
    return [f":(top,literal){p}" for p in paths]


def changed_paths(repo_or_worktree: git.Repo, paths: list[str]) -> list[str]:
    """Files under `paths` that differ from HEAD: staged, unstaged or untracked (not ignored).

    Returned repository-relative, posix, sorted.
    """
    if not paths:
        return []
    out = repo_or_worktree.git.status(
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--no-renames",
        "--",
        *_pathspecs(paths),
    )
    changed = {entry[3:] for entry in out.split("\0") if len(entry) > 3}
    return sorted(changed)


def ignored_paths(repo: git.Repo, paths: list[str]) -> list[str]:
    """Those of `paths` that .gitignore excludes (they could never be committed)."""
    ignored: list[str] = []
    for path in paths:
        try:
            repo.git.check_ignore("--quiet", "--no-index", "--", path)
        except GitCommandError:
            continue
        ignored.append(path)
    return ignored


def add_worktree(repo: git.Repo, folder: Path, branch: str, base_sha: str) -> git.Repo:
    """Create `branch` at `base_sha`, checked out in a new worktree at `folder`."""
    repo.git.worktree("add", "--quiet", "-b", branch, str(folder), base_sha)
    return git.Repo(folder)


def remove_worktree(repo: git.Repo, folder: Path) -> None:
    """Remove the worktree and its administrative files (the branch stays)."""
    # Already gone, or never fully created: prune below clears whatever is left.
    with contextlib.suppress(GitCommandError):
        repo.git.worktree("remove", "--force", str(folder))
    repo.git.worktree("prune")


def delete_branch(repo: git.Repo, branch: str) -> None:
    if branch_exists(repo, branch):
        repo.git.branch("-D", "--", branch)


def commit_files(worktree: git.Repo, files: list[str], message: str) -> str:
    """Stage exactly `files` in the worktree, commit them and return the new commit's sha."""
    worktree.git.add("--", *_pathspecs(files))
    try:
        worktree.git.commit("--quiet", "-m", message)
    except GitCommandError as exc:
        raise UserError(
            "git could not commit the drafted cases: " + _git_message(exc),
            hint="check `git config user.name` / `user.email` and any commit hooks",
        ) from None
    return worktree.git.rev_parse("HEAD")


def push_branch(repo: git.Repo, remote: str, branch: str) -> str | None:
    """Push `branch` to `remote` and track it; returns git's error text, or None on success."""
    try:
        ref = f"refs/heads/{branch}"
        repo.git.push("--quiet", "--set-upstream", remote, f"{ref}:{ref}")
    except GitCommandError as exc:
        return _git_message(exc)
    return None


def _git_message(exc: GitCommandError) -> str:
    text = (exc.stderr or str(exc)).strip()
    return text.removeprefix("stderr:").strip().strip("'").strip()
