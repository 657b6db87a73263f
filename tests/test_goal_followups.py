"""Goal cases the reading or the justifier used to hold back although the case fixes what
they rest on.

- A skill that lists choices and sets a field "when they pick a valid one" (`set_fields`):
  the pick is the user's answer, so the happy path asserts the write of a listed value (never
  a YAML `off` read as false) and cites the sentence that sets it; no `skill_completed`
  where the skill has no `complete_when`.
- A guard that names an entry in words ("if there are order lines") is fixed by the case that
  sets it; a permission in parentheses leaves the next sentence instructed.
- A branch on an entry the block writes only after it (ask, then `set_memory`) is decided by
  what the case seeds, not by the value it ends with: the ask stays on the case's path.
- A read-back is the agent repeating details, not the user reporting how their step went.
- A value kept with `set_fields` in an undeclared entry is a finding about the project.
- The writes made "when they confirm" are the user's answers; a room is named by its name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, play_lines, write_project

from evalcore.definitions import load_project
from evalcore.dialects import get_dialect

THEME_SKILL = """\
---
name: pick_theme
description: >
  Switch the chat's display theme (sunset, ocean, forest) or back to plain. Activate for
  "dark theme", "ocean theme", "list your themes" or "plain theme".
---

Let people change how replies are dressed up. Keep it short.

Themes on offer:
- `sunset`
- `ocean`
- `forest`
- `off` (plain)

If they ask which themes exist, list them and invite them to pick one.

When they pick a valid theme, set `theme` via `set_fields`, then confirm in one short line.

The look itself lasts through the theme memory value; this skill need not stay open for it.
"""

THEME_MEMORY = """\
schema:
  public:
    theme:
      type: categorical
      enum_values:
        - off
        - sunset
        - ocean
        - forest
      description: The display theme in use. off means plain.
      llm_settable: true
"""

THEME_FILES = {
    "agent.yml": "name: Studio desk\npersona: You help the studio's staff.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "skills/pick_theme/skill.md": THEME_SKILL,
    "skills/pick_theme/memory.yml": THEME_MEMORY,
}


def _assertions(case: dict[str, Any]) -> list[dict[str, Any]]:
    return case["scenario"]["goals"]["assertions"]


def test_a_pick_among_listed_choices_is_the_users_answer_and_its_write_the_goal(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path / "studio", THEME_FILES)
    report = generate_offline(root, ["pick_theme"], tmp_path)
    happy = [r for r in report["cases"] if r["type"] == "happy_path"]
    assert len(happy) == 1, (report["failed"], report["dropped"])
    assert happy[0]["verified"] == "yes", happy[0].get("needs_review")
    text = Path(happy[0]["path"]).read_text("utf-8")
    items = _assertions(yaml.safe_load(text))
    written = [m for a in items for m in a.get("memory_was_set") or [] if isinstance(m, dict)]
    assert written == [{"name": "pick_theme.theme", "value": "sunset"}]
    assert not any("skill_completed" in a for a in items)  # no complete_when
    # cited at the sentence that sets it, not the one that only names the entry
    line = THEME_SKILL.splitlines().index(
        next(s for s in THEME_SKILL.splitlines() if s.startswith("When they pick"))
    )
    assert f"skills/pick_theme/skill.md:{line + 1} sets the entry" in text
    # the user knows the listed word the case asserts
    assert "sunset" in yaml.safe_load(text)["scenario"]["simulation_context"]


# --- the justifier: a condition the case fixes ------------------------------------------

PARCEL_SKILL = """\
---
name: Ship a parcel
description: The customer ships a parcel and packs the lines they count.
---

Help the customer ship one parcel.

Ask for the parcel's size and what is in it (set size and contents; a photo of the label
helps but is optional). Then call `@tool.ship_parcel`.

Run @block.pack.

:::ordered_block id=pack
steps:
  - id: review
    instructions: |
      Read the suggested pack lines and set pack_lines to the final list.
    complete_when: session.parcel.pack_lines
:::

After the review, if there are pack lines, call `@tool.send_pack`.

