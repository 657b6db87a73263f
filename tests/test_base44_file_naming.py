"""A skill that quotes no trigger phrases but prescribes where a kind of file lives, in a line
with a braced placeholder, gets a prompt asking for one such file; a WRONG → CORRECT table
under a heading that names its subject gets an adversarial prompt for that subject (one per
such table), with pairs whose correct forms differ first, each check written once, and no
check rejecting a wrong form that the runner's case-blind match finds in the correct one; a
file the skill checks for before acting is in each such prompt's starter `project/`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._base44 import draft_base44
from agentflows.drafting.offline._base44_patterns import code_pattern, declared_names
from agentflows.planning._base44 import plan_base44
from agentflows.planning.base44_skillmd import read_skill
from evalcore.definitions import Project, load_project

_NAMING = """---
name: records
description: The records tool is used for everything about records and bots.
---

# Records

1. Check if `app/config.jsonc` exists in the current directory

**config.jsonc example:**
```jsonc
{ "name": "My App" // required
}
```

## Record schema

Each record is a JSONC file.

**File naming:** `app/records/{kebab-case-name}.jsonc` (e.g., `team-member.jsonc` for `TeamMember`)

## Bot schema

A bot answers questions.

**File naming:** `app/bots/{bot_name}.jsonc` (e.g., `help_bot.jsonc`)

A page is written as a source file: `app/pages/{page_name}.tsx`.

```jsonc
// not a prescription: `app/other/{x}.jsonc` inside a code block
```
"""

_TABLE = """---
name: sdk
description: The sdk is the library for talking to the service.
---

# SDK

### Auth - WRONG vs CORRECT

| WRONG | CORRECT |
|---|---|
| `signInFast()` | `login('fast')` |
| `signInQuick()` | `login('fast')` |
| `makeUser()` | `register(data)` |
| `whoAmI()` | `me()` |

### Mail - WRONG vs CORRECT

