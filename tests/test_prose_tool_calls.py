"""Prose that calls a tool by what it does, prose after an ordered block, and `if:` paragraphs
of a step's instructions, on a small allotment-society project written here: the skill model
reads the calls, the planner's walk runs them, the reference agent plays them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, play_lines, write_project

from agentflows.planning._mantle_walk import Setup, walk_skill
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import build_skill_model, instruction_prompt
from evalcore.definitions.skill_model._tool_words import ToolWords, described_calls, stem, stems

PLOTS = """\
---
name: Allotment plots
description: Reserving a garden plot or releasing one a member holds.
import_tools:
  - get_site
tool_constraints:
  - reserve_plot:
      requires: session.plots.plot_id
  - release_plot:
      requires: session.plots.reservation_id
complete_when:
  condition: session.plots.reserved or session.plots.released
---

Ask whether they want to reserve a plot or release one, and set mode.

if: session.plots.mode == "reserve"
Ask for the site name and look the site up. Then find the free plots at that site and read
them out. When they pick one, set plot_id and reserve it. Never reserve two plots for one
member.

if: session.plots.mode == "release"
Ask for the reservation number, set reservation_id, and release it. Say so before
releasing if the season has started.
"""

PLOT_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="List the free plots at a site.")
async def list_free_plots(site_name: str, context: ToolContext = None):
    """Free plots at one site."""
    return {"plots": ["P-101", "P-102"]}


@tool(description="Reserve a plot for the member.")
async def reserve_plot(plot_id: str, context: ToolContext = None):
    """Hold the plot for this season."""
    context.memory.set("reserved", True)
    return {"reserved": True}


@tool(description="Release a plot reservation.")
async def release_plot(reservation_id: str, context: ToolContext = None):
    """Give the plot back."""
    context.memory.set("released", True)
    return {"released": True}
'''

SHARED_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Look up an allotment site by its name.")
async def get_site(site_name: str, context: ToolContext = None):
    """The site's record."""
    return {"found": True}
'''

SHED = """\
---
name: Tool shed key
description: Getting a key to the site's tool shed.
complete_when:
  condition: session.shed_key.key_code
---

Start with @block.intake.

:::ordered_block id=intake
steps:
  - id: member
    collect: member_number
    utterance: utter_ask_member_number
  - id: why
    instructions: |
      Ask what they need the shed for and set purpose.

      if: session.shed_key.kind == "ride_on"
      Ask for the mower licence number as well and set licence.
    complete_when: session.shed_key.purpose
:::

Then issue the key for the shed and tell them the code it returns. Check the plot only when
they ask.
"""

SHED_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Issue a tool-shed key code to a member.")
async def issue_key(member_number: str, context: ToolContext = None):
    """A key code for the shed padlock."""
    context.memory.set("key_code", "K-4411")
    return {"key_code": "K-4411"}


@tool(description="Check a plot's soil.")
async def check_soil(context: ToolContext = None):
    """Soil test."""
    return {}


@tool(description="Check a plot's water supply.")
async def check_water(context: ToolContext = None):
    """Water test."""
    return {}
'''

COMPOST = """\
---
name: Compost delivery
description: Ordering a compost delivery to a plot.
complete_when:
  condition: session.compost.order_id
---

Tell them a delivery takes a week.

:::ordered_block id=details
steps:
  - id: plot
    collect: plot_number
    utterance: utter_ask_plot_number
:::

Then order the compost for that plot and give them the order number it returns.
"""

COMPOST_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Order compost delivered to a plot.")
async def order_compost(plot_number: str, context: ToolContext = None):
    """Place the order."""
    context.memory.set("order_id", "C-0042")
    return {"order_id": "C-0042"}
