"""A skill with several jobs, and a permission check that relates the caller to the target.

A description lists one request per job ("deploy v2.41.0 to staging", "why did my deploy
fail"); a case of one job opens with that job's request, and the agent reads it as that job
(not `deploy` for "my deploy"). A check that compares the caller's record with the target's
(`person["team"] == entry["team"]`) gets a caller and target that pass it, and an example
that names another record than the case's names the case's own.
"""

from __future__ import annotations

import json
from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting.offline._mantle_intent import own_records_named
from agentflows.drafting.offline._mantle_owned import owned_facts
from agentflows.planning._mantle_phrases import strong_phrases
from evalcore.agents.reference import example_modes
from evalcore.agents.reference._mantle_words import field_words
from evalcore.definitions import Project, load_project
from evalcore.definitions.skill_model import related_keys, relation_waivers
from evalcore.testdata import Collection, DataRecords, FieldSpec, SheetBuilder

SHIP = """\
---
name: Shipping
description: >
  Anything about shipping a service: "what's running in prod for cart-api", "deploy
  v2.4.0 to staging", "roll back cart-api", "why did my deploy fail".
import_tools:
  - check_permission
---

Set service and set mode to one of status, deploy, rollback or diagnose. For deploy and
rollback, first check with @tool.check_permission that the engineer owns the service.

if: session.ship.mode == "status"
Call get_service and say which version runs in each environment.

if: session.ship.mode == "deploy"
Ask for the environment and the version tag, then call start_deploy.

if: session.ship.mode == "rollback"
Rolling back goes to the previous good version: call rollback_release.

if: session.ship.mode == "diagnose"
Call get_deploy_logs for the failed deploy and summarise the first error.
"""

MEMORY = """\
schema:
  public:
    service:
      type: text
      description: Catalog name of the service.
      llm_settable: true
    mode:
      type: categorical
      enum_values: [status, deploy, rollback, diagnose]
      description: What the engineer wants to do.
      llm_settable: true
"""

CATALOG = '''\
import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

DATA = Path(__file__).resolve().parents[1] / "data"


@tool(description="Whether the engineer may change the service.")
async def check_permission(service: str, handle: str, context: ToolContext = None) -> ToolResult:
    """Owners and SREs may change a service.

    Args:
        service: Catalog name.
        handle: The engineer's handle.
    """
    services = json.loads((DATA / "services.json").read_text())
    engineers = json.loads((DATA / "engineers.json").read_text())
    entry = next(s for s in services if s["service"] == service)
    person = next(e for e in engineers if e["handle"] == handle)
    return ToolResult(llm_response={"allowed": person["sre"] or person["team"] == entry["team"]})
'''

SERVICES = [
    {"service": "cart-api", "team": "payments", "environments": {"staging": "v2.4.0"}},
    {"service": "push-hub", "team": "mobile", "environments": {"staging": "v5.1.0"}},
    {"service": "search-box", "team": "discovery", "environments": {"staging": "v1.9.0"}},
]
ENGINEERS = [
    {"handle": "mei", "team": "payments", "sre": False},
    {"handle": "rosa", "team": "discovery", "sre": False},
]

FILES = {
    "agent.yml": "name: Platform\npersona: You help engineers.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/ship/skill.md": SHIP,
    "skills/ship/memory.yml": MEMORY,
    "tools/catalog.py": CATALOG,
    "data/services.json": json.dumps(SERVICES),
    "data/engineers.json": json.dumps(ENGINEERS),
}


def _project(tmp_path: Path) -> Project:
    return load_project(write_project(tmp_path / "platform", FILES))


def test_each_description_example_asks_for_its_own_job(tmp_path: Path) -> None:
    defs = _project(tmp_path).mantle
    assert defs is not None
    modes = example_modes(defs, defs.skills["ship"])
    assert modes["why did my deploy fail"] == {"ship.mode": "diagnose"}
    assert modes["deploy v2.4.0 to staging"] == {"ship.mode": "deploy"}
    assert modes["roll back cart-api"] == {"ship.mode": "rollback"}
    # the agent reads the diagnose request as diagnose, though its words say "deploy"
    words = field_words(defs, "ship.mode")
    assert words.stated("Why did my deploy fail?") == "diagnose"
    assert words.stated("Why did my deploy fail? Deploy, please.") == "deploy"
    assert words.stated("Deploy v2.4.0 to staging.") == "deploy"
    # and a deploy case never opens with it as the request that names its mode
    named = dict(strong_phrases(defs, defs.skills["ship"]))
    assert named["Why did my deploy fail?"] == {"ship.mode": "diagnose"}


