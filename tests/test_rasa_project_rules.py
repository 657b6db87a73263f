"""Rasa's project check (rasa-pro 3.22) as casegen project findings: each rule on a small
project written here, the skills Rasa's loader drops left out of planning, definition files
read as YAML 1.1 (as Rasa reads them), and no finding on projects shaped like Rasa's own
default skills. Every expected finding names Rasa's code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentflows.planning import resolve_targets
from evalcore.definitions import load_project, rasa_errors, rasa_refusal

AGENT = (
    "agent:\n  persona: A helpful assistant for a small shop.\n  language: en\n"
    "orchestrator:\n  model_group: main\n"
)
INTEGRATIONS = (
    "model_groups:\n  - id: main\n    models:\n      - provider: openai\n        model: gpt-4o\n"
)
ORDER_SKILL = """---
description: The user wants to order an item.
---

Help the user order an item. Ask which item they want.

:::ordered_block id=take_order
steps:
  - id: ask_item
    collect: item
    description: The item the user wants.
  - id: place
    execute_tool: place_order
    parameters:
      item: session.order.item
:::
"""
ORDER_MEMORY = "schema:\n  public:\n    item:\n      type: text\n    order_id:\n      type: text\n"
ORDER_TOOLS = """from rasa.mantle.tools.decorator import tool


@tool(description="Place the order.")
def place_order(item: str, context) -> dict:
    context.memory.set("order_id", "A-1")
    return {}
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A project Rasa 3.22 builds: 0 findings (checked below), the base of each rule's test."""
    return write(
        tmp_path / "shop",
        {
            "agent.yml": AGENT,
            "integrations.yml": INTEGRATIONS,
            "skills/order/skill.md": ORDER_SKILL,
            "skills/order/memory.yml": ORDER_MEMORY,
            "skills/order/tools.py": ORDER_TOOLS,
        },
    )


def codes(root: Path) -> list[str]:
    """Rasa's codes among the project's findings, in order."""
    return [w.split("[", 1)[1].split("]", 1)[0] for w in rasa_errors(load_project(root).warnings)]


def test_a_project_rasa_builds_has_no_findings(shop: Path) -> None:
    assert load_project(shop).warnings == []


@pytest.mark.parametrize(
    ("files", "code"),
    [
        ({"agent.yml": "persona: x\n"}, "mantle.validation.config.missing_agent_section"),
        (
            {"agent.yml": "agent:\n  persona: x\n"},
            "mantle.validation.config.invalid_agent_section",
        ),
        (
            {"agent.yml": "agent:\n  persona: ' '\norchestrator:\n  model_group: main\n"},
            "mantle.validation.config.invalid_agent_section",
        ),
        (
            {"agent.yml": AGENT.replace("model_group: main", "model_group: other")},
            "mantle.validation.config.unknown_model_group",
        ),
        (
            {"integrations.yml": INTEGRATIONS + "llm:\n  model: gpt-4o\n"},
            "mantle.validation.config.unexpected_llm",
        ),
        (
            {"integrations.yml": INTEGRATIONS + "nlu:\n  - name: x\n"},
            "mantle.validation.config.unsupported_integration_key",
        ),
        (
            {"memory.yml": "tier:\n  type: text\n  description: Loyalty tier.\n"},
            "mantle.validation.memory.description_not_exposed",
        ),
        (
            {"skills/order/memory.yml": ORDER_MEMORY + "      description: The order id.\n"},
            "mantle.validation.memory.description_not_exposed",
        ),
        (
            {"skills/order/skill.md": ORDER_SKILL + "\nRepeat session.order.item back.\n"},
            "mantle.validation.prose.session_reference_in_instructions",
        ),
        (
            {"skills/order/skill.md": ORDER_SKILL + "\nif: session.other.x == 1\nSay hi.\n"},
            "mantle.validation.prose.unknown_memory_key",
        ),
        (
            {"skills/order/skill.md": ORDER_SKILL + "\nThe id is @memory.order.nope.\n"},
            "mantle.validation.prose.unknown_memory_reference",
        ),
        (
            {"skills/order/skill.md": ORDER_SKILL + "\nUse @tool.refund for refunds.\n"},
            "mantle.validation.tools.unresolved_tool",
        ),
        (
            {"skills/order/tools.py": ORDER_TOOLS.replace('set("order_id"', 'set("shipping_id"')},
            "mantle.validation.tools.undeclared_memory_write",
        ),
        (
            {
                "skills/order/skill.md": ORDER_SKILL.replace(
                    "    parameters:",
                    "    next: again\n  - id: again\n    call: take_order\n"
                    "  - id: after\n    execute_tool: place_order\n    parameters:",
                )
            },
            "mantle.validation.flow.internal_not_callable",
        ),
        (
            {
                "skills/order/responses.yml": "responses:\n  utter_ask_item:\n"
                "    - text: Which one?\n      condition: session.secret.pin == 1\n"
            },
            "mantle.validation.response.unknown_memory_key",
        ),
    ],
)
def test_each_rule_reports_rasas_code(shop: Path, files: dict[str, str], code: str) -> None:
    write(shop, files)
    assert codes(shop) == [code]
    warning = next(w for w in load_project(shop).warnings if f"[{code}]" in w)
    assert warning.endswith("(rasa-pro 3.22 rule)")


