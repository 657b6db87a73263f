"""The offline base44 drafter: one valid, lint-clean, deterministic prompt per behaviour, with
checks whose regexes tell the skill's correct forms from its wrong ones."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._base44 import draft_base44
from agentflows.drafting.offline._base44_patterns import code_pattern, json_patterns, loose
from agentflows.planning import NOT_WRITTEN, Behavior
from agentflows.planning._base44 import plan_base44
from agentflows.planning.base44_skillmd import read_skill
from agentflows.planning.base44_targets import pair_kind
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.dialects.base44 import assemble, prompt_entries
from evalcore.validation import check_data

REPO = Path(__file__).resolve().parents[1]
SKILLS = load_project(REPO / "examples" / "skills")
DIALECT = get_dialect("base44")
BEHAVIORS = [
    b
    for name in sorted(SKILLS.agent_skills.skills)
    for b in plan_base44(SKILLS, name, None).behaviors
    if NOT_WRITTEN not in b.facts
]


def draft(behavior: Behavior, direction: str | None = None) -> dict[str, Any]:
    return draft_base44(DraftContext(SKILLS, "base44", behavior, direction=direction))


def entry(case_id: str, direction: str | None = None) -> dict[str, Any]:
    skill, _, _ = case_id.partition(":")
    behavior = next(b for b in plan_base44(SKILLS, skill, direction).behaviors if b.id == case_id)
    return draft(behavior, direction)["prompts"][0]


def js_search(pattern: str, text: str) -> bool:
    """The runner's `RegExp(pattern, "i")`, for the patterns the drafter writes."""
    return re.search(pattern, text, re.IGNORECASE) is not None


@pytest.mark.parametrize("behavior", BEHAVIORS, ids=lambda b: b.id)
def test_every_behaviour_drafts_one_valid_prompt(behavior: Behavior) -> None:
    data = draft(behavior)
    assert check_data(data, DIALECT, SKILLS) == []
    assert json.dumps(data) == json.dumps(draft(behavior))
    (prompt,) = data["prompts"]
    assert prompt["name"] == behavior.facts["prompt_name"]
    assert prompt["name"].startswith(behavior.source + "-")
    for check in prompt["checks"]:
        path = check.get("filePath")
        assert path is None or not (path.startswith("/") or ".." in path.split("/"))
        if "pattern" in check:
            re.compile(check["pattern"], re.IGNORECASE)


def test_merged_file_is_valid() -> None:
    for name in sorted(SKILLS.agent_skills.skills):
        entries = [e for b in BEHAVIORS if b.source == name for e in prompt_entries(draft(b))]
        merged = assemble(name, entries, SKILLS.agent_skills.skills[name].description)
        assert check_data(merged, DIALECT, SKILLS) == []
        assert len({e["name"] for e in merged["prompts"]}) == len(entries)


def test_pair_checks_tell_correct_from_wrong() -> None:
    """Each pair's file-content patterns match the skill's correct form, and each
    file-content-excluded pattern matches the wrong form but not the correct one."""
    for name in sorted(SKILLS.agent_skills.skills):
        pairs = read_skill(
            SKILLS, SKILLS.agent_skills.skills[name], set(SKILLS.agent_skills.skills)
        ).pairs
        for pair in (p for p in pairs if pair_kind(p) in ("json", "code")):
            correct, wrong = " ".join(pair.correct), " ".join(pair.wrong)
            json_pair = '":' in correct
            for form in pair.correct:
                for pattern in json_patterns(form) if json_pair else [code_pattern(form)]:
                    assert js_search(pattern, correct), (pattern, correct)
            for form in pair.wrong:
                for pattern in json_patterns(form) if json_pair else [code_pattern(form)]:
                    assert js_search(pattern, wrong), (pattern, wrong)
                    if not json_pair:
                        assert not js_search(pattern, correct), (pattern, correct)


def test_patterns() -> None:
    assert json_patterns('"type": "string"') == [r'"type"\s*:\s*"string"']
    assert json_patterns('"fields": { ... }') == [r'"fields"\s*:']
    assert json_patterns('"entrypoint": "index.ts"', keys_only={"entrypoint"}) == [
        r'"entrypoint"\s*:'
    ]
    assert code_pattern("base44.entities.Todo.filter({...})") == r"Todo\.filter\("
    assert code_pattern("export default async function handler(req)") == (
        r"export\s+default\s+async\s+function\b"
    )
    assert loose('import { a } from "b"') == r"""import\s*\{\s*a\s*\}\s*from\s*['"]b['"]"""


def test_entity_prompt() -> None:
    prompt = entry("base44-cli:create_entity")
    assert prompt["expectedSkills"] == ["base44-cli"]
    types = [(c["type"], c.get("pattern") or c.get("value")) for c in prompt["checks"]]
    assert types[:4] == [
        ("file-exists", None),
        ("valid-json", None),
        ("entity-config", None),
        ("file-content", r'"name"\s*:\s*"Note"'),
    ]
    assert ("file-content-excluded", r'"fields"\s*:') in types
    assert ("file-content-excluded", r'"type"\s*:\s*"date"') in types
    assert types[-1] == ("contains", "npx base44 entities push")


def test_function_and_code_prompts() -> None:
    function = entry("base44-cli:add_backend_function")
    paths = {c.get("filePath") for c in function["checks"]}
    assert {
        "base44/functions/archive-note/function.jsonc",
        "base44/functions/archive-note/index.ts",
    } <= paths
    assert any(c["type"] == "function-def" for c in function["checks"])
    code = entry("base44-sdk:list_todos")
    assert "src/components/ListTodos.jsx" in code["prompt"] and "filter()" in code["prompt"]
    patterns = [c.get("pattern") for c in code["checks"]]
    assert r"Todo\.filter\(" in patterns and r"Todo\.find\(" in patterns


def test_route_negative_and_adversarial() -> None:
    route = entry("base44-cli:route_to_base44_sdk")
    assert route["expectedSkills"] == ["base44-sdk"]
    assert [c["type"] for c in route["checks"]] == ["file-exists"]
    ids = {b.id for b in BEHAVIORS}
    assert "base44-cli:unrelated" not in ids and "base44-sdk:unrelated" not in ids
    wrong = entry("base44-sdk:wrong_apis")
    assert "`base44.entities.Todo.findById(id)`" in wrong["prompt"]
    excluded = [c["pattern"] for c in wrong["checks"] if c["type"] == "file-content-excluded"]
    assert r"Todo\.findById\(" in excluded


def test_direction_shapes_the_prompt() -> None:
    direction = (
        "a beginner who wants short comments; make sure base44-sdk is used and "
        "the answer explains each file"
    )
    prompt = entry("base44-cli:create_entity", direction)
    assert "Keep in mind: a beginner who wants short comments." in prompt["prompt"]
    assert "Also: the answer explains each file." in prompt["prompt"]
    assert prompt["expectedSkills"] == ["base44-cli", "base44-sdk"]
    assert entry("base44-cli:create_entity")["prompt"] != prompt["prompt"]
