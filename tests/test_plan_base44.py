"""The base44 planner: what SKILL.md prescribes, the prompts planned from it, elements."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentflows.planning import CASE_TYPES, NOT_WRITTEN, plan_source, select
from agentflows.planning._base44 import plan_base44
from agentflows.planning.base44_skillmd import read_skill, triggers
from agentflows.planning.base44_targets import (
    code_pairs,
    instantiate,
    pair_kind,
    pair_resource,
    trigger_target,
)
from evalcore.definitions import load_project
from evalcore.errors import UserError

REPO = Path(__file__).resolve().parents[1]
SKILLS = load_project(REPO / "examples" / "skills")
KNOWN = set(SKILLS.agent_skills.skills)
ELEMENT = re.compile(r"^(skill|trigger|path|json|pair|command|route):.+$")


def text(name: str):
    return read_skill(SKILLS, SKILLS.agent_skills.skills[name], KNOWN)


def test_skill_md_is_read() -> None:
    cli = text("base44-cli")
    assert cli.triggers == (
        "create an entity",
        "add a backend function",
        "new agent",
        "base44 init",
        "push entities",
    )
    assert [r.kind for r in cli.resources] == [
        "project config",
        "entity",
        "backend function",
        "AI agent",
    ]
    assert cli.resources[2].paths == (
        "base44/functions/<name>/function.jsonc",
        "base44/functions/<name>/index.ts",
    )
    assert cli.pairs[2].wrong == ('"type": "text"', '"type": "date"')
    assert cli.pairs[2].correct == ('"type": "string"', '"format": "date"')
    assert [c.command for c in cli.commands][:2] == ["npx base44 init", "npx base44 entities push"]
    assert [(r.skill, r.condition) for r in cli.routes] == [
        ("base44-sdk", "Writing app code that uses entities, auth or functions")
    ]
    assert "base44/agents/<name>.jsonc" in cli.json_paths
    sdk = text("base44-sdk")
    assert sdk.entities == ("Todo",) and "src/api/base44Client.js" in sdk.paths
    assert len(sdk.pairs) == 8 and sdk.routes[0].skill == "base44-cli"


def test_trigger_phrases_come_after_use_when() -> None:
    assert triggers(
        'Do X with "npx tool run". Use when the user says "make a thing" or "fix it".'
    ) == ("make a thing", "fix it")
    assert triggers('Helps with "one" and "two".') == ("one", "two")


def test_resources_are_instantiated_by_their_naming_rule() -> None:
    cli = text("base44-cli")
    entity, function, agent = (instantiate(r) for r in cli.resources[1:])
    assert (entity.files, entity.name) == (("base44/entities/note.jsonc",), "Note")
    assert function.files == (
        "base44/functions/archive-note/function.jsonc",
        "base44/functions/archive-note/index.ts",
    )
    assert function.name == "archive_note"
    assert (agent.files, agent.name) == (("base44/agents/note_helper.jsonc",), "note_helper")


def test_pairs_are_classified_and_assigned() -> None:
    cli = text("base44-cli")
    assert [pair_kind(p) for p in cli.pairs] == ["path", "json", "json", "json", "code", "path"]
    owners = [pair_resource(p, cli).kind for p in cli.pairs]
    assert owners == [
        "entity",
        "entity",
        "entity",
        "backend function",
        "backend function",
        "entity",
    ]
    assert trigger_target("push entities", cli).command == "npx base44 entities push"
    assert trigger_target("new agent", cli).kind == "AI agent"
    sdk = text("base44-sdk")
    assert [p.index for p in code_pairs("log the user in", sdk)] == [5, 6]
    assert [p.index for p in code_pairs("save to the database", sdk)] == [3]


@pytest.mark.parametrize("skill", sorted(KNOWN))
def test_plan_is_well_formed(skill: str) -> None:
    plan = plan_base44(SKILLS, skill, None)
    assert all(ELEMENT.match(e) for e in plan.elements)
    names = [b.facts["prompt_name"] for b in plan.behaviors]
    assert len(names) == len(set(names)) and all(n.startswith(skill + "-") for n in names)
    for behavior in plan.behaviors:
        assert behavior.type in CASE_TYPES
        assert set(behavior.covers) <= set(plan.elements), behavior.id
    assert plan == plan_base44(SKILLS, skill, None)


def test_behaviours_per_skill() -> None:
    cli = {
        b.case: (b.type, b.facts["kind"]) for b in plan_base44(SKILLS, "base44-cli", None).behaviors
    }
    assert cli == {
        "create_entity": ("happy_path", "resource"),
        "add_backend_function": ("happy_path", "resource"),
        "new_agent": ("happy_path", "resource"),
        "base44_init": ("happy_path", "command"),
        "push_entities": ("happy_path", "command"),
        "wrong_apis": ("adversarial", "adversarial"),
        "route_to_base44_sdk": ("out_of_scope", "route"),
    }
    sdk = plan_base44(SKILLS, "base44-sdk", None)
    wrong = next(b for b in sdk.behaviors if b.case == "wrong_apis")
    assert [p["index"] for p in wrong.facts["pairs"]] == [2, 4, 8]
    covered = {e for b in sdk.behaviors for e in b.covers if e.startswith("pair:")}
    assert covered == {f"pair:{i}" for i in range(1, 9)}


def test_entity_prompt_facts() -> None:
    behavior = next(
        b for b in plan_base44(SKILLS, "base44-cli", None).behaviors if b.case == "create_entity"
    )
    assert behavior.facts["resource"]["files"] == ["base44/entities/note.jsonc"]
    assert [p["index"] for p in behavior.facts["pairs"]] == [2, 3]
    assert behavior.facts["commands"] == ["npx base44 entities push"]
    assert {"pair:1", "pair:6", "json:base44/entities/<name>.jsonc"} <= set(behavior.covers)


def test_direction_ranks_and_selects() -> None:
    plan = plan_base44(SKILLS, "base44-sdk", "a developer trying to trick it into wrong APIs")
    assert select(plan.behaviors, count=1, types=None)[0].case == "wrong_apis"
    plan = plan_base44(SKILLS, "base44-cli", "someone adding a backend function")
    assert select(plan.behaviors, count=1, types=None)[0].case == "add_backend_function"


def test_unknown_skill_and_dispatch() -> None:
    with pytest.raises(UserError):
        plan_base44(SKILLS, "nope", None)
    assert plan_source(SKILLS, "base44", "base44-sdk", None).source == "base44-sdk"


def test_a_skill_without_tables(tmp_path: Path) -> None:
    folder = tmp_path / "skills" / "hello"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        '---\nname: hello\ndescription: Says hello. Use when the user says "greet me".\n---\n'
        "# Hello\n\nJust greet.\n"
    )
    plan = plan_base44(load_project(tmp_path), "hello", None)
    assert [(b.case, b.facts["kind"]) for b in plan.behaviors] == [
        ("greet_me", "code"),
        ("unrelated", "negative"),
    ]
    assert NOT_WRITTEN in plan.behaviors[-1].facts
