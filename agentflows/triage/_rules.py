"""The deterministic triage rules: one bucket, the turn that broke, evidence and a fix.

Rules run in this order and the first that applies decides (docs/review-workflow.md,
"Failure triage", explains each with examples):

1. **Tool**: a tool ran with `is_error: true` (the judge ledger's `ERROR`) and the case did
   not expect that error. A broken tool explains everything after it, and no model may
   override this.
2. **Scenario**, the case contradicts the definitions: its assertions or setup do not lint
   clean against the project's real ids.
3. **Scenario**, `initial_slots` skipped a step: the failed check is about a step the agent
   skips when a memory key is already set, and the case pre-fills that key.
4. **Scenario**, the simulated user broke character (the simulator errored, or a user line
   reads like the agent).
5. **Skill**: the expected skill never activated, a different skill took the user's request
   first, or another skill took over from it without the skill handing over.
6. **Scenario**, the simulated user went off-script: the conversation ended while the agent
   was waiting for an answer and scripted lines were never said (or, unscripted, the judge
   could not decide a criterion).
7. **Tool**: a failed check names a tool whose result reports an error (`ok (reports error)`).
8. **Instruction**: the right skill ran but skipped or reordered a step, asked twice, passed
   the wrong value, said the wrong response, or broke a criterion about its behaviour.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ._definitions import Subject, definition_file, gating_keys, skill_linked, steps_for
from ._facts import Facts, FailedCheck
from ._ledger import Ev

Bucket = Literal["Skill", "Instruction", "Scenario", "Tool"]
BUCKETS: tuple[Bucket, ...] = ("Skill", "Instruction", "Scenario", "Tool")

_OUT_OF_ROLE = re.compile(
    r"\b(how (can|may) i (help|assist) you|as an ai\b|i('m| am) (an ai|an assistant|a virtual "
    r"assistant|a language model|the assistant)|is there anything else i can help)",
    re.I,
)
_REASK_WORDS = re.compile(r"\b(twice|again|repeat|re-?ask)", re.I)


@dataclass(frozen=True)
class Evidence:
    kind: str
    """assertion | criterion | event | transcript | definition | case | model"""
    text: str
    turn: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "turn": self.turn, "text": self.text}


@dataclass
class Diagnosis:
    bucket: Bucket
    turn: int | None
    rule: str
    evidence: list[Evidence]
    fix: str
    notes: list[Evidence] = field(default_factory=list)
    """Further failed checks, shown after the evidence the rule rests on."""


Rule = Callable[[Facts], Diagnosis | None]


def diagnose(facts: Facts) -> Diagnosis:
    """The first rule that applies (Instruction always does)."""
    for rule in RULES:
        found = rule(facts)
        if found is not None:
            used = {e.text for e in found.evidence}
            found.notes = [e for e in check_evidence(facts) if e.text not in used]
            return found
    raise AssertionError("the instruction rule always applies")


# --- evidence helpers -------------------------------------------------------------------


def _check(check: FailedCheck) -> Evidence:
    r = check.result
    return Evidence("assertion", f"assertion {r.index} {r.type} failed: {r.detail}", check.turn)


def _criterion(facts: Facts, number: int) -> Evidence:
    c = facts.criteria[number]
    return Evidence(
        "criterion",
        f"criterion {c.result.index} “{c.result.text}” {c.result.verdict}: {c.result.reason}",
        c.turn,
    )


def check_evidence(facts: Facts) -> list[Evidence]:
    return [_check(c) for c in facts.checks] + [
        _criterion(facts, n) for n in range(len(facts.criteria))
    ]


def _event(ev: Ev) -> Evidence:
    return Evidence("event", f"{ev.where()} {ev.describe()}", ev.turn)


def _said(facts: Facts, turn: int | None) -> str:
    text = facts.record.user_text(turn) if turn is not None else None
    return f" (“{' '.join(text.split())}”)" if text else ""


def _where(facts: Facts, subject: Subject) -> str:
    found = definition_file(facts.case.project, subject)
    return f" ({found})" if found else ""


def _checks_about(facts: Facts, kind: str, name: str) -> list[FailedCheck]:
    return [c for c in facts.checks
            if any(s.kind == kind and s.name == name for s in c.subjects)
            or (kind == "tool" and re.search(rf"\b{re.escape(name)}\b", c.result.detail))]


# --- 1. tool errors ---------------------------------------------------------------------


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
    evidence = [_event(e) for e in errors]
    evidence += [_check(c) for c in _checks_about(facts, "tool", tool)]
    evidence += [_criterion(facts, n) for n, c in enumerate(facts.criteria)
                 if tool in c.result.reason or "error" in c.result.reason.lower()]
    message = first.raw.get("error_message") or "an error"
    args = first.raw.get("arguments", first.raw.get("args")) or {}
    return Diagnosis(
        "Tool", first.turn, "tool-error", evidence,
        f"Fix the tool `{tool}`{_where(facts, Subject('tool', tool))}: at turn {first.turn} it "
        f"failed with {message!r} for arguments {args}. Make it (or its backend) handle this "
        "input; if the failure is legitimate, let the skill handle it (on_failure response, "
        "instructions) and cover it with a case that expects `is_error: true`.",
    )


# --- 2-4. the case itself ---------------------------------------------------------------


def case_contradicts_definitions(facts: Facts) -> Diagnosis | None:
    failed = {c.result.index for c in facts.checks}
    relevant = [
        f for f in facts.case.errors
        if f.path.startswith("/scenario/setup") or any(
            f.path == f"/scenario/goals/assertions/{i}"
            or f.path.startswith(f"/scenario/goals/assertions/{i}/") for i in failed
        )
    ]
    if not relevant or facts.case.path is None:
        return None
    evidence = [
        Evidence("case", f"{facts.case.display}:{f.line or '-'} [{f.code}] {f.path}: {f.message}"
                 + (f" → {f.suggestion}" if f.suggestion else ""))
        for f in relevant
    ]
    failing = [c for c in facts.checks if any(
        f.path.startswith(f"/scenario/goals/assertions/{c.result.index}") for f in relevant)]
    evidence += [_check(c) for c in failing]
    turns = [c.turn for c in failing if c.turn is not None]
    first = relevant[0]
    fix = (f"Edit the case {facts.case.display}: {first.message}"
           + (f" ({first.suggestion})" if first.suggestion else "")
           + ". The check cannot pass against this project as written; `casegen repair` fixes "
           "close ids, `casegen validate` lists the rest.")
    return Diagnosis("Scenario", min(turns, default=None), "case-contradicts-definitions",
                     evidence, fix)


def initial_slots_skip(facts: Facts) -> Diagnosis | None:
    slots = facts.case.initial_slots
    if not slots:
        return None
    for check in facts.checks:
        for subject in check.subjects:
            if facts.find(subject) and subject.kind != "memory":
                continue
            gates = gating_keys(facts.case.project, subject, facts.expected_skills)
            for key, why in gates.items():
                if key not in slots:
                    continue
                skill = subject.skill or next(iter(facts.expected_skills), None)
                activated = [e.turn for e in facts.activations() if e.subject == skill]
                turn = activated[0] if activated else (check.turn or 1)
                evidence = [
                    Evidence("case", f"setup.initial_slots sets {key} = {slots[key]!r}"),
                    Evidence("definition", why),
                    _check(check),
                ]
                return Diagnosis(
                    "Scenario", turn, "initial-slots-skip", evidence,
                    f"The case pre-fills `{key}` in setup.initial_slots, so the agent rightly "
                    f"skipped {subject.kind} `{subject.name}`. Remove `{key}` from "
                    f"initial_slots so the step runs, or drop assertion {check.result.index} "
                    f"({check.result.type}) from {facts.case.display or 'the case'}.",
                )
    return None


def simulator_out_of_role(facts: Facts) -> Diagnosis | None:
    record = facts.record
    if record.simulator_failed:
        turn = record.last_turn
        return Diagnosis(
            "Scenario", turn, "simulator-error",
            [Evidence("transcript", f"the simulated user failed: {record.error}", turn)],
            "The simulated user could not continue. Make simulation_context say who the user "
            "is, what they want and when to stop (quote the exact lines to say); if it keeps "
            "failing, use a more capable simulator model.",
        )
    for line in record.transcript:
        if line.role == "user" and _OUT_OF_ROLE.search(line.text):
            return Diagnosis(
                "Scenario", line.turn, "simulator-out-of-role",
                [Evidence("transcript", f"[T{line.turn}] user: “{line.text}” reads like the "
                          "agent, not the customer", line.turn)],
                f"The simulated user broke character at turn {line.turn}. Tighten "
                "simulation_context: open with 'You are <customer>…', state the goal and quote "
                "the lines to say; re-run the case.",
            )
    return None


# --- 5. routing -------------------------------------------------------------------------


def skill_routing(facts: Facts) -> Diagnosis | None:
    if not facts.expected_skills or not facts.events:
        return None
    expected = facts.expected_skills
    primary = expected[0]
    activations = facts.activations()
    mine = [e for e in activations if e.subject == primary]
    others = [e for e in activations if e.subject not in expected]
    first_user = min((ln.turn for ln in facts.record.transcript if ln.role == "user"), default=1)
    desc = f"skills/{primary}/skill.md"
    if not mine:
        if others:
            wrong = others[0]
            return Diagnosis(
                "Skill", wrong.turn, "wrong-skill",
                [_event(wrong),
                 Evidence("event", f"expected skill {primary} never activated", None)],
                f"Routing: the request at turn {wrong.turn}{_said(facts, wrong.turn)} went to "
                f"`{wrong.subject}` instead of `{primary}`. Make the description in {desc} "
                f"cover requests worded like this one, and narrow skills/{wrong.subject}/"
                "skill.md's description so it does not claim them; retrain and re-run.",
            )
        if not activations and any(ln.role == "user" for ln in facts.record.transcript):
            return Diagnosis(
                "Skill", first_user, "no-skill",
                [Evidence("event", f"no skill activated; expected {primary}", None)],
                f"No skill took the request at turn {first_user}{_said(facts, first_user)}. "
                f"Add wording like it to the description in {desc}; retrain and re-run.",
            )
        return None
    start = mine[0]
    earlier = [e for e in others if e.index < start.index]
    if earlier:
        wrong = earlier[0]
        return Diagnosis(
            "Skill", wrong.turn, "late-skill",
            [_event(wrong), _event(start)],
            f"Routing: the request at turn {wrong.turn}{_said(facts, wrong.turn)} went to "
            f"`{wrong.subject}` first; `{primary}` only started at turn {start.turn}. Make "
            f"the description in {desc} cover this wording and narrow skills/{wrong.subject}/"
            "skill.md's description; retrain and re-run.",
        )
    about_primary = any(s.skill == primary or s.name == primary
                        for c in facts.checks for s in c.subjects)
    for other in (e for e in others if e.index > start.index):
        if skill_linked(facts.case.project, primary, other.subject or ""):
            continue
        ended = [e for e in facts.events if e.subject == primary and e.index > other.index
                 and e.type == "skill_completed"]
        if about_primary and not ended:
            return Diagnosis(
                "Skill", other.turn, "skill-hijacked",
                [_event(start), _event(other)],
                f"Routing: at turn {other.turn}{_said(facts, other.turn)} `{other.subject}` "
                f"took over from `{primary}`, which never finished. Narrow skills/"
                f"{other.subject}/skill.md's description so this message stays with "
                f"`{primary}` (or make {desc} handle it); retrain and re-run.",
            )
    return None


# --- 6. the simulated user went off-script ----------------------------------------------


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _said_line(quoted: str, said: str) -> bool:
    q, s = _norm(quoted), _norm(said)
    return bool(q) and (q in s or difflib.SequenceMatcher(None, q, s).ratio() >= 0.75)


def _script(context: str) -> list[str]:
    """The user lines a simulation context quotes, in order (the simulator's own rule when
    it is installed, else every double-quoted string)."""
    try:
        from evalcore.simulator._quoted import quoted_user_lines
    except ImportError:
        return [" ".join(m.split()) for m in re.findall(r"[“\"]([^”\"]+)[”\"]", context)]
    return quoted_user_lines(context)


def simulator_off_script(facts: Facts) -> Diagnosis | None:
    transcript = facts.record.transcript
    if not transcript or facts.record.stop_reason in ("agent_ended", "max_turns"):
        return None
    last = transcript[-1]
    waiting = last.role == "agent" and last.text.rstrip().endswith("?")
    stopped = last.role == "user" or waiting
    if not stopped:
        return None
    script = _script(facts.case.simulation_context)
    users = [ln for ln in transcript if ln.role == "user"]
    position = 0
    for line in users:
        hit = next((j for j in range(position, len(script)) if _said_line(script[j], line.text)),
                   None)
        if hit is not None:
            position = hit + 1
    missing = script[position:]
    inconclusive = [n for n, c in enumerate(facts.criteria) if c.result.verdict == "inconclusive"]
    if not missing and not (not script and inconclusive and waiting):
        return None
    turn = last.turn
    evidence = [Evidence("transcript", f"[T{last.turn}] {last.role}: “{last.text}” — the "
                         "conversation ended here", last.turn)]
    if missing:
        evidence.append(Evidence(
            "case", f"{len(missing)} scripted line(s) never said, first: “{missing[0]}”"))
    evidence += [_criterion(facts, n) for n in inconclusive]
    question = f" (“{last.text}”)" if waiting else ""
    return Diagnosis(
        "Scenario", turn, "simulator-off-script", evidence,
        f"The simulated user stopped at turn {turn} while the agent was waiting for an "
        f"answer{question}. Make simulation_context's steps match the agent's questions "
        "('When asked …, say: \"…\"') and say when to stop ('Stop once …'), then re-run.",
    )


# --- 7. a tool that reports an error ----------------------------------------------------


def tool_reports_error(facts: Facts) -> Diagnosis | None:
    for ev in facts.events:
        if not ev.reports_error or not ev.subject:
            continue
        related = _checks_about(facts, "tool", ev.subject)
        if not related:
            continue
        return Diagnosis(
            "Tool", ev.turn, "tool-reports-error", [_event(ev), *(_check(c) for c in related)],
            f"`{ev.subject}`{_where(facts, Subject('tool', ev.subject))} returned an error "
            f"result at turn {ev.turn}. Check that the arguments the agent passed are valid "
            "(the tool's docstring and parameter types are what the model reads) and that the "
            "backend accepts them.",
        )
    return None


# --- 8. instructions --------------------------------------------------------------------


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
            (f"{skill.id}.{step.target}" if "." not in str(step.target) else str(step.target),
             f"step {step.id} of {skill.id}/{block}")
            for skill, block, _, step in steps_for(facts.case.project, Subject("utter", name))
            if step.kind == "collect"
        ]
        keys = {key: step for key, step in collects}
        known = [e for e in facts.events
                 if e.type == "memory_set" and e.subject in keys and e.index < second.index]
        if known:
            key = known[0].subject or ""
            out.append((
                Evidence("event", f"[T{second.turn}] asked again ({name}) although {key} "
                         f"was set at [T{known[0].turn}]", second.turn),
                f"say that an answer already in @memory.{key} is not asked for again "
                f"({keys[key]} asked at turn {turns[0]} and again at turn {second.turn})",
            ))
        elif complained and not keys:
            out.append((
                Evidence("event", f"[T{second.turn}] asked again ({name}), first asked at "
                         f"[T{turns[0]}]", second.turn),
                f"say that {name} is asked once and the answer kept",
            ))
    return out


def instruction(facts: Facts) -> Diagnosis:
    skill = next(iter(facts.expected_skills), None)
    where = f"skills/{skill}/skill.md" if skill else "the skill's instructions"
    items: list[tuple[int | None, Evidence, str]] = []
    for ev, action in asked_twice(facts):
        items.append((ev.turn, ev, action))
    for check in facts.checks:
        items.append((check.turn, _check(check), _check_fix(facts, check)))
    for n, crit in enumerate(facts.criteria):
        items.append((crit.turn, _criterion(facts, n),
                      f"make the instructions for this situation explicit so that "
                      f"“{crit.result.text}” holds"))
    linked = [e for e in facts.activations() if skill and e.subject != skill
              and skill_linked(facts.case.project, skill, e.subject or "")]
    for ev in linked[:1]:
        items.append((ev.turn, Evidence("event", f"{ev.where()} {skill} handed over to "
                                        f"{ev.subject} as its skill.md allows", ev.turn),
                      f"check when {where} tells the agent to hand over to {ev.subject}"))
    if not items:
        return Diagnosis(
            "Instruction", facts.record.last_turn or None, "failed-without-detail", [],
            "The run failed but records no failed check; re-run it and read run_N.txt.",
        )
    known = [i for i in items if i[0] is not None]
    turn, first, action = min(known, key=lambda i: i[0]) if known else items[0]
    evidence = [first] + [e for _, e, _ in items if e is not first]
    return Diagnosis(
        "Instruction", turn, "instruction", evidence,
        f"The right skill ran but went wrong at turn {turn}. In {where}, {action}; "
        "retrain and re-run.",
    )


def _check_fix(facts: Facts, check: FailedCheck) -> str:
    kind = check.result.type
    subject = check.subjects[0] if check.subjects else None
    name = subject.name if subject else "the expected step"
    said = _said(facts, check.turn)
    if check.how == "happened":
        return f"rule out {name} at this point{said}; this case forbids it"
    if kind == "sequencing":
        return f"make the order explicit: {name} comes at this point{said}, after the step before"
    if check.how == "closest" and subject is not None and subject.kind == "memory":
        return (f"make {name} record what the user said{said} (its memory description and the "
                "collect step's description list the allowed values)")
    if check.how == "closest":
        return f"say which value {name} must get here{said} and where it comes from"
    if kind == "bot_uttered":
        return f"make the agent say {name} at this point{said}"
    return f"make the step that leads to {name} explicit so it is not skipped{said}"


RULES: tuple[Rule, ...] = (
    tool_error,
    case_contradicts_definitions,
    initial_slots_skip,
    simulator_out_of_role,
    skill_routing,
    simulator_off_script,
    tool_reports_error,
    instruction,
)

__all__ = ["BUCKETS", "RULES", "Bucket", "Diagnosis", "Evidence", "check_evidence", "diagnose"]