| WRONG | CORRECT |
|---|---|
| `sendMail(to)` | `Core.SendMail({to})` |
| `mail.push(to)` | `Core.SendMail({to})` |
"""


def _project(tmp_path: Path, name: str, text: str) -> Project:
    folder = tmp_path / "skills" / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    return load_project(tmp_path)


def _draft(project: Project, name: str, kind: str) -> dict[str, Any]:
    plan = plan_base44(project, name, None)
    behavior = next(b for b in plan.behaviors if b.facts["kind"] == kind)
    eval_ = draft_base44(DraftContext(project, "base44", behavior))
    return eval_["prompts"][0]


def test_a_braced_placeholder_line_prescribes_a_resource(tmp_path: Path) -> None:
    project = _project(tmp_path, "records", _NAMING)
    skill = project.agent_skills.skills["records"]
    text = read_skill(project, skill, {"records"})
    assert [(r.kind, r.paths, r.name_case) for r in text.resources] == [
        ("record", ("app/records/<name>.jsonc",), "pascal"),
        ("bot", ("app/bots/<name>.jsonc",), "file"),
        ("page", ("app/pages/<name>.tsx",), "file"),
    ]
    plan = plan_base44(project, "records", None)
    # a named source file is not a definition: no prompt asks for a bare page
    assert [b.case for b in plan.behaviors if b.facts["kind"] == "resource"] == [
        "new_record",
        "new_bot",
    ]
    assert {"resource:record", "resource:bot"} <= set(plan.elements)
    assert "resource:page" not in plan.elements


def test_the_resource_prompt_names_what_the_file_is_named_after(tmp_path: Path) -> None:
    project = _project(tmp_path, "records", _NAMING)
    record = _draft(project, "records", "resource")
    paths = {c.get("filePath") for c in record["checks"]}
    assert paths == {"app/records/sample-record.jsonc"}
    names = [c["pattern"] for c in record["checks"] if c.get("pattern", "").startswith('"name"')]
    assert names == [r'"name"\s*:\s*"SampleRecord"']
    plan = plan_base44(project, "records", None)
    bot = next(b for b in plan.behaviors if b.case == "new_bot")
    prompt = draft_base44(DraftContext(project, "base44", bot))["prompts"][0]
    # the file is named after the bot: the person gives the name, the checks want it
    assert "sample_bot" in prompt["prompt"] and "None" not in prompt["prompt"]
    assert {c.get("filePath") for c in prompt["checks"]} == {"app/bots/sample_bot.jsonc"}
    assert any(c.get("pattern") == r'"name"\s*:\s*"sample_bot"' for c in prompt["checks"])


def test_the_adversarial_prompt_is_about_its_tables_subject(tmp_path: Path) -> None:
    project = _project(tmp_path, "sdk", _TABLE)
    entry = _draft(project, "sdk", "adversarial")
    assert "src/components/AuthTools.jsx" in entry["prompt"]
    assert "for auth" in entry["prompt"] and "records" not in entry["prompt"]
    # distinct correct forms first: fast login, register, me (not the second fast login)
    assert "`signInFast()`" in entry["prompt"] and "`makeUser()`" in entry["prompt"]
    assert "`whoAmI()`" in entry["prompt"] and "signInQuick" not in entry["prompt"]
    keys = [(c["type"], c.get("filePath"), c.get("pattern")) for c in entry["checks"]]
    assert len(keys) == len(set(keys))


def test_one_adversarial_prompt_per_titled_table(tmp_path: Path) -> None:
    project = _project(tmp_path, "sdk", _TABLE)
    plan = plan_base44(project, "sdk", None)
    cases = [b.case for b in plan.behaviors if b.facts["kind"] == "adversarial"]
    assert cases == ["wrong_auth_apis", "wrong_mail_apis"]
    mail = next(b for b in plan.behaviors if b.case == "wrong_mail_apis")
    entry = draft_base44(DraftContext(project, "base44", mail))["prompts"][0]
    assert "src/components/MailTools.jsx" in entry["prompt"]
    checks = {(c["type"], c.get("pattern")) for c in entry["checks"] if c.get("pattern")}
    # `sendMail\(` matches `Core.SendMail(` without case, as the runner matches: not checked
    assert checks == {
        ("file-content", r"Core\.SendMail\("),
        ("file-content-excluded", r"mail\.push\("),
    }


def test_a_correct_form_does_not_require_the_skills_variable_names() -> None:
    local = declared_names("const room = base44.actors.Room(id).connect();\nlet n = 1")
    assert local == {"room", "n"}
    # the binding is the agent's to name; the call is what the skill prescribes
    assert code_pattern("const conn = actors.Room(id).connect()", local) == r"actors\.Room\("
    # a call on the skill's own variable is wanted by its method alone ...
    assert code_pattern("room.subscribe(cb)", local) == r"\.subscribe\("
    # ... and an API's namespace is kept
    assert code_pattern("functions.invoke('x', data)", local) == r"functions\.invoke\("


def test_a_file_the_skill_checks_for_first_is_in_the_starter(tmp_path: Path) -> None:
    project = _project(tmp_path, "records", _NAMING)
    plan = plan_base44(project, "records", None)
    record = next(b for b in plan.behaviors if b.case == "new_record")
    # the prompt speaks of an existing project: it holds the file, as the skill shows it
    assert record.facts["starter"] == {"app/config.jsonc": '{ "name": "My App" // required\n}\n'}
    other = _project(
        tmp_path / "sdk",
        "sdk",
        _TABLE.replace("# SDK", "# SDK\n\nCheck whether `app/config.jsonc` exists."),
    )
    adversarial = next(
        b for b in plan_base44(other, "sdk", None).behaviors if b.facts["kind"] == "adversarial"
    )
    assert adversarial.facts["starter"] == {"app/config.jsonc": "{}\n"}
