"""What a service outside the agent answers is no case's to assert or to make fail.

A tool whose code posts to an HTTP API (here through a client a helper of the file builds)
fails only on the service's answer: no input of the case decides it, so its failure case is
planned only to be reported dropped, with why. What it writes from the answer (an order
number, written only when the service accepts) is never asserted; that the tool ran is. A
tool on the project's own data still gets its failure case."""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_answers import after_outside_call, on_unknown_id
from agentflows.planning import NOT_WRITTEN, plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import outside_effect, reported_fields
from evalcore.dialects.mantle._justify import judge_case

SKILL = """\
---
name: Order parts
description: >
  Order a spare part for a machine: "I need a new filter for my coffee machine".
tool_constraints:
  - check_part:
      on_failure: utter_part_unknown
  - submit_order:
      requires: session.order_parts.part_checked
      on_success: utter_order_placed
      on_failure: utter_order_failed
---

Help the customer order a spare part.

Ask for the part number and set `part_number`. Call check_part with it.
When part_checked is true, call submit_order with the part number and tell them the
order number.
"""

TOOLS = '''\
import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool

PARTS = {"FLT-2041": "Water filter"}


def _shop() -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=os.environ["SHOP_URL"], timeout=5.0)


@tool(description="Check that a part number is on the parts list.")
async def check_part(part_number: str, context: ToolContext = None):
    """Check it.

    Args:
        part_number: The part id, three letters and four digits (FLT-2041).
    """
    if part_number not in PARTS:
        raise ValueError("unknown part")
    context.memory.set("part_checked", True)
    return {"ok": True, "name": PARTS[part_number]}


@tool(description="Place the order with the parts shop.")
async def submit_order(part_number: str, context: ToolContext = None):
    """Order it.

    Args:
        part_number: The part id.
    """
    async with _shop() as api:
        response = await api.post("/orders", json={"part": part_number})
    if response.status_code >= 400:
        return {"ordered": False, "error": response.json().get("code")}
    context.memory.set("order_number", response.json()["order_number"])
    return {"ordered": True}
'''

MEMORY = """\
schema:
  public:
    part_number:
      type: text
      description: Part id, three letters and four digits (FLT-2041).
      llm_settable: true
    part_checked:
      type: bool
    order_number:
      type: text
"""

RESPONSES = """\
responses:
  utter_part_unknown:
    - text: I could not find that part.
  utter_order_placed:
    - text: Your order is placed.
  utter_order_failed:
    - text: The order did not go through.
  utter_anything_else:
    - text: Anything else?
"""


def _project(tmp_path: Path):
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_parts/skill.md": SKILL,
        "skills/order_parts/tools.py": TOOLS,
        "skills/order_parts/memory.yml": MEMORY,
    }
    return load_project(write_project(tmp_path / "parts", files))


def test_a_client_a_helper_of_the_file_builds_reaches_the_service(tmp_path: Path) -> None:
    project = _project(tmp_path)
    tools = project.mantle.tools_for("order_parts")
    effect = outside_effect(project, tools["submit_order"])
    assert effect is not None and effect.calls == ("api.post",)
    assert effect.answered == ("order_number",)  # written after the post, from its answer
    assert outside_effect(project, tools["check_part"]) is None


def test_a_failure_only_the_service_can_answer_is_reported_dropped(tmp_path: Path) -> None:
    project = _project(tmp_path)
    behaviors = plan_source(project, "mantle", "order_parts", None).behaviors
    failures = {str(b.facts.get("tool")): b for b in behaviors if b.facts.get("kind") == "failure"}
    reason = str(failures["submit_order"].facts.get(NOT_WRITTEN))
    assert "outside the agent (api.post)" in reason and "no real run" in reason
    assert NOT_WRITTEN not in failures["check_part"].facts  # the code itself refuses it


