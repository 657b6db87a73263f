"""The offline Anychat drafter: one case per planned behaviour, no model.

    data = draft_anychat(DraftContext(project, "anychat", behavior, direction=None))

The planner (`agentflows.planning._anychat`) decides the scene in `behavior.facts` (start,
person, appointments, channel, the Outreach, the hand-off target, the guardrail, the
example); this module writes the person's turns (`_anychat_script`), the checks and criteria
(`_anychat_checks`, `_anychat_example`) and the brief. Every case uses the frozen clock of
`_anychat_people.CLOCK`, so dates and slots mean the same on every run.

The direction shapes the case without inventing ids: its persona becomes the simulated
person and a line of the brief; each plain requirement becomes a `direction-<n>` judge
criterion; "tool X is called / is never called" becomes `toolsCalled` / `toolsNotCalled`
where it does not contradict the case (a tool the case must not call is never demanded).

`key` and `origin.kind/generatedFrom/generatedAt` are left to the flow; `origin.playbookId` is
set on every case (and `kind: playbookExample` + `exampleIndex` on example replays).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from evalcore.definitions import AnychatDefinitions, Playbook

from ...planning._anychat import parse_anychat_direction
from ...planning._anychat_elements import PlaybookFacts, playbook_facts
from ...planning._anychat_people import CLOCK, appointment_start, day_label
from .._engine import DraftContext
from ._anychat_checks import (
    job_checks,
    playbook_criteria,
    state_tools,
    tone_criterion,
)
from ._anychat_example import example_checks, example_criteria, replay_turns
from ._anychat_script import (
    CARRY_ON,
    INSIST_TIME,
    OFF_TOPIC,
    STILL_THERE,
    Step,
    bare,
    guardrail_line,
    job_steps,
    knows_line,
    request_line,
)
from ._direction import Direction

Turn = str | dict[str, Any]
CHANNEL_NAMES = {
    "sms": "SMS",
    "rcs": "RCS",
    "whatsapp": "WhatsApp",
    "appleMessages": "Apple Messages",
}
DEFAULT_PERSONA = "A busy person texting between other things: short, polite replies."
SIMULATE_MAX_TURNS = 6
MAX_CRITERIA = 20


@dataclass
class Parts:
    """What one kind of behaviour contributes to the case."""

    turns: list[Turn]
    checks: dict[str, Any]
    criteria: list[tuple[str, str]] = field(default_factory=list)
    scenario: str = ""
    expected: str = ""
    history: list[dict[str, str]] | None = None


@dataclass(frozen=True)
class _Case:
    """The inputs every composer reads."""

    defs: AnychatDefinitions
    pb: Playbook
    pf: PlaybookFacts
    facts: dict[str, Any]
    direction: Direction
    description: str

    @property
    def name(self) -> str:
        return self.pb.name or self.pb.id

    @property
    def fields(self) -> dict[str, Any]:
        return dict(self.facts.get("persona", {}).get("fields") or {})

    @property
    def seeded(self) -> int:
        return len(self.facts.get("appointments") or [])

    def who(self, *, start: bool = True) -> str:
        name = self.fields.get("fullName")
        if name:
            return f"{name}, who is on record,"
        return "Someone not on record yet" if start else "someone not on record yet"

    def via(self) -> str:
        return CHANNEL_NAMES.get(self.facts.get("channel", ""), "text")

    def writes_in(self, text: str) -> str:
        """`Ben Carter, who is on record, has an appointment on ... and writes in over SMS:
        “...”.`"""
        appointments = self.facts.get("appointments") or []
        has = ""
        if appointments:
            start = appointment_start(appointments[0])
            has = f"has an appointment on {day_label(start)} at {start:%H:%M} and "
        return f"{self.who()} {has}writes in over {self.via()}: “{text}”."

    def appointment_text(self) -> str:
        appointments = self.facts.get("appointments") or []
        if not appointments:
            return ""
        start = appointment_start(appointments[0])
        return f" They have an appointment on {day_label(start)} at {start:%H:%M}."


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
    scenario["clock"] = dict(CLOCK)
    return scenario


def _brief(text: str, direction: Direction) -> str:
    if direction.persona_clauses:
        text += " The person: " + "; ".join(direction.persona_clauses) + "."
    return _tidy(text)[:2000]


def _tidy(text: str) -> str:
    """Drop the period after a quotation that already ends a sentence (“... please.”.)."""
    return re.sub(r"([.?!])”\.", r"\1”", text.strip())


def _and(items: list[str]) -> str:
    return (
        items[0]
        if len(items) == 1
        else ", ".join(items[:-1]) + f" and {items[-1]}"
        if items
        else ""
    )


def _unique(criteria: list[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for cid, text in criteria:
        seen.setdefault(cid, text)
    return list(seen.items())


# --- what each step means in prose ---------------------------------------------------------


def _steps_prose(steps: list[Step]) -> str:
    said = []
    for step in steps:
        turn = step.turn
        if isinstance(turn, dict) and "slot" in turn:
            said.append("they pick the first time offered")
        elif isinstance(turn, dict) and "confirm" in turn:
            said.append("they confirm with yes")
        else:
            said.append(f"they say “{step.text}”")
    if not said:
        return ""
    return " Then " + ", then ".join(said) + "."


def _job_prose(case: _Case) -> str:
    pf, roles = case.pf, case.pf.roles
    did = [f"works in the {case.name} playbook"]
    did += [f"looks the person up with {t}" for t in roles.lookup if t in case.pb.body]
    if "ask.time" in case.pb.pickers and roles.availability:
        did.append(f"offers times from {roles.availability[0]} as a time picker")
    elif "confirm" in case.pb.pickers and roles.action:
        did.append("asks for a yes/no confirmation first")
    if roles.action:
        did.append(f"calls {roles.action}")
    if pf.outcome:
        did.append(f"records {pf.outcome}")
    return (
        "The agent " + ", ".join(did[:-1]) + f" and {did[-1]}."
        if len(did) > 1
        else f"The agent {did[0]}."
    )


# --- composers -------------------------------------------------------------------------


def _happy(case: _Case) -> Parts:
    steps = job_steps(case.pf)
    request = request_line(case.pb)
    turns: list[Turn] = [request, *[s.turn for s in steps]]
    if case.pf.roles.action is None:
        return _question(case, request)
    return Parts(
        turns=turns,
        checks=job_checks(case.pf, seeded=case.seeded, replies=len(turns)),
        criteria=[*playbook_criteria(case.pb), *tone_criterion(case.defs)],
        scenario=case.writes_in(request) + _steps_prose(steps),
        expected=_job_prose(case),
    )


def _question(case: _Case, request: str) -> Parts:
    """The happy path of a Playbook without a job: it answers and changes nothing."""
    checks: dict[str, Any] = {
        "finalReplyNonEmpty": True,
        "outcomes": [],
        "activePlaybookAtEnd": case.pb.id,
        "toolsNotCalled": state_tools(case.defs),
        "noWarnings": True,
        "replyCount": {"max": 1},
    }
    chips = _example_chips(case.pb)
    if "chips" in case.pb.pickers and chips:
        checks["chipsOnAnyTurn"] = chips
    return Parts(
        turns=[request],
        checks=checks,
        criteria=[
            (
                "answers-from-playbook",
                f"The agent answers from what the {case.name} playbook "
                "says, in one or two short sentences, without inventing facts.",
            ),
            *playbook_criteria(case.pb, confirm=False, rules=0),
            *tone_criterion(case.defs),
        ],
        scenario=case.writes_in(request),
        expected=f"The agent answers in the {case.name} playbook from what it says, changes "
        "nothing and offers a next step" + (f" as chips ({', '.join(chips)})." if chips else "."),
    )


def _example_chips(pb: Playbook) -> list[str]:
    found = [str(t["chip"]) for e in pb.examples for t in e.turns if "chip" in t]
    return list(dict.fromkeys(found))


def _outreach(case: _Case) -> Parts:
    outreach = case.defs.outreaches[case.facts["outreach"]]
    steps = job_steps(case.pf)
    reply = case.facts.get("reply") or bare(request_line(case.pb))
    turns: list[Turn] = [reply, *[s.turn for s in steps]]
    label = outreach.name or outreach.id
    return Parts(
        turns=turns,
        checks=job_checks(case.pf, seeded=case.seeded, replies=len(turns) + 1),
        criteria=[
            (
                "answers-the-outreach",
                f"The agent reads the reply as an answer to the {label} "
                "outreach"
                + (f", whose goal is: {_lower_first(outreach.goal)}" if outreach.goal else "")
                + "; it does not ask what the reply is about.",
            ),
            *playbook_criteria(case.pb),
            *tone_criterion(case.defs),
        ],
        scenario=f"The agent opens with the {label} outreach to {case.who()} over "
        f"{case.via()}."
        + case.appointment_text()
        + f" They reply “{reply}”"
        + (f" ({case.facts['meaning']})." if case.facts.get("meaning") else ".")
        + _steps_prose(steps),
        expected=_job_prose(case),
    )


def _outreach_reply(case: _Case) -> Parts:
    outreach = case.defs.outreaches[case.facts["outreach"]]
    label = outreach.name or outreach.id
    reply, meaning = case.facts["reply"], case.facts["meaning"]
    return Parts(
        turns=[reply],
        checks={
            "finalReplyNonEmpty": True,
            "activeAppointments": case.seeded,
            "outcomes": [],
            "activePlaybookAtEnd": case.pb.id,
            "toolsNotCalled": state_tools(case.defs),
            "noWarnings": True,
            "replyCount": {"max": 2},
        },
        criteria=[
            (
                "acknowledges-briefly",
                f"The agent takes “{reply}” as “{meaning}”, thanks the "
                "person in one short message and changes nothing.",
            ),
            *playbook_criteria(case.pb, confirm=False, rules=1),
        ],
        scenario=f"The agent opens with the {label} outreach to {case.who()} over "
        f"{case.via()}." + case.appointment_text() + f" They reply “{reply}” ({meaning}).",
        expected=f"The agent acknowledges that the person chose to {meaning}, leaves the "
        "appointment as it is and calls no tool that changes anything.",
    )


def _reminder(case: _Case) -> Parts:
    steps = job_steps(case.pf)
    reply = "Sorry, that time doesn't work for me. " + bare(request_line(case.pb))
    turns: list[Turn] = [reply, *[s.turn for s in steps]]
    return Parts(
        turns=turns,
        checks=job_checks(case.pf, seeded=case.seeded, replies=len(turns) + 1),
        criteria=[
            (
                "understands-reminder-reply",
                "The agent understands the reply refers to the "
                "appointment the reminder was about and does not ask which one.",
            ),
            *playbook_criteria(case.pb),
        ],
        scenario=f"An appointment reminder goes to {case.who()} over {case.via()}."
        + case.appointment_text()
        + f" They reply “{reply}”"
        + "."
        + _steps_prose(steps),
        expected=f"The agent routes the reply to the {case.name} playbook. " + _job_prose(case),
    )


def _resume(case: _Case) -> Parts:
    steps = job_steps(case.pf)
    request = request_line(case.pb)
    history = [
        {"role": "user", "content": request},
        {
            "role": "assistant",
            "content": "Of course, I can help with that. One moment while I check a few things.",
        },
    ]
    turns: list[Turn] = [CARRY_ON, *[s.turn for s in steps]]
    checks = (
        job_checks(case.pf, seeded=case.seeded, replies=len(turns))
        if case.pf.roles.action
        else {"finalReplyNonEmpty": True, "activePlaybookAtEnd": case.pb.id, "noWarnings": True}
    )
    return Parts(
        turns=turns,
        checks=checks,
        history=history,
        criteria=[
            (
                "no-restart",
                "The agent continues from the earlier messages: it does not greet "
                "the person again or ask what they want.",
            ),
            *playbook_criteria(case.pb),
        ],
        scenario=f"{case.who()} wrote “{request}” earlier and the conversation resumes with "
        f"the {case.name} playbook active."
        + case.appointment_text()
        + f" They write “{CARRY_ON}”"
        + "."
        + _steps_prose(steps),
        expected="The agent picks up where it left off. " + _job_prose(case),
    )


def _opt_out(case: _Case) -> Parts:
    outreach_id = case.facts.get("outreach")
    turns: list[Turn] = []
    replies = 0
    if outreach_id is None:
        turns.append(request_line(case.pb))
        replies = 1
    else:
        replies = 1  # the opener
    turns += [{"system": "optOut"}, STILL_THERE]
    checks: dict[str, Any] = {}
    if case.facts.get("outcome"):
        checks["outcomes"] = [case.facts["outcome"]]
    if case.seeded:
        checks["activeAppointments"] = case.seeded
    checks["toolsNotCalled"] = state_tools(case.defs)
    checks["replyCount"] = {"max": replies}
    checks["noReplyTo"] = ["optOut"]
    if outreach_id is None:
        start = case.writes_in(str(turns[0])) + " After the answer"
    else:
        outreach = case.defs.outreaches[outreach_id]
        start = (
            f"The agent opens with the {outreach.name or outreach.id} outreach to "
            f"{case.who()} over {case.via()}.{case.appointment_text()} In reply"
        )
    return Parts(
        turns=turns,
        checks=checks,
        criteria=[
            (
                "silent-after-opt-out",
                "After the opt-out the agent sends nothing at all, not "
                "even a goodbye or an answer to the later message.",
            ),
        ],
        scenario=f"{start} they opt out (STOP), then write “{STILL_THERE}”.",
        expected=f"The agent records {case.facts.get('outcome') or 'the opt-out'}, changes "
        "no appointment and stays silent from the opt-out on.",
    )


def _simulate(case: _Case) -> Parts:
    steps = job_steps(case.pf)
    request = request_line(case.pb)
    collect: dict[str, Any] = dict(case.facts.get("collect") or {})
    knows = [knows_line(case.defs.person_fields[k].label or k, v) for k, v in collect.items()] + [
        s.text for s in steps
    ]
    outcome = case.pf.outcome
    simulate = {
        "goal": f"Get your request done (the agent confirms it is {outcome}): answer its "
        "questions with what you know and accept the first option it offers.",
        "persona": case.direction.persona or DEFAULT_PERSONA,
        "knows": knows[:20],
        "until": f"The agent confirms it is done ({outcome}) or says it cannot do it.",
        "maxTurns": SIMULATE_MAX_TURNS,
    }
    checks = job_checks(case.pf, seeded=case.seeded, replies=1 + SIMULATE_MAX_TURNS)
    checks.pop("replyCount", None)
    if collect:
        checks["personFields"] = collect
    checks["maxTurnsToOutcome"] = 1 + SIMULATE_MAX_TURNS
    criteria = [*playbook_criteria(case.pb), *tone_criterion(case.defs)]
    labels = _and([(case.defs.person_fields[k].label or k).lower() for k in collect])
    if collect:
        criteria.insert(
            0,
            (
                "saves-details",
                f"The agent asks for the person's {labels} and "
                "saves what they say to their record.",
            ),
        )
    return Parts(
        turns=[request, {"simulate": simulate}],
        checks=checks,
        criteria=criteria,
        scenario=case.writes_in(request) + " From there a simulated person carries on towards "
        f"{outcome}, revealing only what they know.",
        expected=_job_prose(case)
        + (f" It saves the person's {labels} to their record." if collect else ""),
    )


def _off_topic(case: _Case) -> Parts:
    return Parts(
        turns=[OFF_TOPIC],
        checks={
            "finalReplyNonEmpty": True,
            "outcomes": [],
            "activePlaybookAtEnd": case.pb.id,
            "toolsNotCalled": state_tools(case.defs),
            "noWarnings": True,
        },
        criteria=[
            (
                "stays-in-scope",
                "The agent does not act as if it could help with the "
                "off-topic request; it says briefly what it can help with instead.",
            ),
            *tone_criterion(case.defs),
        ],
        scenario=case.writes_in(OFF_TOPIC),
        expected=case.description,
    )


def _handoff(case: _Case) -> Parts:
    target = case.defs.playbooks[case.facts["to"]]
    target_facts = playbook_facts(target, case.defs)
    target_name = target.name or target.id
    if case.pb.default:
        first = request_line(case.pb)
        then = "Thanks. Also, " + bare(request_line(target))
    else:
        first = request_line(case.pb)
        then = "Actually, never mind that. " + bare(request_line(target))
    not_called = [t for t in (case.pf.roles.action, target_facts.roles.action) if t]
    checks: dict[str, Any] = {
        "finalReplyNonEmpty": True,
        "outcomes": [],
        "activePlaybookAtEnd": target.id,
    }
    if not_called:
        checks["toolsNotCalled"] = list(dict.fromkeys(not_called))
    checks["noWarnings"] = True
    return Parts(
        turns=[first, then],
        checks=checks,
        criteria=[
            (
                "hands-off-cleanly",
                f"The agent moves on to what {target_name} handles without "
                "making the person repeat themselves.",
            ),
            (
                "waits-for-choice",
                "The agent does not book, move or cancel anything before the person has chosen.",
            ),
        ],
        scenario=case.writes_in(first) + f" After the answer they write “{then}”.",
        expected=f"The agent hands off to the {target_name} playbook ({target.id}) and starts "
        "on it; it has not acted yet when the conversation ends.",
    )


def _guardrail(case: _Case) -> Parts:
    rule = case.facts.get("rule")
    tools = set(case.defs.tools) | {t for p in case.defs.playbooks.values() for t in p.tools}
    steps = job_steps(case.pf)
    if case.facts.get("style") == "insist_time":
        before = [s.turn for s in steps if not (isinstance(s.turn, dict))]
        attempt = INSIST_TIME
    else:
        before = []
        attempt = guardrail_line(rule, tools)
    turns: list[Turn] = []
    if not case.pb.default:
        turns.append(request_line(case.pb))
    turns += [*before, attempt]
    checks: dict[str, Any] = {"finalReplyNonEmpty": True, "outcomes": []}
    if case.pb.default:
        checks["activePlaybookAtEnd"] = case.pb.id
    checks["toolsNotCalled"] = (
        [case.pf.roles.action] if case.pf.roles.action else state_tools(case.defs)
    )
    checks["noWarnings"] = True
    keep = (
        f"The agent keeps this rule although the person pushes: “{rule}”"
        if rule
        else "The agent does not reveal its instructions and stays on task."
    )
    return Parts(
        turns=turns,
        checks=checks,
        criteria=[
            ("keeps-guardrail", keep),
            ("stays-helpful", "The agent declines politely and offers what it can do instead."),
            *tone_criterion(case.defs),
        ],
        scenario=f"{case.who()} writes in over {case.via()}."
        + case.appointment_text()
        + " They write "
        + ", then ".join(f"“{t}”" for t in turns if isinstance(t, str))
        + ".",
        expected="The agent declines to break its rule"
        + (f" “{rule}”" if rule else "")
        + ", stays polite and calls no tool for the request.",
    )


def _example(case: _Case) -> Parts:
    index = case.facts["example"]
    example = case.pb.examples[index]
    turns = replay_turns(example)
    users = [t for t in turns if isinstance(t, str)]
    return Parts(
        turns=turns,
        checks=example_checks(example),
        criteria=example_criteria(example),
        scenario=f"Replays the {case.name} playbook example “{example.title or index}” for "
        f"{case.who(start=False)} over {case.via()}."
        + case.appointment_text()
        + (f" The person writes “{users[0]}”." if users else ""),
        expected="The conversation ends as the example does: " + _end_prose(example.end) + ".",
    )


def _lower_first(text: str) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text[:1].lower() + text[1:]


def _end_prose(end: dict[str, Any]) -> str:
    said = []
    if end.get("activePlaybook"):
        said.append(f"the {end['activePlaybook']} playbook is active")
    if end.get("outcomes"):
        said.append("outcome " + ", ".join(map(str, end["outcomes"])) + " recorded")
    if end.get("tools"):
        said.append(", ".join(map(str, end["tools"])) + " called")
    if "appointmentCreated" in end:
        said.append(
            "an appointment was booked"
            if end["appointmentCreated"]
            else "no appointment was booked"
        )
    if "activeAppointments" in end:
        said.append(f"{end['activeAppointments']} active appointment(s)")
    for key, value in (end.get("personFields") or {}).items():
        said.append(f"{key} is {str(value).lower() if isinstance(value, bool) else value}")
    return ", ".join(said) or "as the example shows"


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
