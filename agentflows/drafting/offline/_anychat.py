"""The offline Anychat drafter: one case per planned behaviour, no model.

    data = draft_anychat(DraftContext(project, "anychat", behavior, direction=None))

The planner (`agentflows.planning._anychat`) decides the scene in `behavior.facts` (start,
person, appointments, channel, the Outreach, the hand-off target, the guardrail, the
example); this module writes the person's turns (`_anychat_script`), the checks and criteria
(`_anychat_checks`, `_anychat_example`), the tool stubs (`_anychat_stubs`) and the brief.
Every case of a project uses the project's frozen clock (`anychat_clock.project_clock`: a
day the business is open), so dates and slots mean the same on every run.

The direction shapes the case without inventing ids: its persona becomes the simulated
person and a line of the brief; each plain requirement becomes a `direction-<n>` judge
criterion; "tool X is called / is never called" becomes `toolsCalled` / `toolsNotCalled`
where it does not contradict the case (a tool the case must not call is never demanded).

`key` and `origin.kind/generatedFrom/generatedAt` are left to the flow; `origin.playbookId` is
set on every case (and `kind: playbookExample` + `exampleIndex` on example replays).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...planning.anychat_clock import project_clock
from ...planning.anychat_elements import parse_anychat_direction, playbook_facts
from .._engine import DraftContext
from ._anychat_case import Parts, _Case, _tidy
from ._anychat_inbound import _example, _guardrail, _handoff, _happy, _off_topic, _simulate
from ._anychat_replies import _opt_out, _outreach, _outreach_reply, _reminder, _resume
from ._anychat_stubs import tool_stubs
from ._direction import Direction

MAX_CRITERIA = 20


def draft_anychat(ctx: DraftContext) -> dict[str, Any]:
    """A schema-valid, lint-clean Anychat case for `ctx.behavior` (deterministic)."""
    defs = ctx.project.anychat
    if defs is None:
        raise ValueError(f"{ctx.project.root} is not an Anychat project")
    behavior = ctx.behavior
    pb = defs.playbooks[behavior.source]
    case = _Case(
        defs=defs,
        pb=pb,
        pf=playbook_facts(pb, defs),
        facts=dict(behavior.facts),
        direction=parse_anychat_direction(ctx.direction, defs),
        description=behavior.description,
    )
    kind = case.facts["kind"]
    parts = COMPOSERS[kind](case)
    _saved_answers(case, parts)
    _apply_direction(case, parts)
    data: dict[str, Any] = {
        "title": behavior.title,
        "brief": {
            "scenario": _brief(parts.scenario, case.direction),
            "expected": _tidy(parts.expected or behavior.description)[:2000],
        },
        "notes": ("Covers " + ", ".join(behavior.covers) + ".")[:4000],
        "tags": [pb.id, behavior.type.replace("_", "-"), _KIND_TAGS[kind]],
        "samples": 3 if kind == "simulate" else 1,
        "origin": _origin(case),
        "scenario": _scenario(case, parts),
        "turns": parts.turns,
        "expect": {"checks": parts.checks},
    }
    criteria = _unique(parts.criteria)[:MAX_CRITERIA]
    if criteria:
        data["expect"]["judge"] = {"criteria": [{"id": i, "text": t[:1000]} for i, t in criteria]}
    return data


_KIND_TAGS = {
    "happy": "inbound",
    "outreach": "outreach",
    "outreach_reply": "outreach",
    "reminder": "reminder",
    "resume": "resume",
    "opt_out": "opt-out",
    "simulate": "simulate",
    "off_topic": "off-topic",
    "handoff": "handoff",
    "guardrail": "guardrail",
    "example": "playbook-example",
}


def _origin(case: _Case) -> dict[str, Any]:
    origin: dict[str, Any] = {"playbookId": case.pb.id}
    if case.facts["kind"] == "example":
        origin = {"kind": "playbookExample", **origin, "exampleIndex": case.facts["example"]}
    return origin


def _scenario(case: _Case, parts: Parts) -> dict[str, Any]:
    scenario: dict[str, Any] = {
        "channel": case.facts.get("channel", "sms"),
        "persona": {"preset": case.facts["persona"]},
    }
    if case.facts.get("appointments"):
        scenario["appointments"] = case.facts["appointments"]
    scenario["start"] = case.facts["start"]
    if parts.history:
        scenario["history"] = parts.history
    scenario["clock"] = project_clock(case.defs)
    reached: set[str] = set()
    if case.facts["kind"] in ("handoff", "guardrail"):
        reached = {case.pb.id, str(parts.checks.get("activePlaybookAtEnd") or case.pb.id)}
    elif case.facts["kind"] == "opt_out" and "inbound" in case.facts["start"]:
        # the person asks for the job before opting out: the agent's first turn looks them up
        reached = {case.pb.id}
    elif case.facts["kind"] == "example":
        # a hand-off turn starts the other Playbook in that turn: its lookups run there
        turns = case.pb.examples[case.facts["example"]].turns
        reached = {str(t["handoff"]) for t in turns if "handoff" in t}
        if "resume" in case.facts["start"] and any("user" in t for t in turns):
            # the person writes and no history holds a tool call: a correct agent may look
            # them up now
            reached.add(case.pb.id)
    elif case.facts["kind"] == "resume":
        # the seeded history holds no tool call: a correct agent may look the person up now
        reached = {case.pb.id}
    elif case.facts["kind"] == "opt_out" and case.pf.tells_on_request:
        # asked for the status before opting out: the agent looks it up on the first turn
        reached = {case.pb.id} if "inbound" in case.facts["start"] else set()
    barred = list(parts.checks.get("toolsNotCalled") or [])
    stubs = tool_stubs(case, parts.checks.get("toolsCalled"), reached, barred)
    if stubs:
        scenario["stubs"] = stubs
    return scenario


def _brief(text: str, direction: Direction) -> str:
    if direction.persona_clauses:
        text += " The person: " + "; ".join(direction.persona_clauses) + "."
    return _tidy(text)[:2000]


def _unique(criteria: list[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for cid, text in criteria:
        seen.setdefault(cid, text)
    return list(seen.items())


COMPOSERS: dict[str, Callable[[_Case], Parts]] = {
    "happy": _happy,
    "outreach": _outreach,
    "outreach_reply": _outreach_reply,
    "reminder": _reminder,
    "resume": _resume,
    "opt_out": _opt_out,
    "simulate": _simulate,
    "off_topic": _off_topic,
    "handoff": _handoff,
    "guardrail": _guardrail,
    "example": _example,
}


#: Cases whose person answers what the body asks (`told`) before the job ends.
_ANSWERS_TOLD = frozenset({"happy", "resume", "outreach", "reminder"})


def _saved_answers(case: _Case, parts: Parts) -> None:
    """A job that ends with its outcome has saved what the person told it, where the body
    says to save that field ("save the bike type to their record"): `personFields` says so."""
    checks = parts.checks
    told = case.facts.get("told") or {}
    if case.facts["kind"] not in _ANSWERS_TOLD or "personFields" in checks:
        return
    if not told or not checks.get("outcomes"):
        return
    saved = {k: v for k, v in told.items() if k in case.pf.saved}
    if saved:
        checks["personFields"] = saved


# --- direction --------------------------------------------------------------------------


def _apply_direction(case: _Case, parts: Parts) -> None:
    """Direction requirements as criteria and tool checks (never against the case)."""
    direction = case.direction
    if direction.empty:
        return
    for index, text in enumerate(direction.criteria):
        parts.criteria.append((f"direction-{index + 1}", text))
    checks = parts.checks
    listed = list(checks.get("toolsNotCalled") or [])
    must_not = set(listed)
    called = dict(checks.get("toolsCalled") or {})
    if case.facts["kind"] in ("happy", "outreach", "reminder", "resume", "simulate"):
        for tool in direction.checks("tool_executed"):
            if tool in case.pb.tools and tool not in must_not:
                called.setdefault(tool, 1)
    for tool in direction.checks("tool_not_executed"):
        if tool not in called:
            must_not.add(tool)
    if called:
        checks["toolsCalled"] = called
    if must_not:
        checks["toolsNotCalled"] = listed + sorted(must_not - set(listed))


__all__ = ["draft_anychat"]