You may offer insurance. Then call `@tool.insure_parcel`.
"""

PARCEL_FILES = {
    "agent.yml": "name: Parcel desk\npersona: You help customers ship parcels.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/parcel/skill.md": PARCEL_SKILL,
    "skills/parcel/memory.yml": (
        "schema:\n  public:\n"
        "    size:\n      type: text\n      llm_settable: true\n"
        "    contents:\n      type: text\n      llm_settable: true\n"
        "    pack_lines:\n      type: list\n      llm_settable: true\n"
    ),
    "skills/parcel/tools.py": (
        "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
        '@tool(description="Ship it.")\n'
        "async def ship_parcel(size: str, context: ToolContext = None):\n"
        '    return {"ok": True}\n\n\n'
        '@tool(description="Send the pack order.")\n'
        "async def send_pack(context: ToolContext = None):\n"
        '    return {"ok": True}\n\n\n'
        '@tool(description="Insure it.")\n'
        "async def insure_parcel(context: ToolContext = None):\n"
        '    return {"ok": True}\n'
    ),
}


def _judged(
    root: Path,
    assertions: list[dict[str, Any]],
    context: str,
    slots: dict[str, Any] | None = None,
) -> list[Any]:
    """The justification of each top-level assertion of a case with these parts."""
    scenario: dict[str, Any] = {"name": "a case", "type": "happy_path"}
    scenario["simulation_context"] = context
    if slots:
        scenario["setup"] = {"initial_slots": slots}
    case = {"scenario": {**scenario, "goals": {"assertions": assertions}}}
    judged = get_dialect("mantle").justify(case, load_project(root))
    return [j.justification for j in judged if j.top]


def _ran(tool: str) -> dict[str, Any]:
    return {"tool_executed": {"tool_name": tool, "skill_id": "parcel", "is_error": False}}


def test_an_optional_detail_in_parentheses_leaves_the_next_sentence_instructed(
    tmp_path: Path,
) -> None:
    """ "(… a photo helps but is optional). Then call ship_parcel": the permission is the
    photo's, not the call's; a "You may …" sentence still leaves the rest of its paragraph
    to the model."""
    root = write_project(tmp_path / "parcel", PARCEL_FILES)
    context = "You are Ada.\nYou want to ship a parcel.\n- size: small\n"
    shipped, insured = _judged(root, [_ran("ship_parcel"), _ran("insure_parcel")], context)
    assert shipped is not None and shipped.kind == "instructed", shipped
    assert insured is not None and insured.kind == "conditional", insured


def test_a_guard_that_names_an_entry_in_words_is_fixed_by_the_case_that_sets_it(
    tmp_path: Path,
) -> None:
    """ "if there are pack lines" names `pack_lines`: a case asserting the entry set fixes
    the guard, one that leaves it open does not."""
    root = write_project(tmp_path / "parcel", PARCEL_FILES)
    context = "You are Ada.\nYou want to ship a parcel.\n"
    lines = {"memory_was_set": [{"name": "parcel.pack_lines"}]}
    _, sent = _judged(root, [lines, _ran("send_pack")], context)
    assert sent is not None and sent.kind == "instructed", sent
    (open_,) = _judged(root, [_ran("send_pack")], context)
    assert open_ is not None and open_.kind == "conditional", open_


REGION_SKILL = """\
---
name: Depot hours
description: Opening hours of the depot in the customer's region.
---

:::ordered_block id=main
steps:
  - id: route_known
    noop: true
    next:
      - if: session.project.region == "north"
        then: answer_north
      - if: session.project.region == "south"
        then: answer_south
      - else: ask_region
  - id: ask_region
    collect: stated_region
    utterance: utter_ask_region
    next:
      - if: session.hours.stated_region == "north"
        then: remember_north
      - else: remember_south
  - id: remember_north
    set_memory:
      region: north
    next: answer_north
  - id: remember_south
    set_memory:
      region: south
    next: answer_south
  - id: answer_north
    action: utter_hours_north
    next: END
  - id: answer_south
    action: utter_hours_south
    next: END
:::
"""

REGION_FILES = {
    "agent.yml": "name: Depot desk\npersona: You help the depot's customers.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "region:\n  type: categorical\n  enum_values: [north, south]\n",
    "responses.yml": (
        "responses:\n"
        "  utter_ask_region:\n    - text: Which region are you in?\n"
        "  utter_hours_north:\n    - text: The north depot opens at 8.\n"
        "  utter_hours_south:\n    - text: The south depot opens at 9.\n"
    ),
    "skills/hours/skill.md": REGION_SKILL,
    "skills/hours/memory.yml": (
        "schema:\n  public:\n    stated_region:\n      type: categorical\n"
        "      enum_values: [north, south]\n"
    ),
}


def test_a_value_the_block_writes_after_a_branch_does_not_close_that_branch(
    tmp_path: Path,
) -> None:
    """The case ends with region = north, but the block sets it only after it asked (the
    branch on region came first, with region unset): the ask and its answer are on the
    path the case takes. A case that seeds region = north does skip the ask."""
    root = write_project(tmp_path / "depot", REGION_FILES)
    context = "You are Ada.\nYou want the depot hours.\n- which region: north\n"
    written = {
        "memory_was_set": [
            {"name": "hours.stated_region", "value": "north"},
            {"name": "project.region", "value": "north"},
        ]
    }
    asked = {"bot_uttered": {"utter_name": "utter_ask_region"}}
    memory, question = _judged(root, [written, asked], context)
    assert memory is not None and memory.kind == "enforced", memory
    assert question is not None and question.kind == "enforced", question
    seeded = _judged(root, [asked], context, {"project.region": "north"})
    assert seeded[0] is not None and seeded[0].kind == "conditional", seeded
    assert "a branch the case does not take" in seeded[0].element


# --- the reference agent: a read-back is the agent repeating details -----------------------

MODEM_FILES = {
    "agent.yml": "name: Line desk\npersona: You help customers with their home internet.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "skills/reset_modem/skill.md": """\
