"""Which mutants apply: a mutant no correct conversation can tell from the reference agent
is equivalent (proven on the paths the planner explores), listed apart and left out of the
score; a mutant on a path the planner finds but no case takes still counts."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.mutate import _run, mutate
from agentflows.mutate._equivalence import equivalent_mutants
from agentflows.mutate._marks import difference
from agentflows.planning import explore_mantle
from evalcore.agents.reference import mutants
from evalcore.definitions import load_project
from evalcore.runner import collect_cases

BILL = """\
---
name: Check a bill
description: Look up the customer's phone bill for a month and send a copy.
tool_constraints:
  - count_lines:
      requires: session.bill.month
---

Help the customer with a bill.

if: not session.project.username
Call `@tool.load_profile`.

Ask which month they want to review and set `month`.

Ask how they want the copy: paper or email. Set `delivery`.

Call `@tool.count_lines` and say how many lines the account has.

if: session.bill.delivery == "email"
Call `@tool.email_copy`.

if: session.bill.delivery == "paper"
Call `@tool.post_copy`.

if: session.bill.month == "December"
Call `@tool.holiday_note`.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Load the customer's profile into memory.")
async def load_profile(context: ToolContext = None):
    """Load the profile."""
    context.memory.set("username", "Ada Lovelace")
    context.memory.set("email", "ada@example.com")
    return {"username": "Ada Lovelace"}


@tool(description="How many phone lines the account has.")
async def count_lines(month: str, context: ToolContext = None):
    """Count the lines billed in a month."""
    return {"lines": 2}


@tool(description="Email a copy of the bill.")
async def email_copy(month: str, context: ToolContext = None):
    """Email the bill."""
    context.memory.set("copy_sent", True)
    return {"sent": True}


@tool(description="Say when the holiday discount shows on the bill.")
async def holiday_note(month: str, context: ToolContext = None):
    """The holiday note."""
    return {"note": "The discount shows in January."}


@tool(description="Post a paper copy of the bill.")
async def post_copy(month: str, context: ToolContext = None):
    """Post the bill."""
    context.memory.set("copy_sent", True)
    context.memory.set("tracking_code", "T-1")  # no memory.yml declares it
    return {"posted": True}
