"""Rules that blame the agent: a failing tool (Tool), routing (Skill), and what the right
skill did wrong (Instruction, the rule that always applies last)."""

from __future__ import annotations

from evalcore.dialects import dialect_names, get_dialect
from evalcore.lexicon.en.run_findings import REASK, SEQUENCE_STEP

from ._definitions import Subject, skill_linked, steps_for
from ._diagnosis import (
    Diagnosis,
    Evidence,
    check_item,
    checks_about,
    criterion_item,
    defined_at,
    event_item,
    said,
)
from ._facts import Facts, FailedCheck
from ._ledger import Ev

_REASK_WORDS = REASK
_SEQUENCE_STEP = SEQUENCE_STEP


def _expects_error(facts: Facts, tool: str) -> bool:
    for item in facts.case.assertions:
        spec = item.get("tool_executed") if isinstance(item, dict) else None
        if isinstance(spec, dict) and spec.get("tool_name") == tool and spec.get("is_error"):
            return True
    return False


def tool_error(facts: Facts) -> Diagnosis | None:
    errors = [e for e in facts.events if e.is_error and not _expects_error(facts, e.subject or "")]
    if not errors:
        return None
    first = errors[0]
    tool = first.subject or "?"
    evidence = [event_item(e) for e in errors]
    evidence += [check_item(c) for c in checks_about(facts, "tool", tool)]
    evidence += [
        criterion_item(facts, n)
        for n, c in enumerate(facts.criteria)
        if tool in c.result.reason or "error" in c.result.reason.lower()
    ]
    message = first.raw.get("error_message") or "an error"
    args = first.raw.get("arguments", first.raw.get("args")) or {}
    return Diagnosis(
        "Tool",
        first.turn,
        "tool-error",
        evidence,
        cause=("tool-error", tool),
        title=f"the tool {tool} fails",
        fix=f"Fix the tool `{tool}`{defined_at(facts, Subject('tool', tool))}: at turn "
        f"{first.turn} it "
        f"failed with {message!r} for arguments {args}. Make it (or its backend) handle this "
        "input; if the failure is legitimate, let the skill handle it (on_failure response, "
        "instructions) and cover it with a case that expects `is_error: true`.",
    )


def skill_routing(facts: Facts) -> Diagnosis | None:
    if not facts.expected_skills or not facts.events:
        return None
    expected = facts.expected_skills
    primary = expected[0]
    activations = facts.activations()
    mine = [e for e in activations if e.subject == primary]
    others = [e for e in activations if e.subject not in expected]
    first_user = min((ln.turn for ln in facts.record.transcript if ln.role == "user"), default=1)
    desc = facts.case.definition_of(primary)
    if not mine:
        if others:
            wrong = others[0]
            return Diagnosis(
                "Skill",
                wrong.turn,
                "wrong-skill",
                [
                    event_item(wrong),
                    Evidence("event", f"expected skill {primary} never activated", None),
                ],
                cause=("routing", primary, wrong.subject or "?"),
                title=f"requests for {primary} go to {wrong.subject}",
                fix=f"Routing: the request at turn {wrong.turn}{said(facts, wrong.turn)} went to "
                f"`{wrong.subject}` instead of `{primary}`. Make the description in {desc} "
                f"cover requests worded like this one, and narrow the description in "
                f"{facts.case.definition_of(wrong.subject or '')} so it does not claim them; "
                "retrain and re-run.",
            )
        # Only a runtime that reports every activation (Mantle's skill events) proves that
        # no skill ran; an Anychat playbook entered by an outreach has no switch event.
        dialect = facts.case.dialect or facts.record.raw.get("dialect")
        plugin = get_dialect(dialect) if dialect in dialect_names() else None
        reports_skills = (plugin is not None and plugin.reports_activations) or any(
            e.type.startswith(("skill_", "ordered_block_")) for e in facts.events
        )
        if (
            not activations
            and reports_skills
            and any(ln.role == "user" for ln in facts.record.transcript)
        ):
            return Diagnosis(
                "Skill",
                first_user,
                "no-skill",
                [Evidence("event", f"no skill activated; expected {primary}", None)],
                cause=("routing", primary, ""),
                title=f"no skill takes the requests meant for {primary}",
                fix=f"No skill took the request at turn {first_user}{said(facts, first_user)}. "
                f"Add wording like it to the description in {desc}; retrain and re-run.",
            )
        return None
    start = mine[0]
    earlier = [e for e in others if e.index < start.index]
    if earlier:
        wrong = earlier[0]
        return Diagnosis(
            "Skill",
            wrong.turn,
            "late-skill",
            [event_item(wrong), event_item(start)],
            cause=("routing", primary, wrong.subject or "?"),
            title=f"requests for {primary} go to {wrong.subject}",
            fix=f"Routing: the request at turn {wrong.turn}{said(facts, wrong.turn)} went to "
            f"`{wrong.subject}` first; `{primary}` only started at turn {start.turn}. Make "
            f"the description in {desc} cover this wording and narrow the description in "
            f"{facts.case.definition_of(wrong.subject or '')}; retrain and re-run.",
        )
    about_primary = any(
        s.skill == primary or s.name == primary for c in facts.checks for s in c.subjects
    )
    for other in (e for e in others if e.index > start.index):
        if skill_linked(facts.case.project, primary, other.subject or ""):
            continue
        ended = [
            e
            for e in facts.events
            if e.subject == primary and e.index > other.index and e.type == "skill_completed"
        ]
        if about_primary and not ended:
            return Diagnosis(
                "Skill",
                other.turn,
                "skill-hijacked",
                [event_item(start), event_item(other)],
                cause=("skill-hijacked", primary, other.subject or "?"),
                title=f"{other.subject} takes over from {primary} before it finishes",
                fix=f"Routing: at turn {other.turn}{said(facts, other.turn)} `{other.subject}` "
                f"took over from `{primary}`, which never finished. Narrow the description in "
                f"{facts.case.definition_of(other.subject or '')} so this message stays with "
                f"`{primary}` (or make {desc} handle it); retrain and re-run.",
            )
    return None


