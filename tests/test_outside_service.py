"""Cases that run a tool whose code acts on a real service: the tool is found from its code,
the user names a test-only target, the case file and the run say so; a detour's cases check
that the parked task still gets done and what the detour itself answers."""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.outside_services import outside_by_tool
from agentflows.planning import plan_source
from agentflows.pr._describe import _outside as describe_outside
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import outside_effect
from evalcore.dialects import get_dialect

ANNOUNCE = """\
---
name: announce
description: >
  Post or announce a message to a team chat channel after confirmation.
tool_constraints:
  - post_team_message:
      requires: session.announce.post_confirmed
---

Help the employee post a short message to a team chat channel.

Ask which channel and what to say if either is missing. Show them the exact text plus
channel and ask them to confirm.

When they confirm, set `post_confirmed` to true via `set_fields`, set `channel_id` to the
chosen channel, set `message_text` to the final text, then call `post_team_message`.
"""

ANNOUNCE_TOOLS = '''\
import os

from lib import team_chat_client
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="List the team chat channels.")
async def list_team_channels(context: ToolContext = None):
    """Channels."""
    return {"channels": await team_chat_client.list_channels()}


@tool(description="Post a confirmed message to the team chat.")
async def post_team_message(context: ToolContext = None):
    """Post it."""
    token = os.environ.get("TEAM_CHAT_TOKEN")
    channel_id = context.memory.get("channel_id")
    text = context.memory.get("message_text")
    result = await team_chat_client.post_message(token, channel_id, text)
    return {"ok": True, "ts": result.get("ts")}


@tool(description="Count the words of a message.")
async def count_words(text: str, context: ToolContext = None):
    """Words."""
    return {"words": len(text.split())}
'''

SICK = """\
---
name: sick_note
description: >
  Employees who are ill and need sick leave steps: "I'm sick", "I feel ill today".
---

Call `get_sick_steps` and tell them the steps it returns.

Complete this skill right after telling them the steps.
"""

SICK_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Sick leave steps.")
async def get_sick_steps(context: ToolContext = None):
    """Steps."""
    return {"steps": ["Tell your manager."]}