'''

FILES = {
    "agent.yml": "name: Allotment society\npersona: You help allotment members.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": (
        "responses:\n  utter_cannot_help:\n    - text: Sorry, I can't help with that.\n"
        "  utter_ask_member_number:\n    - text: What is your member number?\n"
        "  utter_ask_plot_number:\n    - text: Which plot is it for?\n"
    ),
    "tools/sites.py": SHARED_TOOLS,
    "skills/plots/skill.md": PLOTS,
    "skills/plots/tools.py": PLOT_TOOLS,
    "skills/plots/memory.yml": (
        "schema:\n  public:\n"
        "    mode: {type: categorical, enum_values: [reserve, release], llm_settable: true}\n"
        "    site_name: {type: text, description: The allotment site., llm_settable: true}\n"
        "    plot_id: {type: text, description: The plot picked., llm_settable: true}\n"
        "    reservation_id: {type: text, description: The reservation, R- and four digits.,"
        " llm_settable: true}\n"
        "    reserved: {type: bool}\n    released: {type: bool}\n"
    ),
    "skills/shed_key/skill.md": SHED,
    "skills/shed_key/tools.py": SHED_TOOLS,
    "skills/shed_key/memory.yml": (
        "schema:\n  public:\n"
        "    member_number: {type: text, description: The member number., llm_settable: true}\n"
        "    kind: {type: categorical, enum_values: [hand, ride_on], llm_settable: true}\n"
        "    purpose: {type: text, description: What the shed is needed for.,"
        " llm_settable: true}\n"
        "    licence: {type: text, description: The mower licence., llm_settable: true}\n"
        "    key_code: {type: text}\n"
    ),
    "skills/compost/skill.md": COMPOST,
    "skills/compost/tools.py": COMPOST_TOOLS,
    "skills/compost/memory.yml": (
        "schema:\n  public:\n"
        "    plot_number: {type: text, description: The plot number., llm_settable: true}\n"
        "    order_id: {type: text}\n"
    ),
}


@pytest.fixture(scope="module")
def society(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("society"), FILES)


def _prose_calls(root: Path, skill: str) -> dict[str, list[str | None]]:
    model = build_skill_model(load_project(root), skill)
    return {
        t.name: [c.condition for c in t.calls if c.kind == "prose"]
        for t in model.tools
        if any(c.kind == "prose" for c in t.calls)
    }


def test_light_stemming_matches_the_forms_prose_uses():
    assert stem("verified") == stem("verify") == stem("verifies")
    assert stem("booking") == stem("book") and stem("slots") == stem("slot")
    assert stem("cancelled") == stem("cancel") == stem("cancelling")


def test_prose_calls_tools_by_what_they_do_including_an_imported_one(society: Path):
    calls = _prose_calls(society, "plots")
    reserve = 'session.plots.mode == "reserve"'
    release = 'session.plots.mode == "release"'
    # "look the site up" is the shared `get_site` (import_tools), "find the free plots" the
    # local lister (it names more of its words than get_site's), "reserve it" with plot_id
    assert calls["get_site"] == [reserve]
    assert calls["list_free_plots"] == [reserve]
    # "Never reserve two plots" is no call: only "set plot_id and reserve it" is
    assert calls["reserve_plot"] == [reserve]
    # "release it" with reservation_id; "before releasing" has no object: no second call
    assert calls["release_plot"] == [release]


def test_a_wish_asked_about_is_no_call(society: Path):
    model = build_skill_model(load_project(society), "plots")
    first = "Ask whether they want to reserve a plot or release one, and set mode."
    assert not any(c.sentence == first for t in model.tools for c in t.calls)


def test_a_sentence_that_reads_as_two_tools_calls_neither_and_says_so(society: Path):
    model = build_skill_model(load_project(society), "shed_key")
    assert not [t.name for t in model.tools if t.name in ("check_soil", "check_water")]
    doubts = [u for u in model.uncertainties if u.what == "which tool the prose calls"]
    assert len(doubts) == 1
    assert "check_soil" in doubts[0].why and "check_water" in doubts[0].why


def test_the_verb_needs_an_object_of_the_tool():
    words = [ToolWords.of("issue_key", None), ToolWords.of("order_compost", None)]
    assert list(described_calls("Then issue the key for the shed.", words)) == ["issue_key"]
    assert described_calls("Issue a warning if they are late.", words) == {}
    assert described_calls("The order is final.", words) == {}
    # a description of what happens, a noun use, an identifier: no call
    assert described_calls("Keys are issued to members.", words) == {}
    assert described_calls("It orders compost for the plot.", words) == {}
    assert described_calls("Read out the order compost line.", words) == {}
    assert described_calls("Then run @block.order_compost.", words) == {}


def test_a_pronoun_finds_its_antecedent_in_the_text_before_it():
    """ "Then cancel it." names neither the booking nor its id; the sentences before do."""
    words = [ToolWords.of("find_bookings", None), ToolWords.of("cancel_booking", None)]
    before = stems("Ask which one to cancel and set booking_id. Say which before cancelling.")
    assert described_calls("Then cancel it.", words) == {}
    assert list(described_calls("Then cancel it.", words, before)) == ["cancel_booking"]
    # an antecedent of another tool's: still no call of this one
    assert described_calls("Then cancel it.", words, stems("Read the plot number.")) == {}


def test_the_walk_completes_a_skill_whose_last_call_says_only_it(tmp_path: Path):
    files = dict(FILES)
    files["skills/plots/skill.md"] = PLOTS.replace(
        "Ask for the reservation number, set reservation_id, and release it.",
        "Ask for the reservation number and set reservation_id. Then release it.",
    )
    project = load_project(write_project(tmp_path, files))
    assert _prose_calls(tmp_path, "plots")["release_plot"] == ['session.plots.mode == "release"']
    release = walk_skill(project, "plots", Setup(values={"plots.mode": "release"}))
    assert [e.tool for e in release.events if e.kind == "tool"] == ["release_plot"]
    assert release.completed


def test_a_tool_a_block_step_runs_is_not_called_again_by_its_description(tmp_path: Path):
    files = dict(FILES)
    files["skills/compost/skill.md"] = (
        COMPOST.replace("Then order the compost", "Then run @tool.order_compost")
        .replace(
            "    utterance: utter_ask_plot_number\n",
            "    utterance: utter_ask_plot_number\n"
            "  - id: order\n    execute_tool: order_compost\n",
        )
        .replace("Tell them a delivery takes a week.", "Order compost for the plot they name.")
    )
    model = build_skill_model(load_project(write_project(tmp_path, files)), "compost")
    use = model.tool("order_compost")
    assert use is not None
    assert [c.sentence for c in use.calls if c.kind == "prose"] == [
        "Then run @tool.order_compost for that plot and give them the order number it returns."
    ]


def test_the_walk_runs_the_prose_after_a_block_it_starts_with(society: Path):
    walk = walk_skill(load_project(society), "shed_key", Setup())
    kinds = [
        (e.kind, e.tool or e.block) for e in walk.events if e.kind in ("tool", "block_completed")
    ]
    assert kinds == [("block_completed", "intake"), ("tool", "issue_key")]
    assert walk.completed


def test_a_block_the_prose_never_names_runs_where_it_stands(society: Path):
    walk = walk_skill(load_project(society), "compost", Setup())
    assert [e.tool for e in walk.events if e.kind == "tool"] == ["order_compost"]
    assert walk.completed


def test_the_walk_runs_the_described_calls_of_each_mode(society: Path):
    project = load_project(society)
    reserve = walk_skill(project, "plots", Setup(values={"plots.mode": "reserve"}))
    assert [e.tool for e in reserve.events if e.kind == "tool"] == [
        "get_site",
        "list_free_plots",
        "reserve_plot",
    ]
    release = walk_skill(project, "plots", Setup(values={"plots.mode": "release"}))
    assert [e.tool for e in release.events if e.kind == "tool"] == ["release_plot"]
    assert reserve.completed and release.completed


def test_an_if_paragraph_of_another_mode_never_words_the_question(society: Path):
    project = load_project(society)
    text = str(project.mantle.skills["shed_key"].blocks["intake"].steps[1].target)
    purpose = project.mantle.memory_field("shed_key.purpose")
    assert instruction_prompt(text, purpose, lambda _c: False) == (
        "Ask what they need the shed for and set purpose."
    )
    licence = project.mantle.memory_field("shed_key.licence")
    assert "mower licence" in instruction_prompt(text, licence, lambda _c: True)
    hand = walk_skill(project, "shed_key", Setup(values={"shed_key.kind": "hand"}))
    asked = [a for a in hand.asks if a.field == "shed_key.purpose"]
    assert asked and "licence" not in (asked[0].prompt or "")


def _ran(events: list[dict[str, Any]]) -> list[str]:
    return [e["tool_name"] for e in events if e["event"] == "tool_executed"]


def test_the_reference_agent_plays_the_prose_after_the_block(society: Path):
    lines = ["I need a key to the tool shed", "hand", "M-2231", "to fetch a wheelbarrow"]
    events = play_lines(society, lines)
    assert _ran(events) == ["issue_key"]
    asked = [e.get("text") or "" for e in events if e["event"] == "bot"]
    assert any("shed for" in q for q in asked) and not any("licence" in q for q in asked)
    assert "shed_key" in [e.get("skill_id") for e in events if e["event"] == "skill_completed"]


def test_the_reference_agent_plays_a_described_release(society: Path):
    events = play_lines(society, ["I want to release my allotment plot", "release", "R-4410"])
    assert _ran(events) == ["release_plot"]


def test_a_negation_ends_at_a_semicolon(tmp_path: Path):
    """ "Do not quote; book a survey with @tool.x": the second clause calls x."""
    files = dict(FILES)
    files["skills/plots/skill.md"] = PLOTS.replace(
        "When they pick one, set plot_id and reserve it.",
        "When they pick one, set plot_id. Do not hold it by phone; use @tool.reserve_plot.",
    )
    model = build_skill_model(load_project(write_project(tmp_path, files)), "plots")
    use = model.tool("reserve_plot")
    assert use is not None
    assert [c.sentence for c in use.calls if c.kind == "prose"] == [
        "Do not hold it by phone; use @tool.reserve_plot."
    ]


def test_a_sentence_naming_a_tool_calls_no_other_by_what_it_does(tmp_path: Path):
    """ "look the member up with @tool.find_member" names its tool (one this skill does
    not import): no tool of the skill is read into "look … up"."""
    files = dict(FILES)
    files["skills/plots/skill.md"] = PLOTS.replace(
        "Ask for the site name and look the site up.",
        "Ask for the site name and look the site up with @tool.find_site_record.",
    )
    model = build_skill_model(load_project(write_project(tmp_path, files)), "plots")
    use = model.tool("get_site")  # imported, and called by no sentence now
    assert use is None or not [c for c in use.calls if "find_site_record" in (c.sentence or "")]


def test_a_call_after_otherwise_is_the_first_calls_alternative(tmp_path: Path):
    """ "If they have the number use @tool.a; otherwise list them with @tool.b": one of the
    two runs, the one the conversation's facts pick; a walk takes the first and never
    asserts both."""
    files = dict(FILES)
    files["skills/plots/skill.md"] = PLOTS.replace(
        "Ask for the reservation number, set reservation_id, and release it.",
        "If they have the reservation number use @tool.release_plot; otherwise list the plots "
        "with @tool.list_free_plots and ask which one.",
    )
    project = load_project(write_project(tmp_path, files))
    model = build_skill_model(project, "plots")
    listing, release = model.tool("list_free_plots"), model.tool("release_plot")
    assert listing is not None and release is not None
    said = [c for c in [*listing.calls, *release.calls] if "otherwise" in (c.sentence or "")]
    assert [(c.optional, c in listing.calls) for c in said] == [(True, True), (False, False)]
    assert any("otherwise" in u.why for u in model.uncertainties)
    walk = walk_skill(project, "plots", Setup(values={"plots.mode": "release"}))
    assert [e.tool for e in walk.events if e.kind == "tool"] == ["release_plot"]