def tool_reports_error(facts: Facts) -> Diagnosis | None:
    for ev in facts.events:
        if not ev.reports_error or not ev.subject:
            continue
        related = checks_about(facts, "tool", ev.subject)
        if not related:
            continue
        return Diagnosis(
            "Tool",
            ev.turn,
            "tool-reports-error",
            [event_item(ev), *(check_item(c) for c in related)],
            cause=("tool-reports-error", ev.subject),
            title=f"the tool {ev.subject} returns an error result",
            fix=f"`{ev.subject}`{defined_at(facts, Subject('tool', ev.subject))} returned an error "
            f"result at turn {ev.turn}. Check that the arguments the agent passed are valid "
            "(the tool's docstring and parameter types are what the model reads) and that the "
            "backend accepts them.",
        )
    return None


def asked_twice(facts: Facts) -> list[tuple[Evidence, str]]:
    """A question the agent asked again after the answer was recorded (or, when the
    definitions do not say which key it collects, a repeat a failed criterion complains of).
    Returns the evidence and what to change."""
    out: list[tuple[Evidence, str]] = []
    complained = any(_REASK_WORDS.search(c.result.text) for c in facts.criteria)
    by_name: dict[str, list[Ev]] = {}
    for ev in facts.events:
        if ev.type == "bot" and ev.subject:
            by_name.setdefault(ev.subject, []).append(ev)
    for name, asks in by_name.items():
        turns = sorted({e.turn for e in asks})
        if len(turns) < 2:
            continue
        second = next(e for e in asks if e.turn == turns[1])
        collects = [
            (
                f"{skill.id}.{step.target}" if "." not in str(step.target) else str(step.target),
                f"step {step.id} of {skill.id}/{block}",
            )
            for skill, block, _, step in steps_for(facts.case.project, Subject("utter", name))
            if step.kind == "collect"
        ]
        keys = {key: step for key, step in collects}
        known = [
            e
            for e in facts.events
            if e.type == "memory_set" and e.subject in keys and e.index < second.index
        ]
        if known:
            key = known[0].subject or ""
            out.append(
                (
                    Evidence(
                        "event",
                        f"[T{second.turn}] asked again ({name}) although {key} "
                        f"was set at [T{known[0].turn}]",
                        second.turn,
                    ),
                    f"say that an answer already in @memory.{key} is not asked for again "
                    f"({keys[key]} asked at turn {turns[0]} and again at turn {second.turn})",
                )
            )
        elif complained and not keys:
            out.append(
                (
                    Evidence(
                        "event",
                        f"[T{second.turn}] asked again ({name}), first asked at [T{turns[0]}]",
                        second.turn,
                    ),
                    f"say that {name} is asked once and the answer kept",
                )
            )
    return out