def test_what_a_tool_writes_from_the_service_answer_is_never_asserted(tmp_path: Path) -> None:
    project = _project(tmp_path)
    behaviors = plan_source(project, "mantle", "order_parts", None).behaviors
    happy = next(b for b in behaviors if b.facts.get("kind") == "happy")
    goals = draft_mantle(DraftContext(project, "mantle", happy))["scenario"]["goals"]
    assertions = goals["assertions"]
    ran = [a["tool_executed"]["tool_name"] for a in assertions if "tool_executed" in a]
    assert "submit_order" in ran  # that it ran is asserted
    named = [
        i.get("name")
        for a in assertions
        for i in a.get("memory_was_set") or []
        if isinstance(i, dict)
    ]
    named += [s.get("memory_was_set") for a in assertions for s in a.get("sequencing") or []]
    assert "order_parts.part_checked" in named  # the project's own check still is
    assert "order_parts.order_number" not in named


def _happy_goals(project, skill: str = "order_parts") -> dict:
    behaviors = plan_source(project, "mantle", skill, None).behaviors
    happy = next(b for b in behaviors if b.facts.get("kind") == "happy")
    return draft_mantle(DraftContext(project, "mantle", happy))["scenario"]["goals"]


def _runs(assertions: list[dict]) -> dict[str, dict]:
    return {
        a["tool_executed"]["tool_name"]: a["tool_executed"]
        for a in assertions
        if "tool_executed" in a
    }


def test_the_call_is_asserted_never_what_the_service_answers(tmp_path: Path) -> None:
    goals = _happy_goals(_project(tmp_path))
    runs = _runs(goals["assertions"])
    assert "is_error" not in runs["submit_order"]  # the shop's answer, not the agent's
    assert runs["check_part"]["is_error"] is False  # the project's own code
    said = [a["bot_uttered"]["utter_name"] for a in goals["assertions"] if "bot_uttered" in a]
    assert "utter_order_placed" not in said  # said only when the shop accepts
    assert (
        "If submit_order succeeds, the agent tells the customer it went through"
        in (goals["criteria"])
    )


def _checked_on_the_shop(tmp_path: Path, method: str) -> dict:
    """The happy path's goals where check_part asks the shop (`method`: `get` looks the
    part up, `post` puts a hold on it) and writes `part_checked` from its answer."""
    tools = TOOLS.replace(
        """    if part_number not in PARTS:
        raise ValueError("unknown part")""",
        f"""    async with _shop() as api:
        response = await api.{method}(f"/parts/{{part_number}}")
    if response.status_code >= 400:
        raise ValueError("unknown part")""",
    )
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_parts/skill.md": SKILL,
        "skills/order_parts/tools.py": tools,
        "skills/order_parts/memory.yml": MEMORY,
    }
    return _happy_goals(load_project(write_project(tmp_path / method, files)))


def test_what_runs_only_once_an_outside_write_went_through_is_not_asserted(
    tmp_path: Path,
) -> None:
    goals = _checked_on_the_shop(tmp_path, "post")
    runs = _runs(goals["assertions"])
    # the hold is the goal: the order runs only where the shop took it (`requires`)
    assert set(runs) == {"check_part"} and "is_error" not in runs["check_part"]
    named = [i.get("name") for a in goals["assertions"] for i in a.get("memory_was_set") or []]
    assert "order_parts.part_checked" not in named
    assert "If check_part succeeds, the agent goes on to submit_order" in goals["criteria"]


def test_what_follows_an_outside_lookup_is_still_asserted(tmp_path: Path) -> None:
    runs = _runs(_checked_on_the_shop(tmp_path, "get")["assertions"])
    assert set(runs) == {"check_part", "submit_order"}
    assert not any("is_error" in body for body in runs.values())


STATUS_SKILL = """\
---
name: Order status
description: >
  Where an order is: "where is my order", "has my filter shipped".
---

Ask for the order number and set `order_number`, then call get_status with it.

if: session.order_status.status == "delayed"
Apologise once and give the new date.

if: session.order_status.status == "shipped"
Give the tracking link.
"""

