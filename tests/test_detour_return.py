"""How a detour comes back, and what shows the parked task went on: the return is asserted as
a resume only where the definitions fix the detour's end and the detour never starts the
parked skill itself; the user's answer to a detour's offer that leads back into the task
takes it; a task whose goal is a record the user's answer fixes asserts that record, with
its yes/no value, after the return."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import Project, load_project

TOOLS = '''"""Library tools (read with ast, never imported)."""

from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Renew a loan for two more weeks.")
async def renew(loan_number: str, context: ToolContext = None) -> dict:
    context.memory.set("renewed", True)
    return {"ok": True}


@tool(description="Today's opening hours.")
async def hours_today(context: ToolContext = None) -> dict:
    return {"open": "09:00", "close": "18:00"}


@tool(description="Look up when the borrowed books are due.")
async def due_dates(context: ToolContext = None) -> dict:
    return {"due": "2026-05-04"}
'''
THEME = """---
name: pick_theme
description: Switch the reading app's colour theme. Activate for "change my theme".
---

Ask which theme they want: dark or sepia.

When they pick one, set `theme` via `set_fields`, then confirm the new theme in one
line. Complete this skill immediately after that confirmation line.
"""
THEME_MEMORY = """schema:
  public:
    theme:
      type: categorical
      enum_values: [dark, sepia]
      description: The colour theme.
      llm_settable: true
"""
HOURS = """---
name: opening_hours
description: The library's opening hours. Activate for "when are you open".
import_tools:
  - hours_today
---

Call `@tool.hours_today` and tell them today's hours.
"""
RETURN = """---
name: return_book
description: Guide a reader through dropping a book in the return slot. Activate for
  "return a book".
---

Explain that the return slot is left of the main door.

Ask them to say when they are done. Set `returned` to true when they confirm it went in,
or false if they report a problem.
"""
RETURN_MEMORY = """schema:
  public:
    returned:
      type: bool
      description: Whether the reader confirmed the book went in.
      llm_settable: true
"""
RENEW = """---
name: renew_loan
description: Renew a book loan for two more weeks. Activate for "renew my loan".
import_tools:
  - renew
---

Ask for the loan number and set `loan_number`. Then call `@tool.renew` with it.
"""
RENEW_MEMORY = """schema:
  public:
    loan_number:
      type: text
      description: The loan number, like LN-4471.
      llm_settable: true
    renewed:
      type: bool
"""
DUE = """---
name: check_due
description: When the borrowed books are due back. Activate for "when are my books due".
import_tools:
  - due_dates
---

Call `@tool.due_dates` and tell them the due date.

Offer to help renew the loan. If they agree, invoke `@skill.renew_loan`.
"""


def _project(root: Path, skills: list[tuple[str, str, str | None]]) -> Project:
    root.mkdir(parents=True)
    (root / "agent.yml").write_text("agent:\n  name: Library\n  persona: You help readers.\n")
    (root / "memory.yml").write_text("schema:\n  public: {}\n")
    (root / "responses.yml").write_text("responses: {}\n")
    (root / "tools").mkdir()
    (root / "tools" / "library.py").write_text(TOOLS)
    for name, body, memory in skills:
        skill = root / "skills" / name
        skill.mkdir(parents=True)
        (skill / "skill.md").write_text(body)
        if memory:
            (skill / "memory.yml").write_text(memory)
    return load_project(root)


@pytest.fixture(scope="module")
def reading(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("reading") / "project"
    return _project(
        root,
        [
            ("pick_theme", THEME, THEME_MEMORY),
            ("opening_hours", HOURS, None),
            ("return_book", RETURN, RETURN_MEMORY),
        ],
    )


@pytest.fixture(scope="module")
def loans(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("loans") / "project"
    return _project(root, [("renew_loan", RENEW, RENEW_MEMORY), ("check_due", DUE, None)])


def _case(project: Project, skill: str, kind: str) -> dict:
    behaviors = plan_source(project, "mantle", skill, None).behaviors
    behavior = next(b for b in behaviors if b.facts.get("kind") == kind)
    return draft_mantle(DraftContext(project, "mantle", behavior))


def _kinds(data: dict) -> list[str]:
    return [next(iter(a)) for a in data["scenario"]["goals"]["assertions"]]


def test_a_detour_that_only_answers_is_no_fixed_return(reading: Project) -> None:
    """Neither other skill of the project says when it is done or ends on a question the
    user answers by asking to go back: the return may come as a fresh activation, so
    neither the resume nor a sequence through it is asserted; the interruption is."""
    data = _case(reading, "pick_theme", "digression")
    kinds = _kinds(data)
    assert "skill_interrupted" in kinds
    assert "skill_resumed" not in kinds
    assert "skill_resumed" not in str(data["scenario"]["goals"]["assertions"])


def test_a_detour_that_completes_by_its_own_words_comes_first(reading: Project) -> None:
    """The theme switch completes right after its confirmation line; the opening hours only
    answer (and ask nothing, the cheaper detour): the detour goes to the theme switch, and
    the parked task's return is asserted as a resume."""
    data = _case(reading, "return_book", "digression")
    assert "Before that, change my theme" in data["scenario"]["simulation_context"]
    assert "skill_resumed" in _kinds(data)


def test_a_resumed_task_whose_goal_is_a_record_asserts_it_after_the_return(
    reading: Project,
) -> None:
    data = _case(reading, "return_book", "digression")
    assertions = data["scenario"]["goals"]["assertions"]
    assert {"memory_was_set": [{"name": "return_book.returned", "value": True}]} in assertions
    (sequence,) = [a["sequencing"] for a in assertions if "sequencing" in a]
    resumed = next(i for i, s in enumerate(sequence) if "skill_resumed" in s)
    assert {"memory_was_set": "return_book.returned"} in sequence[resumed + 1 :]


def test_a_yes_no_record_the_users_answer_fixes_is_asserted_with_its_value(
    reading: Project,
) -> None:
    assertions = _case(reading, "return_book", "happy")["scenario"]["goals"]["assertions"]
    assert {"memory_was_set": [{"name": "return_book.returned", "value": True}]} in assertions


def test_a_detour_offer_that_leads_back_into_the_task_is_taken(loans: Project) -> None:
    """The due-date skill offers to renew and then invokes the renewal itself: the user's
    answer to that offer takes it (never "no, thanks" beside a wish to go back), and since
    an agent may start the renewal afresh from there, no resume is asserted; the renewal
    itself still is."""
    data = _case(loans, "renew_loan", "digression")
    context = data["scenario"]["simulation_context"]
    assert "- whether you want help to renew the loan: yes, please" in context
    assert "no, thanks" not in context
    kinds = _kinds(data)
    assert "skill_resumed" not in kinds
    assert "tool_executed" in kinds