def test_a_settable_field_needs_a_description(shop: Path) -> None:
    skill = ORDER_SKILL.replace("    description: The item the user wants.\n", "")
    write(shop, {"skills/order/skill.md": skill})
    assert codes(shop) == ["mantle.validation.memory.description_required"]


def test_hidden_skill_named_in_prose(shop: Path) -> None:
    write(
        shop,
        {
            "skills/verify/skill.md": "---\ndescription: Verify the user.\nhidden: true\n---\n"
            "Verify the user.\n",
            "skills/order/skill.md": ORDER_SKILL + "\nFirst run @skill.verify.\n",
        },
    )
    assert codes(shop) == ["skill.prose.hidden_skill_reference"]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("agent.yml", "mantle.validation.config.missing_agent_yml"),
        ("integrations.yml", "mantle.validation.config.missing_integrations"),
    ],
)
def test_missing_config_files(shop: Path, name: str, code: str) -> None:
    (shop / name).unlink()
    found = codes(shop)
    assert found[0] == code
    # Without integrations.yml no model group is declared: Rasa names that too.
    assert found[1:] == (
        ["mantle.validation.config.unknown_model_group"] if "integ" in name else []
    )


@pytest.mark.parametrize(
    ("frontmatter", "body_extra"),
    [
        ("complete_when: session.order.item is not None\n", ""),  # a string, not a mapping
        ("memory:\n  item: text\n", ""),  # an unknown frontmatter key
        ("requires: session.project.verified\n", ""),  # skill-level requires is gone
        ("import_tools: place_order\n", ""),  # a name where Rasa wants a list
        ("utter:\n  - utter_hi:\n      when: session.order.item == false\n", ""),
        ("", "\n:::ordered_block id=other\ndescription: not allowed\nsteps: []\n:::\n"),
        ("", "\nelse:\nSay bye.\n"),
    ],
)
def test_a_skill_rasa_does_not_load_is_reported_and_not_planned(
    shop: Path, frontmatter: str, body_extra: str
) -> None:
    skill = ORDER_SKILL.replace("---\n\n", f"{frontmatter}---\n\n", 1) + body_extra
    write(shop, {"skills/order/skill.md": skill, "skills/greet/skill.md": GREET})
    project = load_project(shop)
    assert "mantle.validation.skill.failed_to_load" in codes(shop)
    assert project.mantle is not None and set(project.mantle.skills) == {"greet"}
    assert resolve_targets(project, "mantle", ["all"]) == ["greet"]


GREET = "---\ndescription: The user says hello.\n---\nGreet the user back.\n"


def test_definition_files_are_read_as_yaml_1_1(shop: Path) -> None:
    """Rasa reads skill.md, memory.yml and responses.yml with PyYAML: `No` is False (a
    button Rasa refuses), `yes` is True, and `on: activate` keys `on`."""
    write(
        shop,
        {
            "skills/order/responses.yml": "responses:\n  utter_ask_item:\n"
            "    - text: Which one?\n      buttons:\n        - title: No\n"
            "        - title: 'Yes'\n  utter_hi:\n    - text: Hi!\n",
            "skills/order/skill.md": ORDER_SKILL.replace(
                "---\n\n", "hidden: yes\nutter:\n  - utter_hi:\n      on: activate\n---\n\n", 1
            ),
        },
    )
    project = load_project(shop)
    assert codes(shop) == ["responses.registry.invalid_variant"]
    skill = project.mantle.skills["order"]  # type: ignore[union-attr]
    assert skill.hidden is True
    assert [(r.response, r.on) for r in skill.utter] == [("utter_hi", "activate")]
    buttons = skill.responses["utter_ask_item"].variants[0].buttons
    assert [b.title for b in buttons] == ["Yes"]  # the refused button is left out


