"""`casegen generate --pr`: drafted cases on a new branch, the person's checkout untouched.

Each test works in a fresh git repository holding a copy of examples/bank. Planning and
drafting are replaced by a fixed planner and drafter (`stub_generation`): what these tests
check is the git side and the description, which do not depend on what is drafted.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES

from agentflows import planning
from agentflows.drafting import offline
from agentflows.planning import Behavior, Plan

CASES = "generated_cases/mantle/card_replace"
MANIFEST = "generated_cases/manifest.json"


# --- shared helpers (test_status.py uses them too) -----------------------------------------


def _plan(project: Any, source: str, direction: str | None) -> Plan:
    """Two behaviours per skill, each naming one of the skill's real responses."""
    responses = sorted(project.mantle.skills[source].responses)
    behaviors = [
        Behavior(
            id=f"{source}:{case}",
            source=source,
            dialect="mantle",
            type=kind,
            case=case,
            title=f"{source.replace('_', ' ')}: {case.replace('_', ' ')}",
            description=f"The customer {case.replace('_', ' ')}.",
            covers=[f"skill:{source}", f"response:{responses[i % len(responses)]}"],
            facts={"response": responses[i % len(responses)]},
            priority=i,
        )
        for i, (case, kind) in enumerate(
            [("asks_politely", "happy_path"), ("asks_about_weather", "out_of_scope")]
        )
    ]
    return Plan(
        source=source,
        dialect="mantle",
        behaviors=behaviors,
        elements=[f"skill:{source}"] + [f"response:{r}" for r in responses],
    )


def _draft(ctx: Any) -> dict[str, Any]:
    behavior = ctx.behavior
    return {
        "scenario": {
            "name": behavior.title,
            "type": behavior.type,
            "simulation_context": (
                f"You are a customer of Riverbend Bank ({behavior.id}). "
                f'1. Say: "I need help with {behavior.case.replace("_", " ")}". '
                '2. Say: "bye".'
            ),
            "goals": {
                "criteria": ["The agent does not invent account details"],
                "assertions": [
                    {"skill_activated": {"skill_id": behavior.source}},
                    {"bot_uttered": {"utter_name": behavior.facts["response"]}},
                    # a happy path shows the task got done (review before writing drops one
                    # that does not)
                    *(
                        [{"skill_completed": {"skill_id": behavior.source}}]
                        if behavior.type == "happy_path"
                        else []
                    ),
                ],
            },
        }
    }


@pytest.fixture
def stub_generation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planning, "_planner", lambda dialect: _plan)
    monkeypatch.setattr(offline, "_drafter", lambda dialect: _draft)


def git(repo: Path, *args: str, check: bool = True) -> str:
    result = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=check)
    return result.stdout.strip()


def make_repo(folder: Path) -> Path:
    """A repository with examples/bank at `bank/` and one commit on `main`."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(EXAMPLES / "bank", folder / "bank")
    (folder / ".gitignore").write_text(".casegen/\n")
    git(folder, "init", "-q", "-b", "main")
    git(folder, "config", "user.name", "Test Person")
    git(folder, "config", "user.email", "person@example.com")
    git(folder, "config", "commit.gpgsign", "false")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "initial")
    return folder


# --- fixtures ---------------------------------------------------------------------------


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stub_generation: None) -> Path:
    folder = make_repo(tmp_path / "repo")
    monkeypatch.chdir(folder)
    return folder


def snapshot(repo: Path) -> dict[str, Any]:
    """What must not change in the person's checkout."""
    return {
        "status": git(repo, "status", "--porcelain", "--untracked-files=all"),
        "head": git(repo, "rev-parse", "HEAD"),
        "branch": git(repo, "symbolic-ref", "--short", "HEAD"),
        "index": git(repo, "ls-files", "--stage"),
        "branches": git(repo, "branch", "--list", "--format=%(refname:short)"),
        "worktrees": git(repo, "worktree", "list", "--porcelain"),
        "files": sorted(str(p.relative_to(repo)) for p in repo.rglob("*") if ".git" not in p.parts),
    }


def generate_pr(run_cli, *args: str) -> tuple[int, dict[str, Any], str]:
    code, out, err = run_cli(
        "generate",
        "card_replace",
        "--project",
        "bank",
        "--model",
        "offline",
        "--pr",
        "--no-verify",  # the stub drafts are about the branch, not what the agent does
        *args,
        "--json",
    )
    return code, (json.loads(out) if out.strip() else {}), err