def test_an_example_naming_another_record_names_the_cases_own(tmp_path: Path) -> None:
    project = _project(tmp_path)
    defs = project.mantle
    assert defs is not None
    skill = defs.skills["ship"]
    services = Collection("services", tuple(SERVICES))
    records = DataRecords([services])
    memory = {"ship.service": "search-box", "ship.mode": "rollback"}
    line = "Roll back cart-api. Rollback, please. The service is search-box."
    assert own_records_named(defs, skill, line, memory, records) == (
        "Roll back search-box. Rollback, please."
    )
    # the example's version is the other record's: the case's own at the same place
    memory = {"ship.service": "search-box", "ship.mode": "deploy"}
    line = "Deploy v2.4.0 to staging. The service is search-box."
    assert own_records_named(defs, skill, line, memory, records) == (
        "Deploy v1.9.0 to staging. The service is search-box."
    )
    # a value the case's path holds (read from the line) stays
    held = {**memory, "ship.target_version": "v2.4.0"}
    assert own_records_named(defs, skill, line, held, records) == line


def test_a_check_comparing_two_records_draws_a_pair_that_passes_it(tmp_path: Path) -> None:
    project = _project(tmp_path)
    assert related_keys(project, "ship") == frozenset({"team"})
    # a path that runs no such check (a diagnose request) relates nothing
    assert related_keys(project, "ship", frozenset({"get_deploy_logs"})) == frozenset()
    services = Collection("services", tuple(SERVICES))
    engineers = Collection("engineers", tuple(ENGINEERS))
    records = DataRecords([services, engineers])
    spec = FieldSpec("service", "text", "Catalog name of the service.")
    for slot in range(3):
        for person in ENGINEERS:
            sheet = SheetBuilder(f"c{slot}", "", records, slot=slot, related=frozenset({"team"}))
            sheet.hold(person)
            drawn = sheet.value(spec)
            assert next(s for s in SERVICES if s["service"] == drawn)["team"] == person["team"]


def test_a_flag_the_check_accepts_instead_frees_the_caller_from_the_relation(
    tmp_path: Path,
) -> None:
    """`person["sre"] or person["team"] == entry["team"]`: an SRE may change any service, and
    their team owns none; the case draws a service for them and never reports that the file
    holds no service of their team."""
    project = _project(tmp_path)
    assert relation_waivers(project, "ship") == {"team": frozenset({"sre"})}
    sre = {"handle": "tobi", "team": "sre", "sre": True}
    services = Collection("services", tuple(SERVICES))
    engineers = Collection("engineers", (*ENGINEERS, sre))
    records = DataRecords([services, engineers])
    spec = FieldSpec("service", "text", "Catalog name of the service.")
    sheet = SheetBuilder("c0", "", records, related=frozenset({"team"}))
    sheet.waivers = relation_waivers(project, "ship")
    sheet.hold(sre)
    assert sheet.value(spec) in {s["service"] for s in SERVICES}
    assert not [m for m in sheet.sheet.misfits if "no-fitting-record" in m]
    # without the flag the caller is tied to their team's services, as before
    plain = SheetBuilder("c0", "", records, related=frozenset({"team"}))
    plain.hold(sre)
    plain.value(spec)
    assert [m for m in plain.sheet.misfits if "no-fitting-record" in m]


CALENDAR = """\
---
name: Calendar
description: The executive's own calendar.
import_tools:
  - mcp/workspace:list_events
  - mcp/workspace:delete_event
  - mcp/workspace:respond_to_invite
---

From the request, set mode to agenda or cancel.

if: session.cal.mode == "agenda"
Call list_events for the day they asked about.

if: session.cal.mode == "cancel"
Find the meeting with list_events, set event_id, and call delete_event. For meetings the
executive does not own, decline instead: call respond_to_invite with "declined".
"""


def test_a_target_the_prose_turns_away_unless_owned_is_the_users_own(tmp_path: Path) -> None:
    files = {
        "agent.yml": "name: Office\npersona: You help an executive.\n",
        "integrations.yml": INTEGRATIONS,
        "skills/cal/skill.md": CALENDAR,
        "skills/cal/memory.yml": (
            "schema:\n  public:\n    mode:\n      type: categorical\n"
            "      enum_values: [agenda, cancel]\n      llm_settable: true\n"
            "      description: What they want.\n"
        ),
    }
    defs = load_project(write_project(tmp_path / "office", files)).mantle
    assert defs is not None
    skill = defs.skills["cal"]
    cancel = {"cal.mode": "cancel"}
    assert owned_facts(skill, cancel, {"list_events", "delete_event"}) == [
        ("the meeting", "one you own")
    ]
    assert owned_facts(skill, cancel, {"list_events", "respond_to_invite"}) == [
        ("the meeting", "one you do not own")
    ]
    assert owned_facts(skill, {"cal.mode": "agenda"}, {"list_events"}) == []