STATUS_TOOLS = '''\
import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Look the order up at the shop.")
async def get_status(order_number: str, context: ToolContext = None):
    """Look it up.

    Args:
        order_number: The order id (ORD-12345).
    """
    async with httpx.AsyncClient(base_url=os.environ["SHOP_URL"]) as api:
        response = await api.get(f"/orders/{order_number}")
    return response.json()
'''

STATUS_MEMORY = """\
schema:
  public:
    order_number:
      type: text
      description: Order id, ORD- and five digits.
      llm_settable: true
    status:
      type: categorical
      enum_values: [shipped, delayed]
      description: Order status as get_status reports it.
      llm_settable: true
"""


def test_branches_only_the_service_answer_picks_collapse_into_one_case(tmp_path: Path) -> None:
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_status/skill.md": STATUS_SKILL,
        "skills/order_status/tools.py": STATUS_TOOLS,
        "skills/order_status/memory.yml": STATUS_MEMORY,
    }
    project = load_project(write_project(tmp_path / "status", files))
    assert reported_fields(project, "order_status") == {"order_status.status"}
    behaviors = plan_source(project, "mantle", "order_status", None).behaviors
    happy = [b for b in behaviors if b.facts.get("kind") == "happy"]
    written = [b for b in happy if NOT_WRITTEN not in b.facts]
    assert len(written) == 1 and len(happy) > 1
    assert all("outside the agent reports" in str(b.facts.get(NOT_WRITTEN, "")) for b in happy[1:])
    case = draft_mantle(DraftContext(project, "mantle", written[0]))["scenario"]
    assert "shipped" not in case["simulation_context"].lower()  # no user can say it
    assert "delayed" not in case["simulation_context"].lower()
    named = [
        i.get("name") for a in case["goals"]["assertions"] for i in a.get("memory_was_set") or []
    ]
    assert "order_status.status" not in named


def _permit_negative(tmp_path: Path, body: str):
    """The permit fixture's check, here on a registry service (`body`: how it sets
    `lapsed`), and its planned `negative` behaviour (the `lapsed` branch)."""
    from test_computed_branch import FILES as PERMITS

    tools = PERMITS["skills/renew_permit/tools.py"].replace(
        """    expires = date(2026, 6, 1)
    context.memory.set("lapsed", date.today() > expires)""",
        body,
    )
    tools = "import httpx\n" + tools
    files = {**PERMITS, "skills/renew_permit/tools.py": tools}
    project = load_project(write_project(tmp_path / "permits", files))
    behaviors = plan_source(project, "mantle", "renew_permit", None).behaviors
    return project, next(b for b in behaviors if b.facts.get("kind") == "negative")


def test_a_branch_the_service_answer_picks_is_reported_dropped(tmp_path: Path) -> None:
    project, negative = _permit_negative(
        tmp_path,
        """    async with httpx.AsyncClient() as api:
        response = await api.get(f"https://registry.example/permits/{permit_number}")
    context.memory.set("lapsed", response.json()["lapsed"])""",
    )
    tool = project.mantle.tools_for("renew_permit")["check_permit"]
    assert outside_effect(project, tool).valued == ("lapsed",)
    assert "comes back negative only on what that service answers" in str(
        negative.facts.get(NOT_WRITTEN)
    )


def test_a_branch_the_code_works_out_before_it_calls_is_still_written(tmp_path: Path) -> None:
    project, negative = _permit_negative(
        tmp_path,
        """    lapsed = date.today() > date(2026, 6, 1)
    async with httpx.AsyncClient() as api:
        await api.post("https://registry.example/checks", json={"permit": permit_number})
    context.memory.set("lapsed", lapsed)""",
    )
    tool = project.mantle.tools_for("renew_permit")["check_permit"]
    assert outside_effect(project, tool).valued == ()
    assert NOT_WRITTEN not in negative.facts