# --- the branch ---------------------------------------------------------------------------


def test_pr_commits_only_the_new_cases_and_manifest_on_a_new_branch(repo: Path, run_cli) -> None:
    before = snapshot(repo)
    base = git(repo, "rev-parse", "HEAD")

    code, payload, err = generate_pr(run_cli, "--branch", "casegen/review-me")

    assert code == 0, err
    pr = payload["pr"]
    assert pr["branch"] == "casegen/review-me"
    assert pr["base"] == "main" and pr["base_commit"] == base
    assert pr["pushed"] is False and pr["remote"] is None
    assert git(repo, "rev-parse", "casegen/review-me") == pr["commit"]
    assert git(repo, "rev-list", "--count", f"{base}..casegen/review-me") == "1"
    assert git(repo, "rev-parse", "casegen/review-me^") == base
    changed = git(repo, "diff", "--name-status", base, "casegen/review-me").splitlines()
    assert sorted(changed) == sorted(f"A\t{f}" for f in pr["files"])
    assert MANIFEST in pr["files"]
    cases = [f for f in pr["files"] if f != MANIFEST]
    assert len(cases) == 2 and all(f.startswith(CASES + "/") for f in cases)
    # The report names the files as a plain run would have (relative to the repository).
    assert sorted(c["path"] for c in payload["cases"]) == sorted(cases)
    assert pr["validation"] == {"files": 2, "valid": 2, "invalid": 0}

    message = git(repo, "log", "-1", "--format=%B", "casegen/review-me")
    assert message.startswith("Draft 2 test cases for card_replace")
    assert all(f"- {f}" in message for f in pr["files"])

    # The committed manifest points at the project as a checkout of the branch sees it.
    manifest = json.loads(git(repo, "show", f"casegen/review-me:{MANIFEST}"))
    assert {e["project"] for e in manifest["cases"].values()} == {"../bank"}

    # The person's checkout, index, HEAD, current branch and worktrees are as they were.
    after = snapshot(repo)
    assert set(after["branches"].split()) == {*before["branches"].split(), "casegen/review-me"}
    for key in ("status", "head", "branch", "index", "worktrees"):
        assert after[key] == before[key], key
    assert not (repo / "generated_cases").exists()


def test_pr_description_has_table_coverage_validation_and_checklist(repo: Path, run_cli) -> None:
    code, payload, _ = generate_pr(run_cli, "--branch", "casegen/describe")
    assert code == 0
    path = Path(payload["pr"]["description_path"])
    assert path == repo / ".casegen" / "pr" / "casegen-describe.md"
    text = path.read_text()
    assert text.startswith("# Drafted test cases: card_replace")
    assert "engine: offline" in text
    assert "| file | type | behaviour | assertions | criteria | repairs |" in text
    for case in payload["pr"]["files"][1:]:
        assert f"`{case}`" in text
    assert "## Coverage" in text and "uncovered: `response:" in text
    assert "All 2 committed case files pass" in text
    assert "## Reviewer checklist" in text and "- [ ] " in text
    assert "`setup.initial_slots`" in text
    assert "Not run." in text


def test_pr_prints_the_description_for_people(repo: Path, run_cli) -> None:
    code, out, _ = run_cli(
        "generate",
        "card_replace",
        "--project",
        "bank",
        "--model",
        "offline",
        "--pr",
        "--no-verify",
        "--branch",
        "casegen/printed",
    )
    assert code == 0
    assert "# Drafted test cases: card_replace" in out
    assert "## Reviewer checklist" in out
    assert "branch casegen/printed" in out


def test_default_branch_name_and_base(repo: Path, run_cli) -> None:
    first = git(repo, "rev-parse", "HEAD")
    (repo / "NOTES.md").write_text("later\n")
    git(repo, "add", "NOTES.md")
    git(repo, "commit", "-q", "-m", "later")

    code, payload, _ = generate_pr(run_cli, "--base", "HEAD~1")

    assert code == 0
    branch = payload["pr"]["branch"]
    assert re.fullmatch(r"casegen/card_replace-\d{8}-\d{6}", branch)
    assert payload["pr"]["base"] == "HEAD~1"
    assert git(repo, "rev-parse", f"{branch}^") == first
    assert "NOTES.md" not in git(repo, "ls-tree", "-r", "--name-only", branch)


