"""Opening the pull request itself: `gh pr create` when GitHub's CLI can, else the command.

GitHub's CLI is the norm for this and already holds the person's credentials, so casegen
asks it rather than the API. `gh` must be on PATH and logged in (`gh auth status` exits 0),
and the branch must be on a remote (`--push REMOTE`): otherwise casegen prints the exact
commands that would do it, and opens nothing.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: Seconds `gh` gets per call (it talks to GitHub).
GH_TIMEOUT_S = 60


@dataclass
class PullRequest:
    """What `--pr` did about the pull request."""

    command: str
    """The `gh pr create` command line (run, or for the person to run)."""
    opened: bool = False
    url: str | None = None
    reason: str | None = None
    """Why it was not opened (no gh, not logged in, not pushed, gh failed)."""
    push_command: str | None = None
    """The push that has to come first, when the branch is not on a remote yet."""

    def to_json(self) -> dict[str, object]:
        return {
            "opened": self.opened,
            "url": self.url,
            "command": self.command,
            "push_command": self.push_command,
            "reason": self.reason,
        }


def gh_args(*, branch: str, base: str | None, title: str, body_file: Path) -> list[str]:
    args = ["gh", "pr", "create", "--head", branch, "--title", title]
    if base:
        args += ["--base", base]
    return [*args, "--body-file", str(body_file)]


def gh_ready(cwd: Path) -> str | None:
    """None when `gh` is installed and logged in, else why not."""
    if shutil.which("gh") is None:
        return "gh (GitHub's CLI) is not installed"
    try:
        status = subprocess.run(
            ["gh", "auth", "status"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=GH_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"gh auth status failed: {exc}"
    if status.returncode != 0:
        return "gh is not logged in (gh auth login)"
    return None


def open_pull_request_with_gh(
    *,
    cwd: Path,
    branch: str,
    base: str | None,
    title: str,
    body_file: Path,
    pushed_to: str | None,
) -> PullRequest:
    """Open the PR with `gh` when it can be; the command either way."""
    args = gh_args(branch=branch, base=base, title=title, body_file=body_file)
    request = PullRequest(command=shlex.join(args))
    if pushed_to is None:
        request.push_command = shlex.join(["git", "push", "-u", "origin", branch])
        request.reason = "the branch is not pushed (pass --push REMOTE to push and open it)"
        return request
    why = gh_ready(cwd)
    if why is not None:
        request.reason = why
        return request
    try:
        done = subprocess.run(
            args, cwd=cwd, capture_output=True, text=True, timeout=GH_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        request.reason = f"gh pr create failed: {exc}"
        return request
    if done.returncode != 0:
        message = " ".join((done.stderr or done.stdout).split())[:300]
        request.reason = f"gh pr create failed (exit {done.returncode}): {message}"
        return request
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    request.opened, request.url = True, (lines[-1] if lines else None)
    return request


__all__ = ["PullRequest", "gh_args", "gh_ready", "open_pull_request_with_gh"]
