"""What the offline drafter reads from a skill's prose is read once per loaded project.

Whether a field is set to a pick among a tool's options is asked of every field the path
walks, for every case (`_mantle_script`, `_mantle_facts`), and each ask split and searched
the skill's prose again: what the texts say is read once per project and field, only the
paragraphs' `if:` weighed per path. Where a step's words set each field (`set_at`) is asked
for every field of the skill at every question: read once per project, field and text
(`kept_set_at`, the same reading a reference play of the step looks up). The answers are as
before.
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting.offline import (
    _mantle_caller_fit,
    _mantle_other_values,
    _mantle_picked,
)
from agentflows.drafting.offline._mantle_caller_fit import summed_on_branch
from agentflows.drafting.offline._mantle_criteria import _mentions
from agentflows.drafting.offline._mantle_other_values import about_other_values
from agentflows.drafting.offline._mantle_picked import picked_from_offer
from evalcore.agents.reference import _procedure
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import kept_set_at, set_at

REBOOK = {
    "agent.yml": "agent:\n  persona: You help passengers of an airline change flights.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/rebook/skill.md": """\
---
name: Rebook
description: The passenger changes their flight.
---

Help the passenger change their flight. Ask which way they want to search.

if: rebook.mode == "search"
Call `@tool.search_flights` and offer at most three options. Set new_flight to the flight
number they pick.

if: rebook.mode == "own"
Ask for the flight they want and set new_flight to the one they name.
""",
    "skills/rebook/memory.yml": (
        "schema:\n  public:\n"
        "    mode:\n      type: categorical\n      enum_values: [search, own]\n"
        "      llm_settable: true\n"
        "    new_flight:\n      type: text\n      llm_settable: true\n"
    ),
    "skills/rebook/tools.py": """\
from rasa.tools import tool, ToolContext


@tool(description="Search flights.")
async def search_flights(context: ToolContext = None):
    return {"flights": ["SK1182"]}
""",
}


def test_a_pick_among_a_tools_options_is_read_once_and_weighed_per_path(
    tmp_path: Path, monkeypatch
) -> None:
    defs = load_project(write_project(tmp_path, REBOOK)).mantle
    assert defs is not None
    field = defs.memory_field("rebook.new_flight")
    assert field is not None
    reads: list[str] = []
    real = _mantle_picked._offer_sets
    monkeypatch.setattr(
        _mantle_picked, "_offer_sets", lambda d, s, f: reads.append(f.name) or real(d, s, f)
    )
    assert picked_from_offer(defs, field)  # no path: every paragraph
    assert picked_from_offer(defs, field, {"rebook.mode": "search"})
    assert not picked_from_offer(defs, field, {"rebook.mode": "own"})
    assert not picked_from_offer(defs, field, {})
    assert reads == ["new_flight"]
    mode = defs.memory_field("rebook.mode")
    assert mode is not None and not picked_from_offer(defs, mode)
    assert reads == ["new_flight", "mode"]


def test_where_a_steps_words_set_each_field_is_read_once_per_text(
    tmp_path: Path, monkeypatch
) -> None:
    defs = load_project(write_project(tmp_path, REBOOK)).mantle
    assert defs is not None
    skill = defs.skills["rebook"]
    text = "Ask for the flight they want and set new_flight to the one they name."
    reads: list[str] = []
    monkeypatch.setattr(
        "evalcore.definitions.skill_model._mentions.set_at",
        lambda f, t: reads.append(f.name) or set_at(f, t),
    )
    at = {key: kept_set_at(defs, f, text) for key, f in skill.memory.items()}
    assert at == {key: set_at(f, text) for key, f in skill.memory.items()}
    assert at["new_flight"] is not None and at["mode"] is None
    assert {key: kept_set_at(defs, f, text) for key, f in skill.memory.items()} == at
    # the reference play's reading of a step (by qualified key) is the same kept one
    assert _procedure._set_at(defs, "rebook.new_flight", text) == at["new_flight"]
    assert _procedure._set_at(defs, "rebook.not_declared", text) is None
    assert sorted(reads) == ["mode", "new_flight"]


SCOPES = {
    "agent.yml": "agent:\n  persona: You grant engineers access to services.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/access/skill.md": """\
---
name: Access
description: The engineer asks for access to a service.
---

Ask which scopes they need.

db:write and k8s:exec need a second approver; say the request goes to the leads.
""",
    "skills/access/memory.yml": (
        "schema:\n  public:\n"
        "    scopes:\n      type: categorical\n      enum_values: [logs:read, db:write, k8s:exec]\n"
        "      llm_settable: true\n"
    ),
}


def test_a_fields_ids_are_read_once_for_every_paragraph(tmp_path: Path, monkeypatch) -> None:
    defs = load_project(write_project(tmp_path, SCOPES)).mantle
    assert defs is not None
    text = "db:write and k8s:exec need a second approver; say the request goes to the leads."
    read: list[str] = []
    real = _mantle_other_values._ids
    monkeypatch.setattr(
        _mantle_other_values, "_ids", lambda d, n, o: read.append(n) or real(d, n, o)
    )
    for _ in range(3):
        assert about_other_values(defs, "access", text, {"access.scopes": "logs:read"})
        assert not about_other_values(defs, "access", text, {"access.scopes": "db:write"})
    assert read == ["access.scopes", "access.scopes"]  # once per value set


BALANCE = {
    "agent.yml": "agent:\n  persona: You help members with their account.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/balance/skill.md": """\
---
name: Balance
description: The member asks about their balance.
---

Call `@tool.get_balance`.

if: balance.plan == "payment_plan"
A payment plan splits the amount owed into four parts.
""",
    "skills/balance/memory.yml": (
        "schema:\n  public:\n"
        "    plan:\n      type: categorical\n      enum_values: [payment_plan, pay_now]\n"
        "      llm_settable: true\n"
        "    amount_owed:\n      type: float\n"
    ),
    "skills/balance/tools.py": """\
from rasa.tools import tool, ToolContext, ToolResult


@tool(description="Balance of the account.")
async def get_balance(member_id: str, context: ToolContext = None) -> ToolResult:
    rows = [r for r in load() if r["member_id"] == member_id]
    owed = round(sum(r["charge"] for r in rows), 2)
    context.memory.set("amount_owed", owed)
    return ToolResult(llm_response={"owed": owed})
""",
}


def test_what_a_skills_tools_sum_is_read_once_per_skill(tmp_path: Path, monkeypatch) -> None:
    project = load_project(write_project(tmp_path, BALANCE))
    assert project.mantle is not None
    skill = project.mantle.skills["balance"]
    read: list[str] = []
    real = _mantle_caller_fit.summed_writes
    monkeypatch.setattr(
        _mantle_caller_fit, "summed_writes", lambda p, t: read.append(t.name) or real(p, t)
    )
    for _ in range(3):
        plan = summed_on_branch(project, skill, {"balance.plan": "payment_plan"})
        assert plan == ["charge"]
        assert summed_on_branch(project, skill, {"balance.plan": "pay_now"}) == []
    assert read == ["get_balance"]


def test_a_paragraph_naming_a_field_is_read_once_per_text_and_name() -> None:
    text = "Set `reason`, then confirm fun_mode before you go on."
    assert _mentions(text, "reason") and _mentions(text, "fun_mode")
    assert not _mentions("Ask for the reason.", "reason")  # a plain word, unquoted
    assert not _mentions("Use fun_modes.", "fun_mode")
    before = _mentions.cache_info().hits
    assert _mentions(text, "fun_mode")
    assert _mentions.cache_info().hits == before + 1