def test_all_targets_name_the_branch_all(repo: Path, run_cli) -> None:
    code, out, _ = run_cli(
        "generate",
        "all",
        "--project",
        "bank",
        "--model",
        "offline",
        "--pr",
        "--no-verify",
        "--json",
    )
    assert code == 0
    assert json.loads(out)["pr"]["branch"].startswith("casegen/all-")


def test_nothing_new_makes_no_branch(repo: Path, run_cli) -> None:
    code, payload, _ = generate_pr(run_cli, "--branch", "casegen/first")
    assert code == 0
    git(repo, "merge", "-q", "--ff-only", "casegen/first")
    before = snapshot(repo)

    code, payload, _ = generate_pr(run_cli, "--branch", "casegen/second")

    assert code == 0  # nothing to propose is not a failure (the README tour does this)
    assert payload["pr"]["branch"] is None and "nothing to propose" in payload["pr"]["note"]
    assert all(c["status"] == "unchanged" for c in payload["cases"])
    assert snapshot(repo) == before


def test_a_crash_during_generation_leaves_no_branch_or_worktree(
    repo: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> Plan:
        raise RuntimeError("planner bug")

    monkeypatch.setattr(planning, "_planner", lambda dialect: broken)
    before = snapshot(repo)
    with pytest.raises(RuntimeError, match="planner bug"):
        generate_pr(run_cli, "--branch", "casegen/crash")
    after = snapshot(repo)
    # Generation's own checkpoint store (.casegen/, ignored) is the only thing left behind.
    after["files"] = [f for f in after["files"] if not f.startswith(".casegen")]
    assert after == before


# --- refusals -----------------------------------------------------------------------------


def _refused(repo: Path, run_cli, *args: str, message: str) -> None:
    before = snapshot(repo)
    code, payload, _ = generate_pr(run_cli, *args)
    assert code == 2
    assert set(payload) == {"error", "hint", "exit_code"}  # --json: only the error object
    assert message in " ".join(f"{payload['error']} {payload['hint']}".split())
    assert snapshot(repo) == before
    assert not (repo / ".casegen" / "pr").exists()


def test_refuses_outside_a_git_repository(
    tmp_path: Path, run_cli, stub_generation: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "plain"
    shutil.copytree(EXAMPLES / "bank", folder / "bank")
    monkeypatch.chdir(folder)
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    code, error, _ = generate_pr(run_cli)
    assert code == 2
    assert "not in a git repository" in error["error"]  # --json: the error object
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before


def test_refuses_a_base_that_does_not_exist(repo: Path, run_cli) -> None:
    _refused(repo, run_cli, "--base", "no-such-ref", message="base 'no-such-ref' does not")


def test_refuses_an_existing_branch(repo: Path, run_cli) -> None:
    git(repo, "branch", "casegen/taken")
    _refused(repo, run_cli, "--branch", "casegen/taken", message="already exists")


def test_refuses_an_unknown_remote(repo: Path, run_cli) -> None:
    _refused(repo, run_cli, "--push", "nowhere", message="no git remote named 'nowhere'")


def _commit_file(repo: Path, rel: str, text: str) -> Path:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(repo, "add", rel)
    git(repo, "commit", "-q", "-m", f"add {rel}")
    return path


def test_refuses_a_dirty_tracked_file_under_the_output_folder(repo: Path, run_cli) -> None:
    path = _commit_file(repo, f"{CASES}/hand_written.yml", "scenario: {}\n")
    path.write_text("scenario: {name: edited}\n")
    _refused(repo, run_cli, message=f"{CASES}/hand_written.yml")


def test_refuses_a_staged_change_to_a_file_it_would_write(repo: Path, run_cli) -> None:
    path = _commit_file(repo, MANIFEST, '{"version": 1, "cases": {}}\n')
    path.write_text('{"version": 1, "cases": {}, "x": 1}\n')
    git(repo, "add", MANIFEST)
    _refused(repo, run_cli, message=MANIFEST)


def test_refuses_an_unstaged_change_to_a_file_it_would_write(repo: Path, run_cli) -> None:
    path = _commit_file(repo, MANIFEST, '{"version": 1, "cases": {}}\n')
    path.write_text('{"version": 1, "cases": {}, "x": 1}\n')
    _refused(repo, run_cli, message=MANIFEST)


def test_refuses_an_untracked_file_where_cases_go(repo: Path, run_cli) -> None:
    (repo / CASES).mkdir(parents=True)
    (repo / CASES / "card_replace_asks_politely_happy_path.yml").write_text("scenario: {}\n")
    _refused(repo, run_cli, message="card_replace_asks_politely_happy_path.yml")


def test_pr_options_need_pr(repo: Path, run_cli) -> None:
    code, _, err = run_cli("generate", "card_replace", "--project", "bank", "--branch", "x")
    assert code == 2
    assert "--branch can only be used with --pr" in err


def test_uncommitted_definitions_are_flagged(repo: Path, run_cli) -> None:
    skill = repo / "bank" / "skills" / "card_replace" / "skill.md"
    skill.write_text(skill.read_text() + "\nOne more line.\n")
    code, payload, _ = generate_pr(run_cli, "--branch", "casegen/dirty-defs")
    assert code == 0
    text = Path(payload["pr"]["description_path"]).read_text()
    assert "uncommitted changes" in text and "`bank/skills/card_replace/skill.md`" in text


# --- push and run -------------------------------------------------------------------------


def test_push_sends_the_branch_to_the_remote(repo: Path, tmp_path: Path, run_cli) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))

    code, payload, _ = generate_pr(run_cli, "--branch", "casegen/kept-local")
    assert code == 0 and payload["pr"]["pushed"] is False
    assert git(repo, "ls-remote", "--heads", "origin") == ""

    code, payload, _ = generate_pr(run_cli, "--branch", "casegen/shared", "--push", "origin")
    assert code == 0
    assert payload["pr"]["pushed"] is True and payload["pr"]["remote"] == "origin"
    heads = git(repo, "ls-remote", "--heads", "origin")
    assert heads == f"{payload['pr']['commit']}\trefs/heads/casegen/shared"


