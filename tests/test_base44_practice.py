"""A skill about how code work is done (its samples are tests, its "when to use" list names
kinds of work) is tested by doing that work on a starter project: one prompt per kind of work
it names, the starter `project/` written beside the fixture, and checks a correct agent passes
while an agent that changes nothing, or does the work without a test, fails."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from agentflows.drafting.offline._base44_practice import draft_practice
from agentflows.generate._starter import write_starters
from agentflows.planning import Behavior
from agentflows.planning._base44 import plan_base44
from agentflows.planning._base44_practice import practice_tasks
from agentflows.planning.base44_starter import STARTER_FILES
from evalcore.definitions import load_project

PRACTICE_SKILL = """---
name: careful-changes
description: Use when fixing a bug or adding new features to a program
---
# Careful changes

## When to use

- Bug fixes
- New features
- Refactoring

## Example

```python
def test_total_counts_every_line():
    assert total([(2, 3)]) == 6
```
"""

#: A correct agent's work on the starter: every change, each pinned by a test.
FIXED = {
    "cart.py": (
        STARTER_FILES["cart.py"]
        .replace("total += price\n", "total += price * quantity\n")
        .split("\n\ndef receipt_line")[0]
        + """

def receipt_line(name, cents):
    sign = "-" if cents < 0 else ""
    return f"{name}: {sign}${abs(cents) // 100}.{abs(cents) % 100:02d}"


def shipping(amount):
    return 0 if amount >= 5000 else 499
"""
    ),
    "tests/test_changes.py": """import unittest

from cart import receipt_line, shipping, subtotal


class ChangesTest(unittest.TestCase):
    def test_quantity(self):
        self.assertEqual(subtotal([(250, 2)]), 500)

    def test_shipping(self):
        self.assertEqual(shipping(5000), 0)
        self.assertEqual(shipping(4999), 499)

    def test_refund_line(self):
        self.assertEqual(receipt_line("Refund", -505), "Refund: -$5.05")
