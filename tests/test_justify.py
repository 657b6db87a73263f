"""Every assertion justified: the definition element behind each check, written beside it.

A small Mantle project on disk holds one element of each kind: a routed skill, an ordered
block with an `execute_tool` step and a collect step, a confirmation gate with its utters, a
tool whose code writes memory, an `utter:` rule, unconditional prose, and conditional prose
(an "If ..." lookup of an entry that has an initial value, an optional "may ask").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.yamlio import load_yaml

SHOP: dict[str, str] = {
    "agent.yml": "agent:\n  persona: You help customers of a corner shop with orders.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "username:\n  type: text\n  initial_value: guest\n"
        "  description: The customer's login name.\n"
    ),
    "responses.yml": (
        "responses:\n"
        "  utter_welcome:\n    - text: Welcome to the shop.\n"
        "  utter_confirm_order:\n    - text: Place the order?\n"
        "  utter_order_cancelled:\n    - text: Nothing was ordered.\n"
        "  utter_order_placed:\n    - text: Your order is placed.\n"
        "  utter_never_used:\n    - text: This response is in no skill.\n"
    ),
    "skills/order/skill.md": """\
---
name: Order
description: The customer orders an item from the shop.
tool_constraints:
  - place_order:
      requires: session.order.size
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_order
        utter_on_user_denial: utter_order_cancelled
      on_success: utter_order_placed
utter:
  - utter_welcome:
      on: activate
complete_when:
  condition: session.order.order_id
---

Help the customer order one item.

If username is missing in project memory, call `@tool.load_profile`.

Run @block.pick_item.

Ask whether they want gift wrapping and set `gift_wrap` via `set_fields`.

You may ask for a rating of the shop. Set `rating` if they answer.

Then call `@tool.place_order` with the item and the size.

:::ordered_block id=pick_item
steps:
  - id: list
    execute_tool: list_items
  - id: ask_size
    collect: size
    description: The size of the item.
:::
""",
    "skills/order/memory.yml": (
        "schema:\n  public:\n"
        "    size:\n      type: text\n      llm_settable: true\n"
        "    gift_wrap:\n      type: bool\n      llm_settable: true\n"
        "    rating:\n      type: int\n      llm_settable: true\n"
        "    order_id:\n      type: text\n"
    ),
    "skills/order/tools.py": """\
from rasa.tools import tool, ToolContext


@tool(description="List the shop's items.")
async def list_items(context: ToolContext = None):
    return {"items": ["mug"]}


@tool(description="Load the customer's profile.")
async def load_profile(context: ToolContext = None):
    context.memory.set("project.username", "ada")


@tool(description="Place the order.")
async def place_order(item: str, size: str, context: ToolContext = None):
    context.memory.set("order_id", "O-1")
    return {"order_id": "O-1"}