def test_run_target_runs_the_new_cases(repo: Path, run_cli) -> None:
    runner = pytest.importorskip("evalcore.runner")
    testing = pytest.importorskip("evalcore.runner.testing")
    if not hasattr(runner, "target_override"):
        pytest.skip("runner without target_override")

    with runner.target_override(
        "echo", lambda spec: testing.FunctionTarget(testing.mantle_echo, spec=spec)
    ):
        code, payload, _ = generate_pr(run_cli, "--branch", "casegen/ran", "--run", "echo:bank")

    assert code == 0
    run = payload["pr"]["run"]
    assert run["target"] == "echo:bank" and run["note"] is None
    cases = sorted(f for f in payload["pr"]["files"] if f != MANIFEST)
    assert sorted(r["path"] for r in run["runs"]) == cases
    # The echo agent never activates card_replace: each run fails on that assertion.
    assert {r["status"] for r in run["runs"]} == {"failed"}
    text = Path(payload["pr"]["description_path"]).read_text()
    assert "Against `echo:bank`: 0/2 runs passed" in text
    assert "| file | result | detail |" in text


def test_run_refuses_an_unknown_target_before_writing(repo: Path, run_cli) -> None:
    pytest.importorskip("evalcore.runner")
    _refused(repo, run_cli, "--run", "nosuchscheme:x", message="nosuchscheme")


def test_all_targets_with_out_commit_the_one_manifest_in_out(repo: Path, run_cli) -> None:
    """`--out DIR` for several targets keeps their one manifest in DIR (DIR/<target>/ holds
    each target's cases): that manifest is what the branch commits and points at the project."""
    code, out, err = run_cli(
        "generate",
        *("all", "--project", "bank", "--model", "offline", "--out", "cases"),
        *("--pr", "--no-verify", "--branch", "casegen/all-out", "--json"),
    )
    assert code == 0, err
    pr = json.loads(out)["pr"]
    assert "cases/manifest.json" in pr["files"]
    targets = {f.split("/")[1] for f in pr["files"] if f != "cases/manifest.json"}
    assert len(targets) > 1 and all(f.startswith("cases/") for f in pr["files"])
    manifest = json.loads(git(repo, "show", "casegen/all-out:cases/manifest.json"))
    assert {e["project"] for e in manifest["cases"].values()} == {"../bank"}