'''


def _files(username: str) -> dict[str, str]:
    return {
        "agent.yml": "name: Phone desk\npersona: You help phone customers with bills.\n",
        "integrations.yml": INTEGRATIONS,
        "memory.yml": f"username:\n  type: text\n{username}email:\n  type: text\n",
        "responses.yml": "responses:\n  utter_cannot_help:\n    - text: Sorry, I can't help.\n",
        "skills/bill/skill.md": BILL,
        "skills/bill/tools.py": TOOLS,
        "skills/bill/memory.yml": (
            "schema:\n  public:\n"
            "    month:\n      type: text\n      llm_settable: true\n"
            "      description: The month of the bill, such as March.\n"
            "    delivery:\n      type: categorical\n      enum_values: [paper, email]\n"
            "      llm_settable: true\n      description: How the customer wants the copy.\n"
            "    copy_sent:\n      type: bool\n"
        ),
        "eval/scenarios/paper.yml": PAPER,
    }


PAPER = """\
scenario:
  name: Paper copy of the March bill
  type: happy_path
  simulation_context: |
    You are Ada, a phone customer.
    You want to review your phone bill for a month and get a copy.
    What you know (share each only when the agent asks):
    - month: March
    - delivery: paper
  goals:
    assertions:
      - tool_executed:
          tool_name: post_copy
          source: local
      - memory_was_set:
          - name: bill.copy_sent
            value: true
"""

LOOKUP = ("fail_silently:load_profile", "forget_memory:project.email")


def _report(root: Path) -> Any:
    cases = collect_cases([root / "eval" / "scenarios"], project=root)
    return asyncio.run(mutate(cases, root, concurrency=2))


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The username has an initial value: the lookup the prose runs only without one."""
    return write_project(
        tmp_path_factory.mktemp("seeded"), _files("  initial_value: Ada Lovelace\n")
    )


def test_a_lookup_the_initial_values_gate_off_is_equivalent_and_not_scored(seeded: Path):
    report = _report(seeded)
    equivalent = {m.id: m.equivalent for m in report.equivalent}
    for mutant in LOOKUP:
        assert "not session.project.username" in (equivalent.get(mutant) or "")
    assert not set(LOOKUP) & {r.mutant.id for r in report.results}
    data = report.to_json()
    killed = sum(bool(k) for k in data["matrix"].values())
    assert data["score"] == round(killed / data["mutants"], 4)
    assert data["raw"] == {
        "mutants": data["mutants"] + len(equivalent),
        "killed": killed,
        "score": round(killed / (data["mutants"] + len(equivalent)), 4),
    }
    proofs = {e["id"]: e["proof"] for e in data["equivalent"]}
    assert all(proofs[m] == "explored paths" for m in LOOKUP)


def test_forgetting_an_entry_no_schema_declares_is_equivalent(seeded: Path):
    """No assertion can name `bill.tracking_code` (an unknown memory name) and Rasa rejects
    the write: only a declared entry's mutant applies."""
    report = _report(seeded)
    equivalent = {m.id: m.equivalent or "" for m in report.equivalent}
    assert "no memory.yml declares" in equivalent.get("forget_memory:bill.tracking_code", "")
    assert "forget_memory:bill.copy_sent" in {r.mutant.id for r in report.results}


def test_a_lookup_the_project_can_reach_applies(tmp_path: Path):
    """Without an initial value the lookup runs on every path: its mutants apply."""
    root = write_project(tmp_path, _files(""))
    report = _report(root)
    assert not set(LOOKUP) & {m.id for m in report.equivalent}
    assert set(LOOKUP) <= {r.mutant.id for r in report.results}


def test_a_gate_on_an_answer_no_explored_path_gives_is_no_proof(seeded: Path):
    """No explored path says December, but a customer can: the note's mutants apply."""
    report = _report(seeded)
    assert not {"fail_silently:holiday_note", "wrong_argument:holiday_note"} & {
        m.id for m in report.equivalent
    }
    assert "fail_silently:holiday_note" in {r.mutant.id for r in report.results}


def test_a_mutant_on_a_path_no_case_takes_still_counts(seeded: Path):
    """The email branch is one the planner explores; the suite only posts a copy."""
    report = _report(seeded)
    email = next(r for r in report.results if r.mutant.id == "fail_silently:email_copy")
    assert not email.killed
    assert report.reason(email).code == "off_path"
    assert "fail_silently:email_copy" not in {m.id for m in report.equivalent}


def test_a_mutant_a_case_kills_applies_whatever_the_paths_said(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(
        _run, "equivalent_mutants", lambda *_: {"fail_silently:post_copy": "said equivalent"}
    )
    report = _report(seeded)
    post = next(r for r in report.results if r.mutant.id == "fail_silently:post_copy")
    assert post.killed
    assert "fail_silently:post_copy" not in {m.id for m in report.equivalent}


# --- what an assertion can see ----------------------------------------------------------------


@dataclass
class _Run:
    events: list[dict[str, Any]]
    turns: list[int] = field(default_factory=list)


def _tool(name: str, **arguments: Any) -> dict[str, Any]:
    return {"event": "tool_executed", "tool_name": name, "arguments": arguments, "is_error": False}


def _memory(key: str, value: Any) -> dict[str, Any]:
    return {"event": "memory_set", "key": key, "value": value}


def test_an_extra_early_call_that_writes_nothing_leaves_no_mark():
    correct = _Run([_memory("bill.month", "March"), _tool("count_lines", month="March")], [1])
    early = _Run([_tool("count_lines"), *correct.events], [2])
    assert difference(correct, early) is None


def test_an_early_call_that_writes_a_key_or_replaces_the_real_one_leaves_a_mark():
    correct = _Run([_memory("bill.month", "March"), _tool("count_lines", month="March")], [1])
    writes = _Run([_tool("count_lines"), _memory("bill.lines", 2), *correct.events], [3])
    assert "bill.lines" in (difference(correct, writes) or "")
    instead = _Run([_tool("count_lines", month="March"), _memory("bill.month", "March")], [2])
    assert "count_lines" in (difference(correct, instead) or "")


def test_an_extra_call_in_a_turn_of_two_calls_leaves_a_mark():
    correct = _Run([_tool("a"), _tool("b")])
    extra = _Run([_tool("a"), _tool("c"), _tool("b")])
    assert "extra tool" in (difference(correct, extra) or "")
    assert difference(_Run([_tool("a")]), _Run([_tool("c"), _tool("a")])) is None


def _said(utter: str | None = None) -> dict[str, Any]:
    return {"event": "bot", "text": "Here you go.", "metadata": {"utter_action": utter}}


def test_a_message_no_response_names_leaves_no_mark_a_named_response_does():
    # the agent's own wording: only `text_matches` names it, and no wording is one every
    # correct agent says, so a run without it is one no justified assertion tells apart
    correct = _Run([_tool("a"), _said(), _said("utter_done")])
    assert difference(correct, _Run([_tool("a"), _said("utter_done")])) is None
    assert "utter_done" in (difference(correct, _Run([_tool("a"), _said()])) or "")


def test_an_early_call_that_takes_the_real_calls_place_is_a_gap_not_no_mark(seeded: Path):
    """count_lines writes nothing and says nothing, but called before the month is known it
    is not called again: `sequencing` (the month, then the call) tells it apart."""
    report = _report(seeded)
    early = next(r for r in report.results if r.mutant.id == "ignore_requires:count_lines")
    reason = report.reason(early)
    assert not early.killed and reason.code == "unexplained"
    assert "count_lines" in reason.text


ROUTE = """\
---
name: Order coffee beans
description: Order a bag of coffee beans for delivery.
---

Run @block.order.

:::ordered_block id=order
steps:
  - id: route
    noop: true
    next:
      - if: session.project.tier == "gold"
        then: gold_note
      - else: ask_size
  - id: ask_size
    collect: size
    utterance: utter_ask_size
    next: END
  - id: gold_note
    action: utter_gold
    next: END
  - id: END
:::
"""


@pytest.mark.parametrize(
    ("tier", "equivalent"),
    [("  initial_value: basic\n", True), ("  initial_value: basic\n  seed: true\n", False)],
)
def test_skipping_a_branch_only_some_memory_takes_is_equivalent_only_where_none_can(
    tmp_path: Path, tier: str, equivalent: bool
):
    """Skipping `route` goes on at `ask_size`, where its `else` leads too: no mark while the
    tier is never gold. A tier a case may seed (`seed: true`) can be gold: then it applies."""
    root = write_project(
        tmp_path,
        {
            "agent.yml": "name: Beans\npersona: You sell coffee beans.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": f"tier:\n  type: text\n{tier}",
            "responses.yml": "responses:\n  utter_cannot_help:\n    - text: Sorry.\n",
            "skills/order/skill.md": ROUTE,
            "skills/order/memory.yml": (
                "schema:\n  public:\n    size:\n      type: categorical\n"
                "      enum_values: [small, large]\n      description: The bag size.\n"
            ),
            "skills/order/responses.yml": (
                "responses:\n  utter_ask_size:\n    - text: Small or large?\n"
                "  utter_gold:\n    - text: Gold members get free delivery.\n"
            ),
        },
    )
    project = load_project(root)
    found = equivalent_mutants(project, mutants(project), explore_mantle(project))
    assert ("skip_step:order.order.route" in found) is equivalent


def test_a_set_memory_step_of_a_project_field_has_the_project_fields_mutant(tmp_path: Path):
    """`set_memory: {tier: gold}` in a skill that declares no `tier` writes the project's
    field (as the runtime and the reference agent write it): its mutant names that."""
    skill = ROUTE.replace(
        "  - id: gold_note\n    action: utter_gold\n",
        "  - id: gold_note\n    set_memory:\n      tier: gold\n",
    )
    assert skill != ROUTE
    root = write_project(
        tmp_path,
        {
            "agent.yml": "name: Beans\npersona: You sell coffee beans.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "tier:\n  type: text\n  seed: true\n",
            "skills/order/skill.md": skill,
        },
    )
    ids = {m.id for m in mutants(load_project(root))}
    assert "forget_memory:project.tier" in ids
    assert "forget_memory:order.tier" not in ids
