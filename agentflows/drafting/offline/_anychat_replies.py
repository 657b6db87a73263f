"""Offline Anychat composers for conversations the agent opened or that are under way: an
Outreach and the person's reply, a reminder, a resumed conversation and an opt-out."""

from __future__ import annotations

from typing import Any

from ...planning.anychat_elements import PlaybookFacts
from ._anychat_case import Parts, Turn, _Case, _job_prose, _lower_first, _steps_prose
from ._anychat_checks import (
    job_checks,
    looked_up_before_asking,
    messages_per_turn,
    playbook_criteria,
    state_tools,
    tone_criterion,
)
from ._anychat_script import (
    CARRY_ON,
    STILL_THERE,
    ask_line,
    bare,
    follow_up,
    job_steps,
    request_line,
)


def _outreach(case: _Case) -> Parts:
    outreach = case.defs.outreaches[case.facts["outreach"]]
    steps = job_steps(case.pf, case.told_lines())
    reply = case.facts.get("reply") or bare(request_line(case.pb, case.pf.roles.action))
    if case.facts.get("reply") and case.pf.asked_kinds and not case.facts.get("told") and steps:
        # the kind of job the body asks first goes with the keyword: the opener may already
        # name it (a coat offer), and an agent that skips the question would get the answer
        # unasked, in a turn of its own (a detail only the person has, a card number, is
        # asked for by every correct agent and keeps its turn)
        reply, steps = f"{reply}. {steps[0].text}", steps[1:]
    turns: list[Turn] = [reply, *[s.turn for s in steps]]
    label = outreach.name or outreach.id
    checks = job_checks(
        case.pf,
        seeded=case.seeded,
        replies=len(turns) + 1,
        per_turn=messages_per_turn(case.defs, case.pb),
    )
    outcomes = None
    if case.facts.get("reply") and _opener_tells_status(case.pf, outreach.opener or ""):
        # the opener told the status and the person answered with the action's keyword: an
        # agent that goes straight to the action never tells it again, so the outcome it
        # records for telling the status is its choice, not the case's
        outcomes = [o for o in checks.get("outcomes", []) if o != case.pf.outcome]
        checks["outcomes"] = outcomes
    return Parts(
        turns=turns,
        checks=checks,
        criteria=[
            (
                "answers-the-outreach",
                f"The agent reads the reply as an answer to the {label} "
                "outreach"
                + (f", whose goal is: {_lower_first(outreach.goal)}" if outreach.goal else "")
                + ", without asking what the reply is about.",
            ),
            *playbook_criteria(case.pb, skip=case.other_actions),
            *tone_criterion(case.defs),
        ],
        scenario=f"The agent opens with the {label} outreach to {case.who()} over "
        f"{case.via()}."
        + case.appointment_text()
        + f" They reply “{reply}”"
        + (f" ({case.facts['meaning']})." if case.facts.get("meaning") else ".")
        + _steps_prose(steps),
        expected=_job_prose(case, outcomes=outcomes),
    )


def _opener_tells_status(pf: PlaybookFacts, opener: str) -> bool:
    """The opener states the status the action waits for ("your order is ready ... reply D to
    have it delivered"), so the person knows it before the agent says a word."""
    if pf.gate is None or pf.action_outcome is None or pf.outcome is None:
        return False
    words = {w.strip(".,;:!?()\"'").lower() for w in opener.split()}
    return pf.gate.lower() in words


def _outreach_reply(case: _Case) -> Parts:
    outreach = case.defs.outreaches[case.facts["outreach"]]
    label = outreach.name or outreach.id
    reply, meaning = case.facts["reply"], case.facts["meaning"]
    checks: dict[str, Any] = {"finalReplyNonEmpty": True}
    if case.seeded or case.pf.roles.effect:
        checks["activeAppointments"] = case.seeded
    return Parts(
        turns=[reply],
        checks=checks
        | {
            "outcomes": [],
            "activePlaybookAtEnd": case.pb.id,
            "toolsNotCalled": state_tools(case.defs),
            "noWarnings": True,
            "replyCount": {"max": 2},
        },
        criteria=[
            (
                "acknowledges-briefly",
                f"The agent takes “{reply}” as “{meaning}”, acknowledges it "
                "in one short message and changes nothing.",
            ),
            *playbook_criteria(
                case.pb, skip=case.other_actions, confirm=False, rules=1, acts=False
            ),
        ],
        scenario=f"The agent opens with the {label} outreach to {case.who()} over "
        f"{case.via()}." + case.appointment_text() + f" They reply “{reply}” ({meaning}).",
        expected=f"The agent acknowledges that the person chose to {meaning}, leaves the "
        "appointment as it is and calls no tool that changes anything."
        if "activeAppointments" in checks
        else f"The agent acknowledges the reply “{reply}” ({meaning}) and calls no tool that "
        "changes anything.",
    )


def _reminder(case: _Case) -> Parts:
    steps = job_steps(case.pf, case.told_lines())
    request = bare(request_line(case.pb, case.pf.roles.action))
    reply = "Sorry, that time doesn't work for me. " + request
    turns: list[Turn] = [reply, *[s.turn for s in steps]]
    return Parts(
        turns=turns,
        checks=job_checks(
            case.pf,
            seeded=case.seeded,
            replies=len(turns) + 1,
            per_turn=messages_per_turn(case.defs, case.pb),
        ),
        criteria=[
            (
                "understands-reminder-reply",
                "The agent takes the reply to be about the appointment of the reminder, "
                "without asking which one.",
            ),
            *playbook_criteria(case.pb, skip=case.other_actions),
        ],
        scenario=f"An appointment reminder goes to {case.who()} over {case.via()}."
        + case.appointment_text()
        + f" They reply “{reply}”"
        + "."
        + _steps_prose(steps),
        expected=f"The agent routes the reply to the {case.name} playbook. " + _job_prose(case),
    )