""",
}


def _skill_project(root: Path, body: str = PRACTICE_SKILL) -> Path:
    folder = root / "skills" / "careful-changes"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(body, "utf-8")
    return root


def test_a_practice_skill_gets_one_prompt_per_kind_of_work_it_names(tmp_path: Path) -> None:
    project = load_project(_skill_project(tmp_path))
    skill = project.agent_skills.skills["careful-changes"]
    assert [(p.kind, p.line) for p in practice_tasks(skill)] == [
        ("bug_fix", 3),
        ("feature", 3),
        ("refactor", 11),
    ]
    plan = plan_base44(project, "careful-changes", direction=None)
    practices = [b for b in plan.behaviors if b.facts["kind"] == "practice"]
    assert [b.case for b in practices] == ["bug_fix", "feature", "refactor"]
    assert all(b.type == "happy_path" for b in practices)
    assert "practice:refactor" in plan.elements
    # no file-writing task is asked of it besides (its description names no product)
    assert not [b for b in plan.behaviors if b.facts["kind"] == "task"]


def test_kinds_of_work_without_test_samples_are_not_a_practice(tmp_path: Path) -> None:
    body = PRACTICE_SKILL.replace("def test_total_counts_every_line():\n    assert ", "print(")
    project = load_project(_skill_project(tmp_path, body.replace("== 6", ")")))
    assert practice_tasks(project.agent_skills.skills["careful-changes"]) == []


def _run(command: str, cwd: Path) -> bool:
    done = subprocess.run(["/bin/sh", "-c", command], cwd=cwd, capture_output=True, check=False)
    return done.returncode == 0


@pytest.fixture(scope="module")
def drafts() -> dict[str, list[dict]]:
    return {kind: draft_practice({"work": kind})[1] for kind in ("bug_fix", "feature", "refactor")}


def _passes(drafts: dict[str, list[dict]], files: dict[str, str], root: Path) -> dict:
    shutil.rmtree(root, ignore_errors=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    return {kind: [_run(c["command"], root) for c in checks] for kind, checks in drafts.items()}


def test_checks_fail_an_idle_agent_and_pass_a_correct_one(
    drafts: dict[str, list[dict]], tmp_path: Path
) -> None:
    for checks in drafts.values():
        assert {c["type"] for c in checks} == {"command-passes"}
        json.dumps(checks)
    # Changing nothing: the work is not done (or, for a refactoring, no test pins it and the
    # code still repeats itself).
    idle = _passes(drafts, STARTER_FILES, tmp_path / "idle")
    assert idle == {
        "bug_fix": [False, True, False],
        "feature": [False, True, False],
        "refactor": [True, True, False, False],
    }
    correct = _passes(drafts, {**STARTER_FILES, **FIXED}, tmp_path / "correct")
    assert all(all(v) for v in correct.values()), correct
    # The work done with no test written: only the test-first check fails.
    untested = {**STARTER_FILES, "cart.py": FIXED["cart.py"]}
    done = _passes(drafts, untested, tmp_path / "untested")
    assert {k: v[2] for k, v in done.items()} == dict.fromkeys(drafts, False)
    assert all(v[:2] == [True, True] for v in done.values())
    # Tests added, the refactoring not done: only the check on the code fails.
    pin = (
        "import unittest\n\nfrom cart import receipt_line\n\n\n"
        "class PinTest(unittest.TestCase):\n    def test_refund(self):\n"
        '        self.assertEqual(receipt_line("R", -505), "R: -$5.05")\n'
    )
    tests_only = {**STARTER_FILES, "tests/test_pin.py": pin}
    pinned = _passes(drafts, tests_only, tmp_path / "tests-only")
    assert pinned["refactor"] == [True, True, True, False]


def _behavior(starter: dict[str, str]) -> Behavior:
    return Behavior(
        id="s:b",
        source="s",
        dialect="base44",
        type="happy_path",
        case="b",
        title="t",
        description="d",
        facts={"starter": starter},
    )


def test_starter_files_go_into_project_beside_the_case_and_keep_a_persons_edit(
    tmp_path: Path,
) -> None:
    case_file = tmp_path / "fixture" / "eval.json"
    statuses = write_starters(case_file, [_behavior({"a.py": "x = 1\n", "tests/t.py": ""})])
    assert statuses == {"a.py": "created", "tests/t.py": "created"}
    assert (tmp_path / "fixture" / "project" / "a.py").read_text("utf-8") == "x = 1\n"
    (tmp_path / "fixture" / "project" / "a.py").write_text("x = 2\n", "utf-8")
    again = write_starters(case_file, [_behavior({"a.py": "x = 1\n", "tests/t.py": ""})])
    assert again == {"a.py": "conflict", "tests/t.py": "unchanged"}
    assert (tmp_path / "fixture" / "project" / "a.py").read_text("utf-8") == "x = 2\n"
    with pytest.raises(Exception, match="outside"):
        write_starters(case_file, [_behavior({"../../escape.py": ""})])


def test_generate_writes_the_starter_beside_the_practice_prompts(
    tmp_path: Path, run_cli_json, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    root = _skill_project(tmp_path / "repo")
    out = tmp_path / "out"
    code, report = run_cli_json(
        "generate", "all", "--project", root, "--model", "offline", "--out", out
    )
    assert code == 0, report
    fixture = out  # one skill: its fixture is the out folder itself
    data = json.loads((fixture / "eval.json").read_text("utf-8"))
    names = [p["name"] for p in data["prompts"]]
    assert names[:3] == [f"careful-changes-{k}" for k in ("bug-fix", "feature", "refactor")]
    written = sorted(p.relative_to(fixture).as_posix() for p in fixture.rglob("*.py"))
    assert written == ["project/cart.py", "project/tests/__init__.py", "project/tests/test_cart.py"]