---
name: Reset modem
description: Walk the customer through resetting their modem. Activate for modem reset.
---

Explain that they should hold the reset button for ten seconds.

Ask them to say when they are done. Set `reset_done` to true when they confirm success, or
false if they report a problem.
""",
    "skills/reset_modem/memory.yml": (
        "schema:\n  public:\n    reset_done:\n      type: bool\n"
        "      description: Whether the customer finished resetting the modem.\n"
        "      llm_settable: true\n"
    ),
}


def test_confirming_how_their_own_step_went_is_no_read_back(tmp_path: Path) -> None:
    from evalcore.agents.reference._asking import reads_back

    assert not reads_back("Set `x` to true when they confirm success, or false otherwise.")
    assert not reads_back("Set `x` when they confirm it worked.")
    assert reads_back("Read back the order and the date. Set `x` to true when they confirm.")
    assert reads_back("When they confirm, set `x` to true via `set_fields`.")
    assert reads_back("Set `x` when they confirm the details.")
    root = write_project(tmp_path / "line", MODEM_FILES)
    events = play_lines(root, ["I need to reset my modem.", "Yes, I am done and it worked."])
    said = " ".join(str(e.get("text") or "") for e in events if e.get("event") == "bot")
    assert said and "read the details back" not in said, said
    assert any(e.get("event") == "memory_set" and e.get("value") is True for e in events)


# --- a finding about the project: set_fields on an entry no memory.yml declares -----------

STATEMENT_SKILL = """\
---
name: Statement
description: Look up the customer's monthly statement total. Activate for statement questions.
tool_constraints:
  - get_statement:
      requires: session.statement.stmt_month
---

Help the customer with a statement.

Ask which month they want to review. When they answer, set `stmt_month` via
`set_fields` to a full month name such as March.

if: session.statement.stmt_month
Call `@tool.get_statement` and read the total.
"""

STATEMENT_FILES = {
    "agent.yml": "name: Billing desk\npersona: You help customers with their statements.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "skills/statement/skill.md": STATEMENT_SKILL,
    "skills/statement/tools.py": (
        "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
        '@tool(description="The statement of a month.")\n'
        "async def get_statement(stmt_month: str, context: ToolContext = None):\n"
        '    return {"total": 42}\n'
    ),
}


def test_set_fields_on_an_undeclared_entry_is_told_to_the_author_with_file_and_entry(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path / "billing", STATEMENT_FILES)
    where = "skills/statement/skill.md:11: the prose sets `stmt_month` via `set_fields`"
    warnings = load_project(root).warnings
    told = [w for w in warnings if w.startswith(where)]
    assert len(told) == 1, warnings
    assert (
        "get_statement has `requires: session.statement.stmt_month` (skills/statement/skill.md:6)"
        in told[0]
    )
    assert "gating condition not met" in told[0] and "no case can assert it ran" in told[0]
    assert "`if:` on it (skills/statement/skill.md:14) never applies" in told[0]
    assert "Declare `stmt_month` in skills/statement/memory.yml" in told[0]
    report = generate_offline(root, ["statement"], tmp_path)
    happy = [r for r in report["cases"] if r["type"] == "happy_path"]
    assert happy and happy[0]["verified"] == "needs-review", happy
    assert f"in the project: {where}" in happy[0]["needs_review"]


# --- a thing the user names, and the writes made once they confirm --------------------------

ROOM_SKILL = """\
---
name: post_note
description: Post a short note the user gives to one of the team's chat rooms.
tool_constraints:
  - post_note:
      requires: session.post_note.note_confirmed
---

Help the user post a short note to a team room.

Clarify which room and what to say if either is missing. Call `list_rooms` when they are
unsure of room names. Show them the exact text and room, and ask them to confirm.