def _resume(case: _Case) -> Parts:
    steps = job_steps(case.pf, case.told_lines())
    request = request_line(case.pb, case.pf.roles.action)
    told = list(case.facts.get("told") or {})
    # Where the body asks for something first, a correct agent's last message asked for it:
    # the person comes back with the answer (a seed that "checks a few things" models an
    # agent that already skipped the question).
    asked = ask_line([case.defs.person_fields[k].label or k for k in told]) if told else ""
    last = (
        f"Of course, I can help with that. {asked}"
        if told and steps
        else "Of course, I can help with that. One moment while I check a few things."
    )
    history = [{"role": "user", "content": request}, {"role": "assistant", "content": last}]
    # The agent's last line asked nothing: the person comes back asking after their request.
    turns: list[Turn] = [follow_up(case.pb, case.pf.roles.action), *[s.turn for s in steps]]
    if told and steps:
        turns = [f"{CARRY_ON.partition('. ')[0]}. {steps[0].text}", *[s.turn for s in steps[1:]]]
    checks = (
        job_checks(
            case.pf,
            seeded=case.seeded,
            replies=len(turns),
            per_turn=messages_per_turn(case.defs, case.pb),
        )
        if case.pf.has_job
        else {"finalReplyNonEmpty": True, "activePlaybookAtEnd": case.pb.id, "noWarnings": True}
    )
    optional = looked_up_before_asking(case.pf) if told and steps else []
    if optional:
        # The history's question comes after these lookups: their count is the agent's choice.
        _drop_called(checks, optional)
    return Parts(
        turns=turns,
        checks=checks,
        history=history,
        criteria=[
            (
                "no-restart",
                "The agent continues from the earlier messages: it does not ask again "
                "what the person wants.",
            ),
            *playbook_criteria(case.pb, skip=case.other_actions),
        ],
        scenario=f"{case.who()} wrote “{request}” earlier and the conversation resumes with "
        f"the {case.name} playbook active."
        + case.appointment_text()
        + f" They write “{turns[0]}”"
        + "."
        + _steps_prose(steps[1:] if told and steps else steps),
        expected="The agent picks up where it left off. " + _job_prose(case, optional),
    )


def _drop_called(checks: dict[str, Any], tools: list[str]) -> None:
    """Leave `tools` out of `toolsCalled` (the evaluator counts calls exactly)."""
    called = {t: n for t, n in (checks.get("toolsCalled") or {}).items() if t not in tools}
    if called:
        checks["toolsCalled"] = called
    else:
        checks.pop("toolsCalled", None)


def _opt_out(case: _Case) -> Parts:
    outreach_id = case.facts.get("outreach")
    turns: list[Turn] = []
    replies = 0
    if outreach_id is None:
        turns.append(request_line(case.pb, case.pf.roles.action))
        replies = 1
    else:
        replies = 1  # the opener
    typed = case.facts.get("typed")
    turns += [typed or {"system": "optOut"}, STILL_THERE]
    checks: dict[str, Any] = {}
    # Only a Playbook that says to record the opt-out is held to it: after an Outreach the
    # Outreach's Playbook is active, and the rule may live in another one (the default's).
    outcome = case.facts.get("outcome") if case.pf.opt_out_outcome else None
    # a status desk asked for the status tells it (and records that) before the opt-out
    told = outreach_id is None and case.pf.tells_on_request and case.pf.outcome
    if outcome:
        checks["outcomes"] = [case.pf.outcome, outcome] if told else [outcome]
    if case.seeded:
        checks["activeAppointments"] = case.seeded
    checks["toolsNotCalled"] = state_tools(case.defs)
    # The agent answers the request before the opt-out, then sends nothing: at least that
    # many messages, so an agent that never spoke does not pass either (an Outreach's opener
    # is left out of the minimum: a reader of the format cannot tell it is counted). A typed
    # keyword may get one short confirmation (the platform's event gets none).
    per_turn = messages_per_turn(case.defs, case.pb)
    checks["replyCount"] = {"max": replies * per_turn + (1 if typed else 0)}
    if outreach_id is None:
        checks["replyCount"] = {"min": replies, **checks["replyCount"]}
    if not typed:
        checks["noReplyTo"] = ["optOut"]
    if outreach_id is None:
        start = case.writes_in(str(turns[0])) + " After the answer"
    else:
        outreach = case.defs.outreaches[outreach_id]
        start = (
            f"The agent opens with the {outreach.name or outreach.id} outreach to "
            f"{case.who()} over {case.via()}.{case.appointment_text()} In reply"
        )
    silence = (
        f"The agent takes “{typed}” as the opt-out the outreach offers: at most one short "
        "message saying they are opted out, then nothing at all, not even an answer to the "
        "later message."
        if typed
        else "After the opt-out the agent sends nothing at all, not "
        "even a goodbye or an answer to the later message."
    )
    how = f"type “{typed}” to opt out" if typed else "opt out (STOP)"
    return Parts(
        turns=turns,
        checks=checks,
        criteria=[("silent-after-opt-out", silence)],
        scenario=f"{start} they {how}, then write “{STILL_THERE}”.",
        expected=(f"The agent tells the status and records {case.pf.outcome}. " if told else "")
        + (f"The agent records {outcome}, changes" if outcome else "The agent changes")
        + (" no appointment" if case.seeded else " nothing")
        + (
            " and, after at most a short confirmation, sends nothing more."
            if typed
            else " and stays silent from the opt-out on."
        ),
    )


__all__ = ["_opt_out", "_outreach", "_outreach_reply", "_reminder", "_resume"]