""",
}

CONTEXT = (
    "You are Ada, a customer.\nYou want to order a mug.\n"
    "What you know (share each only when the agent asks):\n- size: large\n"
)


def _case(assertions: list[Any], criteria: list[str] | None = None) -> dict[str, Any]:
    goals: dict[str, Any] = {"assertions": assertions}
    if criteria:
        goals["criteria"] = criteria
    return {
        "scenario": {
            "name": "Order a mug",
            "type": "happy_path",
            "simulation_context": CONTEXT,
            "goals": goals,
        }
    }


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_project(write_project(tmp_path_factory.mktemp("shop"), SHOP))


def _judge(project: Any, *assertions: Any) -> dict[str, Any]:
    """Top-level path -> justification (None when none) for each assertion."""
    judged = get_dialect("mantle").justify(_case(list(assertions)), project)
    return {j.path: j.justification for j in judged if j.top}


def _one(project: Any, assertion: Any) -> Any:
    return _judge(project, assertion)["/scenario/goals/assertions/0"]


def test_runtime_elements_are_enforced_with_their_file_and_line(shop: Any) -> None:
    md = "skills/order/skill.md"
    routed = _one(shop, {"skill_activated": {"skill_id": "order"}})
    assert (routed.kind, routed.file, routed.line) == ("enforced", md, 3)
    done = _one(shop, {"skill_completed": {"skill_id": "order"}})
    assert (done.kind, done.line, done.element) == ("enforced", 15, "complete_when")
    welcome = _one(shop, {"bot_uttered": {"utter_name": "utter_welcome"}})
    assert (welcome.kind, welcome.line) == ("enforced", 13)
    placed = _one(shop, {"bot_did_not_utter": {"utter_name": "utter_order_placed"}})
    assert (placed.kind, placed.line) == ("enforced", 11)


def test_block_steps_are_as_strong_as_what_enters_the_block(shop: Any) -> None:
    """The block runs because unconditional prose invokes it: its steps are instructed,
    cited at the step with the line that reaches it."""
    listed = _one(shop, {"tool_executed": {"tool_name": "list_items", "skill_id": "order"}})
    assert listed.kind == "instructed"
    reached = "reached by skills/order/skill.md:23"
    assert listed.element == f"step list: execute_tool list_items, {reached}"
    size = _one(shop, {"memory_was_set": [{"name": "order.size", "value": "large"}]})
    assert size.kind == "instructed" and size.element.startswith("step ask_size: collect size")


def test_a_blocks_detour_events_name_the_runtime_rule_at_the_block(shop: Any) -> None:
    """`ordered_block_resumed` is the runtime's, recorded beside `skill_resumed` when the
    parked step is a block step: the comment says so, cited at the block, as strong as
    what enters it; the block's own `completed` stays the bare block."""
    body = {"skill_id": "order", "block_id": "pick_item", "step_id": "ask_size"}
    resumed = _one(shop, {"ordered_block_resumed": body})
    bare = {"skill_id": "order", "block_id": "pick_item"}
    entered = _one(shop, {"ordered_block_completed": bare})
    assert (resumed.kind, resumed.file, resumed.line) == (entered.kind, entered.file, entered.line)
    assert resumed.element.startswith(entered.element)
    assert "resuming order at a step of block pick_item records this event too" in resumed.element
    assert "detour handling" not in entered.element


def test_a_blocks_completion_step_says_which_step_the_runtime_names(shop: Any) -> None:
    """The runtime pops a block when the step it runs goes on to END and names that step
    (the frame's cursor), never END: a `step_id` on the completion says so, so a reader
    need not guess between the last step run and the END marker."""
    body = {"skill_id": "order", "block_id": "pick_item"}
    bare = _one(shop, {"ordered_block_completed": body})
    named = _one(shop, {"ordered_block_completed": {**body, "step_id": "ask_size"}})
    assert (named.kind, named.file, named.line) == (bare.kind, bare.file, bare.line)
    ended = "(the completion event names the last step run, ask_size, never END)"
    assert named.element == f"{bare.element} {ended}"
    assert "never END" not in bare.element


def test_a_success_response_says_when_the_runtime_counts_a_result_as_a_failure(
    shop: Any,
) -> None:
    """Rasa counts a tool result with its `error` key set as a failure (no `on_success`
    response follows); a reviewer reading `{"ok": false, "error": ...}` as an ordinary
    answer sees the rule beside the check."""
    placed = _one(shop, {"bot_did_not_utter": {"utter_name": "utter_order_placed"}})
    assert "on_success utter_order_placed" in placed.element
    assert "without an `error` key" in placed.element


def test_unconditional_prose_is_instructed(shop: Any) -> None:
    placed = _one(shop, {"tool_executed": {"tool_name": "place_order", "skill_id": "order"}})
    assert placed.kind == "instructed" and placed.line == 29
    # The tool's code writes order_id; the tool runs because the prose says so.
    order_id = _one(shop, {"memory_was_set": [{"name": "order.order_id"}]})
    assert order_id.kind == "instructed" and order_id.file == "skills/order/tools.py"
    # A gate's utter is the runtime's, once the prose calls the tool.
    confirm = _one(shop, {"bot_uttered": {"utter_name": "utter_confirm_order"}})
    assert confirm.kind == "instructed" and "utter_for_confirmation" in confirm.element


def test_conditional_prose_is_conditional(shop: Any) -> None:
    # A lookup only "If username is missing": the entry has an initial value.
    lookup = _one(shop, {"tool_executed": {"tool_name": "load_profile", "skill_id": "order"}})
    assert lookup.kind == "conditional" and lookup.line == 21
    # An optional ask ("may"), and the sentence after it in the same paragraph.
    rating = _one(shop, {"memory_was_set": [{"name": "order.rating", "value": 5}]})
    assert rating.kind == "conditional" and rating.line == 27


