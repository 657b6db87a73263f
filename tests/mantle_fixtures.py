"""A small bank agent as a Mantle `Project`, built in code so Mantle tests need no files.

`card_replace` (one ordered block, skill and project memory, local tools, an MCP import) and
`check_balance`; project memory with seed and non-seed fields.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from evalcore.definitions import (
    Block,
    MantleDefinitions,
    MemoryField,
    Project,
    Response,
    ResponseVariant,
    Skill,
    Step,
    ToolDef,
    ToolParameter,
)


def _memory(namespace: str, name: str, type_: str, **extra: Any) -> MemoryField:
    visibility = extra.pop("visibility", "project" if namespace == "project" else "public")
    return MemoryField(name=name, namespace=namespace, type=type_, visibility=visibility, **extra)


def _responses(scope: str, *names: str) -> dict[str, Response]:
    return {
        n: Response(name=n, scope=scope, variants=[ResponseVariant(text=f"{n} text")])
        for n in names
    }


def _card_replace() -> Skill:
    ns = "card_replace"
    steps = [
        Step(id="check_eligibility", kind="execute_tool", target="card_replace_eligibility"),
        Step(id="select_card", kind="instructions", target="Ask which card to replace."),
        Step(id="ask_reason", kind="collect", target="replacement_reason"),
        Step(id="choose_shipping", kind="collect", target="shipping"),
        Step(id="confirm_order", kind="instructions", target="Read back the summary."),
    ]
    return Skill(
        id=ns,
        path="skills/card_replace",
        name="Card replacement",
        description="Replace a lost, stolen or damaged card",
        blocks={"pick_card": Block(id="pick_card", steps=steps)},
        memory={
            "replacement_reason": _memory(
                ns,
                "replacement_reason",
                "categorical",
                enum_values=["lost", "stolen", "damaged", "not_received"],
            ),
            "shipping": _memory(ns, "shipping", "categorical", enum_values=["standard", "express"]),
            "fraud_reported": _memory(ns, "fraud_reported", "bool"),
            "selected_card_id": _memory(ns, "selected_card_id", "text"),
            "cards_shown": _memory(ns, "cards_shown", "int"),
            "account_id": _memory(ns, "account_id", "text"),
            "eligibility_checked": _memory(ns, "eligibility_checked", "bool", visibility="private"),
        },
        responses=_responses(
            ns,
            "utter_order_placed",
            "utter_ask_replacement_reason",
            "utter_ask_shipping",
        ),
        tools={
            "place_replacement_order": ToolDef(
                name="place_replacement_order",
                parameters=[
                    ToolParameter(name="card_id", type="str"),
                    ToolParameter(name="shipping", type="str"),
                ],
            ),
            "order_replacement": ToolDef(
                name="order_replacement", parameters=[ToolParameter(name="card_id", type="str")]
            ),
            "card_replace_eligibility": ToolDef(
                name="card_replace_eligibility",
                parameters=[ToolParameter(name="context", type="ToolContext", required=False)],
            ),
        },
        import_tools=["mcp/crm:lookup_customer"],
    )


def _check_balance() -> Skill:
    ns = "check_balance"
    return Skill(
        id=ns,
        path="skills/check_balance",
        description="Tell the customer their account balance",
        memory={
            "account_type": _memory(
                ns, "account_type", "categorical", enum_values=["checking", "savings"]
            ),
            "account_id": _memory(ns, "account_id", "text"),
        },
        responses=_responses(ns, "utter_balance"),
        tools={
            "get_balance": ToolDef(
                name="get_balance", parameters=[ToolParameter(name="account_type", type="str")]
            )
        },
    )


def bank_definitions() -> MantleDefinitions:
    return MantleDefinitions(
        skills={"card_replace": _card_replace(), "check_balance": _check_balance()},
        memory={
            "caller_phone": _memory("project", "caller_phone", "text", seed=True),
            "preferred_language": _memory("project", "preferred_language", "text", seed=True),
            "authenticated": _memory("project", "authenticated", "bool"),
        },
        responses=_responses("project", "utter_greet", "utter_cannot_help"),
        mcp_servers=["crm"],
        scenario_dir="eval/scenarios",
    )


def bank_project(root: Path | None = None) -> Project:
    """The bank agent as a Mantle project rooted at `root` (no files are read)."""
    return Project(kind="mantle", root=root or Path("/nonexistent/bank"), mantle=bank_definitions())


#: A scenario that is valid against `bank_project()` and uses every assertion family.
CLEAN_CASE: dict[str, Any] = {
    "scenario": {
        "name": "Customer replaces a damaged card",
        "type": "happy_path",
        "simulation_context": "You are a calm customer whose card has a cracked chip.",
        "setup": {
            "initial_slots": {"project.caller_phone": "+15550100", "preferred_language": "en"}
        },
        "goals": {
            "criteria": ["The agent does not claim the order is placed before submitting it"],
            "assertions": [
                {"skill_activated": {"skill_id": "card_replace"}},
                {"skill_interrupted": {"skill_id": "card_replace", "step_id": "autonomous"}},
                {"skill_resumed": {"skill_id": "card_replace", "step_id": "select_card"}},
                {"ordered_block_entered": {"skill_id": "card_replace", "block_id": "pick_card"}},
                {
                    "ordered_block_completed": {
                        "skill_id": "card_replace",
                        "block_id": "pick_card",
                        "step_id": "confirm_order",
                    }
                },
                {
                    "memory_was_set": [
                        {"name": "card_replace.replacement_reason", "value": "damaged"},
                        {"name": "card_replace.fraud_reported", "value": False},
                        {"name": "card_replace.cards_shown", "value": 2},
                        {"name": "project.caller_phone"},
                        {"name": "system.session_started_metadata"},
                    ]
                },
                {"memory_was_not_set": [{"name": "card_replace.selected_card_id"}]},
                {"memory_was_cleared": [{"name": "card_replace.shipping"}]},
                {
                    "tool_executed": {
                        "tool_name": "place_replacement_order",
                        "source": "local",
                        "skill_id": "card_replace",
                        "is_error": False,
                        "arguments": {"shipping": "standard"},
                    }
                },
                {
                    "tool_executed": {
                        "tool_name": "lookup_customer",
                        "source": "mcp",
                        "mcp_server": "crm",
                    }
                },
                {
                    "tools_within_one_turn": {
                        "calls": [
                            {
                                "tool_executed": {
                                    "tool_name": "lookup_customer",
                                    "source": "mcp",
                                    "mcp_server": "crm",
                                }
                            },
                            {"tool_executed": {"tool_name": "set_fields", "source": "local"}},
                        ],
                        "allow_extra_calls": True,
                        "ordered": True,
                    }
                },
                {
                    "bot_uttered": {
                        "utter_name": "utter_order_placed",
                        "buttons": [{"title": "Yes", "payload": "/affirm"}],
                    }
                },
                {"bot_did_not_utter": {"text_matches": r"fraud|stolen\b"}},
                {
                    "sequencing": [
                        {"skill_activated": {"skill_id": "card_replace"}},
                        {"memory_was_set": "card_replace.replacement_reason"},
                        {
                            "tool_executed": {
                                "tool_name": "place_replacement_order",
                                "source": "local",
                            }
                        },
                        {"memory_was_cleared": "card_replace.shipping"},
                        {"skill_completed": {"skill_id": "card_replace"}},
                    ]
                },
            ],
            "expected_tools": [
                {"tool_called": "place_replacement_order", "gate": True},
                {
                    "tool_group": [
                        {"tool_called": "lookup_customer"},
                        {"tool_called": {"tool_name": "card_replace_eligibility"}},
                        {"ordered": True},
                    ]
                },
            ],
        },
    }
}


def clean_case() -> dict[str, Any]:
    return copy.deepcopy(CLEAN_CASE)


def case_with(*assertions: dict[str, Any], slots: dict[str, Any] | None = None) -> dict[str, Any]:
    """A minimal valid scenario holding just `assertions` (and `slots`, if given)."""
    scenario: dict[str, Any] = {
        "name": "A case",
        "simulation_context": "You are a customer.",
        "goals": {"assertions": [copy.deepcopy(a) for a in assertions]},
    }
    if slots is not None:
        scenario["setup"] = {"initial_slots": copy.deepcopy(slots)}
    return {"scenario": scenario}