'''

DECLINE = """\
---
name: decline_writing
description: >
  Off-topic requests to write poems, stories, lyrics or essays.
---

:::ordered_block id=main
steps:
  - id: respond
    action: utter_decline_writing
    next: END
:::
"""

FILES: dict[str, str] = {
    "agent.yml": "name: Office helper\npersona: You help employees at work.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "skills/announce/skill.md": ANNOUNCE,
    "skills/announce/tools.py": ANNOUNCE_TOOLS,
    "skills/announce/memory.yml": (
        "schema:\n  public:\n    channel_id:\n      type: text\n"
        "      description: Channel id to post to (e.g. C_GENERAL).\n      llm_settable: true\n"
        "    message_text:\n      type: text\n"
        "      description: Final message text confirmed by the user.\n      llm_settable: true\n"
        "    post_confirmed:\n      type: bool\n"
        "      description: User confirmed channel and message.\n      llm_settable: true\n"
    ),
    "skills/sick_note/skill.md": SICK,
    "skills/sick_note/tools.py": SICK_TOOLS,
    "skills/decline_writing/skill.md": DECLINE,
    "skills/decline_writing/responses.yml": (
        "responses:\n  utter_decline_writing:\n    - text: I can't write that, sorry.\n"
    ),
}


def _project(tmp_path: Path):
    return load_project(write_project(tmp_path / "office", FILES))


def _drafts(project) -> dict[str, dict]:
    behaviors = plan_source(project, "mantle", "announce", None).behaviors
    return {
        str(b.facts.get("kind")): draft_mantle(DraftContext(project, "mantle", b))
        for b in behaviors
    }


def _kinds(steps: list[dict]) -> list[str]:
    return [next(iter(s)) for s in steps]


def test_a_tool_that_posts_through_a_client_acts_on_an_outside_service(tmp_path: Path) -> None:
    project = _project(tmp_path)
    tools = project.mantle.tools_for("announce")
    post = outside_effect(project, tools["post_team_message"])
    assert post is not None and post.changes
    assert post.calls == ("team_chat_client.post_message",)
    assert post.credentials == ("TEAM_CHAT_TOKEN",)
    assert post.service == "team_chat"
    assert {"channel_id", "message_text"} <= set(post.reads)
    listing = outside_effect(project, tools["list_team_channels"])
    assert listing is not None and not listing.changes  # it only reads
    assert outside_effect(project, tools["count_words"]) is None


def test_the_user_names_a_test_only_channel_and_the_file_says_it_acts_for_real(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    happy = _drafts(project)["happy"]
    context = happy["scenario"]["simulation_context"]
    fact = next(line for line in context.splitlines() if line.startswith("- channel"))
    assert fact.lower().endswith("sandbox"), fact  # not the description's C_GENERAL
    assert "general" not in context.lower()
    text = get_dialect("mantle").dump_justified(happy, project)
    first = text.splitlines()[0]
    assert first.startswith("# outside service: post_team_message acts on")
    assert "TEAM_CHAT_TOKEN" in first
    assert yaml.safe_load(text) == happy  # a comment: the data reads back the same
    criteria = happy["scenario"]["goals"]["criteria"]
    assert not any("post_team_message" in c for c in criteria)  # words, not the tool's id
    assert (
        "Before it goes on to post the message, the agent reads the message text and the "
        "channel back for the customer to confirm"
    ) in [c.replace("employee", "customer") for c in criteria]


def test_a_detour_case_checks_the_parked_task_still_posts_after_the_resume(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    goals = _drafts(project)["digression"]["scenario"]["goals"]["assertions"]
    posted = [a for a in goals if "tool_executed" in a]
    assert posted and posted[0]["tool_executed"]["tool_name"] == "post_team_message"
    sequence = next(a["sequencing"] for a in goals if "sequencing" in a)
    kinds = _kinds(sequence)
    assert kinds.index("skill_resumed") < kinds.index("tool_executed")


def test_an_unrelated_request_checks_the_decline_skill_and_that_the_task_finishes(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    goals = _drafts(project)["out_of_scope"]["scenario"]["goals"]["assertions"]
    assert {"skill_activated": {"skill_id": "decline_writing"}} in goals
    assert {"bot_uttered": {"utter_name": "utter_decline_writing"}} in goals
    assert any(a.get("tool_executed", {}).get("tool_name") == "post_team_message" for a in goals)


def test_generate_verifies_them_and_lists_the_cases_that_act_for_real(tmp_path: Path) -> None:
    root = write_project(tmp_path / "office", FILES)
    report = generate_offline(root, ["announce"], tmp_path / "out")
    rows = {r["behavior"]: r for r in report["cases"]}
    for kind in ("announce:happy", "announce:digression", "announce:unrelated_request"):
        assert rows[kind]["verification"]["verified"] == "yes", rows[kind]["verification"]
        assert rows[kind]["outside"][0]["tool"] == "post_team_message"
        assert rows[kind]["outside"][0]["credentials"] == ["TEAM_CHAT_TOKEN"]


def test_the_summary_and_the_pr_caveats_group_the_same_cases_under_each_tool() -> None:
    report = {
        "cases": [
            {"behavior": "a:happy", "path": "a/happy.yml", "outside": [_POST]},
            {"behavior": "a:edge", "path": "a/edge.yml", "outside": [_POST, _MAIL]},
            {"behavior": "b:happy", "path": "b/happy.yml"},
        ]
    }
    grouped = outside_by_tool(report["cases"])
    assert [(g.tool, [r["behavior"] for r in g.rows]) for g in grouped] == [
        ("post_team_message", ["a:happy", "a:edge"]),
        ("send_mail", ["a:edge"]),
    ]
    caveats = describe_outside(report, ["a/edge.yml"])
    assert len(caveats) == 2 and all("1 of these case(s)" in line for line in caveats)
    assert "`TEAM_CHAT_TOKEN`" in caveats[0] and "`a/edge.yml`" in caveats[0]


_POST = {"tool": "post_team_message", "calls": ["client.post"], "credentials": ["TEAM_CHAT_TOKEN"]}
_MAIL = {"tool": "send_mail", "calls": ["smtplib.SMTP"], "credentials": []}


def test_run_says_which_cases_act_for_real_and_that_mantle_runs_no_tool_code(
    tmp_path: Path, run_cli, run_cli_json
) -> None:
    root = write_project(tmp_path / "office", FILES)
    project = load_project(root)
    cases = tmp_path / "cases"
    cases.mkdir()
    happy = _drafts(project)["happy"]
    (cases / "announce_happy.yml").write_text(get_dialect("mantle").dump_justified(happy, project))
    target = f"mantle:{root}"
    results = tmp_path / "results"
    code, _, err = run_cli(
        "run", cases, "--target", target, "--model", "offline", "--results", results
    )
    assert code == 0
    line = " ".join(next(x for x in err.split("\n\n") if "outside service" in x).split())
    assert "announce_happy run post_team_message, which acts on a real service" in line
    assert "this target runs no tool code" in line and "TEAM_CHAT_TOKEN" in line
    code, data = run_cli_json(
        "run", cases, "--target", target, "--model", "offline", "--results", results
    )
    assert data["outside"][0]["tool"] == "post_team_message"
    assert data["outside"][0]["cases"] == ["announce_happy"]


HTTP_TOOLS = '''\
import os

import httpx
import requests
from rasa.mantle.tools.decorator import ToolContext, tool

BASE = os.getenv("TICKETS_URL")


@tool(description="Open a ticket.")
async def open_ticket(summary: str, context: ToolContext = None):
    """Open it."""
    async with httpx.AsyncClient(timeout=httpx.Timeout(5.0)) as api:
        reply = await api.post(f"{BASE}/tickets", json={"summary": summary})
    return reply.json()


@tool(description="Read a ticket.")
async def read_ticket(ticket_id: str, context: ToolContext = None):
    """Read it."""
    return requests.get(f"{BASE}/tickets/{ticket_id}", timeout=5).json()
'''


def test_a_client_an_http_library_builds_acts_on_the_service_a_get_only_reads(
    tmp_path: Path,
) -> None:
    files = {
        "agent.yml": "name: Desk\npersona: You help.\n",
        "integrations.yml": INTEGRATIONS,
        "skills/tickets/skill.md": (
            "---\nname: tickets\ndescription: Open or read a support ticket.\n---\n\n"
            "Call `open_ticket` with a summary.\n"
        ),
        "skills/tickets/tools.py": HTTP_TOOLS,
    }
    project = load_project(write_project(tmp_path / "desk", files))
    tools = project.mantle.tools_for("tickets")
    opened = outside_effect(project, tools["open_ticket"])
    assert opened is not None and opened.changes
    assert opened.calls == ("api.post",)  # the client built, not its constructor
    assert opened.credentials == ("TICKETS_URL",)
    assert opened.service is None and opened.reads == ("summary",)
    read = outside_effect(project, tools["read_ticket"])
    assert read is not None and not read.changes and read.calls == ("requests.get",)
