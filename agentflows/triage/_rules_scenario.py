"""Rules that blame the case itself (Scenario): it contradicts the definitions, its
`initial_slots` made the agent skip what it checks, or its simulated user broke character,
never said what it wanted, had no answer to a question, or went off-script."""

from __future__ import annotations

import difflib
import re

from evalcore.lexicon.en.run_findings import USER_AS_ASSISTANT

from ._definitions import gating_keys
from ._diagnosis import Diagnosis, Evidence, check_item, criterion_item
from ._facts import Facts

_OUT_OF_ROLE = USER_AS_ASSISTANT


def case_contradicts_definitions(facts: Facts) -> Diagnosis | None:
    failed = {c.result.index for c in facts.checks}
    relevant = [
        f
        for f in facts.case.errors
        if f.path.startswith("/scenario/setup")
        or any(
            f.path == f"/scenario/goals/assertions/{i}"
            or f.path.startswith(f"/scenario/goals/assertions/{i}/")
            for i in failed
        )
    ]
    if not relevant or facts.case.path is None:
        return None
    evidence = [
        Evidence(
            "case",
            f"{facts.case.display}:{f.line or '-'} [{f.code}] {f.path}: {f.message}"
            + (f" → {f.suggestion}" if f.suggestion else ""),
        )
        for f in relevant
    ]
    failing = [
        c
        for c in facts.checks
        if any(f.path.startswith(f"/scenario/goals/assertions/{c.result.index}") for f in relevant)
    ]
    evidence += [check_item(c) for c in failing]
    turns = [c.turn for c in failing if c.turn is not None]
    first = relevant[0]
    fix = (
        f"Edit the case {facts.case.display}: {first.message}"
        + (f" ({first.suggestion})" if first.suggestion else "")
        + ". The check cannot pass against this project as written; `casegen repair` fixes "
        "close ids, `casegen validate` lists the rest."
    )
    return Diagnosis(
        "Scenario", min(turns, default=None), "case-contradicts-definitions", evidence, fix
    )


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
                    check_item(check),
                ]
                return Diagnosis(
                    "Scenario",
                    turn,
                    "initial-slots-skip",
                    evidence,
                    f"The case pre-fills `{key}` in setup.initial_slots, so the agent rightly "
                    f"skipped {subject.kind} `{subject.name}`. Remove `{key}` from "
                    f"initial_slots so the step runs, or drop assertion {check.result.index + 1} "
                    f"({check.result.type}) from {facts.case.display or 'the case'}.",
                )
    return None


def simulator_out_of_role(facts: Facts) -> Diagnosis | None:
    record = facts.record
    if record.simulator_failed:
        turn = record.last_turn
        return Diagnosis(
            "Scenario",
            turn,
            "simulator-error",
            [Evidence("transcript", f"the simulated user failed: {record.error}", turn)],
            "The simulated user could not continue. Make simulation_context say who the user "
            "is, what they want and when to stop (quote the exact lines to say); if it keeps "
            "failing, use a more capable simulator model.",
        )
    for line in record.transcript:
        if line.role == "user" and _OUT_OF_ROLE.search(line.text):
            return Diagnosis(
                "Scenario",
                line.turn,
                "simulator-out-of-role",
                [
                    Evidence(
                        "transcript",
                        f"[T{line.turn}] user: “{line.text}” reads like the "
                        "agent, not the customer",
                        line.turn,
                    )
                ],
                f"The simulated user broke character at turn {line.turn}. Tighten "
                "simulation_context: open with 'You are <customer>…', state the goal and quote "
                "the lines to say; re-run the case.",
            )
    return None


def simulator_lacks_fact(facts: Facts) -> Diagnosis | None:
    """The offline simulated user had no answer to what the agent asked: the persona holds
    no such fact (free prose with nothing to read one from, or a fact left out). The agent
    asked rightly; the case cannot be played without a model or the fact."""
    from evalcore.simulator import UNKNOWN  # start-up: tomllib and 24 casegen modules

    simulator = facts.record.raw.get("simulator")
    if not isinstance(simulator, dict) or simulator.get("engine") != "offline":
        return None
    lines = facts.record.transcript
    for index, line in enumerate(lines):
        if line.role != "user" or line.text.strip() != UNKNOWN:
            continue
        asked = next(
            (ln.text for ln in reversed(lines[:index]) if ln.role != "user"), "its question"
        )
        return Diagnosis(
            "Scenario",
            line.turn,
            "simulator-lacks-fact",
            [
                Evidence(
                    "transcript",
                    f"[T{line.turn}] the agent asked “{asked}”; the offline simulated user has "
                    f"no such fact in simulation_context and said “{UNKNOWN}”",
                    line.turn,
                )
            ],
            f"The case gives its simulated user no answer to “{asked}”. Add the fact to "
            "simulation_context as a labelled line ('Date of birth: 1984-03-12') or a quoted "
            "step ('When asked …, say: \"…\"'), or seed it in setup.initial_slots; free "
            "prose with no facts only a simulator model can play (--model).",
        )
    return None