# The shapes of the skills rasa-pro 3.22 bundles (rasa/mantle/default_skills), written here:
# `routing: engine_managed`, a block `name:`, `noop: true` routes, memory type `str`.
DEFAULT_SHAPES = {
    "skills/default_completed/skill.md": """---
name: Completed
description: "Post-skill wrap-up: ask if the user needs more help."
routing:
  engine_managed: true
---

:::ordered_block id=main
name: default_completed
steps:
  - id: ask_continue
    collect: wants_to_continue
    utterance: utter_ask_wants_to_continue
    description: >
      Does the user want to continue with another task?
    next:
      - if: "session.default_completed.wants_to_continue"
        then: more_help
      - else: csat_link
  - id: more_help
    instructions: >
      Ask what exactly the user needs help with.
  - id: csat_link
    link: default_customer_satisfaction
:::
""",
    "skills/default_completed/memory.yml": "schema:\n  public:\n    wants_to_continue:\n"
    "      type: bool\n      description: Whether the user wants to continue.\n",
    "skills/default_completed/responses.yml": "responses:\n  utter_ask_wants_to_continue:\n"
    "    - text: Anything else?\n",
    "skills/default_customer_satisfaction/skill.md": """---
name: Customer Satisfaction
description: "Collect customer satisfaction feedback at end of conversation."
routing:
  engine_managed: true
---

:::ordered_block id=main
name: default_customer_satisfaction
steps:
  - id: ask_csat
    collect: csat_score
    utterance: utter_ask_csat_score
    description: "How satisfied was the user (1-5)?"
  - id: thank_you
    action: utter_thank_you_for_feedback
:::
""",
    "skills/default_customer_satisfaction/memory.yml": "schema:\n  public:\n    csat_score:\n"
    "      type: float\n      description: Score from 1 to 5.\n",
    "skills/default_customer_satisfaction/responses.yml": "responses:\n"
    "  utter_ask_csat_score:\n    - text: How did we do?\n"
    "  utter_thank_you_for_feedback:\n    - text: Thanks!\n",
    "skills/default_session_start/skill.md": """---
name: Session Start
description: "Initialize a new conversation session without speaking."
routing:
  engine_managed: true
---

:::ordered_block id=main
name: default_session_start
steps:
  - id: start
    noop: true
    next: END
:::
""",
    "skills/default_silence_timeout_hangup/skill.md": """---
name: Silence Timeout Hangup
description: "End the call after the configured silence retries are exhausted."
routing:
  engine_managed: true
---

:::ordered_block id=main
name: default_silence_timeout_hangup
steps:
  - id: inform_hangup
    action: utter_inform_hangup
  - id: hangup
    action: hangup
    next: END
:::
""",
    "skills/default_silence_timeout_hangup/responses.yml": "responses:\n"
    "  utter_inform_hangup:\n    - text: Goodbye.\n",
    "skills/default_unsupported_request_handler/skill.md": """---
name: Unsupported Request Handler
description: >
  Sends a decline when the user asks for something this agent cannot help with.
routing:
  engine_managed: true
---

:::ordered_block id=main
name: default_unsupported_request_handler
steps:
  - id: gate_request_type
    noop: true
    next:
      - if: "session.default_unsupported_request_handler.request_type == 'out_of_scope'"
        then: decline_out
      - else: decline_in
  - id: decline_in
    action: utter_decline_in
    next: END
  - id: decline_out
    action: utter_decline_out
    next: END
:::
""",
    "skills/default_unsupported_request_handler/memory.yml": "schema:\n  public:\n"
    "    request_type:\n      type: str\n",
    "skills/default_unsupported_request_handler/responses.yml": "responses:\n"
    "  utter_decline_in:\n    - text: I can't help with that.\n"
    "  utter_decline_out:\n    - text: That is outside what I do.\n",
}


def test_rasas_default_skill_shapes_load_without_findings(tmp_path: Path) -> None:
    root = write(
        tmp_path / "defaults",
        {"agent.yml": AGENT, "integrations.yml": INTEGRATIONS, **DEFAULT_SHAPES},
    )
    project = load_project(root)
    assert project.warnings == []
    skills = project.mantle.skills  # type: ignore[union-attr]
    assert skills["default_unsupported_request_handler"].memory["request_type"].type == "text"


def test_refusal_summary_counts_errors(shop: Path) -> None:
    assert rasa_refusal(load_project(shop).warnings) is None
    write(shop, {"integrations.yml": INTEGRATIONS + "llm:\n  model: x\n"})
    refusal = rasa_refusal(load_project(shop).warnings)
    assert refusal is not None and refusal["errors"] == 1
    assert refusal["message"].startswith("rasa train would refuse this project: 1 error")


def test_commands_report_rasas_findings(shop: Path, run_cli, monkeypatch) -> None:
    monkeypatch.chdir(shop)
    write(shop, {"integrations.yml": INTEGRATIONS + "llm:\n  model: x\n"})
    code, out, _err = run_cli("sources", "--project", shop, "--json")
    assert code == 0 and any("unexpected_llm" in w for w in json.loads(out)["warnings"])
    offline = ("--project", shop, "--model", "offline", "--no-verify", "--out", "cases")
    code, out, _err = run_cli("generate", "order", *offline, "--json")
    assert json.loads(out)["rasa_refusal"]["errors"] == 1
    code, _out, err = run_cli("generate", "order", *offline)
    assert "rasa train would refuse this project: 1 error" in err
    code, out, err = run_cli("validate", "cases", "--project", shop)
    assert out.count("unexpected_llm") == 1  # once for the project, not per case file
    assert "rasa train would refuse this project" in err
    code, out, _err = run_cli("validate", "cases", "--project", shop, "--json")
    assert json.loads(out)["project_findings"]["rasa_refusal"]["errors"] == 1
