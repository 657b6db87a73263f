"""`--pr` opens the pull request with `gh` when it is installed and logged in, else prints
the exact commands; the description carries the run's caveats and the review findings."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from test_pr_flow import (  # noqa: F401  (repo, stub_generation: a fresh repository)
    generate_pr,
    git,
    make_repo,
    repo,
    stub_generation,
)

FAKE_GH = """#!/bin/sh
echo "$@" >> "{log}"
if [ "$1" = "auth" ]; then exit {auth}; fi
if [ "$1" = "pr" ] && [ "$2" = "create" ]; then
  echo "Creating pull request for casegen/x into main"
  echo "https://github.example/acme/bank/pull/7"
  exit 0
fi
exit 1
"""


def fake_gh(folder: Path, *, logged_in: bool = True) -> Path:
    """A `gh` on PATH that logs its arguments (and a PATH with git next to it)."""
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "gh.log"
    script = folder / "gh"
    script.write_text(FAKE_GH.format(log=log, auth=0 if logged_in else 1), encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return log


@pytest.fixture
def pushed_repo(repo: Path, tmp_path: Path) -> Path:  # noqa: F811
    assert tmp_path in repo.parents  # never the checkout the tests run from
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    return repo


def _path_with(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")


def test_gh_opens_the_pull_request_after_the_push(
    pushed_repo: Path, tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = fake_gh(tmp_path / "bin")
    _path_with(monkeypatch, tmp_path / "bin")
    code, payload, err = generate_pr(run_cli, "--branch", "casegen/x", "--push", "origin")
    assert code == 0, err
    request = payload["pr"]["pull_request"]
    assert request["opened"] is True
    assert request["url"] == "https://github.example/acme/bank/pull/7"
    calls = log.read_text(encoding="utf-8").splitlines()
    assert calls[0] == "auth status"
    create = calls[1]
    assert create.startswith("pr create --head casegen/x --title Draft 2 test cases for")
    assert "--base main" in create
    assert create.endswith(f"--body-file {payload['pr']['description_path']}")


def test_gh_not_logged_in_prints_the_command(
    pushed_repo: Path, tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = fake_gh(tmp_path / "bin", logged_in=False)
    _path_with(monkeypatch, tmp_path / "bin")
    code, payload, _ = generate_pr(run_cli, "--branch", "casegen/y", "--push", "origin")
    assert code == 0
    request = payload["pr"]["pull_request"]
    assert request["opened"] is False and "not logged in" in request["reason"]
    assert request["command"].startswith("gh pr create --head casegen/y --title ")
    assert "pr create" not in log.read_text(encoding="utf-8")


def test_without_gh_or_push_the_exact_commands_are_printed(
    repo: Path,  # noqa: F811
    tmp_path: Path,
    run_cli,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bin_dir = tmp_path / "only-git"
    bin_dir.mkdir()
    (bin_dir / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
    monkeypatch.setenv("PATH", str(bin_dir))
    code, out, err = run_cli(
        *("generate", "card_replace", "--project", "bank", "--model", "offline"),
        *("--pr", "--branch", "casegen/z"),
        "--no-verify",  # the stub drafts are about the branch, not what the agent does
    )
    assert code == 0, err
    assert "pull request not opened" in out and "not pushed" in out
    assert "git push -u origin casegen/z" in out
    assert "gh pr create --head casegen/z --title" in out and "--body-file" in out


# --- the description's caveats and review findings -----------------------------------------


@pytest.fixture
def real_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with the bank example, planned and drafted for real (offline)."""
    folder = make_repo(tmp_path / "repo")
    monkeypatch.chdir(folder)
    return folder


def test_description_carries_caveats_and_review_findings(real_repo: Path, run_cli) -> None:
    _code, out, err = run_cli(
        *("generate", "card_replace", "--project", "bank", "--model", "offline"),
        *("--count", "3", "--pr", "--branch", "casegen/caveats", "--run", "demo:bank", "--json"),
    )
    payload = json.loads(out)
    assert payload["pr"]["branch"] == "casegen/caveats", err
    text = Path(payload["pr"]["description_path"]).read_text(encoding="utf-8")
    runs = payload["pr"]["run"]["runs"]
    passed = sum(r["status"] == "passed" for r in runs)
    caveats = text.split("## Caveats", 1)[1].split("\n## ", 1)[0]
    assert "offline drafter" in caveats
    assert f"{len(runs)}/{len(runs)} runs used the offline scripted simulator" in caveats
    if passed:
        assert f"{passed} passing run(s) cover the assertions only" in caveats
        assert (
            f"{passed}/{len(runs)} runs passed on assertions only (no judge model) with the "
            "offline scripted simulator"
        ) in text
    assert "## Review findings" in text and "`casegen review` (rules)" in text
    # a committed case that runs a tool acting on a real service is named in the caveats
    outside = [c for c in payload["cases"] if c.get("outside")]
    assert outside, "the bank's card tools post to its API"
    for case in outside:
        tool = case["outside"][0]["tool"]
        assert f"- `{tool}` acts on a real service" in caveats
        assert f"`{case['path']}`" in caveats.split(f"- `{tool}` acts", 1)[1].split("\n")[0]