#: Words that carry no request: greetings, fillers, courtesy, pronouns and auxiliaries.
_FILLER = """
    hi hello hey hiya howdy greetings good morning afternoon evening day there yo ok okay
    sure yes yeah yep no nope thanks thank you please cheers hmm um uh well so i im me my we
    us it this that a an the is am are was be been to of and or but for with just can could
    would will you your how what doing today ready start begin assist help some question
    something chat need want like have
"""
_NO_REQUEST = frozenset(re.findall(r"\w+", _FILLER))


def states_request(text: str) -> bool:
    """Whether a user message says anything beyond a greeting or filler ("Hi", "Hello,
    how are you?", "OK", "I need help" say nothing the agent can route)."""
    return any(len(w) > 2 and w not in _NO_REQUEST for w in _norm(text).split())


def simulator_no_request(facts: Facts) -> Diagnosis | None:
    """The simulated user never said what it wanted before the agent had to route it: a
    skill that did not start is then the scenario's (or the simulator's) fault."""
    expected = facts.expected_skills
    users = [ln for ln in facts.record.transcript if ln.role == "user"]
    if not expected or not users:
        return None
    activations = facts.activations()
    if any(e.subject == expected[0] for e in activations):
        return None
    routed_at = min((e.turn for e in activations), default=None)
    before = [ln for ln in users if routed_at is None or ln.turn <= routed_at]
    if not before or any(states_request(ln.text) for ln in before):
        return None
    opening = users[0]
    quoted = " / ".join(f"[T{ln.turn}] “{ln.text}”" for ln in before[:3])
    return Diagnosis(
        "Scenario",
        opening.turn,
        "simulator-no-request",
        [
            Evidence(
                "transcript",
                f"{quoted}: the simulated user stated no request"
                + (" before the agent routed it" if routed_at is not None else ""),
                opening.turn,
            )
        ],
        f"The simulated user opened with “{opening.text}” and never said what it wanted, so "
        f"no skill could take the request for {expected[0]}. Make simulation_context state "
        "the request up front ('Ask to …' or a quoted first line), or use a more capable "
        "simulator model; re-run the case.",
    )


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _said_line(quoted: str, said: str) -> bool:
    q, s = _norm(quoted), _norm(said)
    return bool(q) and (q in s or difflib.SequenceMatcher(None, q, s).ratio() >= 0.75)


def _script(context: str) -> list[str]:
    """The user lines a simulation context quotes, in order (the simulator's own rule when
    it is installed, else every double-quoted string)."""
    try:
        from evalcore.simulator import quoted_user_lines  # start-up: tomllib and 24 casegen modules
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
        hit = next(
            (j for j in range(position, len(script)) if _said_line(script[j], line.text)), None
        )
        if hit is not None:
            position = hit + 1
    missing = script[position:]
    inconclusive = [n for n, c in enumerate(facts.criteria) if c.result.verdict == "inconclusive"]
    if not missing and not (not script and inconclusive and waiting):
        return None
    turn = last.turn
    evidence = [
        Evidence(
            "transcript",
            f"[T{last.turn}] {last.role}: “{last.text}” — the conversation ended here",
            last.turn,
        )
    ]
    if missing:
        evidence.append(
            Evidence("case", f"{len(missing)} scripted line(s) never said, first: “{missing[0]}”")
        )
    evidence += [criterion_item(facts, n) for n in inconclusive]
    question = f" (“{last.text}”)" if waiting else ""
    return Diagnosis(
        "Scenario",
        turn,
        "simulator-off-script",
        evidence,
        f"The simulated user stopped at turn {turn} while the agent was waiting for an "
        f"answer{question}. Make simulation_context's steps match the agent's questions "
        "('When asked …, say: \"…\"') and say when to stop ('Stop once …'), then re-run.",
    )


__all__ = [
    "case_contradicts_definitions",
    "initial_slots_skip",
    "simulator_lacks_fact",
    "simulator_no_request",
    "simulator_off_script",
    "simulator_out_of_role",
    "states_request",
]