def test_a_call_whose_only_write_is_the_answer_stands_for_itself_in_the_order(
    tmp_path: Path,
) -> None:
    # submit_order `requires` part_checked: the runtime runs it only once that is set. Its
    # one write, the order number, is the shop's answer and never asserted, so the call
    # itself follows the check in the case's `sequencing`
    goals = _happy_goals(_project(tmp_path))
    orders = [a["sequencing"] for a in goals["assertions"] if "sequencing" in a]
    assert any(
        {"memory_was_set": "order_parts.part_checked"} in steps
        and steps.index({"memory_was_set": "order_parts.part_checked"})
        < next(
            (i for i, s in enumerate(steps) if "submit_order" in str(s.get("tool_executed"))),
            -1,
        )
        for steps in orders
    ), orders


def test_what_the_prose_says_after_an_outside_call_holds_once_it_succeeds(
    tmp_path: Path,
) -> None:
    """ "call submit_order ... Give the delivery date from the tool": a shop that refuses
    the order gives no date, so the criterion waits for the call's success."""
    skill = SKILL.replace(
        "call submit_order with the part number and tell them the\norder number.",
        "call submit_order with the part number. Give the delivery date from the\n"
        "tool, not your own estimate. Thank them for waiting.",
    )
    tools = TOOLS.replace(
        '    context.memory.set("order_number", response.json()["order_number"])\n',
        '    context.memory.set("order_number", response.json()["order_number"])\n'
        '    context.memory.set("delivery_date", response.json()["delivery_date"])\n',
    )
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_parts/skill.md": skill,
        "skills/order_parts/tools.py": tools,
        "skills/order_parts/memory.yml": MEMORY + "    delivery_date:\n      type: text\n",
    }
    project = load_project(write_project(tmp_path / "dated", files))
    behaviors = plan_source(project, "mantle", "order_parts", None).behaviors
    happy = next(b for b in behaviors if b.facts.get("kind") == "happy")
    data = draft_mantle(DraftContext(project, "mantle", happy))
    criteria = data["scenario"]["goals"]["criteria"]
    said = "the agent gives the delivery date from the tool, not its own estimate"
    assert f"If submit_order succeeds, {said}" in criteria
    assert f"T{said[1:]}" not in criteria
    # cited at the sentence that says it, not at the success reply of the call
    cited = {j.path: j.justification for j in judge_case(data, project)}
    backing = cited[
        f"/scenario/goals/criteria/{criteria.index(f'If submit_order succeeds, {said}')}"
    ]
    assert backing is not None and "Give the delivery date" in backing.element
    # what the service's answer does not hold waits for nothing
    call = "When part_checked is true, call submit_order with the part number."
    thanks = "The agent thanks them for waiting"
    assert after_outside_call(project, thanks, call, ["submit_order"]) == thanks


def test_what_is_told_of_an_id_no_data_holds_waits_for_the_lookup_to_find_it(
    tmp_path: Path,
) -> None:
    """An order number no data file holds is drawn to its shape: the shop may not know it,
    so what the agent tells from looking it up holds only where the lookup finds it; a
    write (placing an order) is no lookup, and a prohibition holds whatever it answers."""
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_status/skill.md": STATUS_SKILL,
        "skills/order_status/tools.py": STATUS_TOOLS,
        "skills/order_status/memory.yml": STATUS_MEMORY,
    }
    status = load_project(write_project(tmp_path / "status", files))
    said = "The agent says the status in plain words"
    assert (
        on_unknown_id(status, said, ["get_status"], ["order number"])
        == "If get_status finds the order number they give, the agent says the status in "
        "plain words"
    )
    assert on_unknown_id(status, said, ["get_status"], []) == said  # an id a record holds
    never = "The agent does not quote a price"
    assert on_unknown_id(status, never, ["get_status"], ["order number"]) == never
    parts = _project(tmp_path)
    assert on_unknown_id(parts, said, ["submit_order"], ["order number"]) == said
