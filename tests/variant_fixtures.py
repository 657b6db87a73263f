"""A small help-desk project with one freedom per skill, for the allowed-variant tests.

    root = write_desk(tmp_path)

- `check_bill`: a profile lookup the prose runs only "if username is missing", where the
  project field has an `initial_value` (`skip_optional`);
- `goodbye`: a rating the prose only permits ("you may ask") (`skip_optional`);
- `book_visit`: a date the user says passed to a tool whose field states no format
  (`reformat_argument`);
- `leave`: a country and a flag the model sets in one step (`reorder_writes`, `set_late`).
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

CHECK_BILL = """\
---
name: Check bill
description: Look up and explain the customer's monthly bill amount.
---

Help the customer understand their bill.

If username is missing in project memory, call `@tool.load_profile`.

Call `@tool.get_bill` and tell them the amount.
"""

CHECK_BILL_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Load the customer's profile.")
async def load_profile(context: ToolContext = None):
    """Load the profile of the customer in the conversation."""
    context.memory.set("username", "Dana Ortiz")
    return {"username": "Dana Ortiz"}


@tool(description="Get the customer's latest bill.")
async def get_bill(context: ToolContext = None):
    """The latest bill."""
    context.memory.set("bill_amount", 42)
    return {"amount": 42}
'''

GOODBYE = """\
---
name: Goodbye
description: End the conversation politely when the customer says goodbye or that is all.
---

Thank the customer briefly.

If they seem done, you may ask for a quick thumbs up or thumbs down. Set
`feedback_rating` to thumbs_up or thumbs_down if they answer.

Wish them a good day and end the conversation.
"""

GOODBYE_MEMORY = """\
schema:
  public:
    feedback_rating:
      type: categorical
      description: End-of-call feedback rating.
      enum_values: [thumbs_up, thumbs_down]
      llm_settable: true
"""

BOOK_VISIT = """\
---
name: Book a visit
description: Book a technician visit to the customer's home on a day they choose.
---

Ask for the visit date with @memory.book_visit.visit_date and call
@tool.book_slot with it. Tell them the visit is booked.
"""

BOOK_VISIT_MEMORY = """\
schema:
  public:
    visit_date:
      type: text
      description: The day the customer wants the visit.
      llm_settable: true
"""

BOOK_VISIT_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Book a technician visit.")
async def book_slot(visit_date: str, context: ToolContext = None):
    """Book the visit on `visit_date`."""
    context.memory.set("visit_booked", True)
    return {"booked": True}
'''

LEAVE = """\
---
name: Parental leave
description: Explain the parental leave rules of the country the employee works in.
tool_constraints:
  - get_guidance:
      requires: session.leave.confirmed
---

Ask which country they work in with @memory.leave.country. When they answer, set
`country` and `confirmed` to true via `set_fields`.

Only then call @tool.get_guidance with that country and explain the rules.
"""

LEAVE_MEMORY = """\
schema:
  public:
    country:
      type: text
      description: The country the employee works in.
      llm_settable: true
    confirmed:
      type: bool
      description: The employee confirmed the country.
      llm_settable: true
"""

LEAVE_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Parental leave guidance for a country.")
async def get_guidance(country: str, context: ToolContext = None):
    """The guide's sections for `country`."""
    return {"weeks": 16}
'''

DESK: dict[str, str] = {
    "agent.yml": "name: Help desk\npersona: You help the customers of a broadband provider.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "username:\n  type: text\n  description: The customer's display name.\n"
        "  initial_value: Dana Ortiz\n"
    ),
    "skills/check_bill/skill.md": CHECK_BILL,
    "skills/check_bill/tools.py": CHECK_BILL_TOOLS,
    "skills/goodbye/skill.md": GOODBYE,
    "skills/goodbye/memory.yml": GOODBYE_MEMORY,
    "skills/book_visit/skill.md": BOOK_VISIT,
    "skills/book_visit/memory.yml": BOOK_VISIT_MEMORY,
    "skills/book_visit/tools.py": BOOK_VISIT_TOOLS,
    "skills/leave/skill.md": LEAVE,
    "skills/leave/memory.yml": LEAVE_MEMORY,
    "skills/leave/tools.py": LEAVE_TOOLS,
}


def write_desk(root: Path) -> Path:
    return write_project(root, DESK)