def test_an_assertion_nothing_backs_is_unjustified(shop: Any) -> None:
    assert _one(shop, {"bot_uttered": {"utter_name": "utter_never_used"}}) is None
    assert _one(shop, {"skill_activated": {"skill_id": "no_such_skill"}}) is None


def test_not_set_is_enforced_where_only_the_runtime_writes(shop: Any) -> None:
    # Only place_order's code writes order_id: refusing the gate keeps it unwritten.
    kept = _one(shop, {"memory_was_not_set": [{"name": "order.order_id"}]})
    assert kept.kind == "enforced" and "place_order" in kept.element
    # The model sets gift_wrap from prose: that it stays unset is its choice, not the runtime's.
    wrap = _one(shop, {"memory_was_not_set": [{"name": "order.gift_wrap"}]})
    assert wrap.kind != "enforced"


def test_two_entries_set_from_prose_have_no_order(shop: Any) -> None:
    sequence = {
        "sequencing": [
            {"memory_was_set": "order.gift_wrap"},
            {"memory_was_set": "order.size"},
            {"memory_was_set": "order.gift_wrap"},
            {"memory_was_set": "order.order_id"},
        ]
    }
    assert _one(shop, sequence).kind == "instructed"
    two_prose = {
        "sequencing": [
            {"memory_was_set": "order.gift_wrap"},
            {"memory_was_set": "order.gift_wrap"},
        ]
    }
    assert _one(shop, two_prose).kind == "conditional"


def test_the_writer_puts_each_justification_above_its_check(shop: Any) -> None:
    """Comments only: the text reads back as the same data, and writing it again gives the
    same bytes."""
    data = _case(
        [
            {"skill_activated": {"skill_id": "order"}},
            {"memory_was_set": [{"name": "order.size", "value": "large"}]},
            {"bot_uttered": {"utter_name": "utter_never_used"}},
        ],
        ["The agent " + "keeps each message short and asks for one thing at a time " * 3],
    )
    dialect = get_dialect("mantle")
    text = dialect.dump_justified(data, shop)
    assert load_yaml(text) == data
    assert dialect.dump_justified(load_yaml(text), shop) == text
    lines = text.splitlines()
    at = lines.index("      - skill_activated:")
    assert lines[at - 1] == (
        "      # enforced: skills/order/skill.md:3 routing by the skill's description"
    )
    assert "      # unjustified: no definition element found" in lines
    assert next(line for line in lines if line.lstrip().startswith("#")).startswith("      #")
    # Without the comments it is the canonical text every other writer gives.
    bare = "\n".join(line for line in lines if not line.lstrip().startswith("#")) + "\n"
    assert bare == dialect.dump(data)


def test_review_flags_unjustified_and_conditional_assertions(shop: Any) -> None:
    from agentflows.generate._prewrite import review_findings

    data = _case(
        [
            {"skill_activated": {"skill_id": "order"}},
            {"tool_executed": {"tool_name": "load_profile", "skill_id": "order"}},
            {"bot_uttered": {"utter_name": "utter_never_used"}},
        ]
    )
    found = review_findings(data, "mantle", shop)
    flagged = {f.path: f for f in found if f.code == "unjustified-assertion"}
    assert set(flagged) == {"/scenario/goals/assertions/1", "/scenario/goals/assertions/2"}
    conditional = flagged["/scenario/goals/assertions/1"]
    assert conditional.value == "skills/order/skill.md:21"
    assert "conditional prose" in conditional.message
    assert "no definition element" in flagged["/scenario/goals/assertions/2"].message


def test_generate_keeps_only_justified_assertions(shop: Any) -> None:
    from agentflows.generate._justified import keep_justified

    dialect = get_dialect("mantle")
    data = _case(
        [
            {"skill_activated": {"skill_id": "order"}},
            {"skill_completed": {"skill_id": "order"}},
            {"tool_executed": {"tool_name": "load_profile", "skill_id": "order"}},
            {
                "memory_was_set": [
                    {"name": "order.size", "value": "large"},
                    {"name": "order.rating", "value": 5},
                ]
            },
        ]
    )
    kept = keep_justified(data, dialect, shop)
    assert kept.needs_review is None
    assert kept.data["scenario"]["goals"]["assertions"] == [
        {"skill_activated": {"skill_id": "order"}},
        {"skill_completed": {"skill_id": "order"}},
        {"memory_was_set": [{"name": "order.size", "value": "large"}]},
    ]
    assert sorted(f["code"] for f in kept.fixes) == ["justify:conditional"] * 2
    assert data["scenario"]["goals"]["assertions"][2]  # the draft itself is left alone