When they confirm, set `note_confirmed` to true via `set_fields`, set `room_id` to the chosen
room id, set `note_text` to the final text, then call `post_note`.
"""

ROOM_FILES = {
    "agent.yml": "name: Team desk\npersona: You help the team's staff.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "skills/post_note/skill.md": ROOM_SKILL,
    "skills/post_note/memory.yml": (
        "schema:\n  public:\n"
        "    room_id:\n      type: text\n"
        "      description: Chat room id to post to (e.g. R_LOBBY).\n      llm_settable: true\n"
        "    note_text:\n      type: text\n"
        "      description: Final note text confirmed by the user.\n      llm_settable: true\n"
        "    note_confirmed:\n      type: bool\n"
        "      description: User confirmed room and text before posting.\n"
        "      llm_settable: true\n"
    ),
    "skills/post_note/tools.py": (
        "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
        '@tool(description="The rooms.")\n'
        "async def list_rooms(context: ToolContext = None):\n"
        '    return {"rooms": [{"id": "R_LOBBY", "name": "lobby"}]}\n\n\n'
        '@tool(description="Post the confirmed note.")\n'
        "async def post_note(context: ToolContext = None):\n"
        '    return {"ok": True}\n'
    ),
}


def test_the_writes_made_once_they_confirm_are_asserted_and_a_room_is_named_by_its_name(
    tmp_path: Path,
) -> None:
    """ "When they confirm, set note_confirmed …, set room_id …, set note_text …": the room
    and the text are the user's (asked and set), asserted as set, not by value; the user
    names the room as a person does ("lobby"), never the id from the description (R_LOBBY)."""
    root = write_project(tmp_path / "team", ROOM_FILES)
    report = generate_offline(root, ["post_note"], tmp_path)
    happy = [r for r in report["cases"] if r["type"] == "happy_path"]
    assert len(happy) == 1 and happy[0]["verified"] == "yes", (happy, report["dropped"])
    case = yaml.safe_load(Path(happy[0]["path"]).read_text("utf-8"))
    written = {
        m["name"]: m.get("value")
        for a in _assertions(case)
        for m in a.get("memory_was_set") or []
        if isinstance(m, dict)
    }
    assert {"post_note.room_id", "post_note.note_text"} <= set(written), written
    assert written["post_note.room_id"] is None and written["post_note.note_text"] is None
    context = case["scenario"]["simulation_context"]
    assert "- room: lobby" in context and "R_LOBBY" not in context, context


def test_alternatives_of_one_sentence_are_guarded_each_on_its_own(tmp_path: Path) -> None:
    """ "Set `reset_done` to true when they confirm success, or false if they report a
    problem": the user who reports that it worked fixes the first alternative, so the write
    is instructed; a tool named only in the other alternative stays conditional."""
    files = dict(MODEM_FILES)
    files["skills/reset_modem/skill.md"] = MODEM_FILES["skills/reset_modem/skill.md"] + (
        "\nWhen they confirm success, call `@tool.close_ticket`, or call `@tool.book_visit` if"
        " they report a problem.\n"
    )
    root = write_project(tmp_path / "line", files)
    context = (
        "You are Ada.\nYou want to reset your modem.\n"
        "- whether you finished resetting the modem: Yes, I am done and it worked.\n"
    )
    done = {"memory_was_set": [{"name": "reset_modem.reset_done"}]}
    visit = {"tool_executed": {"tool_name": "book_visit", "skill_id": "reset_modem"}}
    written, booked = _judged(root, [done, visit], context)
    assert written is not None and written.kind == "instructed", written
    assert booked is not None and booked.kind == "conditional", booked


def test_a_guard_the_user_states_holds_and_its_otherwise_branch_does_not(tmp_path: Path) -> None:
    """ "If they have a tracking code (T- and six digits) use @tool.track_parcel; otherwise
    list their parcels with @tool.list_parcels": a user who knows the tracking code fixes the
    guard (its parenthesis and the instruction after it are no part of it); the otherwise
    branch is for the user who does not."""
    files = dict(PARCEL_FILES)
    files["skills/parcel/skill.md"] = PARCEL_SKILL + (
        "\nIf they have a tracking code (T- and six digits) use @tool.track_parcel; otherwise"
        " list their parcels with @tool.list_parcels and ask which one.\n"
    )
    files["skills/parcel/memory.yml"] = PARCEL_FILES["skills/parcel/memory.yml"] + (
        "    tracking_code:\n      type: text\n      llm_settable: true\n"
    )
    root = write_project(tmp_path / "parcel", files)
    context = "You are Ada.\nYou want to find a parcel.\n- tracking code: T-204611\n"
    tracked, listed = _judged(root, [_ran("track_parcel"), _ran("list_parcels")], context)
    assert tracked is not None and tracked.kind == "instructed", tracked
    assert listed is not None and listed.kind == "conditional", listed
