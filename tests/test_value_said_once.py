"""A value the first message already names is not said again: "I'm locked out" says the
lockout request, so the opening is never "I'm locked out: lockout.", and the reference
agent reads the value from the words alone (a compound said as two words)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import yaml

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_up_front import not_said_twice
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.agents.reference._mantle_words import field_words
from evalcore.definitions import load_project
from evalcore.runner import collect_cases
from evalcore.simulator import parse_fact_context

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
RESIDENTS = CORPUS / "oakline_residents"


def test_a_compound_value_said_as_two_words_is_read() -> None:
    defs = load_project(RESIDENTS).mantle
    assert defs is not None
    words = field_words(defs, "door_access.request")
    assert words.stated("I'm locked out of my flat") == "lockout"
    assert words.stated("I got locked-out") == "lockout"
    assert words.stated("I'm not locked out, I lost my key fob") == "lost_fob"
    assert words.stated("The lock is out of order") is None


def test_a_bare_value_the_request_names_is_dropped() -> None:
    defs = load_project(RESIDENTS).mantle
    assert defs is not None
    given = {"door_access.request": "lockout"}
    plain = "Hi, I'd like help with building access."
    assert not_said_twice(defs, "I'm locked out. Lockout, please.", given, plain) == (
        "I'm locked out."
    )
    # the skill's plain request names what the skill covers, not the job: the value stays
    line = f"{plain} Lockout, please."
    assert not_said_twice(defs, line, given, plain) == line
    # a bare value the rest does not name stays
    line = "I lost my key fob. Lockout, please."
    assert not_said_twice(defs, line, given, plain) == line


def test_the_lockout_case_opens_once_and_verifies(tmp_path: Path) -> None:
    project = load_project(RESIDENTS)
    behaviors = plan_source(project, "mantle", "door_access", None).behaviors
    case = next(b for b in behaviors if b.id == "door_access:lockout")
    data = draft_mantle(DraftContext(project, "mantle", case))
    opening = parse_fact_context(data["scenario"]["simulation_context"]).opening or ""
    assert "locked out" in opening.lower(), opening
    assert "lockout" not in opening.lower(), opening
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "lockout.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    report = asyncio.run(mutate(collect_cases([folder], project=RESIDENTS), RESIDENTS, only=[]))
    assert report.reference == {"lockout": "passed"}, report.reference