def test_a_case_that_would_lose_its_goal_is_kept_for_review(shop: Any) -> None:
    from agentflows.generate._justified import keep_justified

    data = _case(
        [
            {"skill_activated": {"skill_id": "order"}},
            {"tool_executed": {"tool_name": "load_profile", "skill_id": "order"}},
        ]
    )
    kept = keep_justified(data, get_dialect("mantle"), shop)
    assert kept.data == data
    assert kept.needs_review and "skills/order/skill.md:21" in kept.needs_review
    # Unjustified assertions the goal does not rest on still go.
    data["scenario"]["goals"]["assertions"].append(
        {"bot_uttered": {"utter_name": "utter_never_used"}}
    )
    kept = keep_justified(data, get_dialect("mantle"), shop)
    assert (
        kept.data["scenario"]["goals"]["assertions"] == data["scenario"]["goals"]["assertions"][:2]
    )
    assert [f["code"] for f in kept.fixes] == ["justify:unjustified"]
    assert kept.needs_review and "utter_never_used" not in kept.needs_review


def test_generate_writes_justified_cases_and_reports_each_check(shop: Any, tmp_path: Path) -> None:
    from skill_model_fixtures import generate_offline

    report = generate_offline(Path(shop.root), ["order"], tmp_path)
    assert report["cases"]
    counts = report["justification"]["assertions"]
    assert set(counts) <= {"enforced", "instructed"}
    for row in report["cases"]:
        text = Path(row["path"]).read_text(encoding="utf-8")
        checks = [j for j in row["justifications"] if j["top"] and j["check"] != "criterion"]
        assert checks and all(j["justification"] for j in checks)
        assert text.count("# enforced: ") + text.count("# instructed: ") >= len(checks)
        assert "load_profile" not in text.split("assertions:")[-1]


def test_a_trigger_the_gate_requires_is_fixed_by_the_call_the_case_asserts(
    tmp_path: Path,
) -> None:
    """ "When details_ok is true, call place_order" where place_order `requires` details_ok:
    a case that asserts the call (or its refused confirmation) shows the trigger held, since
    the runtime does not call the tool before; without such a check it stays conditional."""
    files = dict(SHOP)
    files["skills/order/skill.md"] = (
        SHOP["skills/order/skill.md"]
        .replace("requires: session.order.size", "requires: session.order.details_ok")
        .replace(
            "Then call `@tool.place_order` with the item and the size.",
            "When details_ok is true, call `@tool.place_order` with the item and the size.",
        )
    )
    files["skills/order/memory.yml"] = SHOP["skills/order/memory.yml"] + (
        "    details_ok:\n      type: bool\n      llm_settable: true\n"
    )
    project = load_project(write_project(tmp_path / "p", files))
    placed = {"tool_executed": {"tool_name": "place_order", "skill_id": "order"}}
    assert _one(project, placed).kind == "instructed"
    refused = {"bot_uttered": {"utter_name": "utter_order_cancelled"}}
    assert _one(project, refused).kind == "instructed"
    listed = {"memory_was_set": [{"name": "order.order_id"}]}
    assert _one(project, listed).kind == "conditional"  # nothing shows the call happened


def test_a_criterion_naming_a_response_restates_what_utters_it(shop: Any) -> None:
    """A criterion that names one of the project's responses ("confirms with
    utter_order_placed") is backed by the element that utters it, as the assertion would be;
    one naming a response no skill says stays unbacked."""
    activated = {"skill_activated": {"skill_id": "order"}}
    case = _case(
        [activated],
        [
            "The agent confirms the order with utter_order_placed once it is placed.",
            "The agent reads out utter_never_used.",
        ],
    )
    judged = get_dialect("mantle").justify(case, shop)
    criteria = {j.path: j.justification for j in judged if j.top and "criteria" in j.path}
    placed = criteria["/scenario/goals/criteria/0"]
    assert placed is not None and "on_success" in placed.element
    assert criteria["/scenario/goals/criteria/1"] is None