def instruction(facts: Facts) -> Diagnosis:
    skill = next(iter(facts.expected_skills), None) or _active(facts)
    where = facts.case.definition_of(skill) if skill else "the skill's instructions"
    who = skill or "the agent"
    #: (turn, evidence, what to change, (cause key, cause title)) per thing that went wrong
    items: list[tuple[int | None, Evidence, str, tuple[tuple[str, ...], str]]] = []
    for ev, action in asked_twice(facts):
        name = ev.text.split("(", 1)[-1].split(")", 1)[0]
        items.append(
            (ev.turn, ev, action, ((who, "asked-twice", name), f"{who} asks {name} again"))
        )
    for check in facts.checks:
        items.append((check.turn, check_item(check), _check_fix(facts, check), _cause(who, check)))
    for n, crit in enumerate(facts.criteria):
        text = crit.result.text
        items.append(
            (
                crit.turn,
                criterion_item(facts, n),
                f"make the instructions for this situation explicit so that “{text}” holds",
                ((who, "criterion", text), f"“{text}” does not hold"),
            )
        )
    linked = [
        e
        for e in facts.activations()
        if skill and e.subject != skill and skill_linked(facts.case.project, skill, e.subject or "")
    ]
    for ev in linked[:1]:
        items.append(
            (
                ev.turn,
                Evidence(
                    "event",
                    f"{ev.where()} {skill} handed over to {ev.subject} as its skill.md allows",
                    ev.turn,
                ),
                f"check when {where} tells the agent to hand over to {ev.subject}",
                ((who, "handover", ev.subject or "?"), f"{who} hands over to {ev.subject}"),
            )
        )
    if not items:
        return Diagnosis(
            "Instruction",
            facts.record.last_turn or None,
            "failed-without-detail",
            [],
            "The run failed but records no failed check; re-run it and read run_N.txt.",
            cause=("failed-without-detail", facts.record.slug),
            title=f"{facts.record.slug} failed without a recorded check",
        )
    known = [i for i in items if i[0] is not None]
    turn, first, action, (key, title) = min(known, key=lambda i: i[0]) if known else items[0]
    evidence = [first] + [e for _, e, _, _ in items if e is not first]
    return Diagnosis(
        "Instruction",
        turn,
        "instruction",
        evidence,
        f"The right skill ran but went wrong at turn {turn}. In {where}, {action}; "
        "retrain and re-run.",
        cause=("instruction", *key),
        title=title,
    )


def _cause(who: str, check: FailedCheck) -> tuple[tuple[str, ...], str]:
    """A failed check as a root cause: what it is about and how it went wrong. The skill
    that owns the subject (a memory key's namespace, the skill of a block) speaks for it, so
    cases of different skills that miss the same hand-over key are one cause."""
    subject = check.subjects[0] if check.subjects else None
    how = {"happened": "forbidden", "closest": "wrong"}.get(check.how, "missing")
    if subject is None:
        return (who, check.result.type, how), f"{who} fails `{check.result.type}`"
    owner = subject.skill if subject.skill not in (None, "project", "system", "session") else None
    who = owner or who
    name = subject.name
    kind = check.result.type if subject.kind in ("skill", "block") else subject.kind
    step = _SEQUENCE_STEP.search(check.result.detail) if kind == "sequencing" else None
    if step:
        kind = step.group(1)
    if check.how == "happened":
        title = f"{who} does {name} where the case forbids it"
    elif check.how == "closest":
        title = f"{who} gives {name} the wrong value"
    elif subject.kind == "utter":
        title = f"{who} does not say {name}"
    elif subject.kind == "tool":
        title = f"{who} does not run {name}"
    elif subject.kind == "memory":
        title = f"{who} does not set {name}"
    else:
        title = f"no {kind.replace('_', ' ')} of {name}"
    return (who, kind, name, how), title


def _active(facts: Facts) -> str | None:
    """The skill or playbook active when the run broke: the last activation, if any."""
    activations = facts.activations()
    return activations[-1].subject if activations else None


def _check_fix(facts: Facts, check: FailedCheck) -> str:
    kind = check.result.type
    subject = check.subjects[0] if check.subjects else None
    detail = check.result.detail.split(";")[0]
    name = subject.name if subject else f"what `{kind}` checks ({detail})"
    quoted = said(facts, check.turn)
    if check.how == "happened":
        return f"rule out {name} at this point{quoted}; this case forbids it"
    if kind == "sequencing":
        return f"make the order explicit: {name} comes at this point{quoted}, after the step before"
    if check.how == "closest" and subject is not None and subject.kind == "memory":
        return (
            f"make {name} record what the user said{quoted} (its memory description and the "
            "collect step's description list the allowed values)"
        )
    if check.how == "closest":
        return f"say which value {name} must get here{quoted} and where it comes from"
    if kind == "bot_uttered":
        return f"make the agent say {name} at this point{quoted}"
    return f"make the step that leads to {name} explicit so it is not skipped{quoted}"


__all__ = ["asked_twice", "instruction", "skill_routing", "tool_error", "tool_reports_error"]
